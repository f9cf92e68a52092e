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
