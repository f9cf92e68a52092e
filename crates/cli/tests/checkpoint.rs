//! `compute --checkpoint`: runs interrupted by SIGINT or killed outright resume to the table an
//! uninterrupted run writes, and checkpoints of other games, other sizes or damaged ones are
//! refused without being touched.

use crate::common;

use common::grundy;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough (with a save after every tile-wave) to be interrupted half-way on any machine.
const GAME: &str = "wythoff";
const SIZE: &str = "3000x3000";

fn compute_args<'a>(out: &'a str, checkpoint: &'a str, every: &'a str) -> Vec<&'a str> {
    vec![
        "compute",
        GAME,
        "--size",
        SIZE,
        "--format",
        "npy",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
        "--checkpoint-every",
        every,
    ]
}

/// Starts a checkpointed run in the background.
fn spawn(out: &Path, checkpoint: &Path) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(compute_args(out.to_str().unwrap(), checkpoint.to_str().unwrap(), "0"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the run has saved a checkpoint (the file appears only complete, by rename).
fn wait_for(checkpoint: &Path, child: &mut Child) {
    let start = Instant::now();
    while !checkpoint.exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before its first checkpoint");
        assert!(start.elapsed() < Duration::from_secs(120), "no checkpoint after two minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status =
        Command::new("kill").args([name, &child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
}

/// The table of an uninterrupted run.
fn uninterrupted(dir: &Path) -> Vec<u8> {
    let out = dir.join("full.npy");
    grundy()
        .args(["compute", GAME, "--size", SIZE, "--format", "npy", "--out"])
        .arg(&out)
        .assert()
        .success();
    fs::read(out).unwrap()
}

/// Resumes from `checkpoint` and returns the table written; the checkpoint is gone afterwards.
fn resume(dir: &Path, checkpoint: &Path) -> Vec<u8> {
    let out = dir.join("resumed.npy");
    let output = grundy()
        .args(compute_args(out.to_str().unwrap(), checkpoint.to_str().unwrap(), "3600"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.starts_with("grundy: resuming from checkpoint"), "{stderr}");
    assert!(!stderr.contains(" 0 of "), "the checkpoint held finished tile-waves: {stderr}");
    assert!(!checkpoint.exists(), "the checkpoint is deleted once the table is written");
    fs::read(out).unwrap()
}

#[test]
fn sigint_saves_and_the_resumed_table_is_identical() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("wythoff.ckpt");
    let out = dir.path().join("interrupted.npy");
    let mut child = spawn(&out, &checkpoint);
    wait_for(&checkpoint, &mut child);
    signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted; saved"), "{stderr}");
    assert!(stderr.contains("run the same command again to resume"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists(), "an interrupted run writes no table");
    assert!(checkpoint.exists());

    refusals(dir.path(), &checkpoint);

    assert!(resume(dir.path(), &checkpoint) == uninterrupted(dir.path()));
}

#[test]
fn kill_9_loses_only_the_waves_since_the_last_save() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("wythoff.ckpt");
    let mut child = spawn(&dir.path().join("killed.npy"), &checkpoint);
    wait_for(&checkpoint, &mut child);
    signal(&child, "-KILL");
    child.wait().unwrap();
    assert!(resume(dir.path(), &checkpoint) == uninterrupted(dir.path()));
}

/// Checkpoints that are not this run's are refused with one line, exit code 2, and left as they
/// are.
// A table of refusals, one after another: the limit is for functions of the code.
#[allow(clippy::too_many_lines)]
fn refusals(dir: &Path, checkpoint: &Path) {
    let saved = fs::read(checkpoint).unwrap();
    let refused = |args: &[&str], file: &Path, expected: &str| {
        let output = grundy().args(args).arg("--checkpoint").arg(file).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: expected {expected:?} in {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    let out = dir.join("other.csv");
    let out = out.to_str().unwrap();
    refused(
        &["compute", "nim", "--size", SIZE, "--out", out],
        checkpoint,
        "belongs to wythoff up to 3000x3000, not to nim up to 3000x3000",
    );
    refused(
        &["compute", GAME, "--size", "3000x2999", "--out", out],
        checkpoint,
        "not to wythoff up to 3000x2999",
    );
    // A spec file that calls itself wythoff but has other rules.
    let spec = dir.join("short-wythoff.toml");
    fs::write(
        &spec,
        "name = \"wythoff\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n\
         [[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\nmax = 3\n",
    )
    .unwrap();
    refused(
        &["compute", spec.to_str().unwrap(), "--size", SIZE, "--out", out],
        checkpoint,
        "saved by a run of wythoff up to 3000x3000 with other rules under the same name",
    );
    assert!(fs::read(checkpoint).unwrap() == saved, "a refused checkpoint is left as it was");

    let args = ["compute", GAME, "--size", SIZE, "--out", out];
    let damaged = dir.join("damaged.ckpt");
    for at in [13, 40, saved.len() / 2, saved.len() - 1] {
        let mut bytes = saved.clone();
        bytes[at] ^= 0x10;
        fs::write(&damaged, &bytes).unwrap();
        refused(&args, &damaged, "is damaged (checksum");
    }
    fs::write(&damaged, &saved[..saved.len() - 100]).unwrap();
    refused(&args, &damaged, "is damaged (checksum");
    fs::write(&damaged, "n,g\n0,0\n").unwrap();
    refused(&args, &damaged, "not a grundy checkpoint");
    fs::write(&damaged, "GRUNDYCP").unwrap();
    refused(&args, &damaged, "too short");
    let mut future = saved.clone();
    future[8] = 9;
    fs::write(&damaged, &future).unwrap();
    refused(&args, &damaged, "format version 9");

    // Issue 12: forged checkpoints, whose checksum is recomputed after editing. A checksum is no
    // signature: every header field is checked against the plan of this run.
    let forged = |edit: &dyn Fn(&mut serde_json::Value, &mut Vec<u8>)| -> Vec<u8> {
        let header_len = u32::from_le_bytes(saved[16..20].try_into().unwrap()) as usize;
        let mut header: serde_json::Value =
            serde_json::from_slice(&saved[20..20 + header_len]).unwrap();
        let mut npy = saved[20 + header_len..].to_vec();
        edit(&mut header, &mut npy);
        let header = serde_json::to_vec(&header).unwrap();
        let mut body = (header.len() as u32).to_le_bytes().to_vec();
        body.extend(&header);
        body.extend(&npy);
        let mut bytes = saved[..12].to_vec();
        bytes.extend(crc32fast::hash(&body).to_le_bytes());
        bytes.extend(body);
        bytes
    };
    let npy_replace = |npy: &mut Vec<u8>, from: &str, to: &str| {
        assert_eq!(from.len(), to.len());
        let at = npy.windows(from.len()).position(|w| w == from.as_bytes()).unwrap();
        npy[at..at + from.len()].copy_from_slice(to.as_bytes());
    };
    // An early checkpoint may still hold bytes (`|u1`) or already two-byte cells (`<u2`).
    let has = |text: &str| saved.windows(text.len()).any(|w| w == text.as_bytes());
    let (descr, other_bytes) = if has("'<u2'") { ("<u2", 1) } else { ("|u1", 2) };
    let swapped = if descr == "<u2" { "'>u2'" } else { "'>u1'" };
    let wrong_type = format!("the .npy array holds `{descr}`");
    let wrong_order = format!("the .npy array holds `{}`", &swapped[1..4]);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            forged(&|h, _| h["tile_sides"] = serde_json::json!([0, 0, 1])),
            "saved with tiles of sides [0, 0, 1]",
        ),
        (
            forged(&|h, _| h["tile_sides"] = serde_json::json!([usize::MAX, usize::MAX, 1])),
            "saved with tiles of sides",
        ),
        (
            forged(&|h, _| h["tile_sides"] = serde_json::json!([64, 32, 1])),
            "but this run uses tiles of sides [64, 64, 1] in 93 tile-waves",
        ),
        (
            forged(&|h, _| h["waves_total"] = serde_json::json!(94)),
            "in 94 tile-waves, but this run",
        ),
        (
            forged(&|h, _| h["waves_done"] = serde_json::json!(1000)),
            "it says 1000 of 93 tile-waves are done",
        ),
        (forged(&|h, _| h["cell_bytes"] = serde_json::json!(other_bytes)), &wrong_type),
        (forged(&|_, npy| npy_replace(npy, &format!("'{descr}'"), swapped)), &wrong_order),
        (
            forged(&|_, npy| npy_replace(npy, "(3001, 3001)}", "(999999, 99)}")),
            "has shape [999999, 99]",
        ),
    ];
    for (bytes, expected) in cases {
        fs::write(&damaged, &bytes).unwrap();
        refused(&args, &damaged, expected);
        let left: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{expected}: left behind {left:?}");
    }
    assert!(!Path::new(out).exists(), "no run wrote a table");
}

#[test]
fn checkpoint_options_that_cannot_work_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c");
    let ckpt = ckpt.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["compute", "kiki", "--size", "9x9", "--checkpoint", ckpt, "--stream"],
            "--checkpoint with --stream needs --format summary",
        ),
        (
            vec!["compute", "kiki", "--size", "9x9", "--checkpoint", ckpt, "--engine", "reference"],
            "has no waves to save between",
        ),
        (vec!["compute", "kiki", "--size", "9x9", "--checkpoint", "-"], "needs a file path"),
        (vec!["compute", "kiki", "--size", "9x9", "--checkpoint-every", "5"], "--checkpoint"),
    ] {
        let output = grundy().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn a_finished_heap_game_run_leaves_no_checkpoint_and_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("kayles.ckpt");
    let plain = common::stdout_of(&["compute", "kayles", "--size", "5000", "--format", "bfile"]);
    let checkpointed = common::stdout_of(&[
        "compute",
        "kayles",
        "--size",
        "5000",
        "--format",
        "bfile",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--checkpoint-every",
        "0",
    ]);
    assert_eq!(plain, checkpointed);
    assert!(!ckpt.exists());
}

/// Issue 12: a SIGTERM during a resume said "resuming from checkpoint" last, not that the run
/// was stopped (and saved).
#[test]
fn sigterm_during_a_resume_says_it_stopped() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("wythoff.ckpt");
    let mut child = spawn(&dir.path().join("first.npy"), &checkpoint);
    wait_for(&checkpoint, &mut child);
    signal(&child, "-INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let mut resumed = spawn(&dir.path().join("second.npy"), &checkpoint);
    let mut stderr = BufReader::new(resumed.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(first.starts_with("grundy: resuming from checkpoint"), "{first}");
    signal(&resumed, "-TERM");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert_eq!(resumed.wait().unwrap().code(), Some(130), "{first}{rest}");
    let last = rest.lines().last().unwrap_or_default();
    assert!(last.starts_with("grundy: interrupted"), "{first}{rest}");
    assert!(checkpoint.exists());
}

#[test]
fn sigterm_saves_too() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("wythoff.ckpt");
    let mut child = spawn(&dir.path().join("terminated.npy"), &checkpoint);
    wait_for(&checkpoint, &mut child);
    signal(&child, "-TERM");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(resume(dir.path(), &checkpoint) == uninterrupted(dir.path()));
}

#[test]
fn ctrl_c_without_a_checkpoint_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["compute", "wythoff", "--size", "12000x12000", "--format", "long", "--out"])
        .arg(dir.path().join("big.csv"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file beside the output exists from the start of the run.
    let start = Instant::now();
    while fs::read_dir(dir.path()).unwrap().count() == 0 {
        assert!(start.elapsed() < Duration::from_secs(60), "no temporary file");
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `base`, then `--checkpoint-every EVERY --out OUT --checkpoint CKPT`.
fn checkpointed(base: &[&str], every: &str, out: &Path, ckpt: &Path) -> Vec<String> {
    let mut args: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    args.extend(["--checkpoint-every".into(), every.into()]);
    args.extend(["--out".into(), out.to_str().unwrap().into()]);
    args.extend(["--checkpoint".into(), ckpt.to_str().unwrap().into()]);
    args
}

/// Runs `args` (which save to `ckpt` after every wave) in the background, sends SIGINT once the
/// first checkpoint exists, and returns the run's standard error after checking its exit code
/// 130.
fn interrupt_after_first_save(args: &[String], ckpt: &Path) -> String {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(ckpt, &mut child);
    signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted; saved"), "{stderr}");
    assert!(ckpt.exists());
    stderr
}

/// Resumes with `args` and returns its standard error, after checking that it went on from a
/// checkpoint holding finished waves and deleted it.
fn resume_from(args: &[String], ckpt: &Path) -> String {
    let resumed = grundy().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&resumed.stderr).into_owned();
    assert!(resumed.status.success(), "{stderr}");
    assert!(stderr.starts_with("grundy: resuming from checkpoint"), "{stderr}");
    assert!(!stderr.contains("(0 of"), "the checkpoint held finished waves: {stderr}");
    assert!(!ckpt.exists(), "the checkpoint is deleted once the output is written");
    stderr
}

/// Issue 13: every engine with waves can be checkpointed, the cell-wave one too; its checkpoint
/// records its own plan, so a run with the tiles is refused it.
#[test]
fn the_waves_engine_saves_and_resumes_its_own_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let (ckpt, out) = (dir.path().join("waves.ckpt"), dir.path().join("waves.npy"));
    let base =
        |engine| ["compute", GAME, "--size", "700x700", "--format", "npy", "--engine", engine];
    interrupt_after_first_save(&checkpointed(&base("waves"), "0", &out, &ckpt), &ckpt);
    let before = fs::read(&ckpt).unwrap();

    let refused =
        grundy().args(checkpointed(&base("tiles"), "3600", &out, &ckpt)).output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("tile"), "{stderr}");
    assert_eq!(fs::read(&ckpt).unwrap(), before, "a refused checkpoint is left as it was");

    resume_from(&checkpointed(&base("waves"), "3600", &out, &ckpt), &ckpt);
    let plain =
        grundy().args(["compute", GAME, "--size", "700x700", "--format", "npy"]).output().unwrap();
    assert!(plain.status.success());
    assert!(fs::read(&out).unwrap() == plain.stdout);
}

/// Issue 13: a streamed summary is checkpointed too. Interrupted, it saves its ring of rows and
/// its sums; resumed, it writes the summary of an uninterrupted run; the checkpoint is refused
/// by a run that holds the whole table.
#[test]
fn a_streamed_summary_saves_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (ckpt, out) = (dir.path().join("stream.ckpt"), dir.path().join("summary.json"));
    let base = ["compute", GAME, "--size", "2500x2500", "--stream", "--format", "summary"];
    let stderr = interrupt_after_first_save(&checkpointed(&base, "0", &out, &ckpt), &ckpt);
    assert!(stderr.contains(" rows to checkpoint"), "{stderr}");
    assert!(!out.exists(), "an interrupted run writes no summary");

    let in_memory = grundy()
        .args(["compute", GAME, "--size", "2500x2500", "--format", "summary", "--checkpoint"])
        .arg(&ckpt)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&in_memory.stderr);
    assert_eq!(in_memory.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("saved by a streamed run"), "{stderr}");

    resume_from(&checkpointed(&base, "3600", &out, &ckpt), &ckpt);
    let without_seconds = |json: &str| json.split(",\"seconds\"").next().unwrap().to_string();
    let plain = common::stdout_of(&["compute", GAME, "--size", "2500x2500", "--format", "summary"]);
    let resumed = fs::read_to_string(&out).unwrap();
    assert_eq!(without_seconds(&resumed), without_seconds(&plain));
}

/// Issue 14: the sparse-space engine (the default for octal games) saves on Ctrl-C and resumes
/// from its checkpoint, rebuilding its rare heaps from the saved values, to the table of an
/// uninterrupted run.
#[test]
fn an_interrupted_sparse_fill_resumes_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let (ckpt, out) = (dir.path().join("octal.ckpt"), dir.path().join("octal.npy"));
    let base = ["compute", "octal:0.16", "--size", "8000000", "--format", "npy"];
    interrupt_after_first_save(&checkpointed(&base, "0", &out, &ckpt), &ckpt);
    resume_from(&checkpointed(&base, "3600", &out, &ckpt), &ckpt);
    let sparse = grundy().args(base).output().unwrap();
    assert!(sparse.status.success());
    assert!(fs::read(&out).unwrap() == sparse.stdout, "the resumed table differs");
}

/// Issue 59, item 12: the checkpoint's notes ("saved … to checkpoint NAME", "resuming from
/// checkpoint NAME") print a file name's terminal escapes escaped, as error lines do: they were
/// printed raw, so a name could retitle or clear the user's terminal.
#[test]
fn checkpoint_notes_escape_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c\u{1b}]0;pwned\u{7}\u{1b}[2J.ckpt");
    let out = dir.path().join("escape.npy");
    let args = checkpointed(&["compute", GAME, "--size", SIZE], "0", &out, &ckpt);
    let saved = interrupt_after_first_save(&args, &ckpt);
    let resumed = resume_from(&args, &ckpt);
    for stderr in [saved, resumed] {
        assert!(!stderr.contains('\u{1b}') && !stderr.contains('\u{7}'), "{stderr:?}");
        assert!(stderr.contains(r"c\u{1b}]0;pwned\u{7}\u{1b}[2J.ckpt"), "{stderr:?}");
    }
}
