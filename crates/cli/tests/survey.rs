//! `grundy survey` end to end (issue 17): the two- and three-digit octal families against what
//! the literature states, classes of equal codes, subtraction and spec families, JSON keys,
//! bad families, and an interrupted survey resumed.

use crate::common;

use common::{grundy, stdout_of};
use serde_json::Value;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn survey_json(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["survey"];
    all.extend_from_slice(args);
    all.extend(["--format", "json", "--quiet"]);
    serde_json::from_str(&stdout_of(&all)).unwrap()
}

fn by_game(rows: &[Value]) -> HashMap<String, Value> {
    rows.iter().map(|r| (r["game"].as_str().unwrap().to_string(), r.clone())).collect()
}

fn period(row: &Value) -> (u64, u64, bool) {
    (row["period"].as_u64().unwrap(), row["preperiod"].as_u64().unwrap(), row["proved"] == true)
}

// Issue 17: Kayles (0.77) has period 12 from 71 (its last exceptional value is at 70: OEIS
// A002186, Winning Ways); Dawson's Kayles (0.07) period 34, its last exception at 52 (A002187
// is Dawson's chess, 0.137, whose values are 0.07's shifted by one: exceptions to 51). 0.03 is
// the subtraction game {2} (period 4 from 0) and 0.33 the game {1, 2} (period 3 from 0).
#[test]
fn the_two_digit_octal_survey_states_the_known_periods() {
    let rows = survey_json(&["octal:0.??", "--size", "5000"]);
    assert_eq!(rows.len(), 8 * 7, "0.d1d2 with d2 from 1 to 7");
    let rows = by_game(&rows);
    assert_eq!(period(&rows["octal:0.77"]), (12, 71, true));
    assert_eq!(period(&rows["octal:0.07"]), (34, 53, true));
    assert_eq!(period(&rows["octal:0.03"]), (4, 0, true));
    assert_eq!(period(&rows["octal:0.33"]), (3, 0, true));
    assert!(rows["octal:0.77"]["argument"].as_str().unwrap().contains("Octal Periodicity"));
    // Codes whose values agree share a class named after the smallest of them.
    for (game, row) in &rows {
        let class = row["class"].as_str().unwrap();
        assert!(class <= game.as_str(), "{game} is in the class of {class}");
        if class != game {
            let values = |g: &str| {
                let out = stdout_of(&["compute", g, "--size", "5000", "--format", "bfile"]);
                out.lines().map(|l| l.split(' ').nth(1).unwrap().to_string()).collect::<Vec<_>>()
            };
            assert_eq!(values(game), values(class), "{game} and {class}");
        }
    }
    // 0.6 (Officers) has no known period: nothing in its class is proved.
    let officers = rows.values().filter(|r| r["game"].as_str().unwrap().starts_with("octal:0.6"));
    assert!(officers.clone().count() == 7 && officers.clone().all(|r| r["proved"] == false));
}

#[test]
fn the_three_digit_survey_proves_dawsons_chess() {
    let rows = survey_json(&["octal:0.???", "--size", "3000"]);
    assert_eq!(rows.len(), 8 * 8 * 7);
    let rows = by_game(&rows);
    assert_eq!(period(&rows["octal:0.137"]), (34, 52, true));
    // Kayles again, as 0.770 is left out: 0.771, whose extra move (take 3 leaving nothing)
    // is new, is computed on its own.
    assert!(rows.contains_key("octal:0.771"));
    assert!(!rows.contains_key("octal:0.070"), "codes ending in 0 are left out");
}

#[test]
fn an_equivalence_is_proved_only_past_both_preperiods_and_the_common_period() {
    let rows = by_game(&survey_json(&["octal:0.??", "--size", "5000"]));
    for row in rows.values() {
        let class = &rows[row["class"].as_str().unwrap()];
        match row["equivalence"].as_str().unwrap() {
            "representative" => assert_eq!(row["class"], row["game"]),
            "proved" => {
                assert!(row["proved"] == true && class["proved"] == true);
                let (p, q) = (row["period"].as_u64().unwrap(), class["period"].as_u64().unwrap());
                let lcm = p / gcd(p, q) * q;
                let pre =
                    row["preperiod"].as_u64().unwrap().max(class["preperiod"].as_u64().unwrap());
                assert!(pre + lcm <= row["values"].as_u64().unwrap());
            }
            other => assert!(other.starts_with("agree up to "), "{other}"),
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn subtraction_families_and_csv() {
    let rows = survey_json(&["subtraction:2-of-5", "--size", "300"]);
    let games: Vec<&str> = rows.iter().map(|r| r["game"].as_str().unwrap()).collect();
    assert_eq!(games.len(), 10);
    assert_eq!(games[0], "subtraction:1,2");
    // {1, 2}: period 3; the subtraction-game theorem proves it.
    assert_eq!(period(&rows[0]), (3, 0, true));
    let any = survey_json(&["subtraction:any-of-4", "--size", "200"]);
    assert_eq!(any.len(), 15);
    let all_but = survey_json(&["subtraction:all-but-1-of-3", "--size", "200"]);
    assert_eq!(all_but.len(), 3);
    assert_eq!(all_but[0]["game"], "subtraction:all-but:1");
    let csv = stdout_of(&["survey", "subtraction:2-of-5", "--size", "300", "--quiet"]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("game,class,equivalence,trivial,values,max"));
    assert_eq!(lines.count(), 10);
}

#[test]
fn a_spec_template_surveys_every_parameter_value() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("k-wythoff.toml");
    // Wythoff's game where the same amount, up to k, may be taken from both piles.
    std::fs::write(
        &spec,
        "name = \"wythoff-{k}\"\ndescription = \"k = {k}\"\n\
         axes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n\n\
         [parameters]\nk = \"1..=3\"\n\n\
         [[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1]]\n\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1, -1]]\nsteps = \"1..={k}\"\n",
    )
    .unwrap();
    let rows = survey_json(&[spec.to_str().unwrap(), "--size", "40"]);
    let games: Vec<&str> = rows.iter().map(|r| r["game"].as_str().unwrap()).collect();
    assert_eq!(games, ["wythoff-1", "wythoff-2", "wythoff-3"]);
    assert!(rows.iter().all(|r| r["values"] == 41 * 41 && r["period"].is_null()));
    // The 2-D analysis in summary form.
    assert!(rows.iter().all(|r| r["symmetric"] == true && r["separable"].is_boolean()));
    assert!(rows[0]["periodic_lines"].as_str().unwrap().starts_with("rows "));
}

#[test]
fn bad_families_get_one_line_and_exit_2() {
    for (family, expected) in [
        ("octal:0.9?", "is not a digit"),
        ("octal:0?", "a code has a point"),
        ("octal:0.0", "no members"),
        ("octal:0.????????", "more than 1048576 codes"),
        ("subtraction:5-of-3", "no 5-subset"),
        ("subtraction:30-of-60", "more than 1048576 sets"),
        ("subtraction:2-of-x", "not a whole number"),
        ("chess:0.??", "write octal:0.??"),
    ] {
        let out = grundy().args(["survey", family, "--size", "10"]).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{family}: {err}");
        assert!(err.contains(expected), "{family}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{family}: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("huge.toml");
    std::fs::write(&spec, "[parameters]\nk = \"1..=99999999999\"\n\nname = \"s{k}\"\n").unwrap();
    let out = grundy().args(["survey", spec.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("more than 1048576 members"));
}

#[cfg(unix)]
#[test]
fn an_interrupted_survey_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("survey.json");
    let partial = dir.path().join("survey.json.partial");
    let args = |resume: bool| {
        let mut args = vec![
            "survey",
            "octal:0.??",
            "--until-proved",
            "--limit",
            "20000",
            "--threads",
            "1",
            "--format",
            "json",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        if resume {
            args.push("--resume");
        }
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let binary = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = std::process::Command::new(&binary).args(args(false)).spawn().unwrap();
    let started = Instant::now();
    let lines = || std::fs::read_to_string(&partial).map_or(0, |t| t.lines().count());
    while lines() < 10 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(!status.success(), "the survey finished before it was interrupted");
    let kept = lines();
    assert!(kept >= 10 && !out.exists());
    // Without --resume the partial survey is not overwritten.
    let refused = grundy().args(args(false)).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8(refused.stderr).unwrap().contains("--resume"));
    grundy().args(args(true)).assert().success();
    assert!(!partial.exists());
    let resumed: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let whole = survey_json(&["octal:0.??", "--until-proved", "--limit", "20000"]);
    let strip = |rows: &[Value]| -> Vec<Value> {
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                r.as_object_mut().unwrap().remove("seconds");
                r
            })
            .collect()
    };
    assert_eq!(strip(&resumed), strip(&whole));
}

// Issue 17: the facts the literature states, and its known mistakes. OEIS A071453 (0.117:
// period 48, exceptions up to 46), A071464 (0.127: period 4, last exception 46577, Gangolli and
// Plambeck), A002187 (0.137: period 34, exceptions to 51), A071435 (0.177: period 20, last
// exception 496). Winning Ways' game locator maps 0.27 to 0.06 and 0.314 to 0.31; both are
// wrong (0.27 plays as 0.26). Flammenkamp's table maps 0.161 to 0.36; they first differ at heap
// size 519.
#[test]
fn the_survey_agrees_with_the_literature_and_finds_its_mistakes() {
    let rows = by_game(&survey_json(&["octal:0.1?7", "--until-proved", "--limit", "300000"]));
    assert_eq!(period(&rows["octal:0.117"]), (48, 47, true));
    assert_eq!(period(&rows["octal:0.127"]), (4, 46578, true));
    assert_eq!(period(&rows["octal:0.137"]), (34, 52, true));
    assert_eq!(period(&rows["octal:0.177"]), (20, 497, true));
    let two = by_game(&survey_json(&["octal:0.??", "--size", "3000"]));
    assert_eq!(two["octal:0.27"]["class"], "octal:0.26");
    assert_eq!(two["octal:0.27"]["equivalence"], "proved");
    assert_ne!(two["octal:0.06"]["class"], two["octal:0.27"]["class"]);
    let first_difference = |a: &str, b: &str| {
        let values = |g: &str| stdout_of(&["compute", g, "--size", "2000", "--format", "bfile"]);
        let (a, b) = (values(a), values(b));
        a.lines().zip(b.lines()).position(|(x, y)| x != y)
    };
    assert_eq!(first_difference("octal:0.161", "octal:0.36"), Some(519));
    assert!(first_difference("octal:0.314", "octal:0.31").is_some());
}

/// A list of open games far out (issue 33): each heap game's search stops at its seconds and its
/// row covers the heaps searched by then; a game whose period a theorem proves is answered in
/// full by its period; the rare columns are the summary's.
#[test]
fn member_seconds_bound_each_search_and_rows_say_how_far_they_went() {
    let started = Instant::now();
    let rows = survey_json(&[
        "grundys-game",
        "octal:0.6",
        "kayles",
        "--size",
        "5000000",
        "--member-seconds",
        "1",
        "--threads",
        "2",
    ]);
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    let rows = by_game(&rows);
    for game in ["grundys-game", "octal:0.6"] {
        let values = rows[game]["values"].as_u64().unwrap();
        assert!(
            (1024..5_000_001).contains(&values) && values.is_multiple_of(1024),
            "{game}: {values}"
        );
        // The row's records are those of the heaps it covers, as `compute` gives them.
        let size = (values - 1).to_string();
        let summary: Value = serde_json::from_str(&stdout_of(&[
            "compute", game, "--size", &size, "--format", "summary", "--quiet",
        ]))
        .unwrap();
        for key in
            ["max", "max_first_at", "p_positions", "rare_mask", "rare_class", "rare", "last_rare"]
        {
            assert_eq!(rows[game][key], summary[key], "{game} {key}");
        }
    }
    assert_eq!(rows["kayles"]["values"], 5_000_001, "answered by its proved period");
    let out = grundy()
        .args(["survey", "kayles", "--until-proved", "--member-seconds", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--member-seconds"));
}

/// `survey --misere` bounds each member's exact search by `--search-seconds`: a member cut there
/// has a row covering the heaps it reached and a note saying so, and the survey ends in about
/// that time (issue 50: it ran past 120 s without a word).
#[test]
fn a_misere_survey_bounds_each_search_and_says_where_it_stopped() {
    let start = Instant::now();
    let output = grundy()
        .args(["survey", "octal:0.?", "--size", "400", "--misere", "--search-seconds", "1"])
        .args(["--format", "json", "--threads", "2"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("each for at most 1 s (--search-seconds)"), "{stderr}");
    let rows: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    let rows = by_game(&rows);
    // 0.4 and 0.6 take far more than a second for 400 heaps (their sums grow fast).
    for cut in ["octal:0.4", "octal:0.6"] {
        let values = rows[cut]["values"].as_u64().unwrap();
        assert!(values < 401, "{cut}: {values}");
        let note = format!("note: {cut}: its search stopped after heap {}:", values - 1);
        assert!(stderr.contains(&note), "{note}: {stderr}");
        assert!(stderr.contains(&format!("its row covers its first {values} values")), "{stderr}");
    }
    // Every other member either reached heap 400 or says where it stopped.
    for (game, row) in &rows {
        let values = row["values"].as_u64().unwrap();
        assert!(
            values == 401 || stderr.contains(&format!("note: {game}: its search stopped")),
            "{game}"
        );
    }
}
