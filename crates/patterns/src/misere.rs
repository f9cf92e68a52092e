//! Misère play of sums: exact misère Grundy values of sums of positions, the genus of a
//! position, and tameness.
//!
//! Under misère play the last player to move loses. A position's misère Grundy value γ⁻ is 1
//! when it has no option and the mex of its options' values otherwise (it is 0 exactly on the
//! misère P-positions), and unlike normal play the value of a sum is not a function of its
//! components' values. [`MisereSearch`] computes it exactly by a memoised search over the
//! sum's positions, kept as sorted multisets of components (a component without a move is left
//! out: it changes nothing), with one shortcut that theory allows:
//!
//! - **The tame rule** (Conway, *On Numbers and Games*, ch. 12). A position is *tame* when its
//!   normal and misère values (g, γ⁻) are (0, 1), (1, 0) or (a, a), and every option is a sum
//!   of tame positions; sums of tame positions are tame and play like misère Nim: the sum's γ⁻
//!   is the nim-sum of the g's when some component has g = γ⁻ (a *firm* one), and 1 ⊕ that
//!   nim-sum when every component is (0, 1) or (1, 0) (*fickle*). A sum whose components are
//!   all tame is answered by this rule without a search.
//!
//! The **genus** of a position G (Conway's g^γ₀γ₁γ₂…) is its normal value g and the misère
//! values γₖ of G + *2 + … + *2 (k copies of the nim-heap *2), computed here by the same search
//! until four values in a row alternate between some a and a ⊕ 2 (every genus ends so, Conway
//! showed; when it starts is not known in general, so four in a row is a rule of thumb, and a
//! genus not settled after [`Genus::MOST_TWOS`] copies is written with a trailing `…`), and
//! written with the shortest superscript, as Winning Ways does: the digits up to where the last
//! two start to alternate.
//!
//! The search is exact; what bounds it is the memory of what it remembers (options, standings
//! and sums) and its time, both in [`SearchLimits`], refused as
//! [`MisereError::TooManyPositions`] or [`MisereError::TooLong`] when a question needs more.
//! Its cost grows quickly with the heaps of wild games: Kayles' genus to heap 30 takes 0.9 s,
//! to 40 7 s and to 50 54 s (one core). The misère quotient ([`crate::quotient`]) answers
//! outcomes of sums of one game's heaps much further, where it stays small.

mod law;

pub use law::{standing_law, StandingLaw};

use crate::moves::{ComponentMoves, MoveGroup, MoveTo, Moves, SearchNote};
use grundy_compute::{memory, Progress};
use grundy_core::{mex, Coord, Game, Nimber};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// One component of a sum: a position of one of the search's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Component {
    game: u16,
    pos: [i32; 3],
}

/// What the search knows of one component on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Its normal-play Grundy value g.
    pub normal: u32,
    /// Its misère Grundy value γ⁻.
    pub misere: u32,
    /// Whether every option is a sum of tame positions.
    pub options_tame: bool,
    /// Whether it is tame: its options are, and (g, γ⁻) is (0, 1), (1, 0) or (a, a).
    pub tame: bool,
}

impl Standing {
    /// Whether it is tame but not firm: (g, γ⁻) is (0, 1) or (1, 0).
    fn fickle(&self) -> bool {
        self.normal != self.misere
    }

    /// Not tame, though every option is: the first step out of tameness.
    pub fn restive(&self) -> bool {
        !self.tame && self.options_tame
    }
}

/// The misère value of a sum of tame components (Conway's tame rule): the nim-sum of their
/// normal values, flipped by 1 when none is firm (every one fickle: (g, γ⁻) = (0, 1) or (1, 0)).
fn tame_rule(standings: &[Standing]) -> u32 {
    let nim_sum = standings.iter().fold(0, |sum, s| sum ^ s.normal);
    if standings.iter().any(|s| !s.fickle()) {
        nim_sum
    } else {
        nim_sum ^ 1
    }
}

/// The genus of a position: its normal value and the misère values of it plus k copies of *2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play value g.
    pub normal: u32,
    /// γ₀, γ₁, …: the misère values of G, G + *2, G + *2 + *2, … as far as they were computed.
    pub misere: Vec<u32>,
    /// Whether the last four values computed alternate between some a and a ⊕ 2, the tail
    /// every genus ends in (Conway); when not, the superscript is written with a trailing `…`.
    pub settled: bool,
}

impl Genus {
    /// The most copies of *2 the search adds before it gives up waiting for the tail.
    pub const MOST_TWOS: usize = 12;

    /// The superscript's values: γ₀ … γₜ with t the least (at least 1) from which
    /// γₖ₊₂ = γₖ on for every value computed.
    pub fn superscript(&self) -> &[u32] {
        let values = &self.misere;
        if !self.settled {
            return values;
        }
        // The least k₀ from which γₖ₊₂ = γₖ; the superscript runs to γ_{k₀+1}.
        let n = values.len();
        let mut start = n.saturating_sub(2);
        while start > 0 && values[start + 1] == values[start - 1] {
            start -= 1;
        }
        &values[..(start + 2).min(n)]
    }

    /// Whether the genus is one of the tame genera 0^120, 1^031 or a^a(a⊕2).
    pub fn is_tame_genus(&self) -> bool {
        match self.superscript() {
            [1, 2, 0] => self.normal == 0,
            [0, 3, 1] => self.normal == 1,
            [a, b] => *a == self.normal && *b == self.normal ^ 2,
            _ => false,
        }
    }
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.superscript();
        let tail = if self.settled { "" } else { "…" };
        if digits.iter().all(|&d| d < 10) {
            let text: String = digits.iter().map(|d| d.to_string()).collect();
            write!(f, "{}^{text}{tail}", self.normal)
        } else {
            let text: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            write!(f, "{}^({}){tail}", self.normal, text.join(","))
        }
    }
}

/// Why a misère question was not answered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MisereError {
    /// The search would remember more than its memory budget allows.
    #[error(
        "the exact misère search needs more than {} MiB for the positions it remembers \
         ({} sums so far; {why}); ask about smaller heaps or fewer components, or allow more \
         memory", budget >> 20, sums
    )]
    TooManyPositions {
        /// The budget, in bytes.
        budget: u64,
        /// The sums remembered when it ran out.
        sums: usize,
        /// Where the budget comes from.
        why: String,
    },
    /// A coordinate beyond what the search keeps (2^31).
    #[error("position {0:?} is too far out for the exact misère search (coordinates below 2^31)")]
    TooFar(Vec<Coord>),
    /// A position beyond the search's reach in a sum that the tame rule does not answer.
    #[error(
        "position {0:?} is too far out for the exact misère search (coordinates below 2^31), \
         and not every component of the sum is tame, so the tame rule does not answer"
    )]
    TooFarUntamed(Vec<Coord>),
    /// The search ran past its time limit.
    #[error(
        "the exact misère search ran past its limit of {seconds} s ({sums} sums remembered); ask \
         about smaller heaps or fewer components, or allow more time"
    )]
    TooLong {
        /// The limit.
        seconds: u64,
        /// The sums remembered when it stopped.
        sums: usize,
    },
    /// The caller asked the search to stop.
    #[error("cancelled")]
    Cancelled,
    /// A position that is not one of its game's.
    #[error("{pos:?} is not a position of {game}")]
    NotAPosition {
        /// The game.
        game: String,
        /// The position.
        pos: Vec<Coord>,
    },
}

/// The bytes a remembered entry takes besides its components, for the memory budget: the hash
/// table's slot (with its spare capacity), the boxed slice's pointer and the allocation's
/// bookkeeping.
const BYTES_PER_ENTRY: u64 = 96;

/// The bytes of one component in a remembered sum or option.
const BYTES_PER_COMPONENT: u64 = std::mem::size_of::<Component>() as u64;

/// The exact misère search over sums of positions of some games (see the module's doc).
pub struct MisereSearch {
    games: Vec<Game>,
    nim: u16,
    options: HashMap<Component, Rc<[Box<[Component]>]>>,
    standing: HashMap<Component, Standing>,
    sums: HashMap<Box<[Component]>, u32>,
    outcomes: HashMap<Box<[Component]>, bool>,
    /// The bytes remembered so far (options, standings and sums), as the budget counts them.
    bytes: u64,
    entries: u64,
    limits: SearchLimits,
    deadline: std::time::Instant,
}

impl MisereSearch {
    /// A search over sums of positions of `games` (and of Nim, for the genus' copies of *2),
    /// within `limits`, counted from now.
    pub fn new(games: Vec<Game>, limits: &SearchLimits) -> MisereSearch {
        let mut games = games;
        let nim = games.len() as u16;
        games.push(nim_heaps());
        MisereSearch {
            games,
            nim,
            options: HashMap::new(),
            standing: HashMap::new(),
            sums: HashMap::new(),
            outcomes: HashMap::new(),
            bytes: 0,
            entries: 0,
            limits: limits.clone(),
            deadline: std::time::Instant::now()
                + std::time::Duration::from_secs(limits.seconds.min(1 << 40)),
        }
    }

    /// How many sums the search remembers now (values and outcomes).
    pub fn remembered(&self) -> usize {
        self.sums.len() + self.outcomes.len()
    }

    /// The bytes the search remembers now, as its budget counts them.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Counts `bytes` more against the budget.
    fn remember(&mut self, bytes: u64) -> Result<(), MisereError> {
        self.bytes += bytes;
        self.entries += 1;
        let sums = self.sums.len() + self.outcomes.len();
        if self.bytes > self.limits.bytes {
            return Err(MisereError::TooManyPositions {
                budget: self.limits.bytes,
                sums,
                why: self.limits.why.clone(),
            });
        }
        if self.entries % 1024 == 0 && std::time::Instant::now() > self.deadline {
            return Err(MisereError::TooLong { seconds: self.limits.seconds, sums });
        }
        Ok(())
    }

    /// The component for `pos` of the `game`th game.
    ///
    /// # Errors
    /// A position that is not the game's, or too far out.
    pub fn component(&self, game: usize, pos: &[Coord]) -> Result<Component, MisereError> {
        let of = &self.games[game];
        if !of.is_position(pos) {
            let game = of.name().to_string();
            return Err(MisereError::NotAPosition { game, pos: pos.to_vec() });
        }
        let mut packed = [0i32; 3];
        for (slot, &c) in packed.iter_mut().zip(pos) {
            *slot = i32::try_from(c).map_err(|_| MisereError::TooFar(pos.to_vec()))?;
        }
        Ok(Component { game: game as u16, pos: packed })
    }

    /// The nim-heap *v.
    pub fn nim_heap(&self, v: u32) -> Component {
        Component { game: self.nim, pos: [v as i32, 0, 0] }
    }

    /// The options of `c`, each the sorted components it leaves (terminal ones left out).
    fn options_of(&mut self, c: Component) -> Result<Rc<[Box<[Component]>]>, MisereError> {
        if let Some(options) = self.options.get(&c) {
            return Ok(options.clone());
        }
        let game = &self.games[c.game as usize];
        let pos: Vec<Coord> = c.pos[..game.dims()].iter().map(|&x| Coord::from(x)).collect();
        let spelt = game.options(&pos);
        let mut options = Vec::with_capacity(spelt.len());
        for option in spelt {
            let mut parts = Vec::with_capacity(option.len());
            for piece in option {
                let part = self.component(c.game as usize, &piece)?;
                if !self.options_of(part)?.is_empty() {
                    parts.push(part);
                }
            }
            parts.sort_unstable();
            options.push(parts.into_boxed_slice());
        }
        let parts: usize = options.iter().map(|o| o.len()).sum();
        self.remember(
            BYTES_PER_ENTRY * (options.len() as u64 + 1) + BYTES_PER_COMPONENT * parts as u64,
        )?;
        let options: Rc<[Box<[Component]>]> = options.into();
        self.options.insert(c, options.clone());
        Ok(options)
    }

    /// What the search knows of `c` on its own: normal and misère values, tameness.
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`] when its options' sums need more than the limit.
    pub fn standing(&mut self, c: Component) -> Result<Standing, MisereError> {
        if let Some(standing) = self.standing.get(&c) {
            return Ok(*standing);
        }
        let options = self.options_of(c)?;
        let mut normals = Vec::with_capacity(options.len());
        let mut miseres = Vec::with_capacity(options.len());
        let mut options_tame = true;
        for option in options.iter() {
            let mut normal = 0;
            for &part in option.iter() {
                let standing = self.standing(part)?;
                normal ^= standing.normal;
                options_tame &= standing.tame;
            }
            normals.push(Nimber(normal));
            miseres.push(Nimber(self.value(option)?));
        }
        let normal = mex(normals).value();
        let misere = if options.is_empty() { 1 } else { mex(miseres).value() };
        let tame_form = matches!((normal, misere), (0, 1) | (1, 0)) || normal == misere;
        let standing = Standing { normal, misere, options_tame, tame: options_tame && tame_form };
        self.remember(BYTES_PER_ENTRY)?;
        self.standing.insert(c, standing);
        Ok(standing)
    }

    /// The misère Grundy value of the sum of `components` (in any order; terminal ones may be
    /// included). It is 0 exactly when the sum is a misère P-position.
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`].
    pub fn value_of(&mut self, components: &[Component]) -> Result<u32, MisereError> {
        let sum = self.sum_of(components)?;
        self.value(&sum)
    }

    /// `components` as the search keeps a sum: sorted, terminal ones left out.
    fn sum_of(&mut self, components: &[Component]) -> Result<Vec<Component>, MisereError> {
        let mut sum = Vec::with_capacity(components.len());
        for &c in components {
            if !self.options_of(c)?.is_empty() {
                sum.push(c);
            }
        }
        sum.sort_unstable();
        Ok(sum)
    }

    /// Whether the sum of `components` (in any order; terminal ones may be included) is a
    /// misère P-position: the same search as [`MisereSearch::value_of`], stopping at the first
    /// P-option of each N-position.
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`].
    pub fn is_p_position(&mut self, components: &[Component]) -> Result<bool, MisereError> {
        let sum = self.sum_of(components)?;
        self.is_p(&sum)
    }

    /// Whether every component of the sum is tame (then its value came from the tame rule).
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`].
    pub fn all_tame(&mut self, components: &[Component]) -> Result<bool, MisereError> {
        for &c in components {
            if !self.standing(c)?.tame {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// [`MisereSearch::value_of`] for a sorted sum without terminal components.
    fn value(&mut self, sum: &[Component]) -> Result<u32, MisereError> {
        match sum {
            [] => return Ok(1),
            [one] => return Ok(self.standing(*one)?.misere),
            _ => {}
        }
        if let Some(value) = self.tame_value(sum)? {
            return Ok(value);
        }
        if let Some(&value) = self.sums.get(sum) {
            return Ok(value);
        }
        let mut seen = Vec::new();
        let mut next = Vec::with_capacity(sum.len() + 2);
        for i in 0..sum.len() {
            if i > 0 && sum[i] == sum[i - 1] {
                continue;
            }
            let options = self.options_of(sum[i])?;
            for option in options.iter() {
                next.clear();
                next.extend_from_slice(&sum[..i]);
                next.extend_from_slice(&sum[i + 1..]);
                next.extend_from_slice(option);
                next.sort_unstable();
                seen.push(Nimber(self.value(&next)?));
            }
        }
        let value = mex(seen).value();
        self.remember(BYTES_PER_ENTRY + BYTES_PER_COMPONENT * sum.len() as u64)?;
        self.sums.insert(sum.into(), value);
        Ok(value)
    }

    /// Whether the sorted sum without terminal components is a misère P-position: it has an
    /// option and every option is an N-position.
    fn is_p(&mut self, sum: &[Component]) -> Result<bool, MisereError> {
        match sum {
            [] => return Ok(false),
            [one] => return Ok(self.standing(*one)?.misere == 0),
            _ => {}
        }
        if let Some(value) = self.tame_value(sum)? {
            return Ok(value == 0);
        }
        if let Some(&p) = self.outcomes.get(sum) {
            return Ok(p);
        }
        if let Some(&value) = self.sums.get(sum) {
            return Ok(value == 0);
        }
        // Every option, the ones whose normal-play nim-sum is 0 first: away from the end of
        // play misère and normal play mostly agree, so a P-option, if there is one, is usually
        // among them and the search of an N-position stops early.
        let total =
            sum.iter().try_fold(0, |x, &c| Ok::<u32, MisereError>(x ^ self.standing(c)?.normal))?;
        let mut candidates: Vec<(bool, Vec<Component>)> = Vec::new();
        for i in 0..sum.len() {
            if i > 0 && sum[i] == sum[i - 1] {
                continue;
            }
            let own = self.standing(sum[i])?.normal;
            let options = self.options_of(sum[i])?;
            for option in options.iter() {
                let mut normal = total ^ own;
                for &part in option.iter() {
                    normal ^= self.standing(part)?.normal;
                }
                let mut next = Vec::with_capacity(sum.len() + option.len());
                next.extend_from_slice(&sum[..i]);
                next.extend_from_slice(&sum[i + 1..]);
                next.extend_from_slice(option);
                next.sort_unstable();
                candidates.push((normal != 0, next));
            }
        }
        candidates.sort_by_key(|(nonzero, _)| *nonzero);
        let mut p = true;
        for (_, next) in &candidates {
            if self.is_p(next)? {
                p = false;
                break;
            }
        }
        self.remember(BYTES_PER_ENTRY + BYTES_PER_COMPONENT * sum.len() as u64)?;
        self.outcomes.insert(sum.into(), p);
        Ok(p)
    }

    /// The tame rule's value of the sum when every component is tame.
    fn tame_value(&mut self, sum: &[Component]) -> Result<Option<u32>, MisereError> {
        let mut standings = Vec::with_capacity(sum.len());
        for &c in sum {
            let standing = self.standing(c)?;
            if !standing.tame {
                return Ok(None);
            }
            standings.push(standing);
        }
        Ok(Some(tame_rule(&standings)))
    }

    /// The genus of `c`: its normal value and the misère values of `c` + k copies of *2, for k
    /// from 0 until the last four alternate between some a and a ⊕ 2 (at most
    /// [`Genus::MOST_TWOS`]).
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`].
    pub fn genus(&mut self, c: Component) -> Result<Genus, MisereError> {
        let normal = self.standing(c)?.normal;
        let two = self.nim_heap(2);
        let mut misere = Vec::new();
        let mut sum = vec![c];
        for k in 0..=Genus::MOST_TWOS {
            misere.push(self.value_of(&sum)?);
            sum.push(two);
            let alternates =
                |j: usize| misere[j] == misere[j - 2] && misere[j] ^ misere[j - 1] == 2;
            if k >= 3 && alternates(k) && alternates(k - 1) {
                return Ok(Genus { normal, misere, settled: true });
            }
        }
        Ok(Genus { normal, misere, settled: false })
    }
}

/// A single nim-heap: take any number of stones.
fn nim_heaps() -> Game {
    let axes = vec![grundy_core::Axis::new("n", 0)];
    let rules = vec![grundy_core::Rule::Slide { directions: vec![vec![-1]], max: None }];
    Game::new("nim-heap", "one heap of Nim", axes, rules).expect("a valid game")
}

/// What bounds a search: the bytes it may remember and the seconds it may run.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    /// Bytes of options, standings and sums.
    pub bytes: u64,
    /// Where that figure comes from, for a refusal.
    pub why: String,
    /// Seconds.
    pub seconds: u64,
}

impl SearchLimits {
    /// The seconds a search runs unless told otherwise.
    pub const DEFAULT_SECONDS: u64 = 600;

    /// The memory available now (most of it: the search is the run's one large holding) and
    /// `seconds`. Without a memory figure (no `/proc/meminfo`, no budget), 4 GiB.
    pub fn available(seconds: u64) -> SearchLimits {
        let (bytes, why) = match memory::available() {
            Some(available) => (
                available.bytes / 4 * 3,
                format!("three quarters of {}, {} MiB", available.bound, available.bytes >> 20),
            ),
            None => (4 << 30, "4 GiB, as no memory figure is known here".to_string()),
        };
        SearchLimits { bytes, why, seconds }
    }

    /// `bytes` and `seconds`, said to come from `why`.
    pub fn new(bytes: u64, seconds: u64, why: &str) -> SearchLimits {
        SearchLimits { bytes, why: why.to_string(), seconds }
    }
}

/// Runs `work` on a thread with a stack deep enough for the search's recursion (one frame per
/// move of the longest line of play it follows).
pub fn with_deep_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    const STACK_BYTES: usize = 1 << 30;
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)
            .expect("a thread for the misère search")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// `tame`, `restive` (not tame, every option tame) or `wild`: the words of every output.
pub fn tameness(standing: &Standing) -> &'static str {
    if standing.tame {
        "tame"
    } else if standing.restive() {
        "restive"
    } else {
        "wild"
    }
}

/// One game of a sum and its positions there.
#[derive(Clone, Debug)]
pub struct SumTerm<'g> {
    /// The game.
    pub game: &'g Game,
    /// Its positions in the sum.
    pub positions: Vec<Vec<Coord>>,
}

/// One component of a misère sum, as `grundy value --misere` reports it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ComponentReport {
    /// Its game's name.
    pub game: String,
    /// Its position.
    pub position: Vec<Coord>,
    /// Its misère Grundy value on its own.
    pub value: u32,
    /// Its normal-play value.
    pub normal: u32,
    /// `tame`, `restive` or `wild`.
    pub tameness: &'static str,
}

/// A sum under misère play: its components, its misère value and outcome, and how it was
/// found. The JSON of `value --misere` (its moves are [`misere_moves_of`]'s).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SumReport {
    /// The games' names joined by ` + `.
    pub game: String,
    /// Always `misere`.
    pub play: &'static str,
    /// The components.
    pub components: Vec<ComponentReport>,
    /// The sum's misère Grundy value.
    pub value: u32,
    /// `P` (the player to move loses) or `N`.
    pub outcome: &'static str,
    /// `tame rule` (every component tame) or `exact search`.
    pub method: &'static str,
    /// Sums the search remembered.
    pub sums_remembered: usize,
}

/// The misère value and outcome of the sum of `terms`, by a [`MisereSearch`] within `limits`.
/// A position beyond the search's reach (2^31) of a subtraction game with a finite set is
/// answered by its game's proved standings ([`standing_law`]): when every component is tame,
/// the tame rule gives the sum's value at once.
///
/// # Errors
/// A position beyond the search's reach that no proved law answers, or the search's limits.
pub fn misere_sum(terms: &[SumTerm<'_>], limits: &SearchLimits) -> Result<SumReport, MisereError> {
    let far = |pos: &[Coord]| pos.iter().any(|&c| i32::try_from(c).is_err());
    let mut laws = Vec::with_capacity(terms.len());
    for term in terms {
        laws.push(match term.positions.iter().any(|pos| far(pos)) {
            true => standing_law(term.game, limits)?,
            false => None,
        });
    }
    let games: Vec<Game> = terms.iter().map(|t| t.game.clone()).collect();
    with_deep_stack(move || {
        let mut search = MisereSearch::new(games, limits);
        let (mut near, mut standings, mut reports) = (Vec::new(), Vec::new(), Vec::new());
        let mut first_far = None;
        for (t, term) in terms.iter().enumerate() {
            for pos in &term.positions {
                let standing = match &laws[t] {
                    Some(law) if far(pos) => {
                        first_far.get_or_insert_with(|| pos.clone());
                        law.standing(pos[0])
                    }
                    _ => {
                        let c = search.component(t, pos)?;
                        near.push(c);
                        search.standing(c)?
                    }
                };
                standings.push(standing);
                reports.push(ComponentReport {
                    game: term.game.name().to_string(),
                    position: pos.clone(),
                    value: standing.misere,
                    normal: standing.normal,
                    tameness: tameness(&standing),
                });
            }
        }
        let (value, method) = match (standings.iter().all(|s| s.tame), first_far) {
            (true, _) => (tame_rule(&standings), "tame rule"),
            (false, None) => (search.value_of(&near)?, "exact search"),
            (false, Some(pos)) => return Err(MisereError::TooFarUntamed(pos)),
        };
        let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
        Ok(SumReport {
            game: names.join(" + "),
            play: "misere",
            components: reports,
            value,
            outcome: if value == 0 { "P" } else { "N" },
            method,
            sums_remembered: search.remembered(),
        })
    })
}

/// Every move of the sum of `terms` under misère play, in the shape of every other listing
/// ([`Moves`]): each option with its own misère value (a split's, of the pieces it leaves as one
/// sum) and the misère value of the whole sum after it, all from one [`MisereSearch`] within
/// `limits`. Each option is listed on its own: two options of one misère value can leave sums
/// of different values.
///
/// # Errors
/// A position beyond the search's reach, a group of more than [`crate::moves::EXAMINED`]
/// options ([`MisereError::TooFar`]), or the search's limits.
pub fn misere_moves_of(
    terms: &[SumTerm<'_>],
    limits: &SearchLimits,
) -> Result<Moves<u32>, MisereError> {
    let games: Vec<Game> = terms.iter().map(|t| t.game.clone()).collect();
    with_deep_stack(move || {
        let mut search = MisereSearch::new(games, limits);
        let mut placed = Vec::new();
        for (t, term) in terms.iter().enumerate() {
            for pos in &term.positions {
                placed.push((t, pos.clone(), search.component(t, pos)?));
            }
        }
        let all: Vec<Component> = placed.iter().map(|&(_, _, c)| c).collect();
        let value = search.value_of(&all)?;
        let note = SearchNote {
            method: if search.all_tame(&all)? { "tame rule" } else { "exact search" },
            sums_remembered: 0,
        };
        let mut components = Vec::new();
        for (i, (t, pos, c)) in placed.iter().enumerate() {
            let game = terms[*t].game;
            let standing = search.standing(*c)?;
            let mut groups = Vec::new();
            for group in game.option_groups(pos) {
                if group.len() > crate::moves::EXAMINED {
                    return Err(MisereError::TooFar(pos.clone()));
                }
                let mut options = Vec::new();
                for to in group.options() {
                    let pieces: Vec<Component> =
                        to.iter().map(|p| search.component(*t, p)).collect::<Result<_, _>>()?;
                    let mut after: Vec<Component> = all.clone();
                    after.remove(i);
                    after.extend(&pieces);
                    let value = search.value_of(&pieces)?;
                    let sum = search.value_of(&after)?;
                    options.push(MoveTo { to, value, sum });
                }
                groups.push(MoveGroup {
                    rule: group.rule + 1,
                    kind: crate::moves::describe(game, &group),
                    count: group.len(),
                    options,
                    classes: Vec::new(),
                });
            }
            components.push(ComponentMoves {
                game: game.name().to_string(),
                position: pos.clone(),
                value: standing.misere,
                groups,
                misere: Some((standing.normal, tameness(&standing))),
            });
        }
        let search = SearchNote { sums_remembered: search.remembered(), ..note };
        Ok(Moves {
            play: grundy_core::Play::Misere,
            components,
            value,
            laws: Vec::new(),
            strips: Vec::new(),
            search: Some(search),
        })
    })
}

/// Whether a game's table comes from the exact search rather than from a fill: a heap game
/// under misère play whose moves leave sums (no fill computes it; see [`grundy_core::Play`]).
/// Every front end that loads a table asks here.
pub fn table_by_search(game: &Game) -> bool {
    game.play() == grundy_core::Play::Misere && game.dims() == 1 && game.options_are_sums()
}

/// The misère values of a heap game's heaps over `shape`, from [`genus_table`]: the table a
/// fill would give if the per-position recursion held.
///
/// # Errors
/// As [`genus_table`].
pub fn misere_heap_table(
    game: &Game,
    shape: &grundy_core::TableShape,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<grundy_core::GrundyTable, MisereError> {
    let rows = genus_table(game, shape.max()[0], limits, progress)?;
    let values: Vec<Nimber> = rows.iter().map(|row| Nimber(row.genus.misere[0])).collect();
    Ok(grundy_core::GrundyTable::from_nimbers(shape.clone(), &values))
}

/// A heap game's genera counted: how far every heap is tame, and how many are restive, wild or
/// unsettled (`compute --misere --format summary`, `patterns --misere`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GeneraCount {
    /// The largest heap up to which every heap is tame (`None` when the first is not).
    pub tame_up_to: Option<Coord>,
    /// Heaps that are not tame though every option is.
    pub restive: u64,
    /// Other heaps that are not tame.
    pub wild: u64,
    /// Heaps whose genus had not settled after [`Genus::MOST_TWOS`] copies of *2.
    pub unsettled: u64,
}

impl GeneraCount {
    /// The count of `rows`.
    pub fn of(rows: &[HeapGenus]) -> GeneraCount {
        let tame_up_to = match rows.iter().position(|row| !row.standing.tame) {
            Some(0) => None,
            Some(at) => Some(rows[at - 1].heap),
            None => rows.last().map(|row| row.heap),
        };
        let count =
            |kind: &str| rows.iter().filter(|row| tameness(&row.standing) == kind).count() as u64;
        GeneraCount {
            tame_up_to,
            restive: count("restive"),
            wild: count("wild"),
            unsettled: rows.iter().filter(|row| !row.genus.settled).count() as u64,
        }
    }
}

/// A period of a genus sequence: every genus from heap `from` on repeats `period` heaps later,
/// as far as the table reaches (`to`), with three periods at least seen. Evidence only: no
/// theorem is known that proves a genus sequence periodic in general (Allen shows truncated
/// genus sequences of quaternary games are periodic, and full ones need not be).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GenusPeriod {
    /// The period.
    pub period: usize,
    /// The heaps before the periodic part.
    pub preperiod: usize,
    /// The first heap of the periodic part.
    pub from: Coord,
    /// The last heap seen.
    pub to: Coord,
}

/// The smallest period (with its smallest preperiod) of the genus sequence in `rows`, seen at
/// least three times; genera compare as written (normal value, superscript and whether settled).
pub fn genus_period(rows: &[HeapGenus]) -> Option<GenusPeriod> {
    let keys: Vec<(u32, &[u32], bool)> =
        rows.iter().map(|r| (r.genus.normal, r.genus.superscript(), r.genus.settled)).collect();
    let n = keys.len();
    for period in 1..=n / 3 {
        // The least start from which x(i + period) = x(i) up to the end.
        let mut start = n - period;
        while start > 0 && keys[start - 1] == keys[start - 1 + period] {
            start -= 1;
        }
        if n - start >= 3 * period {
            let first = rows.first().map_or(0, |r| r.heap);
            let to = rows.last().map_or(0, |r| r.heap);
            return Some(GenusPeriod {
                period,
                preperiod: start,
                from: first + start as Coord,
                to,
            });
        }
    }
    None
}

/// One heap of a heap game's genus table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGenus {
    /// The heap size.
    pub heap: Coord,
    /// Its genus.
    pub genus: Genus,
    /// What the search knows of it (tame, restive).
    pub standing: Standing,
}

/// The genus of every heap of the 1-D game `game` from its first heap to `last`, in order, with
/// its tameness, by a [`MisereSearch`] within `limits`; `progress` hears of each heap
/// (a "cell") and may cancel between heaps.
///
/// # Errors
/// [`MisereError::TooManyPositions`] and [`MisereError::TooLong`] when the search reaches its
/// limits before `last` ([`genera_within`] keeps the heaps found by then);
/// [`MisereError::Cancelled`].
///
/// # Panics
/// If `game` is not a heap game.
pub fn genus_table(
    game: &Game,
    last: Coord,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<Vec<HeapGenus>, MisereError> {
    let genera = genera_within(game, last, limits, progress)?;
    match genera.cut {
        Some(cut) => Err(cut),
        None => Ok(genera.rows),
    }
}

/// The genera a search found within its limits: every heap from the first to `last`, or to
/// where the search reached its limits.
#[derive(Debug)]
pub struct Genera {
    /// The heaps found, in order.
    pub rows: Vec<HeapGenus>,
    /// Why the search stopped before the last heap asked for: its time or memory limit
    /// ([`MisereError::TooLong`], [`MisereError::TooManyPositions`]); `None` when it got there.
    pub cut: Option<MisereError>,
}

/// [`genus_table`], keeping the heaps found when the search reaches its time or memory limit
/// (a survey's member, which says how far it got).
///
/// # Errors
/// [`MisereError::Cancelled`], and the errors of a position outside the search's range.
///
/// # Panics
/// If `game` is not a heap game.
pub fn genera_within(
    game: &Game,
    last: Coord,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<Genera, MisereError> {
    assert_eq!(game.dims(), 1, "a heap game");
    let first = game.axes()[0].min;
    let game = game.clone();
    with_deep_stack(move || {
        let mut search = MisereSearch::new(vec![game], limits);
        let mut rows = Vec::new();
        for heap in first..=last {
            if progress.cancelled() {
                return Err(MisereError::Cancelled);
            }
            let found = search.component(0, &[heap]).and_then(|c| {
                let standing = search.standing(c)?;
                let genus = search.genus(c)?;
                Ok(HeapGenus { heap, genus, standing })
            });
            match found {
                Ok(row) => rows.push(row),
                Err(cut @ (MisereError::TooLong { .. } | MisereError::TooManyPositions { .. })) => {
                    return Ok(Genera { rows, cut: Some(cut) })
                }
                Err(err) => return Err(err),
            }
            progress.advance(1);
        }
        Ok(Genera { rows, cut: None })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn genus(normal: u32, misere: &[u32]) -> Genus {
        Genus { normal, misere: misere.to_vec(), settled: true }
    }

    #[test]
    fn superscripts_are_the_shortest() {
        assert_eq!(genus(0, &[1, 2, 0, 2, 0, 2]).to_string(), "0^120");
        assert_eq!(genus(1, &[0, 3, 1, 3, 1, 3]).to_string(), "1^031");
        assert_eq!(genus(2, &[2, 0, 2, 0, 2, 0]).to_string(), "2^20");
        assert_eq!(genus(4, &[1, 4, 6, 4, 6, 4, 6]).to_string(), "4^146");
        assert_eq!(genus(12, &[12, 14, 12, 14]).to_string(), "12^(12,14)");
        assert!(genus(0, &[1, 2, 0, 2, 0, 2]).is_tame_genus());
        assert!(genus(5, &[5, 7, 5, 7]).is_tame_genus());
        assert!(!genus(4, &[1, 4, 6, 4, 6, 4, 6]).is_tame_genus());
    }

    #[test]
    fn genus_periods_are_the_smallest_seen_three_times() {
        let row = |heap: Coord, normal: u32| HeapGenus {
            heap,
            genus: genus(normal, &[normal, normal ^ 2]),
            standing: Standing { normal, misere: normal, options_tame: true, tame: true },
        };
        let rows: Vec<HeapGenus> =
            (0..20).map(|h| row(h, if h < 2 { 7 } else { (h % 3) as u32 })).collect();
        let found = genus_period(&rows).unwrap();
        assert_eq!((found.period, found.preperiod, found.from, found.to), (3, 2, 2, 19));
        assert_eq!(genus_period(&rows[..8]), None);
    }

    #[test]
    fn nim_heaps_have_the_tame_genera() {
        let mut search = MisereSearch::new(vec![], &SearchLimits::new(1 << 24, 60, "test"));
        let expected = ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57"];
        for (v, text) in expected.iter().enumerate() {
            let heap = search.nim_heap(v as u32);
            assert_eq!(search.genus(heap).unwrap().to_string(), *text);
            assert!(search.standing(heap).unwrap().tame);
        }
    }
}
