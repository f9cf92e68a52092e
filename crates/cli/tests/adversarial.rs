//! Issue 19's adversarial findings, one test each: every test here failed before its fix.

use crate::common;

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

/// Ctrl-C while a checkpointed run writes its finished table stops the write within a buffer
/// and saves the table in the checkpoint, and says so (issue 28: the table was thrown away, and
/// the next run started from zero); the next run writes it without computing anything. No
/// temporary or lock file is left.
#[test]
fn a_signal_during_the_final_write_saves_the_finished_table() {
    let dir = tempfile::tempdir().unwrap();
    let files = || names_in(dir.path());
    let args = ["compute", "kiki", "--size", "8000x8000", "--checkpoint", "ck", "--out", "big.csv"];
    let run = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .current_dir(dir.path())
        .args(args)
        .arg("--quiet")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
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
    let output = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    // As long as a checkpoint save of the table takes, no more.
    assert!(signalled.elapsed().as_secs() < 10, "stopped after {:?}", signalled.elapsed());
    assert!(stderr.contains("saved") && stderr.contains("checkpoint ck"), "{stderr}");
    assert_eq!(files(), ["ck"]);
    let resumed = grundy().current_dir(dir.path()).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    // "resuming from checkpoint ck (N of N tile-waves done)": all of them.
    let counts = stderr.split_once('(').and_then(|(_, rest)| rest.split_once(" tile-waves"));
    let (done, total) = counts.and_then(|(counts, _)| counts.split_once(" of ")).unwrap();
    assert!(stderr.contains("resuming from checkpoint ck") && done == total, "{stderr}");
    assert_eq!(files(), ["big.csv"]);
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
    // The bar shows after a second of work; the run takes several. The signal goes once the bar
    // is on the terminal, however slowly a loaded machine starts the run.
    let (chunks, received) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        // Ends with an error (EIO) once the run, the last holder of the terminal, has ended.
        while let Ok(n @ 1..) = terminal.read(&mut buffer) {
            if chunks.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !String::from_utf8_lossy(&seen).contains("cells/s") {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match received.recv_timeout(left) {
            Ok(chunk) => seen.extend(chunk),
            Err(_) => break,
        }
    }
    // SAFETY: sends a signal to the child.
    unsafe { libc::kill(run.id() as i32, libc::SIGINT) };
    assert_eq!(run.wait().unwrap().code(), Some(130));
    seen.extend(received.iter().flatten());
    reader.join().unwrap();
    let seen = String::from_utf8_lossy(&seen).into_owned();
    assert!(seen.contains("cells/s"), "the bar was not drawn: {seen:?}");
    let last_line = seen.rsplit(['\r', '\n']).next().unwrap();
    assert!(
        last_line.trim_start_matches("\x1b[2K").is_empty(),
        "the terminal's last line is {last_line:?}"
    );
}

// Issue 28: trust at the edges. Every test below failed before its fix.

/// Runs `grundy args…` with standard output on `/dev/null` opened for reading and writing, as
/// Python's `subprocess.DEVNULL` and other runners open it.
fn with_stdout_on_dev_null_read_write(args: &[&str]) -> std::process::Output {
    let null = std::fs::OpenOptions::new().read(true).write(true).open("/dev/null").unwrap();
    Command::new(assert_cmd::cargo::cargo_bin("grundy")).args(args).stdout(null).output().unwrap()
}

/// Scripted runs: a standard output on `/dev/null` is a choice however it was opened; only a
/// closed one is refused.
#[cfg(target_os = "linux")]
#[test]
fn a_dev_null_opened_for_reading_and_writing_is_no_closed_output() {
    for args in [
        &["compute", "kiki", "--size", "5x5", "--format", "summary"][..],
        &["value", "kayles", "10"],
        &["patterns", "kayles", "--size", "100"],
        &["check", "kiki", "--size", "9x9", "--p-set", "n % 2 == 1 && m % 2 == 1"],
        &["survey", "octal:0.?", "--size", "50", "--quiet"],
    ] {
        let output = with_stdout_on_dev_null_read_write(args);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
    // Closed at start, still refused (`>&-`, tested above), and a closed pipe is no failure.
    let output = with_stdout_closed(&["value", "kayles", "10"]);
    assert_eq!(output.status.code(), Some(2));
    let piped = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" compute kiki --size 2000x2000 | head -c 10 >/dev/null")
        .arg(assert_cmd::cargo::cargo_bin("grundy"))
        .output()
        .unwrap();
    assert!(piped.status.success() && piped.stderr.is_empty(), "{piped:?}");
}

/// A link where a checkpoint's lock goes is refused, and the file it names is untouched.
#[cfg(unix)]
#[test]
fn a_link_at_a_checkpoints_lock_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let ckpt = dir.path().join("w.ckpt");
    std::os::unix::fs::symlink(&victim, dir.path().join("w.ckpt.lock")).unwrap();
    let output = grundy()
        .args(["compute", "wythoff", "--size", "20x20", "--format", "summary", "--checkpoint"])
        .arg(&ckpt)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("symbolic link") && stderr.lines().count() == 1, "{stderr}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// Links where a survey's partial file goes, dangling or not, are refused: no rows appended to
/// the file they name, no stray file made where they point.
#[cfg(unix)]
#[test]
fn a_link_at_a_surveys_partial_file_is_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("s.csv");
    let partial = dir.path().join("s.csv.partial");
    let dangling = elsewhere.path().join("victim.partial");
    for (target, resume) in [(&victim, false), (&victim, true), (&dangling, false)] {
        let _ = std::fs::remove_file(&partial);
        std::os::unix::fs::symlink(target, &partial).unwrap();
        let mut args = vec!["survey", "octal:0.?", "--size", "50", "--quiet", "--out"];
        args.push(out.to_str().unwrap());
        if resume {
            args.push("--resume");
        }
        let output = grundy().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("symbolic link") && stderr.lines().count() == 1, "{stderr}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!dangling.exists() && !out.exists());
    }
}

/// Derived names fit: a checkpoint or a survey output whose own name is valid is not refused
/// because `.lock` or `.partial` would make it too long.
#[test]
fn long_names_get_derived_files_that_fit() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c".repeat(253));
    let out = dir.path().join("o".repeat(250));
    grundy()
        .args(["compute", "wythoff", "--size", "30x30", "--format", "summary", "--checkpoint"])
        .arg(&ckpt)
        .assert()
        .success();
    grundy()
        .args(["survey", "octal:0.?", "--size", "50", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert!(out.exists());
    // Nothing is left beside them.
    let left: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

fn survey_to(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    grundy()
        .args(["survey", "octal:0.??", "--quiet", "--threads", "1", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// A partial file written with one setting is not gone on from with another, and a file that is
/// no survey's partial file is refused.
#[test]
fn a_partial_survey_resumes_only_with_its_own_settings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let partial = dir.path().join("s.csv.partial");
    let header = |size: u32, until: &str| {
        format!(
            "{{\"survey\":\"octal:0.??\",\"extent\":{{\"size\":{size},\"until_proved\":{until}}},\
             \"members\":90,\"rules\":\"00000000\"}}\n"
        )
    };
    for (text, expected) in [
        (header(3000, "1048576"), "until proved"),
        (header(6000, "null"), "up to 6000"),
        ("not json at all\n".to_string(), "not a survey's partial file"),
        (header(4095, "null"), "rules have changed"),
    ] {
        std::fs::write(&partial, &text).unwrap();
        let output = survey_to(&out, &["--resume"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(expected) && stderr.lines().count() == 1, "{expected}: {stderr}");
        assert!(!out.exists());
    }
}

/// Packed values that inflate past what a member can hold, and a partial file that is a
/// device, are refused without being read into memory.
#[cfg(unix)]
#[test]
fn a_partial_file_is_read_within_bounds() {
    use base64::Engine as _;
    use grundy_catalog::survey::{partial_header, partial_line, survey_member, Extent, Family};
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let partial = dir.path().join("s.csv.partial");
    let family = Family::parse("octal:0.?").unwrap();
    let extent = Extent { size: 50, until_proved: None, seconds: None, search_seconds: None };
    // A true row of 0.1, its 51 values replaced by 32 MiB of zeros, deflated to 32 KiB; then by
    // a gigabyte, deflated to a megabyte: a line longer than any row of this survey.
    let row = partial_line(
        &survey_member(
            &Default::default(),
            &family.members[0],
            extent,
            &grundy_compute::NoProgress,
        )
        .unwrap(),
    )
    .unwrap();
    let args = ["survey", "octal:0.?", "--size", "50", "--quiet", "--resume", "--out"];
    for (mebibytes, expected) in [(32, "more than the 51 values"), (1024, "is longer than a row")] {
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..mebibytes {
            encoder.write_all(&zeros).unwrap();
        }
        let bomb = base64::engine::general_purpose::STANDARD.encode(encoder.finish().unwrap());
        let mut value: serde_json::Value = serde_json::from_str(&row).unwrap();
        value["values"] = serde_json::Value::String(format!("1:{bomb}"));
        let text = partial_header(&family, extent).unwrap() + &value.to_string() + "\n";
        std::fs::write(&partial, text).unwrap();
        let output = grundy().args(args).arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected) && stderr.lines().count() == 1, "{stderr}");
    }
    // A device: refused, not read.
    std::fs::remove_file(&partial).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &partial).unwrap();
    let output = grundy().args(args).arg(&out).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    // The true row is taken.
    std::fs::remove_file(&partial).unwrap();
    std::fs::write(&partial, partial_header(&family, extent).unwrap() + &row).unwrap();
    grundy().args(args).arg(&out).assert().success();
    assert!(!partial.exists() && out.exists());
}

/// A template whose members share one name is refused in one line (it panicked).
#[test]
fn a_template_with_one_name_for_every_member_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("t.toml");
    std::fs::write(
        &spec,
        "name = \"same\"\naxes = [{ name = \"n\", min = 0 }]\n\n[parameters]\nk = \"1..=3\"\n\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = \"1..={k}\"\n",
    )
    .unwrap();
    let output = grundy().args(["survey", "--size", "30"]).arg(&spec).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("[k=1] and [k=2] are both named `same`"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Two surveys on one output: the second is refused while the first runs (it failed at the
/// end with "cannot delete k.csv.partial").
#[cfg(unix)]
#[test]
fn a_second_survey_on_one_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k.csv");
    let lock = dir.path().join("k.csv.lock");
    let mut first = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(["survey", "octal:0.???", "--until-proved", "--quiet", "--threads", "1", "--out"])
        .arg(&out)
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !lock.exists() && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let second = survey_to(&out, &["--resume"]);
    first.kill().unwrap();
    first.wait().unwrap();
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("survey output") && stderr.contains("in use by another run"),
        "{stderr}"
    );
}

/// A survey's finished members count against the memory budget (issue 28: 8 members kept
/// 444 MB under a budget of 64 MB): ten members of 3·10^6 values each do not fit in 40 MiB
/// together, although each one's table does.
#[test]
fn a_survey_keeps_its_members_within_the_budget() {
    let args = ["survey", "subtraction:2-of-5", "--size", "3000000", "--quiet", "--threads", "1"];
    let output = grundy().args(["--max-memory", "40M"]).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("memory budget") && stderr.lines().count() == 1, "{stderr}");
    grundy().args(["--max-memory", "2G"]).args(args).assert().success();
}

/// A sum of 10^4 terms of one game is answered with one proof, not one per term (issue 28: 11.9
/// s); its value is the XOR of the terms'.
#[test]
fn many_terms_of_one_game_share_one_proof() {
    let mut args = vec!["value".to_string()];
    // Kayles: its first values, then period 12 from 71 (4 1 2 8 1 4 7 2 1 8 2 7 by n % 12).
    let kayles = [0u32, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6];
    for n in 0..10_000u32 {
        if n > 0 {
            args.push("+".into());
        }
        args.extend(["kayles".to_string(), n.to_string()]);
    }
    let output = grundy().args(&args).arg("--json").output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["laws"].as_array().unwrap().len(), 1, "one proof for every term");
    assert_eq!(report["components"].as_array().unwrap().len(), 10_000);
    // The terms whose values this test knows (all but 12..71) agree with it.
    let values: Vec<u64> = report["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_u64().unwrap())
        .collect();
    for (n, &value) in values.iter().enumerate() {
        let known = if n < 12 {
            Some(kayles[n])
        } else if n >= 71 {
            Some([4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7][n % 12])
        } else {
            None
        };
        if let Some(known) = known {
            assert_eq!(value, u64::from(known), "kayles {n}");
        }
    }
    let sum = values.iter().fold(0, |sum, v| sum ^ v);
    assert_eq!(report["value"].as_u64(), Some(sum));
}

/// The largest position the parser accepts, 2^63 − 1, is answered from the proved period, as
/// 2^63 − 2 is (it was refused with a false reason, and a debug build overflowed).
#[test]
fn the_largest_heap_the_parser_accepts_is_answered() {
    // 2^63 − 1 is 7 mod 12 and 2^63 − 2 is 6: Kayles' periodic values there are 2 and 7; Dawson's
    // Kayles (period 34 from 53): 2^63 − 1 is 9 mod 34, as 77 is.
    let out = stdout_of(&["value", "kayles", "9223372036854775807", "9223372036854775806"]);
    assert!(out.starts_with("9223372036854775807: 2\n9223372036854775806: 7\n"), "{out}");
    let far = stdout_of(&["value", "dawsons-kayles", "9223372036854775807"]);
    let near = stdout_of(&["value", "dawsons-kayles", "77"]);
    assert_eq!(
        far.lines().next().unwrap().split(": ").nth(1),
        near.lines().next().unwrap().split(": ").nth(1)
    );
}

/// Paper cuts of `value`, specs and clap's errors: each message names the real problem.
#[test]
fn messages_name_the_real_problem() {
    let dir = tempfile::tempdir().unwrap();
    let escaped = dir.path().join("esc.toml");
    std::fs::write(&escaped, "name = \"a\\u001b[31mred\"\naxes = [{ name = \"n\", min = 0 }]\n[[rules]]\nkind = \"step\"\ndirections = [[-1]]\n").unwrap();
    let usage = dir.path().join("usage.toml");
    std::fs::write(
        &usage,
        "name = \"u\"\naxes = [{ name = \"n\", min = 0 }]\n[[rules]]\nkind = \"a\\nUsage: b\"\n",
    )
    .unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["value".into(), "kayles".into(), "^5".into()], "malformed position `^5`"),
        (
            vec!["patterns".into(), escaped.to_str().unwrap().into(), "--size".into(), "10".into()],
            "holds control characters",
        ),
        (
            vec!["patterns".into(), usage.to_str().unwrap().into(), "--size".into(), "10".into()],
            "unknown rule kind `a\\nUsage: b`",
        ),
        (
            vec![
                "check".into(),
                "kiki".into(),
                "--size".into(),
                "5x5".into(),
                "--p-when".into(),
                "n".into(),
            ],
            "usage: grundy check",
        ),
        (
            vec![
                "check",
                "kiki",
                "--size",
                "20x20",
                "--p-set",
                "n % 2 == 1 && m % 2 == 1",
                "--period",
                "1x1",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "not a multiple of 2x2",
        ),
    ];
    for (args, expected) in cases {
        let output = grundy().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected) && stderr.lines().count() == 1, "{args:?}: {stderr}");
        assert!(!stderr.contains('\u{1b}') && output.stdout.is_empty(), "{args:?}: {stderr}");
    }
}

/// `--out /proc/self/fd/0` on a pipe's read end would write into the pipe this run reads: it is
/// refused (it exited 0 and the table was lost).
#[cfg(target_os = "linux")]
#[test]
fn standard_input_is_no_output() {
    let output = grundy()
        .args(["compute", "kiki", "--size", "5x5", "--out", "/proc/self/fd/0"])
        .write_stdin("anything")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("it is standard input"), "{stderr}");
}

fn spec_file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// A slide of at most one cell is as bounded as a jump of one: its strips repeat (`value` answers
/// a far position at once) and its claims are proved; it was read as unbounded.
#[test]
fn a_slide_with_a_max_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let axes = "axes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n";
    let slide = spec_file(
        dir.path(),
        "s1.toml",
        &format!("name = \"s1\"\n{axes}[[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1]]\nmax = 1\n"),
    );
    let jump = spec_file(
        dir.path(),
        "j1.toml",
        &format!("name = \"j1\"\n{axes}[[rules]]\nkind = \"jump\"\ndirections = [[-1, 0], [0, -1]]\nsteps = [1]\n"),
    );
    for position in ["1000000000x2", "999999999x3"] {
        let slid = stdout_of(&["value", &slide, position]);
        let jumped = stdout_of(&["value", &jump, position]);
        assert_eq!(slid.lines().next(), jumped.lines().next(), "{position}");
        assert!(slid.contains("the strip repeats"), "{slid}");
    }
    let checked = stdout_of(&["check", &slide, "--size", "30x30", "--p-set", "(n + m) % 2 == 0"]);
    assert!(checked.contains("proved for every board"), "{checked}");
}

/// `all-but` takes a range as `steps` does; a code with a space is named as such.
#[test]
fn all_but_ranges_and_codes_with_a_space() {
    let dir = tempfile::tempdir().unwrap();
    let heap =
        "axes = [{ name = \"n\", min = 0 }]\n[[rules]]\nkind = \"jump\"\ndirections = [[-1]]\n";
    let ranged = spec_file(
        dir.path(),
        "r.toml",
        &format!("name = \"r\"\n{heap}steps = \"1..=8\"\nall-but = \"3..=5\"\n"),
    );
    let listed =
        spec_file(dir.path(), "l.toml", &format!("name = \"l\"\n{heap}steps = [1, 2, 6, 7, 8]\n"));
    let values = |spec: &str| stdout_of(&["compute", spec, "--size", "60", "--format", "bfile"]);
    assert_eq!(values(&ranged), values(&listed));
    let output = grundy().args(["value", "octal: 0.7", "5"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("holds a space"), "{stderr}");
}

/// A b-file (the project ships data/kayles-10000.b) is read as a table by patterns and check;
/// it was parsed as a spec.
#[test]
fn b_files_are_tables() {
    let dir = tempfile::tempdir().unwrap();
    let bfile = dir.path().join("k.b");
    let written = stdout_of(&["compute", "kayles", "--size", "2000", "--format", "bfile"]);
    std::fs::write(&bfile, &written).unwrap();
    let bfile = bfile.to_str().unwrap();
    let patterns = stdout_of(&["patterns", bfile]);
    assert!(patterns.contains("period 12, preperiod 71"), "{patterns}");
    let output = grundy().args(["check", bfile, "--values", "n % 2"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "the claim is false: exit 1, not a spec error");
    std::fs::write(dir.path().join("bad.b"), "0 0\n2 1\n").unwrap();
    let output = grundy().arg("patterns").arg(dir.path().join("bad.b")).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("line 2: n is 2, but 1 comes next"), "{stderr}");
}

/// `--max-memory` belongs to the commands that hold a table (and to `grundy` before one), not to
/// `games` and `show`; survey's help lists the families where it says so.
#[test]
fn help_says_what_each_command_takes() {
    for (command, has) in
        [("games", false), ("show", false), ("compute", true), ("survey", true), ("check", true)]
    {
        let help = stdout_of(&[command, "--help"]);
        assert_eq!(help.contains("--max-memory"), has, "{command}");
    }
    let survey = stdout_of(&["survey", "--help"]);
    assert!(!survey.contains("see above") && survey.contains("subtraction:3-of-12"), "{survey}");
    for args in [&["--max-memory", "512K", "compute"][..], &["compute", "--max-memory", "512K"]] {
        let output = grundy()
            .args(args)
            .args(["kiki", "--size", "1000x1000", "--format", "summary"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("memory budget"), "{stderr}");
    }
}

/// A thin board's refusal says that the figure is the line summaries, and names --stream.
#[test]
fn a_thin_boards_refusal_names_what_it_holds() {
    let output = grundy()
        .args([
            "compute",
            "nim",
            "--size",
            "200000x100",
            "--format",
            "summary",
            "--max-memory",
            "1G",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("for the values seen on each line") && stderr.contains("--stream"),
        "{stderr}"
    );
    let streamed = stdout_of(&[
        "compute",
        "nim",
        "--size",
        "200000x100",
        "--format",
        "summary",
        "--max-memory",
        "1G",
        "--stream",
    ]);
    assert!(streamed.contains("\"cells\":20200101"), "{streamed}");
    // `value` has no --stream: it names the command that has one.
    let output =
        grundy().args(["value", "nim", "200000x100", "--max-memory", "1G"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`grundy compute nim --size 200000x100 --stream`"), "{stderr}");
}

/// A checkpoint's lock deleted by hand while its run goes on: a second run takes the
/// checkpoint, and the first stops at its next save saying why, instead of racing it.
#[cfg(unix)]
#[test]
fn a_lock_deleted_by_hand_is_noticed() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "compute",
        "wythoff",
        "--size",
        "12000x12000",
        "--format",
        "summary",
        "--checkpoint",
        "w.ckpt",
        "--checkpoint-every",
        "1",
        "--quiet",
    ];
    let first = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .current_dir(dir.path())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&dir.path().join("w.ckpt.lock"));
    std::fs::remove_file(dir.path().join("w.ckpt.lock")).unwrap();
    let second = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .current_dir(dir.path())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let first = first.wait_with_output().unwrap();
    let second = second.wait_with_output().unwrap();
    let (first_err, second_err) =
        (String::from_utf8_lossy(&first.stderr), String::from_utf8_lossy(&second.stderr));
    // Exactly one of them runs on. Mostly the second takes the checkpoint and the first, at its
    // next save, finds its lock gone and stops; if the first saved (and took its lock again)
    // before the second started, the second is refused at once.
    let stopped = [(&first, &first_err), (&second, &second_err)]
        .into_iter()
        .filter(|(output, _)| !output.status.success())
        .collect::<Vec<_>>();
    assert_eq!(stopped.len(), 1, "{first_err} / {second_err}");
    let (output, stderr) = stopped[0];
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("in use by another run"), "{stderr}");
    if !first.status.success() {
        assert!(stderr.contains("was deleted during this run"), "{stderr}");
    }
    assert!(first.status.success() || second.status.success(), "{first_err} / {second_err}");
}
