//! A claim's expression as a formula of the prover ([`super::formula`]), for the fragment that
//! base 2 or the Fibonacci numeration defines; anything else says exactly why it is outside.
//!
//! A position's coordinates are the naturals `X_i = coordinate − the axis' smallest`, so every
//! board starts at 0. An integer term becomes a list of *cases*: in each, some fresh variables
//! satisfy a guard (conditions on the coordinates and on them, and the definitions of the fresh
//! variables, each a function of the coordinates), and the term's value is then a linear form. The
//! cases of a term exclude each other, so that a comparison of two terms is the disjunction of
//! its cases, each ∃ its fresh variables. `abs`, `min`, `max` and `if` split cases; `%` and `/` by
//! a constant add a quotient and a remainder; `xor` (base 2) and `floor(t * phi)` (Fibonacci) add
//! their result, defined by an automaton. A real term is `A·phi + B` for integer terms A and B.

use super::dfa::Var;
use super::formula::{Definition, Formula};
use super::numeration::{Numeration, Rel};
use grundy_expr::{BinOp, Func, Node, Type, Value};
use std::rc::Rc;

/// A linear form `Σ c·x + c0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lin {
    terms: Vec<(Var, i64)>,
    constant: i64,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin { terms: Vec::new(), constant: c }
    }

    fn var(v: Var) -> Lin {
        Lin { terms: vec![(v, 1)], constant: 0 }
    }

    fn plus(&self, other: &Lin, sign: i64) -> Result<Lin, Outside> {
        let mut terms = self.terms.clone();
        for &(v, c) in &other.terms {
            let c = c.checked_mul(sign).ok_or_else(overflow)?;
            match terms.iter_mut().find(|(u, _)| *u == v) {
                Some((_, k)) => *k = k.checked_add(c).ok_or_else(overflow)?,
                None => terms.push((v, c)),
            }
        }
        terms.retain(|(_, c)| *c != 0);
        let constant = other
            .constant
            .checked_mul(sign)
            .and_then(|c| self.constant.checked_add(c))
            .ok_or_else(overflow)?;
        Ok(Lin { terms, constant })
    }

    fn scaled(&self, k: i64) -> Result<Lin, Outside> {
        Lin::constant(0).plus(self, k)
    }

    /// Its value when it has no variable.
    fn fixed(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// Whether it is at least 0 for all naturals (every coefficient and the constant ≥ 0).
    fn natural(&self) -> bool {
        self.constant >= 0 && self.terms.iter().all(|(_, c)| *c >= 0)
    }

    /// `self ⋈ 0`.
    fn is(&self, rel: Rel) -> Formula {
        Formula::linear(&self.terms, self.constant, rel)
    }

    /// The variable it is, when it is one variable exactly.
    fn single(&self) -> Option<Var> {
        match self.terms[..] {
            [(v, 1)] if self.constant == 0 => Some(v),
            _ => None,
        }
    }
}

fn overflow() -> Outside {
    Outside("a constant of the claim overflows 64-bit arithmetic in the proof".into())
}

/// Why a claim is outside the fragment the automata decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outside(pub String);

/// One case of an integer term: where `∃ fresh: guard`, the value is `value`.
#[derive(Clone, Debug)]
struct Case {
    fresh: Vec<Var>,
    guard: Vec<Formula>,
    value: Lin,
}

impl Case {
    fn of(value: Lin) -> Case {
        Case { fresh: Vec::new(), guard: Vec::new(), value }
    }

    /// Both cases' fresh variables and guards, with `value`.
    fn joined(&self, other: &Case, value: Lin) -> Case {
        Case {
            fresh: [self.fresh.clone(), other.fresh.clone()].concat(),
            guard: [self.guard.clone(), other.guard.clone()].concat(),
            value,
        }
    }

    /// The same case under one more condition.
    fn with(&self, condition: Formula) -> Case {
        let mut out = self.clone();
        out.guard.push(condition);
        out
    }

    fn constant(&self) -> Option<i64> {
        (self.fresh.is_empty() && self.guard.is_empty()).then(|| self.value.fixed()).flatten()
    }
}

/// A real term: `a·phi + b` in each case.
#[derive(Clone, Debug)]
struct RealCase {
    phi: Case,
    rest: Case,
}

/// Compiles expressions over a board's coordinates.
pub(crate) struct Compiler {
    /// For each slot of the expression, the coordinate variable it reads and the axis' smallest
    /// coordinate.
    slots: Vec<(Var, i64)>,
    next: Var,
    /// Conditions that must be false at every position for the claim to mean what its formula
    /// says there (an `xor` of a negative number), with what they say.
    pub(crate) obligations: Vec<(Formula, String)>,
    floor_phi: Option<Rc<Definition>>,
}

/// The numeration a claim's expression needs: base 2 for `xor`, Fibonacci for `phi`, either
/// (`None`) for neither; `xor` and `phi` together are outside every numeration here.
pub(crate) fn numeration_of(root: &Node) -> Result<Option<Numeration>, Outside> {
    fn walk(node: &Node, xor: &mut bool, phi: &mut bool) {
        match node {
            Node::Phi => *phi = true,
            Node::Neg(inner) | Node::Not(inner) => walk(inner, xor, phi),
            Node::Bin(_, a, b, _) => {
                walk(a, xor, phi);
                walk(b, xor, phi);
            }
            Node::Call(func, args, _) => {
                *xor |= *func == Func::Xor;
                args.iter().for_each(|a| walk(a, xor, phi));
            }
            Node::Const(_) | Node::Var(_) => {}
        }
    }
    let (mut xor, mut phi) = (false, false);
    walk(root, &mut xor, &mut phi);
    match (xor, phi) {
        (true, true) => Err(Outside(
            "the claim uses both xor (definable in base 2) and phi (definable in Fibonacci \
             numeration); no numeration here defines both"
                .into(),
        )),
        (_, true) => Ok(Some(Numeration::Fibonacci)),
        (true, _) => Ok(Some(Numeration::Binary)),
        _ => Ok(None),
    }
}

impl Compiler {
    /// A compiler whose expression slots read the coordinate variables `slots` (with each axis'
    /// smallest coordinate), making fresh variables from `first_fresh` on. The numeration is
    /// the caller's ([`numeration_of`]): the formulas are the same in both.
    pub(crate) fn new(slots: Vec<(Var, i64)>, first_fresh: Var) -> Compiler {
        Compiler { slots, next: first_fresh, obligations: Vec::new(), floor_phi: None }
    }

    /// The first variable no formula of this compiler uses: where another compiler starts.
    pub(crate) fn next_fresh(&self) -> Var {
        self.next
    }

    fn fresh(&mut self) -> Var {
        self.next += 1;
        self.next - 1
    }

    /// The formula of a condition.
    pub(crate) fn condition(&mut self, node: &Node) -> Result<Formula, Outside> {
        match node {
            Node::Const(Value::Bool(b)) => Ok(Formula::Bool(*b)),
            Node::Not(inner) => Ok(self.condition(inner)?.negated()),
            Node::Bin(BinOp::And, a, b, _) => {
                Ok(Formula::And(vec![self.condition(a)?, self.condition(b)?]))
            }
            Node::Bin(BinOp::Or, a, b, _) => {
                Ok(Formula::Or(vec![self.condition(a)?, self.condition(b)?]))
            }
            Node::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b, false) if is_bool(a) && is_bool(b) => {
                let (a, b) = (self.condition(a)?, self.condition(b)?);
                let same = Formula::Or(vec![
                    Formula::And(vec![a.clone(), b.clone()]),
                    Formula::And(vec![a.negated(), b.negated()]),
                ]);
                Ok(if *op == BinOp::Eq { same } else { same.negated() })
            }
            Node::Bin(op, a, b, integers) if is_comparison(*op) => {
                if !integers {
                    return Err(Outside(
                        "a comparison of real numbers: only floor(t * phi) and ceil(t * phi) \
                         bring phi into the fragment"
                            .into(),
                    ));
                }
                let (a, b) = (self.term(a)?, self.term(b)?);
                compare(&a, &b, *op)
            }
            Node::Call(Func::If, args, Type::Bool) => {
                let test = self.condition(&args[0])?;
                let (yes, no) = (self.condition(&args[1])?, self.condition(&args[2])?);
                Ok(Formula::Or(vec![
                    Formula::And(vec![test.clone(), yes]),
                    Formula::And(vec![test.negated(), no]),
                ]))
            }
            other => {
                Err(Outside(format!("`{}` is not a condition the prover reads", shown(other))))
            }
        }
    }

    /// The formula `y = the term`, for a values claim: ∃ its fresh variables in each case.
    pub(crate) fn graph(&mut self, node: &Node, y: Var) -> Result<Formula, Outside> {
        let cases = self.term(node)?;
        Ok(Formula::Or(
            cases
                .into_iter()
                .map(|case| {
                    let mut guard = case.guard;
                    guard.push(Lin::var(y).plus(&case.value, -1).expect("small").is(Rel::Eq));
                    Formula::exists(case.fresh, Formula::And(guard))
                })
                .collect(),
        ))
    }

    fn term(&mut self, node: &Node) -> Result<Vec<Case>, Outside> {
        match node {
            Node::Const(Value::Int(c)) => Ok(vec![Case::of(Lin::constant(*c))]),
            Node::Var(slot) => {
                let (var, min) = self.slots[*slot];
                Ok(vec![Case::of(Lin::var(var).plus(&Lin::constant(min), 1)?)])
            }
            Node::Neg(inner) => self.term(inner)?.into_iter().map(|c| scale(c, -1)).collect(),
            Node::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, true) => {
                let sign = if *op == BinOp::Add { 1 } else { -1 };
                pairs(&self.term(a)?, &self.term(b)?, |x, y| {
                    Ok(vec![x.joined(y, x.value.plus(&y.value, sign)?)])
                })
            }
            Node::Bin(BinOp::Mul, a, b, true) => {
                let (a, b) = (self.term(a)?, self.term(b)?);
                match (constant_of(&a), constant_of(&b)) {
                    (_, Some(k)) => a.into_iter().map(|c| scale(c, k)).collect(),
                    (Some(k), _) => b.into_iter().map(|c| scale(c, k)).collect(),
                    _ => Err(Outside(
                        "a product of two terms that both vary: multiplication is not definable \
                         in base 2 or Fibonacci numeration"
                            .into(),
                    )),
                }
            }
            Node::Bin(op @ (BinOp::Div | BinOp::Rem), a, b, true) => {
                let divisor = constant_of(&self.term(b)?).filter(|&c| c >= 1).ok_or_else(|| {
                    Outside(
                        "`/` and `%` are in the fragment by a constant of 1 or more only".into(),
                    )
                })?;
                let mut out = Vec::new();
                for case in self.term(a)? {
                    out.extend(self.divided(case, divisor, *op == BinOp::Rem)?);
                }
                Ok(out)
            }
            Node::Call(func, args, ty) => self.call(*func, args, *ty),
            other => Err(Outside(format!(
                "`{}` is outside the fragment that base 2 and Fibonacci numeration define",
                shown(other)
            ))),
        }
    }

    /// The cases of a call: `abs`, `min`, `max` and `if` split cases, `xor` and `floor`/`ceil`
    /// of a real term add their result.
    fn call(&mut self, func: Func, args: &[Node], ty: Type) -> Result<Vec<Case>, Outside> {
        match (func, ty) {
            (Func::Abs, Type::Int) => {
                let mut out = Vec::new();
                for case in self.term(&args[0])? {
                    let negated = scale(case.clone(), -1)?;
                    if case.value.natural() {
                        out.push(case);
                        continue;
                    }
                    out.push(case.with(case.value.scaled(-1)?.is(Rel::Le)));
                    out.push(negated.with(case.value.is(Rel::Lt)));
                }
                Ok(out)
            }
            (Func::Min | Func::Max, Type::Int) => {
                let mut cases = self.term(&args[0])?;
                for arg in &args[1..] {
                    let next = self.term(arg)?;
                    let first_wins = if func == Func::Min { Rel::Le } else { Rel::Lt };
                    cases = pairs(&cases, &next, |x, y| {
                        let difference = x.value.plus(&y.value, -1)?;
                        let (x_wins, y_wins) = match first_wins {
                            // min: x <= y gives x; max: y < x, i.e. y − x < 0, gives x.
                            Rel::Le => (difference.is(Rel::Le), difference.scaled(-1)?.is(Rel::Lt)),
                            _ => (difference.scaled(-1)?.is(Rel::Lt), difference.is(Rel::Le)),
                        };
                        Ok(vec![
                            x.joined(y, x.value.clone()).with(x_wins),
                            x.joined(y, y.value.clone()).with(y_wins),
                        ])
                    })?;
                }
                Ok(cases)
            }
            (Func::If, Type::Int) => {
                let test = self.condition(&args[0])?;
                let mut out: Vec<Case> =
                    self.term(&args[1])?.into_iter().map(|c| c.with(test.clone())).collect();
                out.extend(
                    self.term(&args[2])?.into_iter().map(|c| c.with(test.clone().negated())),
                );
                Ok(out)
            }
            (Func::Xor, _) => {
                let (a, b) = (self.term(&args[0])?, self.term(&args[1])?);
                let mut out = Vec::new();
                for x in &a {
                    for y in &b {
                        out.push(self.xor(x, y)?);
                    }
                }
                Ok(out)
            }
            (Func::Floor | Func::Ceil, _) => {
                if is_int_term(&args[0]) {
                    return self.term(&args[0]);
                }
                let mut out = Vec::new();
                for real in self.real(&args[0])? {
                    out.extend(self.rounded(real, func == Func::Ceil)?);
                }
                Ok(out)
            }
            _ => Err(Outside(format!(
                "`{}` is outside the fragment that base 2 and Fibonacci numeration define",
                format!("{func:?}").to_lowercase()
            ))),
        }
    }

    /// `case / c` or `case % c` (floor division, non-negative remainder).
    fn divided(&mut self, case: Case, c: i64, remainder: bool) -> Result<Vec<Case>, Outside> {
        let mut out = Vec::new();
        // value = c·q + r with 0 <= r < c, and q >= 0 ...
        let (q, r) = (self.fresh(), self.fresh());
        let below = Lin::var(r).plus(&Lin::constant(c - 1), -1)?.is(Rel::Le);
        let whole = case.value.plus(&Lin { terms: vec![(q, c), (r, 1)], constant: 0 }, -1)?;
        let mut first = case.clone();
        first.fresh.extend([q, r]);
        first.guard.extend([whole.is(Rel::Eq), below.clone()]);
        first.value = Lin::var(if remainder { r } else { q });
        out.push(first);
        if !case.value.natural() {
            // ... or value = −c·q' + r with q' >= 1 (a negative value).
            let (q, r) = (self.fresh(), self.fresh());
            let below = Lin::var(r).plus(&Lin::constant(c - 1), -1)?.is(Rel::Le);
            let whole = case.value.plus(&Lin { terms: vec![(q, -c), (r, 1)], constant: 0 }, -1)?;
            let mut second = case;
            second.fresh.extend([q, r]);
            second.guard.extend([
                whole.is(Rel::Eq),
                below,
                Lin { terms: vec![(q, -1)], constant: 1 }.is(Rel::Le),
            ]);
            second.value = if remainder { Lin::var(r) } else { Lin::var(q).scaled(-1)? };
            out.push(second);
        }
        Ok(out)
    }

    /// A natural variable equal to `case`'s value (itself when the value is one variable), with
    /// the obligation that it is never negative when it may be.
    fn natural(&mut self, case: &Case, what: &str) -> (Case, Var) {
        if let Some(v) = case.value.single() {
            return (case.clone(), v);
        }
        if !case.value.natural() {
            let mut guard = case.guard.clone();
            guard.push(case.value.is(Rel::Lt));
            self.obligations
                .push((Formula::exists(case.fresh.clone(), Formula::And(guard)), what.into()));
        }
        let u = self.fresh();
        let mut out = case.with(Lin::var(u).plus(&case.value, -1).expect("small").is(Rel::Eq));
        out.fresh.push(u);
        (out, u)
    }

    fn xor(&mut self, a: &Case, b: &Case) -> Result<Case, Outside> {
        let what = "xor of a negative number, and two's complement is not in the fragment";
        let (a, u) = self.natural(a, what);
        let (b, v) = self.natural(b, what);
        let y = self.fresh();
        let mut out = a.joined(&b, Lin::var(y));
        out.fresh.push(y);
        out.guard.push(Formula::Xor(u, v, y));
        Ok(out)
    }

    /// The real term of `node`, case by case.
    fn real(&mut self, node: &Node) -> Result<Vec<RealCase>, Outside> {
        // Every case keeps its fresh variables and guards on its phi part.
        let integer = |case: Case| RealCase {
            phi: Case { value: Lin::constant(0), ..case.clone() },
            rest: Case::of(case.value),
        };
        match node {
            Node::Phi => Ok(vec![RealCase {
                phi: Case::of(Lin::constant(1)),
                rest: Case::of(Lin::constant(0)),
            }]),
            Node::Const(Value::Real(r)) => Err(Outside(format!(
                "the real constant {r}: of the reals only phi is definable (in Fibonacci \
                 numeration), and a decimal is another number"
            ))),
            node if is_int_term(node) => Ok(self.term(node)?.into_iter().map(integer).collect()),
            Node::Neg(inner) => self
                .real(inner)?
                .into_iter()
                .map(|r| Ok(RealCase { phi: scale(r.phi, -1)?, rest: scale(r.rest, -1)? }))
                .collect(),
            Node::Bin(op @ (BinOp::Add | BinOp::Sub), a, b, false) => {
                let sign = if *op == BinOp::Add { 1 } else { -1 };
                let (a, b) = (self.real(a)?, self.real(b)?);
                let mut out = Vec::new();
                for x in &a {
                    for y in &b {
                        let both = x
                            .phi
                            .joined(&x.rest, Lin::constant(0))
                            .joined(&y.phi.joined(&y.rest, Lin::constant(0)), Lin::constant(0));
                        out.push(RealCase {
                            phi: Case {
                                value: x.phi.value.plus(&y.phi.value, sign)?,
                                ..both.clone()
                            },
                            rest: Case {
                                value: x.rest.value.plus(&y.rest.value, sign)?,
                                fresh: Vec::new(),
                                guard: Vec::new(),
                            },
                        });
                    }
                }
                Ok(out)
            }
            Node::Bin(BinOp::Mul, a, b, false) => {
                let (a, b) = (self.real(a)?, self.real(b)?);
                real_product(a, b)
            }
            Node::Bin(BinOp::Div, a, b, false) if matches!(**b, Node::Phi) => {
                // (Aφ + B)/φ = Bφ + (A − B), as 1/φ = φ − 1.
                self.real(a)?
                    .into_iter()
                    .map(|r| {
                        let (a, b) = (&r.phi.value, &r.rest.value);
                        Ok(RealCase {
                            phi: Case {
                                value: b.clone(),
                                ..r.phi.joined(&r.rest, Lin::constant(0))
                            },
                            rest: Case::of(a.plus(b, -1)?),
                        })
                    })
                    .collect()
            }
            other => Err(Outside(format!(
                "`{}` is a real term outside the fragment (sums of integer terms times phi)",
                shown(other)
            ))),
        }
    }

    /// `floor(Aφ + B)` (or `ceil`) as integer cases: `floor(Aφ) + B`, where `floor(Aφ)` is
    /// `floor_phi(A)` for A >= 0 and `−floor_phi(−A) − 1` for A < 0; `ceil` adds 1 when A ≠ 0.
    fn rounded(&mut self, real: RealCase, ceil: bool) -> Result<Vec<Case>, Outside> {
        // All fresh variables and guards of both parts sit on the phi part (see `real`).
        let RealCase { phi, rest } = real;
        let b = rest.value;
        if let Some(alpha) = phi.value.fixed() {
            let floor = floor_times_phi(alpha).ok_or_else(overflow)?;
            let whole = floor + i64::from(ceil && alpha != 0);
            return Ok(vec![Case { value: b.plus(&Lin::constant(whole), 1)?, ..phi }]);
        }
        let mut out = Vec::new();
        for negative in [false, true] {
            if negative && phi.value.natural() {
                continue;
            }
            let (u, y) = (self.fresh(), self.fresh());
            let a = if negative { phi.value.scaled(-1)? } else { phi.value.clone() };
            let mut case = phi.clone();
            case.fresh.extend([u, y]);
            // u = ±A, with A >= 0 (u >= 0) or A < 0 (u >= 1).
            case.guard.push(Lin::var(u).plus(&a, -1)?.is(Rel::Eq));
            if negative {
                case.guard.push(Lin { terms: vec![(u, -1)], constant: 1 }.is(Rel::Le));
            }
            case.guard.push(Formula::Call(self.floor_phi(), vec![u, y]));
            let floor =
                if negative { Lin { terms: vec![(y, -1)], constant: -1 } } else { Lin::var(y) };
            let up = Lin::constant(i64::from(ceil));
            if ceil {
                // A ≠ 0 here unless u = 0 (A = 0 in the first case): then ceil = floor = 0.
                let mut zero = case.clone();
                zero.guard.push(Lin::var(u).is(Rel::Eq));
                zero.value = b.plus(&floor, 1)?;
                let mut other = case.clone();
                other.guard.push(Lin { terms: vec![(u, -1)], constant: 1 }.is(Rel::Le));
                other.value = b.plus(&floor, 1)?.plus(&up, 1)?;
                out.extend([zero, other]);
            } else {
                case.value = b.plus(&floor, 1)?;
                out.push(case);
            }
        }
        Ok(out)
    }

    /// The definition `floor_phi(n, y)`: `y = floor(n·φ)`. For n ≥ 1, `floor(n·φ) − 1` is the
    /// Zeckendorf word of n − 1 followed by 0 (Fraenkel), so y = shift(n − 1) + 1; and 0 for 0.
    fn floor_phi(&mut self) -> Rc<Definition> {
        if let Some(definition) = &self.floor_phi {
            return definition.clone();
        }
        let (n, y, m, s) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
        let body = Formula::Or(vec![
            Formula::And(vec![
                Formula::linear(&[(n, 1)], 0, Rel::Eq),
                Formula::linear(&[(y, 1)], 0, Rel::Eq),
            ]),
            Formula::exists(
                vec![m, s],
                Formula::And(vec![
                    Formula::linear(&[(n, 1), (m, -1)], -1, Rel::Eq),
                    Formula::Shift(m, s),
                    Formula::linear(&[(y, 1), (s, -1)], -1, Rel::Eq),
                ]),
            ),
        ]);
        let definition = Rc::new(Definition { name: "floorphi".into(), params: vec![n, y], body });
        self.floor_phi = Some(definition.clone());
        definition
    }
}

/// The product of two real terms, one of them a constant `αφ + β`:
/// (αφ + β)(Aφ + B) = (αA + αB + βA)φ + (αA + βB), as φ² = φ + 1.
fn real_product(a: Vec<RealCase>, b: Vec<RealCase>) -> Result<Vec<RealCase>, Outside> {
    let fixed = |r: &[RealCase]| match r {
        [one] => Some((one.phi.constant()?, one.rest.constant()?)),
        _ => None,
    };
    let ((alpha, beta), other) = match (fixed(&a), fixed(&b)) {
        (Some(k), _) => (k, b),
        (_, Some(k)) => (k, a),
        _ => {
            return Err(Outside(
                "a product of two real terms that both vary is not in the fragment".into(),
            ))
        }
    };
    other
        .into_iter()
        .map(|r| {
            let (a, b) = (&r.phi.value, &r.rest.value);
            let phi = a.scaled(alpha)?.plus(&b.scaled(alpha)?, 1)?.plus(&a.scaled(beta)?, 1)?;
            let rest = a.scaled(alpha)?.plus(&b.scaled(beta)?, 1)?;
            Ok(RealCase {
                phi: Case { value: phi, ..r.phi.joined(&r.rest, Lin::constant(0)) },
                rest: Case::of(rest),
            })
        })
        .collect()
}

/// `floor(alpha·φ)`, exactly: for α ≥ 0 it is `floor((α + sqrt(5α²)) / 2)`, as √5·α is
/// irrational unless α = 0; for α < 0 it is `−floor(−α·φ) − 1`.
fn floor_times_phi(alpha: i64) -> Option<i64> {
    if alpha < 0 {
        return Some(-floor_times_phi(alpha.checked_neg()?)? - 1);
    }
    let a = i128::from(alpha);
    let square = 5 * a * a;
    let mut root = (square as f64).sqrt() as i128;
    while root * root > square {
        root -= 1;
    }
    while (root + 1) * (root + 1) <= square {
        root += 1;
    }
    i64::try_from((a + root) / 2).ok()
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

fn is_bool(node: &Node) -> bool {
    match node {
        Node::Const(Value::Bool(_)) | Node::Not(_) => true,
        Node::Bin(op, ..) => is_comparison(*op) || matches!(op, BinOp::And | BinOp::Or),
        Node::Call(Func::If, _, ty) => *ty == Type::Bool,
        _ => false,
    }
}

/// Whether the node is an integer term (not a real, not a condition).
fn is_int_term(node: &Node) -> bool {
    match node {
        Node::Const(Value::Int(_)) | Node::Var(_) => true,
        Node::Const(_) | Node::Phi | Node::Not(_) => false,
        Node::Neg(inner) => is_int_term(inner),
        Node::Bin(op, _, _, integers) => *integers && !is_comparison(*op),
        Node::Call(func, _, ty) => *ty == Type::Int && *func != Func::Sqrt,
    }
}

fn scale(case: Case, k: i64) -> Result<Case, Outside> {
    Ok(Case { value: case.value.scaled(k)?, ..case })
}

fn constant_of(cases: &[Case]) -> Option<i64> {
    match cases {
        [one] => one.constant(),
        _ => None,
    }
}

fn pairs(
    a: &[Case],
    b: &[Case],
    mut join: impl FnMut(&Case, &Case) -> Result<Vec<Case>, Outside>,
) -> Result<Vec<Case>, Outside> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            out.extend(join(x, y)?);
        }
    }
    Ok(out)
}

/// `a op b` for two integer terms: some case of each, with the comparison of their values.
fn compare(a: &[Case], b: &[Case], op: BinOp) -> Result<Formula, Outside> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let d = x.value.plus(&y.value, -1)?;
            let atom = match op {
                BinOp::Eq => d.is(Rel::Eq),
                BinOp::Ne => d.is(Rel::Eq).negated(),
                BinOp::Lt => d.is(Rel::Lt),
                BinOp::Le => d.is(Rel::Le),
                BinOp::Gt => d.scaled(-1)?.is(Rel::Lt),
                BinOp::Ge => d.scaled(-1)?.is(Rel::Le),
                _ => unreachable!("a comparison"),
            };
            let joined = x.joined(y, d);
            let mut guard = joined.guard;
            guard.push(atom);
            out.push(Formula::exists(joined.fresh, Formula::And(guard)));
        }
    }
    Ok(Formula::Or(out))
}

/// A node, shown in a reason (its operator or function).
fn shown(node: &Node) -> String {
    match node {
        Node::Const(value) => value.to_string(),
        Node::Phi => "phi".into(),
        Node::Var(_) => "a coordinate".into(),
        Node::Neg(_) => "-".into(),
        Node::Not(_) => "!".into(),
        Node::Bin(op, ..) => format!("{op:?}").to_lowercase(),
        Node::Call(func, ..) => format!("{func:?}").to_lowercase(),
    }
}
