//! Misère quotients of heap games (Plambeck and Siegel, *Misère quotients for impartial games*,
//! JCTA 2008): the structure that answers the misère play of sums of heaps far beyond the
//! exact search.
//!
//! Two sums G and H of heaps are *indistinguishable* when G + X and H + X have the same misère
//! outcome for every sum X of the same heaps. The classes form a commutative monoid, the
//! **misère quotient** Q, with its **P-portion** (the classes of P-positions) and the map Φ
//! from heaps to Q; for many games Q is finite up to large heaps, and then every sum's outcome
//! is a product in Q.
//!
//! How it is found here (the check is the proof; how a candidate is guessed is not):
//!
//! - The heaps are taken one by one, each with its options as sums of earlier heaps. The
//!   candidate is a product of cyclic monoids ⟨g | g^(i+p) = g^i⟩, one per *generator* heap,
//!   and every other heap is a fixed word in the generators. Each element is a P-position or
//!   not by its shortest word (P when it has an option and no option is P); the candidate is
//!   then reduced to its coarsest congruence that keeps the P-portion (Moore's refinement).
//! - **The check**, an induction over all sums of the heaps: every sum X has a pair
//!   (Φ(X), T(X)), its class and the set of its options' classes, and
//!   (Φ(X + Y), T(X + Y)) = (Φ(X)Φ(Y), Φ(X)T(Y) ∪ Φ(Y)T(X)). So the pairs of all sums are the
//!   finite closure of the heaps' own pairs, and when every pair (x, S) has x in the P-portion
//!   exactly when S is not empty and meets no class of the P-portion, every sum's outcome is
//!   its class's. A failing pair names a sum; its heaps become generators, or their exponents
//!   grow, and the loop goes on. A new heap first tries to be a class the quotient has (most
//!   heaps are), which the check extends to the new pairs only.
//!
//! The quotient answers outcomes, not misère Grundy values (a position's value v is the outcome
//! of it plus *v, which needs the nim-heaps in the closure; the candidate guessed here grows too
//! fast for that beside a wild game, so values and genera come from the exact search,
//! [`crate::misere`]).

mod find;

use grundy_compute::misere::SearchLimits;
use grundy_compute::Progress;
use grundy_core::{Coord, Game};
use std::collections::HashMap;

/// One heap of the closure: a position whose options are sums of earlier heaps.
#[derive(Clone, Debug)]
struct Heap {
    /// Its options, each the earlier heaps it leaves (heaps without a move left out).
    options: Vec<Vec<usize>>,
}

/// A generator of the candidate: a heap, with its relation g^(index + period) = g^index.
#[derive(Clone, Copy, Debug)]
struct Generator {
    heap: usize,
    index: u32,
    period: u32,
}

/// The candidate: its generators, and each heap as a word (exponents, one per generator).
#[derive(Clone, Debug, Default)]
struct Candidate {
    generators: Vec<Generator>,
    words: Vec<Vec<u32>>,
}

/// The product of cyclic monoids the candidate spans, its elements in mixed radix.
struct Free {
    radix: Vec<u64>,
    stride: Vec<u64>,
    index: Vec<u64>,
    period: Vec<u64>,
    size: u64,
}

impl Free {
    fn of(generators: &[Generator], most: u64) -> Option<Free> {
        let radix: Vec<u64> = generators.iter().map(|g| u64::from(g.index + g.period)).collect();
        let mut stride = Vec::with_capacity(radix.len());
        let mut size: u64 = 1;
        for &r in &radix {
            stride.push(size);
            size = size.checked_mul(r).filter(|&s| s <= most)?;
        }
        Some(Free {
            radix,
            stride,
            index: generators.iter().map(|g| u64::from(g.index)).collect(),
            period: generators.iter().map(|g| u64::from(g.period)).collect(),
            size,
        })
    }

    fn exponent(&self, x: u64, j: usize) -> u64 {
        x / self.stride[j] % self.radix[j]
    }

    /// g^e in the cyclic monoid of generator `j`.
    fn wrap(&self, j: usize, e: u64) -> u64 {
        if e < self.index[j] {
            e
        } else {
            self.index[j] + (e - self.index[j]) % self.period[j]
        }
    }

    fn mul(&self, x: u64, y: u64) -> u64 {
        (0..self.radix.len())
            .map(|j| self.wrap(j, self.exponent(x, j) + self.exponent(y, j)) * self.stride[j])
            .sum()
    }

    fn of_word(&self, word: &[u32]) -> u64 {
        (0..self.radix.len()).map(|j| self.wrap(j, u64::from(word[j])) * self.stride[j]).sum()
    }
}

/// A reduced candidate: classes, which are P-positions, and the whole product table.
#[derive(Clone, Debug)]
struct Reduced {
    p: Vec<bool>,
    /// `product[x * n + y]`.
    product: Vec<u32>,
    /// Each class's shortest word in the generators.
    word: Vec<Vec<u32>>,
    /// Each heap's class (the empty sum's, 0, for heaps without a move).
    image: Vec<u32>,
    /// Each heap's options' classes.
    moves: Vec<Vec<u32>>,
}

impl Reduced {
    fn trivial() -> Reduced {
        Reduced {
            p: vec![false],
            product: vec![0],
            word: vec![vec![]],
            image: vec![],
            moves: vec![],
        }
    }

    fn len(&self) -> usize {
        self.p.len()
    }

    fn mul(&self, x: u32, y: u32) -> u32 {
        self.product[x as usize * self.len() + y as usize]
    }

    /// Whether a position whose options' classes are `moves` is a P-position.
    fn p_by_moves(&self, moves: &[u32]) -> bool {
        !moves.is_empty() && moves.iter().all(|&m| !self.p[m as usize])
    }
}

/// Why a quotient was not found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QuotientError {
    /// The candidate grew past what memory allows (the quotient may be infinite).
    #[error(
        "the misère quotient of {game} grows past {most} elements at heap {heap} (memory: \
         {why}); it may be infinite from about there: ask about smaller heaps"
    )]
    TooLarge {
        /// The game.
        game: String,
        /// The heap being added.
        heap: Coord,
        /// The most elements allowed.
        most: u64,
        /// Where the memory figure comes from.
        why: String,
    },
    /// The time limit ran out.
    #[error("the misère quotient of {game} ran past its limit of {seconds} s at heap {heap}")]
    TooLong {
        /// The game.
        game: String,
        /// The heap being added.
        heap: Coord,
        /// The limit.
        seconds: u64,
    },
    /// The caller asked to stop.
    #[error("cancelled")]
    Cancelled,
    /// Not a heap game.
    #[error("{0} is not a heap game: a misère quotient is of heaps")]
    NotAHeapGame(String),
    /// A heap outside the quotient's range.
    #[error("heap {heap} is outside the misère quotient of {game}, which reaches heap {last}")]
    OutOfRange {
        /// The game.
        game: String,
        /// The heap asked about.
        heap: Coord,
        /// The last heap of the quotient.
        last: Coord,
    },
}

/// The closure's heaps: the game's, in order.
struct Closure {
    game: Game,
    first: Coord,
    heaps: Vec<Heap>,
}

impl Closure {
    fn new(game: &Game) -> Result<Closure, QuotientError> {
        if game.dims() != 1 {
            return Err(QuotientError::NotAHeapGame(game.name().to_string()));
        }
        Ok(Closure { game: game.clone(), first: game.axes()[0].min, heaps: Vec::new() })
    }

    fn last(&self) -> Option<Coord> {
        (!self.heaps.is_empty()).then(|| self.first + self.heaps.len() as Coord - 1)
    }

    fn push(&mut self, options: Vec<Vec<usize>>) -> usize {
        let mut options: Vec<Vec<usize>> = options
            .into_iter()
            .map(|o| {
                let mut parts: Vec<usize> =
                    o.into_iter().filter(|&h| !self.heaps[h].options.is_empty()).collect();
                parts.sort_unstable();
                parts
            })
            .collect();
        options.sort();
        options.dedup();
        self.heaps.push(Heap { options });
        self.heaps.len() - 1
    }

    /// Adds the game's next heap; its index among the heaps.
    fn push_game(&mut self) -> usize {
        let n = self.first + self.heaps.len() as Coord;
        let options: Vec<Vec<usize>> = self
            .game
            .options(&[n])
            .iter()
            .map(|o| o.iter().map(|piece| (piece[0] - self.first) as usize).collect())
            .collect();
        self.push(options)
    }
}

/// One pair of the check: a class, its options' classes, and where it came from.
struct Pair {
    class: u32,
    moves: Box<[u64]>,
    parent: u32,
    heap: u32,
}

/// The pairs of every sum of the heaps checked so far (see the module's doc), kept so that a
/// new heap's check covers only the pairs it makes.
#[derive(Default)]
struct Pairs {
    seen: HashMap<(u32, Box<[u64]>), u32>,
    list: Vec<Pair>,
    movers: Vec<usize>,
    /// The P-portion as a bit set, for the check.
    p_bits: Vec<u64>,
}

/// Why the check stopped without an answer.
enum Stop {
    TooMany,
    Late,
}

impl Pairs {
    fn new(reduced: &Reduced) -> Pairs {
        let words = reduced.len().div_ceil(64);
        let mut p_bits = vec![0u64; words];
        for (x, &p) in reduced.p.iter().enumerate() {
            if p {
                p_bits[x / 64] |= 1 << (x % 64);
            }
        }
        let empty: Box<[u64]> = vec![0u64; words].into_boxed_slice();
        let mut pairs = Pairs { p_bits, ..Pairs::default() };
        pairs.seen.insert((0, empty.clone()), 0);
        pairs.list.push(Pair { class: 0, moves: empty, parent: u32::MAX, heap: u32::MAX });
        pairs
    }

    fn bytes(&self) -> u64 {
        self.list.len() as u64 * (self.p_bits.len() as u64 * 16 + 96)
    }

    /// Adds heap `h` (whose image and moves `reduced` has) to the pairs: `None` when every new
    /// pair passes, or the heaps of a sum that fails (the pairs are then as before).
    fn grow(
        &mut self,
        reduced: &Reduced,
        h: usize,
        budget: u64,
        late: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<usize>>, Stop> {
        if reduced.moves[h].is_empty() {
            return Ok(None);
        }
        let before = self.list.len();
        self.movers.push(h);
        let outcome = self.close(reduced, before, budget, late);
        if !matches!(outcome, Ok(None)) {
            for pair in self.list.drain(before..) {
                self.seen.remove(&(pair.class, pair.moves));
            }
            self.movers.pop();
        }
        outcome
    }

    fn close(
        &mut self,
        reduced: &Reduced,
        before: usize,
        budget: u64,
        late: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<usize>>, Stop> {
        let newest = *self.movers.last().expect("a mover");
        let mut at = 0;
        while at < self.list.len() {
            if at % 1024 == 0 && late() {
                return Err(Stop::Late);
            }
            let count = if at < before { 1 } else { self.movers.len() };
            for k in 0..count {
                let h = if at < before { newest } else { self.movers[k] };
                if let Some(failure) = self.product(reduced, at, h) {
                    return Ok(Some(failure));
                }
            }
            if self.bytes() > budget {
                return Err(Stop::TooMany);
            }
            at += 1;
        }
        Ok(None)
    }

    /// The pair of `at` plus heap `h`: checked and remembered when new; the failing sum's
    /// heaps when it fails.
    fn product(&mut self, reduced: &Reduced, at: usize, h: usize) -> Option<Vec<usize>> {
        let (x, g) = (self.list[at].class, reduced.image[h]);
        let y = reduced.mul(x, g);
        let mut next = vec![0u64; self.p_bits.len()].into_boxed_slice();
        for &t in &reduced.moves[h] {
            let c = reduced.mul(x, t) as usize;
            next[c / 64] |= 1 << (c % 64);
        }
        for (w, &chunk) in self.list[at].moves.iter().enumerate() {
            let mut rest = chunk;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let c = reduced.mul((w * 64 + b) as u32, g) as usize;
                next[c / 64] |= 1 << (c % 64);
            }
        }
        let key = (y, next);
        if self.seen.contains_key(&key) {
            return None;
        }
        let any = key.1.iter().any(|&w| w != 0);
        let meets_p = key.1.iter().zip(&self.p_bits).any(|(&a, &b)| a & b != 0);
        if reduced.p[y as usize] != (any && !meets_p) {
            let mut sum = vec![h];
            let mut back = at;
            while self.list[back].parent != u32::MAX {
                sum.push(self.list[back].heap as usize);
                back = self.list[back].parent as usize;
            }
            sum.sort_unstable();
            return Some(sum);
        }
        let id = self.list.len() as u32;
        self.list.push(Pair { class: y, moves: key.1.clone(), parent: at as u32, heap: h as u32 });
        self.seen.insert(key, id);
        None
    }
}

/// A misère quotient of a heap game, found and checked heap by heap (see the module's doc).
pub struct MisereQuotient {
    closure: Closure,
    candidate: Candidate,
    reduced: Reduced,
    pairs: Pairs,
    limits: SearchLimits,
    /// The most candidate elements the memory allows.
    most: u64,
    deadline: std::time::Instant,
    /// The heaps at which the candidate changed (new generators or relations).
    changes: Vec<Coord>,
}

/// The misère quotient proper (Plambeck–Siegel's): the classes of the sums of the game's own
/// heaps, two equal when no such sum tells them apart by outcome, with a presentation.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OutcomeQuotient {
    /// Its order |Q|.
    pub order: usize,
    /// The number of classes of P-positions, |P|.
    pub p_portion: usize,
    /// Its generators, each with the first heap whose class it is.
    pub generators: Vec<(String, Coord)>,
    /// Its relations, each `word = word`: the least words (in degree, then the last
    /// generator's exponent first) that are not the least of their class.
    pub relations: Vec<String>,
    /// Every heap's class, as its least word in the generators (`1` for the empty sum).
    pub heaps: Vec<(Coord, String)>,
    /// The P-portion, each class as its least word.
    pub p_positions: Vec<String>,
}

/// The quotient of `reduced` by outcome, over the sums of the game's heaps only (those from
/// `offset` on), with its presentation.
fn outcome_quotient(reduced: &Reduced, game_heaps: &[usize], first: Coord) -> OutcomeQuotient {
    let movers: Vec<u32> = game_heaps.iter().map(|&h| reduced.image[h]).collect();
    let mut distinct_images = movers.clone();
    distinct_images.sort_unstable();
    distinct_images.dedup();
    let list = submonoid(reduced, &distinct_images);
    let (class, count) = refined_by_outcome(reduced, &list, &distinct_images);
    let generators = generators_of(reduced, &class, game_heaps, first);
    let gens = generators.len();
    let spell = |word: &[u32]| -> String { spell_word(word, gens) };
    let (least, relations) = least_words(reduced, &class, &generators);
    let p_classes: std::collections::HashSet<u32> =
        list.iter().filter(|&&x| reduced.p[x as usize]).map(|x| class[x]).collect();
    let mut p_positions: Vec<&Vec<u32>> = p_classes.iter().map(|c| &least[c]).collect();
    p_positions.sort_by_key(|w| order_key(w));
    let heaps_words = game_heaps
        .iter()
        .enumerate()
        .map(|(i, &h)| (first + i as Coord, spell(&least[&class[&reduced.image[h]]])))
        .collect();
    OutcomeQuotient {
        order: count,
        p_portion: p_classes.len(),
        generators: generators.into_iter().map(|(name, heap, _)| (name, heap)).collect(),
        relations,
        heaps: heaps_words,
        p_positions: p_positions.iter().map(|w| spell(w)).collect(),
    }
}

/// The submonoid of `reduced` that `images` (the game's heaps') generate, in the order found.
fn submonoid(reduced: &Reduced, distinct_images: &[u32]) -> Vec<u32> {
    let mut members = vec![false; reduced.len()];
    let mut list = vec![0u32];
    members[0] = true;
    let mut at = 0;
    while at < list.len() {
        for &g in distinct_images {
            let y = reduced.mul(list[at], g);
            if !members[y as usize] {
                members[y as usize] = true;
                list.push(y);
            }
        }
        at += 1;
    }
    list
}

/// Moore's refinement of `list` by outcome, split by the game's heaps: each element's class,
/// and the number of classes.
fn refined_by_outcome(
    reduced: &Reduced,
    list: &[u32],
    distinct_images: &[u32],
) -> (HashMap<u32, u32>, usize) {
    let mut class: HashMap<u32, u32> =
        list.iter().map(|&x| (x, u32::from(reduced.p[x as usize]))).collect();
    let mut count = class.values().collect::<std::collections::HashSet<_>>().len();
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut next = HashMap::new();
        for &x in list {
            let mut key = vec![class[&x]];
            key.extend(distinct_images.iter().map(|&g| class[&reduced.mul(x, g)]));
            let fresh = ids.len() as u32;
            next.insert(x, *ids.entry(key).or_insert(fresh));
        }
        let grown = ids.len();
        class = next;
        if grown == count {
            break;
        }
        count = grown;
    }
    (class, count)
}

/// The generators: heaps whose class is not a product of earlier generators' classes, each
/// with its name, its heap and its element.
fn generators_of(
    reduced: &Reduced,
    class: &HashMap<u32, u32>,
    game_heaps: &[usize],
    first: Coord,
) -> Vec<(String, Coord, u32)> {
    let mut generators: Vec<(String, Coord, u32)> = Vec::new();
    let mut reached: std::collections::HashSet<u32> = std::collections::HashSet::from([class[&0]]);
    let mut reached_elements: Vec<u32> = vec![0];
    for (i, &h) in game_heaps.iter().enumerate() {
        let x = reduced.image[h];
        if reached.contains(&class[&x]) {
            continue;
        }
        generators.push((generator_name(generators.len()), first + i as Coord, x));
        // The reached classes times every power of the new generator.
        let mut at = 0;
        while at < reached_elements.len() {
            let y = reduced.mul(reached_elements[at], x);
            if reached.insert(class[&y]) {
                reached_elements.push(y);
            }
            at += 1;
        }
    }
    generators
}

/// The words of each class: its least word in degree, then lexicographic order (the last
/// generator the most significant): a monomial order, so the least words are closed under
/// division and the relations are the least words that are not least, each equal to its
/// class's least word.
fn least_words(
    reduced: &Reduced,
    class: &HashMap<u32, u32>,
    generators: &[(String, Coord, u32)],
) -> (HashMap<u32, Vec<u32>>, Vec<String>) {
    let gens = generators.len();
    let spell = |word: &[u32]| -> String { spell_word(word, gens) };
    let mut least: HashMap<u32, Vec<u32>> = HashMap::from([(class[&0], vec![0; gens])]);
    let mut standard: std::collections::HashSet<Vec<u32>> =
        std::collections::HashSet::from([vec![0; gens]]);
    let mut level: Vec<(Vec<u32>, u32)> = vec![(vec![0; gens], 0)];
    let mut relations = Vec::new();
    while !level.is_empty() {
        let mut candidates: Vec<(Vec<u32>, u32)> = Vec::new();
        for (word, x) in &level {
            for (j, generator) in generators.iter().enumerate() {
                let mut up = word.clone();
                up[j] += 1;
                let divisors_standard = (0..gens).filter(|&i| up[i] > 0).all(|i| {
                    let mut down = up.clone();
                    down[i] -= 1;
                    standard.contains(&down)
                });
                if divisors_standard {
                    candidates.push((up, reduced.mul(*x, generator.2)));
                }
            }
        }
        candidates.sort_by_key(|(w, _)| order_key(w));
        candidates.dedup_by(|a, b| a.0 == b.0);
        let mut next = Vec::new();
        for (word, y) in candidates {
            match least.entry(class[&y]) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(word.clone());
                    standard.insert(word.clone());
                    next.push((word, y));
                }
                std::collections::hash_map::Entry::Occupied(slot) => {
                    relations.push(format!("{} = {}", spell(&word), spell(slot.get())));
                }
            }
        }
        level = next;
    }
    (least, relations)
}

/// A word's place in the monomial order of [`least_words`]: its degree, then its exponents
/// from the last generator's.
fn order_key(w: &[u32]) -> (u32, Vec<u32>) {
    (w.iter().sum::<u32>(), w.iter().rev().copied().collect())
}

/// a, b, c, …, z, then a1, b1, …
fn generator_name(j: usize) -> String {
    let letter = (b'a' + (j % 26) as u8) as char;
    if j < 26 {
        letter.to_string()
    } else {
        format!("{letter}{}", j / 26)
    }
}

fn spell_word(word: &[u32], gens: usize) -> String {
    let mut text = String::new();
    for (j, &e) in word.iter().enumerate().take(gens) {
        match e {
            0 => {}
            1 => text.push_str(&generator_name(j)),
            e => text.push_str(&format!("{}^{e}", generator_name(j))),
        }
    }
    if text.is_empty() {
        "1".to_string()
    } else {
        text
    }
}

/// The misère quotient of `game`'s heaps up to `last`, found and checked within `limits`;
/// `progress` hears of each heap and may cancel.
///
/// # Errors
/// [`QuotientError`].
pub fn misere_quotient(
    game: &Game,
    last: Coord,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<MisereQuotient, QuotientError> {
    let mut quotient = MisereQuotient::new(game, limits)?;
    quotient.extend_to(last, progress)?;
    Ok(quotient)
}

#[cfg(test)]
mod tests;
