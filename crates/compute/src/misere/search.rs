//! The search itself: components, what it knows of each ([`Standing`]), and the memoised values
//! of sums.

use super::limits::SearchLimits;
use crate::error::MisereError;
use grundy_core::{mex, Coord, Game, Nimber, Play};
use std::collections::HashMap;
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
        if self.entries.is_multiple_of(1024) && std::time::Instant::now() > self.deadline {
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
        let misere = Play::Misere.value(mex(miseres), || options.is_empty()).value();
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
            [] => return Ok(Play::Misere.terminal_value().value()),
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
            [] => return Ok(Play::Misere.terminal_is_p()),
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
}

/// A single nim-heap: take any number of stones.
fn nim_heaps() -> Game {
    let axes = vec![grundy_core::Axis::new("n", 0)];
    let rules = vec![grundy_core::Rule::Slide { directions: vec![vec![-1]], max: None }];
    Game::new("nim-heap", "one heap of Nim", axes, rules).expect("a valid game")
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

/// The misère value of a sum of tame components (Conway's tame rule): the nim-sum of their
/// normal values, flipped by 1 when none is firm (every one fickle: (g, γ⁻) = (0, 1) or (1, 0)).
pub fn tame_rule(standings: &[Standing]) -> u32 {
    let nim_sum = standings.iter().fold(0, |sum, s| sum ^ s.normal);
    if standings.iter().any(|s| !s.fickle()) {
        nim_sum
    } else {
        nim_sum ^ 1
    }
}
