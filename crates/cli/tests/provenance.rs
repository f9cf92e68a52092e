//! Provenance and Parquet end to end: `compute` writes provenance (CSV comments with
//! `--provenance`, a sidecar beside .npy and b-files, Parquet metadata), `show FILE` prints it and
//! checks the values, and a changed value is caught; Parquet tables read back in every command.

use crate::common;

use common::{grundy, stdout_of};
use predicates::prelude::*;
use std::fs;
use std::path::Path;

fn run_in(dir: &Path, args: &[&str]) {
    grundy().current_dir(dir).args(args).assert().success();
}

/// Runs grundy in `dir` with `args`, which must fail saying `message`.
fn fails_in(dir: &Path, args: &[&str], message: &str) {
    grundy()
        .current_dir(dir)
        .args(args)
        .assert()
        .failure()
        .stderr(predicate::str::contains(message));
}

fn show_json(dir: &Path, file: &str) -> serde_json::Value {
    let out = grundy().current_dir(dir).args(["show", file, "--json"]).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

fn values_sha256(dir: &Path, file: &str) -> String {
    show_json(dir, file)["values_sha256"].as_str().unwrap().to_string()
}

#[test]
fn a_csv_with_provenance_reads_as_before_and_shows_where_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), &["compute", "kiki", "--size", "3x4", "--provenance", "--out", "k.csv"]);
    // The command is shown as a shell would read it back: a word with a space in quotes.
    run_in(dir.path(), &["compute", "kiki", "--size", "3x4", "--provenance", "--out", "k 2.csv"]);
    grundy().current_dir(dir.path()).args(["show", "k 2.csv"]).assert().success().stdout(
        predicate::str::contains(
            "command: grundy compute kiki --size 3x4 --provenance --out 'k 2.csv'",
        ),
    );
    let text = fs::read_to_string(dir.path().join("k.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# grundy provenance"));
    assert_eq!(&lines[2..6], ["n\\m,1,2,3,4", "1,0,1,0,1", "2,1,2,3,2", "3,0,3,0,1"]);
    assert!(lines[6].starts_with("# grundy values_sha256: sha256:"));
    grundy()
        .current_dir(dir.path())
        .args(["show", "k.csv"])
        .assert()
        .success()
        .stdout(predicate::str::contains("k.csv: kiki up to 3x4, values"))
        .stdout(predicate::str::contains("checked: what the cells hold, the values' checksum"))
        .stdout(predicate::str::contains("offsets = [[-1, 0], [0, -1], [-1, -1]]"))
        .stdout(predicate::str::contains("command: grundy compute kiki --size 3x4 --provenance"));
    let record = show_json(dir.path(), "k.csv");
    assert_eq!(record["game"], "kiki");
    assert_eq!(record["size"], serde_json::json!([3, 4]));
    assert_eq!(record["engine"], "tiles");
    // The spec in the record is the game: computing it again gives the same values.
    fs::write(dir.path().join("rules.toml"), record["spec"].as_str().unwrap()).unwrap();
    run_in(
        dir.path(),
        &["compute", "rules.toml", "--size", "3x4", "--provenance", "--out", "r.csv"],
    );
    assert_eq!(values_sha256(dir.path(), "r.csv"), values_sha256(dir.path(), "k.csv"));
    // The analyses read the file as they read one without comments.
    grundy()
        .current_dir(dir.path())
        .args(["check", "k.csv", "--p-set", "n % 2 == 1 && m % 2 == 1"])
        .assert()
        .success();
}

#[test]
fn a_changed_value_is_a_checksum_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), &["compute", "kiki", "--size", "3x4", "--provenance", "--out", "k.csv"]);
    let path = dir.path().join("k.csv");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\n2,1,2,3,2\n", "\n2,1,2,3,3\n")).unwrap();
    fails_in(dir.path(), &["show", "k.csv"], "its values do not match its provenance");
    // A file cut before its last line has lost its checksum.
    let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    fs::write(&path, cut).unwrap();
    fails_in(dir.path(), &["show", "k.csv"], "cut short");

    run_in(
        dir.path(),
        &["compute", "wythoff", "--size", "20x20", "--format", "npy", "--out", "w.npy"],
    );
    let npy = dir.path().join("w.npy");
    let mut bytes = fs::read(&npy).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    fs::write(&npy, bytes).unwrap();
    fails_in(dir.path(), &["show", "w.npy"], "its values do not match its provenance");
}

#[test]
fn every_format_of_one_table_carries_one_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let wythoff = |options: &[&str]| {
        grundy()
            .current_dir(d)
            .args(["compute", "wythoff", "--size", "30x40"])
            .args(options)
            .assert()
            .success();
    };
    wythoff(&["--provenance", "--out", "w.csv"]);
    wythoff(&["--format", "long", "--provenance", "--out", "w-long.csv.gz"]);
    wythoff(&["--format", "npy", "--out", "w.npy"]);
    wythoff(&["--stream", "--provenance", "--out", "w-streamed.csv"]);
    wythoff(&["--format", "parquet", "--out", "w.parquet"]);
    wythoff(&["--format", "parquet", "--stream", "--out", "ws.parquet"]);
    let sum = values_sha256(d, "w.csv");
    assert!(sum.starts_with("sha256:") && sum.len() == 7 + 64);
    let others =
        ["w-long.csv.gz", "w.npy", "w.npy.json", "w-streamed.csv", "w.parquet", "ws.parquet"];
    for file in others {
        assert_eq!(values_sha256(d, file), sum, "{file}");
    }
    assert_eq!(show_json(d, "w-streamed.csv")["engine"], "tiles (streamed)");
    // Heap games' b-files get a sidecar too; outcomes hash as 0 and 1.
    run_in(d, &["compute", "kayles", "--size", "500", "--format", "bfile", "--out", "k.b"]);
    assert_eq!(show_json(d, "k.b")["cells"], "values");
    run_in(
        d,
        &["compute", "kiki", "--size", "40x40", "--outcome", "--provenance", "--out", "o.csv"],
    );
    assert_eq!(show_json(d, "o.csv")["cells"], "outcomes");
}

#[test]
fn sidecars_are_on_by_default_and_dates_follow_source_date_epoch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(
        d,
        &[
            "compute",
            "kayles",
            "--size",
            "50",
            "--format",
            "bfile",
            "--no-provenance",
            "--out",
            "k.b",
        ],
    );
    assert!(!d.join("k.b.json").exists());
    for name in ["a", "b"] {
        grundy()
            .current_dir(d)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .args([
                "compute",
                "kiki",
                "--size",
                "9x9",
                "--provenance",
                "--out",
                &format!("{name}.csv"),
            ])
            .assert()
            .success();
    }
    let (a, b) = (
        fs::read_to_string(d.join("a.csv")).unwrap(),
        fs::read_to_string(d.join("b.csv")).unwrap(),
    );
    assert!(a.contains("\"created\":\"2023-11-14T22:13:20Z\""), "{a}");
    // The two differ in the file name on the command line, and so in the record's checksum.
    let unsealed = |text: &str| {
        let at = text.find("\"record_sha256\":\"").unwrap() + 17;
        format!("{}{}", &text[..at], &text[at + 7 + 64..])
    };
    assert_eq!(unsealed(&a).replace("a.csv", ""), unsealed(&b).replace("b.csv", ""));
}

#[test]
fn provenance_refusals_say_why() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["compute", "kiki", "--size", "9x9", "--format", "summary", "--provenance"],
            "not --format summary",
        ),
        (
            &["compute", "wythoff", "--size", "9x9", "--format", "npy", "--provenance"],
            "give --out FILE",
        ),
        (
            &["compute", "kiki", "--size", "9x9", "--provenance", "--no-provenance"],
            "cannot be used with",
        ),
        (&["show", "kiki", "--json"], "is a game"),
    ];
    for (args, message) in cases {
        grundy().args(*args).assert().failure().stderr(predicate::str::contains(*message));
    }
    let dir = tempfile::tempdir().unwrap();
    let plain = stdout_of(&["compute", "kiki", "--size", "3x4"]);
    fs::write(dir.path().join("plain.csv"), plain).unwrap();
    fails_in(dir.path(), &["show", "plain.csv"], "carries no provenance");
    fs::write(dir.path().join("t.npy"), b"not numpy").unwrap();
    fails_in(dir.path(), &["show", "t.npy"], "there is no t.npy.json beside it");
}

#[test]
fn parquet_tables_read_back_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["compute", "kiki", "--size", "50x40", "--format", "parquet", "--out", "k.parquet"]);
    let out = grundy()
        .current_dir(d)
        .args(["check", "k.parquet", "--p-set", "n % 2 == 1 && m % 2 == 1"])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("exactly"));
    run_in(
        d,
        &[
            "compute",
            "cutting-cuboid",
            "--size",
            "6x5x7",
            "--format",
            "parquet",
            "--out",
            "c.parquet",
        ],
    );
    run_in(
        d,
        &["compute", "cutting-cuboid", "--size", "6x5x7", "--format", "npy", "--out", "c.npy"],
    );
    assert_eq!(values_sha256(d, "c.parquet"), values_sha256(d, "c.npy"));
    grundy().current_dir(d).args(["patterns", "k.parquet"]).assert().success();
    grundy().current_dir(d).args(["plot", "k.parquet", "--out", "k.png"]).assert().success();
    // Without provenance it still reads as a table; show says what is missing.
    run_in(
        d,
        &[
            "compute",
            "kiki",
            "--size",
            "9x9",
            "--format",
            "parquet",
            "--no-provenance",
            "--out",
            "bare.parquet",
        ],
    );
    grundy()
        .current_dir(d)
        .args(["check", "bare.parquet", "--p-set", "n % 2 == 1 && m % 2 == 1"])
        .assert()
        .success();
    fails_in(d, &["show", "bare.parquet"], "carries no provenance");
    // What does not fit is refused from the footer, before the rows are read.
    run_in(
        d,
        &["compute", "kiki", "--size", "999x999", "--format", "parquet", "--out", "big.parquet"],
    );
    fails_in(d, &["patterns", "big.parquet", "--max-memory", "10M"], "fit in the memory available");
    // A file cut short has lost its footer (a changed value is the Python tests': pyarrow
    // rewrites a value and keeps the metadata).
    let path = d.join("k.parquet");
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    fails_in(d, &["show", "k.parquet"], "cannot read Parquet table k.parquet");
}

#[test]
fn parquet_refusals_say_why() {
    let cases: &[(&[&str], &str)] = &[
        (&["compute", "kiki", "--size", "9x9", "--format", "parquet"], "give --out FILE"),
        (
            &["compute", "kiki", "--size", "9x9", "--format", "parquet", "--out", "-"],
            "give --out FILE",
        ),
        (
            &["compute", "kiki", "--size", "9x9", "--format", "parquet", "--out", "/dev/null"],
            "not a regular file",
        ),
        (
            &[
                "compute",
                "kayles",
                "--size",
                "9",
                "--misere",
                "--format",
                "parquet",
                "--out",
                "x.parquet",
            ],
            "genus",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in cases {
        fails_in(dir.path(), args, message);
    }
    assert!(fs::read_dir(dir.path()).unwrap().next().is_none(), "nothing written");
    fs::write(dir.path().join("t.parquet"), b"PAR1 not really").unwrap();
    fails_in(dir.path(), &["patterns", "t.parquet"], "cannot read Parquet table t.parquet");
}

/// `show` checks every field the file can show, not only the values' checksum (issue 50): with
/// the values untouched, each edit below is caught and named.
#[test]
fn every_field_a_file_can_show_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["compute", "kiki", "--size", "30x30", "--provenance", "--out", "k.csv"]);
    run_in(d, &["compute", "kiki", "--size", "30x30", "--format", "npy", "--out", "k.npy"]);
    run_in(d, &["compute", "kiki", "--size", "40x40", "--format", "parquet", "--out", "k.parquet"]);
    let csv = fs::read_to_string(d.join("k.csv")).unwrap();
    let sidecar = fs::read_to_string(d.join("k.npy.json")).unwrap();
    let fingerprint = show_json(d, "k.csv")["fingerprint"].as_str().unwrap().to_string();
    let spec = show_json(d, "k.csv")["spec"].as_str().unwrap().to_string();
    // Kiki's rules without the diagonal step: another game under the same name.
    let other_spec = spec.replace("[[-1, 0], [0, -1], [-1, -1]]", "[[-1, 0], [0, -1]]");
    assert_ne!(other_spec, spec);
    let json = |text: &str| serde_json::to_string(text).unwrap();
    let edits: Vec<(&str, String, &str)> = vec![
        (
            "size",
            csv.replace(r#""size":[30,30]"#, r#""size":[99,99]"#),
            "up to 99x99, but the file holds n 1..=30, m 1..=30",
        ),
        (
            "cells",
            csv.replace(r#""cells":"values""#, r#""cells":"outcomes""#),
            "holds values (up to 3), but its provenance says outcomes",
        ),
        (
            "fingerprint",
            csv.replace(&fingerprint, "sha256:0123456789abcdef"),
            "but the record says sha256:0123456789abcdef",
        ),
        (
            "rules",
            csv.replace(&json(&spec), &json(&other_spec)),
            "the rules or the fingerprint changed",
        ),
        (
            "rules and fingerprint",
            csv.replace(&json(&spec), &json(&other_spec))
                .replace(&fingerprint, &grundy_core::table::fingerprint(&other_spec)),
            "its values are not those of its rules",
        ),
        (
            "command",
            csv.replace(r#""compute","kiki""#, r#""compute","kikI""#),
            "its provenance record changed after grundy wrote it",
        ),
        (
            "game",
            csv.replace(r#""game":"kiki""#, r#""game":"wythoff""#),
            "names the game `wythoff`, but its rules are kiki's",
        ),
    ];
    for (what, text, message) in &edits {
        assert_ne!(text, &csv, "{what}: the edit changed nothing");
        fs::write(d.join("edited.csv"), text).unwrap();
        fails_in(d, &["show", "edited.csv"], message);
    }
    // A sidecar whose size disagrees with its array.
    fs::write(d.join("k.npy.json"), sidecar.replace("\n    30,\n    30\n", "\n    30,\n    31\n"))
        .unwrap();
    assert_ne!(fs::read_to_string(d.join("k.npy.json")).unwrap(), sidecar);
    fails_in(d, &["show", "k.npy"], "up to 30x31, but the file holds");
    // A flipped byte in the Parquet file's provenance (in its command line).
    let mut bytes = fs::read(d.join("k.parquet")).unwrap();
    let at = bytes.windows(9).position(|w| w == b"\"command\"").unwrap() + 14;
    bytes[at] ^= 1;
    fs::write(d.join("flipped.parquet"), bytes).unwrap();
    fails_in(d, &["show", "flipped.parquet"], "changed after grundy wrote it");
    // Untouched, each says what it checked and what it could not.
    let shown = stdout_of(&["show", d.join("k.parquet").to_str().unwrap()]);
    assert!(shown.contains("checked: what the cells hold, the values' checksum, the rules' fingerprint, the size, the values against the rules (computed again), the record's own checksum"), "{shown}");
    assert!(shown.contains("not checked: that the command, the date, the program and the engine are what the record says"), "{shown}");
}

/// Control characters in a file's provenance (here from the file name on the command line) or
/// in a Parquet column's name never reach the terminal raw (issue 50).
#[test]
fn control_characters_in_files_are_escaped_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let name = "t\u{1b}]0;owned\u{7}\u{1b}[2J\r.csv";
    run_in(d, &["compute", "kiki", "--size", "3x3", "--provenance", "--out", name]);
    let shown = grundy().current_dir(d).args(["show", name]).assert().success();
    let out = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}') && !out.contains('\r'), "{out:?}");
    assert!(out.contains(r"\u{1b}]0;owned"), "{out}");

    // A Parquet table whose coordinate column is named `\x1b[31mn`.
    let axes = [grundy_core::Axis::new("\u{1b}[31mn", 0), grundy_core::Axis::new("m", 0)];
    let mut bytes = Vec::new();
    let mut rows = grundy_parquet::ParquetRows::new(
        &axes,
        &[2, 2],
        grundy_core::CellKind::Values,
        grundy_core::CellWidth::U8,
        None,
        &mut bytes,
    )
    .unwrap();
    rows.write_row(&[0, 1]).unwrap();
    rows.write_row(&[1, 0]).unwrap();
    rows.finish().unwrap();
    fs::write(d.join("red.parquet"), bytes).unwrap();
    let refused = grundy().current_dir(d).args(["patterns", "red.parquet"]).assert().failure();
    let output = refused.get_output();
    let (out, err) =
        (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!out.contains('\u{1b}') && !err.contains('\u{1b}'), "{out:?} {err:?}");
    assert!(err.contains("is not an axis name"), "{err}");
}

/// Reads that follow a link to an endless file are bounded (issue 50: `show` of a sidecar that
/// is `/dev/zero` was killed for memory at 2 GiB).
#[test]
fn a_sidecar_that_never_ends_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &["compute", "kiki", "--size", "5x5", "--format", "npy", "--out", "z.npy"]);
    fs::remove_file(d.join("z.npy.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("z.npy.json")).unwrap();
    grundy()
        .current_dir(d)
        .args(["--max-memory", "256M", "show", "z.npy"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(predicate::str::contains("z.npy.json is larger than 32 MiB"));
    // A CSV file of one endless line.
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.csv")).unwrap();
    grundy()
        .current_dir(d)
        .args(["--max-memory", "256M", "show", "zero.csv"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure()
        .stderr(predicate::str::contains("longer than a table's line can be"));
}

/// A link where a sidecar goes is refused before anything is computed, as FILE.partial and
/// FILE.lock are (issue 50: the sidecar was written through it).
#[cfg(unix)]
#[test]
fn a_link_at_the_sidecar_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("victim.txt"), "precious\n").unwrap();
    std::os::unix::fs::symlink("victim.txt", d.join("s.npy.json")).unwrap();
    fails_in(
        d,
        &["compute", "kiki", "--size", "5x5", "--out", "s.npy"],
        "s.npy.json is a symbolic link",
    );
    assert_eq!(fs::read_to_string(d.join("victim.txt")).unwrap(), "precious\n");
    assert!(!d.join("s.npy").exists(), "the table was written without its sidecar");
}

/// Issue 59, item 9: a CSV carries one provenance record. A second, different one after the
/// first was ignored and the file said "checked"; placed first, it was refused. Either way
/// round, and a second header or checksum line too, `show` now refuses the file.
#[test]
fn show_refuses_a_second_provenance_record_whichever_comes_first() {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), &["compute", "kiki", "--size", "30x30", "--provenance", "--out", "k.csv"]);
    let text = fs::read_to_string(dir.path().join("k.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let other = lines[1].replacen("\"game\":\"kiki\"", "\"game\":\"wythoff\"", 1);
    assert_ne!(other, lines[1]);
    let with = |extra: &[(usize, &str)]| {
        let mut edited: Vec<&str> = lines.clone();
        for &(at, line) in extra.iter().rev() {
            edited.insert(at, line);
        }
        edited.join("\n") + "\n"
    };
    let cases = [
        ("after.csv", with(&[(2, &other)]), "second provenance record"),
        ("before.csv", with(&[(1, &other)]), "second provenance record"),
        ("mark.csv", with(&[(2, lines[0]), (2, &other)]), "second provenance header"),
        ("sum.csv", with(&[(lines.len(), lines[lines.len() - 1])]), "second provenance checksum"),
    ];
    for (name, contents, message) in cases {
        fs::write(dir.path().join(name), contents).unwrap();
        fails_in(dir.path(), &["show", name], message);
    }
    // The file as written still checks.
    let shown = stdout_of(&["show", dir.path().join("k.csv").to_str().unwrap()]);
    assert!(shown.contains("checked:"), "{shown}");
}
