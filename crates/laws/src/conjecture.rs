//! Conjecture checks: a closed form against a table, with counterexamples, and a proof for every
//! board where the game's moves allow one.

use crate::certificate::{prove_periodic, reach, Certificate, PeriodicClaim};
use crate::error::{Error, ErrorKind};
use crate::expr::{lcm, EvalError, Expr, ExprError, Type};
use crate::proof::Proof;
use grundy_compute::{Budget, Progress};
use grundy_core::{
    Axis, Cell, CellKind, Coord, Game, GrundyTable, LoopyOutcome, Table, TableShape,
};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;

/// What a conjecture claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimKind {
    /// The P-positions are exactly where the condition holds.
    PSet,
    /// The value equals the expression.
    Values,
    /// The condition (which may use `g`) holds on every cell.
    Holds,
    /// The draws of a loopy game are exactly where the condition holds.
    Draws,
}

impl ClaimKind {
    /// Every kind, in the order front ends list them.
    pub const ALL: [ClaimKind; 4] =
        [ClaimKind::PSet, ClaimKind::Values, ClaimKind::Holds, ClaimKind::Draws];

    /// The option of `grundy check` that takes a claim of this kind: `p-set`, `values`, `holds`,
    /// `draws`; also its name wherever a kind is given as text (`ClaimKind::from_str`).
    pub fn option(self) -> &'static str {
        match self {
            ClaimKind::PSet => "p-set",
            ClaimKind::Values => "values",
            ClaimKind::Holds => "holds",
            ClaimKind::Draws => "draws",
        }
    }

    /// The claim named in messages: `a P-set claim`, `a values claim`, `a holds claim`.
    pub fn noun(self) -> &'static str {
        match self {
            ClaimKind::PSet => "a P-set claim",
            ClaimKind::Values => "a values claim",
            ClaimKind::Holds => "a holds claim",
            ClaimKind::Draws => "a draws claim",
        }
    }
}

/// A claim's kind named as text, by its [`ClaimKind::option`] name: what every front end that
/// takes a kind as a word parses (the view's API, Python's keyword), so that all take every kind.
impl std::str::FromStr for ClaimKind {
    type Err = UnknownClaimKind;

    fn from_str(name: &str) -> Result<ClaimKind, UnknownClaimKind> {
        ClaimKind::ALL
            .into_iter()
            .find(|kind| kind.option() == name)
            .ok_or_else(|| UnknownClaimKind(name.to_string()))
    }
}

/// A claim kind's name that is none of [`ClaimKind::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{}` is no kind of claim: write {}", printable_name(.0), kinds_listed())]
pub struct UnknownClaimKind(pub String);

/// The name as a message quotes it: control characters escaped, cut at 60 characters.
fn printable_name(name: &str) -> String {
    let escaped: String = name.chars().take(60).flat_map(char::escape_default).collect();
    match name.chars().count() > 60 {
        true => format!("{escaped}..."),
        false => escaped,
    }
}

/// "p-set, values, holds or draws".
fn kinds_listed() -> String {
    let names: Vec<&str> = ClaimKind::ALL.iter().map(|kind| kind.option()).collect();
    let (last, rest) = names.split_last().expect("there are kinds");
    format!("{} or {last}", rest.join(", "))
}

/// The variables of a claim about a table with `axes`: the axis names, then `i`, `j`, `k` for
/// the axes (unless an axis already has that name), then `g` for `--holds`.
#[derive(Clone, Debug)]
pub struct Variables {
    names: Vec<String>,
    /// For each name: the axis it reads, or `None` for `g`.
    sources: Vec<Option<usize>>,
}

impl Variables {
    /// The variables for `axis_names`, with `g` when `with_value`.
    pub fn new(axis_names: &[&str], with_value: bool) -> Variables {
        let mut names: Vec<String> = axis_names.iter().map(|n| n.to_string()).collect();
        let mut sources: Vec<Option<usize>> = (0..axis_names.len()).map(Some).collect();
        for (axis, alias) in ["i", "j", "k"].into_iter().enumerate().take(axis_names.len()) {
            if !names.iter().any(|n| n == alias) {
                names.push(alias.to_string());
                sources.push(Some(axis));
            }
        }
        if with_value {
            names.push("g".to_string());
            sources.push(None);
        }
        Variables { names, sources }
    }

    /// The names, in slot order.
    pub fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// Fills `slots` for the cell at `pos` with value `g`.
    #[inline]
    pub fn fill(&self, slots: &mut [i64], pos: &[Coord], g: i64) {
        for (slot, source) in slots.iter_mut().zip(&self.sources) {
            *slot = match source {
                Some(axis) => pos[*axis],
                None => g,
            };
        }
    }

    /// The period on each axis, from the per-slot periods of an expression.
    fn axis_periods(&self, slot_periods: &[u64], dims: usize) -> Vec<u64> {
        let mut periods = vec![1u64; dims];
        for (source, &p) in self.sources.iter().zip(slot_periods) {
            if let Some(axis) = source {
                periods[*axis] = lcm(periods[*axis], p);
            }
        }
        periods
    }
}

/// A claim, parsed and type-checked against a table's axes.
#[derive(Clone, Debug)]
pub struct Conjecture {
    kind: ClaimKind,
    expr: Expr,
    variables: Variables,
}

impl Conjecture {
    /// Why `stated` cannot be the period of this claim on a table of `dims` axes: the period its
    /// expression's form shows does not divide it (issue 28: `--period 1x1` for a claim of
    /// period 2 was accepted). `None` when it can be (or the form shows no period).
    pub fn refuse_period(&self, stated: &[u64], dims: usize) -> Option<String> {
        let own = self.variables.axis_periods(&self.expr.periods()?, dims);
        if stated.iter().zip(&own).all(|(s, o)| s % o == 0) {
            return None;
        }
        let shown = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join("x");
        Some(format!(
            "the period {} is not a multiple of {}, the period the claim's form shows; state a \
             multiple of it, or leave the period out",
            shown(stated),
            shown(&own)
        ))
    }

    /// Parses `text` as a claim of `kind` about a table whose axes are named `axis_names`.
    pub fn parse(
        kind: ClaimKind,
        text: &str,
        axis_names: &[&str],
    ) -> Result<Conjecture, ExprError> {
        Conjecture::parse_named(kind, text, axis_names, kind.noun())
    }

    /// [`Conjecture::parse`], naming the claim `name` in a type error (a front end passes the
    /// option that gave it, e.g. `--values`).
    pub fn parse_named(
        kind: ClaimKind,
        text: &str,
        axis_names: &[&str],
        name: &str,
    ) -> Result<Conjecture, ExprError> {
        let variables = Variables::new(axis_names, kind == ClaimKind::Holds);
        let expr = Expr::parse(text, &variables.names())?;
        let expected = if kind == ClaimKind::Values { Type::Int } else { Type::Bool };
        expr.expect(expected, name)?;
        Ok(Conjecture { kind, expr, variables })
    }

    /// What the conjecture claims.
    pub fn kind(&self) -> ClaimKind {
        self.kind
    }

    /// Whether the claim agrees at one cell whose value (`None`: not a finite value) and
    /// outcome are given: a cheap filter before a check of every cell. A draws claim, and an
    /// expression that cannot be evaluated there, are left to the full check (`true`).
    pub(crate) fn agrees_at(&self, pos: &[Coord], value: Option<i64>, is_p: bool) -> bool {
        let mut slots = vec![0i64; self.variables.names.len()];
        self.variables.fill(&mut slots, pos, value.unwrap_or(INFINITE_G));
        let agrees = match self.kind {
            ClaimKind::PSet => self.expr.eval_bool(&slots).map(|claimed| claimed == is_p),
            ClaimKind::Values => self.expr.eval_int(&slots).map(|claimed| value == Some(claimed)),
            ClaimKind::Holds => self.expr.eval_bool(&slots),
            ClaimKind::Draws => Ok(true),
        };
        agrees.unwrap_or(true)
    }

    /// The operations one evaluation of the claim does ([`Expr::size`]): a check costs this
    /// times the cells.
    pub fn size(&self) -> usize {
        self.expr.size()
    }
}

/// What the claim says at a counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Claimed {
    /// `P` or `N`, for a P-set claim.
    Outcome(&'static str),
    /// The claimed value.
    Value(i64),
    /// The condition's value (false at a counterexample).
    Holds(bool),
}

impl fmt::Display for Claimed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Claimed::Outcome(o) => f.write_str(o),
            Claimed::Value(v) => v.fmt(f),
            Claimed::Holds(b) => b.fmt(f),
        }
    }
}

/// A cell where the claim and the table disagree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counterexample {
    /// The cell's coordinates.
    pub position: Vec<Coord>,
    /// The table's value there.
    pub value: u32,
    /// What the claim says there.
    pub claimed: Claimed,
}

/// Whether a claim agrees with a table. JSON: `agrees` or `disagrees`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// On every cell.
    Agrees,
    /// On one cell or more.
    Disagrees,
}

/// The result of `grundy check`, in the JSON contract's shape.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The game's (or file's) name.
    pub game: String,
    /// The largest coordinates.
    pub size: Vec<Coord>,
    /// `p-set`, `values` or `holds`.
    pub claim: ClaimKind,
    /// The expression as given.
    pub expression: String,
    /// Cells checked.
    pub cells: u64,
    /// Cells where the claim fails.
    pub disagreements: u64,
    /// The first counterexamples in row-major order.
    pub counterexamples: Vec<Counterexample>,
    /// Whether the claim agrees with every cell of the table.
    pub verdict: Verdict,
    /// Whether the claim is proved for every board, and the proof or why there is none. JSON:
    /// `proved` and `argument`.
    #[serde(flatten)]
    pub proof: Proof,
    /// The box the proof checked.
    pub checked_box: Option<Vec<[Coord; 2]>>,
}

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
    if described.loopy().is_some() {
        if period.is_some() {
            return Err(Error::new(ErrorKind::LoopyPeriod { table: name.to_string() }));
        }
        return check_loopy(described, conjecture, show, budget);
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

/// The value `g` stands for at an ∞ position of a loopy game in a holds claim: the one number
/// for ∞ of every output ([`grundy_core::INFINITE_G`]).
pub use grundy_core::INFINITE_G;

/// [`check_with`] of a loopy game's table: a P-set claim is about the P-positions, a draws
/// claim about the draws; a values claim compares finite values (an ∞ position disagrees with
/// every number); in a holds claim `g` is [`INFINITE_G`] at an ∞ position. No theorem applies
/// to a loopy game here: an agreeing claim is evidence on this board, not a proof.
fn check_loopy(
    described: &Table,
    conjecture: &Conjecture,
    show: usize,
    budget: &Budget<'_>,
) -> Result<CheckReport, Error> {
    let shape = described.data().shape();
    let labels = described.data().cells().to_u32_vec();
    let outcomes: Vec<LoopyOutcome> =
        (0..labels.len()).into_par_iter().map(|i| described.outcome_at(i)).collect();
    let game = described.game().expect("a loopy table is a game's");
    let lens = shape.lens();
    let row_len = *lens.last().expect("tables have axes");
    let rows: Vec<Result<(u64, Vec<Counterexample>), Error>> = labels
        .par_chunks(row_len)
        .zip(outcomes.par_chunks(row_len))
        .enumerate()
        .map(|(row, (labels, outcomes))| {
            let cells = labels.iter().copied().zip(outcomes.iter().copied());
            let finite = |label: u32| (label != u32::MAX).then_some(label);
            let cell = |(label, _): (u32, LoopyOutcome)| {
                (finite(label).map_or(INFINITE_G, i64::from), label)
            };
            let judged = |slots: &[i64], (label, outcome): (u32, LoopyOutcome)| {
                judge_loopy(conjecture, slots, finite(label), outcome)
            };
            check_row_with(conjecture, shape.axes(), &lens, row, cells, show, cell, judged)
        })
        .collect();
    let rows: Vec<(u64, Vec<Counterexample>)> = rows.into_iter().collect::<Result<_, _>>()?;
    let disagreements = rows.iter().map(|(count, _)| count).sum();
    let counterexamples = rows.into_iter().flat_map(|(_, found)| found).take(show).collect();
    let cells = labels.len() as u64;
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

/// As [`judge`], at a position of a loopy game: `value` is `None` for ∞.
fn judge_loopy(
    conjecture: &Conjecture,
    slots: &[i64],
    value: Option<u32>,
    outcome: LoopyOutcome,
) -> Result<Option<Claimed>, EvalError> {
    // A set claim fails where the expression and the position's outcome disagree; it then says
    // what the claim would make the position.
    let set = |actual: bool, inside: &'static str, outside: &'static str| {
        let claimed = conjecture.expr.eval_bool(slots)?;
        Ok((claimed != actual).then_some(Claimed::Outcome(if claimed { inside } else { outside })))
    };
    match conjecture.kind {
        ClaimKind::PSet => set(outcome == LoopyOutcome::P, "P", "N or D"),
        ClaimKind::Draws => set(outcome == LoopyOutcome::D, "D", "P or N"),
        ClaimKind::Values => {
            let claimed = conjecture.expr.eval_int(slots)?;
            Ok((value.map(i64::from) != Some(claimed)).then_some(Claimed::Value(claimed)))
        }
        ClaimKind::Holds => {
            Ok((!conjecture.expr.eval_bool(slots)?).then_some(Claimed::Holds(false)))
        }
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
    let certificate = if disagreements > 0 {
        Certificate::none("the claim disagrees with the table")
    } else if game.is_some_and(Game::is_loopy) {
        Certificate::none(
            "no theorem is applied to a loopy game: the claim agrees with this board, which is \
             evidence, not a proof for other boards",
        )
    } else {
        prove(game, conjecture, period, &budget.from_now())
    };
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
    shape: TableShape,
    show: usize,
    next_row: usize,
    cells: u64,
    disagreements: u64,
    counterexamples: Vec<Counterexample>,
}

impl<'a> RowChecker<'a> {
    /// A checker for a table of `shape`, keeping the first `show` counterexamples.
    pub fn new(conjecture: &'a Conjecture, shape: &TableShape, show: usize) -> RowChecker<'a> {
        RowChecker {
            conjecture,
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
        let (count, found) = check_row(
            self.conjecture,
            self.shape.axes(),
            &self.shape.lens(),
            self.next_row,
            row.iter().copied(),
            wanted,
        )?;
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
    let one_row = |(row, cells): (usize, &[C])| {
        if progress.cancelled() {
            return Err(Error::new(ErrorKind::Cancelled));
        }
        let checked =
            check_row(conjecture, table.axes(), &lens, row, cells.iter().map(|&c| c.into()), show);
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
        Lanes::Caller => values
            .chunks(row_len)
            .enumerate()
            .map(one_row)
            .try_fold((0, Vec::new()), |sum, row| merge(sum, row?)),
        // Reduced in row order, errors too: the error reported is the first row's that has
        // one, on any number of threads (`try_reduce` would give whichever came first).
        Lanes::Pool => values.par_chunks(row_len).enumerate().map(one_row).reduce(
            || Ok((0, Vec::new())),
            |first, next| match (first, next) {
                (Err(err), _) | (Ok(_), Err(err)) => Err(err),
                (Ok(first), Ok(next)) => merge(first, next),
            },
        ),
    }
}

/// Checks row number `row` (counted in row-major order over all axes but the last): the number
/// of disagreements and the first `show` counterexamples.
fn check_row(
    conjecture: &Conjecture,
    axes: &[Axis],
    lens: &[usize],
    row: usize,
    cells: impl Iterator<Item = u32>,
    show: usize,
) -> Result<(u64, Vec<Counterexample>), Error> {
    let judged = |slots: &[i64], value: u32| judge(conjecture, slots, value);
    check_row_with(conjecture, axes, lens, row, cells, show, |v| (i64::from(v), v), judged)
}

/// [`check_row`] over cells of any kind: `cell` gives a cell's `g` and the value a
/// counterexample reports, `judge` what the claim says where it fails.
#[allow(clippy::too_many_arguments)]
fn check_row_with<T: Copy>(
    conjecture: &Conjecture,
    axes: &[Axis],
    lens: &[usize],
    row: usize,
    cells: impl Iterator<Item = T>,
    show: usize,
    cell: impl Fn(T) -> (i64, u32),
    judge: impl Fn(&[i64], T) -> Result<Option<Claimed>, EvalError>,
) -> Result<(u64, Vec<Counterexample>), Error> {
    let dims = lens.len();
    let mut pos = vec![0; dims];
    let mut rest = row;
    for d in (0..dims - 1).rev() {
        pos[d] = axes[d].min + (rest % lens[d]) as Coord;
        rest /= lens[d];
    }
    let mut slots = vec![0i64; conjecture.variables.names.len()];
    let mut count = 0u64;
    let mut found = Vec::new();
    for (offset, item) in cells.enumerate() {
        pos[dims - 1] = axes[dims - 1].min + offset as Coord;
        let (g, value) = cell(item);
        conjecture.variables.fill(&mut slots, &pos, g);
        let verdict = judge(&slots, item).map_err(|e| eval_error(&pos, e))?;
        if let Some(claimed) = verdict {
            count += 1;
            if found.len() < show {
                found.push(Counterexample { position: pos.clone(), value, claimed });
            }
        }
    }
    Ok((count, found))
}

fn eval_error(pos: &[Coord], error: EvalError) -> Error {
    Error::new(ErrorKind::Eval { position: pos.to_vec(), error })
}

/// `Some(what the claim says)` where the claim fails at a cell, `None` where it holds.
#[inline]
fn judge(conjecture: &Conjecture, slots: &[i64], value: u32) -> Result<Option<Claimed>, EvalError> {
    Ok(match conjecture.kind {
        ClaimKind::PSet => {
            let claimed_p = conjecture.expr.eval_bool(slots)?;
            (claimed_p != (value == 0)).then_some(Claimed::Outcome(if claimed_p {
                "P"
            } else {
                "N"
            }))
        }
        ClaimKind::Values => {
            let claimed = conjecture.expr.eval_int(slots)?;
            (claimed != i64::from(value)).then_some(Claimed::Value(claimed))
        }
        ClaimKind::Holds => (!conjecture.expr.eval_bool(slots)?).then_some(Claimed::Holds(false)),
        ClaimKind::Draws => unreachable!("a draws claim is checked on loopy tables only"),
    })
}

/// The periods a box proof of `conjecture` on `game` takes, and how they were found; or why no
/// box proof applies.
fn proof_plan(
    game: Option<&Game>,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
) -> Result<(Vec<u64>, &'static str), Certificate> {
    let Some(game) = game else {
        return Err(Certificate::none(
            "the game's rules are not known for this table (read from a file, or a slice of a 3-D table)",
        ));
    };
    if conjecture.kind == ClaimKind::Holds {
        return Err(Certificate::none(
            "a claim about the values themselves (one that uses g) is checked on the table only",
        ));
    }
    if let Err(why) = reach(game) {
        return Err(Certificate::none(format!("the moves are unbounded: {why}")));
    }
    // The box argument needs the claim to repeat on the whole infinite board, so the period is
    // read from the expression's form (`Expr::periods`), never sampled from the table: a claim
    // such as `n % 2 == 1 && n < 1000` repeats on any table smaller than 1000 and is still false.
    let Some(slot_periods) = conjecture.expr.periods() else {
        return Err(Certificate::none(
            "the expression's form does not show that it repeats on the whole board (a coordinate \
             occurs outside a residue such as `x % c` or `(x + y) % c`), so the agreement holds on \
             the table only",
        ));
    };
    let own = conjecture.variables.axis_periods(&slot_periods, game.dims());
    let shown = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match period {
        Some(stated) if stated.iter().zip(&own).all(|(s, o)| s % o == 0) => Ok((
            stated.to_vec(),
            "as stated, a multiple of the period read from the expression's form",
        )),
        Some(stated) => Err(Certificate::none(format!(
            "the expression's form shows the period [{}], which does not divide the stated \
             period [{}]; leave the stated period out to prove the claim with the period of its \
             form",
            shown(&own),
            shown(stated)
        ))),
        None => Ok((own, "read from the expression's form")),
    }
}

/// The work of the proof that follows an agreeing check of `conjecture` on `described`, in the
/// units of [`Conjecture::size`] × cells: the box's cells times the options of its far corner
/// and the claim's size; 0 when no box proof applies. A server that bounds the work of each
/// request counts it beside the check's (issue 59: a 60-byte claim on a small table made the
/// view prove it over a 49 M-cell box).
pub fn proof_work(described: &Table, conjecture: &Conjecture) -> u128 {
    let game = described.game();
    match (game, proof_plan(game, conjecture, None)) {
        (Some(game), Ok((periods, _))) => {
            crate::certificate::box_work(game, &periods) * conjecture.size() as u128
        }
        _ => 0,
    }
}

/// Tries to prove an agreeing claim for every board.
fn prove(
    game: Option<&Game>,
    conjecture: &Conjecture,
    period: Option<&[u64]>,
    budget: &Budget<'_>,
) -> Certificate {
    let (periods, how) = match proof_plan(game, conjecture, period) {
        Ok(plan) => plan,
        Err(none) => return none,
    };
    let game = game.expect("a plan is made for a game");
    let slots_at = |pos: &[Coord]| {
        let mut slots = vec![0; conjecture.variables.names.len()];
        conjecture.variables.fill(&mut slots, pos, 0);
        slots
    };
    match conjecture.kind {
        ClaimKind::PSet => {
            let claimed = |pos: &[Coord]| conjecture.expr.eval_bool(&slots_at(pos)).ok();
            prove_periodic(game, &PeriodicClaim::PSet(&claimed), &periods, how, budget)
        }
        ClaimKind::Values => {
            let claimed = |pos: &[Coord]| conjecture.expr.eval_int(&slots_at(pos)).ok();
            prove_periodic(game, &PeriodicClaim::Values(&claimed), &periods, how, budget)
        }
        ClaimKind::Holds => unreachable!("handled above"),
        ClaimKind::Draws => unreachable!("a draws claim is checked on loopy tables only"),
    }
}
