//! The check: a claim against every cell of a table (held, streamed, or a loopy game's), with
//! its first counterexamples, then the proof attempted when it agrees.

use super::judge::{judge, verdict, Seen};
use super::proving::prove;
use super::{CheckReport, ClaimKind, Conjecture, Counterexample, Edges, Slot, Verdict};
use crate::error::{Error, ErrorKind};
use crate::proof::certificate::Certificate;
use grundy_compute::{Budget, Progress, Spent};
use grundy_core::{Axis, Cell, CellKind, Coord, Game, GrundyTable, Table, TableShape};
use grundy_expr::compiled::{self, Input, LANES};
use grundy_expr::EvalError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Checks `conjecture` on every cell of `described` (in parallel), keeping the first `show`
/// counterexamples, then tries to prove it for every board of the table's game, when it is
/// known. `period` is a period stated for the claim (one per axis).
pub fn check(
    described: &Table,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    show: usize,
) -> Result<CheckReport, Error> {
    check_with(described, conjecture, period, show, &Budget::default())
}

/// [`check`] within `budget`: each row checked is told to its progress, which stops the check
/// with [`ErrorKind::Cancelled`] as soon as it asks (a view's client that went away), and the
/// proof attempted after an agreement runs within its time (a proof that runs out says so and
/// proves nothing).
pub fn check_with(
    described: &Table,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    show: usize,
    budget: &Budget<'_>,
) -> Result<CheckReport, Error> {
    check_in(described, conjecture, period, show, budget, Lanes::Pool)
}

/// Where a check's rows run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Spread over the caller's rayon pool.
    Pool,
    /// On the caller's thread alone: a server's light check of a table of values, answered
    /// beside heavy work that keeps the pool busy (issue 59: a light check waited 83 s behind
    /// two heavy ones). A loopy game's table is checked on the caller's pool even so (rayon's
    /// global one when it has none).
    Caller,
}

/// [`check_with`], the rows of a table of values checked in `lanes`.
pub fn check_in(
    described: &Table,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    show: usize,
    budget: &Budget<'_>,
    lanes: Lanes,
) -> Result<CheckReport, Error> {
    let progress = budget.progress();
    let (table, kind, game, name) =
        (described.data(), described.kind(), described.game(), described.name());
    if let Some(seen) = labelled_cells(described) {
        if period.is_some() {
            return Err(Error::new(ErrorKind::LoopyPeriod { table: name.to_string() }));
        }
        return check_loopy(described, seen, conjecture, show, budget);
    }
    if kind == CellKind::Outcomes && conjecture.kind != ClaimKind::PSet {
        return Err(Error::new(ErrorKind::OutcomesOnly { table: name.to_string() }));
    }
    if conjecture.kind == ClaimKind::Draws {
        return Err(Error::new(ErrorKind::NoDraws { table: name.to_string() }));
    }
    budget.starts(table.len() as u64);
    let (disagreements, counterexamples) = grundy_core::with_cells!(table.cells(), |values| {
        check_rows(table, values, conjecture, show, progress, lanes)
    })?;
    Ok(report(
        table.shape(),
        game,
        name,
        conjecture,
        period,
        table.len() as u64,
        disagreements,
        counterexamples,
        budget,
    ))
}

/// [`check_with`] of a loopy game's table: a P-set claim is about the P-positions, a draws
/// claim about the draws; a values claim compares finite values (an ∞ position disagrees with
/// every number); in a holds claim `g` is [`INFINITE_G`] at an ∞ position. No theorem applies
/// to a loopy game here: an agreeing claim is evidence on this board, not a proof.
fn check_loopy(
    described: &Table,
    seen: Vec<Seen>,
    conjecture: &Conjecture,
    show: usize,
    budget: &Budget<'_>,
) -> Result<CheckReport, Error> {
    let shape = described.data().shape();
    let game = described.game().expect("a loopy table is a game's");
    let lens = shape.lens();
    let row_len = *lens.last().expect("tables have axes");
    let program = conjecture.compile(shape.axes(), &lens);
    let edges = Edges::of(shape.axes(), &lens, |i| seen[i].g());
    let rows: Vec<Result<(u64, Vec<Counterexample>), Error>> = seen
        .par_chunks(row_len)
        .enumerate()
        .map_init(
            || RowClaim::new(conjecture, program.clone()),
            |claim, (row, cells)| {
                let at = Row { axes: shape.axes(), lens: &lens, row, edges: &edges };
                check_row(claim, &at, cells, show, Draws::Possible)
            },
        )
        .collect();
    let rows: Vec<(u64, Vec<Counterexample>)> = rows.into_iter().collect::<Result<_, _>>()?;
    let disagreements = rows.iter().map(|(count, _)| count).sum();
    let counterexamples = rows.into_iter().flat_map(|(_, found)| found).take(show).collect();
    let cells = seen.len() as u64;
    Ok(report(
        shape,
        Some(game),
        game.name(),
        conjecture,
        None,
        cells,
        disagreements,
        counterexamples,
        budget,
    ))
}

/// A loopy game's cells as claims read them, each label and outcome; `None` for a table of
/// values (or outcomes), whose cells are read as they are. The one place a check asks which.
fn labelled_cells(described: &Table) -> Option<Vec<Seen>> {
    described.loopy()?;
    let labels = described.data().cells().to_u32_vec();
    Some(
        (0..labels.len())
            .into_par_iter()
            .map(|i| Seen::labelled(labels[i], described.outcome_at(i)))
            .collect(),
    )
}

/// Which of `claims` agree with every cell of `described`, in one pass over the table for all
/// of them: each claim is dropped at its first disagreement, or at a cell it cannot be
/// evaluated at, and its later rows are not checked. A claim the table cannot judge (a draws
/// claim without draws, a values claim on outcomes) does not agree. `Err` when `budget` is
/// spent before the pass ends.
pub(crate) fn agreeing(
    described: &Table,
    claims: &[Conjecture],
    budget: &Budget<'_>,
) -> Result<Vec<bool>, Spent> {
    let table = described.data();
    let shape = table.shape();
    let lens = shape.lens();
    let row_len = *lens.last().expect("tables have axes");
    let labelled = labelled_cells(described);
    let loopy = labelled.is_some();
    let judged = |claim: &Conjecture| {
        loopy
            || (claim.kind != ClaimKind::Draws
                && (described.kind() != CellKind::Outcomes || claim.kind == ClaimKind::PSet))
    };
    let alive: Vec<AtomicBool> = claims.iter().map(|c| AtomicBool::new(judged(c))).collect();
    let programs: Vec<compiled::Compiled> =
        claims.iter().map(|claim| claim.compile(shape.axes(), &lens)).collect();
    let spent = std::sync::Mutex::new(None);
    let init = || -> Vec<RowClaim<'_>> {
        claims.iter().zip(&programs).map(|(c, p)| RowClaim::new(c, p.clone())).collect()
    };
    let draws = if loopy { Draws::Possible } else { Draws::None };
    let one_row = |state: &mut Vec<RowClaim<'_>>, agrees: &dyn Fn(&mut RowClaim<'_>) -> bool| {
        if alive.iter().all(|a| !a.load(Ordering::Relaxed)) {
            return;
        }
        if let Some(out) = budget.spent() {
            spent.lock().expect("not poisoned").get_or_insert(out);
            alive.iter().for_each(|a| a.store(false, Ordering::Relaxed));
            return;
        }
        for (claim, alive) in state.iter_mut().zip(&alive) {
            if alive.load(Ordering::Relaxed) && !agrees(claim) {
                alive.store(false, Ordering::Relaxed);
            }
        }
        budget.advance(row_len as u64);
    };
    budget.starts(table.len() as u64);
    let at = |row, edges| Row { axes: shape.axes(), lens: &lens, row, edges };
    if let Some(seen) = labelled {
        let edges = Edges::of(shape.axes(), &lens, |i| seen[i].g());
        seen.par_chunks(row_len).enumerate().for_each_init(init, |state, (row, cells)| {
            one_row(state, &|claim| {
                matches!(check_row(claim, &at(row, &edges), cells, 0, draws), Ok((0, _)))
            })
        });
    } else {
        grundy_core::with_cells!(table.cells(), |values| {
            let edges = Edges::of(shape.axes(), &lens, |i| i64::from(Into::<u32>::into(values[i])));
            values.par_chunks(row_len).enumerate().for_each_init(init, |state, (row, cells)| {
                one_row(state, &|claim| {
                    matches!(check_row(claim, &at(row, &edges), cells, 0, draws), Ok((0, _)))
                })
            })
        });
    }
    if let Some(out) = spent.into_inner().expect("not poisoned") {
        return Err(out);
    }
    Ok(alive.into_iter().map(AtomicBool::into_inner).collect())
}

/// The proof of a claim that agrees with every cell of `described`, attempted within `budget`
/// (none for a loopy game): what a check reports once it found no disagreement.
pub(crate) fn proof_of_agreeing(
    described: &Table,
    conjecture: &Conjecture,
    budget: &Budget<'_>,
) -> Certificate {
    certificate(described.game(), conjecture, None, 0, budget)
}

/// The certificate of a finished check: none when the claim disagrees or the game is loopy,
/// else the proof attempted.
fn certificate(
    game: Option<&Game>,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    disagreements: u64,
    budget: &Budget<'_>,
) -> Certificate {
    if disagreements > 0 {
        Certificate::none("the claim disagrees with the table")
    } else if game.is_some_and(Game::is_loopy) {
        Certificate::none(
            "no theorem is applied to a loopy game: the claim agrees with this board, which is \
             evidence, not a proof for other boards",
        )
    } else {
        prove(game, conjecture, period, &budget.from_now())
    }
}

/// The report of a finished check, with the proof attempted when the claim agreed.
#[allow(clippy::too_many_arguments)]
fn report(
    shape: &TableShape,
    game: Option<&Game>,
    name: &str,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    cells: u64,
    disagreements: u64,
    counterexamples: Vec<Counterexample>,
    budget: &Budget<'_>,
) -> CheckReport {
    let certificate = certificate(game, conjecture, period, disagreements, budget);
    CheckReport {
        game: name.to_string(),
        size: shape.max().to_vec(),
        claim: conjecture.kind,
        expression: conjecture.expr.text().to_string(),
        cells,
        disagreements,
        counterexamples,
        verdict: if disagreements == 0 { Verdict::Agrees } else { Verdict::Disagrees },
        proof: certificate.proof,
        checked_box: certificate.checked_box,
    }
}

/// A check fed one row at a time (the values along the last axis, in row-major order), for a
/// table that is streamed rather than held in memory.
pub struct RowChecker<'a> {
    conjecture: &'a Conjecture,
    claim: RowClaim<'a>,
    shape: TableShape,
    edges: Edges,
    show: usize,
    next_row: usize,
    cells: u64,
    disagreements: u64,
    counterexamples: Vec<Counterexample>,
}

impl<'a> RowChecker<'a> {
    /// A checker for a table of `shape`, keeping the first `show` counterexamples.
    pub fn new(conjecture: &'a Conjecture, shape: &TableShape, show: usize) -> RowChecker<'a> {
        let claim = RowClaim::new(conjecture, conjecture.compile(shape.axes(), &shape.lens()));
        RowChecker {
            conjecture,
            claim,
            edges: Edges::streamed(shape.axes(), &shape.lens()),
            shape: shape.clone(),
            show,
            next_row: 0,
            cells: 0,
            disagreements: 0,
            counterexamples: Vec::new(),
        }
    }

    /// Checks the next row.
    ///
    /// # Errors
    /// A draws claim (the table's game has no draws), or an expression that cannot be
    /// evaluated at some cell.
    pub fn feed(&mut self, row: &[u32]) -> Result<(), Error> {
        if self.conjecture.kind == ClaimKind::Draws {
            return Err(Error::new(ErrorKind::NoDraws { table: "a streamed table".into() }));
        }
        let wanted = self.show - self.counterexamples.len();
        let lens = self.shape.lens();
        let row_at =
            Row { axes: self.shape.axes(), lens: &lens, row: self.next_row, edges: &self.edges };
        if self.conjecture.reads_edges() {
            let pos = row_at.start();
            let cells: Vec<i64> = row.iter().map(|&v| i64::from(v)).collect();
            self.edges.learn(&pos, &cells);
        }
        let row_at =
            Row { axes: self.shape.axes(), lens: &lens, row: self.next_row, edges: &self.edges };
        let (count, found) = check_row(&mut self.claim, &row_at, row, wanted, Draws::None)?;
        self.next_row += 1;
        self.cells += row.len() as u64;
        self.disagreements += count;
        self.counterexamples.extend(found);
        Ok(())
    }

    /// The report, with the proof attempted for `game` when the claim agreed, within `budget`.
    pub fn finish(
        self,
        game: &Game,
        name: &str,
        period: Option<&[u64]>,
        budget: &Budget<'_>,
    ) -> CheckReport {
        report(
            &self.shape,
            Some(game),
            name,
            self.conjecture,
            period,
            self.cells,
            self.disagreements,
            self.counterexamples,
            budget,
        )
    }
}

/// Checks every row (the last axis) of `values` in parallel. Each row keeps its first `show`
/// counterexamples, so merging in row order gives the first ones of the table; an expression
/// that cannot be evaluated is reported at its first cell in row order too (rayon's collect
/// into a `Result` stops at whichever error a thread meets first, so the rows' results are
/// gathered before the first error is taken: `check` once named (5, 1) instead of (1, 1)).
fn check_rows<C: Cell>(
    table: &GrundyTable,
    values: &[C],
    conjecture: &Conjecture,
    show: usize,
    progress: &dyn Progress,
    lanes: Lanes,
) -> Result<(u64, Vec<Counterexample>), Error> {
    let lens = table.shape().lens();
    let row_len = *lens.last().unwrap();
    let program = conjecture.compile(table.axes(), &lens);
    let edges = Edges::of(table.axes(), &lens, |i| i64::from(Into::<u32>::into(values[i])));
    let claim = || RowClaim::new(conjecture, program.clone());
    let one_row = |claim: &mut RowClaim<'_>, (row, cells): (usize, &[C])| {
        if progress.cancelled() {
            return Err(Error::new(ErrorKind::Cancelled));
        }
        let at = Row { axes: table.axes(), lens: &lens, row, edges: &edges };
        let checked = check_row(claim, &at, cells, show, Draws::None);
        progress.advance(row_len as u64);
        checked
    };
    // The rows' counts are added and their counterexamples kept in row order, the first `show`
    // only, as the rows are checked: a table of millions of one-cell rows held a result per row
    // (issue 59: kiki 4000000 × 1 peaked 132 MB above what patterns announced).
    let merge = |(a, mut first): (u64, Vec<Counterexample>), (b, next): (u64, Vec<_>)| {
        first.extend(next.into_iter().take(show.saturating_sub(first.len())));
        Ok((a + b, first))
    };
    match lanes {
        Lanes::Caller => {
            let mut claim = claim();
            values
                .chunks(row_len)
                .enumerate()
                .map(|row| one_row(&mut claim, row))
                .try_fold((0, Vec::new()), |sum, row| merge(sum, row?))
        }
        // Reduced in row order, errors too: the error reported is the first row's that has
        // one, on any number of threads (`try_reduce` would give whichever came first).
        Lanes::Pool => values.par_chunks(row_len).enumerate().map_init(claim, one_row).reduce(
            || Ok((0, Vec::new())),
            |first, next| match (first, next) {
                (Err(err), _) | (Ok(_), Err(err)) => Err(err),
                (Ok(first), Ok(next)) => merge(first, next),
            },
        ),
    }
}

/// Whether a table may hold draws: a P-set claim's counterexample then says "N or D".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Draws {
    None,
    Possible,
}

/// A claim compiled for one table, with the working space of one thread's runs.
struct RowClaim<'c> {
    conjecture: &'c Conjecture,
    program: compiled::Compiled,
    scratch: compiled::Scratch,
}

impl<'c> RowClaim<'c> {
    fn new(conjecture: &'c Conjecture, program: compiled::Compiled) -> RowClaim<'c> {
        let scratch = program.scratch();
        RowClaim { conjecture, program, scratch }
    }
}

/// The cells of a row as a check reads them.
trait RowCells {
    /// How many.
    fn len(&self) -> usize;
    /// Cell `k` as a claim reads it.
    fn seen(&self, k: usize) -> Seen;
    /// `g` of cells `from..from + out.len()`, into `out`.
    fn g(&self, from: usize, out: &mut [i64]);
    /// Whether every cell has a finite value and no draw (a table of values): the check then
    /// compares whole blocks first, and judges cell by cell only a block that disagrees.
    const FINITE: bool;
}

impl<C: Cell> RowCells for &[C] {
    fn len(&self) -> usize {
        <[C]>::len(self)
    }

    #[inline]
    fn seen(&self, k: usize) -> Seen {
        Seen::value(self[k].into())
    }

    #[inline]
    fn g(&self, from: usize, out: &mut [i64]) {
        for (g, &cell) in out.iter_mut().zip(&self[from..]) {
            *g = i64::from(Into::<u32>::into(cell));
        }
    }

    const FINITE: bool = true;
}

impl RowCells for &[Seen] {
    fn len(&self) -> usize {
        <[Seen]>::len(self)
    }

    fn seen(&self, k: usize) -> Seen {
        self[k]
    }

    fn g(&self, from: usize, out: &mut [i64]) {
        for (g, seen) in out.iter_mut().zip(&self[from..]) {
            *g = seen.g();
        }
    }

    const FINITE: bool = false;
}

/// Whether a block of a table of values (`g` finite) agrees with the claim's results
/// `claimed` everywhere: the fast comparison, exactly [`verdict`]'s on such cells.
fn block_agrees(kind: ClaimKind, claimed: &[i64], g: &[i64]) -> bool {
    let agree = |f: fn(i64, i64) -> bool| claimed.iter().zip(g).all(|(&c, &g)| f(c, g));
    match kind {
        ClaimKind::Values => agree(|c, g| c == g),
        ClaimKind::PSet => agree(|c, g| (c != 0) == (g == 0)),
        ClaimKind::Holds => agree(|c, _| c != 0),
        // No table of values has draws, and a draws claim is refused before any row.
        ClaimKind::Draws => false,
    }
}

/// Where a row lies: row number `row` (counted in row-major order over all axes but the last)
/// of a table with `axes` and `lens`, whose edges are `edges`.
struct Row<'r> {
    axes: &'r [Axis],
    lens: &'r [usize],
    row: usize,
    edges: &'r Edges,
}

impl Row<'_> {
    /// The coordinates of the row's first cell.
    fn start(&self) -> Vec<Coord> {
        let dims = self.lens.len();
        let mut pos: Vec<Coord> = self.axes.iter().map(|a| a.min).collect();
        let mut rest = self.row;
        for d in (0..dims - 1).rev() {
            pos[d] = self.axes[d].min + (rest % self.lens[d]) as Coord;
            rest /= self.lens[d];
        }
        pos
    }
}

/// Checks the row `at`: the number of disagreements and the first `show` counterexamples. The claim's program runs on blocks of
/// [`LANES`] cells; a block where it fails is judged again by the interpreter from the failing
/// cell, which names the error (or, were the two ever to differ, decides by the reference).
fn check_row<R: RowCells>(
    claim: &mut RowClaim<'_>,
    at: &Row<'_>,
    cells: R,
    show: usize,
    draws: Draws,
) -> Result<(u64, Vec<Counterexample>), Error> {
    let conjecture = claim.conjecture;
    let (axes, edges) = (at.axes, at.edges);
    let last = at.lens.len() - 1;
    let mut pos = at.start();
    let draws = draws == Draws::Possible;
    let mut count = 0u64;
    let mut found = Vec::new();
    let mut g = [0i64; LANES];
    let mut slots = vec![0i64; conjecture.variables.names.len()];
    for from in (0..cells.len()).step_by(LANES) {
        let lanes = LANES.min(cells.len() - from);
        let g = &mut g[..lanes];
        cells.g(from, g);
        let start = axes[last].min + from as Coord;
        let inputs: Vec<Input<'_>> = conjecture
            .variables
            .slots()
            .iter()
            .map(|source| match *source {
                Slot::Axis(axis) if axis == last => Input::Ramp(start),
                Slot::Axis(axis) => Input::Splat(pos[axis]),
                Slot::Edge(axis) if axis == last => {
                    Input::Lanes(&edges.line(axis)[from..from + lanes])
                }
                Slot::Edge(axis) => {
                    Input::Splat(edges.line(axis)[(pos[axis] - axes[axis].min) as usize])
                }
                Slot::Value => Input::Lanes(g),
            })
            .collect();
        let ran = claim.program.run(&inputs, lanes, &mut claim.scratch);
        if R::FINITE && ran.first_failure.is_none() && block_agrees(conjecture.kind, ran.values, g)
        {
            continue;
        }
        let usable = ran.first_failure.unwrap_or(lanes);
        for k in 0..lanes {
            pos[last] = start + k as Coord;
            let seen = cells.seen(from + k);
            let judged = if k < usable {
                verdict(conjecture.kind, ran.values[k], seen, draws)
            } else {
                conjecture.variables.fill(&mut slots, &pos, seen.g(), edges);
                judge(conjecture, &slots, seen, draws).map_err(|e| eval_error(&pos, e))?
            };
            if let Some(claimed) = judged {
                count += 1;
                if found.len() < show {
                    found.push(Counterexample {
                        position: pos.clone(),
                        value: seen.label(),
                        claimed,
                    });
                }
            }
        }
    }
    Ok((count, found))
}

fn eval_error(pos: &[Coord], error: EvalError) -> Error {
    Error::new(ErrorKind::Eval { position: pos.to_vec(), error })
}
