//! Terminal positions (issue 69): a spec's `terminal` condition, where no move starts. The
//! reference fill reads it, and `compute` agrees with a plain recursion over the definition; the
//! compiled engines and the layouts they make are refused with the reason; `show` writes it
//! back; `check` proves Wythoff's law with terminal positions by automata and refutes a claim
//! that holds on the box only; a condition that is not one is refused in one line.

use crate::common;

use common::{grundy, stdout_of};
use grundy_testkit::fixtures;
use std::collections::HashMap;

/// The values of Wythoff's game with a + b <= 1 terminal, by plain recursion.
fn by_definition(a: i64, b: i64, memo: &mut HashMap<(i64, i64), u32>) -> u32 {
    if let Some(&v) = memo.get(&(a, b)) {
        return v;
    }
    let mut seen = Vec::new();
    if a + b > 1 {
        for k in 1..=a.max(b) {
            for (x, y) in [(a - k, b), (a, b - k), (a - k, b - k)] {
                if x >= 0 && y >= 0 {
                    seen.push(by_definition(x, y, memo));
                }
            }
        }
    }
    let value = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert((a, b), value);
    value
}

#[test]
fn terminal_positions_are_computed_as_defined() {
    let path = fixtures::path("wythoff-terminal");
    let path = path.to_str().unwrap();
    let csv = stdout_of(&["compute", path, "--size", "20x20"]);
    let mut memo = HashMap::new();
    for (a, line) in csv.lines().skip(1).enumerate() {
        for (b, cell) in line.split(',').skip(1).enumerate() {
            let expected = by_definition(a as i64, b as i64, &mut memo);
            assert_eq!(cell.parse::<u32>().unwrap(), expected, "({a}, {b})");
        }
    }
    // Every engine and layout that reads the same moves everywhere says why it cannot.
    for extra in [&["--engine", "tiles"][..], &["--engine", "waves"], &["--stream"]] {
        let output =
            grundy().args(["compute", path, "--size", "20x20"]).args(extra).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{extra:?}");
        assert!(
            err.contains("has terminal positions, which only the reference fill reads"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let shown = stdout_of(&["show", path]);
    assert!(shown.contains("terminal = \"a + b <= 1\""), "{shown}");
}

#[test]
fn wythoff_with_terminal_positions_is_proved_and_a_box_only_claim_refuted() {
    let path = fixtures::path("wythoff-terminal");
    let path = path.to_str().unwrap();
    let law = "a + b <= 1 || min(a, b) + 1 == floor(abs(a - b) * phi)";
    let check = |claim: &str| -> serde_json::Value {
        let text = stdout_of(&["check", path, "--size", "60x60", "--p-set", claim, "--json"]);
        serde_json::from_str(text.trim()).unwrap()
    };
    let proved = check(law);
    assert_eq!((&proved["verdict"], &proved["proved"]), (&"agrees".into(), &true.into()));
    assert!(proved["argument"].as_str().unwrap().starts_with("decided by automata in Fibonacci"));
    let short = check(&format!("({law}) && a + b < 4000"));
    assert_eq!((&short["verdict"], &short["proved"]), (&"agrees".into(), &false.into()));
    let argument = short["argument"].as_str().unwrap();
    assert!(argument.contains("refute absorption"), "{argument}");
    // The box and the sum theorem say why they do not apply.
    assert!(argument.contains("no move starts where `a + b <= 1` holds"), "{argument}");
}

#[test]
fn a_terminal_condition_that_is_not_one_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("a + b", "terminal: bad expression `a + b`: a terminal condition must be a condition"),
        ("a + c <= 1", "unknown variable `c`"),
        ("a <= floor(b * phi)", "exact integer arithmetic"),
        ("a +", "bad expression"),
    ];
    for (condition, expected) in cases {
        let spec = format!(
            "name = \"t\"\naxes = [{{ name = \"a\", min = 0 }}, {{ name = \"b\", min = 0 }}]\nterminal = \"{condition}\"\n[[rules]]\nkind = \"slide\"\ndirections = [[-1, 0]]\n"
        );
        let path = dir.path().join("t.toml");
        std::fs::write(&path, spec).unwrap();
        let output = grundy().arg("compute").arg(&path).args(["--size", "4x4"]).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{condition}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{condition}: {err}");
    }
}
