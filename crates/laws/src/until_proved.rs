//! Periods proved on the fly: a heap game computed in rounds, each longer than the last, until
//! a periodicity theorem proves its period or a limit is reached. Each round goes on from the
//! previous round's table (a resumable fill from its final waves), so the rounds together cost
//! about one fill of the last size.

use crate::analysis::analysis_bytes;
pub use crate::analysis::Search;
use crate::analysis::{analyze, Report};
use crate::periodicity::tail_period;
use crate::proof::theorems::prove_sequence;
use grundy_compute::memory::{Besides, TooLarge};
use grundy_compute::{
    Control, FillError, FillRequest, Layout, Progress, RequestError, RequestErrorKind, Resumable,
    Runtime, SequenceRecords,
};
use grundy_core::{Coord, Game, GrundyTable, ModelError, Nimber, Table, TableShape};
use std::fmt;

/// The shortest table from which a round aims at the period its end shows ([`tail_period`])
/// when no period is admitted yet: below it the rounds double as they always did (they cost
/// milliseconds, and the committed surveys and index of known games keep their bytes).
const AIM_FROM: usize = 1 << 20;

/// Heap sizes computed in the first round when the caller names no start: 0..=4095.
pub const FIRST_ROUND: Coord = 4095;

/// Where a search ended: the last round's report (proved, or not when the limit stopped it),
/// the sequence's records and how the search went.
#[derive(Clone, Debug)]
pub struct Found {
    /// The analysis of the last round's table.
    pub report: Report,
    /// The records of its sequence.
    pub records: Option<SequenceRecords>,
    /// How the search went.
    pub search: Search,
}

/// Why a search cannot run or stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum SearchError {
    /// The game is not a heap game (its number of axes).
    NotHeapGame(usize),
    /// No periodicity theorem covers the game: why.
    NoTheorem(&'static str),
    /// A round's table would not fit in memory.
    TooLarge(Box<TooLarge>),
    /// A round's size is not one of the game's tables.
    Size(ModelError),
    /// A round's fill could not be made.
    Request(RequestError),
    /// A round's fill failed or was cancelled.
    Fill(FillError),
    /// A round's analysis failed.
    Analysis(crate::error::Error),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::NotHeapGame(dims) => write!(
                f,
                "periods are proved for heap games; this game has {}",
                grundy_core::counted(*dims, "axis", "axes")
            ),
            SearchError::NoTheorem(why) => {
                write!(f, "no periodicity theorem covers this game: {why}")
            }
            SearchError::TooLarge(err) => write!(f, "{err}"),
            SearchError::Size(err) => write!(f, "{err}"),
            SearchError::Request(err) => write!(f, "{err}"),
            SearchError::Fill(err) => write!(f, "cannot compute the table: {err}"),
            SearchError::Analysis(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for SearchError {}

/// A search for a proved period, run one round at a time (so that the caller can show each
/// round's progress): [`ProofSearch::next_shape`] is the table the next round computes, and
/// [`ProofSearch::round`] computes it.
pub struct ProofSearch<'g> {
    game: &'g Game,
    runtime: Runtime,
    min: Coord,
    /// The largest heap size of the next round.
    max: Coord,
    limit: u64,
    rounds: usize,
    previous: Option<GrundyTable>,
}

impl<'g> ProofSearch<'g> {
    /// A search of `game` from heap size `start` (the axis' smallest + [`FIRST_ROUND`] when
    /// `None`) up to `limit` at most, every round (its fill and its analysis) on `runtime`'s
    /// threads, within its memory.
    pub fn new(
        game: &'g Game,
        start: Option<Coord>,
        limit: u64,
        runtime: Runtime,
    ) -> Result<Self, SearchError> {
        if game.dims() != 1 {
            return Err(SearchError::NotHeapGame(game.dims()));
        }
        if let Some(why) = crate::proof::theorems::no_theorem_because(game) {
            return Err(SearchError::NoTheorem(why));
        }
        let min = game.axes()[0].min;
        let limit_coord = Coord::try_from(limit).unwrap_or(Coord::MAX);
        let start = start.unwrap_or(min + FIRST_ROUND);
        let max = start.min(limit_coord).max(min);
        Ok(ProofSearch { game, runtime, min, max, limit, rounds: 0, previous: None })
    }

    /// The table of the last round computed, if any.
    pub fn last_table(&self) -> Option<&GrundyTable> {
        self.previous.as_ref()
    }

    /// The table the next round computes.
    pub fn next_shape(&self) -> Result<TableShape, SearchError> {
        TableShape::new(self.game, &[self.max], &self.max.to_string()).map_err(SearchError::Size)
    }

    /// Computes the next round on the search's threads; `Some` when the period is proved or
    /// the limit is reached, `None` when another round is needed.
    pub fn round(&mut self, progress: &dyn Progress) -> Result<Option<Found>, SearchError> {
        self.rounds += 1;
        let shape = self.next_shape()?;
        let previous = self.previous.take();
        let (game, runtime) = (self.game, &self.runtime);
        let (table, records, report) = runtime.install(|| {
            let table = extend_table(game, &shape, runtime, previous, progress)?;
            let records = SequenceRecords::of(Some(game), &table);
            let described = Table::of_game(game.clone(), table);
            let report = analyze(&described).map_err(SearchError::Analysis)?;
            Ok::<_, SearchError>((described.into_data(), records, report))
        })?;
        self.previous = Some(table);
        let Report::Sequence(sequence) = &report else { unreachable!("a heap game") };
        let len = sequence.sequence.searched.length;
        // What the theorem needs for the period seen; when none is seen yet under the
        // three-period rule, for the period the end of the table already shows (0.354's
        // preperiod of 10^7 shows at 1.7·10^7 values: the next round stops at the 2·10^7 the
        // theorem needs instead of doubling to 3.4·10^7).
        let needed = sequence.sequence.needed_length.or_else(|| {
            if len < AIM_FROM {
                return None;
            }
            let table = self.previous.as_ref().expect("the round's table");
            let tail = grundy_core::with_cells!(table.cells(), |v| tail_period(v))?;
            prove_sequence(Some(self.game), &tail, len, self.min).needed_length
        });
        let needed = needed.unwrap_or(0);
        let limit = Coord::try_from(self.limit).unwrap_or(Coord::MAX);
        let proved = sequence.sequence.proof.as_ref().is_some_and(|p| p.is_proved());
        if proved || self.max >= limit {
            let search = Search { values: len, rounds: self.rounds, limit: self.limit };
            return Ok(Some(Found { report, records, search }));
        }
        // What the theorem needs if a period was seen, else twice as much; a quarter more at
        // least, so that the rounds cost at most a few times the last one.
        let next_len = if needed > len { needed.max(len + len / 4) } else { 2 * len };
        self.max = (self.min + next_len as Coord - 1).min(limit);
        Ok(None)
    }
}

/// The table of `game` over `shape` (a longer sequence than `previous`, if given), going on
/// from the waves of `previous` that are final in it instead of computing them again.
fn extend_table(
    game: &Game,
    shape: &TableShape,
    runtime: &Runtime,
    previous: Option<GrundyTable>,
    progress: &dyn Progress,
) -> Result<GrundyTable, SearchError> {
    let request = FillRequest {
        runtime: runtime.clone(),
        layout: Layout::InMemory { resumable: Resumable::Yes },
        ..FillRequest::new(game, shape)
    };
    // The fill, the previous round's table copied from, and the analysis of the new one.
    let previous_bytes = previous.as_ref().map_or(0, |t| (t.len() * t.width().bytes()) as u128);
    let besides = Besides::held("the previous round's table", previous_bytes)
        .and("the analysis", analysis_bytes(&shape.lens()));
    let fill = request.table(&besides).map_err(|err| match err.into_kind() {
        RequestErrorKind::TooLarge(too_large) => SearchError::TooLarge(Box::new(too_large)),
        kind => SearchError::Request(kind.into()),
    })?;
    let start = previous.map(|previous| {
        // The previous round's whole tiles are final; the rest of its last tile (if the round
        // ended inside one) is computed again.
        let side = fill.plan().tile_sides()[0];
        let (done, computed) = (previous.len() / side, previous.len());
        let mut table = previous.extended(shape.clone());
        for n in done * side..computed {
            table.set_flat(n, Nimber::ZERO);
        }
        (table, fill.plan().mark(done))
    });
    let (table, _) = fill
        .fill_resumable(start, progress, &mut |_, _| Control::Continue)
        .map_err(SearchError::Fill)?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_compute::{NoProgress, ThreadCount, Threads};
    use grundy_core::lookup;

    fn search<'g>(game: &'g Game, start: Option<Coord>, limit: u64) -> ProofSearch<'g> {
        let threads = Threads::new(Some(ThreadCount::new(2).unwrap())).unwrap();
        ProofSearch::new(game, start, limit, Runtime::new(threads, Default::default())).unwrap()
    }

    /// Rounds grow until the theorem's check passes, each going on from the last round's table;
    /// the result is the one a single table of the last size gives.
    #[test]
    fn rounds_grow_until_the_period_is_proved() {
        let game = lookup("octal:0.07").unwrap();
        let mut search = search(&game, Some(60), 1 << 20);
        let mut sizes = Vec::new();
        let found = loop {
            sizes.push(search.next_shape().unwrap().cells());
            if let Some(found) = search.round(&NoProgress).unwrap() {
                break found;
            }
        };
        // 0.07 needs 2·53 + 2·34 + 2 = 176 values; each round is at least a quarter larger.
        assert!(sizes.len() >= 2 && sizes.windows(2).all(|w| w[1] * 4 >= w[0] * 5), "{sizes:?}");
        let Report::Sequence(report) = &found.report else { panic!("a heap game") };
        assert!(report.sequence.proof.as_ref().is_some_and(|p| p.is_proved()));
        assert_eq!((report.sequence.period, report.sequence.preperiod), (Some(34), Some(53)));
        assert_eq!(found.search.rounds, sizes.len());
        assert_eq!(found.search.values as u128, *sizes.last().unwrap());
        let last = search.last_table().unwrap();
        let shape = TableShape::new(&game, &[last.len() as Coord - 1], "test").unwrap();
        let whole = FillRequest::new(&game, &shape)
            .table(&grundy_compute::memory::Besides::NOTHING)
            .unwrap()
            .fill(&NoProgress)
            .unwrap();
        assert!(*last == whole, "a table extended round by round is the table filled at once");
    }

    /// The limit stops a search whose period is not proved by then.
    #[test]
    fn the_limit_stops_the_search() {
        let game = lookup("octal:0.07").unwrap();
        let mut search = search(&game, Some(40), 100);
        let found = loop {
            if let Some(found) = search.round(&NoProgress).unwrap() {
                break found;
            }
        };
        let Report::Sequence(report) = &found.report else { panic!("a heap game") };
        assert!(!report.sequence.proof.as_ref().is_some_and(|p| p.is_proved()));
        assert_eq!((found.search.values, found.search.limit), (101, 100));
    }

    #[test]
    fn only_heap_games_with_a_theorem_are_searched() {
        let threads = Runtime::default;
        let kiki = lookup("kiki").unwrap();
        assert!(matches!(
            ProofSearch::new(&kiki, None, 100, threads()),
            Err(SearchError::NotHeapGame(2))
        ));
        let grundy = lookup("grundys-game").unwrap();
        assert!(matches!(
            ProofSearch::new(&grundy, None, 100, threads()),
            Err(SearchError::NoTheorem(_))
        ));
    }
}
