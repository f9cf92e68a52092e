//! What the machine can give: memory, checked before anything large is allocated.
//!
//! A command's memory is a [`MemoryPool`] (DataFusion's model): its bound — the machine's
//! available memory, what is left under the container's limit, and the budget the user set, the
//! least of them — and the named [`Reservation`]s of what it keeps while it goes on (a survey's
//! finished members), which count against the budget. A check ([`MemoryPool::check`]) sizes a
//! [`Need`]: the table (or graph, or copy) it is about and what else is to be held at once, each
//! by name; a refusal ([`TooLarge`]) names them all, and the largest reservations held. Fills are
//! checked through [`crate::request::PreparedFill::check_memory`], which knows what each layout holds; the
//! CLI and the Python package refuse the same tables with the same words.

mod probe;
mod size;

pub use size::{budget_from_env, parse_bytes, SizeError, SizeErrorKind, BUDGET_VARIABLE};

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What bounds the memory a run may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The machine's available memory (`MemAvailable` in `/proc/meminfo`).
    Machine,
    /// The memory limit of the control group the process runs in (a container, a batch job),
    /// less what the group uses.
    Container,
    /// A budget the user set ([`MemoryPool::new`]; the front end says how, e.g. an option of
    /// its own, or `GRUNDY_MAX_MEMORY`).
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

/// A budget: the most bytes a command may take, and what set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes.
    pub bytes: u64,
    /// What set it, in the words of whoever set it (an option, an environment variable).
    pub set_by: &'static str,
}

/// What a check asks for: the cells it is about and their bytes, and what else is to be held
/// at once, each by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Need {
    /// What the cells are held for.
    pub held: Held,
    /// The cells.
    pub cells: u128,
    /// Bytes per cell.
    pub cell_bytes: usize,
    /// The bytes of the table (or graph, or copy), its cells and whatever it keeps per cell.
    pub bytes: u128,
    /// Of `bytes`, the line summaries (the values seen on each row, column or diagonal that a
    /// sliding move reads).
    pub lines: u128,
    /// What else the run holds at once, by name, largest first.
    pub besides: Vec<(String, u128)>,
}

impl Need {
    /// `cells` cells of `cell_bytes` bytes held as `held`, taking `bytes` in all.
    pub fn of(cells: u128, cell_bytes: usize, bytes: u128, held: Held) -> Need {
        Need { held, cells, cell_bytes, bytes, ..Need::default() }
    }

    /// This need with `bytes` more held at once for `name` (nothing when `bytes` is 0).
    pub fn besides(mut self, name: impl Into<String>, bytes: u128) -> Need {
        if bytes > 0 {
            self.besides.push((name.into(), bytes));
            self.besides.sort_by_key(|named| std::cmp::Reverse(named.1));
        }
        self
    }

    /// This need with every part of `besides` held at once.
    pub fn besides_all(self, besides: &Besides) -> Need {
        besides.parts().fold(self, |need, (name, bytes)| need.besides(name, bytes))
    }

    /// The bytes of everything the need names.
    pub fn total(&self) -> u128 {
        self.besides.iter().fold(self.bytes, |total, (_, bytes)| total.saturating_add(*bytes))
    }
}

/// What a run holds besides its table, by name: parts held at once with the table ([`Besides::and`]),
/// or parts held one after another, each freed before the next, of which only the largest counts
/// ([`Besides::one_after_another`]: a fill's watch for a proved period, then the analysis of its
/// table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Besides(Vec<(String, u128)>);

impl Besides {
    /// Nothing besides the table.
    pub const NOTHING: Besides = Besides(Vec::new());

    /// `bytes` held for `name` with the table.
    pub fn held(name: impl Into<String>, bytes: u128) -> Besides {
        Besides::NOTHING.and(name, bytes)
    }

    /// These parts, and `bytes` more held at once for `name` (nothing when `bytes` is 0).
    pub fn and(mut self, name: impl Into<String>, bytes: u128) -> Besides {
        if bytes > 0 {
            self.0.push((name.into(), bytes));
        }
        self
    }

    /// Parts held one after another, each freed before the next: the largest of them.
    pub fn one_after_another<N: Into<String>>(
        parts: impl IntoIterator<Item = (N, u128)>,
    ) -> Besides {
        let largest = parts.into_iter().max_by_key(|&(_, bytes)| bytes);
        largest.map_or(Besides::NOTHING, |(name, bytes)| Besides::held(name, bytes))
    }

    /// The parts, by name.
    pub fn parts(&self) -> impl Iterator<Item = (&str, u128)> {
        self.0.iter().map(|(name, bytes)| (name.as_str(), *bytes))
    }
}

/// A need that would not fit in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The table's cells.
    pub cells: u128,
    /// Bytes per cell.
    pub cell_bytes: u32,
    /// Bytes the need takes in all.
    pub needed: u128,
    /// The memory available now; `None` when the table is larger than this machine can address.
    pub available: Option<Available>,
    /// What the bytes are for.
    pub held: Held,
    /// Of `needed`, the bytes of the line summaries, when they are most of it (saturated: a
    /// need past 16 EiB is refused as unaddressable before this figure matters).
    pub lines: u64,
    /// Of `needed`, what is held besides the table, by name.
    pub besides: Box<[(String, u128)]>,
    /// The largest reservations the run holds already, by name (counted against a budget).
    pub reserved: Box<[(String, u64)]>,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooLarge { cells, cell_bytes, needed, available, held, lines, besides, reserved } =
            self;
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
        if u128::from(*lines) * 2 > *needed {
            write!(
                f,
                ", {} of it for the values seen on each line that a sliding move reads (every line \
                 keeps a set as wide as the values, however few cells it has)",
                human_bytes(u128::from(*lines))
            )?;
        }
        match held {
            Held::Table => {}
            Held::Streamed => f.write_str(" (streamed: the rows kept and the line summaries)")?,
            Held::Rank => f.write_str(" (the part one rank holds)")?,
            Held::Kept => f.write_str(" besides the results kept so far")?,
        }
        if !besides.is_empty() {
            let listed: Vec<String> = besides
                .iter()
                .map(|(name, bytes)| format!("{name} {}", human_bytes(*bytes)))
                .collect();
            write!(f, "; of it, held besides the table: {}", listed.join(", "))?;
        }
        if !reserved.is_empty() {
            let listed: Vec<String> = reserved
                .iter()
                .map(|(name, bytes)| format!("{name} {}", human_bytes(u128::from(*bytes))))
                .collect();
            write!(f, "; held already: {}", listed.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for TooLarge {}

/// A command's memory: its budget, if one is set, and its reservations by name. Cloning shares
/// the reservations.
#[derive(Clone, Debug, Default)]
pub struct MemoryPool {
    inner: Arc<PoolInner>,
}

#[derive(Debug, Default)]
struct PoolInner {
    budget: Option<Budget>,
    reservations: Mutex<Vec<Entry>>,
    next: AtomicU64,
}

#[derive(Clone, Debug)]
struct Entry {
    id: u64,
    name: String,
    bytes: u64,
}

/// Reservations a refusal lists, at most.
const LISTED: usize = 3;

impl MemoryPool {
    /// A pool bounded by the machine, the container and `budget` (none: the machine's and the
    /// container's only).
    pub fn new(budget: Option<Budget>) -> MemoryPool {
        let budget = budget.map(|b| Budget { bytes: b.bytes.max(1), ..b });
        MemoryPool { inner: Arc::new(PoolInner { budget, ..PoolInner::default() }) }
    }

    /// A pool with the budget `GRUNDY_MAX_MEMORY` sets, if it is set.
    ///
    /// # Errors
    /// The variable holds something that is not a size.
    pub fn from_env() -> Result<MemoryPool, SizeError> {
        let budget = budget_from_env()?.map(|bytes| Budget { bytes, set_by: BUDGET_VARIABLE });
        Ok(MemoryPool::new(budget))
    }

    /// The budget, in bytes, if one is set: what a command hands on to the commands it runs.
    pub fn budget(&self) -> Option<u64> {
        self.inner.budget.map(|b| b.bytes)
    }

    /// The bytes reserved now.
    pub fn reserved(&self) -> u64 {
        self.entries().iter().fold(0, |sum, e| sum.saturating_add(e.bytes))
    }

    /// The memory the run may take now: the least of this machine's available memory, what is
    /// left under the control group's limit, and the budget less the reservations; `None`
    /// where none can be known.
    pub fn available(&self) -> Option<Available> {
        let budget = self.inner.budget.map(|b| (b.bytes.saturating_sub(self.reserved()), b.set_by));
        let sources = [
            (probe::available_bytes(), Bound::Machine),
            (probe::container_available(), Bound::Container),
        ];
        let budget = budget.map(|(bytes, set_by)| (Some(bytes), Bound::Budget { set_by }));
        sources
            .into_iter()
            .chain(budget)
            .filter_map(|(bytes, bound)| Some(Available { bytes: bytes?, bound }))
            .min_by_key(|available| available.bytes)
    }

    /// The memory a table read from a file may take: what is available now (no bound where that
    /// cannot be known).
    pub fn read_budget(&self) -> u64 {
        self.available().map_or(u64::MAX, |available| available.bytes)
    }

    /// Refuses `need` when it would not fit in the memory available now.
    ///
    /// # Errors
    /// The need, as [`TooLarge`] describes it, with the largest reservations held.
    pub fn check(&self, need: &Need) -> Result<(), TooLarge> {
        let needed = need.total();
        let too_large = |available| TooLarge {
            cells: need.cells,
            cell_bytes: u32::try_from(need.cell_bytes).unwrap_or(u32::MAX),
            needed,
            available,
            held: need.held,
            lines: u64::try_from(need.lines).unwrap_or(u64::MAX),
            besides: need.besides.clone().into(),
            reserved: self.largest().into(),
        };
        if needed > usize::MAX as u128 / 2 {
            return Err(too_large(None));
        }
        match self.available() {
            Some(available) if needed > u128::from(available.bytes) => {
                Err(too_large(Some(available)))
            }
            _ => Ok(()),
        }
    }

    /// [`MemoryPool::check`] of `cells` cells of `cell_bytes` each taking `bytes`, held as
    /// `held`, with nothing besides.
    ///
    /// # Errors
    /// As [`MemoryPool::check`].
    pub fn check_bytes(
        &self,
        cells: u128,
        cell_bytes: usize,
        bytes: u128,
        held: Held,
    ) -> Result<(), TooLarge> {
        self.check(&Need::of(cells, cell_bytes, bytes, held))
    }

    /// Reserves `cells` results of `cell_bytes` each that the run keeps, under `name`, when they
    /// fit: they count against the budget of every later check until the reservation is dropped
    /// (the machine's and the container's figures see them already).
    ///
    /// # Errors
    /// They do not fit, as [`TooLarge`] describes it.
    pub fn reserve(
        &self,
        name: impl Into<String>,
        cells: u128,
        cell_bytes: usize,
    ) -> Result<Reservation, TooLarge> {
        let bytes = cells.saturating_mul(cell_bytes as u128);
        self.check(&Need::of(cells, cell_bytes, bytes, Held::Kept))?;
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        let id = self.inner.next.fetch_add(1, Ordering::Relaxed);
        let entry = Entry { id, name: name.into(), bytes };
        self.inner.reservations.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
        Ok(Reservation { pool: self.clone(), id })
    }

    fn entries(&self) -> Vec<Entry> {
        self.inner.reservations.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The largest reservations, by name and bytes.
    fn largest(&self) -> Vec<(String, u64)> {
        let mut entries = self.entries();
        entries.sort_by_key(|entry| std::cmp::Reverse(entry.bytes));
        entries.into_iter().take(LISTED).map(|e| (e.name, e.bytes)).collect()
    }
}

/// Bytes a run keeps while it goes on computing, counted against the budget of every later
/// check of its pool until dropped.
#[derive(Debug)]
pub struct Reservation {
    pool: MemoryPool,
    id: u64,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut entries = self.pool.inner.reservations.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|e| e.id != self.id);
    }
}

/// `bytes` in the largest binary unit that leaves a number of at least 1: `1.5 GiB`.
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

    #[test]
    fn reservations_count_against_the_budget_and_are_named_in_refusals() {
        let pool = MemoryPool::new(Some(Budget { bytes: 1000, set_by: "a test" }));
        assert!(pool.check_bytes(900, 1, 900, Held::Table).is_ok());
        let kept = pool.reserve("the values of member a", 600, 1).unwrap();
        let refused = pool.check_bytes(500, 1, 500, Held::Table).unwrap_err();
        assert_eq!(refused.available.unwrap().bytes, 400);
        assert_eq!(*refused.reserved, [("the values of member a".to_string(), 600)]);
        assert!(refused.to_string().ends_with("; held already: the values of member a 600.0 B"));
        drop(kept);
        assert!(pool.check_bytes(500, 1, 500, Held::Table).is_ok());
        assert_eq!(pool.reserved(), 0);
        // What is held besides the table is named too, and counted.
        let need = Need::of(500, 1, 500, Held::Table).besides("the analysis", 600);
        let refused = pool.check(&need).unwrap_err();
        assert_eq!(refused.needed, 1100);
        assert!(refused
            .to_string()
            .contains("of it, held besides the table: the analysis 600.0 B"));
    }
}
