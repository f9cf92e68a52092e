//! `grundy moves` end to end (issue 29): the winning moves of positions and sums, checked against
//! a brute force written here from the games' rules.

use crate::common;

use common::stdout_of;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

fn moves_json(args: &[&str]) -> Value {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(&stdout_of(&all)).unwrap()
}

/// Wythoff's game by brute force: (a, b) is P when no move reaches a P-position.
fn wythoff_is_p(a: i64, b: i64, memo: &mut HashMap<(i64, i64), bool>) -> bool {
    if let Some(&p) = memo.get(&(a, b)) {
        return p;
    }
    let mut options = Vec::new();
    options.extend((0..a).map(|x| (x, b)));
    options.extend((0..b).map(|y| (a, y)));
    options.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
    let p = options.into_iter().all(|(x, y)| !wythoff_is_p(x, y, memo));
    memo.insert((a, b), p);
    p
}

/// Kayles by brute force: take 1 or 2 adjacent pins from a row, leaving up to two rows.
fn kayles(n: usize, memo: &mut Vec<Option<u32>>) -> u32 {
    if let Some(v) = memo[n] {
        return v;
    }
    let mut seen = BTreeSet::new();
    for take in 1..=2.min(n) {
        let rest = n - take;
        for a in 0..=rest / 2 {
            seen.insert(kayles(a, memo) ^ kayles(rest - a, memo));
        }
    }
    let value = (0..).find(|v| !seen.contains(v)).unwrap();
    memo[n] = Some(value);
    value
}

/// Every option a report lists, with its component, option and `winning` flag.
fn every_move(report: &Value) -> Vec<(usize, Value, bool, u32)> {
    let mut all = Vec::new();
    for (i, component) in report["components"].as_array().unwrap().iter().enumerate() {
        for group in component["groups"].as_array().unwrap() {
            for option in group["options"].as_array().into_iter().flatten() {
                let winning = option["winning"].as_bool().unwrap();
                let sum = option["sum"].as_u64().unwrap() as u32;
                all.push((i, option["to"].clone(), winning, sum));
            }
        }
    }
    all
}

#[test]
fn wythoff_moves_to_p_positions_win() {
    let report = moves_json(&["wythoff", "5x8"]);
    let mut memo = HashMap::new();
    let mut winning = BTreeSet::new();
    for (_, to, wins, _) in every_move(&report) {
        let (a, b) = (to[0][0].as_i64().unwrap(), to[0][1].as_i64().unwrap());
        assert_eq!(wins, wythoff_is_p(a, b, &mut memo), "5x8 -> {a}x{b}");
        if wins {
            winning.insert((a, b));
        }
    }
    assert_eq!(winning, BTreeSet::from([(4, 7), (5, 3)]));
    let text = stdout_of(&["moves", "wythoff", "5x8"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "5x8: value 2; N (the player to move wins)");
    assert_eq!(lines[1], "winning moves (each leaves a P-position: a sum of value 0):");
    assert!(lines[2].starts_with("5x8 -> 5x3") || lines[2].trim_start().starts_with("5x8 -> 5x3"));
    assert!(text.contains(
        "mex: the options take the values {0, 1, 3, 4, 5, 6, 7, 8, 10}; the \
                           smallest missing is 2"
    ));
    // A P-position has no winning move.
    let p = stdout_of(&["moves", "wythoff", "3x5"]);
    assert!(p.starts_with("3x5: value 0; P"), "{p}");
    assert!(p.contains("winning moves: none"), "{p}");
}

#[test]
fn kayles_plus_nim_moves_make_the_sum_zero() {
    let report = moves_json(&["kayles", "10", "+", "nim", "3x5"]);
    let mut memo = vec![None; 11];
    let k10 = kayles(10, &mut memo);
    assert_eq!(report["value"].as_u64().unwrap() as u32, k10 ^ 3 ^ 5);
    let mut winning = Vec::new();
    for (component, to, wins, sum) in every_move(&report) {
        let after = match component {
            // A kayles move leaves one or two rows; the nim heaps stay 3 and 5.
            0 => {
                let rows: Vec<usize> = to
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p[0].as_u64().unwrap() as usize)
                    .collect();
                rows.iter().fold(0, |x, &r| x ^ kayles(r, &mut memo)) ^ 3 ^ 5
            }
            _ => k10 ^ (to[0][0].as_u64().unwrap() as u32) ^ (to[0][1].as_u64().unwrap() as u32),
        };
        assert_eq!(sum, after, "{component} -> {to}");
        assert_eq!(wins, after == 0);
        if wins {
            winning.push((component, to));
        }
    }
    // Kayles 10 has value 2 and nim 3x5 value 6: the one winning move is nim's 5 -> 1.
    assert_eq!(k10, 2);
    assert_eq!(winning, [(1, serde_json::json!([[3, 1]]))]);
}

/// A heap of 10^18 answered from Kayles' proved period: the classes' counts cover every split,
/// the mex is the value, and a winning class leaves a sum of 0 (checked on its first option
/// with the brute force through the period).
#[test]
fn a_huge_heap_is_told_by_kinds() {
    let report = moves_json(&["kayles", "10^18"]);
    let component = &report["components"][0];
    let mut memo = vec![None; 200];
    let value = |n: i64, memo: &mut Vec<Option<u32>>| {
        // Period 12 from 71.
        let n = if n >= 71 { 71 + (n - 71) % 12 } else { n };
        kayles(n as usize, memo)
    };
    assert_eq!(component["value"].as_u64().unwrap() as u32, value(10i64.pow(18), &mut memo));
    for group in component["groups"].as_array().unwrap() {
        let count = group["count"].as_u64().unwrap() as u128;
        if let Some(classes) = group["classes"].as_array() {
            let total: u128 = classes.iter().map(|c| c["count"].as_u64().unwrap() as u128).sum();
            assert_eq!(total, count);
            for class in classes {
                let to = class["to"].as_array().unwrap();
                let v = to.iter().fold(0, |x, p| x ^ value(p[0].as_i64().unwrap(), &mut memo));
                assert_eq!(class["value"].as_u64().unwrap() as u32, v, "{class}");
                assert_eq!(class["winning"].as_bool().unwrap(), class["sum"] == 0);
            }
        }
    }
    assert!(report["laws"][0]["argument"].as_str().unwrap().starts_with("Octal Periodicity"));
}

/// The key paths of a JSON value: `components.groups.options.sum` and so on (arrays look
/// through to their elements).
fn key_paths(value: &Value, prefix: &str, into: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                into.insert(path.clone());
                key_paths(inner, &path, into);
            }
        }
        Value::Array(items) if !items.iter().all(Value::is_array) => {
            for item in items {
                key_paths(item, prefix, into);
            }
        }
        _ => {}
    }
}

/// `moves --json` has one schema for every play convention (issue 50: misère play gave a flat
/// `moves` list, with `sum` meaning the misère value): normal play, a loopy sum and misère play
/// nest their options the same way, each component says its place, and misère play adds only
/// what it knows besides (the method, the sums remembered, each component's normal value and
/// tameness).
#[test]
fn every_play_convention_has_one_json_schema() {
    let paths = |args: &[&str]| {
        let mut found = BTreeSet::new();
        key_paths(&moves_json(args), "", &mut found);
        found
    };
    let normal = paths(&["kayles", "5", "+", "subtraction:1,2", "2"]);
    let misere = paths(&["kayles", "5", "+", "subtraction:1,2", "2", "--misere"]);
    let loopy = paths(&["knight-retreat", "4x7", "+", "subtraction:1,2", "2"]);
    let common: BTreeSet<String> = [
        "play",
        "value",
        "outcome",
        "components",
        "components.component",
        "components.game",
        "components.position",
        "components.value",
        "components.option_values",
        "components.groups",
        "components.groups.rule",
        "components.groups.kind",
        "components.groups.count",
        "components.groups.options",
        "components.groups.options.to",
        "components.groups.options.value",
        "components.groups.options.sum",
        "components.groups.options.outcome",
        "components.groups.options.winning",
    ]
    .map(String::from)
    .into();
    assert_eq!(normal, common);
    assert_eq!(loopy, common);
    let misere_only: BTreeSet<&str> = misere.difference(&common).map(String::as_str).collect();
    let expected: BTreeSet<&str> =
        ["method", "sums_remembered", "components.normal", "components.tameness"].into();
    assert_eq!(misere_only, expected);
    assert!(common.is_subset(&misere));
    assert_eq!(moves_json(&["kayles", "5", "--misere"])["play"], "misere");
    assert_eq!(moves_json(&["kayles", "5"])["play"], "normal");
}
