//! A heap game's fill answered by its proved period: the fill watches its own values, and as
//! soon as a periodicity theorem proves their period, it stops; every later value is a lookup in
//! the period instead of a search. Kayles to 10^9 heaps is its first 4096 values and a sum over
//! its period.
//!
//! The values are the ones the search would give: the theorem's finite check has passed on the
//! searched values (tested against full searches of the sparse-space engine, `tests/answered.rs`).

use crate::proof::theorems::{has_periodicity_theorem, law_or_needed, ProvedLaw};
use grundy_compute::{
    Control, FillError, Progress, SequenceRecords, TableFill, WaveMark, WholeFill,
};
use grundy_core::{
    Cell, CellWidth, Coord, Game, GrundyTable, Repeating, Table, TableShape, TableStats,
};
use serde::Serialize;
use std::time::Instant;

/// The first check for a period, in values: a few tile-waves of the heap engines, and more than
/// the proofs of most small codes need (Kayles needs 156).
pub const FIRST_CHECK: usize = 4096;

/// Bytes a check holds per value searched: [`crate::periodicity::find_period`]'s border array.
const CHECK_BYTES_PER_VALUE: u128 = 4;

/// Watches a heap game's fill for a period a theorem proves: after a tile-wave, once the values
/// searched have doubled since the last look (or reached the length the theorem said the period
/// it saw needs), looks for the period and its proof; stops the fill once it is proved.
///
/// Looks only while a quarter of the table at most is searched: past that the period saves
/// little, and a look holds four bytes a value.
#[derive(Debug)]
pub struct PeriodWatch<'g> {
    game: &'g Game,
    min: Coord,
    len: usize,
    next_check: usize,
    law: Option<ProvedLaw>,
}

/// The name a [`PeriodWatch`]'s memory goes by in a memory check and its refusal.
pub const WATCH: &str = "the watch for a proved period";

/// A [`PeriodWatch`] over a table of `game` over `shape`, by name ([`WATCH`]) and bytes: what a
/// fill holds besides its table while it looks, freed when the fill ends (so that what the caller
/// holds after the fill comes after it: `Besides::one_after_another`).
pub fn watch(game: &Game, shape: &TableShape) -> (&'static str, u128) {
    (WATCH, watch_bytes(game, shape))
}

/// The most bytes a [`PeriodWatch`] over a table of `game` over `shape` holds besides the table
/// (0 when none would watch it): for the memory check before the fill.
pub fn watch_bytes(game: &Game, shape: &TableShape) -> u128 {
    watched_len(game, shape).map_or(0, |len| CHECK_BYTES_PER_VALUE * (len / 4) as u128)
}

/// The table's length when a watch would look at it: a heap game a theorem covers, long enough
/// for the watch to save anything.
fn watched_len(game: &Game, shape: &TableShape) -> Option<usize> {
    let len = usize::try_from(shape.cells()).ok()?;
    (game.dims() == 1 && has_periodicity_theorem(game) && len / 4 >= FIRST_CHECK).then_some(len)
}

/// [`watched_len`] of a prepared fill: the reference fill has no waves to stop.
fn watched_fill_len(game: &Game, fill: &TableFill<'_>) -> Option<usize> {
    watched_len(game, fill.shape()).filter(|_| fill.engine().has_waves())
}

impl<'g> PeriodWatch<'g> {
    /// A watch over `fill`, a table of `game`; `None` when no theorem covers the game, the fill
    /// has no waves to stop (the reference fill), or the table is too short to save anything.
    /// Its memory is [`watch_bytes`].
    pub fn new(game: &'g Game, fill: &TableFill<'_>) -> Option<PeriodWatch<'g>> {
        let len = watched_fill_len(game, fill)?;
        Some(PeriodWatch { game, min: game.axes()[0].min, len, next_check: FIRST_CHECK, law: None })
    }

    /// The most bytes the watch [`PeriodWatch::new`] makes for `fill` holds besides the table:
    /// [`watch_bytes`] of a prepared fill, 0 for one it would not watch.
    pub fn bytes(game: &Game, fill: &TableFill<'_>) -> u128 {
        watched_fill_len(game, fill).map_or(0, |len| CHECK_BYTES_PER_VALUE * (len / 4) as u128)
    }

    /// After a tile-wave of the fill (`table` final in the waves `mark` counts as done): stops
    /// the fill once a period is proved.
    pub fn after_wave(&mut self, table: &GrundyTable, mark: WaveMark) -> Control {
        if self.law.is_some() {
            return Control::Stop;
        }
        let searched = mark.heaps_final(self.len);
        if searched < self.next_check || searched > self.len / 4 {
            return Control::Continue;
        }
        let (game, min) = (self.game, self.min);
        let examined =
            grundy_core::with_cells!(table.cells(), |v| law_or_needed(game, &v[..searched], min));
        match examined {
            Ok(law) => {
                self.law = Some(law);
                return Control::Stop;
            }
            // A period seen: look again where the theorem can prove it, a quarter on at least.
            Err(Some(needed)) if needed > searched => {
                self.next_check = needed.max(searched + searched / 4);
            }
            Err(_) => self.next_check = 2 * searched,
        }
        Control::Continue
    }

    /// What the fill ended with: `table` (final up to `mark`), answered past it by the law if
    /// one was proved.
    pub fn finish(self, table: GrundyTable, mark: WaveMark) -> Answered {
        let searched = mark.heaps_final(self.len);
        Answered { table, searched, law: self.law.filter(|_| searched < self.len), written: false }
    }
}

/// A heap game's table whose values past `searched` come from a proved period, or a table
/// searched to its end.
#[derive(Debug)]
pub struct Answered {
    /// The table: final in its first `searched` values (all of them when there is no law, or
    /// once [`Answered::table`] has written the law's).
    table: GrundyTable,
    searched: usize,
    law: Option<ProvedLaw>,
    /// Whether the law's values are written into the table.
    written: bool,
}

impl Answered {
    /// A table searched to its end.
    pub fn searched(table: GrundyTable) -> Answered {
        let searched = table.len();
        Answered { table, searched, law: None, written: false }
    }

    /// The law that answers the values past the searched ones, if one does.
    pub fn law(&self) -> Option<&ProvedLaw> {
        self.law.as_ref()
    }

    /// How the law answered, for a summary: `None` when every value was searched.
    pub fn by_period(&self) -> Option<ByPeriod> {
        self.law.as_ref().map(|law| ByPeriod {
            period: law.period.period,
            preperiod: law.period.preperiod,
            from: law.min + self.searched as Coord,
        })
    }

    /// The table's sums: from the law's period when there is one (the time of a period, however
    /// long the table), else by `sum` (a caller's parallel pass over the cells).
    pub fn stats(&self, sum: impl FnOnce(&GrundyTable) -> TableStats) -> TableStats {
        match &self.law {
            Some(law) => law.repeating(self.table.len() as u64).stats(),
            None => sum(&self.table),
        }
    }

    /// The sequence's records, from the law's period when there is one.
    pub fn records(&self, game: &Game) -> Option<SequenceRecords> {
        match &self.law {
            Some(law) => SequenceRecords::of_repeating(
                Some(game),
                self.table.shape(),
                &law.repeating(self.table.len() as u64),
            ),
            None => SequenceRecords::of(Some(game), &self.table),
        }
    }

    /// The whole table: the values past the searched ones written from the law the first time
    /// (a period at a time, at the speed of copying memory).
    pub fn table(&mut self) -> &GrundyTable {
        if let Some(law) = self.law.as_ref().filter(|_| !self.written) {
            let repeating = law.repeating(self.table.len() as u64);
            let from = self.searched;
            fn write<C: Cell>(table: &mut GrundyTable, from: usize, law: &Repeating<'_>) {
                let cells = table.typed_mut::<C>().expect("the table's width");
                law.write(from as u64, &mut cells[from..]);
            }
            // The law's values are searched values, so they fit the table's cells.
            match self.table.width() {
                CellWidth::U8 => write::<u8>(&mut self.table, from, &repeating),
                CellWidth::U16 => write::<u16>(&mut self.table, from, &repeating),
                CellWidth::U32 => write::<u32>(&mut self.table, from, &repeating),
            }
            self.written = true;
        }
        &self.table
    }

    /// The whole table ([`Answered::table`]).
    pub fn into_table(mut self) -> GrundyTable {
        self.table();
        self.table
    }
}

/// How a proved period answered a table, in a summary: the values from heap `from` on come from
/// the period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ByPeriod {
    /// The period.
    pub period: usize,
    /// The preperiod.
    pub preperiod: usize,
    /// The first heap size answered by the period rather than searched.
    pub from: Coord,
}

/// Fills `fill`, any game's whole table: Grundy values answered by a proved period as soon as a
/// theorem proves one ([`fill_answered_until`], searched until `deadline` at most), or a loopy
/// game's generalized values. What every front end's fill of a table runs.
///
/// # Errors
/// As the fill's.
pub fn fill_whole(
    fill: &WholeFill<'_>,
    progress: &dyn Progress,
    deadline: Option<Instant>,
) -> Result<Table, FillError> {
    match fill {
        WholeFill::Values(values) => {
            let game = values.game();
            let table = fill_answered_until(game, values, progress, deadline)?;
            Ok(Table::of_game(game.clone(), table))
        }
        loopy @ WholeFill::Loopy(_) => loopy.fill(progress),
    }
}

/// Fills `fill` (a table of `game`), answered by a proved period as soon as a theorem proves
/// one: the whole table, with the values a full search gives.
pub fn fill_answered(
    game: &Game,
    fill: &TableFill<'_>,
    progress: &dyn Progress,
) -> Result<GrundyTable, FillError> {
    fill_answered_until(game, fill, progress, None)
}

/// [`fill_answered`], but a heap game's search stops at the first tile-wave that ends after
/// `deadline`: the table is then the heaps searched by then (a shorter table), unless a proved
/// period answered them all. Boards, and the reference fill (which has no waves), are filled
/// whole.
pub fn fill_answered_until(
    game: &Game,
    fill: &TableFill<'_>,
    progress: &dyn Progress,
    deadline: Option<Instant>,
) -> Result<GrundyTable, FillError> {
    let deadline = deadline.filter(|_| game.dims() == 1 && fill.engine().has_waves());
    let mut watch = PeriodWatch::new(game, fill);
    if watch.is_none() && deadline.is_none() {
        return fill.fill(progress);
    }
    let (table, mark) = fill.fill_resumable(None, progress, &mut |table, mark| {
        if let Some(Control::Stop) = watch.as_mut().map(|watch| watch.after_wave(table, mark)) {
            return Control::Stop;
        }
        match deadline {
            Some(deadline) if Instant::now() >= deadline => Control::Stop,
            _ => Control::Continue,
        }
    })?;
    if let Some(watch) = watch {
        let answered = watch.finish(table, mark);
        if answered.law().is_some() || mark.is_complete() {
            return Ok(answered.into_table());
        }
        return Ok(heaps_below(answered.table, answered.searched));
    }
    let searched = mark.heaps_final(table.len());
    Ok(if mark.is_complete() { table } else { heaps_below(table, searched) })
}

/// The first `len` heaps of a heap game's `table`, as a table of their own.
fn heaps_below(table: GrundyTable, len: usize) -> GrundyTable {
    let axes = table.axes().to_vec();
    let max = vec![axes[0].min + len as Coord - 1];
    let shape = TableShape::from_axes(axes, max);
    grundy_core::with_cells!(table.cells(), |v| GrundyTable::from_vec(shape, v[..len].to_vec()))
}
