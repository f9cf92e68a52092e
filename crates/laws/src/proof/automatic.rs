//! The automatic prover (Büchi–Bruyère, as Walnut does it): a claim about a game whose moves are
//! unbounded is proved by deciding, with finite automata, the sentences that make it the game's
//! P-set or value function.
//!
//! The claim's expression is compiled for the fragment that base 2 (`xor`, `%`, `/` by
//! constants, linear arithmetic) or the Fibonacci numeration (`floor(t * phi)`) defines
//! (`compile`); the game's rules give the move relation (`sentences`: slides, steps and
//! jumps by finite sets, ranges, powers of 2 or Fibonacci numbers). Each sentence's
//! counterexamples are built into one automaton over msd-first digit tuples (`dfa`,
//! `numeration`); the claim is proved when every such automaton accepts nothing. A claim or a
//! game outside the fragment says exactly why, and is never proved by a weaker argument.

mod compile;
mod dfa;
mod formula;
mod numeration;
mod sentences;
#[cfg(test)]
mod tests;

pub use numeration::Numeration;

use crate::proof::{Proof, Theorem};
use dfa::{Dfa, Var, Work};
use formula::Builder;
use grundy_compute::Budget;
use grundy_core::{Coord, Game};
use grundy_expr::Expr;
use numeration::Logic;
pub(crate) use sentences::Claimed;
use std::time::Instant;

/// The most states an automaton may have: with the widest alphabets here (7 tracks, 128
/// letters) that is 200 MB of transitions, within the proofs' 1 GiB with the maps that build it.
pub const MAX_STATES: usize = 400_000;

/// What the automata made of a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The proof, or why there is none.
    pub proof: Proof,
    /// The sentences as a Walnut command file, when the claim and the game are in the fragment.
    pub walnut: Option<String>,
    /// Each sentence decided: its name and the most states of an automaton built for it.
    pub sentences: Vec<(String, usize)>,
}

/// Decides whether `expr` (a condition for a P-set claim, a term for a values claim) is the
/// P-set or the value function of `game` on every board, within `budget`; `slot_axes` says
/// which axis each of the expression's variables reads.
pub(crate) fn decide(
    game: &Game,
    claimed: Claimed,
    expr: &Expr,
    slot_axes: &[Option<usize>],
    budget: &Budget<'_>,
) -> Decision {
    decide_within(game, claimed, expr, slot_axes, budget, MAX_STATES)
}

/// [`decide`], no automaton past `max_states` states.
fn decide_within(
    game: &Game,
    claimed: Claimed,
    expr: &Expr,
    slot_axes: &[Option<usize>],
    budget: &Budget<'_>,
    max_states: usize,
) -> Decision {
    let started = Instant::now();
    let problem = match sentences::problem(game, claimed, expr.root(), slot_axes) {
        Ok(problem) => problem,
        Err(outside) => {
            return Decision {
                proof: Proof::none(format!(
                    "outside the automatic prover's fragment: {}",
                    outside.0
                )),
                walnut: None,
                sentences: Vec::new(),
            }
        }
    };
    let walnut = Some(problem.walnut());
    let spent = || budget.spent().map(|spent| format!("the proof stopped: {spent}"));
    let mut work = Work::new(max_states, &spent);
    let numeration = problem.numeration;
    let mut decided = Vec::new();
    let mut logic = Logic { numeration, work: &mut work };
    let mut builder = Builder::new(&mut logic);
    for sentence in &problem.sentences {
        builder.logic.work.largest = 0;
        let built = match spent() {
            Some(why) => Err(dfa::Halt::Spent(why)),
            None => builder.automaton(&sentence.counterexamples),
        };
        let counterexamples = match built {
            Ok(automaton) => automaton,
            Err(halt) => {
                return Decision {
                    proof: Proof::none(format!(
                        "the automatic prover stopped on {}, in {}: {halt}",
                        sentence.name,
                        numeration.name()
                    )),
                    walnut,
                    sentences: decided,
                }
            }
        };
        decided.push((sentence.name.clone(), builder.logic.work.largest.max(1)));
        if let Some(word) = counterexamples.witness() {
            let numbers = numeration.numbers(&word, counterexamples.tracks().len());
            let of = |v: Var| {
                counterexamples.tracks().iter().position(|&t| t == v).map_or(0, |i| numbers[i])
            };
            let at = problem.describe(&sentence.free, &of);
            let why = match sentence.outside {
                true => {
                    format!("outside the automatic prover's fragment: at {at} {}", sentence.fails)
                }
                false => format!(
                    "the automata in {} refute {}: {at} {}",
                    numeration.name(),
                    sentence.name,
                    sentence.fails
                ),
            };
            return Decision { proof: Proof::none(why), walnut, sentences: decided };
        }
    }
    let sizes: Vec<String> =
        decided.iter().map(|(name, states)| format!("{name} ({states} states)")).collect();
    let argument = format!(
        "{}: {}, in {:.2} s",
        numeration.name(),
        sizes.join(", "),
        started.elapsed().as_secs_f64()
    );
    Decision { proof: Proof::by(Theorem::Automata, argument), walnut, sentences: decided }
}

/// The sentences [`decide`] decides for `expr` about `game`, as a Walnut command file (the same
/// text as [`Decision::walnut`]); or why the claim or the game is outside the fragment.
pub(crate) fn walnut(
    game: &Game,
    claimed: Claimed,
    expr: &Expr,
    slot_axes: &[Option<usize>],
) -> Result<String, String> {
    sentences::problem(game, claimed, expr.root(), slot_axes)
        .map(|problem| problem.walnut())
        .map_err(|outside| outside.0)
}

/// A proved P-set law, compiled once, that answers any position exactly, in microseconds at
/// coordinates of 10^18: the claim's automaton reads the position's digits.
#[derive(Clone, Debug)]
pub struct ExactLaw {
    numeration: Numeration,
    automaton: Dfa,
    mins: Vec<Coord>,
}

impl ExactLaw {
    /// The law of a P-set `expr` about `game` (whose variables read `slot_axes`), when it is in
    /// the fragment; `None` otherwise. It says nothing of whether the law is proved.
    pub(crate) fn compile(
        game: &Game,
        expr: &Expr,
        slot_axes: &[Option<usize>],
    ) -> Option<ExactLaw> {
        let problem = sentences::problem(game, Claimed::PSet, expr.root(), slot_axes).ok()?;
        let spent = || None;
        let mut work = Work::new(MAX_STATES, &spent);
        let mut logic = Logic { numeration: problem.numeration, work: &mut work };
        let claim = problem.claim();
        let automaton = Builder::new(&mut logic).automaton(&claim).ok()?;
        Some(ExactLaw {
            numeration: problem.numeration,
            automaton,
            mins: game.axes().iter().map(|a| a.min).collect(),
        })
    }

    /// Whether the claim holds at `pos` (on the board).
    pub fn holds(&self, pos: &[Coord]) -> bool {
        let numbers: Vec<u128> = pos
            .iter()
            .zip(&self.mins)
            .map(|(&c, &m)| (i128::from(c) - i128::from(m)) as u128)
            .collect();
        // The automaton's tracks are the coordinates it reads, in axis order.
        let read: Vec<u128> =
            self.automaton.tracks().iter().map(|&t| numbers[t as usize]).collect();
        let word = self.numeration.word(&read);
        self.automaton.accepts(&word)
    }

    /// The numeration it reads positions in.
    pub fn numeration(&self) -> Numeration {
        self.numeration
    }
}
