//! A claim about a game as the sentences whose truth proves it, and their decision.
//!
//! Every move of a game that is not loopy lowers the coordinate sum, so by induction on it:
//! - a set C is the game's P-set when no move joins two positions of C (*stability*) and every
//!   position outside C has a move into C (*absorption*), a position without a move counting as
//!   outside C only if it has one;
//! - a function f is the game's value when f is a natural number everywhere (*totality*), no
//!   move joins two positions of the same f (*stability*), and from every position a move reaches
//!   each smaller value (*absorption*): f is then the mex of its options.
//!
//! Each sentence is decided as "no counterexample": the automaton of its counterexamples
//! accepts nothing. A counterexample found is decoded into the positions it names.

use super::compile::{Compiler, Outside};
use super::dfa::Var;
use super::formula::{Definition, Formula};
use super::numeration::{Numeration, Rel};
use grundy_core::{Amounts, Coord, Game, MoveForm, NamedSet, StepBase, StepSet};
use std::rc::Rc;

/// What is claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claimed {
    /// The P-positions are where the condition holds.
    PSet,
    /// The value is the term.
    Values,
}

/// One sentence: true when `counterexamples` is empty.
pub(crate) struct Sentence {
    /// Its name: `stability`, `absorption`, `totality`, or an obligation's.
    pub(crate) name: String,
    /// The counterexamples, over `free`.
    pub(crate) counterexamples: Formula,
    /// The variables of a counterexample.
    pub(crate) free: Vec<Var>,
    /// What a counterexample means, after the positions it names.
    pub(crate) fails: String,
    /// Whether a counterexample puts the claim outside the fragment (an obligation), rather
    /// than refuting it.
    pub(crate) outside: bool,
}

/// A claim and a game as sentences of one numeration.
pub(crate) struct Problem {
    /// The numeration they are decided in.
    pub(crate) numeration: Numeration,
    /// The sentences, in the order they are decided.
    pub(crate) sentences: Vec<Sentence>,
    /// The axes' names and smallest coordinates.
    pub(crate) axes: Vec<(String, Coord)>,
    claim: Rc<Definition>,
    /// `move(X, X')`: the rules' moves, none from a terminal position. The sentences call it;
    /// the tests compare it with `Game::options` on every pair of a box.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) moves: Rc<Definition>,
}

/// The variables of a problem: a position's coordinates X, its option's X', a value y, a smaller
/// value v, a move's amount k; fresh ones after.
struct Vars {
    dims: usize,
}

impl Vars {
    fn position(&self) -> Vec<Var> {
        (0..self.dims as Var).collect()
    }
    fn option(&self) -> Vec<Var> {
        (self.dims as Var..2 * self.dims as Var).collect()
    }
    fn value(&self) -> Var {
        6
    }
    fn smaller(&self) -> Var {
        7
    }
    fn amount(&self) -> Var {
        8
    }
    const FRESH: Var = 16;
}

/// The sentences that prove `expression` (a condition for a P-set, a term for values) about
/// `game`, whose expression slots read the axes `slot_axes`; or why the automata cannot.
pub(crate) fn problem(
    game: &Game,
    claimed: Claimed,
    root: &grundy_expr::Node,
    slot_axes: &[Option<usize>],
) -> Result<Problem, Outside> {
    refuse_game(game)?;
    // The terminal condition is part of the moves: it needs its numeration too.
    let moves_need = match game.terminal() {
        Some(terminal) => match super::compile::numeration_of(terminal.expr().root())? {
            Some(here) => Some(combined(here, moves_numeration(game)?)?),
            None => moves_numeration(game)?,
        },
        None => moves_numeration(game)?,
    };
    let numeration = match (super::compile::numeration_of(root)?, moves_need) {
        (Some(claim), moves) => combined(claim, moves)?,
        (None, Some(moves)) => moves,
        // Linear arithmetic and residues: base 2's automata are the smaller.
        (None, None) => Numeration::Binary,
    };
    let vars = Vars { dims: game.dims() };
    let (x, x1) = (vars.position(), vars.option());
    let mins: Vec<Coord> = game.axes().iter().map(|a| a.min).collect();
    let slots: Vec<(Var, i64)> = slot_axes
        .iter()
        .enumerate()
        .map(|(slot, axis)| match axis {
            Some(axis) => Ok((x[*axis], mins[*axis])),
            // A variable the claim does not read (the edges, on a claim about coordinates).
            None if !grundy_expr::node_reads(root, slot) => Ok((x[0], mins[0])),
            None => Err(Outside("a claim that uses g or the table's edges (g_a)".into())),
        })
        .collect::<Result<_, Outside>>()?;
    let mut compiler = Compiler::new(slots, Vars::FRESH);
    let (claim_params, body) = match claimed {
        Claimed::PSet => (x.clone(), compiler.condition(root)?),
        Claimed::Values => {
            let mut params = x.clone();
            params.push(vars.value());
            (params, compiler.graph(root, vars.value())?)
        }
    };
    let claim = Rc::new(Definition { name: "claim".into(), params: claim_params, body });
    // No move starts at a terminal position: `move(X, X')` holds only where the condition does
    // not, read as the claim is (its own compiler, its variables after the claim's).
    let mut body = moves(game, &x, &x1, vars.amount())?;
    if let Some(terminal) = game.terminal() {
        let axes: Vec<(Var, i64)> = x.iter().copied().zip(mins.iter().copied()).collect();
        let mut reader = Compiler::new(axes, compiler.next_fresh());
        let ended = reader.condition(terminal.expr().root())?;
        body = Formula::And(vec![ended.negated(), body]);
        let what = |what: String| format!("{what} (in the terminal condition)");
        compiler.obligations.extend(reader.obligations.into_iter().map(|(f, w)| (f, what(w))));
    }
    let moves =
        Rc::new(Definition { name: "move".into(), params: [x.clone(), x1.clone()].concat(), body });
    let at = |cell: &[Var], extra: &[Var]| {
        Formula::Call(claim.clone(), [cell.to_vec(), extra.to_vec()].concat())
    };
    let step = Formula::Call(moves.clone(), [x.clone(), x1.clone()].concat());
    let mut sentences: Vec<Sentence> = compiler
        .obligations
        .drain(..)
        .enumerate()
        .map(|(i, (formula, what))| Sentence {
            name: format!("defined{}", i + 1),
            counterexamples: formula,
            free: x.clone(),
            fails: format!("the claim takes the {what}"),
            outside: true,
        })
        .collect();
    let ended = Formula::exists(x1.clone(), step.clone()).negated();
    let ends = Ends { value: game.play().terminal_value().0, ended };
    sentences.extend(the_sentences(claimed, &vars, &at, &step, &ends));
    let axes = game.axes().iter().map(|a| (a.name.clone(), a.min)).collect();
    Ok(Problem { numeration, sentences, axes, claim, moves })
}

/// The positions without a move and their value under the game's play: 0 under normal play
/// (the player to move has lost), 1 under misère play (Conway's g⁻; the player to move has won).
struct Ends {
    /// The value of a position without a move.
    value: u32,
    /// That X has no move: `¬∃X' move(X, X')`.
    ended: Formula,
}

/// The sentences that make the claim the game's P-set (stability, absorption) or its values
/// (totality, stability, absorption), each as its counterexamples; `at` is the claim at a cell
/// (with the value's variable for values) and `step` the move from X to X'.
///
/// A position without a move of value 0 needs no sentence of its own: absorption asks it for a
/// move it does not have unless it is claimed P (value 0). One of another value (misère play)
/// is taken out of absorption, and `ends` says it has that value: with stability, induction
/// along the moves (which end) makes the claim the game's on every position.
fn the_sentences(
    claimed: Claimed,
    vars: &Vars,
    at: &dyn Fn(&[Var], &[Var]) -> Formula,
    step: &Formula,
    ends: &Ends,
) -> Vec<Sentence> {
    let (x, x1) = (vars.position(), vars.option());
    let mut sentences = Vec::new();
    // Absorption's counterexamples: every position, or those with a move.
    let absorbing = |mut parts: Vec<Formula>| {
        if ends.value != 0 {
            parts.push(ends.ended.clone().negated());
        }
        Formula::And(parts)
    };
    match claimed {
        Claimed::PSet => {
            sentences.push(Sentence {
                name: "stability".into(),
                counterexamples: Formula::And(vec![at(&x, &[]), at(&x1, &[]), step.clone()]),
                free: [x.clone(), x1.clone()].concat(),
                fails: "both are claimed P, and a move joins them".into(),
                outside: false,
            });
            let reached =
                Formula::exists(x1.clone(), Formula::And(vec![step.clone(), at(&x1, &[])]));
            sentences.push(Sentence {
                name: "absorption".into(),
                counterexamples: absorbing(vec![at(&x, &[]).negated(), reached.negated()]),
                free: x.clone(),
                fails: "is claimed N, but no move reaches a claimed P-position".into(),
                outside: false,
            });
            if ends.value != 0 {
                sentences.push(Sentence {
                    name: "ends".into(),
                    counterexamples: Formula::And(vec![ends.ended.clone(), at(&x, &[])]),
                    free: x.clone(),
                    fails: "is claimed P, but has no move: the player to move there has won".into(),
                    outside: false,
                });
            }
        }
        Claimed::Values => {
            let (y, v) = (vars.value(), vars.smaller());
            sentences.push(Sentence {
                name: "totality".into(),
                counterexamples: Formula::exists(vec![y], at(&x, &[y])).negated(),
                free: x.clone(),
                fails: "has no claimed value that is a natural number".into(),
                outside: false,
            });
            sentences.push(Sentence {
                name: "stability".into(),
                counterexamples: Formula::And(vec![at(&x, &[y]), at(&x1, &[y]), step.clone()]),
                free: [x.clone(), x1.clone(), vec![y]].concat(),
                fails: "have the same claimed value, and a move joins them".into(),
                outside: false,
            });
            let larger = Formula::exists(
                vec![y],
                Formula::And(vec![at(&x, &[y]), Formula::linear(&[(v, 1), (y, -1)], 0, Rel::Lt)]),
            );
            let reached =
                Formula::exists(x1.clone(), Formula::And(vec![step.clone(), at(&x1, &[v])]));
            sentences.push(Sentence {
                name: "absorption".into(),
                counterexamples: absorbing(vec![larger, reached.negated()]),
                free: [x.clone(), vec![v]].concat(),
                fails: "has a claimed value above v, but no move reaches the claimed value v"
                    .into(),
                outside: false,
            });
            if ends.value != 0 {
                let other = Formula::exists(
                    vec![y],
                    Formula::And(vec![
                        at(&x, &[y]),
                        Formula::linear(&[(y, 1)], -i64::from(ends.value), Rel::Eq).negated(),
                    ]),
                );
                sentences.push(Sentence {
                    name: "ends".into(),
                    counterexamples: Formula::And(vec![ends.ended.clone(), other]),
                    free: x.clone(),
                    fails: format!(
                        "has no move, so its value is {}, but another value is claimed",
                        ends.value
                    ),
                    outside: false,
                });
            }
        }
    }
    sentences
}

/// Why the game itself is outside what the sentences say.
fn refuse_game(game: &Game) -> Result<(), Outside> {
    // Misère play is in: the sentences read the value of a position without a move from the
    // play (`Ends`). Play that goes round is not (induction along the moves needs them to end),
    // and a loopy game's moves raise a bounded axis, which the sentences do not state either.
    if let Some(axis) = game.axes().iter().find(|a| a.max.is_some()) {
        return Err(Outside(format!(
            "the axis {} is bounded, which the sentences do not say (nor a loopy game's \
             moves, which raise a bounded axis and need not end)",
            axis.name
        )));
    }
    Ok(())
}

/// The numeration the moves need, if any.
fn moves_numeration(game: &Game) -> Result<Option<Numeration>, Outside> {
    let mut needed = None;
    for rule in game.rules() {
        if let MoveForm::Translate { amounts: Amounts::Set(steps), .. } = rule.form() {
            if let StepBase::Named(set) = steps.base() {
                let here = match set {
                    NamedSet::PowersOfTwo => Numeration::Binary,
                    NamedSet::Fibonacci => Numeration::Fibonacci,
                    other => {
                        return Err(Outside(format!(
                            "jumps by {}: not definable in base 2 or Fibonacci numeration",
                            other.name().replace('-', " ")
                        )))
                    }
                };
                needed = Some(combined(here, needed)?);
            }
        }
    }
    Ok(needed)
}

fn combined(a: Numeration, b: Option<Numeration>) -> Result<Numeration, Outside> {
    match b {
        Some(b) if b != a => Err(Outside(format!(
            "the claim needs {} and the moves {}; no numeration here defines both",
            a.name(),
            b.name()
        ))),
        _ => Ok(a),
    }
}

/// `move(X, X')`: some rule moves X to X'.
fn moves(game: &Game, x: &[Var], x1: &[Var], k: Var) -> Result<Formula, Outside> {
    let mut any = Vec::new();
    // X' = X + amount·direction on every axis.
    let along = |direction: &[Coord], amount: Option<Var>| -> Formula {
        Formula::And(
            direction
                .iter()
                .enumerate()
                .map(|(i, &d)| match amount {
                    Some(k) => Formula::linear(&[(x1[i], 1), (x[i], -1), (k, -d)], 0, Rel::Eq),
                    None => Formula::linear(&[(x1[i], 1), (x[i], -1)], -d, Rel::Eq),
                })
                .collect(),
        )
    };
    for (index, rule) in game.rules().iter().enumerate() {
        let MoveForm::Translate { directions, amounts } = rule.form() else {
            return Err(Outside(format!(
                "rule {} ({}) leaves a sum of positions, which the sentences about single \
                 positions do not cover",
                index + 1,
                rule.kind()
            )));
        };
        let amounts = match amounts {
            Amounts::One => {
                any.extend(directions.iter().map(|o| along(o, None)));
                continue;
            }
            Amounts::Set(steps) => vec![step_amounts(steps, k)?],
            Amounts::Run { max } => {
                let mut amounts = vec![Formula::linear(&[(k, -1)], 1, Rel::Le)];
                if let Some(max) = max {
                    let max = i64::try_from(max).map_err(|_| too_far())?;
                    amounts.push(Formula::linear(&[(k, 1)], -max, Rel::Le));
                }
                amounts
            }
        };
        for direction in directions {
            let mut parts = vec![along(direction, Some(k))];
            parts.extend(amounts.iter().cloned());
            any.push(Formula::exists(vec![k], Formula::And(parts)));
        }
    }
    Ok(Formula::Or(any))
}

fn too_far() -> Outside {
    Outside("a move's amount passes 64-bit arithmetic".into())
}

/// `k` is one of the step set's amounts.
fn step_amounts(steps: &StepSet, k: Var) -> Result<Formula, Outside> {
    let is = |amount: u64| -> Result<Formula, Outside> {
        Ok(Formula::linear(&[(k, 1)], -i64::try_from(amount).map_err(|_| too_far())?, Rel::Eq))
    };
    let mut parts = vec![match steps.base() {
        StepBase::List(list) => Formula::Or(list.iter().map(|&a| is(a)).collect::<Result<_, _>>()?),
        StepBase::Range(low, high) => Formula::And(vec![
            Formula::linear(&[(k, -1)], i64::try_from(*low).map_err(|_| too_far())?, Rel::Le),
            Formula::linear(&[(k, 1)], -i64::try_from(*high).map_err(|_| too_far())?, Rel::Le),
        ]),
        StepBase::From(low) => {
            Formula::linear(&[(k, -1)], i64::try_from(*low).map_err(|_| too_far())?, Rel::Le)
        }
        StepBase::Named(_) => Formula::OneDigit(k),
    }];
    for &exception in steps.exceptions() {
        parts.push(is(exception)?.negated());
    }
    Ok(Formula::And(parts))
}

impl Problem {
    /// The claim at the position X: a condition (P-set) or the graph `y = f(X)` (values).
    pub(crate) fn claim(&self) -> Formula {
        Formula::Call(self.claim.clone(), self.claim.params.clone())
    }

    /// The positions a counterexample over `free` names, as text: `a = 3, b = 5` for each
    /// position, and `v = 2` for a value.
    pub(crate) fn describe(&self, free: &[Var], numbers: &dyn Fn(Var) -> u128) -> String {
        let dims = self.axes.len() as Var;
        let position = |first: Var| -> String {
            self.axes
                .iter()
                .enumerate()
                .map(|(i, (name, min))| {
                    let n = i128::try_from(numbers(first + i as Var)).unwrap_or(i128::MAX);
                    format!("{name} = {}", n + i128::from(*min))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = vec![format!("({})", position(0))];
        if free.contains(&dims) {
            parts.push(format!("({})", position(dims)));
        }
        if free.contains(&7) {
            parts.push(format!("v = {}", numbers(7)));
        }
        if free.contains(&6) && free.contains(&dims) {
            parts.push(format!("value {}", numbers(6)));
        }
        parts.join(" and ")
    }

    /// The Walnut command file that states the sentences: `reg` lines for the atoms, a `def`
    /// for each definition, and an `eval` for each sentence, which Walnut should find TRUE.
    pub(crate) fn walnut(&self) -> String {
        let prefix = format!("?{}", self.numeration.walnut());
        let mut definitions = Vec::new();
        for sentence in &self.sentences {
            sentence.counterexamples.definitions(&mut definitions);
        }
        let mut out = String::new();
        // The positions' numbers start at 0: an axis that starts elsewhere is shifted, and says so.
        for (i, (name, min)) in self.axes.iter().enumerate().filter(|(_, (_, min))| *min != 0) {
            let var = self.name(i as Var);
            let (sign, by) = if *min > 0 { ('-', *min) } else { ('+', -*min) };
            out.push_str(&format!(
                "# the axis {name} starts at {min}: {var} here is the coordinate {name} {sign} {by}\n"
            ));
        }
        // Each track typed with the numeration it is read in (`msd_2`, `msd_fib`), so that
        // Walnut knows what its digits range over.
        let typed = |tracks: usize| vec![self.numeration.walnut(); tracks].join(" ");
        let regs = [
            ("xor", 3, "([0,0,0]|[0,1,1]|[1,0,1]|[1,1,0])*"),
            ("shift", 2, "([0,0]|[0,1][1,0])*"),
            ("onedigit", 1, "0*10*"),
        ];
        for (name, tracks, pattern) in regs {
            if self.sentences.iter().any(|s| s.counterexamples.uses(name)) {
                out.push_str(&format!("reg {name} {} \"{pattern}\";\n", typed(tracks)));
            }
        }
        for definition in &definitions {
            let params = definition.params.clone();
            let names = move |v: Var| match params.iter().position(|&p| p == v) {
                Some(i) => format!("p{i}"),
                None => format!("t{v}"),
            };
            out.push_str(&format!(
                "def {} \"{prefix} {}\";\n",
                definition.name,
                definition.body.walnut(&names)
            ));
        }
        for sentence in &self.sentences {
            let names = |v: Var| self.name(v);
            // Walnut quantifies only variables that occur (a claim that leaves a coordinate
            // unread leaves it out of the sentence too).
            let free: Vec<String> = sentence
                .free
                .iter()
                .filter(|&&v| sentence.counterexamples.mentions(v))
                .map(|&v| self.name(v))
                .collect();
            let body = sentence.counterexamples.walnut(&names);
            let counterexamples = match free.is_empty() {
                true => body,
                false => format!("E {} ({body})", free.join(",")),
            };
            out.push_str(&format!("eval {} \"{prefix} ~({counterexamples})\";\n", sentence.name));
        }
        out
    }

    /// A variable's name in the Walnut file: the axes' names for a position (when Walnut can
    /// take them), with `1` after them for the option; `y`, `v`, `k`; `t…` for the rest.
    fn name(&self, v: Var) -> String {
        let dims = self.axes.len() as Var;
        let axis = |i: usize, suffix: &str| {
            let name = &self.axes[i].0;
            let plain = name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && !["y", "v", "k"].contains(&name.as_str());
            if plain {
                format!("{name}{suffix}")
            } else {
                format!("x{i}{suffix}")
            }
        };
        match v {
            v if v < dims => axis(v as usize, ""),
            v if v < 2 * dims => axis((v - dims) as usize, "1"),
            6 => "y".into(),
            7 => "v".into(),
            8 => "k".into(),
            v => format!("t{v}"),
        }
    }
}
