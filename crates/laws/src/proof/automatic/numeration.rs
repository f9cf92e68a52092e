//! Numbers as words: base 2 and the Fibonacci (Zeckendorf) numeration, msd-first, and the
//! automata of the relations the prover builds on (linear relations, `xor`, the Fibonacci shift).
//!
//! A word over tracks stands for a tuple of natural numbers; leading zeros change nothing. Every
//! automaton the prover keeps accepts a word exactly when the tuple it stands for is in the
//! relation, and only *valid* words (in Fibonacci numeration, no track has two 1s in a row): the
//! operations of [`Logic`] keep that so, which is what makes a complement or a projection mean
//! the logical negation or ∃.

use super::dfa::{Dfa, Halt, Var, Work};

/// A numeration system with digits 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numeration {
    /// Base 2: `xor`, `%`, `/` and linear arithmetic.
    Binary,
    /// The Fibonacci (Zeckendorf) numeration: `floor(t * phi)` and linear arithmetic.
    Fibonacci,
}

impl Numeration {
    /// The name arguments use: "base 2", "Fibonacci numeration".
    pub fn name(self) -> &'static str {
        match self {
            Numeration::Binary => "base 2",
            Numeration::Fibonacci => "Fibonacci numeration",
        }
    }

    /// Walnut's name for it.
    pub fn walnut(self) -> &'static str {
        match self {
            Numeration::Binary => "msd_2",
            Numeration::Fibonacci => "msd_fib",
        }
    }

    /// The place values from the least significant digit: 1, 2, 4, … or 1, 2, 3, 5, 8, …
    fn places(self, len: usize) -> Vec<u128> {
        let mut places: Vec<u128> = Vec::with_capacity(len);
        for i in 0..len {
            let next = match (self, i) {
                (_, 0) => 1,
                (Numeration::Binary, _) => places[i - 1] * 2,
                (Numeration::Fibonacci, 1) => 2,
                (Numeration::Fibonacci, _) => places[i - 1] + places[i - 2],
            };
            places.push(next);
        }
        places
    }

    /// The digits of `n`, msd-first, padded to `len`; `None` when `len` digits cannot write it.
    /// The greedy choice from the top is the Zeckendorf word when it is valid at all.
    pub fn digits(self, n: u128, len: usize) -> Option<Vec<u8>> {
        let places = self.places(len);
        let mut rest = n;
        let mut digits = vec![0u8; len];
        for i in (0..len).rev() {
            if places[i] <= rest {
                rest -= places[i];
                digits[len - 1 - i] = 1;
            }
        }
        (rest == 0 && self.valid(&digits)).then_some(digits)
    }

    /// The number that `digits` (msd-first) stand for.
    pub fn value(self, digits: &[u8]) -> u128 {
        let places = self.places(digits.len());
        digits.iter().rev().zip(&places).map(|(&d, &p)| u128::from(d) * p).sum()
    }

    /// Whether `digits` are a word of the numeration.
    pub fn valid(self, digits: &[u8]) -> bool {
        match self {
            Numeration::Binary => true,
            Numeration::Fibonacci => digits.windows(2).all(|w| w[0] & w[1] == 0),
        }
    }

    /// The shortest length that writes every number of `numbers`.
    pub fn length(self, numbers: &[u128]) -> usize {
        let largest = numbers.iter().copied().max().unwrap_or(0);
        (0..).find(|&len| self.digits(largest, len).is_some()).expect("a length")
    }

    /// The word that writes `numbers[i]` on the i-th track (bit i of each letter).
    pub fn word(self, numbers: &[u128]) -> Vec<u32> {
        let len = self.length(numbers);
        let mut word = vec![0u32; len];
        for (bit, digits) in
            numbers.iter().map(|&n| self.digits(n, len).expect("long enough")).enumerate()
        {
            for (letter, digit) in word.iter_mut().zip(digits) {
                *letter |= u32::from(digit) << bit;
            }
        }
        word
    }

    /// The numbers a word (over `tracks` tracks) stands for.
    pub fn numbers(self, word: &[u32], tracks: usize) -> Vec<u128> {
        (0..tracks)
            .map(|bit| {
                let digits: Vec<u8> = word.iter().map(|l| ((l >> bit) & 1) as u8).collect();
                self.value(&digits)
            })
            .collect()
    }
}

/// A linear relation `Σ c·x + c0 ⋈ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rel {
    /// `= 0`.
    Eq,
    /// `<= 0`.
    Le,
    /// `< 0`.
    Lt,
}

/// First-order logic over the natural numbers in one numeration: the automata of atoms, and the
/// connectives that keep every automaton to valid words.
pub(crate) struct Logic<'w, 'a> {
    /// The numeration.
    pub(crate) numeration: Numeration,
    /// Where the work is reported.
    pub(crate) work: &'w mut Work<'a>,
}

/// A linear form's state while its words are read: the value of what was read so far, as the
/// pair (P, Q) with value P·F(m+2) + Q·F(m+1) once m more digits follow (Fibonacci; in base 2,
/// Q = 0 and the value is P·2^m), or a verdict that no suffix can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Linear {
    Open(i128, i128),
    Settled(bool),
}

impl Logic<'_, '_> {
    /// The automaton of the valid words on `tracks`.
    pub(crate) fn valid(&mut self, tracks: &[Var]) -> Result<Dfa, Halt> {
        match self.numeration {
            Numeration::Binary => Ok(Dfa::constant(tracks, true)),
            // The state is the last letter: no track may have 1 twice in a row.
            Numeration::Fibonacci => Dfa::build(
                tracks,
                Some(0u32),
                |last, letter| last.filter(|last| last & letter == 0).map(|_| letter),
                Option::is_some,
                self.work,
            ),
        }
    }

    /// `a ∧ b`.
    pub(crate) fn and(&mut self, a: &Dfa, b: &Dfa) -> Result<Dfa, Halt> {
        a.product(b, |x, y| x && y, self.work)
    }

    /// `a ∨ b`: a word valid on one side's tracks may be invalid on the other's, so the union is
    /// cut to valid words.
    pub(crate) fn or(&mut self, a: &Dfa, b: &Dfa) -> Result<Dfa, Halt> {
        let union = a.product(b, |x, y| x || y, self.work)?;
        self.within_valid(&union)
    }

    /// `¬a`, among valid words.
    pub(crate) fn not(&mut self, a: &Dfa) -> Result<Dfa, Halt> {
        self.within_valid(&a.complement())
    }

    fn within_valid(&mut self, a: &Dfa) -> Result<Dfa, Halt> {
        match self.numeration {
            Numeration::Binary => Ok(a.clone()),
            Numeration::Fibonacci => {
                let valid = self.valid(a.tracks())?;
                self.and(a, &valid)
            }
        }
    }

    /// `∃ vars: a`.
    pub(crate) fn exists(&mut self, vars: &[Var], a: &Dfa) -> Result<Dfa, Halt> {
        vars.iter().try_fold(a.clone(), |a, &var| a.exists(var, self.work))
    }

    /// `Σ terms + constant ⋈ 0`, each term a variable and its coefficient.
    pub(crate) fn linear(
        &mut self,
        terms: &[(Var, i64)],
        constant: i64,
        rel: Rel,
    ) -> Result<Dfa, Halt> {
        let terms: Vec<(Var, i128)> =
            terms.iter().filter(|(_, c)| *c != 0).map(|&(v, c)| (v, i128::from(c))).collect();
        let tracks: Vec<Var> = terms.iter().map(|&(v, _)| v).collect();
        let c0 = i128::from(constant);
        let (low, high) = terms.iter().fold((0i128, 0i128), |(low, high), &(_, c)| {
            if c < 0 {
                (low + c, high)
            } else {
                (low, high + c)
            }
        });
        let numeration = self.numeration;
        let holds = move |value: i128| match rel {
            Rel::Eq => value == 0,
            Rel::Le => value <= 0,
            Rel::Lt => value < 0,
        };
        let step = move |state: &Linear, letter: u32| {
            let Linear::Open(p, q) = *state else { return *state };
            let digits: i128 = terms
                .iter()
                .enumerate()
                .map(|(i, &(_, c))| if letter >> i & 1 == 1 { c } else { 0 })
                .sum();
            let (p, q) = match numeration {
                Numeration::Binary => (2 * p + digits, 0),
                Numeration::Fibonacci => (p + q + digits, p),
            };
            settle(numeration, p, q, c0, low, high, rel).map_or(Linear::Open(p, q), Linear::Settled)
        };
        let accept = move |state: &Linear| match *state {
            Linear::Settled(verdict) => verdict,
            // With no digit to come the value is P + Q (Fibonacci: F(2) = F(1) = 1) or P.
            Linear::Open(p, q) => holds(p + q + c0),
        };
        let dfa = Dfa::build(&tracks, Linear::Open(0, 0), step, accept, self.work)?;
        self.within_valid(&dfa)
    }

    /// `x xor y = z`, digit by digit (base 2 only).
    pub(crate) fn xor(&mut self, x: Var, y: Var, z: Var) -> Result<Dfa, Halt> {
        debug_assert_eq!(self.numeration, Numeration::Binary);
        let step = |alive: &bool, letter: u32| {
            *alive && (letter & 1) ^ (letter >> 1 & 1) == letter >> 2 & 1
        };
        Dfa::build(&[x, y, z], true, step, |alive| *alive, self.work)
    }

    /// `s` is `m` shifted left by one digit (Fibonacci only): the word of `s` is the word of `m`
    /// followed by 0. The state is the digit the next letter must show on `m`'s track.
    pub(crate) fn shift(&mut self, m: Var, s: Var) -> Result<Dfa, Halt> {
        debug_assert_eq!(self.numeration, Numeration::Fibonacci);
        let step = |expected: &Option<u32>, letter: u32| {
            expected.filter(|&e| letter & 1 == e).map(|_| letter >> 1 & 1)
        };
        let dfa = Dfa::build(&[m, s], Some(0), step, |e| *e == Some(0), self.work)?;
        self.within_valid(&dfa)
    }
}

impl Logic<'_, '_> {
    /// The word of `x` has exactly one digit 1. The state counts the 1s seen, up to 2.
    pub(crate) fn one_digit(&mut self, x: Var) -> Result<Dfa, Halt> {
        let dfa = Dfa::build(
            &[x],
            0u8,
            |ones, letter| (ones + letter as u8).min(2),
            |ones| *ones == 1,
            self.work,
        )?;
        self.within_valid(&dfa)
    }
}

/// The verdict of `P·F(m+2) + Q·F(m+1) + c0 + (a suffix's Σ c·x) ⋈ 0` when it is the same for
/// every number m of digits still to come and every suffix, or `None`. A suffix of m digits
/// writes numbers from 0 to F(m+2) − 1 (2^m − 1 in base 2, where the pair is P·2^m), so its
/// Σ c·x lies between `low·(F(m+2) − 1)` and `high·(F(m+2) − 1)`.
///
/// The least final value is `G(m) + c0 − low` with `G(m) = (P + low)·F(m+2) + Q·F(m+1)`, and the
/// most is `H(m) + c0 − high` likewise. G and H follow the numeration's recurrence
/// (x(m+1) = x(m) + x(m−1), or 2·x(m)), so once two consecutive values pass a bound K ≥ 0 every
/// later one does: the verdict is checked for every m up to a horizon, and beyond it by that.
fn settle(
    numeration: Numeration,
    p: i128,
    q: i128,
    c0: i128,
    low: i128,
    high: i128,
    rel: Rel,
) -> Option<bool> {
    let places = |m: usize| -> Option<(i128, i128)> {
        match numeration {
            Numeration::Binary => Some((1i128.checked_shl(u32::try_from(m).ok()?)?, 0)),
            Numeration::Fibonacci => Some((fibonacci(m + 2)?, fibonacci(m + 1)?)),
        }
    };
    // G(m) and H(m).
    let grown = |m: usize| -> Option<(i128, i128)> {
        let (f2, f1) = places(m)?;
        let g = (p + low).checked_mul(f2)?.checked_add(q.checked_mul(f1)?)?;
        let h = (p + high).checked_mul(f2)?.checked_add(q.checked_mul(f1)?)?;
        Some((g, h))
    };
    let verdict = |m: usize| -> Option<Option<bool>> {
        let (g, h) = grown(m)?;
        let (least, most) = (g.checked_add(c0 - low)?, h.checked_add(c0 - high)?);
        Some(match rel {
            Rel::Eq if least > 0 || most < 0 => Some(false),
            Rel::Le if most <= 0 => Some(true),
            Rel::Le if least > 0 => Some(false),
            Rel::Lt if most < 0 => Some(true),
            Rel::Lt if least >= 0 => Some(false),
            _ => None,
        })
    };
    const HORIZON: usize = 60;
    let first = verdict(0)??;
    for m in 1..=HORIZON + 1 {
        if verdict(m)? != Some(first) {
            return None;
        }
    }
    let (g0, h0) = grown(HORIZON)?;
    let (g1, h1) = grown(HORIZON + 1)?;
    let (kg, kh) = ((c0 - low).abs(), (c0 - high).abs());
    let grows = g0 > kg && g1 > kg;
    let sinks = h0 < -kh && h1 < -kh;
    let lasts = match (rel, first) {
        (Rel::Eq, _) => grows || sinks,
        (Rel::Le | Rel::Lt, true) => sinks,
        (Rel::Le | Rel::Lt, false) => grows,
    };
    lasts.then_some(first)
}

/// F(n) with F(1) = F(2) = 1, when it fits.
fn fibonacci(n: usize) -> Option<i128> {
    let (mut a, mut b) = (0i128, 1i128);
    for _ in 0..n {
        (a, b) = (b, a.checked_add(b)?);
    }
    Some(a)
}
