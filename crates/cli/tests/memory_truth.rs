//! Issue 19: the memory check tells the truth. Each command runs on the largest table a budget
//! accepts, and its peak resident memory (from `wait4`) must stay within what the refusal of
//! the next size up announces for that table, plus 10 %. Where this process may make a memory
//! control group (root, cgroup v1 or v2), the run is also confined to one whose limit is that
//! bound, and must not be killed.
#![cfg(target_os = "linux")]

mod common;

use std::io::Write;
use std::process::Command;

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

/// Runs `args` at `size` under the budget, in `group` if given; its exit status and peak
/// resident bytes.
fn peak(args: &[&str], size: &str, group: Option<&Limited>) -> (bool, String, u64) {
    peak_of(&[args, &["--size", size]].concat(), group)
}

/// Runs `args` under the budget, in `group` if given; its exit status and peak resident bytes.
fn peak_of(args: &[&str], group: Option<&Limited>) -> (bool, String, u64) {
    peak_within(args, BUDGET, group)
}

/// Runs `args` under a budget of `budget` bytes, in `group` if given; its exit status and peak
/// resident bytes.
fn peak_within(args: &[&str], budget: u64, group: Option<&Limited>) -> (bool, String, u64) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(args).args(["--max-memory", &budget.to_string(), "--quiet"]);
    if let Some(group) = group {
        group.enter_on_exec(&mut command);
    }
    let (status, mut stderr, peak) = common::run_for_peak(&mut command);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    if libc::WIFSIGNALED(status) {
        stderr.push_str(&format!("(killed by signal {})", libc::WTERMSIG(status)));
    }
    (ok, stderr, peak)
}

/// A memory control group with a limit, made for one run and removed after it: cgroup v1's
/// memory controller, or cgroup v2 at the root of its hierarchy. `None` where this process may
/// not make one (not root, or no memory controller).
struct Limited {
    dir: std::path::PathBuf,
    /// `cgroup.procs` of the group, for the child to write itself into before it runs grundy.
    procs: std::ffi::CString,
}

impl Limited {
    fn new(limit: u64) -> Option<Limited> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "grundy-memory-truth-{}-{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        );
        let v1 = std::path::Path::new("/sys/fs/cgroup/memory");
        let v2 = std::path::Path::new("/sys/fs/cgroup");
        let (dir, limits) = if v1.join("memory.limit_in_bytes").exists() {
            (v1.join(name), ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"])
        } else if std::fs::read_to_string(v2.join("cgroup.subtree_control"))
            .is_ok_and(|controllers| controllers.split_whitespace().any(|c| c == "memory"))
        {
            (v2.join(name), ["memory.max", "memory.swap.max"])
        } else {
            return None;
        };
        std::fs::create_dir(&dir).ok()?;
        let group = Limited {
            procs: std::ffi::CString::new(dir.join("cgroup.procs").to_str()?).ok()?,
            dir,
        };
        // The limit on memory must hold; the one on swap (memory and swap in v1, swap alone in
        // v2: none) exists only where swap is accounted.
        std::fs::write(group.dir.join(limits[0]), limit.to_string()).ok()?;
        let swap = if limits[1] == "memory.swap.max" { 0 } else { limit };
        let _ = std::fs::write(group.dir.join(limits[1]), swap.to_string());
        Some(group)
    }

    /// Makes `command`'s process enter the group before it runs the program, so that all it
    /// allocates is charged to the group.
    fn enter_on_exec(&self, command: &mut Command) {
        use std::os::unix::process::CommandExt;
        let procs = self.procs.clone();
        // SAFETY: between fork and exec the closure only calls open, write and close, which
        // allocate nothing; "0" names the writing process.
        unsafe {
            command.pre_exec(move || {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY);
                if fd < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let written = libc::write(fd, b"0".as_ptr().cast(), 1);
                libc::close(fd);
                if written != 1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

impl Drop for Limited {
    fn drop(&mut self) {
        // The group is empty once its run has been reaped.
        let _ = std::fs::remove_dir(&self.dir);
    }
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

/// Over a minute: CI runs it in a step of its own, in release (`.ci/run`; locally
/// `cargo test --release -p grundy-cli --test memory_truth -- --ignored`).
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
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
        // Issue 28 saw `check --stream` grow past 265 MB under 48M.
        (&["check", "wythoff", "--stream", "--holds", "g >= 0"], Square),
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
        let bound = announced(args, &size);
        let group = Limited::new(bound + bound / 10);
        let (ok, stderr, peak) = peak(args, &size, group.as_ref());
        let confined = if group.is_some() { "in a group limited to it" } else { "no group" };
        assert!(
            ok,
            "{args:?} {size} was refused or failed under its budget ({confined}): {stderr}"
        );
        report.push(format!("{args:?} {size}: peak {peak} of {bound} announced ({confined})"));
        // In a group with half that limit, the run reads the group's limit and is refused.
        if let Some(half) = group.as_ref().and_then(|_| Limited::new(bound / 2)) {
            let (ok, stderr, _) = peak_of(&[args, &["--size", &size]].concat(), Some(&half));
            assert!(
                !ok && stderr.contains("is available: the memory left under this container's"),
                "{args:?} {size} in a group limited to {}: {stderr}",
                bound / 2
            );
        }
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
/// within the budget plus 10 % (and run in a group limited to that, where one can be made). The
/// read counts its cells, the record that holds a line, and the command's work per cell and per
/// line.
/// As [`commands_stay_within_what_they_announce`], a CI step of its own.
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
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
                peak_of(args, None)
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
            write(layout, low);
            let group = Limited::new(BUDGET + BUDGET / 10);
            let (ok, stderr, peak) = peak_of(args, group.as_ref());
            let confined = if group.is_some() { "in a group limited to it" } else { "no group" };
            assert!(ok, "{args:?} {layout} {low} ({confined}): {stderr}");
            report.push(format!(
                "{:?} {layout} {low}: peak {peak} of {BUDGET} ({confined})",
                args[0]
            ));
            assert!(
                peak <= BUDGET + BUDGET / 10,
                "{args:?} {layout} {low}: peak {peak} bytes, budget {BUDGET}\n{}",
                report.join("\n")
            );
        }
    }
    println!("{}", report.join("\n"));
}

/// Parquet tables read back (`plot`, `patterns`) stay within the budget: the reader counts its
/// cells in their width and one row group's coordinates, and checks the rows a group at a time.
/// The file is Wythoff's table (16-bit values), written by grundy, of the largest side the
/// budget accepts. As [`commands_stay_within_what_they_announce`], a CI step of its own.
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn tables_read_from_parquet_stay_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("table.parquet");
    let path = path.to_str().unwrap();
    let write = |n: u64| {
        let size = format!("{}x{}", n - 1, n - 1);
        let status = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["compute", "wythoff", "--size", &size, "--stream", "--quiet", "--out", path])
            .status()
            .unwrap();
        assert!(status.success());
    };
    let picture = dir.path().join("table.png");
    let picture = picture.to_str().unwrap();
    let commands: &[&[&str]] = &[&["plot", path, "--out", picture], &["patterns", path]];
    let mut report = Vec::new();
    for &args in commands {
        let (mut low, mut high) = (64u64, 16384u64);
        while high - low > low / 50 + 1 {
            let mid = (low + high) / 2;
            write(mid);
            if peak_of(args, None).0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        write(low);
        let group = Limited::new(BUDGET + BUDGET / 10);
        let (ok, stderr, peak) = peak_of(args, group.as_ref());
        let confined = if group.is_some() { "in a group limited to it" } else { "no group" };
        assert!(ok, "{args:?} {low}² ({confined}): {stderr}");
        report.push(format!("{:?} {low}²: peak {peak} of {BUDGET} ({confined})", args[0]));
        assert!(
            peak <= BUDGET + BUDGET / 10,
            "{args:?} {low}²: peak {peak} bytes, budget {BUDGET}\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}

/// The misère search remembers at most three quarters of the budget, counted per entry: a
/// question that needs more is refused, and the peak stays within the budget on the way.
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn the_misere_search_stays_within_the_budget() {
    let args = ["compute", "kayles", "--size", "70", "--misere", "--format", "summary"];
    let (ok, stderr, peak) = peak_of(&args, None);
    assert!(!ok && stderr.contains("the exact misère search needs more than"), "{stderr}");
    assert!(peak <= BUDGET, "peak {peak} bytes, budget {BUDGET}: {stderr}");
    println!("compute kayles --size 70 --misere: refused at peak {peak} of {BUDGET}");
}

/// Issue 59, item 7: `patterns` holds what its analysis, its law search and the naming of its
/// lines hold within what it announces. A 4000 × 4000 board half of whose cells are P (every
/// line named after hundreds of known games: the copies of those names peaked at 131 MiB of the
/// 79.2 announced) and kiki on a 4 000 000 × 1 board (the law check's rows: 864 MB of 745 MiB),
/// each run under exactly what it announces and confined to that plus 10 %.
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn item_7_patterns_stays_within_what_it_announces() {
    let dir = tempfile::tempdir().unwrap();
    let halfp = dir.path().join("halfp.toml");
    std::fs::write(
        &halfp,
        "name = \"halfp\"\ndescription = \"step left only: half the cells are P\"\n\
         axes = [{ name = \"n\", min = 0 }, { name = \"m\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1, 0]]\n",
    )
    .unwrap();
    let halfp = halfp.to_str().unwrap();
    let mut report = Vec::new();
    for (args, size) in [(["patterns", halfp], "4000x4000"), (["patterns", "kiki"], "4000000x1")] {
        let need = announced(&args, size);
        let group = Limited::new(need + need / 10);
        let run = [&args[..], &["--size", size]].concat();
        let (ok, stderr, peak) = peak_within(&run, need, group.as_ref());
        let confined = if group.is_some() { "in a control group" } else { "not confined" };
        report.push(format!("{args:?} {size}: peak {peak} of {need} announced ({confined})"));
        assert!(ok, "{args:?} {size}: {stderr}");
        assert!(
            peak <= need + need / 10,
            "{args:?} {size}: peak {peak} bytes, announced {need}\n{}",
            report.join("\n")
        );
    }
    println!("{}", report.join("\n"));
}
