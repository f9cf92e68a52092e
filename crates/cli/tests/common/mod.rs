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
/// resident memory in bytes (from `wait4`, which reaps it).
#[cfg(unix)]
#[allow(clippy::zombie_processes)]
pub fn peak_of(args: &[&str]) -> (bool, String, u64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 reaps this child, which `child` never waits
    // for afterwards.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (ok, stderr, usage.ru_maxrss as u64 * 1024)
}
