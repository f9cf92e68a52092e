//! Where an expression of one coordinate repeats from: the form of a heap game's law with a
//! preperiod (`if(n == 0, 0, n % 2)`, `min(n, 2 - n % 3)`, `abs(n - 1) % 3`), read from the
//! expression, never sampled.
//!
//! [`Eventual`] extends [`super::Shift`]'s argument with a start: shifting the coordinate by
//! `period` adds `increment` to the value for every coordinate from `from` on. A comparison of
//! two terms whose difference grows (or shrinks) by a fixed step each period takes one value on
//! each residue class once the difference has passed 0; the start is moved past that point,
//! which the difference's values on one period say.

use super::{checked_lcm, eval, gcd, BinOp, Func, Node, Value};

/// The latest start the analysis gives: past it the claim is left unproved.
const LATEST_FROM: i64 = 1 << 22;

/// For every coordinate `n >= from`, the value at `n + period` is the value at `n` plus
/// `increment`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Eventual {
    pub(crate) period: u64,
    pub(crate) increment: i64,
    pub(crate) from: i64,
}

impl Eventual {
    /// The increment over `period`, a multiple of this one's period.
    fn over(self, period: u64) -> Option<i64> {
        self.increment.checked_mul(i64::try_from(period / self.period).ok()?)
    }

    /// Both over the lcm of their periods from the later start, the increments joined.
    fn combine(self, other: Eventual, join: impl Fn(i64, i64) -> Option<i64>) -> Option<Eventual> {
        let period = checked_lcm(self.period, other.period)?;
        let increment = join(self.over(period)?, other.over(period)?)?;
        Some(Eventual { period, increment, from: self.from.max(other.from) })
    }

    /// Any operation on two terms that both repeat: it repeats over the lcm.
    fn repeating_with(self, other: Eventual) -> Option<Eventual> {
        (self.increment == 0 && other.increment == 0)
            .then(|| self.combine(other, |_, _| Some(0)))?
    }
}

/// Where `node`, an expression whose variables at `reads_axis` are the coordinate (and no other
/// variable is read), repeats from, for coordinates from `lo` on; `None` when its form does not
/// show it.
pub(crate) fn eventual(node: &Node, reads_axis: &[bool], lo: i64) -> Option<Eventual> {
    let constant = Eventual { period: 1, increment: 0, from: lo };
    let of = |node: &Node| eventual(node, reads_axis, lo);
    let at = |node: &Node, n: i64| match eval(node, &vec![n; reads_axis.len()]) {
        Ok(Value::Int(v)) => Some(v),
        _ => None,
    };
    match node {
        Node::Const(_) | Node::Phi => Some(constant),
        Node::Var(slot) => reads_axis[*slot].then_some(Eventual { increment: 1, ..constant }),
        Node::Neg(inner) => {
            let e = of(inner)?;
            Some(Eventual { increment: e.increment.checked_neg()?, ..e })
        }
        Node::Not(inner) => of(inner)?.repeating_with(constant),
        Node::Bin(op @ (BinOp::Add | BinOp::Sub), left, right, _) => {
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            of(left)?.combine(of(right)?, |a, b| a.checked_add(b.checked_mul(sign)?))
        }
        Node::Bin(BinOp::Mul, left, right, true) => {
            let (a, b) = (of(left)?, of(right)?);
            let fixed = |e: Eventual, node: &Node| {
                (e.period == 1 && e.increment == 0).then(|| at(node, e.from)).flatten()
            };
            let from = a.from.max(b.from);
            match (fixed(a, left), fixed(b, right)) {
                (_, Some(c)) => {
                    Some(Eventual { increment: a.increment.checked_mul(c)?, from, ..a })
                }
                (Some(c), _) => {
                    Some(Eventual { increment: b.increment.checked_mul(c)?, from, ..b })
                }
                _ => a.repeating_with(b),
            }
        }
        Node::Bin(op @ (BinOp::Div | BinOp::Rem), left, right, true) => {
            let (a, b) = (of(left)?, of(right)?);
            let c = (b.period == 1 && b.increment == 0).then(|| at(right, b.from)).flatten();
            match c {
                Some(c) if c >= 1 => {
                    // As `Shift::divided`: over `times` periods the increment is a multiple of c.
                    let times = c / gcd(a.increment.unsigned_abs(), c as u64) as i64;
                    let period = a.period.checked_mul(times as u64)?;
                    let increment = match op {
                        BinOp::Rem => 0,
                        _ => a.increment.checked_mul(times)? / c,
                    };
                    Some(Eventual { period, increment, from: a.from.max(b.from) })
                }
                _ => a.repeating_with(b),
            }
        }
        Node::Bin(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            l,
            r,
            _,
        ) => {
            let difference = of(l)?.combine(of(r)?, |a, b| a.checked_sub(b))?;
            let from = settled(difference, |n| at(l, n)?.checked_sub(at(r, n)?))?;
            Some(Eventual { increment: 0, from, ..difference })
        }
        Node::Bin(_, left, right, _) => of(left)?.repeating_with(of(right)?),
        Node::Call(Func::Floor | Func::Ceil, args, _) => of(&args[0]),
        Node::Call(Func::Abs, args, _) => {
            let e = of(&args[0])?;
            let from = settled(e, |n| at(&args[0], n))?;
            Some(Eventual { increment: e.increment.checked_abs()?, from, ..e })
        }
        Node::Call(func @ (Func::Min | Func::Max), args, _) => {
            min_or_max(*func == Func::Min, args, reads_axis, lo)
        }
        Node::Call(Func::If, args, _) => {
            let condition = of(&args[0])?;
            let (then, other) = (of(&args[1])?, of(&args[2])?);
            let branches = then.combine(other, |a, b| (a == b).then_some(a))?;
            (condition.increment == 0).then(|| branches.combine(condition, |a, _| Some(a)))?
        }
        Node::Call(_, args, _) => {
            args.iter().try_fold(constant, |e, arg| e.repeating_with(of(arg)?))
        }
    }
}

/// `min(args…)` (or `max` when not `min`) folded term by term: where two terms move apart, the
/// fold keeps the one that ends smaller (larger) once their difference has settled.
fn min_or_max(min: bool, args: &[Node], reads_axis: &[bool], lo: i64) -> Option<Eventual> {
    let at = |node: &Node, n: i64| match eval(node, &vec![n; reads_axis.len()]) {
        Ok(Value::Int(v)) => Some(v),
        _ => None,
    };
    let (first, rest) = args.split_first()?;
    let mut e = eventual(first, reads_axis, lo)?;
    // The terms so far, whose fold is the value the fold has reached at n.
    let mut sofar: Vec<&Node> = vec![first];
    for arg in rest {
        let next = eventual(arg, reads_axis, lo)?;
        let value = |terms: &[&Node], n: i64| {
            let values: Option<Vec<i64>> = terms.iter().map(|t| at(t, n)).collect();
            let values = values?.into_iter();
            if min {
                values.min()
            } else {
                values.max()
            }
        };
        let difference = e.combine(next, |a, b| a.checked_sub(b))?;
        let from = settled(difference, |n| value(&sofar, n)?.checked_sub(at(arg, n)?))?;
        let period = difference.period;
        // Past `from` the difference (fold − term) has its increment's sign, or none moves.
        let keeps_sofar = match difference.increment.signum() {
            0 => true,
            1 => !min,
            _ => min,
        };
        let increment = if keeps_sofar { e.over(period)? } else { next.over(period)? };
        e = Eventual { period, increment, from };
        sofar.push(arg);
    }
    Some(e)
}

/// Where a term that moves by `e.increment` each `e.period` from `e.from` on (its values given
/// by `value`) has passed 0 on every residue class for good: `e.from` when it does not move.
/// Past that point its sign is the increment's on every class.
fn settled(e: Eventual, value: impl Fn(i64) -> Option<i64>) -> Option<i64> {
    if e.increment == 0 {
        return Some(e.from);
    }
    let step = e.increment.unsigned_abs();
    let mut periods = 0u64;
    for k in 0..i64::try_from(e.period).ok()? {
        let v = value(e.from.checked_add(k)?)?;
        // After j periods the term is v + j·increment: past 0 once j·|increment| > |v|.
        periods = periods.max(v.unsigned_abs() / step + 1);
    }
    let from = i64::try_from(periods.checked_mul(e.period)?).ok()?.checked_add(e.from)?;
    (from <= LATEST_FROM).then_some(from)
}
