//! One validated request for a fill: which fill runs, on which threads, under which memory
//! check. Every front end (the command line, the Python package, searches and surveys) states
//! what it wants as a [`FillRequest`]; [`FillRequest::prepare`] makes every engine × layout ×
//! game check here and returns a [`PreparedFill`] that knows what it will hold. No front end
//! decides any of this again (ripgrep's low-args → high-args, in the library so that every
//! front end shares it).

use crate::bands::{BandFill, NoBands};
use crate::engine::Engine;
use crate::error::FillError;
use crate::fill::TableFill;
use crate::layout::{Layout, Resumable, RowsTo};
use crate::memory::{Besides, Held, MemoryPool, Need, TooLarge};
use crate::misere::{table_by_search, SearchLimits};
use crate::retrograde::{LoopyRefusal, RetrogradeFill};
use crate::runtime::Runtime;
use crate::sparse::{HeapMoves, NotSparse};
use crate::stream::{NoStream, RowStream};
use grundy_core::{CellWidth, Game, Play, TableShape};
use std::fmt;

/// What a front end asks of a fill. [`FillRequest::new`] gives the defaults (the fastest engine,
/// the caller's current threads, the whole table in memory); set the fields that differ.
#[derive(Clone, Debug)]
pub struct FillRequest<'g> {
    /// The game.
    pub game: &'g Game,
    /// The positions: a shape made for `game`.
    pub shape: &'g TableShape,
    /// The engine ([`Engine::Auto`]: the fastest for the game).
    pub engine: Engine,
    /// Where the fill runs and the memory it may take.
    pub runtime: Runtime,
    /// How the table is held, and where its rows go.
    pub layout: Layout,
    /// The tile side of the tiled engine (square tiles); `None` picks the tiles for the cache:
    /// 16 × 256 in 2-D (64 × 64 when a symmetric table is mirrored), 16³ in 3-D and 1024 heap
    /// sizes in 1-D. The result does not depend on it: tests vary it.
    pub tile_side: Option<usize>,
    /// The seconds the exact misère search may run, when it runs ([`Engine::Search`]).
    pub search_seconds: u64,
}

/// A fill, prepared once: the game compiled, the work planned, everything the request asked
/// checked. It knows the bytes it will hold ([`PreparedFill::check_memory`]).
// One is made per fill and moved once: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum PreparedFill<'g> {
    /// The whole table in memory ([`Layout::InMemory`]).
    Table(TableFill<'g>),
    /// Row by row on the calling thread, saving its ring of rows between rows: a resumable
    /// [`Layout::Streamed`] fill.
    Rows(RowStream),
    /// Bands of tile rows: a [`Layout::Streamed`] fill in one run (one rank, on the request's
    /// threads), or a [`Layout::Distributed`] one.
    Bands {
        /// The bands.
        fill: BandFill,
        /// A resumable distributed fill's stream of rows: its cuts are saved as (and resumed
        /// from) that stream's rings.
        rows: Option<RowStream>,
    },
    /// The retrograde kernel over the whole board, in memory in one run: what a loopy game's
    /// table runs ([`crate::retrograde`]).
    Retrograde(RetrogradeFill<'g>),
}

/// What a game's table holds, decided here beside the engine: a front end asks it before it
/// picks a format or a record for the table, rather than testing the play convention itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Values a mex gives: Grundy values, or a board's misère values.
    Values,
    /// A misère heap game's values, each heap's genus beside ([`crate::misere`]: the genera of
    /// sums come from the exact search).
    Genera,
    /// A loopy game's labels: finite values, ∞ with the values it can move to, and draws
    /// ([`crate::retrograde`]).
    Labels,
}

impl Content {
    /// What `game`'s table holds.
    pub fn of(game: &Game) -> Content {
        if game.is_loopy() {
            Content::Labels
        } else if game.play() == Play::Misere && game.dims() == 1 {
            Content::Genera
        } else {
            Content::Values
        }
    }

    /// Whether every cell holds a value a mex gives (with or without genera beside): what an
    /// index of sequences, a period or a nim-sum can use.
    pub fn holds_values(self) -> bool {
        self != Content::Labels
    }

    /// What it is, after "`game`'s table is": for a refusal that names what the table holds.
    pub fn described(self) -> &'static str {
        match self {
            Content::Values => "a table of values",
            Content::Genera => "a misère heap game's, with genus columns",
            Content::Labels => "a loopy game's, with ∞ and draws",
        }
    }
}

/// A whole table in memory, prepared for any game ([`FillRequest::whole`]): its Grundy values,
/// or a loopy game's generalized values from the retrograde kernel. Either fills into the one
/// [`grundy_core::Table`] every consumer takes.
pub enum WholeFill<'g> {
    /// A fill of Grundy values.
    Values(Box<TableFill<'g>>),
    /// The retrograde kernel's labelling of a loopy game's board.
    Loopy(RetrogradeFill<'g>),
}

impl<'g> WholeFill<'g> {
    /// The engine that runs.
    pub fn engine(&self) -> Engine {
        match self {
            WholeFill::Values(fill) => fill.engine(),
            WholeFill::Loopy(_) => Engine::Retrograde,
        }
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        match self {
            WholeFill::Values(fill) => fill.game(),
            WholeFill::Loopy(fill) => fill.game(),
        }
    }

    /// Fills the table.
    ///
    /// # Errors
    /// A cancellation, a search's limits, a graph that does not fit.
    pub fn fill(
        &self,
        progress: &dyn crate::progress::Progress,
    ) -> Result<grundy_core::Table, FillError> {
        match self {
            WholeFill::Values(fill) => {
                let table = fill.fill(progress)?;
                Ok(grundy_core::Table::of_game(fill.game().clone(), table))
            }
            WholeFill::Loopy(fill) => Ok(fill.fill(progress)?.into_table(fill.game().clone())),
        }
    }
}

/// Why a fill cannot be made as asked.
#[derive(Debug)]
pub struct RequestError {
    kind: RequestErrorKind,
}

/// What was asked that cannot be done.
#[derive(Debug)]
#[non_exhaustive]
pub enum RequestErrorKind {
    /// [`Engine::Sparse`] for a game it does not compute.
    NotSparse(NotSparse),
    /// A streamed or distributed fill, which the tiled engine's parts make, with another
    /// engine.
    NotTiles {
        /// The engine asked for.
        engine: Engine,
        /// The layout asked for.
        layout: Layout,
    },
    /// A resumable fill with the reference engine, which has no waves to stop between.
    ReferenceNotResumable,
    /// The table cannot be filled row by row.
    NoStream(NoStream),
    /// The table cannot be shared among ranks.
    NoBands(NoBands),
    /// A resumable fill whose rows go to a writer: rows handed out cannot be taken up again.
    RowsNotResumable,
    /// A resumable distributed fill of a game whose moves read whole columns: every rank keeps
    /// every row, and no ring of a few rows can stand for them.
    EveryRowNotResumable,
    /// A misère table of a heap game whose moves leave sums with an engine that fills cell by
    /// cell, or in another layout than in memory in one run: a cell's misère value is not a
    /// function of its options' values (see [`grundy_core::Play`]), so only the exact search
    /// ([`Engine::Search`]) computes it.
    MisereSums {
        /// The game's name.
        game: String,
        /// What was asked: an engine, or a layout.
        asked: String,
    },
    /// [`Engine::Search`] for a table that a fill computes.
    NotSearch {
        /// The game's name.
        game: String,
    },
    /// A misère table with an engine that computes normal play only (the sparse-space kernel,
    /// whose candidates come from the normal-play values of pairs of heaps).
    MisereEngine {
        /// The engine asked for.
        engine: Engine,
    },
    /// A game with terminal positions with another engine or layout than the reference fill's
    /// in memory: the compiled engines read the same moves at every position.
    Terminal {
        /// The game's name.
        game: String,
        /// What was asked: an engine, a layout, or misère play with moves that leave sums.
        asked: String,
    },
    /// The fill would not fit in memory.
    TooLarge(TooLarge),
    /// A loopy game's table (or the retrograde engine) asked for what the retrograde kernel
    /// does not do.
    Loopy(LoopyRefusal),
}

impl RequestError {
    /// What was wrong.
    pub fn kind(&self) -> &RequestErrorKind {
        &self.kind
    }

    /// What was wrong, owned.
    pub fn into_kind(self) -> RequestErrorKind {
        self.kind
    }
}

impl From<RequestErrorKind> for RequestError {
    fn from(kind: RequestErrorKind) -> RequestError {
        RequestError { kind }
    }
}

impl From<TooLarge> for RequestError {
    fn from(too_large: TooLarge) -> RequestError {
        RequestErrorKind::TooLarge(too_large).into()
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RequestErrorKind::NotSparse(why) => write!(f, "{why}"),
            RequestErrorKind::NotTiles { engine, layout } => {
                let what = match layout {
                    Layout::Distributed { .. } => "a distributed fill",
                    _ => "a streamed fill",
                };
                write!(f, "{what} runs the tiles engine (auto or tiles), not the {engine} engine")
            }
            RequestErrorKind::Terminal { game, asked } => write!(
                f,
                "{game} has terminal positions, which only the reference fill reads (in memory, \
                 in one run; the engine auto or reference): not {asked}"
            ),
            RequestErrorKind::ReferenceNotResumable => f.write_str(
                "the reference fill has no waves to save between: a resumable fill needs the \
                 tiles or waves engine",
            ),
            RequestErrorKind::NoStream(why) => write!(f, "{why}"),
            RequestErrorKind::NoBands(why) => write!(f, "{why}"),
            RequestErrorKind::RowsNotResumable => f.write_str(
                "rows that go out as they are computed cannot be taken up again: a resumable \
                 row-by-row fill keeps a summary only",
            ),
            RequestErrorKind::EveryRowNotResumable => f.write_str(
                "a resumable distributed fill needs moves that reach back a bounded number of \
                 rows; this game's read whole columns, so every rank keeps every row",
            ),
            RequestErrorKind::MisereSums { game, asked } => write!(
                f,
                "a misère table of {game} cannot be computed so: its moves leave sums, whose \
                 misère values the components' do not give, and only the exact search over sums \
                 computes such a table ({asked})"
            ),
            RequestErrorKind::NotSearch { game } => write!(
                f,
                "the search engine computes misère tables of heap games whose moves leave sums; \
                 {game}'s table is filled cell by cell (engine auto)"
            ),
            RequestErrorKind::MisereEngine { engine } => write!(
                f,
                "the {engine} engine computes normal play only; a misère table runs the tiles, \
                 waves or reference engine"
            ),
            RequestErrorKind::TooLarge(too_large) => write!(f, "{too_large}"),
            RequestErrorKind::Loopy(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for RequestError {}

impl<'g> FillRequest<'g> {
    /// Whether the same fill streamed row by row (its rows written out) would be prepared and
    /// fit in memory: what a refusal of the whole table may suggest instead, and only then (a
    /// suggestion that is itself refused helps nobody).
    pub fn streamed_would_fit(&self) -> bool {
        let layout = Layout::Streamed { rows: RowsTo::Writer, resumable: Resumable::No };
        let runtime = self.runtime.clone();
        match (FillRequest { layout, ..self.clone() }).prepare() {
            Ok(fill) => fill.check_memory(runtime.memory(), &Besides::NOTHING).is_ok(),
            Err(_) => false,
        }
    }

    /// The fill of `game` over `shape` with the defaults: [`Engine::Auto`], the current threads,
    /// the whole table in memory in one run.
    pub fn new(game: &'g Game, shape: &'g TableShape) -> FillRequest<'g> {
        FillRequest {
            game,
            shape,
            engine: Engine::Auto,
            runtime: Runtime::default(),
            layout: Layout::IN_MEMORY,
            tile_side: None,
            search_seconds: SearchLimits::DEFAULT_SECONDS,
        }
    }

    /// Checks the request against the game and prepares the fill that runs it: the engine
    /// resolved, the game compiled, the work planned. Every combination a front end may not ask
    /// for is refused here, and only here.
    ///
    /// # Errors
    /// What cannot be done, as [`RequestErrorKind`] says.
    ///
    /// # Panics
    /// If `shape` was made for a game with other axes.
    pub fn prepare(self) -> Result<PreparedFill<'g>, RequestError> {
        assert_eq!(self.game.axes(), self.shape.axes(), "the shape belongs to another game");
        // A loopy game (a move raises a coordinate) has no order of waves: its table is the
        // retrograde kernel's, whole, in memory, in one run.
        // Terminal positions first: only the reference fill reads them (a loopy game has none).
        if self.game.terminal().is_some() {
            return self.prepare_terminal();
        }
        if self.game.is_loopy() || self.engine == Engine::Retrograde {
            return self.prepare_loopy();
        }
        // Under misère play, a heap game whose moves leave sums runs the exact search, and only
        // it (a board whose moves leave sums has no engine): the one place where that is decided.
        if !self.game.values_are_local() {
            return self.prepare_search();
        }
        self.prepare_waves()
    }

    /// [`FillRequest::prepare`] of a game with terminal positions: the reference fill, which
    /// reads the moves of each position from [`Game::options`], in memory. The compiled engines
    /// read the same moves everywhere, and are refused.
    fn prepare_terminal(mut self) -> Result<PreparedFill<'g>, RequestError> {
        let asked = match (self.engine, &self.layout) {
            // The exact search over sums reads the rules as the same everywhere too.
            _ if !self.game.values_are_local() => Some("misère play with moves that leave sums"),
            (Engine::Auto | Engine::Reference, Layout::InMemory { .. }) => None,
            (Engine::Auto | Engine::Reference, Layout::Streamed { .. }) => Some("a streamed fill"),
            (Engine::Auto | Engine::Reference, Layout::Distributed { .. }) => {
                Some("a distributed fill")
            }
            (engine, _) => Some(engine.name()),
        };
        if let Some(asked) = asked {
            let game = self.game.name().to_string();
            return Err(RequestErrorKind::Terminal { game, asked: asked.to_string() }.into());
        }
        self.engine = Engine::Reference;
        self.prepare_waves()
    }

    /// [`FillRequest::prepare`] of a loopy game: the retrograde kernel, in memory.
    fn prepare_loopy(self) -> Result<PreparedFill<'g>, RequestError> {
        let FillRequest { game, shape, engine, runtime, layout, .. } = self;
        let refuse = |kind: RequestErrorKind| Err(RequestError::from(kind));
        let loopy = |why: LoopyRefusal| refuse(RequestErrorKind::Loopy(why));
        let name = || game.name().to_string();
        if !matches!(engine, Engine::Auto | Engine::Retrograde) {
            return loopy(LoopyRefusal::Engine { game: name(), engine });
        }
        if game.play() == Play::Misere {
            return loopy(LoopyRefusal::Misere { game: name() });
        }
        // In memory, resumable or not: a checkpoint holds the labelling after a round.
        if !matches!(layout, Layout::InMemory { .. }) {
            return loopy(LoopyRefusal::Layout);
        }
        RetrogradeFill::new(game, shape, runtime)
            .map(PreparedFill::Retrograde)
            .map_err(|why| RequestErrorKind::Loopy(why).into())
    }

    /// [`FillRequest::prepare`] of a misère game whose moves leave sums: the exact search.
    fn prepare_search(self) -> Result<PreparedFill<'g>, RequestError> {
        let FillRequest { game, shape, engine, runtime, layout, tile_side, search_seconds } = self;
        let threads = runtime.threads().clone();
        let refuse = |kind: RequestErrorKind| Err(RequestError::from(kind));
        let asked = match (engine, layout) {
            _ if !table_by_search(game) => {
                Some("of a heap game, in memory in one run; this is a board".to_string())
            }
            (Engine::Auto | Engine::Search, Layout::InMemory { resumable: Resumable::No }) => None,
            (Engine::Auto | Engine::Search, _) => {
                Some("in memory in one run: it has no waves to save or stream".into())
            }
            (engine, _) => Some(format!("the {engine} engine fills cells one by one")),
        };
        if let Some(asked) = asked {
            return refuse(RequestErrorKind::MisereSums { game: game.name().to_string(), asked });
        }
        let limits = SearchLimits::within(runtime.memory(), search_seconds);
        Ok(PreparedFill::Table(TableFill::new(
            game,
            shape,
            engine,
            threads,
            tile_side,
            None,
            Some(limits),
        )))
    }

    /// [`FillRequest::prepare`] of a game filled in waves: engine × layout.
    fn prepare_waves(self) -> Result<PreparedFill<'g>, RequestError> {
        let FillRequest { game, shape, engine, runtime, layout, tile_side, .. } = self;
        let threads = runtime.threads().clone();
        let refuse = |kind: RequestErrorKind| Err(RequestError::from(kind));
        let misere = game.play() == Play::Misere;
        if engine == Engine::Reference && layout.resumable() == Resumable::Yes {
            return refuse(RequestErrorKind::ReferenceNotResumable);
        }
        if engine == Engine::Search {
            return refuse(RequestErrorKind::NotSearch { game: game.name().to_string() });
        }
        if misere && engine == Engine::Sparse {
            return refuse(RequestErrorKind::MisereEngine { engine });
        }
        // The sparse-space kernel's moves: what `Auto` runs where it can (normal play) and
        // `Sparse` needs.
        let heap = match engine {
            _ if misere => None,
            Engine::Auto | Engine::Sparse => match HeapMoves::new(game, shape) {
                Ok(moves) => Some(moves),
                Err(why) if engine == Engine::Sparse => {
                    return refuse(RequestErrorKind::NotSparse(why))
                }
                Err(_) => None,
            },
            _ => None,
        };
        if !matches!(layout, Layout::InMemory { .. }) && !engine.runs_tiles() {
            return refuse(RequestErrorKind::NotTiles { engine, layout });
        }
        match layout {
            Layout::InMemory { .. } => Ok(PreparedFill::Table(TableFill::new(
                game, shape, engine, threads, tile_side, heap, None,
            ))),
            Layout::Streamed { rows, resumable: Resumable::Yes } => {
                if rows == RowsTo::Writer {
                    return refuse(RequestErrorKind::RowsNotResumable);
                }
                // The ring of rows is what a streamed checkpoint holds.
                RowStream::new(game, shape)
                    .map(PreparedFill::Rows)
                    .map_err(|why| RequestErrorKind::NoStream(why).into())
            }
            Layout::Streamed { rows, resumable: Resumable::No } => {
                let dims = shape.axes().len();
                if dims != 2 {
                    return refuse(RequestErrorKind::NoStream(NoStream::Axes { dims }));
                }
                // Bands of one rank, which keep a few rows when the moves reach back a bounded
                // number of them: what cannot stream is refused with the rule that keeps it
                // from streaming.
                let fill = BandFill::new(game, shape, 1, threads, rows)
                    .map_err(RequestErrorKind::NoBands)?;
                if !fill.streams() {
                    let why = RowStream::new(game, shape).expect_err("the moves read every row");
                    return refuse(RequestErrorKind::NoStream(why));
                }
                Ok(PreparedFill::Bands { fill, rows: None })
            }
            Layout::Distributed { ranks, rows, resumable } => {
                // Every row to rank 0's sink in table order, mirrored only when every row is
                // kept: a cut between bands is then a streamed checkpoint's ring.
                let fill = BandFill::new(game, shape, ranks, threads, RowsTo::Writer)
                    .map_err(RequestErrorKind::NoBands)?;
                let rows = match resumable {
                    Resumable::No => None,
                    Resumable::Yes if rows == RowsTo::Writer => {
                        return refuse(RequestErrorKind::RowsNotResumable)
                    }
                    Resumable::Yes => match RowStream::new(game, shape) {
                        Ok(stream) if !fill.keeps_every_row() => Some(stream),
                        _ => return refuse(RequestErrorKind::EveryRowNotResumable),
                    },
                };
                Ok(PreparedFill::Bands { fill, rows })
            }
        }
    }

    /// [`FillRequest::prepare`] for the whole table in memory, in one run or resumably as
    /// `layout` says (any other layout is taken as [`Layout::IN_MEMORY`]), its memory checked
    /// in the request's pool with what the caller holds `besides`, by name
    /// ([`PreparedFill::check_memory`]): what analyses, searches, surveys and the Python package
    /// fill through, for any game.
    ///
    /// # Errors
    /// As [`FillRequest::prepare`], and [`RequestErrorKind::TooLarge`].
    pub fn whole(self, besides: &Besides) -> Result<WholeFill<'g>, RequestError> {
        let layout = match self.layout {
            layout @ Layout::InMemory { .. } => layout,
            _ => Layout::IN_MEMORY,
        };
        let memory = self.runtime.memory().clone();
        let prepared = FillRequest { layout, ..self }.prepare()?;
        prepared.check_memory(&memory, besides)?;
        match prepared {
            PreparedFill::Table(fill) => Ok(WholeFill::Values(Box::new(fill))),
            PreparedFill::Retrograde(fill) => Ok(WholeFill::Loopy(fill)),
            _ => unreachable!("an in-memory layout prepares a table"),
        }
    }

    /// [`FillRequest::whole`] for a table of Grundy values (a search for a proved period, a
    /// line of a known game): a loopy game is refused.
    ///
    /// # Errors
    /// As [`FillRequest::whole`], and [`LoopyRefusal::NotAGrundyTable`].
    pub fn table(self, besides: &Besides) -> Result<TableFill<'g>, RequestError> {
        let game = self.game.name().to_string();
        match self.whole(besides)? {
            WholeFill::Values(fill) => Ok(*fill),
            WholeFill::Loopy(_) => {
                Err(RequestErrorKind::Loopy(LoopyRefusal::NotAGrundyTable { game }).into())
            }
        }
    }
}

impl PreparedFill<'_> {
    /// The engine that runs: [`Engine::Auto`] resolved for the game.
    pub fn engine(&self) -> Engine {
        match self {
            PreparedFill::Table(fill) => fill.engine(),
            PreparedFill::Rows(_) | PreparedFill::Bands { .. } => Engine::Tiles,
            PreparedFill::Retrograde(_) => Engine::Retrograde,
        }
    }

    /// The widest cells the values may need.
    pub fn planned_width(&self) -> CellWidth {
        match self {
            PreparedFill::Table(fill) => fill.planned_width(),
            PreparedFill::Rows(stream) => stream.planned_width(),
            PreparedFill::Bands { fill, .. } => fill.planned_width(),
            PreparedFill::Retrograde(_) => CellWidth::U32,
        }
    }

    /// The most bytes the fill holds at once: the table (its widest cells, and the narrower
    /// ones while they widen) or the rows a streamed fill or one rank keeps, and the line
    /// summaries.
    pub fn planned_bytes(&self) -> u128 {
        match self {
            PreparedFill::Table(fill) => fill.planned_bytes(),
            PreparedFill::Rows(stream) => stream.planned_bytes(),
            PreparedFill::Bands { fill, .. } => fill.planned_bytes(),
            PreparedFill::Retrograde(fill) => fill.planned_bytes(),
        }
    }

    /// What the run holds of the table.
    pub fn held(&self) -> Held {
        match self {
            PreparedFill::Table(_) | PreparedFill::Retrograde(_) => Held::Table,
            PreparedFill::Bands { fill, .. } if fill.ranks() > 1 => Held::Rank,
            PreparedFill::Rows(_) | PreparedFill::Bands { .. } => Held::Streamed,
        }
    }

    /// Refuses the fill when what it holds ([`PreparedFill::planned_bytes`]) and what the
    /// caller holds `besides` (an analysis of the table, a watch for a proved period: each by
    /// name) would not fit in the memory `memory` has now ([`MemoryPool::check`]): the one memory
    /// check of every fill.
    ///
    /// # Errors
    /// The table, as [`TooLarge`] describes it.
    pub fn check_memory(&self, memory: &MemoryPool, besides: &Besides) -> Result<(), TooLarge> {
        let cells = match self {
            PreparedFill::Table(fill) => fill.shape().cells(),
            PreparedFill::Rows(stream) => stream.cells(),
            PreparedFill::Bands { fill, .. } => fill.cells(),
            PreparedFill::Retrograde(fill) => fill.shape().cells(),
        };
        let width = self.planned_width().bytes();
        let need = Need {
            lines: self.line_bytes(),
            ..Need::of(cells, width, self.planned_bytes(), self.held())
        };
        memory.check(&need.besides_all(besides))
    }

    /// Of [`PreparedFill::planned_bytes`], the line summaries'.
    fn line_bytes(&self) -> u128 {
        match self {
            PreparedFill::Table(fill) => fill.line_bytes(),
            PreparedFill::Rows(stream) => stream.line_bytes(),
            PreparedFill::Bands { fill, .. } => fill.line_bytes(),
            PreparedFill::Retrograde(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests;
