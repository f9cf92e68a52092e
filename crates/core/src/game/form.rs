//! Every kind of move lowered to one of the three forms that the engines and the proofs read.
//!
//! A spec's rule kinds are for people: a step, a jump and a slide are one form to an engine, a
//! move by `amount × direction` for each amount of a set. The tiled, sparse and retrograde
//! engines and the prover's rooms read [`Rule::form`], never the rule itself, so a new kind of
//! move that lowers to these forms is a change to core alone (the parser, the check, the
//! lowering here). The reference ([`Game::options`](super::Game::options)) reads the rules
//! directly on purpose: it checks the lowering as well as the engines.

use super::{Coord, OctalCode, Rule, StepSet};

/// A rule as the engines and the proofs read it ([`Rule::form`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveForm<'a> {
    /// Moves to `position + amount × direction`, for each direction and each amount: they leave
    /// one position.
    Translate {
        /// The directions (one coordinate change per axis).
        directions: &'a [Vec<Coord>],
        /// The amounts allowed along every direction.
        amounts: Amounts<'a>,
    },
    /// A cut of the position along `axis` into two pieces, each at least `min_piece` there; the
    /// option is the sum of the pieces.
    Cut {
        /// The axis cut (0-based).
        axis: usize,
        /// The smallest piece (on the cut axis).
        min_piece: Coord,
        /// Only cuts into two different pieces.
        unequal: bool,
    },
    /// Take-and-break moves on a heap (1-D games), as an octal or hexadecimal code says.
    Code(&'a OctalCode),
}

/// The amounts of a [`MoveForm::Translate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amounts<'a> {
    /// The amount 1 only (a step's offsets).
    One,
    /// The members of a step set (a jump's).
    Set(&'a StepSet),
    /// Every amount from 1 to `max`, or every amount from 1 on (a slide's).
    Run {
        /// The largest amount, if bounded.
        max: Option<u64>,
    },
}

impl Amounts<'_> {
    /// The largest amount, or `None` when there is none.
    pub fn most(self) -> Option<u64> {
        match self {
            Amounts::One => Some(1),
            Amounts::Set(set) => set.max(),
            Amounts::Run { max } => max,
        }
    }

    /// The amounts that are at most `limit`, in increasing order.
    pub fn up_to(self, limit: u64) -> Vec<u64> {
        match self {
            Amounts::One => (limit >= 1).then_some(1).into_iter().collect(),
            Amounts::Set(set) => set.up_to(limit),
            Amounts::Run { max } => (1..=max.map_or(limit, |m| m.min(limit))).collect(),
        }
    }
}

impl Rule {
    /// The rule in the form the engines and the proofs read.
    pub fn form(&self) -> MoveForm<'_> {
        match self {
            Rule::Step { offsets } => {
                MoveForm::Translate { directions: offsets, amounts: Amounts::One }
            }
            Rule::Jump { directions, steps } => {
                MoveForm::Translate { directions, amounts: Amounts::Set(steps) }
            }
            Rule::Slide { directions, max } => {
                MoveForm::Translate { directions, amounts: Amounts::Run { max: *max } }
            }
            Rule::Split { axis, min_piece, unequal } => {
                MoveForm::Cut { axis: *axis, min_piece: *min_piece, unequal: *unequal }
            }
            Rule::TakeAndBreak { code } => MoveForm::Code(code),
        }
    }

    /// The rule whose form is the translation of `directions` by `amounts` (the inverse of
    /// [`Rule::form`] on translations).
    pub fn translation(directions: Vec<Vec<Coord>>, amounts: Amounts<'_>) -> Rule {
        match amounts {
            Amounts::One => Rule::Step { offsets: directions },
            Amounts::Set(steps) => Rule::Jump { directions, steps: steps.clone() },
            Amounts::Run { max } => Rule::Slide { directions, max },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A translation's form goes back to its rule; cuts and codes keep their fields.
    #[test]
    fn translations_lower_and_rise_again() {
        let directions = vec![vec![-1, 0], vec![-1, -2]];
        let rules = [
            Rule::Step { offsets: directions.clone() },
            Rule::Jump {
                directions: directions.clone(),
                steps: StepSet::list(vec![2, 3]).unwrap(),
            },
            Rule::Slide { directions: directions.clone(), max: Some(4) },
            Rule::Slide { directions, max: None },
        ];
        for rule in &rules {
            let MoveForm::Translate { directions, amounts } = rule.form() else {
                panic!("{rule:?} is a translation")
            };
            assert_eq!(&Rule::translation(directions.to_vec(), amounts), rule);
        }
        let cut = Rule::Split { axis: 1, min_piece: 2, unequal: true };
        assert_eq!(cut.form(), MoveForm::Cut { axis: 1, min_piece: 2, unequal: true });
        let code = OctalCode::parse_octal("0.137").unwrap();
        assert_eq!(Rule::TakeAndBreak { code: code.clone() }.form(), MoveForm::Code(&code));
    }

    #[test]
    fn amounts_list_what_each_rule_allows() {
        let set = StepSet::list(vec![2, 5, 9]).unwrap();
        assert_eq!(Amounts::One.up_to(4), vec![1]);
        assert_eq!(Amounts::One.up_to(0), Vec::<u64>::new());
        assert_eq!(Amounts::Set(&set).up_to(6), vec![2, 5]);
        assert_eq!(Amounts::Run { max: Some(3) }.up_to(6), vec![1, 2, 3]);
        assert_eq!(Amounts::Run { max: None }.up_to(4), vec![1, 2, 3, 4]);
        assert_eq!(Amounts::One.most(), Some(1));
        assert_eq!(Amounts::Set(&set).most(), Some(9));
        assert_eq!(Amounts::Run { max: None }.most(), None);
    }
}
