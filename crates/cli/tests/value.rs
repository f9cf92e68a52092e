//! `grundy value` end to end: positions, sums of different games, and heap sizes answered from a
//! proved period (issue 11, item 5).

use crate::common;

use common::{grundy, stdout_of};
use serde_json::{json, Value};

fn value_json(args: &[&str]) -> Value {
    let mut all = vec!["value"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(&stdout_of(&all)).unwrap()
}

/// Heap sizes past the first search table come from the proved period; they agree with a table.
#[test]
fn a_proved_period_answers_like_the_table() {
    let bfile = stdout_of(&["compute", "kayles", "--size", "6000", "--format", "bfile"]);
    let table: Vec<u32> =
        bfile.lines().map(|line| line.split(' ').nth(1).unwrap().parse().unwrap()).collect();
    let heaps = ["4097", "4500", "5001", "5999", "6000"];
    let mut args = vec!["kayles"];
    args.extend(heaps);
    let report = value_json(&args);
    for (component, heap) in report["components"].as_array().unwrap().iter().zip(heaps) {
        let n: usize = heap.parse().unwrap();
        assert_eq!(component["value"], table[n], "kayles {n}");
    }
    let law = &report["laws"][0];
    assert_eq!((law["period"].clone(), law["from"].clone()), (json!(12), json!(71)));
    assert!(law["argument"].as_str().unwrap().starts_with("Octal Periodicity Theorem"));
    assert_eq!(law["values_computed"], 4096);
    // A heap of 10^18 stones: 10^18 = 4 (mod 12), as 76 is.
    assert_eq!(value_json(&["kayles", "10^18"])["value"], value_json(&["kayles", "76"])["value"]);
    // Below the first search table the table answers, and no law is reported.
    assert_eq!(value_json(&["kayles", "4000"])["laws"], Value::Null);
    let text = stdout_of(&["value", "kayles", "1000000"]);
    assert!(
        text.contains("kayles: period 12 from n = 71, from 4096 values computed; proved: Octal"),
        "{text}"
    );
}

#[test]
fn sums_may_mix_games() {
    let report = value_json(&["kayles", "10", "+", "wythoff", "3x5", "+", "nim", "4x6", "2x2"]);
    assert_eq!(report["game"], "kayles + wythoff + nim");
    assert_eq!(
        report["components"],
        json!([
            {"game": "kayles", "position": [10], "value": 2},
            {"game": "wythoff", "position": [3, 5], "value": 0},
            {"game": "nim", "position": [4, 6], "value": 2},
            {"game": "nim", "position": [2, 2], "value": 0},
        ])
    );
    assert_eq!((report["value"].clone(), report["outcome"].clone()), (json!(0), json!("P")));
    let text = stdout_of(&["value", "kayles", "10", "+", "wythoff", "3x5"]);
    assert_eq!(
        text,
        "kayles 10: 2\nwythoff 3x5: 0\nsum: 2\noutcome: N (the player to move wins)\n"
    );
}

#[test]
fn positions_that_cannot_be_answered_are_refused_in_one_line() {
    for (args, message) in [
        (&["grundys-game", "10^18"][..], "no periodicity theorem covers it"),
        // Wythoff's far positions are answered by its proved law (issue 61); prime steps have none.
        (&["prime-steps", "3000000000x2"], "is too large: its values come from a table"),
        (&["kayles", "99^99"], "is too large (at most 2^63 - 1)"),
        (&["kayles", "3^"], "malformed position `3^`"),
        (&["kayles", "5", "+"], "`+` must stand between two games"),
        (&["kayles", "+", "nim", "3x3"], "no position given for kayles"),
        (&["kayles", "5", "+", "nim", "3"], "the game has 2 axes"),
        (&["nosuchgame", "5"], "unknown game"),
    ] {
        let output = grundy().arg("value").args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

/// Issue 12, item 4: `value kiki 2147483647x1` filled a 1-row table of 2^31 cells (165 s). A
/// board with bounded moves repeats along a strip; the repetition is found and proved on a few
/// thousand lines, and it agrees with the table.
#[test]
fn a_strip_that_repeats_answers_far_positions() {
    let report = value_json(&["kiki", "2147483647x1", "1x2147483646"]);
    assert_eq!(report["components"][0]["value"], 0);
    assert_eq!(report["components"][1]["value"], 1);
    assert!(report["strips"][0]["argument"].as_str().unwrap().contains("so the strip repeats"));
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("hops.toml");
    std::fs::write(
        &spec,
        "name = \"hops\"\ndescription = \"1 to 3 cells left, down or diagonally\"\n\
         axes = [{ name = \"x\", min = 0 }, { name = \"y\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\nsteps = \"1..=3\"\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let table = stdout_of(&["compute", spec, "--size", "5000x4", "--format", "long"]);
    let value_at = |x: i64, y: i64| -> u32 {
        let line = table.lines().nth(1 + (x * 5 + y) as usize).unwrap();
        line.rsplit(',').next().unwrap().parse().unwrap()
    };
    let positions: Vec<String> =
        (4990..=5000).flat_map(|x| (0..=4).map(move |y| format!("{x}x{y}"))).collect();
    let mut args = vec![spec];
    args.extend(positions.iter().map(String::as_str));
    let report = value_json(&args);
    assert!(report.get("strips").is_some(), "the strip law answered: {report}");
    for (component, text) in report["components"].as_array().unwrap().iter().zip(&positions) {
        let (x, y) = text.split_once('x').unwrap();
        assert_eq!(component["value"], value_at(x.parse().unwrap(), y.parse().unwrap()), "{text}");
    }
}

/// Issue 14: heap games with breaking moves run on the sparse-space engine by default; its
/// values are the tiled engine's, and the summary carries the records.
#[test]
fn heap_games_run_on_the_sparse_engine_with_the_same_values_and_records() {
    for code in ["octal:0.16", "octal:0.127", "grundys-game", "kayles"] {
        let size = "20000";
        let auto = common::stdout_of(&["compute", code, "--size", size, "--format", "bfile"]);
        let tiles = common::stdout_of(&[
            "compute", code, "--size", size, "--format", "bfile", "--engine", "tiles",
        ]);
        assert!(auto == tiles, "{code}: the default engine differs from the tiles");
        let summary = common::stdout_of(&["compute", code, "--size", size, "--format", "summary"]);
        for field in ["\"max_first_at\":", "\"rare_mask\":", "\"rare\":", "\"last_rare\":"] {
            assert!(summary.contains(field), "{code}: {summary}");
        }
    }
    let summary =
        common::stdout_of(&["compute", "octal:0.16", "--size", "100000", "--format", "summary"]);
    assert!(summary.contains("\"max\":22,"), "{summary}");
    assert!(summary.contains("\"max_first_at\":15093,\"rare_mask\":60,\"rare_class\":0,\"rare\":52,\"last_rare\":13935}"), "{summary}");
}

/// A thin board is planned by what it holds (issue 52): its three-cell columns are walked, not
/// summarised as wide as the values, so a position a million cells out answers at once in the
/// default budget.
#[test]
fn a_far_cell_of_a_thin_board_answers_in_the_default_budget() {
    let text = stdout_of(&["value", "nim", "1000000x3"]);
    assert!(text.starts_with("1000000x3: 1000003\n"), "{text}");
    assert_eq!(value_json(&["nim", "3x1000000"])["value"], 1000003);
}
