//! Issue 19: the memory check tells the truth. Each command runs on the largest table a budget
//! accepts, and its peak resident memory (from `wait4`) must stay within what the refusal of
//! the next size up announces for that table, plus 10 %.
#![cfg(target_os = "linux")]

use std::io::Read;
use std::process::{Command, Stdio};

/// The budget: large enough that the program's own few megabytes (code, thread stacks) are
/// inside the 10 %.
const BUDGET: u64 = 160 << 20;

/// The bytes the memory check announces for `args` at `size` (from its refusal under a budget of
/// one byte).
fn announced(args: &[&str], size: &str) -> u64 {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .args(["--size", size, "--max-memory", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?} {size}: {stderr}");
    // "... needs 3.8 MiB (4000000 bytes), but only ..."
    stderr
        .split(" (")
        .find_map(|part| part.split_once(" bytes)").and_then(|(n, _)| n.parse().ok()))
        .unwrap_or_else(|| panic!("{args:?}: {stderr}"))
}

/// Runs `args` at `size` under the budget; its exit status and peak resident bytes.
// The child is reaped by `wait4`, which also gives its peak memory, not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak(args: &[&str], size: &str) -> (bool, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .args(["--size", size, "--max-memory", &BUDGET.to_string(), "--quiet"])
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

#[test]
fn commands_stay_within_what_they_announce() {
    let cases: &[&[&str]] = &[
        &["compute", "kiki", "--format", "summary"],
        &["compute", "wythoff", "--format", "summary"],
        &["compute", "nim", "--format", "npy", "--out", "/dev/null"],
        &["compute", "cutting", "--format", "summary"],
        &["compute", "wythoff", "--stream", "--format", "summary"],
        &["patterns", "kiki"],
        &["patterns", "wythoff"],
        &["check", "kiki", "--p-set", "n % 2 == 1 && m % 2 == 1"],
        &["plot", "wythoff", "--out", concat!(env!("CARGO_TARGET_TMPDIR"), "/memory-truth.png")],
    ];
    let mut report = Vec::new();
    for &args in cases {
        // The largest square board whose announced memory fits the budget.
        let (mut low, mut high) = (16u64, 1 << 20);
        while high - low > low / 50 + 1 {
            let mid = (low + high) / 2;
            if announced(args, &format!("{mid}x{mid}")) <= BUDGET {
                low = mid;
            } else {
                high = mid;
            }
        }
        let size = format!("{low}x{low}");
        let (ok, stderr, peak) = peak(args, &size);
        assert!(ok, "{args:?} {size} was refused or failed under its budget: {stderr}");
        let bound = announced(args, &size);
        report.push(format!("{args:?} {size}: peak {peak} of {bound} announced"));
        assert!(
            peak <= bound + bound / 10,
            "{args:?} {size}: peak {peak} bytes, announced {bound}\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}
