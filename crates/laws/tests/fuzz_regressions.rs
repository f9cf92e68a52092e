//! Inputs that once crashed a fuzz target (`fuzz/`, `scripts/fuzz.sh`), replayed on every test
//! run: each must give a result or an error, never a panic or a stack overflow.

use grundy_core::{parse_spec, read_csv};
use grundy_laws::conjecture::{check, ClaimKind, Conjecture};
use grundy_laws::expr::Expr;
use std::path::{Path, PathBuf};

/// The inputs kept for `target`. A missing or empty folder fails the test: a replay of nothing
/// would pass while testing nothing (issue 13).
fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions").join(target);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{} holds the {target} inputs: {err}", dir.display()));
    let inputs: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|entry| {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    assert!(!inputs.is_empty(), "{} holds no input", dir.display());
    inputs
}

#[test]
fn expressions_that_crashed_the_fuzzer_are_refused_or_checked() {
    let table = "a\\b,0,1,2\n0,0,1,2\n1,1,0,3\n2,2,3,0\n";
    let (table, cells) = read_csv(table.as_bytes()).unwrap();
    let table = grundy_core::Table::without_game(table, cells, "nim");
    let cases = inputs("expr");
    for (path, bytes) in cases {
        // The fuzzer's first byte picks the claim kind; try the text with and without it.
        for text in [String::from_utf8_lossy(&bytes), String::from_utf8_lossy(&bytes[1..])] {
            for kind in [ClaimKind::PSet, ClaimKind::Values, ClaimKind::Holds] {
                if let Ok(conjecture) = Conjecture::parse(kind, &text, &["a", "b"]) {
                    let _ = check(&table, &conjecture, None, 3);
                }
            }
            if let Ok(expr) = Expr::parse(&text, &["n", "m", "g"]) {
                let _ = expr.eval(&[i64::MAX, i64::MIN, 0]);
            }
            eprintln!("{}: ok", path.display());
        }
    }
}

#[test]
fn specs_and_csv_tables_that_crashed_the_fuzzer_are_refused_or_read() {
    for (path, bytes) in inputs("spec") {
        // A spec that parses must survive the round trip and give its options.
        if let Ok(game) = parse_spec(&String::from_utf8_lossy(&bytes), "fuzz.toml") {
            let again = parse_spec(&grundy_core::to_spec(&game), "again.toml").unwrap();
            assert_eq!(again, game, "{}", path.display());
            let start: Vec<i64> = game.axes().iter().map(|a| a.min + 3).collect();
            let _ = game.options(&start);
        }
    }
    for (_, bytes) in inputs("csv") {
        let _ = read_csv(&bytes[..]);
    }
}
