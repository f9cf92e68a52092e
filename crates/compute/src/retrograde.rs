//! The retrograde kernel: generalized Sprague–Grundy values ([`grundy_core::LoopyValue`]) of
//! every position of a finite game graph that may have cycles.
//!
//! It is not a wave fill: with cycles there is no order in which every option comes first. It
//! runs Fraenkel's labelling algorithm for Smith's function, round by round:
//!
//! 1. round i labels i, as long as one exists, an unlabelled position u that has no option
//!    labelled i and each of whose options that is unlabelled or labelled ∞ has an option
//!    labelled i;
//! 2. then every position still unlabelled that has no option labelled i is labelled ∞;
//! 3. the next round starts while positions are unlabelled.
//!
//! An ∞ position's set K is the finite labels among its options. Step 1 is retrograde: a count
//! per position of its options not yet "covered" (given an option labelled i), brought down as
//! labels arrive, so a round costs the edges of the positions still unlabelled. The labels do
//! not depend on the order in which step 1 finds its positions (Smith's function is unique;
//! and two positions that step 1 could take at the same moment are never option and mover), so
//! the values are the same for every thread count. The graph is built on the current rayon
//! pool, and each round's counts are set up on it; the propagation itself is sequential.
//!
//! A game whose moves all lower some weighted sum of the coordinates ([`Game::descent`]) has no
//! cycles: [`descending_values`] values it in one pass instead, in waves of that sum, each wave
//! on the pool. The graph's options come from the rules by index arithmetic (`FlatMoves`).
//!
//! A checkpoint of this algorithm holds the labels after a round (one word per position) and
//! the rounds done ([`Labelling`], [`RetrogradeFill::fill_resumable`]); the graph itself is
//! rebuilt from the rules. The one-pass fill of an acyclic game has no rounds and saves none.

use crate::engine::Engine;
use crate::memory::{Available, Bound, Held, MemoryPool, TooLarge};
use crate::progress::{Control, Progress};
use crate::runtime::Runtime;
use grundy_core::{
    Amounts, Coord, Game, LoopyOutcome, LoopyValue, MexSet, ModelError, MoveForm, Nimber,
    TableShape,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// The label of an ∞ position in [`GeneralizedValues`]; finite values lie below it.
pub const INFINITE: u32 = u32::MAX;

/// Not yet labelled, while the algorithm runs.
const UNLABELLED: u32 = u32::MAX - 1;

/// Vertices per parallel task when the graph is built and a round is set up.
const CHUNK: usize = 4096;

/// Why the retrograde kernel stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RetrogradeError {
    /// The graph and the labels would not fit in memory.
    #[error("the game graph has {positions} positions and {}{moves} moves: {memory}", .counted.word())]
    TooLarge {
        /// Positions.
        positions: u64,
        /// Moves (options, after repeats are removed), as far as they were counted.
        moves: u64,
        /// How the moves were counted.
        counted: Counted,
        /// The memory check's refusal.
        memory: Box<TooLarge>,
    },
    /// More positions than the kernel numbers (2^32 − 2).
    #[error(
        "the game graph has {0} positions, more than the retrograde kernel numbers (2^32 - 2)"
    )]
    TooManyPositions(u64),
    /// The caller asked it to stop.
    #[error("cancelled")]
    Cancelled,
}

/// How [`RetrogradeError::TooLarge`] counted the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Every move.
    All,
    /// Until the graph could not fit: there are more.
    AtLeast,
    /// Estimated from a sample of positions, when even the estimate is far too large.
    About,
}

impl Counted {
    fn word(self) -> &'static str {
        match self {
            Counted::All => "",
            Counted::AtLeast => "at least ",
            Counted::About => "about ",
        }
    }
}

/// Positions sampled to estimate the moves before they are counted.
const SAMPLE: usize = 4096;

/// A finite game graph: each position's options and, for the retrograde steps, its movers
/// (the positions with a move to it), both in compressed rows.
#[derive(Clone, Debug)]
pub struct GameGraph {
    option_start: Vec<u64>,
    options: Vec<u32>,
    mover_start: Vec<u64>,
    movers: Vec<u32>,
}

/// Bytes per position of the graph and the labelling besides its moves: two row starts, the
/// label, the count, the covered flag and a queue slot.
const BYTES_PER_POSITION: u64 = 8 + 8 + 4 + 4 + 1 + 4;

/// Bytes per position of [`descending_fill`] at its peak: a level (while the positions are
/// sorted by level), the position in that order, and then its label in place of the level.
const DESCENDING_BYTES_PER_POSITION: u64 = 8 + 4;

/// Bytes per move: the option and the mover.
const BYTES_PER_MOVE: u64 = 4 + 4;

/// The generalized Sprague–Grundy value of every position of a [`GameGraph`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralizedValues {
    /// Each position's finite value, or [`INFINITE`].
    labels: Vec<u32>,
}

impl GeneralizedValues {
    /// Each position's label: its finite value, or [`INFINITE`].
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }

    /// The outcome of position `u` on its own, read from its label and its options' in
    /// `graph` (no K is built).
    pub fn outcome(&self, graph: &GameGraph, u: usize) -> LoopyOutcome {
        match self.labels[u] {
            0 => LoopyOutcome::P,
            INFINITE if !graph.options(u).iter().any(|&v| self.labels[v as usize] == 0) => {
                LoopyOutcome::D
            }
            _ => LoopyOutcome::N,
        }
    }

    /// The value of position `u`, with K read from its options in `graph` (the graph the
    /// values were computed on).
    pub fn value(&self, graph: &GameGraph, u: usize) -> LoopyValue {
        match self.labels[u] {
            INFINITE => {
                let mut k: Vec<u32> = graph
                    .options(u)
                    .iter()
                    .map(|&v| self.labels[v as usize])
                    .filter(|&l| l != INFINITE)
                    .collect();
                k.sort_unstable();
                k.dedup();
                LoopyValue::Infinite(k)
            }
            finite => LoopyValue::Finite(finite),
        }
    }
}

/// The labelling after some rounds (see the module's doc): each position's finite value (below
/// the rounds done), ∞, or not yet labelled. It is what a checkpoint of the labelling holds
/// ([`crate::checkpoint::CheckpointOf::write_labels`]): the next round needs nothing else, the
/// counts and marks of a round being set up afresh from the labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelling {
    labels: Vec<u32>,
    rounds: u32,
    /// The labels that are not `UNLABELLED`, counted as they are given.
    labelled: usize,
}

impl Labelling {
    /// Nothing labelled yet, over `positions` positions.
    pub fn start(positions: usize) -> Labelling {
        Labelling { labels: vec![UNLABELLED; positions], rounds: 0, labelled: 0 }
    }

    /// A labelling read back: `None` unless every label is a value below `rounds`, ∞ or the
    /// mark of a position not yet labelled.
    pub fn restore(labels: Vec<u32>, rounds: u32) -> Option<Labelling> {
        let valid = labels.iter().all(|&l| l < rounds || l == INFINITE || l == UNLABELLED);
        let labelled = labels.iter().filter(|&&l| l != UNLABELLED).count();
        valid.then_some(Labelling { labels, rounds, labelled })
    }

    /// Each position's label: a finite value, [`INFINITE`], or `u32::MAX - 1` (not yet).
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }

    /// The rounds done: the values below it are all found.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The positions labelled so far.
    pub fn labelled(&self) -> usize {
        self.labelled
    }
}

/// The generalized Sprague–Grundy values of `graph` (see the module's doc); `progress` hears
/// of the positions labelled after each round and may cancel between rounds.
///
/// # Errors
/// [`RetrogradeError::Cancelled`].
pub fn generalized_values(
    graph: &GameGraph,
    progress: &dyn Progress,
) -> Result<GeneralizedValues, RetrogradeError> {
    let start = Labelling::start(graph.len());
    let done = label_from(graph, start, progress, &mut |_| Control::Continue)?;
    Ok(done.expect("never stopped"))
}

/// The labelling of `graph` from `start` (a checkpoint's, or [`Labelling::start`]), as
/// [`generalized_values`] runs it; after each round `after_round` sees the labelling and may
/// stop the run (to save it and exit): then `Ok(None)`.
///
/// # Errors
/// [`RetrogradeError::Cancelled`].
///
/// # Panics
/// If `start` has another number of positions than `graph`.
pub fn label_from(
    graph: &GameGraph,
    start: Labelling,
    progress: &dyn Progress,
    after_round: &mut dyn FnMut(&Labelling) -> Control,
) -> Result<Option<GeneralizedValues>, RetrogradeError> {
    let n = graph.len();
    assert_eq!(start.labels.len(), n, "a labelling of this graph");
    let Labelling { mut labels, rounds: mut round, labelled } = start;
    let mut uncovered = vec![0u32; n];
    let mut covered = vec![false; n];
    let mut queue: Vec<u32> = Vec::new();
    let mut left = n - labelled;
    progress.advance((n - left) as u64);
    while left > 0 {
        if progress.cancelled() {
            return Err(RetrogradeError::Cancelled);
        }
        // A position's count: its options that are unlabelled or ∞ (none is covered yet).
        uncovered.par_iter_mut().zip(labels.par_iter()).with_min_len(CHUNK).enumerate().for_each(
            |(u, (count, &label))| {
                *count = if label == UNLABELLED {
                    let open = graph.options(u).iter().filter(|&&v| {
                        let l = labels[v as usize];
                        l == UNLABELLED || l == INFINITE
                    });
                    open.count() as u32
                } else {
                    0
                };
            },
        );
        covered.par_iter_mut().with_min_len(CHUNK).for_each(|c| *c = false);
        queue.clear();
        queue.extend(
            (0..n as u32)
                .filter(|&u| labels[u as usize] == UNLABELLED && uncovered[u as usize] == 0),
        );
        let mut labelled = 0usize;
        while let Some(u) = queue.pop() {
            let u = u as usize;
            if covered[u] || labels[u] != UNLABELLED {
                continue;
            }
            labels[u] = round;
            labelled += 1;
            for &p in graph.movers(u) {
                let p = p as usize;
                if covered[p] {
                    continue;
                }
                covered[p] = true;
                let open = labels[p] == UNLABELLED || labels[p] == INFINITE;
                if !open {
                    continue;
                }
                for &q in graph.movers(p) {
                    let q = q as usize;
                    if labels[q] == UNLABELLED {
                        uncovered[q] -= 1;
                        if uncovered[q] == 0 && !covered[q] {
                            queue.push(q as u32);
                        }
                    }
                }
            }
        }
        left -= labelled;
        // Unlabelled positions without an option labelled `round` are ∞ from now on.
        let infinite: usize = labels
            .par_iter_mut()
            .zip(&covered)
            .with_min_len(CHUNK)
            .map(|(label, &c)| {
                if *label == UNLABELLED && !c {
                    *label = INFINITE;
                    1
                } else {
                    0
                }
            })
            .sum();
        left -= infinite;
        progress.advance((labelled + infinite) as u64);
        round += 1;
        if left > 0 {
            let state = Labelling { labels, rounds: round, labelled: n - left };
            if after_round(&state) == Control::Stop {
                return Ok(None);
            }
            labels = state.labels;
        }
    }
    Ok(Some(GeneralizedValues { labels }))
}

/// The values of a graph whose every move lowers `level` (an acyclic game: see
/// [`Game::descent`]), by [`descending_fill`] over the graph's options.
///
/// # Errors
/// [`RetrogradeError::Cancelled`].
///
/// # Panics
/// If a move does not lower `level`.
pub fn descending_values(
    graph: &GameGraph,
    level: impl Fn(usize) -> u64 + Sync,
    progress: &dyn Progress,
) -> Result<GeneralizedValues, RetrogradeError> {
    let options = |u: usize, out: &mut Vec<usize>| {
        out.extend(graph.options(u).iter().map(|&v| v as usize));
    };
    Ok(descending_fill(graph.len(), options, level, progress)?.0)
}

/// The values of an acyclic game of `positions` positions whose every move lowers `level`,
/// straight from its moves (`options` appends a position's options, repeats allowed): each
/// position's mex of its options, level by level, the positions of a level in parallel (their
/// options all lie on lower levels, already valued). No graph is built: the labels, the
/// positions sorted by level and, while they are sorted, their levels are all it holds (twelve
/// bytes a position at most). Every label is finite and is what the labelling would give
/// (Smith's function of a graph without cycles is its Sprague–Grundy function), in one pass
/// over the moves instead of a pass per value.
/// Returns the values and the number of moves (repeats removed); `progress` hears of each
/// level and may cancel between levels.
///
/// # Errors
/// [`RetrogradeError::Cancelled`].
///
/// # Panics
/// If a move does not lower `level`.
pub fn descending_fill(
    positions: usize,
    options: impl Fn(usize, &mut Vec<usize>) + Sync,
    level: impl Fn(usize) -> u64 + Sync,
    progress: &dyn Progress,
) -> Result<(GeneralizedValues, u64), RetrogradeError> {
    let n = positions;
    // The positions by level: a counting sort, each position's level computed once.
    let levels: Vec<u64> = (0..n).into_par_iter().with_min_len(CHUNK).map(&level).collect();
    let top = levels.par_iter().copied().max().unwrap_or(0);
    let span = usize::try_from(top).expect("levels count the positions' cells") + 1;
    let mut start = vec![0usize; span + 1];
    for &l in &levels {
        start[l as usize + 1] += 1;
    }
    for b in 0..span {
        start[b + 1] += start[b];
    }
    let mut order = vec![0u32; n];
    let mut next = start.clone();
    for (u, &l) in levels.iter().enumerate() {
        let b = l as usize;
        order[next[b]] = u as u32;
        next[b] += 1;
    }
    drop((next, levels));
    let mut labels = vec![UNLABELLED; n];
    let mut found: Vec<(u32, u32)> = Vec::new();
    let mut moves = 0u64;
    for b in 0..span {
        if progress.cancelled() {
            return Err(RetrogradeError::Cancelled);
        }
        let part = &order[start[b]..start[b + 1]];
        part.par_iter()
            .with_min_len(256)
            .map_init(
                || (MexSet::new(), Vec::new()),
                |(set, out), &u| {
                    set.clear();
                    out.clear();
                    options(u as usize, out);
                    out.sort_unstable();
                    out.dedup();
                    for &v in out.iter() {
                        let value = labels[v];
                        assert!(value != UNLABELLED, "a move that does not lower the level");
                        set.insert(Nimber(value));
                    }
                    (set.mex().0, out.len() as u32)
                },
            )
            .collect_into_vec(&mut found);
        for (&u, &(value, count)) in part.iter().zip(&found) {
            labels[u as usize] = value;
            moves += u64::from(count);
        }
        progress.advance(part.len() as u64);
    }
    Ok((GeneralizedValues { labels }, moves))
}

/// Why a game's table cannot run on the retrograde kernel as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoopyRefusal {
    /// A loopy game with an engine that fills wave by wave.
    #[error(
        "{game} is loopy (a move raises a coordinate), so its table runs the retrograde engine, \
         not the {engine} engine"
    )]
    Engine {
        /// The game.
        game: String,
        /// The engine asked for.
        engine: Engine,
    },
    /// Misère play of a loopy game, which the kernel does not compute.
    #[error("{game} is loopy: its misère play is not computed (the retrograde kernel computes normal play)")]
    Misere {
        /// The game.
        game: String,
    },
    /// A streamed or distributed fill.
    #[error(
        "the retrograde kernel keeps the whole game graph in memory on one machine: it is not \
         streamed or distributed"
    )]
    Layout,
    /// A game whose moves leave sums, which the kernel's graph of single positions cannot hold.
    #[error("{game}'s moves leave sums of positions, which the retrograde kernel does not take")]
    Sums {
        /// The game.
        game: String,
    },
    /// A table smaller than the board on an axis that a move raises: the positions a move
    /// reaches would be missing.
    #[error(
        "{game} raises axis `{axis}`, so its table is the whole board: the size on that axis \
         must be its `max`, {bound}, not {asked}"
    )]
    Shape {
        /// The game.
        game: String,
        /// The axis.
        axis: String,
        /// The axis' largest coordinate.
        bound: Coord,
        /// The size asked for.
        asked: Coord,
    },
    /// A Grundy table asked of the retrograde kernel (a loopy game's, or the retrograde
    /// engine's), whose values may be ∞.
    #[error(
        "{game}'s table comes from the retrograde kernel, whose generalized Sprague–Grundy \
         values (∞ where play may go on forever) a Grundy table does not hold; this analysis \
         takes no loopy game and no retrograde engine"
    )]
    NotAGrundyTable {
        /// The game.
        game: String,
    },
}

/// A table prepared for the retrograde kernel: every position of the shape, which holds every
/// position its moves reach.
pub struct RetrogradeFill<'g> {
    game: &'g Game,
    shape: TableShape,
    runtime: Runtime,
}

impl<'g> RetrogradeFill<'g> {
    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// Checks that `shape` is closed under `game`'s moves and that they leave single positions.
    pub(crate) fn new(
        game: &'g Game,
        shape: &TableShape,
        runtime: Runtime,
    ) -> Result<RetrogradeFill<'g>, LoopyRefusal> {
        let name = || game.name().to_string();
        // The labelling reads the same moves at every position; `FillRequest::prepare` sends a
        // game with terminal positions to the reference fill, never here.
        debug_assert!(game.terminal().is_none(), "{} has terminal positions", game.name());
        if game.rules().iter().any(|r| !matches!(r.form(), MoveForm::Translate { .. })) {
            return Err(LoopyRefusal::Sums { game: name() });
        }
        for (d, axis) in game.axes().iter().enumerate() {
            if let (true, Some(bound)) = (game.raises_axis(d), axis.max) {
                if shape.max()[d] != bound {
                    let (axis, asked) = (axis.name.clone(), shape.max()[d]);
                    return Err(LoopyRefusal::Shape { game: name(), axis, bound, asked });
                }
            }
        }
        Ok(RetrogradeFill { game, shape: shape.clone(), runtime })
    }

    /// The table's shape.
    pub fn shape(&self) -> &TableShape {
        &self.shape
    }

    /// The bytes the graph and the labels take besides its moves, which are counted (and
    /// checked) when the graph is built; for an acyclic game, which builds no graph, the labels,
    /// the positions in order and their levels while they are sorted.
    pub fn planned_bytes(&self) -> u128 {
        let per_position = if self.game.descent().is_some() {
            DESCENDING_BYTES_PER_POSITION
        } else {
            BYTES_PER_POSITION
        };
        self.shape.cells() * u128::from(per_position)
    }

    /// Builds the game graph and labels it, on the fill's threads.
    ///
    /// # Errors
    /// [`RetrogradeError`]: a graph too large for memory, or cancelled.
    pub fn fill(&self, progress: &dyn Progress) -> Result<LoopyTable, RetrogradeError> {
        let table = self.fill_resumable(None, progress, &mut |_| Control::Continue)?;
        Ok(table.expect("never stopped"))
    }

    /// The positions of the table: the length of a labelling of it.
    pub fn positions(&self) -> usize {
        usize::try_from(self.shape.cells()).unwrap_or(usize::MAX)
    }

    /// [`RetrogradeFill::fill`], resumable: the labelling goes on from `start` (a checkpoint's,
    /// of [`RetrogradeFill::positions`] positions) when there is one, and after each round
    /// `after_round` sees the labelling (to save it) and may stop the run: then `Ok(None)`. An
    /// acyclic game started afresh takes its one pass, which has no rounds to stop between.
    ///
    /// # Errors
    /// [`RetrogradeError`]: a graph too large for memory, or cancelled.
    ///
    /// # Panics
    /// If `start` has another number of positions.
    pub fn fill_resumable(
        &self,
        start: Option<Labelling>,
        progress: &dyn Progress,
        after_round: &mut (dyn FnMut(&Labelling) -> Control + Send),
    ) -> Result<Option<LoopyTable>, RetrogradeError> {
        progress.runs(Engine::Retrograde);
        let shape = &self.shape;
        let positions = usize::try_from(shape.cells())
            .map_err(|_| RetrogradeError::TooManyPositions(u64::MAX))?;
        let game = self.game;
        let moves = FlatMoves::new(game, shape);
        self.runtime.install(|| {
            // A game without cycles (its moves all lower some weighted sum) needs no rounds and
            // no graph: one pass in waves of that sum straight from the rules, as the wave
            // engines run the coordinate sum.
            let descent = game.descent();
            if let (Some(w), None) = (&descent, &start) {
                let options = |u: usize, out: &mut Vec<usize>| moves.options(u, out);
                let (values, moves) =
                    descending_fill(positions, options, |u| moves.level(u, w), progress)?;
                let (shape, moves) = (shape.clone(), moves as usize);
                return Ok(Some(LoopyTable { shape, graph: None, moves, values, descent }));
            }
            let graph =
                GameGraph::build(self.runtime.memory(), positions, |u, out| moves.options(u, out))?;
            let start = start.unwrap_or_else(|| Labelling::start(positions));
            let Some(values) = label_from(&graph, start, progress, after_round)? else {
                return Ok(None);
            };
            let moves = graph.moves();
            Ok(Some(LoopyTable {
                shape: shape.clone(),
                graph: Some(graph),
                moves,
                values,
                descent,
            }))
        })
    }
}

/// A game's step, jump and slide rules against a table, as index arithmetic: what the graph is
/// built from, nothing allocated per position. Their meaning is [`Game::options`], which the
/// tests hold this to. The table holds every option of its positions (a raised axis is whole,
/// see [`RetrogradeFill::new`], and every other axis is only lowered), so an option is a move
/// that stays inside the table.
struct FlatMoves {
    lens: Vec<usize>,
    stride: Vec<usize>,
    rays: Vec<FlatRay>,
}

/// The moves along one direction (a step's offset is a direction taken once).
struct FlatRay {
    direction: Vec<Coord>,
    /// How far one unit of the move goes in the row-major index.
    flat: isize,
    amounts: RayAmounts,
}

#[derive(Clone)]
enum RayAmounts {
    /// An increasing list of amounts (a step: just 1).
    List(Vec<usize>),
    /// Every amount from 1 up to a bound, if any (a slide).
    UpTo(Option<usize>),
}

/// The board a loopy game's values are computed on to answer `positions`: each bounded axis
/// whole (a move may raise it), each unbounded one (no move raises it) up to the largest
/// coordinate asked.
///
/// # Errors
/// A position that is not the game's.
pub fn board_for(game: &Game, positions: &[Vec<Coord>]) -> Result<TableShape, ModelError> {
    let max: Vec<Coord> = game
        .axes()
        .iter()
        .enumerate()
        .map(|(d, axis)| {
            axis.max.unwrap_or_else(|| {
                positions.iter().map(|p| p[d]).max().unwrap_or(axis.min).max(axis.min)
            })
        })
        .collect();
    let text: Vec<String> = max.iter().map(Coord::to_string).collect();
    TableShape::new(game, &max, &text.join("x"))
}

/// A loopy game's table: every position's generalized Sprague–Grundy value, in row-major order.
pub struct LoopyTable {
    shape: TableShape,
    /// The game graph, kept for the K of ∞ values; `None` for an acyclic game valued straight
    /// from its rules (every value finite).
    graph: Option<GameGraph>,
    /// The moves (repeats removed).
    moves: usize,
    values: GeneralizedValues,
    descent: Option<Vec<Coord>>,
}

impl LoopyTable {
    /// The table's shape.
    pub fn shape(&self) -> &TableShape {
        &self.shape
    }

    /// Each position's label in row-major order: its finite value, or [`INFINITE`].
    pub fn labels(&self) -> &[u32] {
        self.values.labels()
    }

    /// The finished labelling, as a checkpoint keeps it (a run that could not write the table
    /// saves it, and the next writes it without labelling again).
    pub fn labelling(&self) -> Labelling {
        let labels = self.values.labels().to_vec();
        let rounds = labels.iter().filter(|&&l| l != INFINITE).max().map_or(0, |&l| l + 1);
        let labelled = labels.len();
        Labelling { labels, rounds, labelled }
    }

    /// The value of the position at row-major `index`, with its K when ∞.
    pub fn value_at(&self, index: usize) -> LoopyValue {
        match &self.graph {
            Some(graph) => self.values.value(graph, index),
            None => LoopyValue::Finite(self.values.labels()[index]),
        }
    }

    /// The outcome of the position at row-major `index` (without building its K).
    pub fn outcome_at(&self, index: usize) -> LoopyOutcome {
        match &self.graph {
            Some(graph) => self.values.outcome(graph, index),
            None if self.values.labels()[index] == 0 => LoopyOutcome::P,
            None => LoopyOutcome::N,
        }
    }

    /// Every position's outcome, in row-major order (on the pool).
    pub fn outcomes(&self) -> Vec<LoopyOutcome> {
        (0..self.labels().len()).into_par_iter().map(|i| self.outcome_at(i)).collect()
    }

    /// The value of position `pos` (`None` outside the table).
    pub fn value(&self, pos: &[Coord]) -> Option<LoopyValue> {
        self.shape.index_of(pos).map(|index| self.value_at(index))
    }

    /// How many positions are P, N and D.
    pub fn outcome_counts(&self) -> [u64; 3] {
        let mut counts = [0u64; 3];
        for outcome in self.outcomes() {
            let slot = match outcome {
                LoopyOutcome::P => 0,
                LoopyOutcome::N => 1,
                LoopyOutcome::D => 2,
            };
            counts[slot] += 1;
        }
        counts
    }

    /// The weights under which every move lowers (the game's [`Game::descent`]), when the
    /// game has no cycles: its values were found in one pass in waves of that weighted sum, and
    /// are all finite.
    pub fn descent(&self) -> Option<&[Coord]> {
        self.descent.as_deref()
    }

    /// [`LoopyTable::descent`] when `game`, its game, has a move that raises a coordinate: a
    /// game that looks loopy by its moves but whose play cannot go round (worth saying: its
    /// values are plain Sprague–Grundy values).
    pub fn hidden_descent(&self, game: &Game) -> Option<&[Coord]> {
        self.descent().filter(|_| game.is_loopy())
    }

    /// The game's moves on the board (repeats removed).
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// The table as every consumer takes it ([`grundy_core::Table::of_loopy`]): its labels
    /// (copied: 4 bytes a position) and its generalized values.
    pub fn into_table(self, game: Game) -> grundy_core::Table {
        let labels = grundy_core::GrundyTable::from_vec(self.shape.clone(), self.labels().to_vec());
        grundy_core::Table::of_loopy(game, labels, std::sync::Arc::new(self))
    }
}

impl grundy_core::LoopyCells for LoopyTable {
    fn value_at(&self, index: usize) -> LoopyValue {
        LoopyTable::value_at(self, index)
    }

    fn outcome_at(&self, index: usize) -> LoopyOutcome {
        LoopyTable::outcome_at(self, index)
    }
}

mod graph;
mod moves;
#[cfg(test)]
mod tests;
