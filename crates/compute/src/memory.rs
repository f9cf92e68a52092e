//! What the machine can give: memory, checked before a table is allocated. Fills are checked
//! through [`crate::PreparedFill::check_memory`], which knows what each layout holds; the CLI and
//! the Python package refuse the same tables with the same words.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// What bounds the memory a run may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The machine's available memory (`MemAvailable` in `/proc/meminfo`).
    Machine,
    /// The memory limit of the control group the process runs in (a container, a batch job),
    /// less what the group uses.
    Container,
    /// A budget the user set: through [`set_budget`] (the front end says how, e.g. an option
    /// of its own), or `GRUNDY_MAX_MEMORY`.
    Budget {
        /// What set it, in the words of whoever set it.
        set_by: &'static str,
    },
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bound::Machine => "this machine's available memory",
            Bound::Container => "the memory left under this container's (cgroup's) limit",
            Bound::Budget { set_by } => return write!(f, "the memory budget set by {set_by}"),
        })
    }
}

/// The memory a run may take now, and what bounds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Available {
    /// Bytes.
    pub bytes: u64,
    /// Where the figure comes from.
    pub bound: Bound,
}

/// What a run holds of a table while it fills it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Held {
    /// The whole table.
    #[default]
    Table,
    /// The rows a streamed fill keeps and the line summaries.
    Streamed,
    /// One rank's part of a distributed fill.
    Rank,
    /// Results a run keeps while it computes more (a survey's finished members).
    Kept,
}

/// A table whose values would not fit in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The table's cells.
    pub cells: u128,
    /// Bytes per cell.
    pub cell_bytes: usize,
    /// Bytes the values need.
    pub needed: u128,
    /// The memory available now; `None` when the table is larger than this machine can address.
    pub available: Option<Available>,
    /// What the bytes are for.
    pub held: Held,
    /// Of `needed`, the bytes of the line summaries (the values seen on each row, column or
    /// diagonal that a sliding move reads), when they are most of it.
    pub lines: u128,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooLarge { cells, cell_bytes, needed, available, held, lines } = self;
        let (what, need) = match held {
            Held::Kept => ("the next results to keep have", "need"),
            _ => ("the table has", "needs"),
        };
        match available {
            None => write!(
                f,
                "{what} {cells} cells and {need} {needed} bytes, more than this machine can address"
            )?,
            Some(Available { bytes, bound }) => write!(
                f,
                "{what} {cells} cells of {cell_bytes} bytes and {need} {} ({needed} bytes), but \
                 only {} ({bytes} bytes) is available: {bound}",
                human_bytes(*needed),
                human_bytes(u128::from(*bytes)),
            )?,
        }
        if *lines * 2 > *needed {
            write!(
                f,
                ", {} of it for the values seen on each line that a sliding move reads (every line \
                 keeps a set as wide as the values, however few cells it has)",
                human_bytes(*lines)
            )?;
        }
        match held {
            Held::Table => Ok(()),
            Held::Streamed => f.write_str(" (streamed: the rows kept and the line summaries)"),
            Held::Rank => f.write_str(" (the part one rank holds)"),
            Held::Kept => f.write_str(" besides the results kept so far"),
        }
    }
}

impl std::error::Error for TooLarge {}

/// Refuses `needed` bytes for `cells` cells of `cell_bytes` each, of which the run holds `held`,
/// when they would not fit in the memory available now ([`available`]).
///
/// # Errors
/// The table, as [`TooLarge`] describes it.
pub fn check_bytes(
    cells: u128,
    cell_bytes: usize,
    needed: u128,
    held: Held,
) -> Result<(), TooLarge> {
    let too_large = |available| TooLarge { cells, cell_bytes, needed, available, held, lines: 0 };
    if needed > usize::MAX as u128 / 2 {
        return Err(too_large(None));
    }
    match available() {
        Some(available) if needed > u128::from(available.bytes) => Err(too_large(Some(available))),
        _ => Ok(()),
    }
}

/// The memory a table read from a file may take: what is available now (no bound where that
/// cannot be known).
pub fn read_budget() -> u64 {
    available().map_or(u64::MAX, |available| available.bytes)
}

/// The bytes the process keeps in [`Reservation`]s: a budget bounds them together with every
/// later table (the machine's and the container's figures see them already).
static RESERVED: AtomicU64 = AtomicU64::new(0);

/// Bytes a run keeps while it goes on computing (a survey's finished members), counted against
/// the budget of every later check until the reservation is dropped.
#[derive(Debug)]
pub struct Reservation {
    bytes: u64,
}

/// Reserves `bytes` for `cells` results of `cell_bytes` each that the run keeps, when they fit
/// in the memory available now.
///
/// # Errors
/// They do not fit, as [`TooLarge`] describes it.
pub fn reserve(cells: u128, cell_bytes: usize) -> Result<Reservation, TooLarge> {
    let bytes = cells.saturating_mul(cell_bytes as u128);
    check_bytes(cells, cell_bytes, bytes, Held::Kept)?;
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    RESERVED.fetch_add(bytes, Ordering::SeqCst);
    Ok(Reservation { bytes })
}

impl Drop for Reservation {
    fn drop(&mut self) {
        RESERVED.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

/// The budget set by [`set_budget`], in bytes, and what set it.
static BUDGET: Mutex<Option<(u64, &'static str)>> = Mutex::new(None);

/// Bounds what every later check allows to `bytes`; `set_by` says what set it, as refusals will
/// name it (the command line passes its option's name; a library names none).
pub fn set_budget(bytes: u64, set_by: &'static str) {
    *BUDGET.lock().unwrap_or_else(|e| e.into_inner()) = Some((bytes.max(1), set_by));
}

/// The budget [`set_budget`] set, in bytes, if one is set: what a command hands on to the
/// commands it runs.
pub fn budget() -> Option<u64> {
    BUDGET.lock().unwrap_or_else(|e| e.into_inner()).map(|(bytes, _)| bytes)
}

/// The environment variable that sets a memory budget, as `--max-memory` does.
pub const BUDGET_VARIABLE: &str = "GRUNDY_MAX_MEMORY";

/// Text that is not a size of memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// The text, trimmed.
    pub text: String,
    /// What is wrong with it.
    pub kind: SizeErrorKind,
    /// Where it came from: the environment variable that held it, if one did.
    pub variable: Option<&'static str>,
}

/// What is wrong with a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeErrorKind {
    /// The unit after the number is not K, M, G or T (with or without B or iB).
    Unit,
    /// There is no number before the unit.
    Number,
    /// Zero, or more than 16 EiB.
    Range,
    /// Not even text (an environment variable that is not UTF-8).
    NotText,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(variable) = self.variable {
            if self.kind == SizeErrorKind::NotText {
                return write!(f, "{variable} is not a size (not even text)");
            }
            write!(f, "{variable}: ")?;
        }
        let text = &self.text;
        match self.kind {
            SizeErrorKind::Unit => {
                write!(f, "`{text}` is not a size such as 512M or 2G (unknown unit)")
            }
            SizeErrorKind::Number | SizeErrorKind::NotText => {
                write!(f, "`{text}` is not a size such as 512M or 2G")
            }
            SizeErrorKind::Range => write!(f, "`{text}` is not a size between one byte and 16 EiB"),
        }
    }
}

impl std::error::Error for SizeError {}

/// The budget `GRUNDY_MAX_MEMORY` sets, if any.
///
/// # Errors
/// The variable is set to something that is not a size.
pub fn budget_from_env() -> Result<Option<u64>, SizeError> {
    let in_variable = |err: SizeError| SizeError { variable: Some(BUDGET_VARIABLE), ..err };
    match std::env::var(BUDGET_VARIABLE) {
        Ok(text) => parse_bytes(&text).map(Some).map_err(in_variable),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(in_variable(SizeError {
            text: String::new(),
            kind: SizeErrorKind::NotText,
            variable: None,
        })),
    }
}

/// A size such as `1500000`, `512M`, `2G`, `1.5GiB` or `800MB` (K, M, G, T: powers of 1024,
/// with or without `B` or `iB`).
///
/// # Errors
/// The text is not such a size, or is zero.
pub fn parse_bytes(text: &str) -> Result<u64, SizeError> {
    let trimmed = text.trim();
    let refuse = |kind| SizeError { text: trimmed.to_string(), kind, variable: None };
    let split = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(refuse(SizeErrorKind::Unit)),
    };
    let value: f64 = number.parse().map_err(|_| refuse(SizeErrorKind::Number))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(refuse(SizeErrorKind::Range));
    }
    Ok(bytes as u64)
}

/// The memory a run may take now: the least of this machine's available memory, what is left
/// under the control group's limit, and the user's budget; `None` where none can be known.
pub fn available() -> Option<Available> {
    let set = *BUDGET.lock().unwrap_or_else(|e| e.into_inner());
    let (budget, set_by) = match set {
        Some((bytes, set_by)) => (Some(bytes), set_by),
        None => (budget_from_env().ok().flatten(), BUDGET_VARIABLE),
    };
    let budget = budget.map(|bytes| bytes.saturating_sub(RESERVED.load(Ordering::SeqCst)));
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let container =
        match (read(Path::new("/proc/self/mountinfo")), read(Path::new("/proc/self/cgroup"))) {
            (Some(mounts), Some(groups)) => cgroup_available(&mounts, &groups, read),
            _ => None,
        };
    let sources = [
        (available_bytes(), Bound::Machine),
        (container, Bound::Container),
        (budget, Bound::Budget { set_by }),
    ];
    sources
        .into_iter()
        .filter_map(|(bytes, bound)| Some(Available { bytes: bytes?, bound }))
        .min_by_key(|available| available.bytes)
}

/// `MemAvailable` from `/proc/meminfo`, or `None` where there is no such file.
fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What is left under the memory limits of the control groups this process is in and of their
/// ancestors (cgroup v2, and v1's memory controller), from `/proc/self/mountinfo` (`mounts`),
/// `/proc/self/cgroup` (`groups`) and the files `read` returns: the least over the groups of
/// limit − (usage − inactive file pages, which the kernel reclaims before it kills). `None`
/// when no group has a limit.
fn cgroup_available(
    mounts: &str,
    groups: &str,
    read: impl Fn(&Path) -> Option<String>,
) -> Option<u64> {
    let number =
        |dir: &Path, file: &str| -> Option<u64> { read(&dir.join(file))?.trim().parse().ok() };
    let stat = |dir: &Path, key: &str| -> u64 {
        read(&dir.join("memory.stat"))
            .and_then(|text| {
                text.lines().find_map(|line| {
                    let (name, value) = line.split_once(' ')?;
                    (name == key).then(|| value.trim().parse().ok()).flatten()
                })
            })
            .unwrap_or(0)
    };
    let mut least: Option<u64> = None;
    for line in groups.lines() {
        // `ID:CONTROLLERS:PATH`: v2's is `0::PATH`, v1's memory controller lists `memory`.
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let v2 = controllers.is_empty();
        if !v2 && !controllers.split(',').any(|c| c == "memory") {
            continue;
        }
        let Some((root, mount_point)) = cgroup_mount(mounts, v2) else { continue };
        // The group's directory under the mount (a namespaced mount's root is the group's own).
        let relative = path.strip_prefix(root.as_str()).unwrap_or(path).trim_start_matches('/');
        let mut dir = mount_point.join(relative);
        loop {
            let left = if v2 {
                let limit = number(&dir, "memory.max");
                let used = number(&dir, "memory.current");
                limit.zip(used).map(|(limit, used)| (limit, used, stat(&dir, "inactive_file")))
            } else {
                let limit = number(&dir, "memory.limit_in_bytes").filter(|&l| l < 1 << 60);
                let used = number(&dir, "memory.usage_in_bytes");
                limit
                    .zip(used)
                    .map(|(limit, used)| (limit, used, stat(&dir, "total_inactive_file")))
            };
            if let Some((limit, used, reclaimable)) = left {
                let free = limit.saturating_sub(used.saturating_sub(reclaimable));
                least = Some(least.map_or(free, |least| least.min(free)));
            }
            if dir == mount_point || !dir.pop() {
                break;
            }
        }
    }
    least
}

/// The root and mount point of the cgroup v2 hierarchy (`v2`) or of v1's memory controller, from
/// `/proc/self/mountinfo`.
fn cgroup_mount(mounts: &str, v2: bool) -> Option<(String, PathBuf)> {
    mounts.lines().find_map(|line| {
        // `ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [TAGS] - TYPE SOURCE SUPER-OPTIONS`
        let (before, after) = line.split_once(" - ")?;
        let fields: Vec<&str> = before.split(' ').collect();
        let mut after = after.split(' ');
        let kind = after.next()?;
        let options = after.nth(1).unwrap_or("");
        let wanted = if v2 {
            kind == "cgroup2"
        } else {
            kind == "cgroup" && options.split(',').any(|option| option == "memory")
        };
        (wanted && fields.len() >= 5).then(|| (fields[3].to_string(), PathBuf::from(fields[4])))
    })
}

fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
        let map: HashMap<PathBuf, String> =
            entries.iter().map(|(p, c)| (PathBuf::from(p), c.to_string())).collect();
        move |path: &Path| map.get(path).cloned()
    }

    const V1_MOUNTS: &str = "\
        30 25 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n\
        31 25 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";
    const V2_MOUNTS: &str = "29 24 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n";

    /// cgroup v1: the least over the group and its ancestors of limit − (usage − inactive
    /// files); "no limit" (a huge number) counts for nothing.
    #[test]
    fn version_1_limits_are_read_up_the_hierarchy() {
        let read = files(&[
            ("/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes", "1073741824\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.usage_in_bytes", "536870912\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.stat", "cache 1\ntotal_inactive_file 100\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "536870912\n"),
        ]);
        let groups = "4:memory:/jobs/a\n3:cpu:/\n";
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), Some(536_871_012));
        // An ancestor's tighter limit wins.
        let read = files(&[
            ("/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes", "1073741824\n"),
            ("/sys/fs/cgroup/memory/jobs/a/memory.usage_in_bytes", "0\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "1000\n"),
            ("/sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "400\n"),
        ]);
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), Some(600));
        // No limit anywhere.
        let read = files(&[(
            "/sys/fs/cgroup/memory/jobs/a/memory.limit_in_bytes",
            "9223372036854771712\n",
        )]);
        assert_eq!(cgroup_available(V1_MOUNTS, groups, &read), None);
    }

    /// cgroup v2, in a container whose namespace makes its group the root, and on a host.
    #[test]
    fn version_2_limits_are_read() {
        let read = files(&[
            ("/sys/fs/cgroup/memory.max", "1073741824\n"),
            ("/sys/fs/cgroup/memory.current", "73741824\n"),
            ("/sys/fs/cgroup/memory.stat", "anon 5\ninactive_file 1000\n"),
        ]);
        assert_eq!(cgroup_available(V2_MOUNTS, "0::/\n", &read), Some(1_000_001_000));
        let read = files(&[
            ("/sys/fs/cgroup/user.slice/job/memory.max", "max\n"),
            ("/sys/fs/cgroup/user.slice/job/memory.current", "5\n"),
            ("/sys/fs/cgroup/user.slice/memory.max", "2000\n"),
            ("/sys/fs/cgroup/user.slice/memory.current", "500\n"),
        ]);
        assert_eq!(cgroup_available(V2_MOUNTS, "0::/user.slice/job\n", &read), Some(1500));
        assert_eq!(cgroup_available("", "0::/\n", &read), None);
    }

    #[test]
    fn sizes_parse() {
        for (text, bytes) in [
            ("1500000", 1_500_000),
            ("512M", 512 << 20),
            ("2G", 2 << 30),
            ("1.5GiB", 3 << 29),
            ("800mb", 800 << 20),
            (" 4 K ", 4096),
        ] {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for text in ["", "G", "12Q", "-1G", "0", "1e3", "99999999999T"] {
            assert!(parse_bytes(text).is_err(), "{text}");
        }
    }
}
