//! Issue 19: the memory check tells the truth. Each command runs on the largest table a budget
//! accepts, and its peak resident memory (from `wait4`) must stay within what the refusal of
//! the next size up announces for that table, plus 10 %.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
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
fn peak(args: &[&str], size: &str) -> (bool, String, u64) {
    peak_of(&[args, &["--size", size]].concat())
}

/// Runs `args` under the budget; its exit status and peak resident bytes.
// The child is reaped by `wait4`, which also gives its peak memory, not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_of(args: &[&str]) -> (bool, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .args(["--max-memory", &BUDGET.to_string(), "--quiet"])
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

/// A square board of side `n`, or a single row of `n` cells: the two ends of the trade between
/// cells and lines (rows, columns, diagonals), which `patterns` keeps a record of.
#[derive(Clone, Copy, Debug)]
enum Board {
    Square,
    Row,
}

impl Board {
    fn size(self, n: u64) -> String {
        match self {
            Board::Square => format!("{n}x{n}"),
            Board::Row => format!("1x{n}"),
        }
    }
}

#[test]
fn commands_stay_within_what_they_announce() {
    use Board::{Row, Square};
    let cases: &[(&[&str], Board)] = &[
        (&["compute", "kiki", "--format", "summary"], Square),
        (&["compute", "wythoff", "--format", "summary"], Square),
        (&["compute", "nim", "--format", "npy", "--out", "/dev/null"], Square),
        (&["compute", "cutting", "--format", "summary"], Square),
        (&["compute", "wythoff", "--stream", "--format", "summary"], Square),
        (&["patterns", "kiki"], Square),
        (&["patterns", "wythoff", "--json"], Square),
        // 1 × 3·10^6 took 735 MB in its line records (5.7 GB as JSON) past a check of 21 MB.
        (&["patterns", "kiki"], Row),
        (&["patterns", "kiki", "--json"], Row),
        (&["check", "kiki", "--p-set", "n % 2 == 1 && m % 2 == 1"], Square),
        (
            &[
                "plot",
                "wythoff",
                "--out",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/memory-truth.png"),
            ],
            Square,
        ),
    ];
    let mut report = Vec::new();
    for &(args, board) in cases {
        // The largest board whose announced memory fits the budget.
        let (mut low, mut high) = (16u64, 1 << 30);
        while high - low > low / 50 + 1 {
            let mid = (low + high) / 2;
            if announced(args, &board.size(mid)) <= BUDGET {
                low = mid;
            } else {
                high = mid;
            }
        }
        let size = board.size(low);
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

/// A table read from CSV: the largest that the budget lets each command read, as a grid of one
/// row (its header as long as the row), a square grid, and a long table of one row, must stay
/// within the budget plus 10 %. The read counts its cells, the record that holds a line, and the
/// command's work per cell and per line.
#[test]
fn tables_read_from_csv_stay_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.csv");
    let path = path.to_str().unwrap();
    // Written as it is made: a child's peak memory counts its parent's at the spawn (the child
    // shares it until it runs the program), so this process must stay small.
    let write = |layout: &str, n: u64| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let header = |out: &mut dyn Write| {
            write!(out, "n\\m").unwrap();
            (0..n).for_each(|c| write!(out, ",{c}").unwrap());
            writeln!(out).unwrap();
        };
        let row = |out: &mut dyn Write, r: u64, value: u32| {
            write!(out, "{r}").unwrap();
            (0..n).for_each(|_| write!(out, ",{value}").unwrap());
            writeln!(out).unwrap();
        };
        match layout {
            "row" => {
                header(&mut out);
                row(&mut out, 0, 1);
            }
            "square" => {
                header(&mut out);
                (0..n).for_each(|r| row(&mut out, r, 3));
            }
            _ => {
                writeln!(out, "n,m,g").unwrap();
                (0..n).for_each(|m| writeln!(out, "0,{m},2").unwrap());
            }
        }
        out.flush().unwrap();
    };
    let commands: &[&[&str]] = &[&["check", path, "--p-set", "n < 0"], &["patterns", path]];
    let mut report = Vec::new();
    for &args in commands {
        for layout in ["row", "square", "long"] {
            let accepted = |n: u64| {
                write(layout, n);
                peak_of(args)
            };
            let (mut low, mut high) = (16u64, if layout == "square" { 8192 } else { 1 << 24 });
            while high - low > low / 50 + 1 {
                let mid = (low + high) / 2;
                if accepted(mid).0 {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            let (ok, stderr, peak) = accepted(low);
            assert!(ok, "{args:?} {layout} {low}: {stderr}");
            report.push(format!("{:?} {layout} {low}: peak {peak} of {BUDGET}", args[0]));
            assert!(
                peak <= BUDGET + BUDGET / 10,
                "{args:?} {layout} {low}: peak {peak} bytes, budget {BUDGET}\n{}",
                report.join("\n")
            );
        }
    }
    println!("{}", report.join("\n"));
}
