//! Compiling a tree into a [`Program`]: each node becomes an instruction writing its own
//! register, with what is known of the register's values (interval arithmetic in i128 over the
//! variables' ranges, and in f64 with a flag for NaN for reals). An operation is checked lane
//! by lane only where these bounds do not exclude its failure.

use super::{Instr, Op, Range, Reg, Rounding};
use crate::{BinOp, Func, Node, Type, Value, PHI};

/// What is known of a register's values at compile time.
#[derive(Clone, Copy, Debug)]
enum Known {
    Int(i128, i128),
    /// Bounds, and whether a lane may be NaN.
    Real(f64, f64, bool),
}

impl Known {
    fn int(self) -> (i128, i128) {
        match self {
            Known::Int(lo, hi) => (lo, hi),
            Known::Real(..) => (i64::MIN as i128, i64::MAX as i128),
        }
    }

    fn real(self) -> (f64, f64, bool) {
        match self {
            Known::Real(lo, hi, nan) => (lo, hi, nan),
            Known::Int(lo, hi) => (lo as f64, hi as f64, false),
        }
    }

    fn fits(lo: i128, hi: i128) -> bool {
        lo >= i64::MIN as i128 && hi <= i64::MAX as i128
    }

    /// An integer result within these bounds, clamped to i64 (an overflow is checked).
    fn clamped(lo: i128, hi: i128) -> Known {
        Known::Int(lo.max(i64::MIN as i128), hi.min(i64::MAX as i128))
    }

    fn real_of(values: [f64; 4], nan: bool) -> Known {
        let nan = nan || values.iter().any(|v| v.is_nan());
        let lo = values.iter().copied().filter(|v| !v.is_nan()).fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().filter(|v| !v.is_nan()).fold(f64::NEG_INFINITY, f64::max);
        if lo > hi {
            Known::Real(f64::NEG_INFINITY, f64::INFINITY, true)
        } else {
            Known::Real(lo, hi, nan)
        }
    }
}

/// Builds a program from a tree, with what is known of each register.
pub(super) struct Builder<'r> {
    pub(super) instrs: Vec<Instr>,
    pub(super) types: Vec<Type>,
    known: Vec<Known>,
    ranges: &'r [Range],
}

impl<'r> Builder<'r> {
    pub(super) fn new(ranges: &'r [Range]) -> Builder<'r> {
        Builder { instrs: Vec::new(), types: Vec::new(), known: Vec::new(), ranges }
    }

    fn push(&mut self, op: Op, ty: Type, known: Known, checked: bool) -> Reg {
        let out = self.instrs.len();
        let fails = checked || op.operands().iter().any(|&r| self.instrs[r].fails);
        self.instrs.push(Instr { op, out, fails, checked });
        self.types.push(ty);
        self.known.push(known);
        out
    }

    fn boolean(&mut self, op: Op) -> Reg {
        self.push(op, Type::Bool, Known::Int(0, 1), false)
    }

    fn as_real(&mut self, (reg, ty): (Reg, Type)) -> Reg {
        if ty == Type::Real {
            return reg;
        }
        let known = self.known[reg];
        let (lo, hi) = known.int();
        self.push(Op::ToReal(reg), Type::Real, Known::Real(lo as f64, hi as f64, false), false)
    }

    pub(super) fn round(&mut self, rounding: Rounding, reg: Reg) -> Reg {
        let (lo, hi, nan) = self.known[reg].real();
        // Well inside `real_to_int`'s bound, so that the rounding of the bounds cannot matter.
        let safe = !nan && lo.is_finite() && hi.is_finite() && lo.abs() < 1e18 && hi.abs() < 1e18;
        let checked = !safe || rounding == Rounding::Exact;
        let known = Known::Int(lo.floor() as i128, hi.ceil() as i128);
        let known = if safe { known } else { Known::clamped(i64::MIN as i128, i64::MAX as i128) };
        self.push(Op::Round(rounding, reg), Type::Int, known, checked)
    }

    /// Compiles `node`: its register and type.
    pub(super) fn node(&mut self, node: &Node) -> (Reg, Type) {
        match node {
            Node::Const(Value::Int(c)) => (
                self.push(Op::Int(*c), Type::Int, Known::Int(*c as i128, *c as i128), false),
                Type::Int,
            ),
            Node::Const(Value::Bool(b)) => {
                let c = i64::from(*b);
                (
                    self.push(Op::Int(c), Type::Bool, Known::Int(c as i128, c as i128), false),
                    Type::Bool,
                )
            }
            Node::Const(Value::Real(r)) => (self.real_constant(*r), Type::Real),
            Node::Phi => (self.real_constant(PHI), Type::Real),
            Node::Var(slot) => {
                let Range { lo, hi } = self.ranges.get(*slot).copied().unwrap_or(Range::ANY);
                (
                    self.push(Op::Var(*slot), Type::Int, Known::Int(lo as i128, hi as i128), false),
                    Type::Int,
                )
            }
            Node::Neg(inner) => {
                let (a, ty) = self.node(inner);
                if ty == Type::Real {
                    let (lo, hi, nan) = self.known[a].real();
                    return (self.push(Op::NegReal(a), ty, Known::Real(-hi, -lo, nan), false), ty);
                }
                let (lo, hi) = self.known[a].int();
                let checked = !Known::fits(-hi, -lo);
                (self.push(Op::NegInt(a), ty, Known::clamped(-hi, -lo), checked), ty)
            }
            Node::Not(inner) => {
                let (a, _) = self.node(inner);
                (self.boolean(Op::Not(a)), Type::Bool)
            }
            Node::Bin(op @ (BinOp::And | BinOp::Or), left, right, _) => {
                let (a, _) = self.node(left);
                let (b, _) = self.node(right);
                let op = if *op == BinOp::And { Op::And(a, b) } else { Op::Or(a, b) };
                (self.boolean(op), Type::Bool)
            }
            Node::Bin(op, left, right, integers) => {
                let l = self.node(left);
                let r = self.node(right);
                self.binary(*op, l, r, *integers)
            }
            Node::Call(func, args, ty) => self.call(*func, args, *ty),
        }
    }

    fn real_constant(&mut self, r: f64) -> Reg {
        self.push(Op::Real(r), Type::Real, Known::Real(r, r, r.is_nan()), false)
    }

    fn binary(
        &mut self,
        op: BinOp,
        (a, ta): (Reg, Type),
        (b, tb): (Reg, Type),
        integers: bool,
    ) -> (Reg, Type) {
        let comparison =
            matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        if ta == Type::Bool && tb == Type::Bool {
            return (self.boolean(Op::BoolEq(op == BinOp::Eq, a, b)), Type::Bool);
        }
        if integers {
            if comparison {
                return (self.boolean(Op::IntBin(op, a, b)), Type::Bool);
            }
            let ((alo, ahi), (blo, bhi)) = (self.known[a].int(), self.known[b].int());
            let corners = |f: fn(i128, i128) -> i128| {
                let v = [f(alo, blo), f(alo, bhi), f(ahi, blo), f(ahi, bhi)];
                (*v.iter().min().unwrap(), *v.iter().max().unwrap())
            };
            let (lo, hi, checked) = match op {
                BinOp::Add => (alo + blo, ahi + bhi, false),
                BinOp::Sub => (alo - bhi, ahi - blo, false),
                BinOp::Mul => {
                    let (lo, hi) = corners(|x, y| x.saturating_mul(y));
                    (lo, hi, false)
                }
                BinOp::Div => {
                    let zero = blo <= 0 && bhi >= 0;
                    let min_by_minus_one = alo == i64::MIN as i128 && blo <= -1 && bhi >= -1;
                    let (lo, hi) = if blo >= 1 {
                        corners(|x, y| x.div_euclid(y))
                    } else {
                        let most = alo.abs().max(ahi.abs());
                        (-most, most)
                    };
                    (lo, hi, zero || min_by_minus_one)
                }
                _ => {
                    let zero = blo <= 0 && bhi >= 0;
                    let most = blo.abs().max(bhi.abs());
                    let min_by_minus_one = alo == i64::MIN as i128 && blo <= -1 && bhi >= -1;
                    (0, (most - 1).max(0), zero || min_by_minus_one)
                }
            };
            let checked = checked || !Known::fits(lo, hi);
            return (
                self.push(Op::IntBin(op, a, b), Type::Int, Known::clamped(lo, hi), checked),
                Type::Int,
            );
        }
        let a = self.as_real((a, ta));
        let b = self.as_real((b, tb));
        if comparison {
            return (self.boolean(Op::RealBin(op, a, b)), Type::Bool);
        }
        let ((alo, ahi, anan), (blo, bhi, bnan)) = (self.known[a].real(), self.known[b].real());
        let nan = anan || bnan;
        let corners = |f: fn(f64, f64) -> f64| [f(alo, blo), f(alo, bhi), f(ahi, blo), f(ahi, bhi)];
        let known = match op {
            BinOp::Add => Known::real_of(corners(|x, y| x + y), nan),
            BinOp::Sub => Known::real_of(corners(|x, y| x - y), nan),
            BinOp::Mul => Known::real_of(corners(|x, y| x * y), nan),
            BinOp::Div if blo > 0.0 || bhi < 0.0 => Known::real_of(corners(|x, y| x / y), nan),
            BinOp::Rem if (blo > 0.0 || bhi < 0.0) && bhi.is_finite() && blo.is_finite() => {
                let most = blo.abs().max(bhi.abs());
                Known::Real(0.0, most, nan || !alo.is_finite() || !ahi.is_finite())
            }
            _ => Known::Real(f64::NEG_INFINITY, f64::INFINITY, true),
        };
        (self.push(Op::RealBin(op, a, b), Type::Real, known, false), Type::Real)
    }

    fn call(&mut self, func: Func, args: &[Node], ty: Type) -> (Reg, Type) {
        if func == Func::If {
            let (c, _) = self.node(&args[0]);
            let mut then = self.node(&args[1]);
            let mut other = self.node(&args[2]);
            if ty == Type::Real {
                then = (self.as_real(then), Type::Real);
                other = (self.as_real(other), Type::Real);
            }
            let known = match (self.known[then.0], self.known[other.0]) {
                (Known::Int(a, b), Known::Int(c, d)) => Known::Int(a.min(c), b.max(d)),
                (x, y) => {
                    let ((a, b, n), (c, d, m)) = (x.real(), y.real());
                    Known::Real(a.min(c), b.max(d), n || m)
                }
            };
            return (self.push(Op::Select(c, then.0, other.0), ty, known, false), ty);
        }
        let first = self.node(&args[0]);
        match func {
            Func::Floor | Func::Ceil if first.1 == Type::Int => first,
            Func::Floor => (self.round(Rounding::Floor, first.0), Type::Int),
            Func::Ceil => (self.round(Rounding::Ceil, first.0), Type::Int),
            Func::Sqrt => {
                let a = self.as_real(first);
                let (lo, hi, nan) = self.known[a].real();
                let known = Known::Real(lo.max(0.0).sqrt(), hi.max(0.0).sqrt(), nan || lo < 0.0);
                (self.push(Op::Sqrt(a), Type::Real, known, false), Type::Real)
            }
            Func::Abs if first.1 == Type::Int => {
                let (lo, hi) = self.known[first.0].int();
                let top = lo.abs().max(hi.abs());
                let bottom = if lo <= 0 && hi >= 0 { 0 } else { lo.abs().min(hi.abs()) };
                let checked = !Known::fits(bottom, top);
                (
                    self.push(Op::AbsInt(first.0), Type::Int, Known::clamped(bottom, top), checked),
                    Type::Int,
                )
            }
            Func::Abs => {
                let (lo, hi, nan) = self.known[first.0].real();
                let top = lo.abs().max(hi.abs());
                let bottom = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { lo.abs().min(hi.abs()) };
                (
                    self.push(
                        Op::AbsReal(first.0),
                        Type::Real,
                        Known::Real(bottom, top, nan),
                        false,
                    ),
                    Type::Real,
                )
            }
            Func::Xor => {
                let (b, _) = self.node(&args[1]);
                let ((alo, ahi), (blo, bhi)) = (self.known[first.0].int(), self.known[b].int());
                let known = if alo >= 0 && blo >= 0 {
                    let top = ahi.max(bhi) as u128;
                    Known::Int(0, (top + 1).next_power_of_two() as i128 - 1)
                } else {
                    Known::Int(i64::MIN as i128, i64::MAX as i128)
                };
                (self.push(Op::Xor(first.0, b), Type::Int, known, false), Type::Int)
            }
            Func::Min | Func::Max => {
                let min = func == Func::Min;
                let mut best = first;
                for arg in &args[1..] {
                    let next = self.node(arg);
                    best = self.extreme(min, ty, best, next);
                }
                best
            }
            Func::If => unreachable!("handled above"),
        }
    }

    /// `min` or `max` of two registers, in type `ty`.
    fn extreme(&mut self, min: bool, ty: Type, a: (Reg, Type), b: (Reg, Type)) -> (Reg, Type) {
        if ty == Type::Int {
            let ((alo, ahi), (blo, bhi)) = (self.known[a.0].int(), self.known[b.0].int());
            let known = if min {
                Known::Int(alo.min(blo), ahi.min(bhi))
            } else {
                Known::Int(alo.max(blo), ahi.max(bhi))
            };
            let op = if min { Op::MinInt(a.0, b.0) } else { Op::MaxInt(a.0, b.0) };
            return (self.push(op, Type::Int, known, false), Type::Int);
        }
        let (x, y) = (self.as_real(a), self.as_real(b));
        let ((alo, ahi, an), (blo, bhi, bn)) = (self.known[x].real(), self.known[y].real());
        let known = Known::Real(alo.min(blo), ahi.max(bhi), an || bn);
        let op = if min { Op::MinReal(x, y) } else { Op::MaxReal(x, y) };
        (self.push(op, Type::Real, known, false), Type::Real)
    }
}
