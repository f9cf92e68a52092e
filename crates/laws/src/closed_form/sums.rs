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
    let fs = heap_formulas(x, x0, &column, deadline, search);
    let gs = heap_formulas(y, y0, &row, deadline, search);
    // Every pair, the smallest first: the check keeps the first that holds, and the ranking
    // puts a proved one (a part's period is what the sum theorem proves) before the others.
    let mut pairs: Vec<(usize, &str, &str)> = fs
        .iter()
        .flat_map(|(f, fsize)| {
            gs.iter().map(move |(g, gsize)| (fsize + gsize, f.as_str(), g.as_str()))
        })
        .collect();
    pairs.sort_by_key(|&(size, f, g)| (size, f.len() + g.len()));
    let parts = |f: &str, g: &str| {
        format!("f({x}) = {f} (the column {y} = {y0}) and g({y}) = {g} (the row {x} = {x0})")
    };
    let values = pairs.iter().map(|&(_, f, g)| Proposal {
        kind: ClaimKind::Values,
        expression: format!("xor({f}, {g})"),
        statement: format!(
            "the sum of two heap games: G({x}, {y}) = f({x}) XOR g({y}) with {}",
            parts(f, g)
        ),
        found_by: "sum of games",
    });
    // A sum is a P-position exactly where its parts' values are equal.
    let p_sets = pairs.iter().take(1).map(|&(_, f, g)| Proposal {
        kind: ClaimKind::PSet,
        expression: format!("{f} == {g}"),
        statement: format!(
            "the P-positions of a sum of two heap games are where the parts' values are equal: \
             {}",
            parts(f, g)
        ),
        found_by: "sum of games",
    });
    values.chain(p_sets).collect()
}

/// Formulas in `name` (from `min`) equal to `values` at every coordinate, each with its size in
/// nodes: the synthesis' first and the period's lookup, when they exist.
fn heap_formulas(
    name: &str,
    min: i64,
    values: &[i64],
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<(String, usize)> {
    let names = [name.to_string()];
    let spread = (values.len() / 48).max(1);
    let picked: Vec<usize> =
        (0..values.len().min(24)).chain((24..values.len()).step_by(spread)).collect();
    let points: Vec<Vec<i64>> = picked.iter().map(|&k| vec![min + k as i64]).collect();
    let target: Vec<i64> = picked.iter().map(|&k| values[k]).collect();
    let found = Synthesis::new(&names, &points).find(&target, LARGEST_FORMULA, deadline);
    search.formulas_tried += found.tried;
    let holds = |text: String| {
        let expr = Expr::parse(&text, &[name]).ok()?;
        let all =
            values.iter().enumerate().all(|(k, &v)| expr.eval_int(&[min + k as i64]) == Ok(v));
        all.then(|| (text, expr.size()))
    };
    let mut formulas: Vec<(String, usize)> = Vec::new();
    formulas.extend(found.candidates.into_iter().find_map(holds));
    formulas.extend(lookup(name, min, values).and_then(holds));
    formulas.sort_by_key(|(text, size)| (*size, text.len()));
    formulas.dedup_by(|a, b| a.0 == b.0);
    formulas
}

/// A periodic heap game from its start as a lookup on residues, plus the saltus.
pub(super) fn lookup(name: &str, min: i64, values: &[i64]) -> Option<String> {
    let period = find_period(values).filter(|p| p.preperiod == 0 && p.period <= LONGEST_LOOKUP)?;
    let p = period.period;
    let t = if min == 0 { name.to_string() } else { format!("({name} - {min})") };
    if period.saltus == 0 && (0..p).all(|r| values[r] == r as i64) {
        // 0, 1, ..., p - 1 repeating: the remainder itself.
        return Some(format!("{t} % {p}"));
    }
    if p == 1 {
        // An arithmetic progression: v + s·n.
        let (v, s) = (values[0], period.saltus);
        let slope = if s == 1 { t.clone() } else { format!("{s} * {t}") };
        return Some(match v {
            0 if s == 0 => "0".to_string(),
            0 => slope,
            _ if s == 0 => v.to_string(),
            _ => format!("{slope} + {v}"),
        });
    }
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
