//! Step sets: the amounts a jump may move by.

use std::fmt;

/// A named infinite set of amounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamedSet {
    /// 2, 3, 5, 7, 11, …
    Primes,
    /// 1, 4, 9, 16, …
    Squares,
    /// 1, 2, 3, 5, 8, … (each Fibonacci number once)
    Fibonacci,
    /// 1, 2, 4, 8, …
    PowersOfTwo,
    /// 1, 3, 6, 10, …
    Triangular,
}

impl NamedSet {
    /// Every named set, in the order error messages list them.
    pub const ALL: [NamedSet; 5] = [
        NamedSet::Primes,
        NamedSet::Squares,
        NamedSet::Fibonacci,
        NamedSet::PowersOfTwo,
        NamedSet::Triangular,
    ];

    /// The name used in spec files.
    pub fn name(self) -> &'static str {
        match self {
            NamedSet::Primes => "primes",
            NamedSet::Squares => "squares",
            NamedSet::Fibonacci => "fibonacci",
            NamedSet::PowersOfTwo => "powers-of-two",
            NamedSet::Triangular => "triangular",
        }
    }

    /// The set called `name`, if any.
    pub fn from_name(name: &str) -> Option<NamedSet> {
        NamedSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// Membership decided straight from the definition (trial division, integer roots, …).
    fn contains(self, n: u64) -> bool {
        let is_square = |m: u64| {
            let r = m.isqrt();
            r * r == m
        };
        match self {
            NamedSet::Primes => {
                n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d))
            }
            NamedSet::Squares => n >= 1 && is_square(n),
            // n is a Fibonacci number iff 5n² + 4 or 5n² − 4 is a square.
            NamedSet::Fibonacci => n >= 1 && (is_square(5 * n * n + 4) || is_square(5 * n * n - 4)),
            NamedSet::PowersOfTwo => n.is_power_of_two(),
            // n is triangular iff 8n + 1 is a square.
            NamedSet::Triangular => n >= 1 && is_square(8 * n + 1),
        }
    }

    /// The members up to `limit`, in increasing order, generated the fast way.
    fn up_to(self, limit: u64) -> Vec<u64> {
        let generated = |mut next: Box<dyn FnMut() -> u64>| -> Vec<u64> {
            std::iter::from_fn(|| Some(next())).take_while(|&n| n <= limit).collect()
        };
        match self {
            NamedSet::Primes => primes_up_to(limit),
            NamedSet::Squares => {
                let mut k = 0u64;
                generated(Box::new(move || {
                    k += 1;
                    k * k
                }))
            }
            NamedSet::Fibonacci => {
                let (mut a, mut b) = (1u64, 2u64);
                generated(Box::new(move || {
                    let n = a;
                    (a, b) = (b, a.saturating_add(b));
                    n
                }))
            }
            NamedSet::PowersOfTwo => {
                let mut p = 0u64;
                generated(Box::new(move || {
                    p = if p == 0 { 1 } else { p.saturating_mul(2) };
                    p
                }))
            }
            NamedSet::Triangular => {
                let mut k = 0u64;
                generated(Box::new(move || {
                    k += 1;
                    k * (k + 1) / 2
                }))
            }
        }
    }
}

/// Why a step set was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StepSetError {
    /// A list holds the amount 0.
    #[error("a step set may not contain 0 (a move must move)")]
    ZeroAmount,
    /// A range starts at 0.
    #[error("a step range must start at 1 or more (a move must move)")]
    ZeroStart,
    /// Nothing is left (after the exceptions).
    #[error("the step set is empty")]
    Empty,
}

/// Where the amounts of a step set come from, before exclusions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepBase {
    /// An explicit list, sorted and without repeats.
    List(Vec<u64>),
    /// Every amount from `.0` to `.1`, inclusive.
    Range(u64, u64),
    /// Every amount from `.0` on (an unbounded range, `"2.."`).
    From(u64),
    /// A named infinite set.
    Named(NamedSet),
}

/// The amounts (each ≥ 1) by which a jump may move along its direction: a base set, optionally
/// minus a list of exceptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepSet {
    base: StepBase,
    all_but: Vec<u64>,
}

impl StepSet {
    /// An explicit set; sorts and removes repeats. Refuses an empty list and the amount 0.
    pub fn list(mut amounts: Vec<u64>) -> Result<StepSet, StepSetError> {
        if amounts.contains(&0) {
            return Err(StepSetError::ZeroAmount);
        }
        amounts.sort_unstable();
        amounts.dedup();
        StepSet::new(StepBase::List(amounts), Vec::new())
    }

    /// Every amount from `low` to `high`, inclusive.
    pub fn range(low: u64, high: u64) -> Result<StepSet, StepSetError> {
        if low == 0 {
            return Err(StepSetError::ZeroStart);
        }
        StepSet::new(StepBase::Range(low, high), Vec::new())
    }

    /// Every amount from `low` on.
    pub fn from(low: u64) -> Result<StepSet, StepSetError> {
        if low == 0 {
            return Err(StepSetError::ZeroStart);
        }
        StepSet::new(StepBase::From(low), Vec::new())
    }

    /// A named infinite set.
    pub fn named(set: NamedSet) -> StepSet {
        StepSet { base: StepBase::Named(set), all_but: Vec::new() }
    }

    /// The primes.
    pub fn primes() -> StepSet {
        StepSet::named(NamedSet::Primes)
    }

    /// This set without the amounts in `exceptions`. Refuses a result that is empty.
    pub fn all_but(self, mut exceptions: Vec<u64>) -> Result<StepSet, StepSetError> {
        exceptions.sort_unstable();
        exceptions.dedup();
        StepSet::new(self.base, exceptions)
    }

    fn new(base: StepBase, all_but: Vec<u64>) -> Result<StepSet, StepSetError> {
        let set = StepSet { base, all_but };
        let empty = match &set.base {
            // `all_but` is sorted: a binary search each, not a scan (10^6 exceptions of 10^6
            // amounts took minutes).
            StepBase::List(amounts) => amounts.iter().all(|a| set.all_but.binary_search(a).is_ok()),
            StepBase::Range(low, high) => {
                (*low..=*high).all(|a| set.all_but.binary_search(&a).is_ok())
            }
            StepBase::From(_) | StepBase::Named(_) => false,
        };
        if empty {
            return Err(StepSetError::Empty);
        }
        Ok(set)
    }

    /// The base set, before exceptions.
    pub fn base(&self) -> &StepBase {
        &self.base
    }

    /// The amounts taken out of the base set.
    pub fn exceptions(&self) -> &[u64] {
        &self.all_but
    }

    /// Whether `amount` belongs to the set, decided the plain way (trial division for primes).
    ///
    /// The reference fill uses this; the engine uses [`StepSet::up_to`].
    pub fn contains(&self, amount: u64) -> bool {
        let in_base = match &self.base {
            StepBase::List(amounts) => amounts.binary_search(&amount).is_ok(),
            StepBase::Range(low, high) => (*low..=*high).contains(&amount),
            StepBase::From(low) => amount >= *low,
            StepBase::Named(set) => set.contains(amount),
        };
        in_base && self.all_but.binary_search(&amount).is_err()
    }

    /// The members that are at most `limit`, in increasing order.
    pub fn up_to(&self, limit: u64) -> Vec<u64> {
        let base = match &self.base {
            StepBase::List(amounts) => {
                amounts.iter().copied().take_while(|&a| a <= limit).collect()
            }
            StepBase::Range(low, high) => (*low..=(*high).min(limit)).collect(),
            StepBase::From(low) => (*low..=limit).collect(),
            StepBase::Named(set) => set.up_to(limit),
        };
        base.into_iter().filter(|a| self.all_but.binary_search(a).is_err()).collect()
    }

    /// The largest member, or `None` for an unbounded set. Walks down from the base's largest
    /// amount past the exceptions only: `"1..=200000000"` is not listed (it once took 1.5 GB).
    pub fn max(&self) -> Option<u64> {
        let excluded = |a: &u64| self.all_but.binary_search(a).is_ok();
        match &self.base {
            StepBase::List(amounts) => amounts.iter().rev().find(|a| !excluded(a)).copied(),
            StepBase::Range(low, high) => (*low..=*high).rev().find(|a| !excluded(a)),
            StepBase::From(_) | StepBase::Named(_) => None,
        }
    }
}

impl fmt::Display for StepSet {
    /// The spec-file form: `[2, 5]`, `"1..=4"` or `"primes"` (exceptions are a separate field).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.base {
            StepBase::List(amounts) => {
                let text: Vec<String> = amounts.iter().map(u64::to_string).collect();
                write!(f, "[{}]", text.join(", "))
            }
            StepBase::Range(low, high) => write!(f, "\"{low}..={high}\""),
            StepBase::From(low) => write!(f, "\"{low}..\""),
            StepBase::Named(set) => write!(f, "\"{}\"", set.name()),
        }
    }
}

/// The primes up to `limit`, by the sieve of Eratosthenes.
fn primes_up_to(limit: u64) -> Vec<u64> {
    let limit = limit.min(usize::MAX as u64 / 2) as usize;
    if limit < 2 {
        return Vec::new();
    }
    let mut composite = vec![false; limit + 1];
    let mut primes = Vec::new();
    for n in 2..=limit {
        if !composite[n] {
            primes.push(n as u64);
            let mut multiple = n.saturating_mul(n);
            while multiple <= limit {
                composite[multiple] = true;
                multiple += n;
            }
        }
    }
    primes
}

#[cfg(test)]
mod tests {

    /// Issue 13: `max` listed the whole range (`"1..=200000000"`: 1.5 GB and 21 s in
    /// `grundy patterns`); it walks down past the exceptions only.
    #[test]
    fn the_largest_step_of_a_huge_range_is_immediate() {
        assert_eq!(StepSet::range(1, u64::MAX).unwrap().max(), Some(u64::MAX));
        let holes = StepSet::range(1, 200_000_000).unwrap().all_but(vec![200_000_000, 199_999_999]);
        assert_eq!(holes.unwrap().max(), Some(199_999_998));
        assert_eq!(StepSet::list(vec![3, 9, 4]).unwrap().all_but(vec![9]).unwrap().max(), Some(4));
        assert_eq!(StepSet::from(2).unwrap().max(), None);
    }

    /// Issue 12, item 3: a million exceptions from a million amounts took minutes to check for
    /// emptiness (a linear scan of the exceptions per amount).
    #[test]
    fn huge_exception_lists_are_cheap() {
        let amounts: Vec<u64> = (1..=1_000_001).collect();
        let set = StepSet::list(amounts).unwrap().all_but((1..=1_000_000).collect()).unwrap();
        assert_eq!(set.up_to(2_000_000), vec![1_000_001]);
        let everything: Vec<u64> = (1..=1_000_000).collect();
        assert!(StepSet::list(everything.clone()).unwrap().all_but(everything).is_err());
    }
    use super::*;

    #[test]
    fn generated_sets_agree_with_their_definitions() {
        for set in NamedSet::ALL {
            let generated = StepSet::named(set).up_to(2000);
            let defined: Vec<u64> = (0..=2000).filter(|&n| set.contains(n)).collect();
            assert_eq!(generated, defined, "{}", set.name());
        }
    }

    #[test]
    fn first_members() {
        let first = |set: NamedSet| StepSet::named(set).up_to(21);
        assert_eq!(first(NamedSet::Primes), [2, 3, 5, 7, 11, 13, 17, 19]);
        assert_eq!(first(NamedSet::Squares), [1, 4, 9, 16]);
        assert_eq!(first(NamedSet::Fibonacci), [1, 2, 3, 5, 8, 13, 21]);
        assert_eq!(first(NamedSet::PowersOfTwo), [1, 2, 4, 8, 16]);
        assert_eq!(first(NamedSet::Triangular), [1, 3, 6, 10, 15, 21]);
    }

    #[test]
    fn lists_ranges_and_exceptions() {
        assert_eq!(StepSet::list(vec![5, 2, 5]).unwrap().up_to(10), [2, 5]);
        assert!(StepSet::list(vec![]).is_err());
        assert!(StepSet::list(vec![0, 1]).is_err());
        assert_eq!(StepSet::list(vec![1, 3, 4]).unwrap().up_to(3), [1, 3]);
        let range = StepSet::range(2, 6).unwrap().all_but(vec![4]).unwrap();
        assert_eq!(range.up_to(100), [2, 3, 5, 6]);
        assert!(range.contains(5) && !range.contains(4) && !range.contains(7));
        assert_eq!(range.max(), Some(6));
        assert!(StepSet::range(3, 2).is_err());
        assert!(StepSet::range(0, 2).is_err());
        assert!(StepSet::list(vec![1, 2]).unwrap().all_but(vec![2, 1]).is_err());
        let odd_primes = StepSet::primes().all_but(vec![2]).unwrap();
        assert_eq!(odd_primes.up_to(12), [3, 5, 7, 11]);
        assert_eq!(odd_primes.max(), None);
    }
}
