//! Theorems that turn a finite periodicity check into a proof for every heap size.

use crate::periodicity::{find_period, Period};
use crate::proof::certificate::reach;
use crate::proof::{Proof, Theorem as Named};
use grundy_core::{Coord, Game, GrundyTable, MoveForm};
use std::collections::HashMap;

/// Whether a heap game's period is proved, and how long a table the theorem needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceProof {
    /// The proof, or why there is none.
    pub proof: Proof,
    /// The table length (number of values) the theorem needs, when one applies.
    pub needed_length: Option<usize>,
}

/// The largest number of stones a move removes, when every move of the 1-D `game` removes a
/// bounded number (a subtraction game with a finite set); `None` otherwise.
pub fn subtraction_reach(game: &Game) -> Option<u64> {
    // The window argument needs the same moves at every heap.
    if game.dims() != 1 || game.terminal().is_some() {
        return None;
    }
    let mut reach = 0u64;
    for rule in game.rules() {
        let MoveForm::Translate { directions, amounts } = rule.form() else { return None };
        let most = amounts.most()?;
        for direction in directions {
            reach = reach.max(direction[0].unsigned_abs().checked_mul(most)?);
        }
    }
    Some(reach)
}

/// The periodicity theorem that covers a heap game.
enum Theorem<'a> {
    /// A subtraction game with a finite set, whose largest move takes `t`.
    Subtraction { t: usize },
    /// An octal game (no hexadecimal digit), whose largest move takes `t`.
    Octal { code: &'a grundy_core::OctalCode, t: usize },
    /// An octal game whose moves never split a heap (digits 0 to 3), whose largest move takes
    /// `t`: a window argument under either convention.
    TakeAway { code: &'a grundy_core::OctalCode, t: usize },
}

/// The theorem that covers `game`, or why none does.
fn theorem(game: &Game) -> Result<Theorem<'_>, &'static str> {
    // Under misère play the window argument still holds: every heap of t stones or more has an
    // option, so its misère value is the mex of the t values before it, as in normal play.
    if let Some(t) = subtraction_reach(game) {
        return Ok(Theorem::Subtraction { t: t as usize });
    }
    // The misère reason first: under misère play no other rule has a theorem either.
    const MISERE: &str = "under misère play only the window theorems hold (finite subtraction sets, octal codes without splits): the Octal Periodicity Theorem is proved for normal play, and a move that leaves a sum has no value from its parts";
    // The Octal Periodicity Theorem is proved for normal play only: its argument adds the
    // pieces' values, which misère play does not.
    let normal = game.play() == grundy_core::Play::Normal;
    if game.terminal().is_some() {
        return Err("no periodicity theorem covers terminal positions: the theorems need the same moves at every heap");
    }
    let [MoveForm::Code(code)] = game.rules().iter().map(|r| r.form()).collect::<Vec<_>>()[..]
    else {
        return Err(if normal {
            "no periodicity theorem covers these rules (only subtraction games with finite sets and octal games have one)"
        } else {
            MISERE
        });
    };
    let octal = code.digits().iter().all(|&d| d <= 7);
    // A code without splits (digits 0 to 3) leaves one heap or none: its values are local under
    // misère play too, and past t every heap has the same moves.
    let splits = code.digits().iter().any(|&d| d > 3);
    let t = code.last_digit_position();
    match (normal, octal, splits) {
        (true, true, _) => Ok(Theorem::Octal { code, t }),
        (_, _, false) => Ok(Theorem::TakeAway { code, t }),
        (true, false, _) => Err(
            "the code has hexadecimal digits (three-heap moves); the Octal Periodicity Theorem does not cover them",
        ),
        (false, _, true) => Err(MISERE),
    }
}

/// Tries to prove that the `period` found in a sequence of `len` values of `game` holds forever.
/// The sequence's first value is at coordinate `min` (the axis' smallest); the argument names
/// coordinates, as the report's `from` does.
pub fn prove_sequence(game: Option<&Game>, period: &Period, len: usize, min: i64) -> SequenceProof {
    let unproved = |why: String| SequenceProof { proof: Proof::none(why), needed_length: None };
    let Some(game) = game else {
        return unproved(
            "the game's rules are not known for this table (read from a file), so no theorem applies".into(),
        );
    };
    let (p, e) = (period.period, period.preperiod);
    let (proof, needed) = match theorem(game) {
        Err(why) => return unproved(why.into()),
        Ok(Theorem::Subtraction { t }) => {
            if period.saltus != 0 {
                return unproved(
                    "a subtraction game's values are bounded, so a saltus cannot last".into(),
                );
            }
            let needed = e + p + t;
            let from = min + e as i64;
            // Under misère play the window argument holds too: say why.
            let misere = match game.play().tag() {
                Some(_) => " (under misère play too: every heap of t stones or more has a move, so its value is the mex of the t before it)",
                None => "",
            };
            let argument = format!(
                "t = max(S) = {t}: x(n + {p}) = x(n) for all {from} <= n <= {}, and \
                 the t values before a position determine its value{misere}, so the period holds forever (needs {needed} values, \
                 up to n = {})",
                from + t as i64 - 1,
                min + needed as i64 - 1
            );
            (Proof::by(Named::SubtractionWindow, argument), needed)
        }
        Ok(Theorem::TakeAway { code, t }) => {
            if period.saltus != 0 {
                return unproved(
                    "a take-away game's values are bounded, so a saltus cannot last".into(),
                );
            }
            // Heaps past t have the same moves (take k with bit 2 of digit k, leaving n - k > 0;
            // bit 1 empties only a heap of exactly k), so from n = t + 1 on a value is a function
            // of the t before it. The window of t repeats starts at w = max(e, 1), so that
            // every heap it determines, w + t and later, lies past t.
            let w = e.max(1);
            let needed = w + p + t;
            let first = if e < w {
                format!("x({}) = x({}) and ", min + e as i64 + p as i64, min + e as i64)
            } else {
                String::new()
            };
            let argument = format!(
                "code {code} ({}): past t = {t} every heap has the same moves, so the t values \
                 before it determine its value; {first}x(n + {p}) = x(n) for all {} <= n < {}, so \
                 the sequence is periodic from n = {e} on (needs {needed} values)",
                game.play().word(),
                min + w as i64,
                min + (w + t) as i64
            );
            (Proof::by(Named::TakeAwayWindow, argument), needed)
        }
        Ok(Theorem::Octal { code, t }) => {
            if period.saltus != 0 {
                return unproved("the Octal Periodicity Theorem covers plain periods only".into());
            }
            // Octal games' heaps start at 0 (`Game::new` refuses another smallest coordinate).
            debug_assert_eq!(min, 0);
            let needed = 2 * e + 2 * p + t;
            let argument = format!(
                "code {code} removes at most t = {t} stones, and x(n + {p}) = x(n) \
                 for all {e} <= n < 2*{e} + {p} + {t} = {}, so the sequence is periodic from n = {e} on (needs {needed} values)",
                2 * e + p + t
            );
            (Proof::by(Named::OctalPeriodicity, argument), needed)
        }
    };
    // The theorem's check needs `needed` values: on fewer, its argument is evidence only.
    let proof = if len >= needed {
        proof
    } else {
        Proof::none(format!("{}, but the table has only {len}", proof.argument()))
    };
    SequenceProof { proof, needed_length: Some(needed) }
}

/// Whether a periodicity theorem of this module covers `game`: a subtraction game with a finite
/// set, or an octal game. Only for these can [`proved_law`] ever succeed.
pub fn has_periodicity_theorem(game: &Game) -> bool {
    theorem(game).is_ok()
}

/// Why no periodicity theorem covers `game`, or `None` when one does.
pub fn no_theorem_because(game: &Game) -> Option<&'static str> {
    theorem(game).err()
}

/// A heap game's values for every heap size, from a period proved by a theorem: the values up to
/// the end of the first period, then repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvedLaw {
    /// The period, preperiod and saltus (0: the theorems prove plain periods only).
    pub period: Period,
    /// The heap size of the first value.
    pub min: Coord,
    /// The values from `min` to the end of the first period after the preperiod.
    pub head: Vec<u32>,
    /// The theorem and its check.
    pub argument: String,
}

impl ProvedLaw {
    /// The law's values for `len` heap sizes from `min`.
    pub fn repeating(&self, len: u64) -> grundy_core::Repeating<'_> {
        let (e, p) = (self.period.preperiod, self.period.period);
        grundy_core::Repeating::new(&self.head, e, p, len)
    }

    /// The value at heap size `n` (at least `min`).
    ///
    /// # Panics
    /// If `n` is below `min`.
    pub fn value(&self, n: Coord) -> u32 {
        let index = u64::try_from(i128::from(n) - i128::from(self.min))
            .expect("n is at least the axis' minimum");
        let (p, e) = (self.period.period as u64, self.period.preperiod as u64);
        let index = if index < e + p { index } else { e + (index - e) % p };
        self.head[index as usize]
    }
}

/// The law of `values` (a heap game's first values, from heap size `min`) when their period is
/// proved for every heap size by a theorem of this module; `None` when no period is found or none
/// is proved on these values (a longer table may prove one).
pub fn proved_law<T: Copy + Into<i64> + Into<u32>>(
    game: &Game,
    values: &[T],
    min: Coord,
) -> Option<ProvedLaw> {
    law_or_needed(game, values, min).ok()
}

/// [`proved_law`], or when no law is proved, the number of values the theorem needs for the
/// period these values show (`None` when they show none, or no theorem applies).
pub(crate) fn law_or_needed<T: Copy + Into<i64> + Into<u32>>(
    game: &Game,
    values: &[T],
    min: Coord,
) -> Result<ProvedLaw, Option<usize>> {
    let period = find_period(values).ok_or(None)?;
    let proved = prove_sequence(Some(game), &period, values.len(), min);
    if !proved.proof.is_proved() {
        return Err(proved.needed_length);
    }
    Ok(ProvedLaw {
        period,
        min,
        head: values[..period.preperiod + period.period].iter().map(|&v| v.into()).collect(),
        argument: proved.proof.argument().to_string(),
    })
}

/// A board's values on a strip: every position whose coordinate on the other axis is at most the
/// strip's width, for every coordinate along `axis`. With moves of bounded reach r, the line at
/// coordinate n along `axis` (once n is r past the axis' smallest coordinate, so that every move
/// exists) is determined by the r lines before it: the strip is a finite-state recurrence, and
/// as soon as r consecutive lines repeat, everything after them repeats with the same period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StripLaw {
    axis: usize,
    mins: [Coord; 2],
    /// The first coordinate along `axis` of the periodic part.
    from: Coord,
    period: usize,
    /// The lines from `from` to `from + period − 1`, each across the strip.
    lines: Vec<Vec<u32>>,
    /// The argument, with the coordinates that repeat.
    pub argument: String,
}

impl StripLaw {
    /// The period along the strip.
    pub fn period(&self) -> usize {
        self.period
    }

    /// Where the periodic part starts along the strip.
    pub fn from(&self) -> Coord {
        self.from
    }

    /// The axis along which the strip runs.
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// The value at `pos`, which must lie in the strip at or after [`StripLaw::from`].
    ///
    /// # Panics
    /// If `pos` lies outside the strip or before the periodic part.
    pub fn value(&self, pos: &[Coord]) -> u32 {
        let along = pos[self.axis];
        assert!(along >= self.from, "before the periodic part");
        let line =
            ((i128::from(along) - i128::from(self.from)) as u128 % self.period as u128) as usize;
        let across = 1 - self.axis;
        self.lines[line][(pos[across] - self.mins[across]) as usize]
    }
}

/// The [`StripLaw`] of a 2-D `table` of `game` (computed from the axes' smallest coordinates),
/// read along `axis`, when the game's moves are bounded and r consecutive lines of the table
/// repeat; `None` otherwise (a longer table may show one).
pub fn strip_law(game: &Game, table: &GrundyTable, axis: usize) -> Option<StripLaw> {
    if game.dims() != 2 || table.axes() != game.axes() || axis > 1 {
        return None;
    }
    let r = usize::try_from(reach(game).ok()?).ok()?.max(1);
    let lens = table.shape().lens();
    let across = 1 - axis;
    let values = table.cells().to_u32_vec();
    let grid = ndarray::ArrayView2::from_shape((lens[0], lens[1]), &values).expect("a 2-D table");
    let lines: Vec<Vec<u32>> =
        grid.axis_iter(ndarray::Axis(axis)).map(|line| line.to_vec()).collect();
    // Windows of r lines, keyed by the lines themselves (hashed by the map); the first window
    // that starts r past the axis' start and repeats gives the period.
    let mut seen: HashMap<&[Vec<u32>], usize> = HashMap::new();
    for end in r..=lines.len() {
        let window = &lines[end - r..end];
        if let Some(&earlier) = seen.get(window) {
            let mins = [game.axes()[0].min, game.axes()[1].min];
            let from = mins[axis] + earlier as Coord;
            let period = end - earlier;
            let name = &game.axes()[axis].name;
            let argument = format!(
                "every move changes a coordinate by at most r = {r}, so on the strip {} <= {} each \
                 line along {name} from {name} = {} on is determined by the {lines} before it; the \
                 {lines} before {name} = {from} equal the {lines} before {name} = {}, so the strip \
                 repeats with period {period} from {name} = {from} on",
                game.axes()[across].name,
                table.shape().max()[across],
                mins[axis] + r as Coord,
                from + period as Coord,
                lines = grundy_core::counted(r, "line", "lines"),
            );
            return Some(StripLaw {
                axis,
                mins,
                from,
                period,
                lines: lines[earlier..end].to_vec(),
                argument,
            });
        }
        seen.insert(window, end);
    }
    None
}

/// The most heaps whose values a heap claim's proof computes to find the game's proved period
/// (the reference fill's work grows as their square for a game that splits heaps).
const MOST_HEAPS_FOR_A_CLAIM: usize = 1 << 12;

/// The most heaps on which a heap claim is compared with the game's proved law.
const MOST_HEAPS_COMPARED: u64 = 1 << 22;

/// Proves a claim about every heap of the 1-D `game` (its P-set or values, `agrees` saying
/// whether the claim holds at heap `n` whose value is `value`) whose form repeats with period q
/// from heap f (`claim`: q and f), from the game's period proved by a theorem of this module.
///
/// The game's values repeat with period p from the preperiod e (the theorem's check), and the
/// claim with period q from f, so from s = max(min + e, f) both repeat with lcm(p, q): the
/// claim holds on every heap when it holds on the heaps below s + lcm(p, q). This covers the
/// octal games whose moves leave sums (`n % 2` for 0.3, `if(n == 2, 2, n % 2)` for 0.71),
/// which no finite box and no automaton takes. `Err` says why it is not proved.
pub(crate) fn prove_heap_claim(
    game: &Game,
    claim: (u64, Coord),
    agrees: &dyn Fn(Coord, u32) -> bool,
    budget: &grundy_compute::Budget<'_>,
) -> Result<Proof, String> {
    if game.dims() != 1 {
        return Err("the claim is not about a heap game".into());
    }
    theorem(game).map_err(str::to_string)?;
    let min = game.axes()[0].min;
    let mut length = 64usize;
    // The last round's length and time.
    let mut last_round = (1usize, std::time::Duration::ZERO);
    let law = loop {
        if let Some(spent) = budget.spent() {
            return Err(format!("the proof stopped while it computed the game's values: {spent}"));
        }
        // A round costs up to the square of its length (a split's options): one that would not
        // end within the time left is not begun.
        let growth = (length as f64 / last_round.0 as f64).powi(2);
        if last_round.1.mul_f64(growth) > budget.remaining() {
            return Err(format!(
                "the proof stopped: the game's first {length} values would take longer than the \
                 time left"
            ));
        }
        let shape = grundy_core::TableShape::new(game, &[min + length as Coord - 1], "proof")
            .map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let table = grundy_compute::fill_reference(game, &shape);
        last_round = (length, started.elapsed());
        let values: Vec<u32> =
            (0..length).map(|k| table.get(&[min + k as Coord]).expect("in the table").0).collect();
        match law_or_needed(game, &values, min) {
            Ok(law) => break law,
            Err(needed) if length < MOST_HEAPS_FOR_A_CLAIM => {
                length = needed.unwrap_or(0).max(2 * length).min(MOST_HEAPS_FOR_A_CLAIM);
            }
            Err(_) => {
                return Err(format!(
                    "the game shows no period that a theorem proves within {MOST_HEAPS_FOR_A_CLAIM} heaps"
                ))
            }
        }
    };
    let (e, p) = (law.period.preperiod as u64, law.period.period as u64);
    let (claim_period, claim_from) = claim;
    // Both repeat from `start` heaps past the smallest.
    let start = e.max(u64::try_from(claim_from - min).unwrap_or(0));
    let common = grundy_expr::checked_lcm(p, claim_period);
    let compared = common.and_then(|c| c.checked_add(start)).filter(|&n| n <= MOST_HEAPS_COMPARED);
    let Some(compared) = compared else {
        return Err(format!(
            "the game's period {p} and the claim's {claim_period} repeat together only past \
             {MOST_HEAPS_COMPARED} heaps"
        ));
    };
    for k in 0..compared {
        if k % 65536 == 0 {
            if let Some(spent) = budget.spent() {
                return Err(format!("the proof stopped while it compared the claim: {spent}"));
            }
        }
        let n = min + k as Coord;
        if !agrees(n, law.value(n)) {
            return Err(format!(
                "the claim disagrees with the game's proved values at n = {n}, beyond the table"
            ));
        }
    }
    let last = min + compared as Coord - 1;
    Ok(Proof::Proved {
        theorem: theorem_of(&law.argument),
        argument: format!(
            "{}; the claim repeats with period {claim_period} from n = {claim_from} (read from its \
             form), so from n = {} both repeat with period {}, and the claim agrees with the \
             game's values on n = {min}..={last}: it holds for every heap",
            law.argument,
            min + start as Coord,
            compared - start
        ),
    })
}

/// The theorem whose argument `argument` is: every argument begins with its theorem's lead.
fn theorem_of(argument: &str) -> Named {
    Named::ALL
        .into_iter()
        .find(|theorem| argument.starts_with(theorem.lead()))
        .expect("a proved period's argument begins with its theorem's lead")
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::lookup;

    #[test]
    fn reach_of_subtraction_games() {
        assert_eq!(subtraction_reach(&lookup("subtraction:1,3,4").unwrap()), Some(4));
        assert_eq!(subtraction_reach(&lookup("subtract-a-prime").unwrap()), None);
        assert_eq!(subtraction_reach(&lookup("kayles").unwrap()), None);
        assert_eq!(subtraction_reach(&lookup("kiki").unwrap()), None);
    }

    #[test]
    fn a_proved_law_answers_any_heap_size() {
        // Subtraction {1, 3, 4}: 0 1 0 1 2 3 2, period 7 from 0.
        let game = lookup("subtraction:1,3,4").unwrap();
        let values: Vec<u32> = (0..40).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        let law = proved_law(&game, &values, 0).unwrap();
        assert_eq!((law.period.period, law.period.preperiod), (7, 0));
        for n in [0, 6, 7, 39, 1_000_000, 1_000_000_000_000_000_000] {
            assert_eq!(law.value(n), [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize], "{n}");
        }
        // Too few values for the theorem: no law yet.
        assert_eq!(proved_law(&game, &values[..10], 0), None);
        assert!(has_periodicity_theorem(&lookup("kayles").unwrap()));
        assert!(!has_periodicity_theorem(&lookup("grundys-game").unwrap()));
        assert!(!has_periodicity_theorem(&lookup("subtract-a-square").unwrap()));
    }

    /// The strip law of a board agrees with a table of the whole strip, far beyond the lines it
    /// was found on.
    #[test]
    fn strip_laws_agree_with_the_table() {
        use grundy_core::TableShape;
        let fill = |game: &Game, max: [Coord; 2]| {
            let shape = TableShape::new(game, &max, "test").unwrap();
            grundy_core::GrundyTable::from_nimbers(shape.clone(), &reference_values(game, &shape))
        };
        for (name, across) in [("kiki", 5), ("kiki", 1)] {
            let game = lookup(name).unwrap();
            let small = fill(&game, [60, across]);
            let law = strip_law(&game, &small, 0).expect("kiki's strips repeat");
            let big = fill(&game, [600, across]);
            for n in law.from()..=600 {
                for m in 1..=across {
                    assert_eq!(law.value(&[n, m]), big.get(&[n, m]).unwrap().value(), "{n}x{m}");
                }
            }
            // Along the second axis.
            let law = strip_law(&game, &fill(&game, [across, 60]), 1).unwrap();
            let long = fill(&game, [across, 600]);
            for m in law.from()..=600 {
                for n in 1..=across {
                    assert_eq!(law.value(&[n, m]), long.get(&[n, m]).unwrap().value(), "{n}x{m}");
                }
            }
        }
        // Unbounded moves have no strip law.
        let wythoff = lookup("wythoff").unwrap();
        assert_eq!(strip_law(&wythoff, &fill(&wythoff, [100, 3]), 0), None);
    }

    /// The values of `game` over `shape`, by the plain recursion (row-major).
    fn reference_values(game: &Game, shape: &grundy_core::TableShape) -> Vec<grundy_core::Nimber> {
        let lens = shape.lens();
        let mins: Vec<Coord> = shape.axes().iter().map(|a| a.min).collect();
        let mut values = vec![grundy_core::Nimber(0); lens.iter().product()];
        let flat = |pos: &[Coord]| -> usize {
            pos.iter().zip(&mins).zip(&lens).fold(0, |f, ((&c, &m), &l)| f * l + (c - m) as usize)
        };
        for index in 0..values.len() {
            let mut rest = index;
            let mut pos = vec![0; lens.len()];
            for d in (0..lens.len()).rev() {
                pos[d] = mins[d] + (rest % lens[d]) as Coord;
                rest /= lens[d];
            }
            let options = game.options(&pos).into_iter().map(|option| {
                option.iter().fold(grundy_core::Nimber(0), |sum, part| sum ^ values[flat(part)])
            });
            values[index] = grundy_core::mex(options);
        }
        values
    }

    #[test]
    fn proofs_need_long_enough_tables() {
        let kayles = lookup("kayles").unwrap();
        let period = Period { period: 12, saltus: 0, preperiod: 71 };
        let proved = prove_sequence(Some(&kayles), &period, 168, 0);
        assert_eq!(proved.proof.theorem(), Some(Named::OctalPeriodicity), "{:?}", proved.proof);
        assert_eq!(proved.needed_length, Some(168));
        let short = prove_sequence(Some(&kayles), &period, 167, 0).proof;
        assert!(!short.is_proved() && short.argument().ends_with("the table has only 167"));
        let grundy = lookup("grundys-game").unwrap();
        assert!(!prove_sequence(Some(&grundy), &period, 10_000, 0).proof.is_proved());
        assert!(!prove_sequence(None, &period, 10_000, 0).proof.is_proved());
    }
}
