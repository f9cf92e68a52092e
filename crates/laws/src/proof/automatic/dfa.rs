//! Deterministic automata over tuples of binary digits, read most significant digit first: the
//! one data structure of the automatic prover.
//!
//! An automaton reads words whose letters hold one digit per *track*; each track is a variable
//! ([`Var`]) and the tracks are kept sorted, so that a letter is a bit mask (bit `i` is the digit
//! of `tracks[i]`). The transition table is dense (`states × 2^tracks`): the prover's automata
//! have a handful of tracks and up to some hundred thousand states, where a dense table is both
//! the smallest and the fastest form. State 0 is the start.
//!
//! The operations are the classical ones: product ([`Dfa::product`]), complement
//! ([`Dfa::complement`]), projection of a track with the subset construction ([`Dfa::exists`]),
//! minimisation ([`Dfa::minimize`], Moore's refinement to a canonical numbering) and emptiness
//! with a shortest witness ([`Dfa::witness`]). They know nothing of numbers: what a word means,
//! and which words are valid, is [`super::numeration`]'s.
//!
//! Why not a crate: the automata crates we looked at (`automata_core`, `l1-dfa`) hash their
//! states, take one symbol type for every automaton and have no projection of a track; the
//! prover needs tuples of tracks that merge and vanish, and dense tables.

use std::collections::HashMap;

/// A variable of the prover: one track of an automaton.
pub(crate) type Var = u32;

/// Why an automaton was not finished: it grew past the limit, or the proof's budget ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// An automaton passed this many states (the limit).
    Grew(usize),
    /// The budget's reason.
    Spent(String),
}

impl std::fmt::Display for Halt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Halt::Grew(states) => write!(f, "an automaton passed {states} states"),
            Halt::Spent(why) => f.write_str(why),
        }
    }
}

/// What every construction reports to: the largest automaton built, the limit on states, and
/// the budget's verdict, asked every few thousand states.
pub(crate) struct Work<'a> {
    /// The most states an automaton may have.
    pub(crate) max_states: usize,
    /// The largest automaton built so far (states).
    pub(crate) largest: usize,
    made: u64,
    spent: &'a dyn Fn() -> Option<String>,
}

impl<'a> Work<'a> {
    /// Work that stops at `max_states` states or when `spent` says so.
    pub(crate) fn new(max_states: usize, spent: &'a dyn Fn() -> Option<String>) -> Work<'a> {
        Work { max_states, largest: 0, made: 0, spent }
    }

    /// One more state of an automaton that has `states`: whether construction may go on.
    fn made(&mut self, states: usize) -> Result<(), Halt> {
        if states > self.max_states {
            return Err(Halt::Grew(self.max_states));
        }
        self.largest = self.largest.max(states);
        self.made += 1;
        if self.made.is_multiple_of(4096) {
            if let Some(why) = (self.spent)() {
                return Err(Halt::Spent(why));
            }
        }
        Ok(())
    }
}

/// A complete deterministic automaton over tuples of binary digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dfa {
    tracks: Vec<Var>,
    delta: Vec<u32>,
    accept: Vec<bool>,
}

impl Dfa {
    /// The automaton on `tracks` that accepts every word (`value`) or none.
    pub(crate) fn constant(tracks: &[Var], value: bool) -> Dfa {
        let tracks = sorted(tracks);
        let letters = 1usize << tracks.len();
        Dfa { tracks, delta: vec![0; letters], accept: vec![value] }
    }

    /// The automaton on `tracks` whose states are the values of `S` reachable from `start` by
    /// `step` (given a letter as a bit mask over `tracks` in the order given), accepting where
    /// `accept` says.
    pub(crate) fn build<S: Clone + Eq + std::hash::Hash>(
        tracks: &[Var],
        start: S,
        step: impl Fn(&S, u32) -> S,
        accept: impl Fn(&S) -> bool,
        work: &mut Work<'_>,
    ) -> Result<Dfa, Halt> {
        // The caller's letters are in its order of tracks; ours in sorted order.
        let order = sorted(tracks);
        let to_caller: Vec<u32> = (0..1u32 << order.len())
            .map(|letter| {
                tracks.iter().enumerate().fold(0, |mask, (i, var)| {
                    let bit = order.iter().position(|v| v == var).expect("a track");
                    mask | (((letter >> bit) & 1) << i)
                })
            })
            .collect();
        let mut found = Found::from(start);
        let mut delta = Vec::new();
        let mut at = 0;
        while at < found.states.len() {
            for &letter in &to_caller {
                let next = step(&found.states[at], letter);
                delta.push(found.id(next, work)?);
            }
            at += 1;
        }
        let states = found.states;
        let accept = states.iter().map(accept).collect();
        Ok(Dfa { tracks: order, delta, accept }.minimize())
    }

    /// The tracks, sorted.
    pub(crate) fn tracks(&self) -> &[Var] {
        &self.tracks
    }

    /// The number of states.
    pub(crate) fn states(&self) -> usize {
        self.accept.len()
    }

    fn letters(&self) -> usize {
        1 << self.tracks.len()
    }

    fn next(&self, state: u32, letter: u32) -> u32 {
        self.delta[state as usize * self.letters() + letter as usize]
    }

    /// Whether the automaton accepts `word`, whose letters are masks over [`Dfa::tracks`].
    pub(crate) fn accepts(&self, word: &[u32]) -> bool {
        self.accept[word.iter().fold(0, |state, &letter| self.next(state, letter)) as usize]
    }

    /// The automaton accepting exactly the words this one rejects.
    pub(crate) fn complement(&self) -> Dfa {
        let mut out = self.clone();
        out.accept.iter_mut().for_each(|a| *a = !*a);
        out
    }

    /// The product with `other` over the union of their tracks, accepting where `join` of the
    /// two says.
    pub(crate) fn product(
        &self,
        other: &Dfa,
        join: impl Fn(bool, bool) -> bool,
        work: &mut Work<'_>,
    ) -> Result<Dfa, Halt> {
        let union = sorted(&[self.tracks.clone(), other.tracks.clone()].concat());
        let (mine, theirs) =
            (restriction(&union, &self.tracks), restriction(&union, &other.tracks));
        let letters = 1usize << union.len();
        let mut found = Found::from((0u32, 0u32));
        let mut delta = Vec::new();
        let mut at = 0;
        while at < found.states.len() {
            let (a, b) = found.states[at];
            for letter in 0..letters {
                let next = (self.next(a, mine[letter]), other.next(b, theirs[letter]));
                delta.push(found.id(next, work)?);
            }
            at += 1;
        }
        let pairs = found.states;
        let accept = pairs
            .iter()
            .map(|&(a, b)| join(self.accept[a as usize], other.accept[b as usize]))
            .collect();
        Ok(Dfa { tracks: union, delta, accept }.minimize())
    }

    /// The automaton that accepts a word over the other tracks when some digits on `var`'s
    /// track, with enough leading zeros on every track, make a word this one accepts: the
    /// projection ∃var. Leading zeros matter msd-first: the witness may be longer than the other
    /// numbers, so the start is every state that zeros on the other tracks reach.
    pub(crate) fn exists(&self, var: Var, work: &mut Work<'_>) -> Result<Dfa, Halt> {
        let Some(bit) = self.tracks.iter().position(|&v| v == var) else {
            return Ok(self.clone());
        };
        let tracks: Vec<Var> = self.tracks.iter().copied().filter(|&v| v != var).collect();
        let widen = |letter: u32, digit: u32| {
            let low = letter & ((1 << bit) - 1);
            (letter >> bit << (bit + 1)) | (digit << bit) | low
        };
        let mut seen = vec![false; self.states()];
        let mut start = vec![0u32];
        seen[0] = true;
        let mut at = 0;
        while at < start.len() {
            for digit in 0..2 {
                let next = self.next(start[at], widen(0, digit));
                if !seen[next as usize] {
                    seen[next as usize] = true;
                    start.push(next);
                }
            }
            at += 1;
        }
        start.sort_unstable();
        let letters = 1usize << tracks.len();
        let mut found = Found::from(start);
        let mut delta = Vec::new();
        let mut mark = vec![u32::MAX; self.states()];
        let mut stamp = 0u32;
        let mut at = 0;
        while at < found.states.len() {
            for letter in 0..letters as u32 {
                stamp += 1;
                let mut next = Vec::new();
                for &state in &found.states[at] {
                    for digit in 0..2 {
                        let to = self.next(state, widen(letter, digit));
                        if mark[to as usize] != stamp {
                            mark[to as usize] = stamp;
                            next.push(to);
                        }
                    }
                }
                next.sort_unstable();
                delta.push(found.id(next, work)?);
            }
            at += 1;
        }
        let sets = found.states;
        let accept = sets.iter().map(|set| set.iter().any(|&s| self.accept[s as usize])).collect();
        Ok(Dfa { tracks, delta, accept }.minimize())
    }

    /// The same automaton with each track `v` renamed `rename(v)` (the new names distinct).
    pub(crate) fn renamed(&self, rename: impl Fn(Var) -> Var) -> Dfa {
        let new: Vec<Var> = self.tracks.iter().map(|&v| rename(v)).collect();
        let order = sorted(&new);
        assert_eq!(order.len(), new.len(), "a renaming keeps the tracks distinct");
        // Bit i of an old letter moves to the place of new[i] in the sorted order.
        let places: Vec<usize> =
            new.iter().map(|v| order.iter().position(|o| o == v).expect("a track")).collect();
        let letters = self.letters();
        let mut delta = vec![0; self.delta.len()];
        for state in 0..self.states() {
            for old in 0..letters {
                let letter = places
                    .iter()
                    .enumerate()
                    .fold(0, |mask, (i, &place)| mask | (((old >> i) & 1) << place));
                delta[state * letters + letter] = self.delta[state * letters + old];
            }
        }
        Dfa { tracks: order, delta, accept: self.accept.clone() }
    }

    /// The minimal automaton of the same language, its states numbered in breadth-first order
    /// from the start, so that two automata of one language are equal.
    pub(crate) fn minimize(&self) -> Dfa {
        let letters = self.letters();
        let n = self.states();
        let mut class: Vec<u32> = self.accept.iter().map(|&a| u32::from(a)).collect();
        let mut classes = class.iter().collect::<std::collections::HashSet<_>>().len();
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::with_capacity(classes);
            let mut next = vec![0u32; n];
            let mut signature = Vec::with_capacity(letters + 1);
            for state in 0..n {
                signature.clear();
                signature.push(class[state]);
                signature.extend(
                    self.delta[state * letters..(state + 1) * letters]
                        .iter()
                        .map(|&to| class[to as usize]),
                );
                let fresh = ids.len() as u32;
                next[state] = *ids.entry(signature.clone()).or_insert(fresh);
            }
            let refined = ids.len();
            class = next;
            if refined == classes {
                break;
            }
            classes = refined;
        }
        // Renumber the classes breadth-first from the start's.
        let mut number = vec![u32::MAX; classes];
        let mut order = vec![0usize];
        number[class[0] as usize] = 0;
        let mut representative = vec![0usize];
        let mut at = 0;
        while at < order.len() {
            let state = order[at];
            for letter in 0..letters {
                let to = self.delta[state * letters + letter] as usize;
                if number[class[to] as usize] == u32::MAX {
                    number[class[to] as usize] = representative.len() as u32;
                    representative.push(to);
                    order.push(to);
                }
            }
            at += 1;
        }
        let mut delta = Vec::with_capacity(representative.len() * letters);
        for &state in &representative {
            for letter in 0..letters {
                delta.push(number[class[self.delta[state * letters + letter] as usize] as usize]);
            }
        }
        let accept = representative.iter().map(|&s| self.accept[s]).collect();
        Dfa { tracks: self.tracks.clone(), delta, accept }
    }

    /// A shortest accepted word, or `None` when the automaton accepts nothing.
    pub(crate) fn witness(&self) -> Option<Vec<u32>> {
        let mut parent: Vec<Option<(u32, u32)>> = vec![None; self.states()];
        let mut seen = vec![false; self.states()];
        let mut queue = std::collections::VecDeque::from([0u32]);
        seen[0] = true;
        while let Some(state) = queue.pop_front() {
            if self.accept[state as usize] {
                let mut word = Vec::new();
                let mut at = state;
                while let Some((from, letter)) = parent[at as usize] {
                    word.push(letter);
                    at = from;
                }
                word.reverse();
                return Some(word);
            }
            for letter in 0..self.letters() as u32 {
                let to = self.next(state, letter);
                if !seen[to as usize] {
                    seen[to as usize] = true;
                    parent[to as usize] = Some((state, letter));
                    queue.push_back(to);
                }
            }
        }
        None
    }

    /// Whether the automaton accepts no word.
    pub(crate) fn is_empty(&self) -> bool {
        self.witness().is_none()
    }
}

/// States numbered in the order they are found, breadth first: what every construction here
/// builds, each new state counted against the [`Work`]'s limit.
struct Found<S> {
    ids: HashMap<S, u32>,
    states: Vec<S>,
}

impl<S: Clone + Eq + std::hash::Hash> Found<S> {
    fn from(start: S) -> Found<S> {
        Found { ids: HashMap::from([(start.clone(), 0)]), states: vec![start] }
    }

    /// The number of `state`, found now if it is new.
    fn id(&mut self, state: S, work: &mut Work<'_>) -> Result<u32, Halt> {
        if let Some(&id) = self.ids.get(&state) {
            return Ok(id);
        }
        let id = self.states.len() as u32;
        work.made(self.states.len() + 1)?;
        self.ids.insert(state.clone(), id);
        self.states.push(state);
        Ok(id)
    }
}

fn sorted(tracks: &[Var]) -> Vec<Var> {
    let mut out = tracks.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// For each letter over `union`, the letter it restricts to over `part` (a subset of `union`).
fn restriction(union: &[Var], part: &[Var]) -> Vec<u32> {
    let bits: Vec<usize> =
        part.iter().map(|v| union.iter().position(|u| u == v).expect("a subset")).collect();
    (0..1u32 << union.len())
        .map(|letter| {
            bits.iter().enumerate().fold(0, |mask, (i, &bit)| mask | (((letter >> bit) & 1) << i))
        })
        .collect()
}
