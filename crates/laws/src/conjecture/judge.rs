//! The one per-cell judge: what each kind of claim means at a cell, written once for tables of
//! values, streamed rows, loopy games' labels and the law search's filter.

use super::{ClaimKind, Claimed, Conjecture};
use grundy_core::{LoopyOutcome, INFINITE_G};
use grundy_expr::EvalError;

/// A cell as a claim reads it: its value (`None` for ∞, a loopy game's) and its outcome.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seen {
    value: Option<u32>,
    outcome: LoopyOutcome,
}

impl Seen {
    /// A cell of a table of values, or of outcomes (0 is a P-position).
    #[inline]
    pub(crate) fn value(value: u32) -> Seen {
        let outcome = if value == 0 { LoopyOutcome::P } else { LoopyOutcome::N };
        Seen { value: Some(value), outcome }
    }

    /// A loopy game's cell: its label (`u32::MAX` for ∞) and its outcome.
    pub(crate) fn labelled(label: u32, outcome: LoopyOutcome) -> Seen {
        Seen { value: (label != u32::MAX).then_some(label), outcome }
    }

    /// A cell known by a value that may be missing (not a finite value) and whether it is a
    /// P-position.
    pub(crate) fn known(value: Option<i64>, is_p: bool) -> Seen {
        let outcome = if is_p { LoopyOutcome::P } else { LoopyOutcome::N };
        Seen { value: value.and_then(|v| u32::try_from(v).ok()), outcome }
    }

    /// The number `g` stands for in a claim: the value, [`INFINITE_G`] at ∞.
    #[inline]
    pub(crate) fn g(self) -> i64 {
        self.value.map_or(INFINITE_G, i64::from)
    }

    /// The value a counterexample reports: the label, `u32::MAX` for ∞.
    #[inline]
    pub(crate) fn label(self) -> u32 {
        self.value.unwrap_or(u32::MAX)
    }
}

/// `Some(what the claim says)` where the claim fails at the cell `seen` (whose variables are
/// `slots`), `None` where it holds, the expression evaluated by the interpreter. `draws`:
/// whether the table may hold draws, so that a P-set claim's other side is "N or D".
#[inline]
pub(crate) fn judge(
    conjecture: &Conjecture,
    slots: &[i64],
    seen: Seen,
    draws: bool,
) -> Result<Option<Claimed>, EvalError> {
    let expr = &conjecture.expr;
    let claimed = match conjecture.kind {
        ClaimKind::Values => expr.eval_int(slots)?,
        _ => i64::from(expr.eval_bool(slots)?),
    };
    Ok(verdict(conjecture.kind, claimed, seen, draws))
}

/// The meaning of each kind of claim at a cell, once the expression's result `claimed` is
/// known (a condition as 0 or 1): what [`judge`] and the compiled check both decide with.
///
/// - A P-set claim holds where the condition is true exactly at P-positions; a draws claim
///   where it is true exactly at draws.
/// - A values claim holds where the expression is the cell's finite value (an ∞ cell disagrees
///   with every number).
/// - A holds claim holds where the condition is true, `g` being [`INFINITE_G`] at ∞.
#[inline]
pub(crate) fn verdict(kind: ClaimKind, claimed: i64, seen: Seen, draws: bool) -> Option<Claimed> {
    let set = |actual: bool, inside: &'static str, outside: &'static str| {
        let claimed = claimed != 0;
        (claimed != actual).then_some(Claimed::Outcome(if claimed { inside } else { outside }))
    };
    match kind {
        ClaimKind::PSet => {
            set(seen.outcome == LoopyOutcome::P, "P", if draws { "N or D" } else { "N" })
        }
        ClaimKind::Draws => set(seen.outcome == LoopyOutcome::D, "D", "P or N"),
        ClaimKind::Values => {
            (seen.value.map(i64::from) != Some(claimed)).then_some(Claimed::Value(claimed))
        }
        ClaimKind::Holds => (claimed == 0).then_some(Claimed::Holds(false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conjecture::Conjecture;

    /// Each kind's meaning, on a table of values and on a loopy game's cells (∞ and draws): one
    /// row a case, `None` where the claim holds.
    #[test]
    fn every_kind_means_one_thing_on_every_table() {
        let inf_n = Seen::labelled(u32::MAX, LoopyOutcome::N);
        let draw = Seen::labelled(u32::MAX, LoopyOutcome::D);
        let cases: [(ClaimKind, &str, Seen, bool, Option<Claimed>); 10] = [
            (ClaimKind::PSet, "true", Seen::value(0), false, None),
            (ClaimKind::PSet, "true", Seen::value(3), false, Some(Claimed::Outcome("P"))),
            (ClaimKind::PSet, "false", Seen::value(0), false, Some(Claimed::Outcome("N"))),
            (
                ClaimKind::PSet,
                "false",
                Seen::labelled(0, LoopyOutcome::P),
                true,
                Some(Claimed::Outcome("N or D")),
            ),
            (ClaimKind::Draws, "true", draw, true, None),
            (ClaimKind::Draws, "false", draw, true, Some(Claimed::Outcome("P or N"))),
            (ClaimKind::Values, "2", Seen::value(2), false, None),
            (ClaimKind::Values, "2", inf_n, true, Some(Claimed::Value(2))),
            (ClaimKind::Holds, "g == -1", inf_n, true, None),
            (ClaimKind::Holds, "g < 2", Seen::value(2), false, Some(Claimed::Holds(false))),
        ];
        for (kind, text, seen, draws, expected) in cases {
            let claim = Conjecture::parse(kind, text, &["n"]).unwrap();
            let mut slots = vec![0i64; claim.variables.names.len()];
            claim.variables.fill(&mut slots, &[5], seen.g(), &crate::conjecture::Edges::unknown());
            let judged = judge(&claim, &slots, seen, draws).unwrap();
            assert_eq!(judged, expected, "{kind:?} {text} at {seen:?}");
        }
    }
}
