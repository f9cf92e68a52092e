//! A sequence as far as it is known, and the one rule that says how far two of them agree.

use grundy_core::Coord;
use serde::{Deserialize, Serialize};

/// Values x(n) for n ≥ `start`: the first ones, and when a theorem proved the period, the law
/// that gives every later one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// The coordinate of the first value.
    pub start: Coord,
    /// The values from `start` on. With a law, at least the preperiod and one period.
    pub values: Vec<u32>,
    /// The period a theorem proved, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub law: Option<Law>,
}

/// A period proved for every n: x(n + period) = x(n) + saltus for every n ≥ start + preperiod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Law {
    /// Values before the periodic part.
    pub preperiod: usize,
    /// The period.
    pub period: usize,
    /// x(n + period) − x(n) in the periodic part (0 or more: values are never negative).
    pub saltus: u32,
    /// The theorem that proved it, by name.
    pub theorem: String,
}

/// How far two sequences agree: at every n from `from` on (proved by both laws), or from `from`
/// to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Agreement {
    /// The first n compared.
    pub from: Coord,
    /// The last n compared; `None` when the laws prove agreement for every n ≥ `from`.
    pub to: Option<Coord>,
}

impl Agreement {
    /// Whether the agreement holds for every n (both laws proved it).
    pub fn is_proved(&self) -> bool {
        self.to.is_none()
    }

    /// How many values were compared (`None`: every one, by proof).
    pub fn compared(&self) -> Option<u64> {
        self.to.map(|to| (to - self.from + 1) as u64)
    }
}

/// What is compared: the values themselves, or only where they are 0 (the P-positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Equal values.
    Values,
    /// Equal outcomes: x(n) = 0 exactly where y(n) = 0.
    Outcomes,
}

/// The most values compared to decide whether two proved laws agree everywhere: past it the
/// agreement is reported as evidence, up to where it was checked.
pub const MOST_COMPARED: u64 = 1 << 27;

impl Sequence {
    /// A sequence of `values` from `start`, with no law.
    pub fn of(start: Coord, values: Vec<u32>) -> Sequence {
        Sequence { start, values, law: None }
    }

    /// Whether the law is consistent with the values stored: they hold its preperiod and a
    /// period, and the period is not 0.
    pub fn is_consistent(&self) -> bool {
        self.law.as_ref().is_none_or(|law| {
            law.period > 0
                && law.preperiod.checked_add(law.period).is_some_and(|n| n <= self.values.len())
        })
    }

    /// The last coordinate known: `None` when a law gives every value.
    pub fn last(&self) -> Option<Coord> {
        match self.law {
            Some(_) => None,
            None => Some(self.start + self.values.len() as Coord - 1),
        }
    }

    /// x(n), when it is known.
    pub fn get(&self, n: Coord) -> Option<u32> {
        let i = usize::try_from(n.checked_sub(self.start)?).ok()?;
        if let Some(&value) = self.values.get(i) {
            return Some(value);
        }
        let law = self.law.as_ref()?;
        let (e, p) = (law.preperiod, law.period);
        let (turns, at) = ((i - e) / p, e + (i - e) % p);
        let rise = u64::from(law.saltus).checked_mul(turns as u64)?;
        u32::try_from(u64::from(self.values[at]) + rise).ok()
    }

    /// Its values from `n` (at least `start`) on, as far as they are known: the stored ones,
    /// then the law's period over and over (each turn raised by the saltus).
    fn values_from(&self, n: Coord) -> impl Iterator<Item = u32> + '_ {
        let i = usize::try_from(n - self.start).unwrap_or(0);
        let stored = self.values.get(i..).unwrap_or(&[]).iter().copied();
        let cycled = self.law.as_ref().map(|law| {
            let (e, p) = (law.preperiod, law.period);
            let first = i.max(self.values.len());
            let (turns, at) = ((first - e) / p, (first - e) % p);
            let period = &self.values[e..e + p];
            let rise = u64::from(law.saltus);
            (0u64..).flat_map(move |turn| {
                let skip = if turn == 0 { at } else { 0 };
                let raised = rise * (turns as u64 + turn);
                period[skip..]
                    .iter()
                    .map(move |&v| u32::try_from(u64::from(v) + raised).unwrap_or(u32::MAX))
            })
        });
        stored.chain(cycled.into_iter().flatten())
    }

    /// Where its periodic part starts and its period, for what `compare` looks at: the values'
    /// law, or for outcomes the law of "x(n) = 0", which with a saltus is "never" one period
    /// after the preperiod (the values only grow from there).
    fn periodic(&self, compare: Compare) -> Option<(Coord, u64)> {
        let law = self.law.as_ref()?;
        let from = self.start + law.preperiod as Coord;
        match (compare, law.saltus) {
            (Compare::Outcomes, s) if s > 0 => Some((from + law.period as Coord, 1)),
            _ => Some((from, law.period as u64)),
        }
    }

    /// How far `self` agrees with `other` shifted by `shift`: self(n) = other(n + shift) on
    /// every n where both are known, from the first such n. `None` when they differ somewhere
    /// known, or when they have fewer than `least` values in common.
    ///
    /// When both have laws the answer is exact: past both periodic parts' starts both repeat,
    /// so agreeing there for one common period (the lcm, with the same growth per value) means
    /// agreeing forever. This is the survey's rule for proved equivalences, shifted.
    pub fn agreement(
        &self,
        other: &Sequence,
        shift: i64,
        compare: Compare,
        least: u64,
    ) -> Option<Agreement> {
        let from = self.start.max(other.start.checked_sub(shift)?);
        let other_last = other.last().map(|last| last - shift);
        let proved_until = match (self.periodic(compare), other.periodic(compare)) {
            (Some((from_a, pa)), Some((from_b, pb)))
                if compare == Compare::Outcomes || same_growth(self, other) =>
            {
                let lcm = pa / gcd(pa, pb) * pb;
                let end = from_a.max(from_b - shift).max(from).checked_add(lcm as Coord)?;
                Some(end)
            }
            _ => None,
        };
        let last = match (proved_until, self.last(), other_last) {
            (Some(end), _, _) if (end - from) as u64 <= MOST_COMPARED => end - 1,
            (_, Some(a), Some(b)) => a.min(b),
            (_, Some(a), None) | (_, None, Some(a)) => a,
            (_, None, None) => from + MOST_COMPARED as Coord - 1,
        };
        // Proved agreement holds for every n, however few the values compared.
        let proved = proved_until.is_some_and(|end| end - 1 == last);
        if last < from || (!proved && ((last - from + 1) as u64) < least) {
            return None;
        }
        // Both read in step, a law's period cycled without a division per value.
        let count = (last - from + 1) as usize;
        let (a, b) = (self.values_from(from), other.values_from(from + shift));
        // `last` is known on both sides, so neither runs out before `count`.
        let mut pairs = a.zip(b).take(count);
        let equal = match compare {
            Compare::Values => pairs.all(|(x, y)| x == y),
            Compare::Outcomes => pairs.all(|(x, y)| (x == 0) == (y == 0)),
        };
        if !equal {
            return None;
        }
        Some(Agreement { from, to: (!proved).then_some(last) })
    }
}

/// Arithmetic periods repeat together only when both grow by the same amount per value.
fn same_growth(a: &Sequence, b: &Sequence) -> bool {
    match (&a.law, &b.law) {
        (Some(la), Some(lb)) => {
            u64::from(la.saltus) * lb.period as u64 == u64::from(lb.saltus) * la.period as u64
        }
        _ => false,
    }
}

pub(crate) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proved(start: Coord, values: Vec<u32>, preperiod: usize, period: usize) -> Sequence {
        let law = Law { preperiod, period, saltus: 0, theorem: "test".into() };
        Sequence { start, values, law: Some(law) }
    }

    #[test]
    fn laws_give_every_value_and_saltus_adds_up() {
        let s = proved(0, vec![5, 0, 1, 2], 1, 3);
        let got: Vec<u32> = (0..8).map(|n| s.get(n).unwrap()).collect();
        assert_eq!(got, [5, 0, 1, 2, 0, 1, 2, 0]);
        let rising = Sequence {
            start: 1,
            values: vec![0, 1],
            law: Some(Law { preperiod: 0, period: 2, saltus: 2, theorem: String::new() }),
        };
        assert_eq!((1..=6).map(|n| rising.get(n).unwrap()).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
        assert_eq!(rising.get(0), None);
        assert_eq!(Sequence::of(0, vec![1, 2]).get(2), None);
    }

    #[test]
    fn two_laws_decide_agreement_for_every_n_shifts_included() {
        // 0 1 2 0 1 2 … and the same written with a longer period and a preperiod.
        let a = proved(0, vec![0, 1, 2], 0, 3);
        let b = proved(0, vec![0, 1, 2, 0, 1, 2, 0, 1, 2], 3, 6);
        let agree = a.agreement(&b, 0, Compare::Values, 1).unwrap();
        assert!(agree.is_proved());
        // b shifted by one is 1 2 0 …: different values, the same P-positions nowhere.
        assert!(a.agreement(&b, 1, Compare::Values, 1).is_none());
        assert!(a.agreement(&b, 3, Compare::Values, 1).unwrap().is_proved());
        // Equal on a long stretch, different far out: two laws see it.
        let mut far = [0, 1, 2].repeat(100);
        far.push(7);
        let c = proved(0, far, 300, 1);
        assert!(a.agreement(&c, 0, Compare::Values, 1).is_none());
        // Without a law only what is known is compared, and it is evidence.
        let d = Sequence::of(0, vec![0, 1, 2, 0, 1]);
        assert_eq!(
            a.agreement(&d, 0, Compare::Values, 1),
            Some(Agreement { from: 0, to: Some(4) })
        );
        assert_eq!(a.agreement(&d, 0, Compare::Values, 6), None);
    }

    #[test]
    fn outcomes_compare_only_zeros() {
        let a = Sequence::of(0, vec![0, 1, 2, 0, 3]);
        let b = Sequence::of(0, vec![0, 5, 1, 0, 1]);
        assert!(a.agreement(&b, 0, Compare::Values, 1).is_none());
        assert_eq!(a.agreement(&b, 0, Compare::Outcomes, 1).unwrap().to, Some(4));
        // Growing laws have no P-position one period past the preperiod.
        let grow = |start| Sequence {
            start,
            values: vec![0, 1],
            law: Some(Law { preperiod: 0, period: 2, saltus: 2, theorem: String::new() }),
        };
        let once = proved(0, vec![0, 1, 1], 1, 2);
        assert!(grow(0).agreement(&once, 0, Compare::Outcomes, 1).unwrap().is_proved());
        assert!(grow(0).agreement(&grow(0), 0, Compare::Values, 1).unwrap().is_proved());
        // Two short laws prove agreement on a few values, more than `least` asks for.
        let short = proved(0, vec![0, 1], 0, 2);
        assert!(short.agreement(&short.clone(), 0, Compare::Values, 100).unwrap().is_proved());
    }
}
