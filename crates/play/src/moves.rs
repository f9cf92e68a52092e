//! Every move of a position or of a sum, with the value it leaves: which moves win
//! (`grundy moves`, the view's pinned cell, `moves` in the Python package).
//!
//! The options come from [`Game::option_groups`] (the meaning of the rules) and their values
//! from the same answers as [`values_of`](crate::positions::values_of): one table over the
//! positions, a repeating strip, or a proved period for a heap of any size. A group of up to
//! [`LISTED`] options is listed one by one; a larger group of splits is told by the values its
//! options take: how many take each and the first that does. For a heap game answered by a
//! proved period, those counts come from the period (the pieces' values repeat), so a Kayles heap
//! of 10^18 has its moves at once.
//!
//! A sum with a loopy component ([`moves_of`] over [`grundy_core::LoopyValue`]) has generalized values:
//! each loopy game's from its whole board, the others' Grundy values as finite ones, and the
//! sum's value after a move by Smith's rule. A move then wins (leaves a P-position), keeps a
//! draw (leaves a D-position) or loses; the same types carry both kinds of value ([`SumValue`]).

use crate::positions::{answers_of, Answer, Law, Position, Strip, ValuesError};
use grundy_compute::retrograde::board_for;
use grundy_core::{Coord, Game, GameOption, GroupShape, GrundyTable, MoveKind, OptionGroup, Pairs};
use grundy_core::{LoopyOutcome, LoopyValue, MexSet, Nimber, Play, Table, TableShape};
use serde::Serialize;
use std::collections::BTreeMap;

/// A group with at most this many options is listed one by one.
pub const LISTED: u128 = 64;
/// The most options of one group examined one by one (beyond, only a proved period answers).
pub const EXAMINED: u128 = 1 << 28;

pub use grundy_core::SumValue;

/// The moves of a sum of positions, under one play convention: every listing (normal play,
/// loopy sums, misère sums) has this shape, and [`Moves::report`] its one JSON schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moves<V = u32> {
    /// The play convention the values are of.
    pub play: Play,
    /// One entry per position of the sum, in the order given.
    pub components: Vec<ComponentMoves<V>>,
    /// The value of the sum (XOR of the components' values; Smith's rule with a loopy one; the
    /// exact search's under misère play).
    pub value: V,
    /// The proved periods used.
    pub laws: Vec<Law>,
    /// The repeating strips used.
    pub strips: Vec<Strip>,
    /// Under misère play: how the sum's value was found.
    pub search: Option<SearchNote>,
}

/// How a misère sum's value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchNote {
    /// `tame rule` (every component tame) or `exact search`.
    pub method: &'static str,
    /// The sums the search remembered.
    pub sums_remembered: usize,
}

/// The moves of one position of the sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentMoves<V = u32> {
    /// The game's name.
    pub game: String,
    /// The position.
    pub position: Vec<Coord>,
    /// Its value.
    pub value: V,
    /// Its options, group by group.
    pub groups: Vec<MoveGroup<V>>,
    /// The rule its value follows from its options' values.
    pub rule: ValueRule,
}

/// The rule a position's value follows from its options' values, by its game and convention:
/// what a listing explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueRule {
    /// The mex of its options' values (Sprague–Grundy; 0 without options).
    Mex,
    /// Under misère play: the mex of its options' misère values, 1 without options.
    MisereMex {
        /// Its normal-play value.
        normal: u32,
        /// `tame`, `restive` or `wild`.
        tameness: &'static str,
    },
    /// Smith's conditions, in a game that may go round: a finite value none of its options
    /// has, every option of a larger or infinite value having a move back to it; else ∞.
    Smith,
}

impl ValueRule {
    /// Under misère play: the normal-play value and the tameness.
    pub fn misere(&self) -> Option<(u32, &'static str)> {
        match *self {
            ValueRule::MisereMex { normal, tameness } => Some((normal, tameness)),
            _ => None,
        }
    }
}

/// A group of options: one rule, direction or number of stones taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveGroup<V = u32> {
    /// The rule's number in the game's spec (from 1).
    pub rule: usize,
    /// What the move does, in words.
    pub kind: String,
    /// How many options the group has.
    pub count: u128,
    /// Every option, when there are at most [`LISTED`]; otherwise empty.
    pub options: Vec<MoveTo<V>>,
    /// When the options are not listed: each value they take, how many take it and the first.
    pub classes: Vec<ValueClass<V>>,
}

/// An option and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTo<V = u32> {
    /// The positions the move leaves (a sum of them: two or three after a split).
    pub to: GameOption,
    /// The option's value.
    pub value: V,
    /// The value of the whole sum after the move.
    pub sum: V,
}

/// The options of a group that share a value (and so, in a game whose sums' values come from
/// their parts', the sum's value after them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueClass<V = u32> {
    /// The value.
    pub value: V,
    /// How many options take it.
    pub count: u128,
    /// The first of them.
    pub first: GameOption,
    /// The value of the whole sum after any of them.
    pub sum: V,
}

/// Why the moves cannot be given.
#[derive(Debug)]
pub enum MovesError<E> {
    /// The values could not be had (see [`ValuesError`]).
    Values(ValuesError<E>),
    /// A group has more options than can be examined and no period tells their values.
    TooManyOptions {
        /// The game.
        game: String,
        /// The group, in words.
        kind: String,
        /// Its options.
        count: u128,
    },
}

impl<E: std::fmt::Display> std::fmt::Display for MovesError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MovesError::Values(err) => write!(f, "{err}"),
            MovesError::TooManyOptions { game, kind, count } => write!(
                f,
                "{game}: the move `{kind}` has {count} options, more than the {EXAMINED} examined \
                 one by one, and no proved period gives their values"
            ),
        }
    }
}

impl<E: std::fmt::Debug + std::fmt::Display> std::error::Error for MovesError<E> {}

/// One game of a sum and its positions.
pub struct Term<'g, 'p> {
    /// The game.
    pub game: &'g Game,
    /// Its positions, checked against it.
    pub positions: Vec<Position<'p>>,
}

impl<V: SumValue> Moves<V> {
    /// The moves of a sum whose value is the sum of its components' values ([`SumValue::sum`]:
    /// normal play, and Smith's rule with a loopy component): each option's `sum` is set from
    /// the others' values.
    fn of_parts(
        components: Vec<ComponentMoves<V>>,
        laws: Vec<Law>,
        strips: Vec<Strip>,
    ) -> Moves<V> {
        let values: Vec<V> = components.iter().map(|c| c.value.clone()).collect();
        let value = V::sum(values.iter().cloned());
        let mut components = components;
        for (index, component) in components.iter_mut().enumerate() {
            let after = |option: &V| {
                let rest = values.iter().enumerate().filter(|&(i, _)| i != index);
                V::sum(rest.map(|(_, v)| v.clone()).chain([option.clone()]))
            };
            for group in &mut component.groups {
                for option in &mut group.options {
                    option.sum = after(&option.value);
                }
                for class in &mut group.classes {
                    class.sum = after(&class.value);
                }
            }
        }
        Moves { play: Play::Normal, components, value, laws, strips, search: None }
    }
}

impl<V: SumValue> ComponentMoves<V> {
    /// The distinct values of the options, ascending (finite before ∞).
    pub fn option_values(&self) -> Vec<V> {
        let mut values: Vec<V> = self
            .groups
            .iter()
            .flat_map(|g| {
                let options = g.options.iter().map(|o| o.value.clone());
                options.chain(g.classes.iter().map(|c| c.value.clone()))
            })
            .collect();
        values.sort_unstable();
        values.dedup();
        values
    }
}

impl<V: SumValue> ComponentMoves<V> {
    /// The mex of the option values, read as finite values (∞ skipped): the position's value,
    /// by the Sprague–Grundy theorem, when it follows [`ValueRule::Mex`].
    pub fn mex(&self) -> u32 {
        let mut set = MexSet::new();
        for value in self.option_values() {
            if let LoopyValue::Finite(v) = value.to_loopy() {
                set.insert(Nimber(v));
            }
        }
        set.mex().value()
    }
}

/// The moves as `grundy moves --json` and the view give them: for each option and class, the
/// sum's value after it, its outcome, and whether it wins (leaves a P-position). A value is a
/// number, or `"inf(0,2)"` for ∞ with K = {0, 2} (a loopy component's).
#[derive(Serialize)]
pub struct MovesReport<'a> {
    /// The play convention: `normal` or `misere`.
    pub play: &'static str,
    /// The sum's value.
    pub value: serde_json::Value,
    /// `P` (the player to move loses), `N` (wins) or `D` (a draw: play goes on forever).
    pub outcome: char,
    /// One per position of the sum.
    pub components: Vec<ComponentReport<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    /// The proved periods used.
    pub laws: &'a [Law],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    /// The repeating strips used.
    pub strips: &'a [Strip],
    /// Under misère play: `tame rule` or `exact search`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// Under misère play: the sums the search remembered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums_remembered: Option<usize>,
}

/// One position of a [`MovesReport`].
#[derive(Serialize)]
pub struct ComponentReport<'a> {
    /// Its place in the sum, from 0 (the order given).
    pub component: usize,
    /// The game's name.
    pub game: &'a str,
    /// The position.
    pub position: &'a [Coord],
    /// Its value.
    pub value: serde_json::Value,
    /// The distinct values of its options, ascending (their mex is `value` in a game that ends,
    /// under misère play too when it has options; 1 when it has none).
    pub option_values: Vec<serde_json::Value>,
    /// Under misère play: its normal-play value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<u32>,
    /// Under misère play: `tame`, `restive` or `wild`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tameness: Option<&'static str>,
    /// Its options, group by group.
    pub groups: Vec<GroupReport<'a>>,
}

/// A group of options of a [`ComponentReport`].
#[derive(Serialize)]
pub struct GroupReport<'a> {
    /// The rule's number in the spec (from 1).
    pub rule: usize,
    /// What the move does, in words.
    pub kind: &'a str,
    /// How many options the group has.
    pub count: u128,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    /// Every option, when the group is small.
    pub options: Vec<MoveReport<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    /// Otherwise: each value taken, with `count` and the first option as `to`.
    pub classes: Vec<MoveReport<'a>>,
}

/// An option, or a class of options of one value, of a [`GroupReport`].
#[derive(Serialize)]
pub struct MoveReport<'a> {
    /// The positions the move leaves (the first of a class).
    pub to: &'a GameOption,
    /// The option's value.
    pub value: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// For a class: how many options take this value.
    pub count: Option<u128>,
    /// The sum's value after the move.
    pub sum: serde_json::Value,
    /// The sum's outcome after the move, the opponent to move: `P` for a winning move, `D` for
    /// one that keeps a draw, `N` for one that loses.
    pub outcome: char,
    /// Whether the move leaves a P-position (a sum of value 0).
    pub winning: bool,
}

impl<V: SumValue> Moves<V> {
    /// The report of these moves (serialise it for JSON): one schema for every play convention.
    pub fn report(&self) -> MovesReport<'_> {
        let entry = |to, value: &V, count, sum: &V| {
            let outcome = sum.outcome();
            MoveReport {
                to,
                value: value.json(),
                count,
                sum: sum.json(),
                outcome: outcome.letter(),
                winning: outcome == LoopyOutcome::P,
            }
        };
        let components = self
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let groups = c
                    .groups
                    .iter()
                    .map(|g| GroupReport {
                        rule: g.rule,
                        kind: &g.kind,
                        count: g.count,
                        options: g
                            .options
                            .iter()
                            .map(|o| entry(&o.to, &o.value, None, &o.sum))
                            .collect(),
                        classes: g
                            .classes
                            .iter()
                            .map(|k| entry(&k.first, &k.value, Some(k.count), &k.sum))
                            .collect(),
                    })
                    .collect();
                ComponentReport {
                    component: i,
                    game: &c.game,
                    position: &c.position,
                    value: c.value.json(),
                    option_values: c.option_values().iter().map(SumValue::json).collect(),
                    normal: c.rule.misere().map(|(normal, _)| normal),
                    tameness: c.rule.misere().map(|(_, tameness)| tameness),
                    groups,
                }
            })
            .collect();
        MovesReport {
            play: self.play.name(),
            value: self.value.json(),
            outcome: self.value.outcome().letter(),
            components,
            laws: &self.laws,
            strips: &self.strips,
            method: self.search.map(|s| s.method),
            sums_remembered: self.search.map(|s| s.sums_remembered),
        }
    }
}

/// The moves of the sum of `terms`, computing tables with `fill` (per game): a loopy game's
/// board ([`board_for`]), every other game's tables (their values finite), and the sum's value
/// after each move by its kind's sum ([`SumValue::sum`]: the nim-sum, or Smith's rule). `V` is
/// `u32` (a loopy component's ∞ is refused) or [`LoopyValue`] (any sum).
pub fn moves_of<V: SumValue, E>(
    terms: &[Term<'_, '_>],
    fill: &mut dyn FnMut(&Game, &TableShape) -> Result<Table, E>,
) -> Result<Moves<V>, MovesError<E>> {
    let (mut components, mut laws, mut strips) = (Vec::new(), Vec::new(), Vec::new());
    for term in terms {
        if !term.game.is_loopy() {
            let mut grundy =
                |game: &Game, shape: &TableShape| fill(game, shape).map(Table::into_data);
            components.extend(term_moves(term, &mut grundy, &mut laws, &mut strips)?);
            continue;
        }
        let positions: Vec<Vec<Coord>> = term.positions.iter().map(|(_, p)| p.clone()).collect();
        let shape = board_for(term.game, &positions)
            .map_err(|err| MovesError::Values(ValuesError::Shape(err)))?;
        let table =
            fill(term.game, &shape).map_err(|err| MovesError::Values(ValuesError::Fill(err)))?;
        for (text, position) in term.positions.iter() {
            let infinite = || {
                let (game, position) = (term.game.name().to_string(), text.to_string());
                MovesError::Values(ValuesError::Infinite { game, position })
            };
            if V::from_loopy(table.value(position).ok_or_else(infinite)?).is_none() {
                return Err(infinite());
            }
            components.push(component_moves(term.game, position, &table)?);
        }
    }
    Ok(Moves::of_parts(components, laws, strips))
}

/// The moves of each position of `term`, a game that ends, from the answers of its positions
/// (tables, a strip or a proved period); the laws and strips used are added.
fn term_moves<V: SumValue, E>(
    term: &Term<'_, '_>,
    fill: &mut dyn FnMut(&Game, &TableShape) -> Result<GrundyTable, E>,
    laws: &mut Vec<Law>,
    strips: &mut Vec<Strip>,
) -> Result<Vec<ComponentMoves<V>>, MovesError<E>>
where
    Answer: Source<V>,
{
    let game = term.game;
    let mut game_fill = |shape: &TableShape| fill(game, shape);
    let (answers, term_laws, term_strips) =
        answers_of(game, &term.positions, &mut game_fill).map_err(MovesError::Values)?;
    laws.extend(term_laws);
    strips.extend(term_strips);
    let mut components: Vec<Option<ComponentMoves<V>>> = vec![None; term.positions.len()];
    for (group, answer) in &answers {
        for &i in group {
            components[i] = Some(component_moves(game, &term.positions[i].1, answer)?);
        }
    }
    Ok(components.into_iter().map(|c| c.expect("every position is in a group")).collect())
}

/// Where option values come from: an answer of [`answers_of`], a table, or a loopy board.
trait Source<V> {
    /// The value of `pos` (a position of the sum or one of its options).
    fn value(&self, pos: &[Coord]) -> V;
    /// For a proved heap law: the first heap of the periodic part and the period.
    fn period(&self) -> Option<(Coord, usize)>;
    /// The rule its values follow.
    fn rule(&self) -> ValueRule {
        ValueRule::Mex
    }
}

/// A game that ends: its values are finite, in a sum of either kind.
impl<V: SumValue> Source<V> for Answer {
    fn value(&self, pos: &[Coord]) -> V {
        V::finite(Answer::value(self, pos))
    }

    fn period(&self) -> Option<(Coord, usize)> {
        Answer::period(self)
    }
}

impl Source<u32> for GrundyTable {
    fn value(&self, pos: &[Coord]) -> u32 {
        self.get(pos).expect("the options of a cell lie in its table").value()
    }

    fn period(&self) -> Option<(Coord, usize)> {
        None
    }
}

/// A loopy game's board: its values as `V` holds them (a caller of `u32` values has checked
/// that the positions it lists are finite; their options' ∞ reads as no Grundy value, and the
/// listing refuses it before).
impl<V: SumValue> Source<V> for Table {
    fn value(&self, pos: &[Coord]) -> V {
        let value = Table::value(self, pos).expect("a loopy game's options lie on its board");
        V::from_loopy(value).expect("a listing of Grundy values holds no ∞")
    }

    fn period(&self) -> Option<(Coord, usize)> {
        None
    }

    fn rule(&self) -> ValueRule {
        ValueRule::Smith
    }
}

/// The moves of the cell `position` of `table`, a table of `game` (computed from its axes'
/// smallest coordinates): every option's value is read from the table (the view's pinned cell).
///
/// # Panics
/// If the table is not one of `game` or does not hold `position`.
pub fn moves_in_table<E>(
    game: &Game,
    table: &GrundyTable,
    position: &[Coord],
) -> Result<Moves, MovesError<E>> {
    assert_eq!(table.axes(), game.axes(), "a table of the game");
    let component = component_moves(game, position, table)?;
    Ok(Moves::of_parts(vec![component], vec![], vec![]))
}

fn component_moves<V: SumValue, E>(
    game: &Game,
    position: &[Coord],
    answer: &dyn Source<V>,
) -> Result<ComponentMoves<V>, MovesError<E>> {
    let value_of = |option: &GameOption| V::sum(option.iter().map(|pos| answer.value(pos)));
    let groups = game
        .option_groups(position)
        .iter()
        .map(|group| {
            let kind = describe(game, group);
            let count = group.len();
            if count <= LISTED {
                let options = group.options().map(|to| {
                    let value = value_of(&to);
                    MoveTo { sum: value.clone(), value, to }
                });
                return Ok(MoveGroup {
                    rule: group.rule + 1,
                    kind,
                    count,
                    options: options.collect(),
                    classes: Vec::new(),
                });
            }
            let classes = match (&group.shape, answer.period()) {
                (GroupShape::Pairs(pairs), Some(period)) if game.dims() == 1 => {
                    periodic_pair_classes(pairs, period, &value_of)
                }
                _ if count <= EXAMINED => {
                    let mut classes = Classes::new();
                    for option in group.options() {
                        classes.add(value_of(&option), 1, || option.clone());
                    }
                    classes
                }
                _ => {
                    let game = game.name().to_string();
                    return Err(MovesError::TooManyOptions { game, kind, count });
                }
            };
            Ok(MoveGroup {
                rule: group.rule + 1,
                kind,
                count,
                options: Vec::new(),
                classes: classes.into_vec(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ComponentMoves {
        game: game.name().to_string(),
        position: position.to_vec(),
        value: answer.value(position),
        groups,
        rule: answer.rule(),
    })
}

/// Options grouped by value, each with its count and first option (the first added).
struct Classes<V>(BTreeMap<V, (u128, GameOption)>);

impl<V: Ord> Classes<V> {
    fn new() -> Classes<V> {
        Classes(BTreeMap::new())
    }

    fn add(&mut self, value: V, count: u128, first: impl FnOnce() -> GameOption) {
        if count == 0 {
            return;
        }
        match self.0.get_mut(&value) {
            Some(class) => class.0 += count,
            None => {
                self.0.insert(value, (count, first()));
            }
        }
    }

    fn into_vec(self) -> Vec<ValueClass<V>>
    where
        V: Clone,
    {
        self.0
            .into_iter()
            .map(|(value, (count, first))| ValueClass { sum: value.clone(), value, count, first })
            .collect()
    }
}

/// The classes of a heap split into two (a, total − a) when the heap values repeat with `period`
/// from heap `from` on: where both pieces are periodic, the value of a split depends only on a
/// modulo the period, so each residue is counted at once; the few splits with a piece before
/// `from` are looked at one by one. First pieces are visited in increasing order, so each
/// class's first option is its smallest.
fn periodic_pair_classes<V: Ord>(
    pairs: &Pairs,
    (from, period): (Coord, usize),
    value_of: &dyn Fn(&GameOption) -> V,
) -> Classes<V> {
    let mut classes = Classes::new();
    let period = period as Coord;
    let low = pairs.first.max(from);
    let high = pairs.last.min(pairs.total - from);
    let one = |a: Coord, classes: &mut Classes<V>| {
        if pairs.contains(a) {
            let option = pairs.option(a);
            classes.add(value_of(&option), 1, || option);
        }
    };
    if high < low {
        for a in pairs.first..=pairs.last {
            one(a, &mut classes);
        }
        return classes;
    }
    for a in pairs.first..low {
        one(a, &mut classes);
    }
    // Residues: a = a0 + k·period for a0 in low..low + period, up to high.
    let half = (pairs.unequal && pairs.total % 2 == 0).then_some(pairs.total / 2);
    for a0 in low..=high.min(low + period - 1) {
        let mut count = ((high - a0) / period + 1) as u128;
        let mut first = a0;
        if let Some(half) = half.filter(|&h| h >= a0 && h <= high && (h - a0) % period == 0) {
            count -= 1;
            if half == a0 {
                first = a0 + period;
            }
        }
        if count > 0 {
            classes.add(value_of(&pairs.option(first)), count, || pairs.option(first));
        }
    }
    for a in high + 1..=pairs.last {
        one(a, &mut classes);
    }
    classes
}

/// A group's move in words: `take 1, leave 2 heaps`, `slide by (-1, -1)`, `cut along w`.
pub(crate) fn describe(game: &Game, group: &OptionGroup) -> String {
    let rule = game.rules()[group.rule].kind();
    match &group.kind {
        MoveKind::Step => rule.to_string(),
        MoveKind::Along(direction) if direction.len() == 1 => format!("{rule}: take stones"),
        MoveKind::Along(direction) => {
            let parts: Vec<String> = direction.iter().map(Coord::to_string).collect();
            format!("{rule} by ({})", parts.join(", "))
        }
        MoveKind::Split { axis } => format!("{rule} along {}", game.axes()[*axis].name),
        MoveKind::Take { take, heaps } => {
            let left = match heaps {
                0 => "leave nothing".to_string(),
                1 => "leave 1 heap".to_string(),
                n => format!("leave {n} heaps"),
            };
            format!("take {take}, {left}")
        }
    }
}

#[cfg(test)]
mod tests;
