//! What the machine can give: memory, checked before a table is allocated. The CLI and the
//! Python package refuse the same tables with the same words.

use grundy_core::{CellWidth, TableShape};
use std::fmt;

/// A table whose values would not fit in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The table's cells.
    pub cells: u128,
    /// Bytes per cell.
    pub cell_bytes: usize,
    /// Bytes the values need.
    pub needed: u128,
    /// Bytes available now; `None` when the table is larger than this machine can address.
    pub available: Option<u64>,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooLarge { cells, cell_bytes, needed, available } = self;
        match available {
            None => write!(
                f,
                "the table has {cells} cells and needs {needed} bytes, more than this machine can \
                 address"
            ),
            Some(available) => write!(
                f,
                "the table has {cells} cells of {cell_bytes} bytes and needs {} ({needed} bytes), \
                 but only {} ({available} bytes) of memory is available",
                human_bytes(*needed),
                human_bytes(u128::from(*available)),
            ),
        }
    }
}

impl std::error::Error for TooLarge {}

/// Refuses a table whose values, in cells of `width`, would not fit in the memory available now.
pub fn check_table(shape: &TableShape, width: CellWidth) -> Result<(), TooLarge> {
    let needed = shape.value_bytes(width);
    let too_large =
        |available| TooLarge { cells: shape.cells(), cell_bytes: width.bytes(), needed, available };
    if needed > usize::MAX as u128 / 2 {
        return Err(too_large(None));
    }
    match available_bytes() {
        Some(available) if needed > u128::from(available) => Err(too_large(Some(available))),
        _ => Ok(()),
    }
}

/// The memory a table read from a file may take: what is available now (no bound where that
/// cannot be known).
pub fn read_budget() -> u64 {
    available_bytes().unwrap_or(u64::MAX)
}

/// `MemAvailable` from `/proc/meminfo`, or `None` where there is no such file.
pub fn available_bytes() -> Option<u64> {
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
