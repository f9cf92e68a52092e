//! Theorems that turn a finite periodicity check into a proof for every heap size.

use crate::periodicity::{find_period, Period};
use grundy_core::{Coord, Game, Rule};

/// Whether a period is proved, by which theorem, and how long a table the proof needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// `true` only when a theorem's finite check has passed on the table.
    pub proved: bool,
    /// The theorem and the check, or why no proof applies.
    pub argument: String,
    /// The table length (number of values) the theorem needs, when one applies.
    pub needed_length: Option<usize>,
}

/// The largest number of stones a move removes, when every move of the 1-D `game` removes a
/// bounded number (a subtraction game with a finite set); `None` otherwise.
pub fn subtraction_reach(game: &Game) -> Option<u64> {
    if game.dims() != 1 {
        return None;
    }
    let mut reach = 0u64;
    for rule in game.rules() {
        let (directions, most) = match rule {
            Rule::Step { offsets } => (offsets, 1),
            Rule::Jump { directions, steps } => (directions, steps.max()?),
            Rule::Slide { directions, max } => (directions, (*max)?),
            Rule::Split { .. } | Rule::TakeAndBreak { .. } => return None,
        };
        for direction in directions {
            reach = reach.max(direction[0].unsigned_abs() * most);
        }
    }
    Some(reach)
}

/// Tries to prove that the `period` found in a sequence of `len` values of `game` holds forever.
/// The sequence's first value is at coordinate `min` (the axis' smallest); the argument names
/// coordinates, as the report's `from` does.
pub fn prove_sequence(game: Option<&Game>, period: &Period, len: usize, min: i64) -> Proof {
    let unproved = |argument: String| Proof { proved: false, argument, needed_length: None };
    let Some(game) = game else {
        return unproved(
            "the game's rules are not known for this table (read from a file), so no theorem applies".into(),
        );
    };
    let (p, e) = (period.period, period.preperiod);
    if let Some(t) = subtraction_reach(game) {
        let t = t as usize;
        let needed = e + p + t;
        if period.saltus != 0 {
            return unproved(
                "a subtraction game's values are bounded, so a saltus cannot last".into(),
            );
        }
        let from = min + e as i64;
        let argument = format!(
            "subtraction game with a finite set, t = max(S) = {t}: x(n + {p}) = x(n) for all {from} <= n <= {}, and \
             the t values before a position determine its value, so the period holds forever (needs {needed} values, \
             up to n = {})",
            from + t as i64 - 1,
            min + needed as i64 - 1
        );
        return Proof {
            proved: len >= needed,
            argument: with_length(argument, len, needed),
            needed_length: Some(needed),
        };
    }
    if let [Rule::TakeAndBreak { code }] = game.rules() {
        if code.digits().iter().all(|&d| d <= 7) {
            let t = code.last_digit_position();
            let needed = 2 * e + 2 * p + t;
            if period.saltus != 0 {
                return unproved("the Octal Periodicity Theorem covers plain periods only".into());
            }
            // Octal games' heaps start at 0 (`Game::new` refuses another smallest coordinate).
            debug_assert_eq!(min, 0);
            let argument = format!(
                "Octal Periodicity Theorem (Guy and Smith): code {code} removes at most t = {t} stones, and x(n + {p}) = x(n) \
                 for all {e} <= n < 2*{e} + {p} + {t} = {}, so the sequence is periodic from n = {e} on (needs {needed} values)",
                2 * e + p + t
            );
            return Proof {
                proved: len >= needed,
                argument: with_length(argument, len, needed),
                needed_length: Some(needed),
            };
        }
        return unproved("the code has hexadecimal digits (three-heap moves); the Octal Periodicity Theorem does not cover them".into());
    }
    unproved(
        "no periodicity theorem covers these rules (only subtraction games with finite sets and octal games have one)".into(),
    )
}

/// Whether a periodicity theorem of this module covers `game`: a subtraction game with a finite
/// set, or an octal game. Only for these can [`proved_law`] ever succeed.
pub fn has_periodicity_theorem(game: &Game) -> bool {
    subtraction_reach(game).is_some()
        || matches!(game.rules(), [Rule::TakeAndBreak { code }] if code.digits().iter().all(|&d| d <= 7))
}

/// A heap game's values for every heap size, from a period proved by a theorem: the values up to
/// the end of the first period, then repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvedLaw {
    /// The period, preperiod and saltus (0: the theorems prove plain periods only).
    pub period: Period,
    /// The heap size of the first value.
    pub min: Coord,
    /// The values from `min` to the end of the first period after the preperiod.
    pub head: Vec<u32>,
    /// The theorem and its check.
    pub argument: String,
}

impl ProvedLaw {
    /// The value at heap size `n` (at least `min`).
    ///
    /// # Panics
    /// If `n` is below `min`.
    pub fn value(&self, n: Coord) -> u32 {
        let index = u64::try_from(n - self.min).expect("n is at least the axis' minimum");
        let (p, e) = (self.period.period as u64, self.period.preperiod as u64);
        let index = if index < e + p { index } else { e + (index - e) % p };
        self.head[index as usize]
    }
}

/// The law of `values` (a heap game's first values, from heap size `min`) when their period is
/// proved for every heap size by a theorem of this module; `None` when no period is found or none
/// is proved on these values (a longer table may prove one).
pub fn proved_law(game: &Game, values: &[u32], min: Coord) -> Option<ProvedLaw> {
    let period = find_period(values)?;
    let proof = prove_sequence(Some(game), &period, values.len(), min);
    proof.proved.then(|| ProvedLaw {
        period,
        min,
        head: values[..period.preperiod + period.period].to_vec(),
        argument: proof.argument,
    })
}

fn with_length(argument: String, len: usize, needed: usize) -> String {
    if len >= needed {
        argument
    } else {
        format!("{argument}, but the table has only {len}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::lookup;

    #[test]
    fn reach_of_subtraction_games() {
        assert_eq!(subtraction_reach(&lookup("subtraction:1,3,4").unwrap()), Some(4));
        assert_eq!(subtraction_reach(&lookup("subtract-a-prime").unwrap()), None);
        assert_eq!(subtraction_reach(&lookup("kayles").unwrap()), None);
        assert_eq!(subtraction_reach(&lookup("kiki").unwrap()), None);
    }

    #[test]
    fn a_proved_law_answers_any_heap_size() {
        // Subtraction {1, 3, 4}: 0 1 0 1 2 3 2, period 7 from 0.
        let game = lookup("subtraction:1,3,4").unwrap();
        let values: Vec<u32> = (0..40).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        let law = proved_law(&game, &values, 0).unwrap();
        assert_eq!((law.period.period, law.period.preperiod), (7, 0));
        for n in [0, 6, 7, 39, 1_000_000, 1_000_000_000_000_000_000] {
            assert_eq!(law.value(n), [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize], "{n}");
        }
        // Too few values for the theorem: no law yet.
        assert_eq!(proved_law(&game, &values[..10], 0), None);
        assert!(has_periodicity_theorem(&lookup("kayles").unwrap()));
        assert!(!has_periodicity_theorem(&lookup("grundys-game").unwrap()));
        assert!(!has_periodicity_theorem(&lookup("subtract-a-square").unwrap()));
    }

    #[test]
    fn proofs_need_long_enough_tables() {
        let kayles = lookup("kayles").unwrap();
        let period = Period { period: 12, saltus: 0, preperiod: 71 };
        let proof = prove_sequence(Some(&kayles), &period, 168, 0);
        assert!(proof.proved, "{}", proof.argument);
        assert_eq!(proof.needed_length, Some(168));
        assert!(!prove_sequence(Some(&kayles), &period, 167, 0).proved);
        let grundy = lookup("grundys-game").unwrap();
        assert!(!prove_sequence(Some(&grundy), &period, 10_000, 0).proved);
        assert!(!prove_sequence(None, &period, 10_000, 0).proved);
    }
}
