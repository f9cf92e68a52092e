//! `grundy check` end to end: verdicts, counterexamples, proofs, exit codes and the JSON contract.

use crate::common;

use common::{grundy, stdout_of};
use serde_json::{json, Value};

/// Runs `grundy check …`, asserts the exit code and returns the JSON report.
fn check(args: &[&str], code: i32) -> Value {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = grundy().args(&all).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{all:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn kikis_p_set_agrees_on_2000x2000_and_is_proved() {
    let report = check(&["kiki", "--size", "2000x2000", "--p-set", "n % 2 == 1 && m % 2 == 1"], 0);
    assert_eq!(report["verdict"], "agrees");
    assert_eq!(report["cells"], 4_000_000);
    assert_eq!(report["disagreements"], 0);
    assert_eq!(report["counterexamples"], json!([]));
    assert_eq!(report["proved"], true, "{}", report["argument"]);
    assert!(report["argument"].as_str().unwrap().contains("box n in 1..=3, m in 1..=3"));
    let keys = [
        "game",
        "size",
        "claim",
        "expression",
        "cells",
        "disagreements",
        "counterexamples",
        "verdict",
        "proved",
        "argument",
    ];
    for key in keys {
        assert!(report.get(key).is_some(), "{key} missing");
    }
    assert_eq!(report["claim"], "p-set");
    assert_eq!(report["size"], json!([2000, 2000]));
}

#[test]
fn a_wrong_rule_disagrees_with_counterexamples_and_exit_code_1() {
    let report = check(&["kiki", "--size", "40x40", "--p-set", "n % 2 == 0", "--show", "3"], 1);
    assert_eq!(report["verdict"], "disagrees");
    assert_eq!(report["disagreements"], 40 * 40 * 3 / 4);
    assert_eq!(
        report["counterexamples"],
        json!([
            {"position": [1, 1], "value": 0, "claimed": "N"},
            {"position": [1, 3], "value": 0, "claimed": "N"},
            {"position": [1, 5], "value": 0, "claimed": "N"},
        ])
    );
    assert_eq!(report["proved"], false);
    let text = grundy()
        .args(["check", "kiki", "--size", "40x40", "--p-set", "n % 2 == 0"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(1));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("disagrees on 1200 of 1600 cells"), "{text}");
    assert!(text.contains("  (1, 1): 0 (P), claim says N"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  (")).count(),
        10,
        "ten counterexamples by default"
    );
}

#[test]
fn nim_values_are_xor() {
    let report = check(&["nim", "--size", "300x300", "--values", "xor(a, b)"], 0);
    assert_eq!(report["verdict"], "agrees");
    // Proved by the Sprague–Grundy sum of two Nim heaps (issue 61).
    assert_eq!(report["proved"], true);
    assert!(report["argument"].as_str().unwrap().starts_with("Sprague–Grundy sum of a Nim heap"));
    let wrong = check(&["nim", "--size", "10x10", "--values", "a + b", "--show", "1"], 1);
    assert_eq!(wrong["counterexamples"], json!([{"position": [1, 1], "value": 0, "claimed": 2}]));
}

#[test]
fn wythoffs_p_positions_follow_phi_and_values_are_bounded() {
    let report = check(
        &["wythoff", "--size", "1000x1000", "--p-set", "min(a, b) == floor(abs(a - b) * phi)"],
        0,
    );
    assert_eq!(report["verdict"], "agrees");
    let report = check(&["wythoff", "--size", "300x300", "--holds", "g <= a + b"], 0);
    assert_eq!(report["claim"], "holds");
    let report = check(&["wythoff", "--size", "30x30", "--holds", "g < a + b", "--show", "2"], 1);
    assert_eq!(
        report["counterexamples"],
        json!([{"position": [0, 0], "value": 0, "claimed": false}, {"position": [0, 1], "value": 1, "claimed": false}])
    );
}

#[test]
fn periods_are_read_from_the_expression_and_a_stated_period_must_be_a_multiple() {
    // `(n + 1) % 2` repeats by its form alone.
    let claim = "(n + 1) % 2 == 0 && (m + 1) % 2 == 0";
    let proved = check(&["kiki", "--size", "50x50", "--p-set", claim], 0);
    assert_eq!(proved["proved"], true, "{}", proved["argument"]);
    let stated = check(&["kiki", "--size", "50x50", "--p-set", claim, "--period", "4x2"], 0);
    assert_eq!(stated["proved"], true, "{}", stated["argument"]);
    assert_eq!(stated["checked_box"], json!([[1, 5], [1, 3]]));
    // A period that is no multiple of the form's is refused before any work (issue 28: it was
    // checked, "not proved", and exited 0).
    let wrong = grundy()
        .args(["check", "kiki", "--size", "50x50", "--p-set", claim, "--period", "3x2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert_eq!(wrong.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the period 3x2 is not a multiple of 2x2"), "{stderr}");
}

/// Issue 11, item 1: a claim that agrees on the table and repeats there, but not on the whole
/// board, was "proved for every board" with `--period`; it fails at (1001, 1).
#[test]
fn a_claim_that_is_periodic_only_inside_the_table_is_never_proved() {
    let bounded = "n % 2 == 1 && m % 2 == 1 && n < 1000";
    for extra in [&[][..], &["--period", "2x2"][..]] {
        let mut args = vec!["kiki", "--size", "100x100", "--p-set", bounded];
        args.extend(extra);
        let report = check(&args, 0);
        assert_eq!(report["verdict"], "agrees");
        assert_eq!(report["proved"], false, "{args:?}: {}", report["argument"]);
        // No box covers it, and the automata find where it fails (issue 61).
        let argument = report["argument"].as_str().unwrap();
        assert!(argument.contains("no finite box covers it"), "{argument}");
        assert!(argument.contains("refute absorption: (n = 1001, m = 1)"), "{argument}");
        let text = grundy().args(["check"]).args(&args).output().unwrap();
        let text = String::from_utf8(text.stdout).unwrap();
        assert!(text.contains("not proved for every board"), "{text}");
        assert!(!text.lines().any(|line| line.starts_with("proved")), "{text}");
    }
    // The same claim on a board past 1000 rows: it is false there.
    let report = check(&["kiki", "--size", "1003x3", "--p-set", bounded, "--show", "1"], 1);
    assert_eq!(report["counterexamples"][0]["position"], json!([1001, 1]));
    // Boundary-dependent value claims are refused alike: subtraction {1, 3, 4} has period 7.
    let periodic = "if(n % 7 == 4, 2, if(n % 7 == 5, 3, if(n % 7 == 6, 2, n % 7 % 2)))";
    let proved = check(&["subtraction:1,3,4", "--size", "300", "--values", periodic], 0);
    assert_eq!(proved["proved"], true, "{}", proved["argument"]);
    let bounded = format!("if(n < 1000, {periodic}, 0)");
    for extra in [&[][..], &["--period", "7"][..]] {
        let mut args = vec!["subtraction:1,3,4", "--size", "300", "--values", &bounded];
        args.extend(extra);
        assert_eq!(check(&args, 0)["proved"], false, "{args:?}");
    }
}

#[test]
fn heap_games_and_aliases() {
    // Subtraction {1, 3, 4}: value lookup by residue, with i as the alias of n.
    let report = check(
        &[
            "subtraction:1,3,4",
            "--size",
            "500",
            "--values",
            "if(i % 7 == 4, 2, if(i % 7 == 5, 3, if(i % 7 == 6, 2, i % 7 % 2)))",
        ],
        0,
    );
    assert_eq!(report["proved"], true, "{}", report["argument"]);
}

/// A claim about an octal game whose moves split heaps: no finite box holds it (the moves leave
/// sums) and no automaton reads it, but the game's period, once a theorem proves it, and the
/// claim's own period (read from its form) decide it on their first common period. A claim that
/// agrees with the table and is false beyond it is refused at the heap where it fails.
#[test]
fn claims_about_octal_games_are_proved_from_the_games_period() {
    for (game, size, values) in [("octal:0.3", "10", "n % 2"), ("octal:0.73", "30", "n % 4")] {
        let report = check(&[game, "--size", size, "--values", values], 0);
        let argument = report["argument"].as_str().unwrap();
        assert_eq!(report["proved"], true, "{game}: {argument}");
        assert!(argument.starts_with("Octal Periodicity Theorem"), "{argument}");
        assert!(argument.contains("so from n = 0 both repeat with period"), "{argument}");
    }
    let p_set = check(&["octal:0.73", "--size", "30", "--p-set", "n % 4 == 0"], 0);
    assert_eq!(p_set["proved"], true, "{}", p_set["argument"]);
    // Laws with a preperiod repeat from where their form shows every comparison settled.
    for (game, values, from) in [
        ("octal:0.71", "if(n == 2, 2, n % 2)", 3),
        ("octal:0.32", "min(n, 2 - n % 3)", 3),
        ("octal:0.2", "if(n == 0, 0, if(n % 2 == 0, 1, 0))", 1),
    ] {
        let report = check(&[game, "--size", "30", "--values", values], 0);
        let argument = report["argument"].as_str().unwrap();
        assert_eq!(report["proved"], true, "{game}: {argument}");
        assert!(argument.contains(&format!("from n = {from} (read from its form)")), "{argument}");
    }
    // Kayles' values 0..=83 repeated with period 84: true on 0..=40, false from 84 (Kayles
    // repeats with period 12 from 71, and x(84) = 4 is not x(0) = 0).
    let kayles = grundy().args(["compute", "kayles", "--size", "83", "--out", "-"]).output();
    let kayles = String::from_utf8(kayles.unwrap().stdout).unwrap();
    let values: Vec<&str> = kayles.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    fn lookup(values: &[&str], lo: usize, hi: usize) -> String {
        if hi - lo == 1 {
            return values[lo].to_string();
        }
        let mid = (lo + hi) / 2;
        format!("if(n % 84 < {mid}, {}, {})", lookup(values, lo, mid), lookup(values, mid, hi))
    }
    let claim = lookup(&values, 0, 84);
    let report = check(&["kayles", "--size", "40", "--values", &claim], 0);
    assert_eq!(report["verdict"], "agrees");
    assert_eq!(report["proved"], false);
    let argument = report["argument"].as_str().unwrap();
    assert!(argument.contains("disagrees with the game's proved values at n = 84"), "{argument}");
    check(&["kayles", "--size", "90", "--values", &claim], 1);
    // The same values up to the table's end and 1 past it: constant from 41, false there.
    let bounded = format!("if(n <= 40, {claim}, 1)");
    let report = check(&["kayles", "--size", "40", "--values", &bounded], 0);
    assert_eq!(report["proved"], false);
    let argument = report["argument"].as_str().unwrap();
    assert!(argument.contains("disagrees with the game's proved values at n = 41"), "{argument}");
    // 0.16's period (149459 from 105351) is far beyond what a proof computes: within its time
    // the proof stops and says so, before a round it could not finish.
    let args = ["octal:0.16", "--size", "1", "--values", "n % 2", "--proof-seconds", "0.05"];
    let report = check(&args, 0);
    assert_eq!(report["proved"], false);
    assert!(report["argument"].as_str().unwrap().contains("the proof stopped"), "{report}");
}

#[test]
fn csv_tables_can_be_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kiki.csv");
    let path = path.to_str().unwrap();
    stdout_of(&["compute", "kiki", "--size", "60x60", "--outcome", "--out", path]);
    let report = check(&[path, "--p-set", "n % 2 == 1 && m % 2 == 1"], 0);
    assert_eq!(report["proved"], false, "a file has no rules");
    let output = grundy().args(["check", path, "--values", "n"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("holds only outcomes (P/N); --values needs a table of values"));
}

#[test]
fn bad_expressions_exit_with_code_2_and_say_where() {
    let cases: &[(&[&str], &str)] = &[
        (&["kiki", "--size", "9x9", "--p-set", "n % 2 = 1"], "at column 7: `=` is not an operator"),
        (
            &["kiki", "--size", "9x9", "--p-set", "n % 2 == 1 &&"],
            "at column 14: the expression ends too early",
        ),
        (
            &["kiki", "--size", "9x9", "--p-set", "x == 1"],
            "unknown variable `x` (allowed: n, m, i, j, g_n, g_m, and the constant phi)",
        ),
        (&["kiki", "--size", "9x9", "--p-set", "g == 0"], "unknown variable `g`"),
        (
            &["kiki", "--size", "9x9", "--p-set", "n + m"],
            "--p-set must be a condition, but this is an integer",
        ),
        (
            &["kiki", "--size", "9x9", "--values", "n > m"],
            "--values must be an integer, but this is a condition",
        ),
        (
            &["kiki", "--size", "9x9", "--values", "n / (m - 1)"],
            "cannot be evaluated at (1, 1): division by zero",
        ),
        (
            &["kiki", "--size", "9x9", "--p-set", "n == 1", "--period", "2"],
            "period `2` has 1 part but the table has 2 axes",
        ),
        (
            &["kiki", "--size", "9x9", "--p-set", "n == 1", "--period", "0x2"],
            "malformed period `0x2`",
        ),
        (&["kiki", "--size", "9x9"], "required arguments were not provided"),
        (&["kiki", "--size", "9x9", "--p-set", "n == 1", "--holds", "true"], "cannot be used with"),
    ];
    for (args, needle) in cases {
        let output = grundy().arg("check").args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn a_streamed_check_reports_what_the_whole_table_does() {
    let cases: &[(&[&str], i32)] = &[
        (&["kiki", "--size", "300x200", "--p-set", "n % 2 == 1 && m % 2 == 1"], 0),
        (&["kiki", "--size", "90x70", "--p-set", "n % 2 == 0", "--show", "4"], 1),
        (&["wythoff", "--size", "200x150", "--holds", "g <= a + b"], 0),
        (&["wythoff", "--size", "60x60", "--values", "xor(a, b)", "--show", "3"], 1),
        (
            &[
                "kiki",
                "--size",
                "50x50",
                "--p-set",
                "(n + 1) % 2 == 0 && (m + 1) % 2 == 0",
                "--period",
                "2x2",
            ],
            0,
        ),
    ];
    for (args, code) in cases {
        let whole = check(args, *code);
        let mut streamed_args = args.to_vec();
        streamed_args.push("--stream");
        assert_eq!(check(&streamed_args, *code), whole, "{args:?}");
    }
    let output = grundy()
        .args(["check", "cutting", "--size", "20x20", "--p-set", "true", "--stream"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot stream cutting"));
}

/// An expression that fails on many rows is reported at its first cell in row order, whatever
/// thread meets an error first (it was once (5, 1) for `n / (m - 1)`, which fails on every row).
#[test]
fn an_evaluation_error_is_reported_at_its_first_cell() {
    for _ in 0..10 {
        let output = grundy()
            .args([
                "check",
                "kiki",
                "--size",
                "400x400",
                "--values",
                "n / (m - 1)",
                "--threads",
                "8",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("cannot be evaluated at (1, 1)"), "{stderr}");
    }
}

/// Issue 59, item 1 (the 1-D half): a box proof costs what its box holds. Listing a jump's
/// options asked the step set about every amount up to the coordinate, so the proof of a
/// period-400 000 claim on subtraction {1, 2, 3} ran past 300 s; it now takes well under a
/// second (the bound here only keeps a regression from hanging the suite).
#[test]
fn a_long_period_on_a_short_heap_table_is_proved_in_linear_time() {
    let output = grundy()
        .args(["check", "subtraction:1,2,3", "--size", "100", "--values", "n % 400000 % 4"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("box n in 0..=400002"), "{stdout}");
    assert!(stdout.contains("proved for every board"), "{stdout}");
    // Soundness of the faster path: a false claim that agrees on the table (it changes only at
    // heap 200, past it) and repeats with period 400 fails the box, at its first wrong cell.
    let report =
        check(&["subtraction:1,2,3", "--size", "100", "--values", "n % 4 + n / 200 % 2"], 0);
    assert_eq!(report["verdict"], "agrees", "{report}");
    assert_ne!(report["proved"], true, "{report}");
    let argument = report["argument"].as_str().unwrap();
    assert!(argument.contains("fails its own local condition at (200)"), "{argument}");
}

/// Issue 59, item 1 (the 2-D half): a proof runs within `--proof-seconds`. A 60-byte claim
/// whose form has period 7000 on kiki asks for a 49 M-cell box: with the default budget the
/// proof stops at once with its estimate and proves nothing; `--proof-seconds` refuses what is
/// no time bound.
#[test]
fn a_proof_that_cannot_end_in_its_budget_says_so_and_proves_nothing() {
    let claim = "n % 2 == 1 && m % 2 == 1 && n % 7000 >= 0 && m % 7000 >= 0";
    let output = grundy()
        .args(["check", "kiki", "--size", "50x50", "--p-set", claim, "--proof-seconds", "2"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("agrees on all 2500 cells"), "{stdout}");
    assert!(stdout.contains("not proved for every board: the proof stopped"), "{stdout}");
    assert!(stdout.contains("49014001 cells"), "{stdout}");
    let report = check(&["kiki", "--size", "50x50", "--p-set", claim], 0);
    assert_ne!(report["proof"]["proved"], true, "{report}");
    for bad in ["inf", "-1", "NaN", "1e9"] {
        let option = format!("--proof-seconds={bad}");
        let output = grundy()
            .args(["check", "kiki", "--size", "5x5", "--p-set", "n == m", &option])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("a proof's time bound is a number of seconds from 0 to 604800"));
    }
}
