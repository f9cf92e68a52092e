//! Provenance and Parquet end to end: `compute` writes provenance (CSV comments with
//! `--provenance`, a sidecar beside .npy and b-files, Parquet metadata), `show FILE` prints it and
//! checks the values, and a changed value is caught; Parquet tables read back in every command.

mod common;

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
        .stdout(predicate::str::contains("checked: the file's values match"))
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
    assert_eq!(a.replace("a.csv", ""), b.replace("b.csv", ""));
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
