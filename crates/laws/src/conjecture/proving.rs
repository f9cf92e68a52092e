//! The proof glue, the one place that decides which theorem a claim is proved by: the finite box
//! ([`crate::proof::certificate`]) for a periodic claim about bounded moves (its periods read
//! from the expression's form); otherwise the Sprague–Grundy sum ([`crate::proof::sum`]) when the
//! board splits into heap games, and the automata ([`crate::proof::automatic`]). `check`,
//! `patterns`' laws, the view and Python all come here.

use super::{ClaimKind, Conjecture, Edges};
use crate::proof::automatic::{self, Claimed};
use crate::proof::certificate::{box_work, prove_periodic, reach, Certificate, PeriodicClaim};
use crate::proof::{sum, theorems};
use grundy_compute::Budget;
use grundy_core::{Coord, Game, Table};
use grundy_expr::Slot;

/// A box proof's plan: the game, what is claimed of it, the periods and how they were found.
pub(super) struct Plan<'g> {
    game: &'g Game,
    claim: Claim,
    periods: Vec<u64>,
    how: &'static str,
}

/// The claims a box proof takes.
#[derive(Clone, Copy)]
enum Claim {
    PSet,
    Values,
}

/// Why a claim takes no box proof.
pub(super) enum NoBox<'g> {
    /// No proof of any kind: the rules are unknown, the kind of claim takes none, or the stated
    /// period does not fit.
    Final(Certificate),
    /// The box does not cover the board (`why`), but the sum theorem or the automata may.
    Beyond { game: &'g Game, claimed: Claimed, why: String },
}

/// The periods a box proof of `conjecture` on `game` takes, and how they were found; or why no
/// box proof applies.
pub(super) fn proof_plan<'g>(
    game: Option<&'g Game>,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
) -> Result<Plan<'g>, NoBox<'g>> {
    let Some(game) = game else {
        return Err(NoBox::Final(Certificate::none(
            "the game's rules are not known for this table (read from a file, or a slice of a 3-D table)",
        )));
    };
    let claim =
        match conjecture.kind {
            ClaimKind::PSet => Claim::PSet,
            ClaimKind::Values => Claim::Values,
            ClaimKind::Holds => return Err(NoBox::Final(Certificate::none(
                "a claim about the values themselves (one that uses g) is checked on the table \
                 only",
            ))),
            ClaimKind::Draws => {
                return Err(NoBox::Final(Certificate::none(
                    "a draws claim is about a loopy game, to which no theorem is applied",
                )))
            }
        };
    let claimed = match claim {
        Claim::PSet => Claimed::PSet,
        Claim::Values => Claimed::Values,
    };
    if conjecture.reads_edges() {
        return Err(NoBox::Beyond {
            game,
            claimed,
            why: "the claim reads the table's edges (g_a), which no box holds".into(),
        });
    }
    if let Err(why) = reach(game) {
        return Err(NoBox::Beyond {
            game,
            claimed,
            why: format!("the moves are unbounded: {why}"),
        });
    }
    // The box argument needs the claim to repeat on the whole infinite board, so the period is
    // read from the expression's form (`Expr::periods`), never sampled from the table: a claim
    // such as `n % 2 == 1 && n < 1000` repeats on any table smaller than 1000 and is still false.
    let Some(slot_periods) = conjecture.expr.periods() else {
        return Err(NoBox::Beyond {
            game,
            claimed,
            why: "the expression's form does not show that it repeats on the whole board (a \
                  coordinate occurs outside a residue such as `x % c` or `(x + y) % c`), so no \
                  finite box covers it"
                .into(),
        });
    };
    let own = conjecture.variables.axis_periods(&slot_periods, game.dims());
    let shown = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match period {
        Some(stated) if stated.iter().zip(&own).all(|(s, o)| s % o == 0) => Ok(Plan {
            game,
            claim,
            periods: stated.to_vec(),
            how: "as stated, a multiple of the period read from the expression's form",
        }),
        Some(stated) => Err(NoBox::Final(Certificate::none(format!(
            "the expression's form shows the period [{}], which does not divide the stated \
             period [{}]; leave the stated period out to prove the claim with the period of its \
             form",
            shown(&own),
            shown(stated)
        )))),
        None => Ok(Plan { game, claim, periods: own, how: "read from the expression's form" }),
    }
}

/// The work counted for each operation of a claim that the automata decide ([`proof_work`]).
pub const AUTOMATA_WORK: u128 = 1 << 20;

/// The work of the proof that follows an agreeing check of `conjecture` on `described`, in the
/// units of [`Conjecture::size`] × cells: the box's cells times the options of its far corner
/// and the claim's size; 0 when no box proof applies. A server that bounds the work of each
/// request counts it beside the check's (issue 59: a 60-byte claim on a small table made the
/// view prove it over a 49 M-cell box).
pub fn proof_work(described: &Table, conjecture: &Conjecture) -> u128 {
    match proof_plan(described.game(), conjecture, None) {
        Ok(plan) => box_work(plan.game, &plan.periods) * conjecture.size() as u128,
        // The automata's work cannot be known before they are built: it is counted as
        // `AUTOMATA_WORK` per operation of the claim (Wythoff's φ law, 11 operations, builds
        // automata of at most 325 states × 32 letters: far below), and bounded in any case by
        // the proof's budget and `automatic::MAX_STATES`.
        Err(NoBox::Beyond { .. }) => AUTOMATA_WORK * conjecture.size() as u128,
        Err(NoBox::Final(_)) => 0,
    }
}

/// Tries to prove an agreeing claim for every board.
pub(super) fn prove(
    game: Option<&Game>,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    budget: &Budget<'_>,
) -> Certificate {
    let Plan { game, claim, periods, how } = match proof_plan(game, conjecture, period) {
        Ok(plan) => plan,
        Err(NoBox::Final(none)) => return none,
        Err(NoBox::Beyond { game, claimed, why }) => {
            return beyond_the_box(game, conjecture, claimed, &why, budget)
        }
    };
    let slots_at = |pos: &[Coord]| {
        let mut slots = vec![0; conjecture.variables.names.len()];
        conjecture.variables.fill(&mut slots, pos, 0, &Edges::unknown());
        slots
    };
    match claim {
        Claim::PSet => {
            let claimed = |pos: &[Coord]| conjecture.expr.eval_bool(&slots_at(pos)).ok();
            prove_periodic(game, &PeriodicClaim::PSet(&claimed), &periods, how, budget)
        }
        Claim::Values => {
            let claimed = |pos: &[Coord]| conjecture.expr.eval_int(&slots_at(pos)).ok();
            prove_periodic(game, &PeriodicClaim::Values(&claimed), &periods, how, budget)
        }
    }
}

/// A claim that no finite box covers: about a heap game, its proved period; about a board, the
/// sum theorem when the board is a sum of heap games whose laws the claim's parts are; else
/// the automata; and when neither proves it, why each did not.
fn beyond_the_box(
    game: &Game,
    conjecture: &Conjecture,
    claimed: Claimed,
    box_why: &str,
    budget: &Budget<'_>,
) -> Certificate {
    // A heap game: the game's period, when a theorem proves it, and the claim's own; a board:
    // the sum of its heap games. Then the automata, for either.
    let (theorem, tried) = if game.dims() == 1 {
        ("the heap game's period", heap_claim(game, conjecture, claimed, budget))
    } else {
        (
            "the sum theorem",
            sum::prove(game, claimed, &conjecture.expr, conjecture.variables.slots()),
        )
    };
    let why = match tried {
        Ok(proof) => return Certificate { proof, checked_box: None },
        Err(why) => why,
    };
    let slots = conjecture.variables.slot_axes();
    let decision = automatic::decide(game, claimed, &conjecture.expr, slots, budget);
    if decision.proof.is_proved() {
        return Certificate { proof: decision.proof, checked_box: None };
    }
    Certificate::none(format!("{box_why}; {theorem}: {why}; {}", decision.proof.argument()))
}

/// A claim about a heap game whose form repeats, proved from the game's period
/// ([`theorems::prove_heap_claim`]).
fn heap_claim(
    game: &Game,
    conjecture: &Conjecture,
    claimed: Claimed,
    budget: &Budget<'_>,
) -> Result<crate::proof::Proof, String> {
    let reads_axis: Vec<bool> =
        conjecture.variables.slots().iter().map(|slot| matches!(slot, Slot::Axis(0))).collect();
    let lo = game.axes()[0].min;
    let Some((period, from)) = conjecture.expr.eventual_period(&reads_axis, lo) else {
        return Err("the expression's form does not show that it repeats from some heap on".into());
    };
    let agrees = |n: Coord, value: u32| {
        let mut slots = vec![0; conjecture.variables.names.len()];
        conjecture.variables.fill(&mut slots, &[n], 0, &Edges::unknown());
        match claimed {
            Claimed::PSet => conjecture.expr.eval_bool(&slots) == Ok(value == 0),
            Claimed::Values => conjecture.expr.eval_int(&slots) == Ok(i64::from(value)),
        }
    };
    theorems::prove_heap_claim(game, (period, from), &agrees, budget)
}
