//! Rules: expressions in the language of `grundy check` that state a periodic table exactly.
//!
//! A rule is built from the residues of the periodic part, plus the cells where that part's law
//! fails as explicit exceptions (when they are few). Every rule is evaluated on the whole table
//! before it is returned: a rule from this module is always exact on the table it came from.

use crate::grid::{Grid, Period2d};
use grundy_core::Cell;
use grundy_expr::Expr;

/// Rules with more exceptions or residue pairs than this are not worth printing.
const MAX_TERMS: usize = 24;

/// The largest value lookup (p × q residue classes) worth printing.
const MAX_LOOKUP: usize = 64;

/// The table a rule describes: its cells, axis names and first coordinates.
pub(crate) struct Described<'a, T> {
    pub(crate) grid: Grid<'a, T>,
    pub(crate) names: [&'a str; 2],
    pub(crate) mins: [i64; 2],
}

impl<'a, T: Copy + PartialEq> Described<'a, T> {
    fn coords(&self, i: usize, j: usize) -> [i64; 2] {
        [self.mins[0] + i as i64, self.mins[1] + j as i64]
    }

    /// Calls `f` with each cell's coordinates and value, row-major.
    fn cells(&self) -> impl Iterator<Item = ([i64; 2], T)> + use<'_, 'a, T> {
        (0..self.grid.rows()).flat_map(move |i| {
            (0..self.grid.cols()).map(move |j| (self.coords(i, j), self.grid.at(i, j)))
        })
    }

    /// The value of each residue class (x mod p, y mod q), read from the periodic part.
    fn residues(&self, period: &Period2d) -> Vec<Vec<T>> {
        let [p, q] = period.period;
        let [a, b] = period.from;
        let mut classes = vec![vec![self.grid.at(a, b); q]; p];
        for di in 0..p {
            for dj in 0..q {
                let [x, y] = self.coords(a + di, b + dj);
                classes[x.rem_euclid(p as i64) as usize][y.rem_euclid(q as i64) as usize] =
                    self.grid.at(a + di, b + dj);
            }
        }
        classes
    }
}

/// `n % p == r`, or a disjunction of residues, or nothing when every residue is in `set`.
pub(crate) fn residue_condition(name: &str, p: usize, set: &[usize]) -> Option<String> {
    if set.len() == p {
        return None;
    }
    if p > 2 && set.len() == p - 1 {
        let missing = (0..p).find(|r| !set.contains(r)).unwrap();
        return Some(format!("{name} % {p} != {missing}"));
    }
    let terms: Vec<String> = set.iter().map(|r| format!("{name} % {p} == {r}")).collect();
    Some(if terms.len() == 1 { terms[0].clone() } else { format!("({})", terms.join(" || ")) })
}

fn cell_condition(names: [&str; 2], [x, y]: [i64; 2]) -> String {
    format!("{} == {x} && {} == {y}", names[0], names[1])
}

/// A rule for the P-positions of `mask` (true = P), periodic with `period`; `None` when it would
/// be too long.
pub(crate) fn outcome_rule(mask: &Described<'_, bool>, period: &Period2d) -> Option<String> {
    let [p, q] = period.period;
    let classes = mask.residues(period);
    let pairs: Vec<(usize, usize)> =
        (0..p).flat_map(|x| (0..q).map(move |y| (x, y))).filter(|&(x, y)| classes[x][y]).collect();
    let xs: Vec<usize> = (0..p).filter(|&x| pairs.iter().any(|&(px, _)| px == x)).collect();
    let ys: Vec<usize> = (0..q).filter(|&y| pairs.iter().any(|&(_, py)| py == y)).collect();
    let [n, m] = mask.names;
    let periodic = if pairs.is_empty() {
        "false".to_string()
    } else if pairs.len() == xs.len() * ys.len() {
        // A product of residue sets: one condition per axis.
        let parts: Vec<String> = [residue_condition(n, p, &xs), residue_condition(m, q, &ys)]
            .into_iter()
            .flatten()
            .collect();
        if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join(" && ")
        }
    } else if pairs.len() <= MAX_TERMS {
        let terms: Vec<String> =
            pairs.iter().map(|&(x, y)| format!("({n} % {p} == {x} && {m} % {q} == {y})")).collect();
        terms.join(" || ")
    } else {
        return None;
    };
    let predicted = Expr::parse(&periodic, &[n, m]).expect("generated rules parse");
    let mut extra_p = Vec::new();
    let mut extra_n = Vec::new();
    for (coords, is_p) in mask.cells() {
        if predicted.eval_bool(&coords).ok()? != is_p {
            (if is_p { &mut extra_p } else { &mut extra_n }).push(coords);
        }
    }
    if extra_p.len() + extra_n.len() > MAX_TERMS {
        return None;
    }
    let mut rule = periodic;
    if !extra_n.is_empty() {
        let excluded: Vec<String> =
            extra_n.iter().map(|&c| format!("!({})", cell_condition(mask.names, c))).collect();
        rule = format!("({rule}) && {}", excluded.join(" && "));
    }
    for c in extra_p {
        rule = format!("({rule}) || ({})", cell_condition(mask.names, c));
    }
    verified(rule, mask, |value, truth| value.eval_bool_ok() == Some(truth))
}

/// A rule for the values of `values`, periodic with `period`: a lookup on residues.
pub(crate) fn values_rule<C: Cell>(values: &Described<'_, C>, period: &Period2d) -> Option<String> {
    let [p, q] = period.period;
    if p * q > MAX_LOOKUP {
        return None;
    }
    let classes = values.residues(period);
    let [n, m] = values.names;
    let by_column = |row: &[C]| -> String {
        let mut expr = row[q - 1].into().to_string();
        for y in (0..q - 1).rev() {
            let value: u32 = row[y].into();
            if value.to_string() != expr {
                expr = format!("if({m} % {q} == {y}, {value}, {expr})");
            }
        }
        expr
    };
    let mut periodic = by_column(&classes[p - 1]);
    for x in (0..p - 1).rev() {
        let inner = by_column(&classes[x]);
        if inner != periodic {
            periodic = format!("if({n} % {p} == {x}, {inner}, {periodic})");
        }
    }
    let predicted = Expr::parse(&periodic, &[n, m]).expect("generated rules parse");
    let exceptions: Vec<([i64; 2], u32)> = values
        .cells()
        .map(|(coords, v)| (coords, v.into()))
        .filter(|&(coords, v)| predicted.eval_int(&coords).ok() != Some(i64::from(v)))
        .take(MAX_TERMS + 1)
        .collect();
    if exceptions.len() > MAX_TERMS {
        return None;
    }
    let mut rule = periodic;
    for (c, v) in exceptions.into_iter().rev() {
        rule = format!("if({}, {v}, {rule})", cell_condition(values.names, c));
    }
    verified(rule, values, |value, truth| value.eval_int_ok() == Some(i64::from(truth.into())))
}

/// Returns `rule` only if it holds on every cell of `table`.
fn verified<T: Copy + PartialEq>(
    rule: String,
    table: &Described<'_, T>,
    agrees: impl Fn(Evaluated<'_>, T) -> bool,
) -> Option<String> {
    let expr = Expr::parse(&rule, &table.names).ok()?;
    table.cells().all(|(coords, truth)| agrees(Evaluated(&expr, coords), truth)).then_some(rule)
}

/// An expression at one cell, evaluated on demand as whatever type the caller needs.
struct Evaluated<'a>(&'a Expr, [i64; 2]);

impl Evaluated<'_> {
    fn eval_bool_ok(&self) -> Option<bool> {
        self.0.eval_bool(&self.1).ok()
    }

    fn eval_int_ok(&self) -> Option<i64> {
        self.0.eval_int(&self.1).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::find_period_2d;

    fn described<T: Copy + PartialEq>(
        cells: &[T],
        rows: usize,
        cols: usize,
        mins: [i64; 2],
    ) -> Described<'_, T> {
        Described { grid: Grid::new(cells, rows, cols), names: ["n", "m"], mins }
    }

    #[test]
    fn both_odd() {
        let mask: Vec<bool> =
            (1..=20).flat_map(|n| (1..=30).map(move |m| n % 2 == 1 && m % 2 == 1)).collect();
        let table = described(&mask, 20, 30, [1, 1]);
        let period = find_period_2d(&table.grid).unwrap();
        assert_eq!(outcome_rule(&table, &period).unwrap(), "n % 2 == 1 && m % 2 == 1");
    }

    #[test]
    fn exceptions_are_listed() {
        let mut mask: Vec<bool> =
            (0..20).flat_map(|n| (0..20).map(move |m| (n + m) % 3 == 0)).collect();
        mask[1] = true; // (0, 1)
        mask[0] = false; // (0, 0)
        let table = described(&mask, 20, 20, [0, 0]);
        let period = find_period_2d(&table.grid).unwrap();
        let rule = outcome_rule(&table, &period).unwrap();
        assert!(
            rule.contains("!(n == 0 && m == 0)") && rule.ends_with("|| (n == 0 && m == 1)"),
            "{rule}"
        );
    }

    #[test]
    fn value_lookups() {
        let values: Vec<u32> =
            (0..12).flat_map(|n| (0..12).map(move |m| ((n % 2) * 2 + m % 3) as u32)).collect();
        let table = described(&values, 12, 12, [0, 0]);
        let period = find_period_2d(&table.grid).unwrap();
        assert_eq!(period.period, [2, 3]);
        let rule = values_rule(&table, &period).unwrap();
        let expr = Expr::parse(&rule, &["n", "m"]).unwrap();
        assert_eq!(expr.eval_int(&[1, 2]).unwrap(), 4);
    }
}
