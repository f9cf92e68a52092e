//! The prover's formulas: first-order logic over the natural numbers with linear relations,
//! `xor` (base 2) and the Fibonacci shift, built from a claim and a game's rules
//! ([`super::compile`], [`super::sentences`]).
//!
//! A formula has three readings, kept side by side so that they cannot drift apart: its automaton
//! ([`Builder::automaton`], what the prover decides), its text in Walnut's language
//! ([`Formula::walnut`], what `grundy check --walnut` writes) and, for tests, its truth on small
//! numbers by brute force ([`Formula::holds`]).

use super::dfa::{Dfa, Halt, Var};
#[cfg(test)]
use super::numeration::Numeration;
use super::numeration::{Logic, Rel};
use std::collections::HashMap;
use std::rc::Rc;

/// A formula whose free variables are tracks.
#[derive(Clone, Debug)]
pub(crate) enum Formula {
    /// True or false.
    Bool(bool),
    /// `Σ c·x + c0 ⋈ 0`.
    Linear(Vec<(Var, i64)>, i64, Rel),
    /// `x xor y = z`.
    Xor(Var, Var, Var),
    /// The word of `.1` is the word of `.0` followed by 0 (Fibonacci numeration).
    Shift(Var, Var),
    /// The word of the variable has exactly one digit 1 (a power of 2 in base 2, a Fibonacci
    /// number in Fibonacci numeration).
    OneDigit(Var),
    /// Negation.
    Not(Box<Formula>),
    /// Conjunction (true when empty).
    And(Vec<Formula>),
    /// Disjunction (false when empty).
    Or(Vec<Formula>),
    /// ∃ the variables.
    Exists(Vec<Var>, Box<Formula>),
    /// A definition applied to variables, in the order of its parameters.
    Call(Rc<Definition>, Vec<Var>),
}

/// A formula with a name and parameters, built into an automaton once however often it is
/// called (the claim at a position and at its option) and written once as a Walnut `def`.
#[derive(Debug)]
pub(crate) struct Definition {
    /// Its name (a Walnut identifier).
    pub(crate) name: String,
    /// Its parameters, as they occur in the body.
    pub(crate) params: Vec<Var>,
    /// The body.
    pub(crate) body: Formula,
}

impl Formula {
    /// `Σ terms + constant ⋈ 0`.
    pub(crate) fn linear(terms: &[(Var, i64)], constant: i64, rel: Rel) -> Formula {
        Formula::Linear(terms.to_vec(), constant, rel)
    }

    /// `¬self`.
    pub(crate) fn negated(self) -> Formula {
        match self {
            Formula::Not(inner) => *inner,
            Formula::Bool(b) => Formula::Bool(!b),
            other => Formula::Not(Box::new(other)),
        }
    }

    /// `∃ vars: self` (itself when `vars` is empty).
    pub(crate) fn exists(vars: Vec<Var>, body: Formula) -> Formula {
        if vars.is_empty() {
            body
        } else {
            Formula::Exists(vars, Box::new(body))
        }
    }

    /// Whether the formula holds with the free variables at `values`, every ∃ tried on
    /// `0..=bound` (a test's brute force: exact when the witnesses are at most `bound`).
    #[cfg(test)]
    pub(crate) fn holds(
        &self,
        values: &mut HashMap<Var, u128>,
        bound: u128,
        numeration: Numeration,
    ) -> bool {
        let value = |v: &Var, values: &HashMap<Var, u128>| values[v] as i128;
        match self {
            Formula::Bool(b) => *b,
            Formula::Linear(terms, c0, rel) => {
                let sum: i128 =
                    terms.iter().map(|(v, c)| value(v, values) * *c as i128).sum::<i128>()
                        + *c0 as i128;
                match rel {
                    Rel::Eq => sum == 0,
                    Rel::Le => sum <= 0,
                    Rel::Lt => sum < 0,
                }
            }
            Formula::Xor(x, y, z) => values[x] ^ values[y] == values[z],
            Formula::Shift(m, s) => {
                let digits = Numeration::Fibonacci.digits(values[m], 100).expect("short");
                let mut shifted = digits[1..].to_vec();
                shifted.push(0);
                digits[0] == 0 && Numeration::Fibonacci.value(&shifted) == values[s]
            }
            Formula::OneDigit(x) => {
                let digits = numeration.digits(values[x], 190).expect("short");
                digits.iter().filter(|&&d| d == 1).count() == 1
            }
            Formula::Not(inner) => !inner.holds(values, bound, numeration),
            Formula::And(parts) => parts.iter().all(|p| p.holds(values, bound, numeration)),
            Formula::Or(parts) => parts.iter().any(|p| p.holds(values, bound, numeration)),
            Formula::Exists(vars, body) => exists_within(vars, body, values, bound, numeration),
            Formula::Call(definition, args) => {
                let mut inner: HashMap<Var, u128> = definition
                    .params
                    .iter()
                    .zip(args)
                    .map(|(&param, arg)| (param, values[arg]))
                    .collect();
                definition.body.holds(&mut inner, bound, numeration)
            }
        }
    }

    /// The formula in Walnut's language, each variable written as `names` says (a definition's
    /// parameters as `p0`, `p1`, …, in their order, which is also Walnut's alphabetical order of
    /// a `def`'s free variables).
    pub(crate) fn walnut(&self, names: &dyn Fn(Var) -> String) -> String {
        match self {
            Formula::Bool(true) => "0 = 0".into(),
            Formula::Bool(false) => "0 = 1".into(),
            Formula::Linear(terms, c0, rel) => {
                // Walnut's numbers are natural: each side is a sum with positive coefficients.
                let side = |sign: i64| {
                    let mut parts: Vec<String> = terms
                        .iter()
                        .filter(|(_, c)| c.signum() == sign)
                        .map(|(v, c)| match c.abs() {
                            1 => names(*v),
                            k => format!("{k}*{}", names(*v)),
                        })
                        .collect();
                    if c0.signum() == sign {
                        parts.push(c0.abs().to_string());
                    }
                    if parts.is_empty() {
                        "0".to_string()
                    } else {
                        parts.join(" + ")
                    }
                };
                // Σ⁺ − Σ⁻ ⋈ 0, written Σ⁺ ⋈ Σ⁻.
                let op = match rel {
                    Rel::Eq => "=",
                    Rel::Le => "<=",
                    Rel::Lt => "<",
                };
                format!("{} {op} {}", side(1), side(-1))
            }
            Formula::Xor(x, y, z) => format!("$xor({},{},{})", names(*x), names(*y), names(*z)),
            Formula::Shift(m, s) => format!("$shift({},{})", names(*m), names(*s)),
            Formula::OneDigit(x) => format!("$onedigit({})", names(*x)),
            Formula::Not(inner) => format!("~({})", inner.walnut(names)),
            Formula::And(parts) if parts.is_empty() => Formula::Bool(true).walnut(names),
            Formula::Or(parts) if parts.is_empty() => Formula::Bool(false).walnut(names),
            Formula::And(parts) | Formula::Or(parts) => {
                let op = if matches!(self, Formula::And(_)) { " & " } else { " | " };
                let parts: Vec<String> =
                    parts.iter().map(|p| format!("({})", p.walnut(names))).collect();
                parts.join(op)
            }
            Formula::Exists(vars, body) => {
                let vars: Vec<String> = vars.iter().map(|v| names(*v)).collect();
                format!("E {} ({})", vars.join(","), body.walnut(names))
            }
            Formula::Call(definition, args) => {
                // Walnut gives a `def` one parameter per variable its body reads: a parameter
                // the body does not read (a claim of one coordinate on a board) is not passed.
                let args: Vec<String> = args
                    .iter()
                    .zip(&definition.params)
                    .filter(|(_, &param)| definition.body.mentions(param))
                    .map(|(v, _)| names(*v))
                    .collect();
                // A `def` of no variable cannot be called: its body stands in its place.
                if args.is_empty() {
                    return format!("({})", definition.body.walnut(names));
                }
                format!("${}({})", definition.name, args.join(","))
            }
        }
    }

    /// The definitions it calls, each once, those it depends on first.
    pub(crate) fn definitions(&self, out: &mut Vec<Rc<Definition>>) {
        match self {
            Formula::Not(inner) | Formula::Exists(_, inner) => inner.definitions(out),
            Formula::And(parts) | Formula::Or(parts) => {
                parts.iter().for_each(|p| p.definitions(out))
            }
            Formula::Call(definition, _) => {
                definition.body.definitions(out);
                if !out.iter().any(|d| Rc::ptr_eq(d, definition)) {
                    out.push(definition.clone());
                }
            }
            _ => {}
        }
    }

    /// Whether the variable `v` occurs in it free.
    pub(crate) fn mentions(&self, v: Var) -> bool {
        match self {
            Formula::Bool(_) => false,
            Formula::Linear(terms, ..) => terms.iter().any(|&(x, c)| x == v && c != 0),
            Formula::Xor(x, y, z) => [x, y, z].contains(&&v),
            Formula::Shift(x, y) => *x == v || *y == v,
            Formula::OneDigit(x) => *x == v,
            Formula::Not(inner) => inner.mentions(v),
            Formula::And(parts) | Formula::Or(parts) => parts.iter().any(|p| p.mentions(v)),
            Formula::Exists(vars, body) => !vars.contains(&v) && body.mentions(v),
            Formula::Call(definition, args) => args
                .iter()
                .zip(&definition.params)
                .any(|(&arg, &param)| arg == v && definition.body.mentions(param)),
        }
    }

    /// Whether it uses an atom that Walnut needs a `reg` line for: `xor`, `shift`, `onedigit`.
    pub(crate) fn uses(&self, reg: &str) -> bool {
        match self {
            Formula::Xor(..) => reg == "xor",
            Formula::Shift(..) => reg == "shift",
            Formula::OneDigit(..) => reg == "onedigit",
            Formula::Not(inner) | Formula::Exists(_, inner) => inner.uses(reg),
            Formula::And(parts) | Formula::Or(parts) => parts.iter().any(|p| p.uses(reg)),
            Formula::Call(definition, _) => definition.body.uses(reg),
            _ => false,
        }
    }
}

#[cfg(test)]
fn exists_within(
    vars: &[Var],
    body: &Formula,
    values: &mut HashMap<Var, u128>,
    bound: u128,
    numeration: Numeration,
) -> bool {
    let Some((&first, rest)) = vars.split_first() else {
        return body.holds(values, bound, numeration);
    };
    let saved = values.get(&first).copied();
    let found = (0..=bound).any(|x| {
        values.insert(first, x);
        exists_within(rest, body, values, bound, numeration)
    });
    match saved {
        Some(old) => values.insert(first, old),
        None => values.remove(&first),
    };
    found
}

/// Builds formulas into automata, each definition once.
pub(crate) struct Builder<'l, 'w, 'a> {
    /// The logic the automata are built in.
    pub(crate) logic: &'l mut Logic<'w, 'a>,
    built: HashMap<*const Definition, Dfa>,
}

impl<'l, 'w, 'a> Builder<'l, 'w, 'a> {
    /// A builder in `logic`.
    pub(crate) fn new(logic: &'l mut Logic<'w, 'a>) -> Builder<'l, 'w, 'a> {
        Builder { logic, built: HashMap::new() }
    }

    /// The automaton of `formula`: its tracks are its free variables.
    pub(crate) fn automaton(&mut self, formula: &Formula) -> Result<Dfa, Halt> {
        match formula {
            Formula::Bool(b) => Ok(Dfa::constant(&[], *b)),
            Formula::Linear(terms, c0, rel) => self.logic.linear(terms, *c0, *rel),
            Formula::Xor(x, y, z) => self.logic.xor(*x, *y, *z),
            Formula::Shift(m, s) => self.logic.shift(*m, *s),
            Formula::OneDigit(x) => self.logic.one_digit(*x),
            Formula::Not(inner) => {
                let inner = self.automaton(inner)?;
                self.logic.not(&inner)
            }
            Formula::And(parts) => {
                let mut out = Dfa::constant(&[], true);
                for part in parts {
                    let part = self.automaton(part)?;
                    out = self.logic.and(&out, &part)?;
                    if out.is_empty() {
                        // Nothing can make it true again; keep the tracks of the whole.
                        return Ok(out);
                    }
                }
                Ok(out)
            }
            Formula::Or(parts) => {
                let mut out = Dfa::constant(&[], false);
                for part in parts {
                    let part = self.automaton(part)?;
                    out = self.logic.or(&out, &part)?;
                }
                Ok(out)
            }
            Formula::Exists(vars, body) => {
                let body = self.automaton(body)?;
                self.logic.exists(vars, &body)
            }
            Formula::Call(definition, args) => {
                let key = Rc::as_ptr(definition);
                if !self.built.contains_key(&key) {
                    let body = self.automaton(&definition.body)?;
                    self.built.insert(key, body);
                }
                let body = &self.built[&key];
                let rename: HashMap<Var, Var> =
                    definition.params.iter().copied().zip(args.iter().copied()).collect();
                Ok(body.renamed(|v| rename[&v]))
            }
        }
    }
}
