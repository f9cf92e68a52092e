//! The law search on small tables built here: each law found must be what the table is.

use super::*;
use grundy_core::{Axis, CellKind, GrundyTable, TableShape};

fn board(names: [&str; 2], mins: [i64; 2], max: [i64; 2], f: impl Fn(i64, i64) -> u32) -> Table {
    let axes =
        (0..2).map(|k| Axis { name: names[k].to_string(), min: mins[k], max: None }).collect();
    let shape = TableShape::from_axes(axes, max.to_vec());
    let values: Vec<u32> = (mins[0]..=max[0])
        .flat_map(|x| (mins[1]..=max[1]).map(move |y| (x, y)))
        .map(|(x, y)| f(x, y))
        .collect();
    Table::without_game(GrundyTable::from_vec(shape, values), CellKind::Values, "test")
}

fn laws_of(table: &Table) -> Laws {
    let values = table.data().cells().to_u32_vec();
    let value = |f: usize| i64::from(values[f]);
    let is_p = |f: usize| values[f] == 0;
    let source = crate::analysis::law_source(table, Some(&value), &is_p, Vec::new());
    find_laws(&source, &LawOptions::default())
}

fn expressions(laws: &Laws) -> Vec<(ClaimKind, &str)> {
    laws.laws.iter().map(|law| (law.kind, law.expression.as_str())).collect()
}

#[test]
fn nim_is_xor_and_its_p_positions_the_diagonal() {
    let laws = laws_of(&board(["a", "b"], [0, 0], [30, 30], |a, b| (a ^ b) as u32));
    let found = expressions(&laws);
    assert!(found.contains(&(ClaimKind::Values, "xor(a, b)")), "{found:?}");
    assert!(found.contains(&(ClaimKind::PSet, "a == b")), "{found:?}");
}

#[test]
fn a_sum_of_two_subtraction_games_is_named_as_a_sum() {
    // Subtraction of 1 or 3 on x (period 2), of 1..=3 on y (n % 4), axes from 0.
    let laws = laws_of(&board(["x", "y"], [0, 0], [40, 40], |x, y| ((x % 2) ^ (y % 4)) as u32));
    assert!(laws.laws.iter().any(|l| l.kind == ClaimKind::Values), "{:?}", expressions(&laws));
}

#[test]
fn wythoff_p_positions_are_beatty_rays_of_phi() {
    let wythoff = reference_wythoff(60);
    let table = board(["a", "b"], [0, 0], [60, 60], |a, b| wythoff[a as usize][b as usize]);
    let laws = laws_of(&table);
    let beatty = laws.laws.iter().find(|l| l.found_by == "beatty").expect("a Beatty law");
    assert_eq!(beatty.expression, "min(a, b) == floor(abs(a - b) * phi)");
    assert!(beatty.statement.contains("mex recursion"), "{}", beatty.statement);
    // Shifted axes: the same board from 1 states the law in a - 1 and b - 1.
    let shifted =
        board(["a", "b"], [1, 1], [61, 61], |a, b| wythoff[a as usize - 1][b as usize - 1]);
    let laws = laws_of(&shifted);
    let beatty = laws.laws.iter().find(|l| l.found_by == "beatty").expect("a Beatty law");
    assert_eq!(beatty.expression, "min(a - 1, b - 1) == floor(abs(a - b) * phi)");
}

/// Wythoff's values by the definition.
fn reference_wythoff(n: usize) -> Vec<Vec<u32>> {
    let mut t = vec![vec![0u32; n + 1]; n + 1];
    for a in 0..=n {
        for b in 0..=n {
            let mut seen = Vec::new();
            seen.extend((0..a).map(|i| t[i][b]));
            seen.extend((0..b).map(|j| t[a][j]));
            seen.extend((1..=a.min(b)).map(|k| t[a - k][b - k]));
            t[a][b] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    t
}

/// The law search's one pass (`agreeing`) decides each claim as a check of it alone does: a
/// disagreement at the last cell, a cell where the claim cannot be evaluated, a kind the table
/// cannot judge; and a spent budget says so instead of deciding.
#[test]
fn one_pass_over_all_proposals_decides_as_each_check_does() {
    use crate::conjecture::{agreeing, check_with};
    use grundy_compute::{Budget, NoProgress, Seconds};
    let table = board(["a", "b"], [0, 0], [30, 30], |a, b| (a ^ b) as u32);
    let claims: Vec<Conjecture> = [
        (ClaimKind::Values, "xor(a, b)"),
        (ClaimKind::Values, "xor(a, b) + if(a == 30 && b == 30, 1, 0)"),
        (ClaimKind::Values, "xor(a, b) + 0 * (1 / (a - 7))"),
        (ClaimKind::PSet, "a == b"),
        (ClaimKind::PSet, "a == b && a < 30"),
        (ClaimKind::Holds, "g >= 0 && g < 32"),
        (ClaimKind::Draws, "false"),
    ]
    .into_iter()
    .map(|(kind, text)| Conjecture::parse(kind, text, &["a", "b"]).unwrap())
    .collect();
    let one_pass = agreeing(&table, &claims, &Budget::default()).unwrap();
    let alone: Vec<bool> = claims
        .iter()
        .map(|claim| {
            check_with(&table, claim, None, 0, &Budget::default())
                .is_ok_and(|report| report.verdict == Verdict::Agrees)
        })
        .collect();
    assert_eq!(one_pass, alone);
    assert_eq!(one_pass, [true, false, false, true, false, true, false]);
    let spent = Budget::new(Seconds::new(0.0, "a test's bound").unwrap(), &NoProgress);
    assert!(agreeing(&table, &claims, &spent).is_err());
}
