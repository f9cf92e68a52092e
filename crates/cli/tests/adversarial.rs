//! Issue 19's adversarial findings, one test each: every test here failed before its fix.

mod common;

use common::{grundy, stdout_of};
use std::process::Command;

/// `grundy ARGS… >&-`, through a shell that closes standard output before starting it.
fn with_stdout_closed(args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    Command::new("sh").arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(bin).args(args).output().unwrap()
}

/// A closed standard output is an error, before the work for `compute`: not a table thrown away
/// with exit code 0.
#[test]
fn a_closed_standard_output_is_refused() {
    for args in [
        &["compute", "kiki", "--size", "5x5"][..],
        &["compute", "kiki", "--size", "5x5", "--out", "-"],
        &["games"],
        &["show", "kiki"],
        &["value", "kiki", "3x3"],
    ] {
        let output = with_stdout_closed(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output is closed"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // `>/dev/null` is a choice, not a mistake.
    let quiet = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" games >/dev/null")
        .arg(assert_cmd::cargo::cargo_bin("grundy"))
        .output()
        .unwrap();
    assert!(quiet.status.success(), "{}", String::from_utf8_lossy(&quiet.stderr));
}

/// `grundy` alone prints the usage and the commands (and fails): not the one-line "about".
#[test]
fn no_arguments_print_the_usage() {
    let output = grundy().output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("Usage: grundy [OPTIONS] <COMMAND>"), "{stderr}");
    assert!(stderr.contains("compute") && stderr.contains("patterns"), "{stderr}");
}

/// A one-row board streams: a step back past the first row is no reach through whole columns.
#[test]
fn a_one_row_board_streams() {
    for game in ["kiki", "wythoff", "prime-steps"] {
        let plain = stdout_of(&["compute", game, "--size", "1x7"]);
        let streamed = stdout_of(&["compute", game, "--size", "1x7", "--stream"]);
        assert_eq!(streamed, plain, "{game}");
    }
}

/// An error line escapes control characters from the input and cuts what it echoes of a huge
/// field: one short line, whatever the input.
#[test]
fn error_lines_are_escaped_and_short() {
    let output =
        grundy().args(["compute", "chess\x1b[31mred\x07", "--size", "5"]).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!stderr.chars().any(|c| c.is_control() && c != '\n'), "{stderr:?}");
    assert!(stderr.contains("chess\\u{1b}[31mred\\u{7}"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge-cell.csv");
    std::fs::write(&huge, format!("n\\m,1,2\n1,0,{}\n2,1,2\n", "7x".repeat(2_500_000))).unwrap();
    for command in ["patterns", "plot", "check"] {
        let mut args = vec![command, huge.to_str().unwrap()];
        if command == "check" {
            args.extend(["--p-set", "n % 2 == 0"]);
        }
        if command == "plot" {
            args.extend(["--out", "never.png"]);
        }
        let output = grundy().current_dir(dir.path()).args(&args).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.len() < 1000, "{command}: {} bytes", stderr.len());
        assert!(stderr.contains("more characters)"), "{command}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command}");
    }
}

/// GRUNDY_MAX_MEMORY bounds every command as --max-memory does, and a malformed one is refused.
#[test]
fn the_memory_budget_comes_from_the_environment_too() {
    for args in [
        &["compute", "kiki", "--size", "3000x3000"][..],
        &["patterns", "kiki", "--size", "3000x3000"],
        &["check", "kiki", "--size", "3000x3000", "--p-set", "n % 2 == 1"],
        &["plot", "kiki", "--size", "3000x3000", "--out", "never.png"],
    ] {
        let output = grundy().env("GRUNDY_MAX_MEMORY", "2M").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("the memory budget set by --max-memory"), "{args:?}: {stderr}");
    }
    let output = grundy().env("GRUNDY_MAX_MEMORY", "lots").args(["games"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("GRUNDY_MAX_MEMORY: `lots` is not a size"), "{stderr}");
    // The option wins over the variable.
    let output = grundy()
        .env("GRUNDY_MAX_MEMORY", "2M")
        .args(["compute", "kiki", "--size", "30x30", "--max-memory", "1G"])
        .output()
        .unwrap();
    assert!(output.status.success());
}

/// `grundy args…` started in `dir`, its standard output piped.
fn spawn_in(dir: &std::path::Path, args: &[&str]) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Waits (up to a minute) until `path` exists.
fn wait_for(path: &std::path::Path) {
    let start = std::time::Instant::now();
    while !path.exists() {
        assert!(start.elapsed().as_secs() < 60, "{} never appeared", path.display());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A second run given a checkpoint that a running one uses is refused (before it computes
/// anything), and the first one's checkpoint survives it; a lock left by a killed run does not
/// stop the next one, which resumes and cleans up.
#[test]
fn a_checkpoint_in_use_is_refused_and_a_stale_lock_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let first_args =
        ["compute", "wythoff", "--size", "3000x3000", "--format", "summary", "--checkpoint", "ck"];
    let saving_often = [&first_args[..], &["--checkpoint-every", "0", "--quiet"]].concat();
    let first = spawn_in(dir.path(), &saving_often);
    wait_for(&dir.path().join("ck"));
    let second = grundy()
        .current_dir(dir.path())
        .args(["compute", "kiki", "--size", "300x300", "--format", "summary", "--checkpoint", "ck"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("checkpoint ck is in use by another run (process"), "{stderr}");
    assert!(second.stdout.is_empty());
    let first_out = first.wait_with_output().unwrap();
    assert!(first_out.status.success());
    let expected = String::from_utf8(first_out.stdout).unwrap();
    assert!(!dir.path().join("ck").exists() && !dir.path().join("ck.lock").exists());

    // Killed while it runs: its checkpoint and its lock file stay; the next run resumes.
    let mut killed = spawn_in(dir.path(), &saving_often);
    wait_for(&dir.path().join("ck"));
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert!(dir.path().join("ck.lock").exists());
    let again = grundy().current_dir(dir.path()).args(first_args).output().unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert!(stderr.contains("resuming from checkpoint ck"), "{stderr}");
    // The same sums (but the seconds).
    let sums = |line: &str| line.split(",\"seconds\"").next().unwrap().to_string();
    assert_eq!(sums(&String::from_utf8(again.stdout).unwrap()), sums(&expected));
    assert!(!dir.path().join("ck").exists() && !dir.path().join("ck.lock").exists());
}

/// A table read from CSV is held to the budget together with what the command's work on it
/// takes: `patterns` (its copies) is refused a table that `check` may read.
#[test]
fn tables_read_from_csv_count_the_work_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("kiki.csv");
    let grid = grid.to_str().unwrap();
    grundy().args(["compute", "kiki", "--size", "1000x1000", "--out", grid]).assert().success();
    let check = grundy()
        .args(["check", grid, "--p-set", "n % 2 == 1 && m % 2 == 1", "--max-memory", "13M"])
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let patterns = grundy().args(["patterns", grid, "--max-memory", "13M"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&patterns.stderr);
    assert_eq!(patterns.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the table is too large to read"), "{stderr}");
}

/// The temporary files of runs killed while writing (`kill -9`) are swept by the next write to
/// the same file; one whose process lives is not.
#[test]
fn stale_temporary_files_are_swept() {
    let dir = tempfile::tempdir().unwrap();
    let temporaries = || -> Vec<String> {
        names_in(dir.path()).into_iter().filter(|name| name.ends_with(".tmp")).collect()
    };
    let mut killed = spawn_in(
        dir.path(),
        &["compute", "wythoff", "--size", "12000x12000", "--out", "w.csv", "--quiet"],
    );
    let start = std::time::Instant::now();
    while temporaries().is_empty() {
        assert!(start.elapsed().as_secs() < 60, "no temporary file");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert_eq!(temporaries().len(), 1);
    let killed_name = temporaries().remove(0);
    let host = killed_name.split_once('@').unwrap().1.rsplit_once('-').unwrap().0.to_string();
    // A live writer's (this test's own process id), and a file from another host whose process
    // id names no process here: both are left alone.
    let live = format!(".w.csv.{}@{host}-abcdef.tmp", std::process::id());
    let elsewhere = format!(".w.csv.{}@{host}x-abcdef.tmp", killed.id());
    for name in [&live, &elsewhere] {
        std::fs::write(dir.path().join(name), "in use").unwrap();
    }
    grundy()
        .current_dir(dir.path())
        .args(["compute", "kiki", "--size", "5x5", "--out", "w.csv"])
        .assert()
        .success();
    let mut expected = vec![live, elsewhere];
    expected.sort();
    assert_eq!(temporaries(), expected);
}

/// Ctrl-C while a checkpointed run writes its table stops it at once (exit 130, no output, no
/// temporary or lock file), not once the write is done.
#[test]
fn a_signal_during_the_final_write_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let files = || names_in(dir.path());
    let mut run = spawn_in(
        dir.path(),
        &[
            "compute",
            "kiki",
            "--size",
            "8000x8000",
            "--checkpoint",
            "ck",
            "--out",
            "big.csv",
            "--quiet",
        ],
    );
    // The write has begun once the temporary output holds something.
    let start = std::time::Instant::now();
    loop {
        let writing = files().iter().any(|name| {
            name.ends_with(".tmp")
                && std::fs::metadata(dir.path().join(name)).is_ok_and(|meta| meta.len() > 0)
        });
        if writing {
            break;
        }
        assert!(start.elapsed().as_secs() < 60, "the write never began: {:?}", files());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: signalling a child of this test.
    unsafe { libc::kill(run.id() as i32, libc::SIGINT) };
    let signalled = std::time::Instant::now();
    let status = run.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(signalled.elapsed().as_millis() < 500, "stopped after {:?}", signalled.elapsed());
    assert_eq!(files(), Vec::<String>::new());
}

/// A claim whose `%` has a huge modulus is checked on the table and never "proved for every
/// board" from an overflowed period (issue 19's finding, fixed by issue 13's overflow-free
/// periods): true on kiki's table, not proved.
#[test]
fn a_huge_modulus_proves_nothing() {
    let claim = "n % 9223372028264841217 >= 0 && n % 2 == 1 && m % 2 == 1";
    let output =
        grundy().args(["check", "kiki", "--size", "20x20", "--p-set", claim]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("agrees on all 400 cells"), "{stdout}");
    assert!(stdout.contains("not proved for every board"), "{stdout}");
}

/// Issue 19: a signal that ends a run at once left the progress bar half drawn on the terminal,
/// with the shell's prompt after it on the same line. The bar's line is cleared first.
#[test]
fn a_signal_clears_the_progress_bar() {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let (mut leader, mut follower) = (0, 0);
    // SAFETY: openpty fills the two descriptors, which are owned by the files made from them.
    let opened = unsafe {
        libc::openpty(
            &mut leader,
            &mut follower,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "no pseudo-terminal");
    let (mut terminal, stderr) =
        unsafe { (std::fs::File::from_raw_fd(leader), std::fs::File::from_raw_fd(follower)) };
    let mut run = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["compute", "wythoff", "--size", "20000x20000", "--format", "summary"])
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    // The bar shows after a second of work; the run takes several.
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        // Ends with an error (EIO) once the run, the last holder of the terminal, has ended.
        while let Ok(n @ 1..) = terminal.read(&mut buffer) {
            seen.extend_from_slice(&buffer[..n]);
        }
        String::from_utf8_lossy(&seen).into_owned()
    });
    std::thread::sleep(std::time::Duration::from_millis(2500));
    // SAFETY: sends a signal to the child.
    unsafe { libc::kill(run.id() as i32, libc::SIGINT) };
    assert_eq!(run.wait().unwrap().code(), Some(130));
    let seen = reader.join().unwrap();
    assert!(seen.contains("cells/s"), "the bar was not drawn: {seen:?}");
    let last_line = seen.rsplit(['\r', '\n']).next().unwrap();
    assert!(
        last_line.trim_start_matches("\x1b[2K").is_empty(),
        "the terminal's last line is {last_line:?}"
    );
}
