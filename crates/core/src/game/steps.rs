//! Step sets: the amounts a jump may move by.

use std::fmt;

/// The amounts (each ≥ 1) by which a jump may move along its direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepSet {
    /// An explicit, finite list (kept sorted and without repeats).
    List(Vec<u64>),
    /// The prime numbers 2, 3, 5, 7, …
    Primes,
}

impl StepSet {
    /// An explicit set; sorts and removes repeats. Refuses an empty list and the amount 0.
    pub fn list(mut amounts: Vec<u64>) -> Result<StepSet, String> {
        if amounts.is_empty() {
            return Err("the step set is empty".into());
        }
        if amounts.contains(&0) {
            return Err("a step set may not contain 0 (a move must move)".into());
        }
        amounts.sort_unstable();
        amounts.dedup();
        Ok(StepSet::List(amounts))
    }

    /// Whether `amount` belongs to the set, decided the plain way (trial division for primes).
    ///
    /// The reference fill uses this; the engine uses [`StepSet::up_to`].
    pub fn contains(&self, amount: u64) -> bool {
        match self {
            StepSet::List(amounts) => amounts.binary_search(&amount).is_ok(),
            StepSet::Primes => {
                amount >= 2 && (2..).take_while(|d| d * d <= amount).all(|d| amount % d != 0)
            }
        }
    }

    /// The members that are at most `limit`, in increasing order.
    pub fn up_to(&self, limit: u64) -> Vec<u64> {
        match self {
            StepSet::List(amounts) => amounts.iter().copied().take_while(|&a| a <= limit).collect(),
            StepSet::Primes => primes_up_to(limit),
        }
    }

    /// The largest member, or `None` for an unbounded set.
    pub fn max(&self) -> Option<u64> {
        match self {
            StepSet::List(amounts) => amounts.last().copied(),
            StepSet::Primes => None,
        }
    }
}

impl fmt::Display for StepSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepSet::List(amounts) => {
                let text: Vec<String> = amounts.iter().map(u64::to_string).collect();
                write!(f, "{{{}}}", text.join(","))
            }
            StepSet::Primes => write!(f, "primes"),
        }
    }
}

/// The primes up to `limit`, by the sieve of Eratosthenes.
fn primes_up_to(limit: u64) -> Vec<u64> {
    let limit = limit as usize;
    if limit < 2 {
        return Vec::new();
    }
    let mut composite = vec![false; limit + 1];
    let mut primes = Vec::new();
    for n in 2..=limit {
        if !composite[n] {
            primes.push(n as u64);
            let mut multiple = n * n;
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
    use super::*;

    #[test]
    fn sieve_agrees_with_trial_division() {
        let sieved = StepSet::Primes.up_to(1000);
        let tried: Vec<u64> = (0..=1000).filter(|&n| StepSet::Primes.contains(n)).collect();
        assert_eq!(sieved, tried);
        assert_eq!(&sieved[..6], &[2, 3, 5, 7, 11, 13]);
    }

    #[test]
    fn lists_are_sorted_and_validated() {
        assert_eq!(StepSet::list(vec![5, 2, 5]).unwrap(), StepSet::List(vec![2, 5]));
        assert!(StepSet::list(vec![]).is_err());
        assert!(StepSet::list(vec![0, 1]).is_err());
        assert_eq!(StepSet::List(vec![1, 3, 4]).up_to(3), vec![1, 3]);
    }
}
