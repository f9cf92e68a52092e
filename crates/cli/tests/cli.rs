//! The command line end to end: every subcommand, the contest samples, outputs and formats (bad
//! input has its own matrix in `bad_input.rs`).

use crate::common;

use common::{grundy, stdout_of};
use predicates::prelude::*;
use std::fs;

#[test]
fn compute_writes_a_grid() {
    let csv = stdout_of(&["compute", "kiki", "--size", "3x4"]);
    assert_eq!(csv, "n\\m,1,2,3,4\n1,0,1,0,1\n2,1,2,3,2\n3,0,3,0,1\n");
}

#[test]
fn compute_writes_outcomes_and_long_tables() {
    let csv = stdout_of(&["compute", "cutting", "--size", "4x3", "--outcome"]);
    assert_eq!(csv, "w\\h,2,3\n2,P,P\n3,P,P\n4,N,N\n");
    let csv = stdout_of(&["compute", "nim", "--size", "1x1", "--format", "long"]);
    assert_eq!(csv, "a,b,g\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n");
    let csv = stdout_of(&["compute", "kayles", "--size", "4"]);
    assert_eq!(csv, "n,g\n0,0\n1,1\n2,2\n3,3\n4,1\n");
}

#[test]
fn compute_summary_is_json() {
    let text = stdout_of(&["compute", "kiki", "--size", "2000x2000", "--format", "summary"]);
    let summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["game"], "kiki");
    assert_eq!(summary["size"], serde_json::json!([2000, 2000]));
    assert_eq!(summary["cells"], 4_000_000);
    assert_eq!(summary["p_positions"], 1_000_000);
    assert_eq!(summary["max"], 3);
    assert!(summary["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn every_thread_count_and_engine_writes_the_same_table() {
    // 300x300: values outgrow byte cells, and the square table is mirrored.
    let reference =
        stdout_of(&["compute", "wythoff", "--size", "300x300", "--engine", "reference"]);
    for engine in ["tiles", "waves"] {
        for threads in ["1", "2", "8"] {
            let args = [
                "compute",
                "wythoff",
                "--size",
                "300x300",
                "--threads",
                threads,
                "--engine",
                engine,
            ];
            assert_eq!(stdout_of(&args), reference, "{engine} on {threads} threads");
        }
    }
}

#[test]
fn compute_writes_the_out_file_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kiki.csv");
    grundy()
        .args(["compute", "kiki", "--size", "30x20", "--out"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let written = fs::read_to_string(&path).unwrap();
    assert_eq!(written, stdout_of(&["compute", "kiki", "--size", "30x20"]));
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec!["kiki.csv"]);
}

#[test]
fn value_answers_s_nim() {
    // HDU 1536 sample: S = {2, 5}: LWW; S = {1, 2, 3, 4, 5}: WWL.
    let positions: [&[&str]; 3] = [&["5", "12"], &["2", "4", "7"], &["2", "3", "7", "12"]];
    for (game, expected) in [("subtraction:2,5", "LWW"), ("subtraction:1,2,3,4,5", "WWL")] {
        let answer: String = positions
            .iter()
            .map(|heaps| {
                let mut args = vec!["value", game, "--json"];
                args.extend_from_slice(heaps);
                let report: serde_json::Value = serde_json::from_str(&stdout_of(&args)).unwrap();
                if report["outcome"] == "P" {
                    'L'
                } else {
                    'W'
                }
            })
            .collect();
        assert_eq!(answer, expected, "{game}");
    }
}

#[test]
fn value_answers_the_board_contests() {
    let outcome = |game: &str, pos: &str| {
        let report: serde_json::Value =
            serde_json::from_str(&stdout_of(&["value", game, pos, "--json"])).unwrap();
        report["outcome"].as_str().unwrap().to_string()
    };
    // POJ 2311: LOSE, LOSE, WIN.
    assert_eq!(["2x2", "3x2", "4x2"].map(|p| outcome("cutting", p)), ["P", "P", "N"]);
    // HDU 2147: What a pity!, Wonderful!, Wonderful!
    assert_eq!(["5x3", "5x4", "6x6"].map(|p| outcome("kiki", p)), ["P", "N", "N"]);
    // Prime steps: Shiro, Shiro, Shiro, Sora.
    assert_eq!(
        ["1x1", "2x2", "10x10", "30x30"].map(|p| outcome("prime-steps", p)),
        ["P", "P", "P", "N"]
    );
}

#[test]
fn value_json_has_the_contract_keys() {
    let report: serde_json::Value =
        serde_json::from_str(&stdout_of(&["value", "nim", "3x2", "--json"])).unwrap();
    assert_eq!(
        report,
        serde_json::json!({"game": "nim", "components": [{"game": "nim", "position": [3, 2], "value": 1}], "value": 1, "outcome": "N"})
    );
    let text = stdout_of(&["value", "subtraction:2,5", "5", "12"]);
    assert_eq!(text, "5: 2\n12: 2\nsum: 0\noutcome: P (the player to move loses)\n");
}

#[test]
fn games_lists_the_catalog() {
    let text = stdout_of(&["games"]);
    for name in [
        "cutting",
        "kiki",
        "prime-steps",
        "wythoff",
        "nim",
        "subtraction:S",
        "octal:CODE",
        "kayles",
        "dawsons-kayles",
    ] {
        assert!(text.lines().any(|line| line.starts_with(name)), "{name} missing from\n{text}");
    }
}

#[test]
fn a_failed_run_keeps_an_existing_output_intact() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    fs::write(&path, "precious\n").unwrap();
    grundy()
        .args(["compute", "kiki", "--size", "200000x200000", "--out"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("memory"));
    assert_eq!(fs::read_to_string(&path).unwrap(), "precious\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "a temporary file was left behind");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["compute", "kiki", "--size", "1500x1500"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // Dropping our end of the pipe makes the next write fail with EPIPE.
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty());
}

#[test]
fn streaming_writes_the_same_tables() {
    // Every 2-D game streams but those that split the first axis (issue 11, item 7: the README
    // said so, the code refused more): a split of the second axis reads its own row only.
    let dir = tempfile::tempdir().unwrap();
    let split_columns = dir.path().join("split-columns.toml");
    std::fs::write(
        &split_columns,
        "name = \"split-columns\"\ndescription = \"cut a strip across, or step down\"\n\
         axes = [{ name = \"n\", min = 1 }, { name = \"m\", min = 1 }]\n\
         [[rules]]\nkind = \"split\"\naxis = \"m\"\nmin-piece = 1\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1, 0]]\n",
    )
    .unwrap();
    for (game, size) in [
        ("kiki", "120x75"),
        ("wythoff", "90x130"),
        ("wythoff-short-diagonal", "64x64"),
        ("prime-steps", "70x45"),
        ("fibonacci-rook", "50x70"),
        (split_columns.to_str().unwrap(), "40x30"),
    ] {
        for format in ["grid", "long"] {
            let whole =
                stdout_of(&["compute", game, "--size", size, "--format", format, "--outcome"]);
            let streamed = stdout_of(&[
                "compute",
                game,
                "--size",
                size,
                "--format",
                format,
                "--outcome",
                "--stream",
            ]);
            assert_eq!(streamed, whole, "{game} {format}");
        }
        let summary = |extra: &[&str]| {
            let mut args = vec!["compute", game, "--size", size, "--format", "summary"];
            args.extend_from_slice(extra);
            let mut json: serde_json::Value = serde_json::from_str(&stdout_of(&args)).unwrap();
            json.as_object_mut().unwrap().remove("seconds");
            json
        };
        assert_eq!(summary(&["--stream"]), summary(&[]), "{game}");
    }
    let output =
        grundy().args(["compute", "cutting", "--size", "30x30", "--stream"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("cannot stream cutting: rule 1 (split) reaches back through whole columns"));
}

#[test]
fn compute_writes_numpy_arrays_with_the_cells_integer_type() {
    let dir = tempfile::tempdir().unwrap();
    for (game, size, descriptor, shape) in [
        ("kiki", "3x4", "'descr': '|u1'", "'shape': (3, 4)"),
        ("wythoff", "299x299", "'descr': '<u2'", "'shape': (300, 300)"),
        ("kayles", "10", "'descr': '|u1'", "'shape': (11,)"),
        ("cutting-cuboid", "3x3x4", "'descr': '|u1'", "'shape': (2, 2, 3)"),
    ] {
        let out = dir.path().join(format!("{game}.npy"));
        grundy()
            .args(["compute", game, "--size", size, "--format", "npy", "--out"])
            .arg(&out)
            .assert()
            .success();
        let bytes = fs::read(&out).unwrap();
        assert_eq!(&bytes[..6], b"\x93NUMPY", "{game}");
        let header = String::from_utf8_lossy(&bytes[10..bytes.len().min(128)]).into_owned();
        assert!(header.contains(descriptor), "{game}: {header}");
        assert!(header.contains("'fortran_order': False"), "{game}: {header}");
        assert!(header.contains(shape), "{game}: {header}");
    }
    // The data follows the header in row-major order: kiki 3x4's first row is 0 1 0 1.
    let bytes = fs::read(dir.path().join("kiki.npy")).unwrap();
    assert_eq!(&bytes[bytes.len() - 12..], &[0, 1, 0, 1, 1, 2, 3, 2, 0, 3, 0, 1]);
}

#[test]
fn compute_writes_oeis_b_files_for_heap_games() {
    // A002186 (Kayles) starts 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6.
    let bfile = stdout_of(&["compute", "kayles", "--size", "11", "--format", "bfile"]);
    let expected: String = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
        .iter()
        .enumerate()
        .map(|(n, v)| format!("{n} {v}\n"))
        .collect();
    assert_eq!(bfile, expected);
    // `--out -` is standard output.
    assert_eq!(
        stdout_of(&["compute", "kayles", "--size", "11", "--format", "bfile", "--out", "-"]),
        expected
    );
    assert!(!std::path::Path::new("-").exists());
}

/// Every command's help describes that command: those that take `--threads` once all read the
/// runtime options' comment ("The runtime's options, as given before the command or after it").
#[test]
fn each_command_keeps_its_own_description() {
    let text = common::stdout_of(&["--help"]);
    assert!(!text.contains("The runtime's options"), "{text}");
    for (command, first) in [
        ("check", "Test a closed-form conjecture against a table"),
        ("compute", "Compute a game's Grundy table"),
        ("patterns", "Find the laws behind a table"),
    ] {
        let help = common::stdout_of(&[command, "--help"]);
        assert!(help.starts_with(first), "{command}: {help}");
        assert!(help.contains("--threads"), "{command}: {help}");
    }
}
