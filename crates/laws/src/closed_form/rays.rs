//! Unions of periodic rays: P-positions on finitely many lines (the diagonals a − b = d, or
//! |a − b| = d on a symmetric board; the rows a = k; the columns b = k), each periodic along
//! its line from its start. `wythoff-short-diagonal`'s P-positions are (3k, 3k) and
//! (3k + 1, 3k + 2) with its mirror image: `(a == b && min(a, b) % 3 == 0) || (abs(a - b) == 1
//! && min(a, b) % 3 == 1)`.
//!
//! The rays are read in the table's corner (at most [`CORNER`] cells a side); the union is one
//! P-set claim, checked with the other proposals on every cell.

use super::periodic_rules::residue_condition;
use super::{Proposal, Source};
use crate::conjecture::ClaimKind;

/// The side of the corner the rays are read in.
const CORNER: usize = 256;

/// The most lines a union may have.
const MOST_LINES: usize = 6;

/// The longest period along a line.
const LONGEST_PERIOD: usize = 12;

/// The longest preperiod along a line: its P-positions there are named one by one (misère
/// two-pile Nim: `(a == b && min(a, b) >= 2) || (abs(a - b) == 1 && min(a, b) == 0)`).
const LONGEST_PREPERIOD: usize = 8;

/// A family of parallel lines: which line a cell is on, and where along it.
#[derive(Clone, Copy)]
enum Family {
    /// a − b = d; along the line, min(a, b).
    Diagonals,
    /// |a − b| = d on a board whose P-positions are symmetric; along the line, min(a, b).
    MirroredDiagonals,
    /// a = k; along the line, b.
    Rows,
    /// b = k; along the line, a.
    Columns,
}

impl Family {
    const ALL: [Family; 4] =
        [Family::MirroredDiagonals, Family::Diagonals, Family::Rows, Family::Columns];

    /// The line of (a, b) and its place along it.
    fn place(self, a: i64, b: i64) -> (i64, i64) {
        match self {
            Family::Diagonals => (a - b, a.min(b)),
            Family::MirroredDiagonals => ((a - b).abs(), a.min(b)),
            Family::Rows => (a, b),
            Family::Columns => (b, a),
        }
    }

    /// The claim's condition for line `key`, and the name of the place along it.
    fn line(self, key: i64, [a, b]: [&str; 2]) -> (String, String) {
        let min = format!("min({a}, {b})");
        match self {
            Family::Diagonals | Family::MirroredDiagonals if key == 0 => {
                (format!("{a} == {b}"), min)
            }
            Family::Diagonals if key > 0 => (format!("{a} - {b} == {key}"), min),
            Family::Diagonals => (format!("{b} - {a} == {}", -key), min),
            Family::MirroredDiagonals => (format!("abs({a} - {b}) == {key}"), min),
            Family::Rows => (format!("{a} == {key}"), b.to_string()),
            Family::Columns => (format!("{b} == {key}"), a.to_string()),
        }
    }
}

/// The P-positions as a union of periodic rays, when the table's corner shows one.
pub(super) fn propose(source: &Source<'_>) -> Vec<Proposal> {
    let [rows, cols] = [source.lens[0], source.lens[1]];
    let (side_a, side_b) = (rows.min(CORNER), cols.min(CORNER));
    let [a0, b0] = [source.mins[0], source.mins[1]];
    let at = |i: usize, j: usize| (source.is_p)(i * cols + j);
    let symmetric =
        a0 == b0 && (0..side_a.min(side_b)).all(|i| (0..i).all(|j| at(i, j) == at(j, i)));
    let names = [source.names[0].as_str(), source.names[1].as_str()];
    Family::ALL
        .into_iter()
        .filter(|family| symmetric || !matches!(family, Family::MirroredDiagonals))
        .filter_map(|family| union(family, side_a, side_b, [a0, b0], &at, names))
        .take(1)
        .map(|expression| Proposal {
            kind: ClaimKind::PSet,
            statement: format!(
                "the P-positions lie on finitely many rays, each periodic along its line: \
                 {expression}"
            ),
            expression,
            found_by: "rays",
        })
        .collect()
}

/// The union of `family`'s lines that holds every P-position of the corner, each line periodic
/// along its length, as a claim.
fn union(
    family: Family,
    side_a: usize,
    side_b: usize,
    [a0, b0]: [i64; 2],
    at: &dyn Fn(usize, usize) -> bool,
    names: [&str; 2],
) -> Option<String> {
    // The lines that hold a P-position, and along each, which places are P.
    let mut lines: Vec<(i64, Vec<(i64, bool)>)> = Vec::new();
    for i in 0..side_a {
        for j in 0..side_b {
            let (key, _) = family.place(a0 + i as i64, b0 + j as i64);
            if at(i, j) && !lines.iter().any(|(k, _)| *k == key) {
                if lines.len() == MOST_LINES {
                    return None;
                }
                lines.push((key, Vec::new()));
            }
        }
    }
    if lines.is_empty() {
        return None;
    }
    for i in 0..side_a {
        for j in 0..side_b {
            let (key, t) = family.place(a0 + i as i64, b0 + j as i64);
            if let Some((_, along)) = lines.iter_mut().find(|(k, _)| *k == key) {
                along.push((t, at(i, j)));
            }
        }
    }
    lines.sort_by_key(|(key, _)| *key);
    let mut terms = Vec::new();
    for (key, mut along) in lines {
        // A mirrored diagonal holds each place twice: once is enough.
        along.sort_unstable();
        along.dedup();
        let start = along.first()?.0;
        if along.iter().enumerate().any(|(k, &(t, _))| t != start + k as i64) {
            return None;
        }
        let marks: Vec<bool> = along.iter().map(|&(_, p)| p).collect();
        let (line, place) = family.line(key, names);
        terms.push(ray(&line, &place, start, &marks)?);
    }
    if let [one] = &terms[..] {
        let bare = one.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
        return Some(bare.unwrap_or(one).to_string());
    }
    Some(terms.join(" || "))
}

/// The condition for the P-positions on one line (`line`, the place along it named `place`,
/// from `start`), whose marks are `marks`: periodic from the shortest preperiod (the places
/// before it named one by one), with the shortest period seen three times after it.
fn ray(line: &str, place: &str, start: i64, marks: &[bool]) -> Option<String> {
    let (e, period) = (0..=LONGEST_PREPERIOD).find_map(|e| {
        let tail = marks.get(e..)?;
        let p = (1..=LONGEST_PERIOD)
            .find(|&p| tail.len() >= 3 * p && (p..tail.len()).all(|k| tail[k] == tail[k - p]))?;
        Some((e, p))
    })?;
    let mut residues: Vec<usize> = (e..e + period)
        .filter(|&k| marks[k])
        .map(|k| (start + k as i64).rem_euclid(period as i64) as usize)
        .collect();
    residues.sort_unstable();
    let periodic = if residues.is_empty() {
        None
    } else {
        let from = (e > 0).then(|| format!("{place} >= {}", start + e as i64));
        let condition = residue_condition(place, period, &residues);
        Some(match (from, condition) {
            (None, None) => String::new(),
            (Some(c), None) | (None, Some(c)) => c,
            (Some(from), Some(condition)) => format!("{from} && {condition}"),
        })
    };
    let mut parts: Vec<String> =
        (0..e).filter(|&k| marks[k]).map(|k| format!("{place} == {}", start + k as i64)).collect();
    match periodic {
        Some(c) if c.is_empty() => return Some(line.to_string()),
        Some(c) if parts.is_empty() => return Some(format!("({line} && {c})")),
        Some(c) => parts.push(format!("({c})")),
        None => {}
    }
    match parts.as_slice() {
        [] => None,
        [one] => Some(format!("({line} && {one})")),
        _ => Some(format!("({line} && ({}))", parts.join(" || "))),
    }
}
