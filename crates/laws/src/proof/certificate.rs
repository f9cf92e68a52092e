//! Proofs for every board: a periodic claim about a game with bounded moves is checked on a
//! finite box, which covers every case of the whole infinite board.
//!
//! With reach r (the largest coordinate change of any move) and a claim periodic with period p_a
//! on axis a, the claim's local condition at a position — for a P-set: claimed P exactly when no
//! option is claimed P; for values: the claimed value is the mex of the options' claimed values —
//! depends only on the claim at the position and at most r below it, and on which moves exist.
//! Once a coordinate is at least min_a + r, every move along that axis exists and only the
//! coordinate's residue mod p_a matters. So the box min_a ..= min_a + r + p_a − 1 on every axis
//! (boundary strips included) holds a representative of every case, and the condition holding
//! there proves it everywhere; by induction on the coordinate sum, the claim is then the game's
//! true P-set (or value function).
//!
//! Under misère play ([`grundy_core::Play`]) the local condition is the misère one — a position
//! without an option is N, its value 1 — and the same box proves it, since the condition is
//! still local; a game whose moves leave sums has no local condition under misère play and is
//! never proved.

use crate::proof::{Proof, Theorem};
use grundy_compute::Budget;
use grundy_core::{mex, Amounts, Coord, Game, GameOption, MoveForm, Nimber, Play};
use grundy_expr::Expr;
use ndarray::Dimension;

/// The outcome of trying to prove a claim for every board: the proof (by the finite box,
/// [`Theorem::FiniteBox`]) or why there is none, and the box that was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The proof, or why there is none.
    pub proof: Proof,
    /// The box that was checked (inclusive coordinates per axis), when a check ran.
    pub checked_box: Option<Vec<[Coord; 2]>>,
}

impl Certificate {
    pub(crate) fn none(why: impl Into<String>) -> Certificate {
        Certificate { proof: Proof::none(why), checked_box: None }
    }
}

/// Why a game's moves have no bounded reach.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unbounded {
    /// Rule `rule` (1-based, of `kind`) moves without a bound.
    Rule {
        /// The rule's number.
        rule: usize,
        /// Its kind.
        kind: &'static str,
        /// How it is unbounded.
        how: UnboundedHow,
    },
    /// A move reaches 2^31 cells or more.
    TooFar {
        /// How far.
        cells: u128,
    },
    /// No move starts where the game's terminal condition holds, so the moves are not the same
    /// at every position and no box stands for the whole board.
    Terminal {
        /// The condition.
        condition: String,
    },
}

/// How a rule moves without a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnboundedHow {
    /// A jump by an infinite step set.
    Steps,
    /// A slide of any distance.
    Slide,
    /// A split into a sum.
    Split,
    /// Take-and-break moves into sums.
    Breaks,
}

impl std::fmt::Display for Unbounded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unbounded::Rule { rule, kind, how } => {
                let how = match how {
                    UnboundedHow::Steps => "jumps by an unbounded step set",
                    UnboundedHow::Slide => "slides any distance",
                    UnboundedHow::Split => "splits the position into a sum",
                    UnboundedHow::Breaks => "breaks heaps into sums",
                };
                write!(f, "rule {rule} ({kind}) {how}")
            }
            Unbounded::TooFar { cells } => write!(f, "a move reaches {cells} cells, 2^31 or more"),
            Unbounded::Terminal { condition } => write!(
                f,
                "no move starts where `{condition}` holds, so the moves differ from position to \
                 position"
            ),
        }
    }
}

impl std::error::Error for Unbounded {}

/// The largest coordinate change of any move when every move is bounded (steps, jumps with
/// finite step sets, slides with a `max`), or why a move is not.
pub fn reach(game: &Game) -> Result<Coord, Unbounded> {
    // The box stands for the whole board only where the same moves start everywhere.
    if let Some(terminal) = game.terminal() {
        return Err(Unbounded::Terminal { condition: terminal.text().to_string() });
    }
    let mut reach: u128 = 0;
    for (index, rule) in game.rules().iter().enumerate() {
        let unbounded = |how| Err(Unbounded::Rule { rule: index + 1, kind: rule.kind(), how });
        let (directions, most) = match rule.form() {
            // A slide of at most `max` cells reaches as far as a jump of `max` (issue 28: `max = 1`
            // was read as unbounded).
            MoveForm::Translate { directions, amounts } => match (amounts.most(), amounts) {
                (Some(most), _) => (directions, most),
                (None, Amounts::Run { .. }) => return unbounded(UnboundedHow::Slide),
                (None, _) => return unbounded(UnboundedHow::Steps),
            },
            MoveForm::Cut { .. } => return unbounded(UnboundedHow::Split),
            MoveForm::Code(_) => return unbounded(UnboundedHow::Breaks),
        };
        for direction in directions {
            let longest = direction.iter().map(|d| d.unsigned_abs()).max().unwrap_or(0);
            reach = reach.max(u128::from(longest) * u128::from(most));
        }
    }
    // Directions are below 2^31 (`Game::new`), but step amounts are not bounded.
    Coord::try_from(reach)
        .ok()
        .filter(|&r| r < grundy_core::COORD_LIMIT)
        .ok_or(Unbounded::TooFar { cells: reach })
}

/// The budget's watch over a box proof: after every [`BoxWatch::EVERY`] units of work (a cell and
/// its options) it reports the cells checked and asks whether the proof must stop, and once it has run a little it projects the whole box's time
/// and stops at once when the box cannot be checked in what is left (issue 59: a 49 M-cell box
/// ran for minutes with no bound and no progress).
struct BoxWatch<'b> {
    cells: u128,
    done: u128,
    reported: u128,
    /// The work done (cells and their options) and the work at which the budget is looked at
    /// next.
    work: u128,
    next_look: u128,
    projected: bool,
    budget: &'b Budget<'b>,
}

impl<'b> BoxWatch<'b> {
    /// Work (cells and their options) between two looks at the budget: some thousand cells of a
    /// game with a few moves, a few cells of one with thousands (issue 59: a spec of 7320 steps
    /// ran 30 M options between two looks, past its budget by a second).
    const EVERY: u128 = 1 << 14;

    fn new(cells: u128, budget: &'b Budget<'b>) -> BoxWatch<'b> {
        budget.starts(u64::try_from(cells).unwrap_or(u64::MAX));
        BoxWatch { cells, done: 0, reported: 0, work: 0, next_look: 0, projected: false, budget }
    }

    /// One more cell, with its `options`; why the proof must stop, if it must.
    fn tick(&mut self, options: usize) -> Option<String> {
        self.done += 1;
        self.work += 1 + options as u128;
        if self.work < self.next_look {
            return None;
        }
        self.next_look = self.work + Self::EVERY;
        self.budget.advance(self.unreported());
        let checked = self.done - 1;
        if let Some(spent) = self.budget.spent() {
            return Some(format!(
                "the proof stopped: {spent} after {checked} of the box's {} cells",
                self.cells
            ));
        }
        // A projection from the first tenth of a second (or of the budget, when shorter).
        let elapsed = self.budget.elapsed().as_secs_f64();
        let settled = elapsed >= (self.budget.seconds().get() / 10.0).min(0.1);
        if !self.projected && settled && checked > 0 {
            self.projected = true;
            let whole = elapsed * self.cells as f64 / checked as f64;
            if whole > 2.0 * (elapsed + self.budget.remaining().as_secs_f64()) {
                return Some(format!(
                    "the proof stopped: the box's {} cells would take about {} s to check, past \
                     its budget of {} s",
                    self.cells,
                    whole.ceil(),
                    self.budget.seconds()
                ));
            }
        }
        None
    }

    /// The cells not yet reported to the budget's progress, now reported.
    fn unreported(&mut self) -> u64 {
        let new = self.done - self.reported;
        self.reported = self.done;
        new as u64
    }
}

/// What a periodic claim says at each position.
pub enum PeriodicClaim<'a> {
    /// The P-positions are where this condition holds.
    PSet(&'a dyn Fn(&[Coord]) -> Option<bool>),
    /// The value is this.
    Values(&'a dyn Fn(&[Coord]) -> Option<i64>),
}

impl PeriodicClaim<'_> {
    /// Whether the claim's local condition holds at `pos`, whose options are `options`, under
    /// `play`: what the box checks at every one of its cells.
    fn holds_at(&self, pos: &[Coord], options: &[GameOption], play: Play) -> bool {
        match self {
            PeriodicClaim::PSet(claimed_p) => {
                let here = claimed_p(pos);
                let any_p_option = options
                    .iter()
                    .map(|o| claimed_p(&o[0]))
                    .try_fold(false, |any, p| p.map(|p| any || p));
                // A position is P when it has an option and none is P, except that under normal
                // play a position without an option is P too (under misère play it is N).
                let p_without_options = play.terminal_is_p();
                match (here, any_p_option) {
                    (Some(here), Some(any)) => {
                        here == if options.is_empty() { p_without_options } else { !any }
                    }
                    _ => false,
                }
            }
            PeriodicClaim::Values(value) => {
                let here = value(pos);
                let option_values: Option<Vec<Nimber>> = options
                    .iter()
                    .map(|o| value(&o[0]).and_then(|v| u32::try_from(v).ok()).map(Nimber))
                    .collect();
                match (here, option_values) {
                    (Some(here), Some(values)) => {
                        let value = play.value(mex(values), || options.is_empty());
                        i64::from(value.value()) == here
                    }
                    _ => false,
                }
            }
        }
    }

    /// The local condition, as a refusal states it.
    fn condition(&self) -> &'static str {
        match self {
            PeriodicClaim::PSet(_) => {
                "a claimed P-position must have no claimed-P option and every other position one"
            }
            PeriodicClaim::Values(_) => {
                "the claimed value must be the mex of the options' claimed values"
            }
        }
    }
}

/// Proves `claim` (periodic with `periods` on the game's axes) for every board of `game`, by the
/// finite check described in the module documentation.
pub fn prove_periodic(
    game: &Game,
    claim: &PeriodicClaim<'_>,
    periods: &[u64],
    how_periodic: &str,
    budget: &Budget<'_>,
) -> Certificate {
    let r = match reach(game) {
        Ok(r) => r,
        Err(why) => return Certificate::none(format!("the moves are unbounded: {why}")),
    };
    let play = game.play();
    if !game.values_are_local() {
        return Certificate::none(
            "under misère play a move that leaves a sum has no value from its parts, so no local check proves a claim".to_string(),
        );
    }
    let axes = game.axes();
    let bounds = match proof_box(game, r, periods) {
        Ok(bounds) => bounds,
        Err(why) => return Certificate::none(why),
    };
    let cells = box_cells(&bounds);
    if cells > MAX_BOX_CELLS {
        return Certificate::none(format!("the box to check has {cells} cells, too many"));
    }
    let describe = |pos: &[Coord]| pos.iter().map(Coord::to_string).collect::<Vec<_>>().join(", ");
    let lens: Vec<usize> = bounds.iter().map(|[lo, hi]| (hi - lo + 1) as usize).collect();
    // Every position of the box, row-major.
    let mut watch = BoxWatch::new(cells, budget);
    for index in ndarray::indices(ndarray::IxDyn(&lens)) {
        let pos: Vec<Coord> =
            bounds.iter().zip(index.slice()).map(|([lo, _], &i)| lo + i as Coord).collect();
        let options = game.options(&pos);
        if let Some(why) = watch.tick(options.len()) {
            return Certificate { proof: Proof::none(why), checked_box: None };
        }
        if !claim.holds_at(&pos, &options, play) {
            return Certificate {
                proof: Proof::none(format!(
                    "the claim fails its own local condition at ({}): {}",
                    describe(&pos),
                    claim.condition()
                )),
                checked_box: Some(bounds),
            };
        }
    }
    budget.advance(watch.unreported());
    let shown: Vec<String> = axes
        .iter()
        .zip(&bounds)
        .map(|(axis, [lo, hi])| format!("{} in {lo}..={hi}", axis.name))
        .collect();
    let periods: Vec<String> = periods.iter().map(u64::to_string).collect();
    let argument = format!(
        "[{}] ({how_periodic}) and every move changes a coordinate by at most r = {r}; its local \
         condition holds on every cell of the box {}, which covers every case of the infinite \
         board, so it holds on every board",
        periods.join(", "),
        shown.join(", ")
    );
    Certificate { proof: Proof::by(Theorem::FiniteBox, argument), checked_box: Some(bounds) }
}

/// The most cells a box proof checks.
const MAX_BOX_CELLS: u128 = 50_000_000;

/// The box that proves a claim with `periods` on `game`, whose moves reach `r`: from each axis'
/// minimum, `r` plus a period along it.
fn proof_box(game: &Game, r: Coord, periods: &[u64]) -> Result<Vec<[Coord; 2]>, String> {
    if let Some(p) = periods.iter().find(|&&p| p >= grundy_core::COORD_LIMIT as u64) {
        return Err(format!("the period {p} is 2^31 or more, too long to check"));
    }
    // Every term is below 2^31, so the sums stay inside `Coord`.
    Ok(game
        .axes()
        .iter()
        .zip(periods)
        .map(|(axis, &p)| [axis.min, axis.min + r + p as Coord - 1])
        .collect())
}

fn box_cells(bounds: &[[Coord; 2]]) -> u128 {
    bounds.iter().map(|[lo, hi]| (hi - lo + 1) as u128).product()
}

/// The work of [`prove_periodic`] with `periods` on `game` to its end, a bound a server counts
/// before it starts one: the box's cells times one more than the options of its far corner (the
/// corner has every move a cell of the box has, for moves that only shrink coordinates); 0 when
/// no box is checked.
pub(crate) fn box_work(game: &Game, periods: &[u64]) -> u128 {
    let Ok(r) = reach(game) else { return 0 };
    let Ok(bounds) = proof_box(game, r, periods) else { return 0 };
    let cells = box_cells(&bounds);
    if cells > MAX_BOX_CELLS || !game.values_are_local() {
        return 0;
    }
    let corner: Vec<Coord> = bounds.iter().map(|[_, hi]| *hi).collect();
    cells * (game.options(&corner).len() as u128 + 1)
}

/// Runs [`prove_periodic`] for a P-set rule in the expression language whose variables are the
/// game's axis names, within `budget`.
pub fn prove_outcome_rule(game: &Game, rule: &str, budget: &Budget<'_>) -> Certificate {
    let names: Vec<&str> = game.axes().iter().map(|a| a.name.as_str()).collect();
    let Ok(expr) = Expr::parse(rule, &names) else {
        return Certificate::none("the rule does not parse");
    };
    let Some(periods) = expr.periods() else {
        return Certificate::none("the rule's form does not show that it repeats on the whole board (it names single cells or bounds a coordinate)");
    };
    let claimed_p = |pos: &[Coord]| expr.eval_bool(pos).ok();
    let how = "read from the rule's form";
    prove_periodic(game, &PeriodicClaim::PSet(&claimed_p), &periods, how, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::lookup;

    #[test]
    fn the_convention_enters_the_local_condition() {
        // Under misère play kiki's corner (1, 1) has no move, so it is N, and the normal-play
        // rule fails there; a rule that is right under misère play passes the same box.
        let misere = lookup("kiki").unwrap().with_play(grundy_core::Play::Misere);
        let normal_rule =
            prove_outcome_rule(&misere, "n % 2 == 1 && m % 2 == 1", &Budget::default());
        assert!(normal_rule.proof.argument().contains("at (1, 1)"), "{:?}", normal_rule.proof);
        // One step left or down from (0, 0): (0, 0) is N under misère play, so the P-positions
        // are those of odd n + m, and the box proves it.
        let spec =
            "name = \"steps\"\naxes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n\
                    play = \"misere\"\n[[rules]]\nkind = \"step\"\noffsets = [[-1, 0], [0, -1]]\n";
        let steps = grundy_core::parse_spec(spec, "steps").unwrap();
        let proof = prove_outcome_rule(&steps, "(n + m) % 2 == 1", &Budget::default());
        assert!(proof.proof.is_proved(), "{:?}", proof.proof);
        assert!(!prove_outcome_rule(&steps, "(n + m) % 2 == 0", &Budget::default())
            .proof
            .is_proved());
        let cutting = lookup("cutting").unwrap().with_play(grundy_core::Play::Misere);
        assert!(!prove_outcome_rule(&cutting, "w == 1", &Budget::default()).proof.is_proved());
    }

    #[test]
    fn kikis_rule_is_proved_and_a_wrong_one_is_not() {
        let kiki = lookup("kiki").unwrap();
        let proof = prove_outcome_rule(&kiki, "n % 2 == 1 && m % 2 == 1", &Budget::default());
        assert!(proof.proof.is_proved(), "{:?}", proof.proof);
        assert_eq!(proof.checked_box, Some(vec![[1, 3], [1, 3]]));
        let wrong = prove_outcome_rule(&kiki, "n % 2 == 0", &Budget::default());
        assert!(!wrong.proof.is_proved());
        assert!(
            wrong.proof.argument().starts_with("the claim fails its own local condition at (1, 1)"),
            "{}",
            wrong.proof.argument()
        );
    }

    /// Issue 11, item 1: a rule that agrees with kiki on every table smaller than 1000 rows and
    /// repeats there is still not periodic, so it is never proved.
    #[test]
    fn a_rule_periodic_only_on_small_tables_is_not_proved() {
        let kiki = lookup("kiki").unwrap();
        for rule in
            ["n % 2 == 1 && m % 2 == 1 && n < 1000", "n % 2 == 1 && m % 2 == 1 || n == 5000"]
        {
            let proof = prove_outcome_rule(&kiki, rule, &Budget::default());
            assert!(!proof.proof.is_proved(), "{rule}: {:?}", proof.proof);
            assert_eq!(proof.checked_box, None);
        }
    }

    /// Issue 13: a step of 6148914691236517206 cells along a direction of 3 overflowed the reach
    /// (a panic in debug builds); such a move reaches past 2^31 and has no finite box.
    #[test]
    fn a_reach_past_2_31_is_refused_without_overflow() {
        let spec =
            "name = \"far\"\naxes = [{ name = \"n\", min = 0 }]\n[[rules]]\nkind = \"jump\"\n\
                    directions = [[-3]]\nsteps = [1, 6148914691236517206]\n";
        let game = grundy_core::parse_spec(spec, "far.toml").unwrap();
        assert!(reach(&game).unwrap_err().to_string().contains("2^31 or more"));
        let value = |_: &[Coord]| Some(0);
        let proof = prove_periodic(
            &lookup("kiki").unwrap(),
            &PeriodicClaim::Values(&value),
            &[u64::MAX, 2],
            "given",
            &Budget::default(),
        );
        assert!(proof.proof.argument().contains("2^31 or more"), "{:?}", proof.proof);
        assert!(!proof.proof.is_proved());
    }

    #[test]
    fn unbounded_moves_have_no_proof() {
        let why = |name: &str| reach(&lookup(name).unwrap()).unwrap_err().to_string();
        assert!(why("wythoff").contains("slides any distance"));
        assert!(why("prime-steps").contains("unbounded step set"));
        assert!(why("cutting").contains("splits"));
        assert_eq!(reach(&lookup("subtraction:1,3,4").unwrap()), Ok(4));
    }

    #[test]
    fn subtraction_values_are_proved() {
        let game = lookup("subtraction:1,3,4").unwrap();
        let value = |pos: &[Coord]| Some([0, 1, 0, 1, 2, 3, 2][(pos[0] % 7) as usize]);
        let proof = prove_periodic(
            &game,
            &PeriodicClaim::Values(&value),
            &[7],
            "given",
            &Budget::default(),
        );
        assert!(proof.proof.is_proved(), "{:?}", proof.proof);
        let wrong = |pos: &[Coord]| Some([0, 1, 0, 1, 2, 3, 3][(pos[0] % 7) as usize]);
        assert!(!prove_periodic(
            &game,
            &PeriodicClaim::Values(&wrong),
            &[7],
            "given",
            &Budget::default()
        )
        .proof
        .is_proved());
    }

    /// Issue 59 ("long proofs show progress"): a box proof says its box's size as it starts and
    /// reports every cell it checks, so a front end's bar runs from 0 to the box.
    #[test]
    fn a_box_proof_reports_its_cells_from_the_start() {
        use std::sync::atomic::{AtomicU64, Ordering};
        use std::sync::Mutex;
        #[derive(Default)]
        struct Recorded {
            starts: Mutex<Vec<u64>>,
            done: AtomicU64,
        }
        impl grundy_compute::Progress for Recorded {
            fn advance(&self, cells: u64) {
                self.done.fetch_add(cells, Ordering::Relaxed);
            }
            fn starts(&self, total: u64) {
                self.starts.lock().unwrap().push(total);
                self.done.store(0, Ordering::Relaxed);
            }
        }
        let recorded = Recorded::default();
        let kiki = lookup("kiki").unwrap();
        let budget = Budget::new(Budget::PROOF_SECONDS, &recorded);
        let proof = prove_outcome_rule(&kiki, "n % 2 == 1 && m % 2 == 1", &budget);
        assert!(proof.proof.is_proved());
        assert_eq!(*recorded.starts.lock().unwrap(), vec![9]);
        assert_eq!(recorded.done.load(Ordering::Relaxed), 9);
        // The work a server counts before it starts one: the box's cells (kiki's moves reach 1,
        // so 400 001 × 2), each with the three options of the far corner and itself.
        assert_eq!(box_work(&kiki, &[400_000, 1]), 400_001 * 2 * (3 + 1));
        assert_eq!(box_work(&lookup("wythoff").unwrap(), &[2, 2]), 0, "no box: unbounded moves");
    }
}
