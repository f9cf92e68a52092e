//! The rules of `--out` (issue 12): special files are written through, symbolic links keep being
//! links, read-only files are refused without `--force`, modes are kept or follow the umask, long
//! names work, and a run whose output cannot be put in place fails.

use crate::common;

use common::{grundy, stdout_of};
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KIKI_3: &str = "n\\m,1,2,3\n1,0,1,0\n2,1,2,3\n3,0,3,0\n";

fn compute_to(out: &Path, extra: &[&str]) -> std::process::Output {
    grundy()
        .args(["compute", "kiki", "--size", "3x3", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = Command::new("cat").arg(&fifo).stdout(Stdio::piped()).spawn().unwrap();
    let output = compute_to(&fifo, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let read = reader.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(read.stdout).unwrap(), KIKI_3);
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left");
}

/// A device node (a copy of /dev/null, made where root may make one) is written through: before,
/// `--out /dev/null` as root would have replaced the system's /dev/null with a regular file.
#[test]
fn a_device_is_written_through_and_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let device = dir.path().join("null");
    let made = Command::new("mknod").arg(&device).args(["c", "1", "3"]).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: mknod needs root");
        return;
    }
    let output = compute_to(&device, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(fs::symlink_metadata(&device).unwrap().file_type().is_char_device());
    // A checkpoint must be a regular file.
    let output = grundy()
        .args(["compute", "kiki", "--size", "3x3", "--checkpoint"])
        .arg(&device)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}

#[test]
fn a_symbolic_link_keeps_being_a_link_and_its_target_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("tables");
    fs::create_dir(&sub).unwrap();
    let target = sub.join("kiki.csv");
    fs::write(&target, "old\n").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("tables/kiki.csv", &link).unwrap();
    let output = compute_to(&link, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), KIKI_3);
    // A dangling link creates its target.
    let dangling = dir.path().join("dangling.csv");
    std::os::unix::fs::symlink("tables/new.csv", &dangling).unwrap();
    assert!(compute_to(&dangling, &[]).status.success());
    assert_eq!(fs::read_to_string(sub.join("new.csv")).unwrap(), KIKI_3);
    assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
}

/// `--out /dev/stdout` (a link through the kernel's descriptor links) is standard output, also
/// when that is a file; it used to replace the file standard output was redirected to.
#[test]
fn dev_stdout_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    fs::write(&log, "before\n").unwrap();
    let file = fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["compute", "kiki", "--size", "3x3", "--out", "/dev/stdout"])
        .stdout(file)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read_to_string(&log).unwrap(), format!("before\n{KIKI_3}"));
}

#[test]
fn read_only_files_are_refused_unless_forced_and_modes_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked.csv");
    fs::write(&locked, "keep me\n").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
    let output = compute_to(&locked, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("it is read-only; give --force to replace it anyway"), "{stderr}");
    assert_eq!(fs::read_to_string(&locked).unwrap(), "keep me\n");
    assert!(compute_to(&locked, &["--force"]).status.success());
    assert_eq!(fs::read_to_string(&locked).unwrap(), KIKI_3);
    assert_eq!(mode(&locked), 0o444, "a forced file keeps its mode");
    // A private file stays private.
    let private = dir.path().join("private.csv");
    fs::write(&private, "x").unwrap();
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
    assert!(compute_to(&private, &[]).status.success());
    assert_eq!(mode(&private), 0o600);
    // A new file gets 0666 less the umask.
    for (umask, expected) in [("077", 0o600), ("022", 0o644), ("002", 0o664)] {
        let new = dir.path().join(format!("new-{umask}.csv"));
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" compute kiki --size 3x3 --out \"$1\""))
            .arg(assert_cmd::cargo::cargo_bin("grundy"))
            .arg(&new)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(mode(&new), expected, "umask {umask}");
    }
}

#[test]
fn names_up_to_255_bytes_work() {
    let dir = tempfile::tempdir().unwrap();
    for len in [250, 255] {
        let name = format!("{}.csv", "k".repeat(len - 4));
        let out = dir.path().join(&name);
        let output = compute_to(&out, &[]);
        assert!(output.status.success(), "{len}: {}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(fs::read_to_string(&out).unwrap(), KIKI_3);
    }
}

#[test]
fn the_checkpoint_and_the_output_must_be_two_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.npy");
    let link = dir.path().join("alias.npy");
    std::os::unix::fs::symlink("t.npy", &link).unwrap();
    for checkpoint in [out.clone(), link, dir.path().join(".").join("t.npy")] {
        let output = grundy()
            .args(["compute", "kiki", "--size", "30x30", "--format", "npy", "--out"])
            .arg(&out)
            .arg("--checkpoint")
            .arg(&checkpoint)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{checkpoint:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("name the same file"));
    }
    assert!(!out.exists());
}

/// A run whose output directory disappears fails, and says so.
#[test]
fn a_removed_output_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("gone");
    fs::create_dir(&sub).unwrap();
    let child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["compute", "wythoff", "--size", "9000x9000", "--format", "npy", "--out"])
        .arg(sub.join("w.npy"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file appears at the start of the run.
    let start = Instant::now();
    while fs::read_dir(&sub).unwrap().count() == 0 {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
    fs::remove_dir_all(&sub).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("grundy: error: cannot write"), "{stderr}");
}

#[test]
fn standard_output_is_still_the_default() {
    assert_eq!(stdout_of(&["compute", "kiki", "--size", "3x3"]), KIKI_3);
    assert_eq!(stdout_of(&["compute", "kiki", "--size", "3x3", "--out", "-"]), KIKI_3);
}

/// An output in a folder that does not exist names the folder, not a temporary file's name
/// (issue 69: `--walnut` showed `.x.txt.5224@host-….tmp`); every output goes through the same
/// opening.
#[test]
fn a_missing_folder_is_named_and_no_temporary_name_is_shown() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere").join("x.csv");
    let output = compute_to(&missing, &[]);
    let walnut = grundy()
        .args(["check", "nim", "--size", "4x4", "--p-set", "a == b", "--walnut"])
        .arg(dir.path().join("nowhere").join("w.txt"))
        .output()
        .unwrap();
    for output in [output, walnut] {
        assert!(!output.status.success());
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.trim_end().ends_with("nowhere does not exist") && !err.contains('@'), "{err}");
    }
    assert!(!dir.path().join("nowhere").exists());
}
