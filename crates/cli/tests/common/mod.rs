//! Helpers shared by the command-line tests.
#![allow(dead_code, unreachable_pub)]

use assert_cmd::Command;

/// The `grundy` binary of this workspace.
pub fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// Runs `grundy args…`, asserts success and returns standard output.
pub fn stdout_of(args: &[&str]) -> String {
    let output = grundy().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// Runs `grundy args…` to its end: whether it succeeded, its standard error and its peak
/// resident memory in bytes.
#[cfg(unix)]
pub fn peak_of(args: &[&str]) -> (bool, String, u64) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(args);
    let (status, stderr, peak) = run_for_peak(&mut command);
    (libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, stderr, peak)
}

/// Runs `command` to its end, its standard output dropped: its raw wait status, its standard
/// error and its peak resident memory in bytes (from `wait4`, which reaps it: the one `unsafe`
/// of the tests' memory measures).
#[cfg(unix)]
#[allow(clippy::zombie_processes)]
pub fn run_for_peak(command: &mut std::process::Command) -> (i32, String, u64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 reaps this child, which `child` never waits
    // for afterwards.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (status, stderr, usage.ru_maxrss as u64 * 1024)
}

/// The address `grundy view` prints as the first line of its (piped) standard output.
pub fn view_url(child: &mut std::process::Child) -> String {
    use std::io::{BufRead, BufReader};
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    line.split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string()
}

/// Stops `child` as Ctrl-C does (SIGINT) and waits for it.
#[cfg(unix)]
pub fn interrupt(child: &mut std::process::Child) -> std::process::ExitStatus {
    // SAFETY: a signal to our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    child.wait().unwrap()
}
