//! Separable P-sets: the P-positions are exactly the cells (a, b) with a in one set and b in
//! another, each set eventually periodic. The cutting game's P-positions repeat with period
//! [34, 34] from (38, 38); as one law, `w` and `h` each lie in {2, 3, 17, 37} or have a residue
//! mod 34 in {7, 11, 23, 27, 31}. Each set is read from the table (the rows, and the columns,
//! that hold a P-position), its period found with its preperiod, and the preperiod's heaps that
//! the residues miss (or wrongly take) named one by one.

use super::periodic_rules::residue_condition;
use super::{Proposal, Source};
use crate::conjecture::ClaimKind;
use crate::periodicity::find_period;

/// The longest period of a factor written out as residues.
const LONGEST_PERIOD: usize = 64;

/// The most heaps of a preperiod named one by one.
const MOST_EXCEPTIONS: usize = 12;

/// The P-set `x(a) && y(b)` when the table's P-positions are a product of two eventually
/// periodic sets.
pub(super) fn propose(source: &Source<'_>) -> Vec<Proposal> {
    let [rows, cols] = [source.lens[0], source.lens[1]];
    let at = |i: usize, j: usize| (source.is_p)(i * cols + j);
    // A product: every row that holds a P-position holds the same ones. Rows are read in order
    // and the first that differs ends the search (Wythoff's second row), never a column.
    let Some(first) = (0..rows).find(|&i| (0..cols).any(|j| at(i, j))) else {
        return Vec::new();
    };
    let ys: Vec<bool> = (0..cols).map(|j| at(first, j)).collect();
    let mut xs = vec![false; rows];
    for (i, x) in xs.iter_mut().enumerate().skip(first) {
        let row_p = (0..cols).any(|j| at(i, j));
        if row_p && (0..cols).any(|j| at(i, j) != ys[j]) {
            return Vec::new();
        }
        *x = row_p;
    }
    // No P-position, or a factor that holds everywhere (a law of one coordinate: the synthesis
    // and the rays state those).
    let trivial = |set: &[bool]| set.iter().all(|&p| p) || !set.iter().any(|&p| p);
    if trivial(&xs) || trivial(&ys) {
        return Vec::new();
    }
    let (Some(x), Some(y)) = (
        factor(&source.names[0], source.mins[0], &xs),
        factor(&source.names[1], source.mins[1], &ys),
    ) else {
        return Vec::new();
    };
    let wrap = |c: &str| if c.contains("||") { format!("({c})") } else { c.to_string() };
    let expression = format!("{} && {}", wrap(&x), wrap(&y));
    vec![Proposal {
        kind: ClaimKind::PSet,
        statement: format!(
            "the P-positions are a product of two eventually periodic sets: {x}, and {y}"
        ),
        expression,
        found_by: "separable",
    }]
}

/// The condition for `name` (from `min`) to lie in `set`: its residues in the periodic part,
/// with the preperiod's heaps where they differ named one by one; `None` when the set shows no
/// period, or too long a one.
fn factor(name: &str, min: i64, set: &[bool]) -> Option<String> {
    let marks: Vec<u8> = set.iter().map(|&p| u8::from(p)).collect();
    let period = find_period(&marks).filter(|p| p.saltus == 0 && p.period <= LONGEST_PERIOD)?;
    let (p, e) = (period.period, period.preperiod);
    let coordinate = |k: usize| min + k as i64;
    let mut residues: Vec<usize> = (e..e + p)
        .filter(|&k| set[k])
        .map(|k| coordinate(k).rem_euclid(p as i64) as usize)
        .collect();
    residues.sort_unstable();
    let in_period = |k: usize| residues.contains(&(coordinate(k).rem_euclid(p as i64) as usize));
    let (taken, left): (Vec<usize>, Vec<usize>) =
        (0..e).filter(|&k| set[k] != in_period(k)).partition(|&k| set[k]);
    if taken.len() + left.len() > MOST_EXCEPTIONS {
        return None;
    }
    let mut condition = if residues.is_empty() {
        "false".to_string()
    } else {
        residue_condition(name, p, &residues).unwrap_or_else(|| "true".to_string())
    };
    for k in left {
        condition = format!("{condition} && {name} != {}", coordinate(k));
    }
    for k in taken {
        condition = format!("{condition} || {name} == {}", coordinate(k));
    }
    Some(condition)
}
