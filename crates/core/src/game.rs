//! The game model: axes and move rules, stated as data.
//!
//! A [`Game`] is a set of axes (a name and a smallest coordinate each) and a list of [`Rule`]s.
//! [`Game::options`] spells out what the rules mean in the plainest possible way; the engines in
//! `grundy-compute` compile the same rules into flat move tables and are tested against it.
//!
//! # Invariants
//! A move raises a coordinate only on an axis the game bounds (a *loopy* game, [`Game::is_loopy`],
//! whose positions are finitely many and whose play may go round in circles); [`Game::new`]
//! refuses a raise on an unbounded axis, and a loopy rule beside moves that leave sums. In every
//! other game each move strictly lowers the coordinate sum of each position it leaves (for a
//! split or a take-and-break, of each piece) and raises no single coordinate, so a row-major
//! order and the anti-diagonal waves are both valid orders in which to fill its table; a loopy
//! game's values come from the retrograde kernel instead.

mod catalog;
mod form;
mod octal;
mod spec;
mod steps;
mod terminal;

pub use catalog::{catalog, catalog_spec, lookup, CatalogEntry};
pub use form::{Amounts, MoveForm};
pub use octal::{OctalCode, OctalCodeError};
pub use spec::{parse_spec, to_spec, SPEC_LIMIT_BYTES};
pub use steps::{NamedSet, StepBase, StepSet, StepSetError};
pub use terminal::Terminal;

use crate::error::ModelError;
use crate::play::Play;

pub use crate::coord::{Coord, COORD_LIMIT};

/// The largest weight (in absolute value) [`Game::descent`] tries: 33³ weight vectors at most.
pub const DESCENT_WEIGHT_LIMIT: Coord = 16;

/// One axis of a game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The name used in headers and expressions, e.g. `n` or `w`.
    pub name: String,
    /// The smallest coordinate a position may have on this axis.
    pub min: Coord,
    /// The largest, when the game bounds the axis: what lets a move raise its coordinate (the
    /// game is then finite along it, and may be loopy).
    pub max: Option<Coord>,
}

impl Axis {
    /// An axis called `name` whose coordinates start at `min`, without an upper bound.
    pub fn new(name: &str, min: Coord) -> Axis {
        Axis { name: name.to_string(), min, max: None }
    }

    /// An axis called `name` whose coordinates run from `min` to `max`.
    pub fn bounded(name: &str, min: Coord, max: Coord) -> Axis {
        Axis { name: name.to_string(), min, max: Some(max) }
    }

    /// Whether `text` can name an axis: an identifier (`n`, `w`, `x_1`) of ASCII letters, digits
    /// and `_`, not starting with a digit, and not reserved ([`Axis::is_reserved`]). The one rule
    /// for spec files, CSV headers and Parquet columns: a name is written into expressions,
    /// headers and terminal lines as it is, and means there what it says.
    pub fn is_name(text: &str) -> bool {
        text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !Axis::is_reserved(text)
    }

    /// Whether claims reserve `text`: one of the [`RESERVED_NAMES`], or a name that starts with
    /// [`EDGE_PREFIX`] (an axis `g_b` beside an axis `b` would be both an axis and the edge
    /// `g_b`, and a claim would read the axis where its author meant the edge).
    pub fn is_reserved(text: &str) -> bool {
        RESERVED_NAMES.contains(&text) || text.starts_with(EDGE_PREFIX)
    }
}

/// The words that claims about a table reserve, so no axis may take them (issue 59: axes named
/// `true` and `false` made the law search panic, and an axis named `g` silently took the place
/// of the value in a claim): the value of a cell, `g`; the constants `true`, `false` and `phi`;
/// and the functions. Kept here, beside the rule for names, because axes are named here;
/// grundy-expr's parser is tested (in grundy-laws' tests) to know no other word.
pub const RESERVED_NAMES: &[&str] =
    &["g", "true", "false", "phi", "floor", "ceil", "sqrt", "abs", "min", "max", "xor", "if"];

/// What a claim writes before an axis' name to read the table's value on that axis' edge
/// (`g_a`: every other coordinate at its minimum). No axis name starts with it.
pub const EDGE_PREFIX: &str = "g_";

/// One kind of move, stated as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Move by one of these fixed offsets.
    Step {
        /// The offsets, one coordinate change per axis.
        offsets: Vec<Vec<Coord>>,
    },
    /// Move along a direction by an amount from a step set.
    Jump {
        /// The directions; a move adds `amount × direction`.
        directions: Vec<Vec<Coord>>,
        /// The allowed amounts.
        steps: StepSet,
    },
    /// Move along a direction by any amount ≥ 1 (at most `max`) that stays on the board.
    Slide {
        /// The directions; a move adds `amount × direction`.
        directions: Vec<Vec<Coord>>,
        /// The largest amount, if bounded.
        max: Option<u64>,
    },
    /// Cut the position along an axis into two pieces, each at least `min_piece` on that axis; the
    /// option is the sum of the two pieces.
    Split {
        /// The axis (0-based) that is cut.
        axis: usize,
        /// The smallest piece allowed (on the cut axis).
        min_piece: Coord,
        /// Only cuts into two different pieces (as in Grundy's game).
        unequal: bool,
    },
    /// A take-and-break move on a heap (1-D games only).
    TakeAndBreak {
        /// The code saying what removing k stones may leave.
        code: OctalCode,
    },
}

impl Rule {
    /// The rule's kind, as it is written in a spec file.
    pub fn kind(&self) -> &'static str {
        match self {
            Rule::Step { .. } => "step",
            Rule::Jump { .. } => "jump",
            Rule::Slide { .. } => "slide",
            Rule::Split { .. } => "split",
            Rule::TakeAndBreak { .. } => "take-and-break",
        }
    }
}

/// An option of a position: the positions of the game sum it leaves (one for most moves, two or
/// three after a split or a take-and-break).
pub type GameOption = Vec<Vec<Coord>>;

/// An impartial game whose positions are integer tuples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    name: String,
    description: String,
    axes: Vec<Axis>,
    rules: Vec<Rule>,
    play: Play,
    terminal: Option<Terminal>,
}

impl Game {
    /// Builds a game after checking that its rules are well formed and that every move lowers
    /// the coordinate sum (see the module's invariants).
    pub fn new(
        name: &str,
        description: &str,
        axes: Vec<Axis>,
        rules: Vec<Rule>,
    ) -> Result<Game, ModelError> {
        if axes.is_empty() || axes.len() > 3 {
            return Err(ModelError::AxisCount(axes.len()));
        }
        for (i, axis) in axes.iter().enumerate() {
            let valid =
                Axis::is_name(&axis.name) && !axes[..i].iter().any(|other| other.name == axis.name);
            if !valid && Axis::is_reserved(&axis.name) {
                let name = axis.name.clone();
                let reserved = format!(
                    "{}, and names that start with {EDGE_PREFIX}, the edges",
                    RESERVED_NAMES.join(", ")
                );
                return Err(ModelError::ReservedAxisName { name, reserved });
            }
            if !valid {
                return Err(ModelError::AxisName(axis.name.clone()));
            }
            if let Some(max) = axis.max {
                if max < axis.min || max >= COORD_LIMIT {
                    return Err(ModelError::AxisBound {
                        axis: axis.name.clone(),
                        min: axis.min,
                        max,
                    });
                }
            }
        }
        if rules.is_empty() {
            return Err(ModelError::NoRules);
        }
        for (index, rule) in rules.iter().enumerate() {
            check_rule(rule, &axes).map_err(|(field, reason)| ModelError::Rule {
                rule: index + 1,
                kind: rule.kind(),
                field,
                reason,
            })?;
        }
        let game_loopy = rules.iter().any(rule_raises);
        if game_loopy {
            if let Some(index) = rules
                .iter()
                .position(|r| matches!(r, Rule::Split { .. } | Rule::TakeAndBreak { .. }))
            {
                return Err(ModelError::Rule {
                    rule: index + 1,
                    kind: rules[index].kind(),
                    field: "kind",
                    reason: "a game whose moves raise a coordinate (a loopy game) takes steps, \
                             jumps and slides only: its moves must leave one position"
                        .into(),
                });
            }
        }
        Ok(Game {
            name: name.to_string(),
            description: description.to_string(),
            axes,
            rules,
            play: Play::Normal,
            terminal: None,
        })
    }

    /// The game's name (a catalog name or the name in its spec).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One line saying what the game is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The axes, in table order (the first is the row axis).
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The number of axes.
    pub fn dims(&self) -> usize {
        self.axes.len()
    }

    /// The move rules.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The play convention ([`Play::Normal`] unless [`Game::with_play`] or the spec said
    /// otherwise).
    pub fn play(&self) -> Play {
        self.play
    }

    /// The same game under `play`.
    pub fn with_play(mut self, play: Play) -> Game {
        self.play = play;
        self
    }

    /// The positions where no move starts, if the game names any (a spec's `terminal`).
    pub fn terminal(&self) -> Option<&Terminal> {
        self.terminal.as_ref()
    }

    /// The same game with no move starting where `terminal` holds (a condition over the axes'
    /// names: [`Terminal::parse`]). A loopy game takes none: its retrograde kernel reads the
    /// moves as the same everywhere.
    pub fn with_terminal(mut self, terminal: &str) -> Result<Game, ModelError> {
        let refuse = |reason: String| ModelError::Terminal { reason };
        if self.is_loopy() {
            return Err(refuse(
                "a loopy game (a move raises a coordinate) takes no terminal positions".into(),
            ));
        }
        self.terminal = Some(Terminal::parse(terminal, &self.axes).map_err(refuse)?);
        Ok(self)
    }

    /// Whether some move leaves a sum of positions (a split, a take-and-break that leaves two
    /// heaps or more): then a position's misère value is not a function of its options' misère
    /// values (see [`Play`]).
    pub fn options_are_sums(&self) -> bool {
        self.rules.iter().any(|rule| match rule {
            Rule::Split { .. } => true,
            Rule::TakeAndBreak { code } => code.digits().iter().any(|&d| d & !3 != 0),
            _ => false,
        })
    }

    /// Whether a position's value is a function of its options' values under the game's play:
    /// always under normal play (the Sprague–Grundy theorem), and under misère play only when no
    /// move leaves a sum ([`Game::options_are_sums`]). Fills cell by cell, local certificates
    /// and periodicity theorems need it; the exact search over sums is the one way without it.
    pub fn values_are_local(&self) -> bool {
        self.play == Play::Normal || !self.options_are_sums()
    }

    /// Whether `pos` is a position of the game (right dimension, every coordinate ≥ its axis'
    /// smallest and, on a bounded axis, ≤ its largest).
    pub fn is_position(&self, pos: &[Coord]) -> bool {
        pos.len() == self.dims()
            && pos
                .iter()
                .zip(&self.axes)
                .all(|(&c, axis)| c >= axis.min && axis.max.is_none_or(|max| c <= max))
    }

    /// Whether some move raises a coordinate: then play may go round in circles, and the
    /// game's values are generalized Sprague–Grundy values (finite, or ∞ with a set K), which
    /// the retrograde kernel computes over the whole of its bounded board.
    pub fn is_loopy(&self) -> bool {
        self.rules.iter().any(rule_raises)
    }

    /// Why the game's values are not the normal-play mex recursion along moves that end (it is
    /// loopy, or played misère), or `None` when they are: what the theorems about that
    /// recursion (the Sprague–Grundy sum, the automata's sentences) ask of a game, decided here
    /// beside the play, not in each theorem.
    pub fn beyond_normal_recursion(&self) -> Option<&'static str> {
        if self.is_loopy() {
            Some("the game is loopy: its positions are not ordered by its moves")
        } else if self.play != Play::Normal {
            Some("the game is played misère: a position without a move is not lost")
        } else {
            None
        }
    }

    /// Weights `w`, one per axis, under which every move strictly lowers `w · position`, if
    /// small ones exist (each |wᵢ| ≤ [`DESCENT_WEIGHT_LIMIT`]; the plain coordinate sum first):
    /// then no play goes round in circles, however the moves raise coordinates, and a table may
    /// be filled in increasing order of `w · position`. A game whose moves only lower has the
    /// weights 1, 1, …. `None` when no such weights exist within the limit, as for a move and
    /// its reverse (then play may go round; a loopy game whose cycles the board's edges alone
    /// prevent is not recognised as acyclic, and is labelled as a loopy game, exactly).
    pub fn descent(&self) -> Option<Vec<Coord>> {
        let vectors: Vec<&Vec<Coord>> = self.rules.iter().flat_map(rule_vectors).collect();
        let lowers = |w: &[Coord]| {
            vectors.iter().all(|v| v.iter().zip(w).map(|(&d, &wi)| d * wi).sum::<Coord>() < 0)
        };
        let dims = self.dims();
        let ones = vec![1; dims];
        if lowers(&ones) {
            return Some(ones);
        }
        // Every weight vector in the cube of side 2·limit + 1, the smallest largest weight
        // first, so that the weights found are the simplest.
        let limit = DESCENT_WEIGHT_LIMIT;
        let side = (2 * limit + 1) as usize;
        let mut candidates: Vec<Vec<Coord>> = (0..side.pow(dims as u32))
            .map(|mut at| {
                (0..dims)
                    .map(|_| {
                        let w = (at % side) as Coord - limit;
                        at /= side;
                        w
                    })
                    .collect()
            })
            .collect();
        candidates.sort_by_key(|w: &Vec<Coord>| {
            let size = w.iter().map(|x| x.abs());
            (size.clone().max(), size.sum::<Coord>(), w.iter().filter(|&&x| x < 0).count())
        });
        candidates.into_iter().find(|w| lowers(w))
    }

    /// The weighted sum `w · position` written with the axes' names, e.g. `n + 3m` or `n - m`.
    ///
    /// # Panics
    /// If `w` does not have one weight per axis.
    pub fn weighted_sum(&self, w: &[Coord]) -> String {
        assert_eq!(w.len(), self.dims(), "one weight per axis");
        let mut text = String::new();
        for (&wi, axis) in w.iter().zip(&self.axes).filter(|(&wi, _)| wi != 0) {
            let sign = match (text.is_empty(), wi < 0) {
                (true, false) => "",
                (true, true) => "-",
                (false, false) => " + ",
                (false, true) => " - ",
            };
            let times = if wi.abs() == 1 { String::new() } else { wi.abs().to_string() };
            text.push_str(&format!("{sign}{times}{}", axis.name));
        }
        text
    }

    /// Whether some move raises the coordinate of axis `axis` (then a table of a loopy game
    /// must hold the whole axis, up to its `max`).
    pub fn raises_axis(&self, axis: usize) -> bool {
        self.rules.iter().any(|rule| rule_vectors(rule).iter().any(|v| v[axis] > 0))
    }

    /// Every option of `pos`, spelt out from the rules in the plainest way: the options of
    /// [`Game::option_groups`], one after another.
    ///
    /// This is the meaning of the rules; it allocates freely and is meant for reference fills,
    /// single positions and tests. Options may repeat (e.g. both halves of a cut).
    ///
    /// # Panics
    /// If `pos` is not a position of the game.
    pub fn options(&self, pos: &[Coord]) -> Vec<GameOption> {
        let mut options = Vec::new();
        for group in self.option_groups(pos) {
            options.extend(group.options());
        }
        options
    }

    /// The options of `pos`, group by group, in the order [`Game::options`] gives them: one
    /// group per rule, direction or number of stones taken. A group of splits is described, not
    /// spelt out, so that a heap of 10^18 has its groups at once (`grundy moves`).
    ///
    /// # Panics
    /// If `pos` is not a position of the game.
    pub fn option_groups(&self, pos: &[Coord]) -> Vec<OptionGroup> {
        assert!(self.is_position(pos), "{pos:?} is not a position of {}", self.name);
        let mut groups = Vec::new();
        if self.terminal.as_ref().is_some_and(|t| t.holds(pos)) {
            return groups;
        }
        let shifted = |direction: &[Coord], amount: Coord| -> Option<Vec<Coord>> {
            let moved: Vec<Coord> =
                pos.iter().zip(direction).map(|(&c, &d)| c + amount * d).collect();
            self.is_position(&moved).then_some(moved)
        };
        // The largest amount a move along a direction can go (every direction lowers some
        // coordinate, or raises a bounded one, by at least one per unit).
        let reach = pos
            .iter()
            .zip(&self.axes)
            .map(|(&c, axis)| (c - axis.min).max(axis.max.map_or(0, |max| max - c)))
            .max()
            .unwrap_or(0);
        let listed = |rule: usize, move_kind: MoveKind, options: Vec<GameOption>| OptionGroup {
            rule,
            kind: move_kind,
            shape: GroupShape::Listed(options),
        };
        for (rule, r) in self.rules.iter().enumerate() {
            match r {
                Rule::Step { offsets } => {
                    let options = offsets.iter().filter_map(|o| shifted(o, 1)).map(|p| vec![p]);
                    groups.push(listed(rule, MoveKind::Step, options.collect()));
                }
                Rule::Jump { directions, steps } => {
                    // The set's members up to the reach, not every amount asked of the set: a
                    // finite set's options cost its size, not the coordinate (issue 59: a box
                    // proof of 400 000 heaps of subtraction {1, 2, 3} was quadratic).
                    let amounts = steps.up_to(reach.max(0) as u64);
                    for direction in directions {
                        let options = amounts
                            .iter()
                            .map(|&a| a as Coord)
                            .map_while(|a| shifted(direction, a).map(|p| vec![p]));
                        let kind = MoveKind::Along(direction.clone());
                        groups.push(listed(rule, kind, options.collect()));
                    }
                }
                Rule::Slide { directions, max } => {
                    for direction in directions {
                        let options = (1..=reach)
                            .take_while(|&a| max.is_none_or(|m| a as u64 <= m))
                            .map_while(|a| shifted(direction, a).map(|p| vec![p]));
                        let kind = MoveKind::Along(direction.clone());
                        groups.push(listed(rule, kind, options.collect()));
                    }
                }
                Rule::Split { axis, min_piece, unequal } => {
                    let smallest = (*min_piece).max(self.axes[*axis].min);
                    groups.push(OptionGroup {
                        rule,
                        kind: MoveKind::Split { axis: *axis },
                        shape: GroupShape::Pairs(Pairs {
                            base: pos.to_vec(),
                            axis: *axis,
                            total: pos[*axis],
                            first: smallest,
                            last: pos[*axis] - smallest,
                            unequal: *unequal,
                        }),
                    });
                }
                Rule::TakeAndBreak { code } => {
                    take_and_break_groups(rule, code, pos[0], &mut groups)
                }
            }
        }
        groups.retain(|group| !group.is_empty());
        groups
    }
}

/// What kind of move a group of options is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A step rule's offsets.
    Step,
    /// A jump or slide along one direction, by the amounts the rule allows.
    Along(Vec<Coord>),
    /// A split of the position into two along an axis.
    Split {
        /// The axis cut.
        axis: usize,
    },
    /// Take-and-break: take `take` stones and leave the rest as `heaps` heaps (0, 1, 2 or 3).
    Take {
        /// Stones taken.
        take: Coord,
        /// Heaps left.
        heaps: u8,
    },
}

/// The options of one group: [`Game::option_groups`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionGroup {
    /// The rule's index in [`Game::rules`].
    pub rule: usize,
    /// The kind of move.
    pub kind: MoveKind,
    /// The options.
    pub shape: GroupShape,
}

/// How a group's options are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupShape {
    /// Spelt out.
    Listed(Vec<GameOption>),
    /// Two pieces, described.
    Pairs(Pairs),
    /// Three heaps a ≤ b ≤ c with a + b + c = `total`, each at least 1 (hexadecimal digit 8).
    Triples {
        /// The stones left.
        total: Coord,
    },
}

/// The options `[base with axis = a, base with axis = total − a]` for `first <= a <= last`
/// (without a = total − a when `unequal`): a cut, or a heap left in two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairs {
    /// The position whose `axis` coordinate the pieces replace.
    pub base: Vec<Coord>,
    /// The axis split.
    pub axis: usize,
    /// The two pieces' sum along `axis`.
    pub total: Coord,
    /// The first piece's smallest size.
    pub first: Coord,
    /// The first piece's largest size.
    pub last: Coord,
    /// Whether equal pieces are excluded.
    pub unequal: bool,
}

impl Pairs {
    /// The option whose first piece is `a`.
    pub fn option(&self, a: Coord) -> GameOption {
        let piece = |size: Coord| {
            let mut p = self.base.clone();
            p[self.axis] = size;
            p
        };
        vec![piece(a), piece(self.total - a)]
    }

    /// Whether `a` is a first piece of this group.
    pub fn contains(&self, a: Coord) -> bool {
        (self.first..=self.last).contains(&a) && !(self.unequal && 2 * a == self.total)
    }

    /// The number of options.
    pub fn len(&self) -> u128 {
        if self.last < self.first {
            return 0;
        }
        let all = (self.last - self.first) as u128 + 1;
        let half = self.total / 2;
        let equal = self.unequal && self.total % 2 == 0 && (self.first..=self.last).contains(&half);
        all - u128::from(equal)
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first pieces, in order.
    pub fn firsts(&self) -> impl Iterator<Item = Coord> + '_ {
        (self.first..=self.last).filter(|&a| self.contains(a))
    }
}

impl OptionGroup {
    /// The number of options.
    pub fn len(&self) -> u128 {
        match &self.shape {
            GroupShape::Listed(options) => options.len() as u128,
            GroupShape::Pairs(pairs) => pairs.len(),
            GroupShape::Triples { total } => triples_count(*total),
        }
    }

    /// Whether the group has no option.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The options, spelt out.
    pub fn options(&self) -> Box<dyn Iterator<Item = GameOption> + '_> {
        match &self.shape {
            GroupShape::Listed(options) => Box::new(options.iter().cloned()),
            GroupShape::Pairs(pairs) => Box::new(pairs.firsts().map(|a| pairs.option(a))),
            GroupShape::Triples { total } => {
                let rest = *total;
                Box::new((1..=rest / 3).flat_map(move |a| {
                    (a..=(rest - a) / 2).map(move |b| vec![vec![a], vec![b], vec![rest - a - b]])
                }))
            }
        }
    }
}

/// The number of ways to write `total` as a + b + c with 1 <= a <= b <= c.
fn triples_count(total: Coord) -> u128 {
    (1..=total / 3).map(|a| ((total - a) / 2 - a + 1) as u128).sum()
}

/// The groups of a take-and-break move on a heap of `n`: for each number of stones the code
/// lets a move take, the heaps it may leave.
fn take_and_break_groups(rule: usize, code: &OctalCode, n: Coord, groups: &mut Vec<OptionGroup>) {
    let group = |take: Coord, heaps: u8, shape: GroupShape| OptionGroup {
        rule,
        kind: MoveKind::Take { take, heaps },
        shape,
    };
    let last = n.min(code.last_digit_position() as Coord);
    for k in 0..=last {
        let digit = code.digit(k as usize);
        let rest = n - k;
        if digit & 1 != 0 && rest == 0 {
            groups.push(group(k, 0, GroupShape::Listed(vec![vec![]])));
        }
        if digit & 2 != 0 && rest >= 1 && k >= 1 {
            groups.push(group(k, 1, GroupShape::Listed(vec![vec![vec![rest]]])));
        }
        if digit & 4 != 0 && rest >= 2 {
            let pairs = Pairs {
                base: vec![rest],
                axis: 0,
                total: rest,
                first: 1,
                last: rest / 2,
                unequal: false,
            };
            groups.push(group(k, 2, GroupShape::Pairs(pairs)));
        }
        if digit & 8 != 0 && rest >= 3 {
            groups.push(group(k, 3, GroupShape::Triples { total: rest }));
        }
    }
}

type RuleProblem = (&'static str, String);

fn check_direction(direction: &[Coord], axes: &[Axis], what: &str) -> Result<(), String> {
    if direction.len() != axes.len() {
        return Err(format!(
            "{what} {direction:?} has {} but the game has {}",
            crate::words::counted(direction.len(), "coordinate", "coordinates"),
            crate::words::counted(axes.len(), "axis", "axes")
        ));
    }
    if direction.iter().any(|d| d.unsigned_abs() >= COORD_LIMIT as u64) {
        return Err(format!("{what} {direction:?} moves by 2^31 or more along an axis"));
    }
    if direction.iter().all(|&d| d == 0) {
        return Err(format!("{what} {direction:?} is zero"));
    }
    let unbounded = direction.iter().zip(axes).find(|(&d, axis)| d > 0 && axis.max.is_none());
    if let Some((_, axis)) = unbounded {
        return Err(format!(
            "{what} {direction:?} raises axis `{}`, which has no `max`: a move may raise only a \
             bounded axis (give the axis a `max`, and the game is loopy)",
            axis.name
        ));
    }
    Ok(())
}

/// The offsets or directions a rule moves by (none for splits and take-and-break, which only
/// lower).
fn rule_vectors(rule: &Rule) -> &[Vec<Coord>] {
    match rule {
        Rule::Step { offsets } => offsets,
        Rule::Jump { directions, .. } | Rule::Slide { directions, .. } => directions,
        Rule::Split { .. } | Rule::TakeAndBreak { .. } => &[],
    }
}

/// Whether some move of `rule` raises a coordinate.
fn rule_raises(rule: &Rule) -> bool {
    rule_vectors(rule).iter().any(|v| v.iter().any(|&d| d > 0))
}

fn check_rule(rule: &Rule, axes: &[Axis]) -> Result<(), RuleProblem> {
    match rule {
        Rule::Step { offsets } => {
            if offsets.is_empty() {
                return Err(("offsets", "no offsets".into()));
            }
            offsets
                .iter()
                .try_for_each(|o| check_direction(o, axes, "offset"))
                .map_err(|e| ("offsets", e))
        }
        Rule::Jump { directions, .. } => check_directions(directions, axes),
        Rule::Slide { directions, max } => {
            if *max == Some(0) {
                return Err(("max", "`max` must be at least 1".into()));
            }
            check_directions(directions, axes)
        }
        Rule::Split { axis, min_piece, .. } => {
            if *axis >= axes.len() {
                return Err((
                    "axis",
                    format!(
                        "axis {axis} does not exist (the game has {})",
                        crate::words::counted(axes.len(), "axis", "axes")
                    ),
                ));
            }
            if *min_piece < 1 {
                return Err(("min-piece", "the smallest piece must be at least 1".into()));
            }
            if *min_piece >= COORD_LIMIT {
                return Err(("min-piece", "the smallest piece must be below 2^31".into()));
            }
            Ok(())
        }
        Rule::TakeAndBreak { .. } => {
            if axes.len() != 1 || axes[0].min != 0 {
                return Err((
                    "code",
                    "take-and-break needs a single heap axis starting at 0".into(),
                ));
            }
            Ok(())
        }
    }
}

fn check_directions(directions: &[Vec<Coord>], axes: &[Axis]) -> Result<(), RuleProblem> {
    if directions.is_empty() {
        return Err(("directions", "no directions".into()));
    }
    directions
        .iter()
        .try_for_each(|d| check_direction(d, axes, "direction"))
        .map_err(|e| ("directions", e))
}

#[cfg(test)]
mod tests;
