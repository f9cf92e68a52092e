//! `compute` of a heap game whose period a theorem proves: the heaps past the proof come from the
//! period (issue 33), with the output a full search gives.

mod common;

use common::{grundy, stdout_of};
use serde_json::Value;

fn summary(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).unwrap()
}

/// A summary's figures that do not depend on how the values were found.
fn figures(summary: &Value) -> Value {
    let mut figures = summary.clone();
    let object = figures.as_object_mut().unwrap();
    object.remove("seconds");
    object.remove("by_period");
    figures
}

/// Every format is the searched one, byte for byte; the summary says what the period answered.
#[test]
fn answered_tables_are_the_searched_ones_in_every_format() {
    for game in ["kayles", "octal:0.137", "subtraction:2,5"] {
        // The rare heaps are listed for take-and-break games only.
        let rare = if game.starts_with("subtraction") { None } else { Some("rare") };
        for format in ["grid", "long", "npy", "bfile", "summary"].into_iter().chain(rare) {
            let args = ["compute", game, "--size", "20000", "--format", format, "--quiet"];
            let answered = grundy().args(args).output().unwrap();
            let searched = grundy().args(args).arg("--search-all").output().unwrap();
            assert!(answered.status.success() && searched.status.success());
            if format == "summary" {
                let (answered, searched): (Value, Value) = (
                    serde_json::from_slice(&answered.stdout).unwrap(),
                    serde_json::from_slice(&searched.stdout).unwrap(),
                );
                assert_eq!(figures(&answered), figures(&searched), "{game}");
                assert_eq!(answered["by_period"]["from"], 4096, "{game}");
                assert_eq!(searched.get("by_period"), None, "{game}");
            } else {
                assert!(answered.stdout == searched.stdout, "{game} {format}");
            }
        }
    }
}

/// 10^9 heaps: every figure that grows with the table grows by a period's worth per period,
/// which two searched tables a period apart give.
#[test]
fn a_billion_heaps_are_the_searched_figures_extended_by_whole_periods() {
    for (game, period) in [("kayles", 12u64), ("octal:0.137", 34)] {
        let far = 1_000_000_000u64;
        // A searched size that many whole periods below 10^9.
        let near = 20_000 + (far - 20_000) % period;
        let size = |n: u64| n.to_string();
        let searched = |n: u64| {
            summary(&["compute", game, "--size", &size(n), "--format", "summary", "--search-all"])
        };
        let (a, b) = (searched(near), searched(near + period));
        let answered = summary(&["compute", game, "--size", &size(far), "--format", "summary"]);
        let periods = (far - near) / period;
        for key in ["cells", "sum", "p_positions", "rare"] {
            let (a, b) = (a[key].as_u64().unwrap(), b[key].as_u64().unwrap());
            assert_eq!(answered[key].as_u64(), Some(a + periods * (b - a)), "{game} {key}");
        }
        for key in ["max", "max_first_at", "rare_mask", "rare_class"] {
            assert_eq!(answered[key], a[key], "{game} {key}");
        }
        // The last rare heap stays where it is (Kayles: in the preperiod) or keeps its distance
        // from the end.
        let last_rare = |s: &Value| s["last_rare"].as_u64().unwrap();
        if last_rare(&a) == last_rare(&b) {
            assert_eq!(last_rare(&answered), last_rare(&a), "{game}");
        } else {
            assert_eq!(far - last_rare(&answered), near + period - last_rare(&b), "{game}");
        }
        assert_eq!(answered["by_period"]["period"], period, "{game}");
        assert!(answered["seconds"].as_f64().unwrap() < 5.0, "{game}: {answered}");
    }
}

/// The note says where the period took over, and the checkpointed run answers the same way.
#[test]
fn the_run_says_where_the_period_took_over() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("k.ckpt");
    let output = grundy()
        .args(["compute", "kayles", "--size", "100000", "--format", "bfile"])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("heaps from 4096 on") && stderr.contains("period 12"), "{stderr}");
    assert!(!checkpoint.exists());
    let searched =
        stdout_of(&["compute", "kayles", "--size", "100000", "--format", "bfile", "--search-all"]);
    assert!(String::from_utf8(output.stdout).unwrap() == searched);
}

/// The check: Kayles and Dawson's chess to 10^6 heaps, answered, equal the full search
/// (the summary's figures and every value). Minutes of search: CI runs it in release, in the step
/// of the slow end-to-end checks (`.ci/run`; locally `cargo test --release -p grundy-cli --test
/// answered -- --ignored`).
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn a_million_heaps_answered_equal_the_full_search() {
    for game in ["kayles", "octal:0.137"] {
        for format in ["summary", "bfile"] {
            let args = ["compute", game, "--size", "1000000", "--format", format, "--quiet"];
            let answered = stdout_of(&args);
            let searched = stdout_of(&[&args[..], &["--search-all"]].concat());
            if format == "summary" {
                let (answered, searched): (Value, Value) = (
                    serde_json::from_str(&answered).unwrap(),
                    serde_json::from_str(&searched).unwrap(),
                );
                assert_eq!(figures(&answered), figures(&searched), "{game}");
                assert!(answered["by_period"].is_object(), "{game}");
            } else {
                assert!(answered == searched, "{game}: the values");
            }
        }
    }
}

/// `--format rare` lists exactly the heaps whose value·2 + parity has the summary's rare class
/// under its rare mask: as many as the summary counts, the last where it says, every value as the
/// b-file gives it, and no common heap.
#[test]
fn the_rare_list_is_the_summarys_rare_heaps_with_their_values() {
    for (game, size) in [("grundys-game", "100000"), ("octal:0.6", "30000"), ("octal:0.04", "5000")]
    {
        let summary = summary(&["compute", game, "--size", size, "--format", "summary", "-q"]);
        let (mask, class) =
            (summary["rare_mask"].as_u64().unwrap(), summary["rare_class"].as_u64().unwrap());
        let values: Vec<u64> =
            stdout_of(&["compute", game, "--size", size, "--format", "bfile", "-q"])
                .lines()
                .map(|line| line.split(' ').nth(1).unwrap().parse().unwrap())
                .collect();
        let listed = stdout_of(&["compute", game, "--size", size, "--format", "rare", "-q"]);
        let mut lines = listed.lines();
        assert_eq!(lines.next(), Some("heap,value"));
        let listed: Vec<(usize, u64)> = lines
            .map(|line| {
                let (heap, value) = line.split_once(',').unwrap();
                (heap.parse().unwrap(), value.parse().unwrap())
            })
            .collect();
        let rare_by_mask: Vec<(usize, u64)> = values
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(heap, &value)| {
                u64::from((((value << 1) | (heap as u64 % 2)) & mask).count_ones() % 2) == class
            })
            .map(|(heap, &value)| (heap, value))
            .collect();
        assert_eq!(listed, rare_by_mask, "{game}");
        assert_eq!(listed.len() as u64, summary["rare"].as_u64().unwrap(), "{game}");
        assert_eq!(
            listed.last().unwrap().0 as u64,
            summary["last_rare"].as_u64().unwrap(),
            "{game}"
        );
        // Sparse: far fewer rare heaps than heaps (Grundy's game and Officers thin out).
        if game != "octal:0.04" {
            assert!(listed.len() * 10 < values.len(), "{game}: {} rare", listed.len());
        }
    }
}

/// Games without rare heaps, and misère play, are refused before anything is computed.
#[test]
fn the_rare_list_is_refused_where_there_is_none() {
    for (args, says) in [
        (
            &["compute", "subtraction:1,2", "--size", "10", "--format", "rare"][..],
            "subtraction:1,2 is not one",
        ),
        (&["compute", "cutting", "--size", "5x5", "--format", "rare"][..], "cutting is not one"),
        (
            &["compute", "kayles", "--size", "10", "--format", "rare", "--misere"][..],
            "drop --misere",
        ),
    ] {
        let output = grundy().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty() && stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}
