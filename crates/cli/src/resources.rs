//! What the machine can give: memory, checked before a table is allocated.

use anyhow::{bail, Result};
use grundy_core::{CellWidth, TableShape};

/// Refuses a table whose values, in cells of `width`, would not fit in the memory available now.
pub(crate) fn check_memory(shape: &TableShape, width: CellWidth) -> Result<()> {
    let needed = shape.value_bytes(width);
    if needed > usize::MAX as u128 / 2 {
        bail!(
            "the table has {} cells and needs {needed} bytes, more than this machine can address",
            shape.cells()
        );
    }
    if let Some(available) = available_bytes() {
        if needed > available as u128 {
            bail!(
                "the table has {} cells of {} bytes and needs {} ({needed} bytes), but only {} ({available} bytes) of memory is available",
                shape.cells(),
                width.bytes(),
                human_bytes(needed),
                human_bytes(available as u128),
            );
        }
    }
    Ok(())
}

/// The memory a table read from a file may take: what is available now (no bound where that
/// cannot be known).
pub(crate) fn read_budget() -> u64 {
    available_bytes().unwrap_or(u64::MAX)
}

/// `MemAvailable` from `/proc/meminfo`, or `None` where there is no such file.
fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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
