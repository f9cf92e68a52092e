//! Conjectures: a claim about a table (its kind and its expression, parsed against the table's
//! axes) and the report of its check. The rooms: [`check`](check()) (every cell, with
//! counterexamples: `check.rs`), the one per-cell judge that says what each kind of claim means
//! (`judge.rs`), and the proof attempted when the claim agrees (`proving.rs`, which hands the box
//! to [`crate::proof::certificate`]).

mod check;
mod judge;
mod proving;

pub(crate) use check::{agreeing, proof_of_agreeing};
pub use check::{check, check_in, check_with, Lanes, RowChecker};
pub use proving::{proof_work, AUTOMATA_WORK};

use crate::proof::Proof;
use grundy_core::{Coord, Game};
use grundy_expr::compiled::{Compiled, Range};
pub(crate) use grundy_expr::Slot;
use grundy_expr::{lcm, Expr, ExprError, Type};
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
/// the axes (unless an axis already has that name), then on a board of two or more axes `g_a`
/// for each axis `a` (the table's value on that axis' edge, every other coordinate at its
/// minimum: the heap game on `a` when the board is a sum), then `g` for `--holds`.
#[derive(Clone, Debug)]
pub struct Variables {
    names: Vec<String>,
    sources: Vec<Slot>,
    /// The axes' slots, `None` for the others (what the proofs read).
    axes: Vec<Option<usize>>,
}

impl Variables {
    /// The variables for `axis_names`, with `g` when `with_value`.
    pub fn new(axis_names: &[&str], with_value: bool) -> Variables {
        let mut names: Vec<String> = axis_names.iter().map(|n| n.to_string()).collect();
        let mut sources: Vec<Slot> = (0..axis_names.len()).map(Slot::Axis).collect();
        for (axis, alias) in ["i", "j", "k"].into_iter().enumerate().take(axis_names.len()) {
            if !names.iter().any(|n| n == alias) {
                names.push(alias.to_string());
                sources.push(Slot::Axis(axis));
            }
        }
        if axis_names.len() >= 2 {
            for (axis, name) in axis_names.iter().enumerate() {
                names.push(format!("{}{name}", grundy_core::EDGE_PREFIX));
                sources.push(Slot::Edge(axis));
            }
        }
        if with_value {
            names.push("g".to_string());
            sources.push(Slot::Value);
        }
        let axes = sources
            .iter()
            .map(|source| match source {
                Slot::Axis(axis) => Some(*axis),
                Slot::Edge(_) | Slot::Value => None,
            })
            .collect();
        Variables { names, sources, axes }
    }

    /// For each slot, the axis it reads (`None` for `g` and the edges).
    pub(crate) fn slot_axes(&self) -> &[Option<usize>] {
        &self.axes
    }

    /// For each slot, what it reads.
    pub(crate) fn slots(&self) -> &[Slot] {
        &self.sources
    }

    /// The names, in slot order.
    pub fn names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// Fills `slots` for the cell at `pos` with value `g`, on a table whose edges are `edges`.
    #[inline]
    pub(crate) fn fill(&self, slots: &mut [i64], pos: &[Coord], g: i64, edges: &Edges) {
        for (slot, source) in slots.iter_mut().zip(&self.sources) {
            *slot = match source {
                Slot::Axis(axis) => pos[*axis],
                Slot::Edge(axis) => edges.at(*axis, pos[*axis]),
                Slot::Value => g,
            };
        }
    }

    /// The period on each axis, from the per-slot periods of an expression.
    fn axis_periods(&self, slot_periods: &[u64], dims: usize) -> Vec<u64> {
        let mut periods = vec![1u64; dims];
        for (source, &p) in self.sources.iter().zip(slot_periods) {
            if let Slot::Axis(axis) = source {
                periods[*axis] = lcm(periods[*axis], p);
            }
        }
        periods
    }
}

/// A table's values along each axis' edge (every other coordinate at its minimum), as a claim's
/// `g_a` reads them: a value, or [`grundy_core::INFINITE_G`] at a loopy game's ∞.
#[derive(Clone, Debug, Default)]
pub(crate) struct Edges {
    mins: Vec<Coord>,
    lines: Vec<Vec<i64>>,
}

impl Edges {
    /// No edges known: a claim that reads them is not evaluated with these.
    pub(crate) fn unknown() -> Edges {
        Edges::default()
    }

    /// The edges of a table with `axes` and `lens`, its cells read by `cell` (row-major).
    pub(crate) fn of(
        axes: &[grundy_core::Axis],
        lens: &[usize],
        cell: impl Fn(usize) -> i64,
    ) -> Edges {
        let mut lines = Vec::with_capacity(lens.len());
        let mut stride = 1usize;
        let mut strides = vec![0usize; lens.len()];
        for d in (0..lens.len()).rev() {
            strides[d] = stride;
            stride *= lens[d];
        }
        for (d, &len) in lens.iter().enumerate() {
            lines.push((0..len).map(|x| cell(x * strides[d])).collect());
        }
        Edges { mins: axes.iter().map(|a| a.min).collect(), lines }
    }

    /// Edges to be told row by row ([`Edges::learn`]), for a streamed table.
    pub(crate) fn streamed(axes: &[grundy_core::Axis], lens: &[usize]) -> Edges {
        Edges {
            mins: axes.iter().map(|a| a.min).collect(),
            lines: lens.iter().map(|&len| vec![0; len]).collect(),
        }
    }

    /// Learns the edges' cells in the row at `pos` (its last coordinate at the minimum): the
    /// row holds the last axis' edge when every other coordinate is at its minimum, and one
    /// cell of axis d's edge when every coordinate but d's is. Rows come in row-major order,
    /// so a row's edges are learnt by the time it is checked.
    pub(crate) fn learn(&mut self, pos: &[Coord], row: &[i64]) {
        let last = pos.len() - 1;
        let off: Vec<usize> = (0..last).filter(|&d| pos[d] != self.mins[d]).collect();
        match off.as_slice() {
            [] => {
                self.lines[last] = row.to_vec();
                for d in 0..last {
                    self.lines[d][0] = row[0];
                }
            }
            [d] => self.lines[*d][(pos[*d] - self.mins[*d]) as usize] = row[0],
            _ => {}
        }
    }

    /// The edge of `axis` at coordinate `x`.
    #[inline]
    fn at(&self, axis: usize, x: Coord) -> i64 {
        self.lines.get(axis).map_or(0, |line| line[(x - self.mins[axis]) as usize])
    }

    /// The edge of `axis`, from its minimum.
    pub(crate) fn line(&self, axis: usize) -> &[i64] {
        &self.lines[axis]
    }
}

/// A claim, parsed and type-checked against a table's axes.
#[derive(Clone, Debug)]
pub struct Conjecture {
    kind: ClaimKind,
    pub(crate) expr: Expr,
    pub(crate) variables: Variables,
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
        if self.kind == ClaimKind::Draws || self.reads_edges() {
            return true;
        }
        let seen = judge::Seen::known(value, is_p);
        let mut slots = vec![0i64; self.variables.names.len()];
        self.variables.fill(&mut slots, pos, seen.g(), &Edges::unknown());
        judge::judge(self, &slots, seen, false).map_or(true, |failed| failed.is_none())
    }

    /// The claim compiled for a table whose axes start at `axes`' minimums and run `lens` cells:
    /// the coordinates' ranges let the program skip checks that cannot fail; `g` may be any
    /// value a table holds, or [`grundy_core::INFINITE_G`].
    pub(crate) fn compile(&self, axes: &[grundy_core::Axis], lens: &[usize]) -> Compiled {
        let ranges: Vec<Range> = self
            .variables
            .slots()
            .iter()
            .map(|source| match source {
                Slot::Axis(axis) => {
                    let lo = axes[*axis].min;
                    Range { lo, hi: lo.saturating_add(lens[*axis].saturating_sub(1) as i64) }
                }
                Slot::Edge(_) | Slot::Value => {
                    Range { lo: grundy_core::INFINITE_G, hi: i64::from(u32::MAX) }
                }
            })
            .collect();
        Compiled::new(&self.expr, &ranges)
    }

    /// Whether the claim reads the table's edges (`g_a`): it is then about the table it is
    /// checked on, and only the sum theorem proves it for every board.
    pub fn reads_edges(&self) -> bool {
        let slots = self.variables.slots().iter().enumerate();
        slots.filter(|(_, s)| matches!(s, Slot::Edge(_))).any(|(slot, _)| self.expr.uses(slot))
    }

    /// The operations one evaluation of the claim does ([`Expr::size`]): a check costs this
    /// times the cells.
    pub fn size(&self) -> usize {
        self.expr.size()
    }
}

/// What a claim says at one position, computed exactly ([`Conjecture::exactly_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactly {
    /// A P-set claim: whether the position is claimed P.
    Outcome(bool),
    /// A values claim: the claimed value.
    Value(i64),
}

impl Conjecture {
    /// The sentences the automatic prover decides for this claim about `game`, as a Walnut
    /// command file (`reg` and `def` lines, then one `eval` per sentence, each of which Walnut
    /// should find TRUE); or why the claim or the game is outside the automata's fragment.
    pub fn walnut(&self, game: &Game) -> Result<String, String> {
        use crate::proof::automatic::{walnut, Claimed};
        let claimed = match self.kind {
            ClaimKind::PSet => Claimed::PSet,
            ClaimKind::Values => Claimed::Values,
            ClaimKind::Holds | ClaimKind::Draws => {
                return Err(format!("{} is not decided by automata", self.kind.noun()))
            }
        };
        walnut(game, claimed, &self.expr, self.variables.slot_axes())
    }

    /// What the claim says at `pos` of `game`, exactly, however far out: a P-set claim that the
    /// automata read (`phi` included) is decided on the position's digits, and a claim in exact
    /// integer arithmetic is evaluated; `None` when neither holds (a decimal, a `sqrt`, an
    /// overflow). It says nothing of whether the claim is proved.
    pub fn exactly_at(&self, game: &Game, pos: &[Coord]) -> Option<Exactly> {
        if self.kind == ClaimKind::PSet {
            let slots = self.variables.slot_axes();
            if let Some(law) = crate::proof::automatic::ExactLaw::compile(game, &self.expr, slots) {
                return Some(Exactly::Outcome(law.holds(pos)));
            }
        }
        if !self.expr.is_exact() || self.reads_edges() {
            return None;
        }
        let mut slots = vec![0; self.variables.names.len()];
        self.variables.fill(&mut slots, pos, 0, &Edges::unknown());
        match self.kind {
            ClaimKind::PSet => self.expr.eval_bool(&slots).ok().map(Exactly::Outcome),
            ClaimKind::Values => self.expr.eval_int(&slots).ok().map(Exactly::Value),
            ClaimKind::Holds | ClaimKind::Draws => None,
        }
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

/// The value `g` stands for at an ∞ position of a loopy game in a holds claim: the one number
/// for ∞ of every output ([`grundy_core::INFINITE_G`]).
pub use grundy_core::INFINITE_G;
