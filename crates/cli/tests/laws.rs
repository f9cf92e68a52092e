//! `patterns` proposes laws (issue 52): for Wythoff, Nim, kiki and spec games it states a law of
//! the expected kind, and `grundy check` confirms each law on an independent table twice as
//! large as the one searched.

mod common;

use common::stdout_of;
use serde_json::Value;
use std::fs;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Two heap games side by side: take 1 or 2 from x, or 1, 3 or 4 from y (period 7 from 0).
const SUM: &str = r#"
name = "sum-of-two"
description = "subtraction {1, 2} on x, subtraction {1, 3, 4} on y"
axes = [{ name = "x", min = 0 }, { name = "y", min = 0 }]

[[rules]]
kind = "jump"
directions = [[-1, 0]]
steps = [1, 2]

[[rules]]
kind = "jump"
directions = [[0, -1]]
steps = [1, 3, 4]
"#;

/// Nim on heaps counted from 1.
const SHIFTED: &str = r#"
name = "nim-from-one"
description = "two-heap Nim with the coordinates counted from 1"
axes = [{ name = "a", min = 1 }, { name = "b", min = 1 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1]]
"#;

/// Nim with at most three taken at a time.
const CAPPED: &str = r#"
name = "capped-nim"
description = "two-heap Nim, at most 3 taken at a time"
axes = [{ name = "p", min = 0 }, { name = "q", min = 0 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1]]
max = 3
"#;

/// Wythoff's game on piles counted from 1.
const WYTHOFF_FROM_ONE: &str = r#"
name = "wythoff-from-one"
description = "Wythoff's game with the coordinates counted from 1"
axes = [{ name = "a", min = 1 }, { name = "b", min = 1 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1], [-1, -1]]
"#;

/// The laws of `patterns GAME --size SIZE --json`.
fn laws_of(game: &str, size: &str) -> Vec<Value> {
    let report: Value =
        serde_json::from_str(&stdout_of(&["patterns", game, "--size", size, "--json", "--quiet"]))
            .unwrap();
    report["laws"].as_array().expect("a list of laws").clone()
}

/// Asserts that each law is a claim `grundy check` confirms on a board of `size`.
fn confirmed_on(game: &str, laws: &[Value], size: &str) {
    for law in laws {
        let kind = law["kind"].as_str().unwrap();
        let expression = law["expression"].as_str().unwrap();
        assert_eq!(law["verdict"], "agrees", "{law}");
        let option = format!("--{kind}");
        let check: Value = serde_json::from_str(&stdout_of(&[
            "check", game, "--size", size, &option, expression, "--json",
        ]))
        .unwrap();
        assert_eq!(check["verdict"], "agrees", "{game} {option} {expression} on {size}: {check}");
    }
}

/// The law of `kind` found by `found_by`, with every law confirmed on the larger board.
fn law(game: &str, size: &str, larger: &str, kind: &str, found_by: &str) -> Value {
    let laws = laws_of(game, size);
    confirmed_on(game, &laws, larger);
    laws.iter()
        .find(|l| l["kind"] == kind && l["found_by"] == found_by)
        .unwrap_or_else(|| panic!("{game}: no {kind} law by {found_by} in {laws:?}"))
        .clone()
}

#[test]
fn wythoff_p_positions_are_stated_as_beatty_rays_of_the_golden_ratio() {
    let law = law("wythoff", "150x150", "300x300", "p-set", "beatty");
    assert_eq!(law["expression"], "min(a, b) == floor(abs(a - b) * phi)");
    let statement = law["statement"].as_str().unwrap();
    assert!(statement.contains("mex recursion") && statement.contains("[1; 1, 1, 1"), "{statement}");
    assert_eq!(law["proved"], false);
}

#[test]
fn nim_values_are_xor_and_its_p_positions_the_diagonal() {
    let values = law("nim", "100x100", "200x200", "values", "sum of games");
    assert_eq!(values["expression"], "xor(a, b)");
    assert!(values["statement"].as_str().unwrap().contains("sum of two heap games"));
    let p = law("nim", "100x100", "200x200", "p-set", "synthesis");
    assert_eq!(p["expression"], "a == b");
}

#[test]
fn kiki_outcome_rule_is_a_proved_law() {
    let law = law("kiki", "100x100", "200x200", "p-set", "outcome period");
    assert_eq!(law["expression"], "n % 2 == 1 && m % 2 == 1");
    assert_eq!(law["proved"], true);
}

#[test]
fn spec_games_get_laws_of_their_kind() {
    let dir = tempfile::tempdir().unwrap();
    let sum = write(dir.path(), "sum.toml", SUM);
    let law = law(&sum, "120x120", "240x240", "values", "sum of games");
    let expression = law["expression"].as_str().unwrap();
    assert!(expression.starts_with("xor(x % 3, "), "{expression}");

    let shifted = write(dir.path(), "shifted.toml", SHIFTED);
    let law = self::law(&shifted, "100x100", "200x200", "values", "sum of games");
    assert_eq!(law["expression"], "xor(a - 1, b - 1)");

    let capped = write(dir.path(), "capped.toml", CAPPED);
    let law = self::law(&capped, "100x100", "200x200", "values", "sum of games");
    assert_eq!(law["expression"], "xor(p % 4, q % 4)");

    let wythoff = write(dir.path(), "wythoff1.toml", WYTHOFF_FROM_ONE);
    let law = self::law(&wythoff, "150x150", "300x300", "p-set", "beatty");
    assert_eq!(law["expression"], "min(a - 1, b - 1) == floor(abs(a - b) * phi)");
}

#[test]
fn heap_games_and_loopy_boards_are_searched_by_the_same_room() {
    let law = law("subtraction:1,2,3", "200", "400", "values", "synthesis");
    assert_eq!(law["expression"], "n % 4");
    // A loopy board's P-positions (no values): the P-set laws only, each checked.
    let laws = laws_of("knight-retreat", "63x63");
    assert!(laws.iter().all(|l| l["kind"] == "p-set"), "{laws:?}");
}

#[test]
fn the_text_report_lists_each_law_as_a_check_option() {
    let text = stdout_of(&["patterns", "nim", "--size", "40x40"]);
    assert!(text.contains("  --values \"xor(a, b)\""), "{text}");
    assert!(text.contains("  --p-set \"a == b\""), "{text}");
}
