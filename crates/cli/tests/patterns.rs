//! `grundy patterns` end to end: games, CSV tables in every layout, the JSON contract, errors.

use crate::common;

use common::{grundy, stdout_of};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

#[test]
fn heap_games_report_their_period_and_proof() {
    let text = stdout_of(&["patterns", "kayles", "--size", "1000"]);
    assert!(text.contains("period 12, preperiod 71: periodic from n = 71"), "{text}");
    assert!(text.contains("proved: Octal Periodicity Theorem"), "{text}");
    let report = json(&["patterns", "subtraction:1,3,4", "--size", "300", "--json"]);
    let sequence = &report["sequence"];
    assert_eq!(report["game"], "subtraction:1,3,4");
    assert_eq!(report["size"], serde_json::json!([300]));
    for (key, expected) in [("period", 7), ("saltus", 0), ("preperiod", 0), ("from", 0)] {
        assert_eq!(sequence[key], expected, "{key}");
    }
    assert_eq!(sequence["proved"], true);
    assert!(sequence["argument"]
        .as_str()
        .unwrap()
        .starts_with("subtraction game with a finite set"));
    let none = json(&["patterns", "grundys-game", "--size", "600", "--json"]);
    assert_eq!(none["sequence"]["period"], Value::Null);
    assert_eq!(none["sequence"]["searched"]["max_period"], 200);
}

#[test]
fn boards_report_the_contract_keys() {
    let report = json(&["patterns", "kiki", "--size", "300x300", "--json"]);
    for key in
        ["game", "size", "axes", "symmetric", "outcome", "values", "rows", "columns", "diagonals"]
    {
        assert!(report.get(key).is_some(), "{key} missing");
    }
    assert_eq!(report["axes"], serde_json::json!(["n", "m"]));
    assert_eq!(report["outcome"]["period"], serde_json::json!([2, 2]));
    assert_eq!(report["outcome"]["from"], serde_json::json!([1, 1]));
    assert_eq!(report["outcome"]["rule"], "n % 2 == 1 && m % 2 == 1");
    assert_eq!(report["rows"].as_array().unwrap().len(), 300);
    assert_eq!(report["diagonals"].as_array().unwrap().len(), 599);
    let row = &report["rows"][0];
    for key in ["index", "period", "saltus", "preperiod", "from"] {
        assert!(row.get(key).is_some(), "rows[].{key} missing");
    }
    let text = stdout_of(&["patterns", "kiki", "--size", "300x300"]);
    assert!(text.contains("P-positions: n % 2 == 1 && m % 2 == 1"), "{text}");
}

#[test]
fn csv_tables_in_every_layout_give_the_same_findings() {
    let dir = tempfile::tempdir().unwrap();
    let computed = json(&["patterns", "wythoff", "--size", "90x90", "--json"]);
    for (format, outcome) in [("grid", false), ("long", false), ("grid", true)] {
        let path = dir.path().join(format!("w-{format}-{outcome}.csv"));
        let path = path.to_str().unwrap();
        let mut args =
            vec!["compute", "wythoff", "--size", "90x90", "--format", format, "--out", path];
        if outcome {
            args.push("--outcome");
        }
        stdout_of(&args);
        let read = json(&["patterns", path, "--json"]);
        assert_eq!(read["outcome"], computed["outcome"], "{format} {outcome}");
        if outcome {
            assert_eq!(read["cells"], "outcomes");
            assert_eq!(read["values"]["period"], Value::Null);
        } else {
            assert_eq!(read["rows"], computed["rows"], "{format}");
            assert_eq!(read["symmetric"], true);
        }
    }
    let path = dir.path().join("kayles.csv");
    stdout_of(&["compute", "kayles", "--size", "500", "--out", path.to_str().unwrap()]);
    let read = json(&["patterns", path.to_str().unwrap(), "--json"]);
    assert_eq!(read["sequence"]["period"], 12);
    assert_eq!(read["sequence"]["proved"], false, "a file has no rules to prove from");
}

#[test]
fn patterns_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ragged = dir.path().join("ragged.csv");
    std::fs::write(&ragged, "n\\m,1,2\n1,0,1\n2,1\n").unwrap();
    let ragged = ragged.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["patterns", "kiki"], "--size is needed to compute kiki"),
        (&["patterns", ragged, "--size", "5x5"], "--size applies to games"),
        (&["patterns", ragged], "line 3: expected 3 fields like the header, found 2"),
        (&["patterns", "missing.csv"], "cannot read missing.csv"),
    ];
    for (args, needle) in cases {
        let output = grundy().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// Issue 11, item 3: the text output says for every finding whether it is proved (and by what)
/// or evidence only (and on which range).
#[test]
fn every_finding_in_the_text_says_proved_or_evidence() {
    let text = stdout_of(&["patterns", "kayles", "--size", "1000"]);
    assert!(text.contains("\n  proved: Octal Periodicity Theorem"), "{text}");
    let short = stdout_of(&["patterns", "kayles", "--size", "160"]);
    assert!(
        short.contains(
            "evidence only: the period holds on n = 71..=160 of the table; not proved: Octal"
        ),
        "{short}"
    );
    assert!(short.contains("but the table has only 161"), "{short}");
    let board = stdout_of(&["patterns", "kiki", "--size", "60x60"]);
    for finding in ["outcome:", "separable P-set:", "symmetric:", "lines:"] {
        let line = board.lines().find(|l| l.trim_start().starts_with(finding)).unwrap();
        assert!(line.contains("evidence only"), "{line}");
    }
    assert!(board.contains("proved for every board: the claim is periodic"), "{board}");
    // A rule that is not proved says so, with the table's range: here the rules are unknown.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kiki.csv");
    stdout_of(&["compute", "kiki", "--size", "60x60", "--out", path.to_str().unwrap()]);
    let read = stdout_of(&["patterns", path.to_str().unwrap()]);
    assert!(
        read.contains("evidence only: every cell of the table (n <= 60, m <= 60); not proved: the game's rules are not known for this table"),
        "{read}"
    );
}

/// Issue 11, item 7: an axis that starts at 3 is printed from 3, and the proof names coordinates.
#[test]
fn sequences_count_from_the_axis_minimum() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("from3.toml");
    std::fs::write(
        &spec,
        "name = \"from3\"\ndescription = \"subtract 1 or 2, heaps from 3\"\n\
         axes = [{ name = \"n\", min = 3 }]\n[[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = [1, 2]\n",
    )
    .unwrap();
    let text = stdout_of(&["patterns", spec.to_str().unwrap(), "--size", "300"]);
    assert!(text.starts_with("from3: n = 3..=300 (298 values)\n"), "{text}");
    assert!(text.contains("periodic from n = 3"), "{text}");
    assert!(text.contains("x(n + 3) = x(n) for all 3 <= n <= 4"), "{text}");
    assert!(text.contains("up to n = 7)"), "{text}");
}

/// Issue 11, item 2: P-positions on two lines of slopes 12/5 and 5/12 leave an empty cone, which
/// looked like a period [1, 1] from a start that grew with the table.
#[test]
fn a_period_that_exists_only_inside_the_table_is_not_reported() {
    let dir = tempfile::tempdir().unwrap();
    for side in [100usize, 300] {
        let path = dir.path().join(format!("cone-{side}.csv"));
        let mut csv = String::from("x\\y");
        for j in 0..=side {
            csv += &format!(",{j}");
        }
        for i in 0..=side {
            csv += &format!("\n{i}");
            for j in 0..=side {
                csv += if 5 * i.max(j) / 12 == i.min(j) { ",P" } else { ",N" };
            }
        }
        csv.push('\n');
        std::fs::write(&path, csv).unwrap();
        let report = json(&["patterns", path.to_str().unwrap(), "--json"]);
        assert_eq!(report["outcome"]["period"], Value::Null, "{side}: {}", report["outcome"]);
        let text = stdout_of(&["patterns", path.to_str().unwrap()]);
        assert!(text.contains("outcome:   no 2-D period within the table"), "{text}");
    }
}

/// The most threads the process had at once while it ran (sampled from /proc).
fn peak_threads(args: &[&str]) -> usize {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let threads = text.lines().find_map(|l| l.strip_prefix("Threads:"));
            peak = peak.max(threads.map_or(0, |t| t.trim().parse().unwrap_or(0)));
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(child.wait().unwrap().success());
    peak
}

/// Issue 13, item 3: `patterns` ran its analyses on rayon's global pool whatever `--threads`
/// said. With one worker, the process has the main thread, the signal handler's and one worker.
#[test]
fn patterns_honours_threads() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped: one core, so the global pool has one thread too");
        return;
    }
    let peak =
        peak_threads(&["patterns", "kiki", "--size", "3000x3000", "--threads", "1", "--json"]);
    assert!(peak <= 3, "{peak} threads with --threads 1");
}

/// Issue 14: `--until-proved` computes until the Octal Periodicity Theorem proves the period:
/// 0.16's period 149459 (preperiod 105351, as ogsolve finds it) needs 509622 values.
#[test]
fn until_proved_computes_until_the_theorem_proves_the_period() {
    let report = json(&["patterns", "octal:0.16", "--until-proved", "--json"]);
    let sequence = &report["sequence"];
    assert_eq!(sequence["period"], 149459);
    assert_eq!(sequence["preperiod"], 105351);
    assert_eq!(sequence["proved"], true);
    assert_eq!(sequence["needed_length"], 509622);
    let search = &report["until_proved"];
    assert!(search["values"].as_u64().unwrap() >= 509622, "{search}");
    assert_eq!(search["rounds"], 9);
    let text = stdout_of(&["patterns", "kayles", "--until-proved"]);
    assert!(text.contains("period 12, preperiod 71"), "{text}");
    assert!(text.ends_with("until proved: 4096 values computed (1 round)\n"), "{text}");
    let limited = stdout_of(&["patterns", "octal:0.16", "--until-proved", "--limit", "100000"]);
    assert!(
        limited.ends_with(
            "not proved with 100001 values (6 rounds); --limit 100000 stopped the search\n"
        ),
        "{limited}"
    );
}

/// Issue 14: heap games report the columns of the published tables; a table read from a file
/// has no rules, so only the largest value's place.
#[test]
fn heap_games_report_their_records() {
    let report = json(&["patterns", "octal:0.16", "--size", "100000", "--json"]);
    let records = &report["records"];
    for (key, expected) in [
        ("max_first_at", 15093),
        ("rare_mask", 60),
        ("rare_class", 0),
        ("rare", 52),
        ("last_rare", 13935),
    ] {
        assert_eq!(records[key], expected, "{key}: {records}");
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("kayles.csv");
    grundy().args(["compute", "kayles", "--size", "300", "--out"]).arg(&csv).assert().success();
    let report = json(&["patterns", csv.to_str().unwrap(), "--json"]);
    assert_eq!(report["records"]["max_first_at"], 27);
    assert_eq!(report["records"]["rare_mask"], Value::Null);
}

/// Issue 59, item 5 (`--law-seconds`): every value is a finite bound from 0 to a week, or one
/// line and exit 2 — never a panic (inf, 1e20, 1e308 and 2^64 − 1 exited 101 with a
/// backtrace), never a silent reading (-1 was taken as 0, NaN as "stop at once").
#[test]
fn law_seconds_are_a_finite_bound_or_refused() {
    for bad in ["inf", "-inf", "1e20", "1e308", "18446744073709551615", "-1", "NaN", "604800.5"] {
        let option = format!("--law-seconds={bad}");
        let output =
            grundy().args(["patterns", "kayles", "--size", "30", &option]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "--law-seconds {bad}: {stderr}");
        assert!(
            stderr.contains("a law search's time bound is a number of seconds from 0 to 604800")
        );
        assert!(!stderr.contains("panicked"), "--law-seconds {bad}: {stderr}");
    }
    // Both ends of the range are taken: 0 skips the search, a week lets it run to its end.
    let out = stdout_of(&["patterns", "kayles", "--size", "30", "--law-seconds", "0"]);
    assert!(out.contains("laws:      not searched"), "{out}");
    assert!(out.contains("the law search was not run: its time bound is 0 s"), "{out}");
    let week = grundy()
        .args(["patterns", "kayles", "--size", "30", "--law-seconds", "604800", "--json"])
        .output()
        .unwrap();
    assert!(week.status.success(), "{}", String::from_utf8_lossy(&week.stderr));
    let report: serde_json::Value = serde_json::from_slice(&week.stdout).unwrap();
    // A week lets formulas grow to 15 nodes: what stops the search is the memory kept for the
    // smaller formulas, never its time.
    let stopped = report["law_search"]["stopped"].as_str().unwrap_or_default();
    assert!(!stopped.contains("time"), "{report}");
    assert_eq!(report["law_search"]["largest_size"], 15, "{report}");
    // What was ruled out is what the search finished, not its cap: the "none found" line says
    // the size after which the memory stopped it.
    let searched = report["law_search"]["searched_size"].as_u64().unwrap();
    assert!(searched < 15 && stopped.contains(&format!("up to {searched} nodes")), "{report}");
    let out = stdout_of(&["patterns", "kayles", "--size", "30", "--law-seconds", "604800"]);
    assert!(out.contains(&format!("none found (formulas of up to {searched} nodes")), "{out}");
}

/// Issue 59, item 2: the law search's proofs run within `--law-seconds` (and each within
/// `--proof-seconds`). A spec of 7320 step offsets on a 10 × 10 board proved its laws for
/// 66-149 s under `--law-seconds 1`; now the search says where its time ran out.
#[test]
fn the_law_search_bounds_the_proofs_of_its_laws() {
    let dir = tempfile::tempdir().unwrap();
    let offsets: Vec<String> = (0..=120i64)
        .flat_map(|dx| (0..=120i64).map(move |dy| (dx, dy)))
        .filter(|(dx, dy)| (dx + dy) % 2 == 1)
        .map(|(dx, dy)| format!("[{}, {}]", -dx, -dy))
        .collect();
    assert_eq!(offsets.len(), 7320);
    let spec = dir.path().join("manyoff.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"manyoff\"\ndescription = \"odd steps\"\naxes = [{{ name = \"n\", min = 0 }}, \
             {{ name = \"m\", min = 0 }}]\n[[rules]]\nkind = \"step\"\noffsets = [{}]\n",
            offsets.join(", ")
        ),
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let report = json(&[
        "patterns",
        spec,
        "--size",
        "10x10",
        "--law-seconds",
        "1",
        "--proof-seconds",
        "1",
        "--json",
    ]);
    // Each proof stops within its budget (most at once: its box of 14884 cells of 7320 options
    // each is projected past it), or the search's time runs out first; none is proved.
    let stopped = report["law_search"]["stopped"].as_str().unwrap_or_default();
    for law in report["laws"].as_array().unwrap() {
        assert_eq!(law["proved"], false, "{law}");
        assert_eq!(law["reads_edges"], false, "the board is no sum, so no edge law: {law}");
        let argument = law["argument"].as_str().unwrap();
        assert!(argument.starts_with("the proof stopped") || stopped.contains("ran out"), "{law}");
    }
}

/// Issue 59, item 8: a law must be told from the table's edge. On wythoff 1 × 1000, wythoff
/// 1000 × 1, kiki 1 × 1000 and kiki 2 × 2 the laws proposed failed on a board twice as large
/// (kiki's on 999 of 4000 cells); a table with fewer than 8 values of a coordinate now gets no
/// law, and says why. Eight of each is enough for kiki's law, which holds on every board.
#[test]
fn thin_tables_get_no_law_and_say_why() {
    for (game, size, axis, values) in [
        ("wythoff", "1x1000", "a", 2),
        ("wythoff", "1000x1", "b", 2),
        ("kiki", "1x1000", "n", 1),
        ("kiki", "2x2", "n", 2),
    ] {
        let report = json(&["patterns", game, "--size", size, "--json"]);
        assert_eq!(report["laws"], serde_json::json!([]), "{game} {size}: {report}");
        let stopped = report["law_search"]["stopped"].as_str().unwrap();
        let why = format!("`{axis}` takes {values} value");
        assert!(stopped.contains(&why), "{game} {size}: {stopped}");
        assert!(stopped.contains("at least 8 of every coordinate"), "{stopped}");
    }
    let report = json(&["patterns", "kiki", "--size", "8x8", "--json"]);
    assert_eq!(report["laws"][0]["expression"], "n % 2 == 1 && m % 2 == 1", "{report}");
    let text = stdout_of(&["patterns", "kiki", "--size", "2x2"]);
    assert!(text.contains("laws:      not searched"), "{text}");
}
