//! Issue 62's remaining shapes, each found by `patterns` and confirmed by `grundy check` on an
//! independent table twice as large (as large again on each axis): sums whose parts have no
//! closed form (named by the table's edges, `g_a`), a preperiodic sum, arithmetic periodicity
//! (saltus), three axes, and misère two-pile Nim; hidden games of each shape; and false claims
//! that agree on the box but are not proved.

use crate::common;

use common::{grundy, stdout_of};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The laws of `patterns GAME --size SIZE --json` (with `extra` options, e.g. `--misere`).
fn laws_of(game: &str, size: &str, extra: &[&str]) -> Vec<Value> {
    let args = [&["patterns", game, "--size", size, "--json", "--quiet"][..], extra].concat();
    let report: Value = serde_json::from_str(&stdout_of(&args)).unwrap();
    report["laws"].as_array().expect("a list of laws").clone()
}

/// `check GAME --size SIZE --KIND EXPRESSION --json` (with `extra` options).
fn check(game: &str, size: &str, kind: &str, expression: &str, extra: &[&str]) -> Value {
    let option = format!("--{kind}");
    let args =
        [&["check", game, "--size", size, &option, expression, "--json"][..], extra].concat();
    let output = grundy().args(&args).output().unwrap();
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{args:?}: {}", String::from_utf8_lossy(&output.stderr)))
}

/// The first law (the best ranked) of `kind`, with every law confirmed on the larger table.
fn best_law(game: &str, size: &str, larger: &str, kind: &str, extra: &[&str]) -> Value {
    let laws = laws_of(game, size, extra);
    for law in &laws {
        let (k, expression) = (law["kind"].as_str().unwrap(), law["expression"].as_str().unwrap());
        let checked = check(game, larger, k, expression, extra);
        assert_eq!(checked["verdict"], "agrees", "{game} --{k} {expression} on {larger}");
    }
    laws.into_iter()
        .find(|l| l["kind"] == kind)
        .unwrap_or_else(|| panic!("{game}: no {kind} law on {size}"))
}

/// A board whose axes are two heap games given by their step sets.
fn sum_spec(name: &str, a_steps: &str, b_steps: &str) -> String {
    format!(
        r#"
name = "{name}"
description = "a sum of two heap games"
axes = [{{ name = "a", min = 0 }}, {{ name = "b", min = 0 }}]

[[rules]]
kind = "jump"
directions = [[-1, 0]]
steps = {a_steps}

[[rules]]
kind = "jump"
directions = [[0, -1]]
steps = {b_steps}
"#
    )
}

/// fibonacci-rook is g(a) XOR g(b) for the subtraction game with the Fibonacci numbers, which
/// has no closed form: the law names the parts by the table's edges, and the sum theorem proves
/// it. A hidden game of the same shape: squares on one axis, primes on the other.
#[test]
fn sums_whose_parts_have_no_closed_form_are_stated_by_their_edges() {
    let law = best_law("fibonacci-rook", "150x150", "300x300", "values", &[]);
    assert_eq!(law["expression"], "xor(g_a, g_b)");
    assert_eq!(
        (&law["proved"], &law["found_by"]),
        (&Value::from(true), &"sum of the edges".into())
    );
    assert_eq!(law["reads_edges"], true);
    assert!(law["argument"].as_str().unwrap().starts_with("Sprague–Grundy"), "{law}");
    let p = best_law("fibonacci-rook", "150x150", "300x300", "p-set", &[]);
    assert_eq!((&p["expression"], &p["proved"]), (&"g_a == g_b".into(), &Value::from(true)));

    let dir = tempfile::tempdir().unwrap();
    let hidden = write(dir.path(), "sq.toml", &sum_spec("hidden", "\"squares\"", "\"primes\""));
    let law = best_law(&hidden, "120x120", "240x240", "values", &[]);
    assert_eq!((&law["expression"], &law["proved"]), (&"xor(g_a, g_b)".into(), &Value::from(true)));
    // A closed form is preferred where there is one: Nim's law reads no edge.
    let nim = best_law("nim", "60x60", "120x120", "values", &[]);
    assert_eq!(nim["expression"], "xor(a, b)");
}

/// A sum whose part is preperiodic (subtraction {2, 4, 7}: period 3 from 8) beside a part with
/// no law the theorem knows (the Fibonacci numbers): the preperiodic part's lookup names its
/// first heaps one by one, the other part is its edge, and the sum theorem proves it all.
#[test]
fn a_preperiodic_sum_is_stated_and_proved() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "pre.toml", &sum_spec("pre", "[2, 4, 7]", "\"fibonacci\""));
    let law = best_law(&spec, "120x120", "240x240", "values", &[]);
    let expression = law["expression"].as_str().unwrap();
    assert!(expression.starts_with("xor(if(a == 1, 0, "), "{law}");
    assert!(expression.ends_with(", g_b)"), "{law}");
    assert_eq!(law["proved"], true, "{law}");
    assert!(law["argument"].as_str().unwrap().contains("period 3 from 8"), "{law}");
    // A hidden one: subtraction {2, 5, 6} beside subtraction {1, 4, 6}, both periodic.
    let hidden = write(dir.path(), "hidden.toml", &sum_spec("h", "[2, 5, 6]", "[1, 4, 6]"));
    let law = best_law(&hidden, "120x120", "240x240", "values", &[]);
    assert_eq!(law["proved"], true, "{law}");
    assert_eq!(law["reads_edges"], false, "{law}");
}

/// Arithmetic periodicity: Lasker's Nim (hexadecimal 4.333…: take any number, or split a heap
/// in two) has period 4 and saltus 4 from n = 1; its law is a lookup on residues plus 4 per
/// period, with n = 0 named alone. Hidden games of the shape: two more hexadecimal codes.
#[test]
fn arithmetic_periodicity_is_stated_as_a_lookup_with_its_saltus() {
    let lasker = format!("hex:4.{}", "3".repeat(200));
    let law = best_law(&lasker, "100", "200", "values", &[]);
    assert_eq!(
        law["expression"],
        "if(n == 0, 0, if(n % 4 == 0, -1, if(n % 4 == 1, 1, if(n % 4 == 2, 2, 4))) + 4 * (n / 4))"
    );
    for hidden in ["hex:4.0a", "hex:4.18"] {
        let law = best_law(hidden, "200", "400", "values", &[]);
        assert!(law["expression"].as_str().unwrap().contains(" + 4 * (n / "), "{law}");
    }
}

/// Three axes: `patterns` reads a 3-D table (the edges' periods, whether it is their sum) and
/// states its laws. Three-pile Nim's xor is proved by the sum theorem; a 3-D sum with a part
/// that has no closed form names it by its edge.
#[test]
fn three_axes_are_searched_for_laws() {
    let three = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/laws/three-heap-nim.toml");
    let three = three.to_str().unwrap();
    let values = best_law(three, "15x15x15", "31x31x31", "values", &[]);
    assert_eq!(values["proved"], true, "{values}");
    let p = best_law(three, "15x15x15", "31x31x31", "p-set", &[]);
    assert_eq!((&p["expression"], &p["proved"]), (&"xor(a, b) == c".into(), &Value::from(true)));
    let text = stdout_of(&["patterns", three, "--size", "15x15x15"]);
    assert!(text.contains("sum:       yes"), "{text}");
    assert!(text.contains("a (b = 0, c = 0): period 1, saltus 1 from a = 0"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let spec = write(
        dir.path(),
        "solid.toml",
        r#"
name = "three-heaps"
description = "subtraction {1, 2}, {2, 4, 7} and the Fibonacci numbers on three heaps"
axes = [{ name = "x", min = 0 }, { name = "y", min = 0 }, { name = "z", min = 0 }]

[[rules]]
kind = "jump"
directions = [[-1, 0, 0]]
steps = [1, 2]

[[rules]]
kind = "jump"
directions = [[0, -1, 0]]
steps = [2, 4, 7]

[[rules]]
kind = "jump"
directions = [[0, 0, -1]]
steps = "fibonacci"
"#,
    );
    let law = best_law(&spec, "24x24x24", "48x48x48", "values", &[]);
    let expression = law["expression"].as_str().unwrap();
    assert!(expression.starts_with("xor(xor(x % 3, ") && expression.ends_with(", g_z)"), "{law}");
    assert_eq!(law["proved"], true, "{law}");
}

/// Misère two-pile Nim's P-positions are (n, n) for n ≥ 2, (0, 1) and (1, 0): rays with a
/// preperiod along them. Checked with `--misere` on a table twice as large, and refuted by
/// normal play's table. A hidden misère board of the shape: Nim with at most 3 taken.
#[test]
fn misere_two_pile_nim_is_stated_as_rays_with_a_preperiod() {
    let misere = ["--misere"];
    let law = best_law("nim", "60x60", "120x120", "p-set", &misere);
    let expression = law["expression"].as_str().unwrap();
    assert_eq!(expression, "(a == b && min(a, b) >= 2) || (abs(a - b) == 1 && min(a, b) == 0)");
    assert_eq!(check("nim", "60x60", "p-set", expression, &[])["verdict"], "disagrees");

    let dir = tempfile::tempdir().unwrap();
    let capped = write(
        dir.path(),
        "capped.toml",
        r#"
name = "capped-nim"
description = "two-heap Nim, at most 3 taken at a time"
axes = [{ name = "p", min = 0 }, { name = "q", min = 0 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1]]
max = 3
"#,
    );
    best_law(&capped, "60x60", "120x120", "p-set", &misere);
}

/// Soundness: claims that read the edges and agree on a small box are not proved when they are
/// false on larger boards, or when nothing shows they are true.
#[test]
fn edge_claims_that_agree_on_the_box_are_not_proved_unless_true() {
    let dir = tempfile::tempdir().unwrap();
    // One step left or down, or six cells diagonally: no sum, though on 6 × 6 no diagonal
    // move fits and the table is the xor of its edges.
    let far = write(
        dir.path(),
        "far.toml",
        r#"
name = "far-diagonal"
description = "one step left or down, or six cells diagonally"
axes = [{ name = "a", min = 0 }, { name = "b", min = 0 }]

[[rules]]
kind = "step"
offsets = [[-1, 0], [0, -1], [-6, -6]]
"#,
    );
    let small = check(&far, "5x5", "values", "xor(g_a, g_b)", &[]);
    assert_eq!((&small["verdict"], &small["proved"]), (&"agrees".into(), &Value::from(false)));
    assert!(small["argument"].as_str().unwrap().contains("not a sum"), "{small}");
    assert_eq!(check(&far, "30x30", "values", "xor(g_a, g_b)", &[])["verdict"], "disagrees");

    // An exception past the box: xor(a % 3, b) but for a = 500.
    let sum = write(dir.path(), "sum.toml", &sum_spec("sum", "[1, 2]", "[1, 2, 3]"));
    let claim = "xor(if(a == 500, 1, a % 3), b % 4)";
    let far_off = check(&sum, "40x40", "values", claim, &[]);
    assert_eq!((&far_off["verdict"], &far_off["proved"]), (&"agrees".into(), &Value::from(false)));
    assert!(far_off["argument"].as_str().unwrap().contains("differs"), "{far_off}");
    // An edge inside a formula, and a part left out on a 3-D board.
    let inside = check(&sum, "40x40", "values", "xor(g_a % 8, g_b)", &[]);
    assert_eq!((&inside["verdict"], &inside["proved"]), (&"agrees".into(), &Value::from(false)));
    let three = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/laws/three-heap-nim.toml");
    let flat = check(three.to_str().unwrap(), "9x9x0", "values", "xor(g_a, g_b)", &[]);
    assert_eq!((&flat["verdict"], &flat["proved"]), (&"agrees".into(), &Value::from(false)));
    assert!(flat["argument"].as_str().unwrap().contains("no part for c"), "{flat}");
}

/// `g_a` is a variable of every claim on a board, held, streamed or read from a CSV file.
#[test]
fn edges_are_read_from_the_table_checked() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("fib.csv");
    let csv = csv.to_str().unwrap();
    let out = grundy()
        .args(["compute", "fibonacci-rook", "--size", "40x40", "--out", csv])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_file = |claim: &str| -> Value {
        let out = grundy().args(["check", csv, "--values", claim, "--json"]).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert_eq!(from_file("xor(g_a, g_b)")["verdict"], "agrees");
    assert_eq!(from_file("xor(g_a, g_b) + 1")["disagreements"], 41 * 41);
    let streamed = check("fibonacci-rook", "40x40", "values", "xor(g_a, g_b)", &["--stream"]);
    assert_eq!((&streamed["verdict"], &streamed["proved"]), (&"agrees".into(), &Value::from(true)));
    let streamed = check("fibonacci-rook", "40x40", "values", "xor(g_a, b)", &["--stream"]);
    assert_eq!(streamed["verdict"], "disagrees");
}

/// Larger formulas with more time: the synthesis' cap is 7 nodes in the default 10 s and grows
/// by one for each doubling of `--law-seconds`.
#[test]
fn the_formula_cap_grows_with_the_search_time() {
    for (seconds, largest) in [("10", 7), ("20", 8), ("45", 9)] {
        let args = ["patterns", "nim", "--size", "20x20", "--json", "--quiet", "--law-seconds"];
        let report: Value =
            serde_json::from_str(&stdout_of(&[&args[..], &[seconds]].concat())).unwrap();
        assert_eq!(report["law_search"]["largest_size"], largest, "{seconds} s");
    }
}

/// A reported structure stated as a law: the cutting game's outcome period [34, 34] from
/// (38, 38) is a product of two sets, each periodic from 38 with its first heaps named.
#[test]
fn a_late_outcome_period_is_stated_as_a_separable_law() {
    let law = best_law("cutting", "200x200", "400x400", "p-set", &[]);
    assert_eq!(law["found_by"], "separable", "{law}");
    let expression = law["expression"].as_str().unwrap();
    assert!(expression.contains("w % 34 == 7") && expression.contains("h == 37"), "{law}");
}

/// Hidden games of the earlier shapes (issue 62: "hidden games of each of these shapes"), none
/// in the catalog: Wythoff's short diagonal taking 1 to 3 (rays, one with a preperiod), kiki's
/// board counted from 0 (digits), and a loopy shuffle with a third diagonal step (pieces, ∞ on
/// the odd squares, min(n, m) % 4 elsewhere), each confirmed on a table twice as large.
#[test]
fn hidden_games_of_the_rays_digits_and_pieces_shapes() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let read = |path: &str| fs::read_to_string(data.join(path)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let short = read("games/wythoff-short-diagonal.toml").replace("\"1..=2\"", "\"1..=3\"");
    let short = write(dir.path(), "short3.toml", &short);
    let rays = best_law(&short, "199x199", "399x399", "p-set", &[]);
    assert_eq!((&rays["found_by"], &rays["proved"]), (&"rays".into(), &Value::from(true)));

    let corner = data.join("laws/corner-the-king.toml");
    let digits = best_law(corner.to_str().unwrap(), "99x99", "199x199", "values", &[]);
    assert_eq!(digits["expression"], "2 * (min(a, b) % 2) + (a + b) % 2");

    let shuffle = read("games/diagonal-shuffle.toml").replace("[-2, -2]", "[-2, -2], [-3, -3]");
    let laws = laws_of(&write(dir.path(), "s63.toml", &shuffle), "63x63", &[]);
    let pieces = laws.iter().find(|l| l["found_by"] == "pieces").expect("a law by pieces");
    let expression = pieces["expression"].as_str().unwrap();
    assert_eq!(expression, "if((n + m) % 2 == 0, g == min(n, m) % 4, g == -1)");
    let larger = write(dir.path(), "s127.toml", &shuffle.replace("max = 63", "max = 127"));
    assert_eq!(check(&larger, "127x127", "holds", expression, &[])["verdict"], "agrees");
}
