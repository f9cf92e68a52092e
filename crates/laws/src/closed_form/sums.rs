//! Sums of two heap games: a board whose moves on each axis are independent has
//! G(x, y) = G(x, y₀) ⊕ G(x₀, y) (the Sprague–Grundy theorem), the first column and the first row
//! being the two heap games. Each heap game gets a formula: the shortest the synthesis finds on
//! its whole line, or a lookup of its period when it is periodic from its start.

use super::synthesis::Synthesis;
use super::{LawSearch, Proposal, Source, LARGEST_FORMULA};
use crate::conjecture::ClaimKind;
use crate::expr::Expr;
use crate::periodicity::find_period;
use std::time::Instant;

/// Lookups of periods up to this are written out.
const LONGEST_LOOKUP: usize = 12;

/// The law G = f(x) ⊕ g(y) when it holds on every cell of `source` and both heap games have a
/// formula.
pub(super) fn propose(
    source: &Source<'_>,
    value: &(dyn Fn(usize) -> i64 + Sync),
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    let [rows, cols] = [source.lens[0], source.lens[1]];
    if rows < 2 || cols < 2 || value(0) != 0 {
        return Vec::new();
    }
    let column: Vec<i64> = (0..rows).map(|i| value(i * cols)).collect();
    let row: Vec<i64> = (0..cols).map(value).collect();
    let sum = (0..rows).all(|i| (0..cols).all(|j| value(i * cols + j) == column[i] ^ row[j]));
    if !sum || column.iter().all(|&v| v == 0) || row.iter().all(|&v| v == 0) {
        // Not a sum, or a board of one heap game (the synthesis states those).
        return Vec::new();
    }
    let (x, y) = (&source.names[0], &source.names[1]);
    let (x0, y0) = (source.mins[0], source.mins[1]);
    let Some(f) = heap_formula(x, x0, &column, deadline, search) else { return Vec::new() };
    let Some(g) = heap_formula(y, y0, &row, deadline, search) else { return Vec::new() };
    let expression = format!("xor({f}, {g})");
    let statement = format!(
        "the sum of two heap games: G({x}, {y}) = f({x}) XOR g({y}) with f({x}) = {f} (the column \
         {y} = {y0}) and g({y}) = {g} (the row {x} = {x0})"
    );
    vec![Proposal { kind: ClaimKind::Values, expression, statement, found_by: "sum of games" }]
}

/// A formula in `name` (from `min`) equal to `values` at every coordinate.
fn heap_formula(
    name: &str,
    min: i64,
    values: &[i64],
    deadline: Instant,
    search: &mut LawSearch,
) -> Option<String> {
    let names = [name.to_string()];
    let spread = (values.len() / 48).max(1);
    let picked: Vec<usize> =
        (0..values.len().min(24)).chain((24..values.len()).step_by(spread)).collect();
    let points: Vec<Vec<i64>> = picked.iter().map(|&k| vec![min + k as i64]).collect();
    let target: Vec<i64> = picked.iter().map(|&k| values[k]).collect();
    let found = Synthesis::new(&names, &points).find(&target, LARGEST_FORMULA, deadline);
    search.formulas_tried += found.tried;
    let holds = |text: &str| {
        Expr::parse(text, &[name]).is_ok_and(|expr| {
            values.iter().enumerate().all(|(k, &v)| expr.eval_int(&[min + k as i64]) == Ok(v))
        })
    };
    if let Some(formula) = found.candidates.into_iter().find(|text| holds(text)) {
        return Some(formula);
    }
    let lookup = lookup(name, min, values)?;
    holds(&lookup).then_some(lookup)
}

/// A periodic heap game from its start as a lookup on residues, plus the saltus.
pub(super) fn lookup(name: &str, min: i64, values: &[i64]) -> Option<String> {
    let period = find_period(values).filter(|p| p.preperiod == 0 && p.period <= LONGEST_LOOKUP)?;
    let p = period.period;
    let t = if min == 0 { name.to_string() } else { format!("({name} - {min})") };
    let mut text = values[p - 1].to_string();
    for r in (0..p - 1).rev() {
        if values[r].to_string() != text {
            text = format!("if({t} % {p} == {r}, {}, {text})", values[r]);
        }
    }
    if period.saltus != 0 {
        text = format!("{text} + {} * ({t} / {p})", period.saltus);
    }
    Some(text)
}
