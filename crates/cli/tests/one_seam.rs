//! Issue 51: a play convention is a value that enters through one seam. A game under misère
//! play and a loopy game take the same path — the engine `FillRequest::prepare` chooses — from
//! every front door (`compute`, `patterns`, `survey`; the Python package's test is
//! `crates/python/tests/test_one_seam.py`), and give the same table. Each fill says its engine
//! on standard error with `GRUNDY_SAY_ENGINE` set.

use crate::common;

use common::grundy;
use std::io::Read;
use std::path::Path;

/// Runs `grundy args` in `dir` and returns standard output and the engines its fills said.
fn run(dir: &Path, args: &[&str]) -> (String, Vec<String>) {
    let output =
        grundy().current_dir(dir).args(args).env("GRUNDY_SAY_ENGINE", "1").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    let engines: Vec<String> = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("grundy: engine: "))
        .map(str::to_string)
        .collect();
    (String::from_utf8(output.stdout).unwrap(), engines)
}

/// The one engine every fill of a command said.
fn one_engine(args: &[&str], engines: &[String]) -> String {
    assert!(!engines.is_empty(), "{args:?}: no fill said its engine");
    assert!(engines.iter().all(|e| *e == engines[0]), "{args:?}: {engines:?}");
    engines[0].clone()
}

/// The `column`-th column of CSV `text` after its header, as integers.
fn column(text: &str, column: usize) -> Vec<i64> {
    text.lines().skip(1).map(|line| line.split(',').nth(column).unwrap().parse().unwrap()).collect()
}

/// The first values of a survey's index for `game` (a heap game), its law repeated to `len`.
fn index_values(path: &Path, game: &str, len: usize) -> Vec<i64> {
    let mut text = String::new();
    let file = std::fs::File::open(path).unwrap();
    flate2::read::GzDecoder::new(file).read_to_string(&mut text).unwrap();
    let class = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|class| class["name"] == game)
        .unwrap_or_else(|| panic!("{game} is in no class: {text}"));
    let mut values: Vec<i64> =
        class["values"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    if let Some(law) = class.get("law").filter(|law| !law.is_null()) {
        let (preperiod, period) =
            (law["preperiod"].as_u64().unwrap() as usize, law["period"].as_u64().unwrap() as usize);
        let saltus = law["saltus"].as_i64().unwrap();
        while values.len() < len {
            let back = values[values.len() - period];
            assert!(values.len() >= preperiod + period);
            values.push(back + saltus);
        }
    }
    values.truncate(len);
    values
}

/// Misère heap games: `subtraction:1,2,5` (its moves leave one heap: a fill computes it) and
/// Kayles (its moves leave sums: only the exact search does, to heap 24 here).
#[test]
fn misere_heap_games_take_one_path_from_every_front_door() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (game, size, engine) in [("subtraction:1,2,5", "40", "tiles"), ("kayles", "24", "search")] {
        let args = ["compute", game, "--misere", "--size", size];
        let (table, engines) = run(d, &args);
        assert_eq!(one_engine(&args, &engines), engine, "{args:?}");
        let values = column(&table, 1);
        assert_eq!(values.len(), size.parse::<usize>().unwrap() + 1);

        let args = ["patterns", game, "--misere", "--size", size, "--json"];
        let (report, engines) = run(d, &args);
        assert_eq!(one_engine(&args, &engines), engine, "{args:?}");
        let report: serde_json::Value = serde_json::from_str(&report).unwrap();
        // The report's period is the table's: every value repeats it, from the preperiod on.
        let sequence = &report["sequence"];
        if let (Some(period), Some(from)) = (sequence["period"].as_u64(), sequence["from"].as_i64())
        {
            let (period, from) = (period as usize, from as usize);
            for n in from + period..values.len() {
                assert_eq!(values[n], values[n - period], "{game}: heap {n}");
            }
        }

        let index = d.join(format!("{game}.index.gz"));
        let index_text = index.to_str().unwrap();
        let args =
            ["survey", game, "--misere", "--size", size, "--format", "index", "--out", index_text];
        let (_, engines) = run(d, &args);
        assert_eq!(one_engine(&args, &engines), engine, "{args:?}");
        assert_eq!(index_values(&index, game, values.len()), values, "{game}: the survey's");
    }
}

/// A loopy spec (a board whose moves may go round): the retrograde kernel from every door,
/// and the same counts of P-positions, N-positions and draws.
#[test]
fn a_loopy_spec_takes_one_path_from_every_front_door() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (spec, _) = run(d, &["show", "diagonal-shuffle"]);
    std::fs::write(d.join("shuffle.toml"), spec).unwrap();
    let args = ["compute", "shuffle.toml", "--size", "63x63", "--format", "summary"];
    let (summary, engines) = run(d, &args);
    assert_eq!(one_engine(&args, &engines), "retrograde");
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    let counts = [&summary["p_positions"], &summary["n_positions"], &summary["draws"]];
    assert!(counts.iter().all(|c| c.as_u64().unwrap() > 0), "{summary}");

    let args = ["patterns", "shuffle.toml", "--size", "63x63", "--json"];
    let (report, engines) = run(d, &args);
    assert_eq!(one_engine(&args, &engines), "retrograde");
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let found = [&report["counts"]["p"], &report["counts"]["n"], &report["counts"]["d"]];
    assert_eq!(found, counts, "{report}");

    let args = ["survey", "shuffle.toml", "--size", "63", "--format", "json"];
    let (rows, engines) = run(d, &args);
    assert_eq!(one_engine(&args, &engines), "retrograde");
    let rows: serde_json::Value = serde_json::from_str(&rows).unwrap();
    assert_eq!(rows[0]["p_positions"], summary["p_positions"], "{rows}");
    assert_eq!(rows[0]["max"], summary["max"], "{rows}");
    assert_eq!(rows[0]["values"], summary["cells"], "{rows}");
}
