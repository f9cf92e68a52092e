//! The compiled form of an expression: a straight-line program evaluated on a block of cells at
//! once, one operation over every lane before the next ([`Program`]).
//!
//! The tree interpreter ([`Expr::eval`]) walks the syntax tree once per cell; a check of an
//! 8000² table walks it 64 million times. A program walks its instructions once per block of
//! [`LANES`] cells, and each instruction is a loop the compiler vectorises.
//!
//! The program gives exactly the interpreter's values, and fails exactly where it fails:
//!
//! - Every instruction that may fail (an overflow, a division by zero, a real that is not an
//!   integer) marks its failing lanes, and a failure travels to the result the way the
//!   interpreter's `?` does. `&&`, `||` and `if` evaluate both sides but keep a side's failure
//!   only in the lanes where the interpreter would have evaluated that side.
//! - Whether an instruction may fail is decided at compile time from the ranges of the
//!   variables ([`Range`], interval arithmetic in i128 and f64): `xor(a, b)` on a table's
//!   coordinates cannot overflow, so it runs without checks. A lane that fails is handed back
//!   ([`Lanes::first_failure`]) for the interpreter to name the error.
//!
//! A claim whose form repeats ([`super::Expr::periods`]) and that reads no value is not even
//! run: [`Compiled::Lookup`] reads it from one period of residues.

use super::{real_to_int, BinOp, EvalError, Expr, Type};
use build::Builder;

/// Cells a program evaluates at once.
pub const LANES: usize = 256;

/// The values a variable takes where a program runs: every value from `lo` to `hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The least value.
    pub lo: i64,
    /// The greatest value.
    pub hi: i64,
}

impl Range {
    /// Every 64-bit integer: a variable about which nothing is known.
    pub const ANY: Range = Range { lo: i64::MIN, hi: i64::MAX };
}

/// A variable's values on a block of cells.
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    /// The same value in every lane (an axis other than the row's).
    Splat(i64),
    /// `start`, `start + 1`, ...: the row's own axis.
    Ramp(i64),
    /// One value per lane (a cell's value `g`).
    Lanes(&'a [i64]),
}

/// An expression compiled for a table: run as a program, or read from one period.
#[derive(Clone, Debug)]
pub enum Compiled {
    /// A straight-line program.
    Program(Program),
    /// The values over one period of residues of every variable (row-major over the
    /// variables, each from residue 0), and the periods.
    Lookup {
        /// The period of each variable.
        periods: Vec<u64>,
        /// The values, the last variable's residue varying fastest.
        values: Vec<i64>,
    },
}

/// The largest period box a lookup holds.
const LARGEST_LOOKUP: u64 = 1 << 16;

impl Compiled {
    /// `expr` compiled for variables within `ranges` (one per variable, in the expression's
    /// order). A result of type real is converted to an integer as [`Expr::eval_int`] does.
    pub fn new(expr: &Expr, ranges: &[Range]) -> Compiled {
        let program = Program::new(expr, ranges);
        // A lookup gives the values of a program that cannot fail: where the program may
        // overflow, the residues would hide it.
        let lookup = if program.may_fail() { None } else { Compiled::lookup(expr) };
        lookup.unwrap_or(Compiled::Program(program))
    }

    /// The lookup of a claim that repeats in every variable, when its period box is small and
    /// no residue fails (a failure is left to the program, which finds where it first occurs).
    fn lookup(expr: &Expr) -> Option<Compiled> {
        let periods = expr.periods()?;
        let cells = periods.iter().try_fold(1u64, |n, &p| n.checked_mul(p))?;
        if cells > LARGEST_LOOKUP {
            return None;
        }
        let mut values = Vec::with_capacity(cells as usize);
        let mut vars = vec![0i64; periods.len()];
        for k in 0..cells {
            let mut rest = k;
            for (var, &p) in vars.iter_mut().zip(&periods).rev() {
                *var = (rest % p) as i64;
                rest /= p;
            }
            values.push(result_lane(expr, &vars).ok()?);
        }
        Some(Compiled::Lookup { periods, values })
    }

    /// Evaluates `lanes` cells (at most [`LANES`]) whose variables are `inputs`.
    pub fn run<'s>(
        &self,
        inputs: &[Input<'_>],
        lanes: usize,
        scratch: &'s mut Scratch,
    ) -> Lanes<'s> {
        debug_assert!(lanes <= LANES);
        match self {
            Compiled::Program(program) => program.run(inputs, lanes, scratch),
            Compiled::Lookup { periods, values } => {
                let out = &mut scratch.result;
                out.clear();
                if let Some(row) = lookup_row(inputs, periods) {
                    // A row of a table: the fixed variables give a base, and the row's own
                    // variable steps through its residues.
                    let (base, stride, period, mut residue) = row;
                    for _ in 0..lanes {
                        out.push(values[base + residue * stride]);
                        residue += 1;
                        if residue == period {
                            residue = 0;
                        }
                    }
                    return Lanes { values: out, first_failure: None };
                }
                for lane in 0..lanes {
                    let mut k = 0usize;
                    for (input, &p) in inputs.iter().zip(periods) {
                        let v = match *input {
                            Input::Splat(v) => v,
                            Input::Ramp(start) => start + lane as i64,
                            Input::Lanes(values) => values[lane],
                        };
                        k = k * p as usize + v.rem_euclid(p as i64) as usize;
                    }
                    out.push(values[k]);
                }
                Lanes { values: out, first_failure: None }
            }
        }
    }

    /// Working space for [`Compiled::run`].
    pub fn scratch(&self) -> Scratch {
        let registers = match self {
            Compiled::Program(program) => program.types.len(),
            Compiled::Lookup { .. } => 0,
        };
        Scratch {
            ints: vec![Vec::new(); registers],
            reals: vec![Vec::new(); registers],
            fails: vec![Vec::new(); registers],
            result: Vec::with_capacity(LANES),
        }
    }
}

/// Where a lookup's row starts when every variable is fixed but one ramp: the index of the
/// fixed residues, the ramp's stride in the lookup, its period and its first residue.
fn lookup_row(inputs: &[Input<'_>], periods: &[u64]) -> Option<(usize, usize, usize, usize)> {
    let (mut base, mut stride, mut ramp) = (0usize, 1usize, None);
    for (input, &p) in inputs.iter().zip(periods).rev() {
        let residue = |v: i64| v.rem_euclid(p as i64) as usize;
        match *input {
            Input::Splat(v) => base += residue(v) * stride,
            Input::Ramp(start) if ramp.is_none() => {
                ramp = Some((stride, p as usize, residue(start)))
            }
            _ if p == 1 => {}
            _ => return None,
        }
        stride *= p as usize;
    }
    let (stride, period, first) = ramp.unwrap_or((0, 1, 0));
    Some((base, stride, period, first))
}

/// A lane's result as the program gives it: a condition as 0 or 1, an integer, a real as the
/// integer it is.
fn result_lane(expr: &Expr, vars: &[i64]) -> Result<i64, EvalError> {
    match expr.ty() {
        Type::Bool => expr.eval_bool(vars).map(i64::from),
        _ => expr.eval_int(vars),
    }
}

/// The results of one run: one per lane (a condition as 0 or 1), valid before the first lane
/// that fails.
pub struct Lanes<'s> {
    /// The results.
    pub values: &'s [i64],
    /// The first lane whose evaluation fails, if one does: the interpreter names its error.
    pub first_failure: Option<usize>,
}

/// Registers of a program's runs, allocated once per thread.
#[derive(Clone, Debug)]
pub struct Scratch {
    ints: Vec<Vec<i64>>,
    reals: Vec<Vec<f64>>,
    fails: Vec<Vec<bool>>,
    result: Vec<i64>,
}

type Reg = usize;

/// One instruction: its operation and the register it writes.
#[derive(Clone, Debug)]
struct Instr {
    op: Op,
    out: Reg,
    /// Whether a lane of this instruction may fail, by itself or through an operand.
    fails: bool,
    /// Whether the operation itself may fail (so it must be checked lane by lane).
    checked: bool,
}

#[derive(Clone, Debug)]
enum Op {
    Int(i64),
    Real(f64),
    Var(usize),
    ToReal(Reg),
    IntBin(BinOp, Reg, Reg),
    RealBin(BinOp, Reg, Reg),
    BoolEq(bool, Reg, Reg),
    NegInt(Reg),
    NegReal(Reg),
    AbsInt(Reg),
    AbsReal(Reg),
    Sqrt(Reg),
    Round(Rounding, Reg),
    Not(Reg),
    And(Reg, Reg),
    Or(Reg, Reg),
    Xor(Reg, Reg),
    MinInt(Reg, Reg),
    MaxInt(Reg, Reg),
    MinReal(Reg, Reg),
    MaxReal(Reg, Reg),
    Select(Reg, Reg, Reg),
}

/// How a real becomes an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rounding {
    Floor,
    Ceil,
    /// Only a whole number does (a values claim of type real).
    Exact,
}

/// A straight-line program: the expression's nodes in evaluation order, each writing its own
/// register.
#[derive(Clone, Debug)]
pub struct Program {
    instrs: Vec<Instr>,
    types: Vec<Type>,
    result: Reg,
}

impl Program {
    fn new(expr: &Expr, ranges: &[Range]) -> Program {
        let mut builder = Builder::new(ranges);
        let (mut result, ty) = builder.node(expr.root());
        if ty == Type::Real {
            result = builder.round(Rounding::Exact, result);
        }
        Program { instrs: builder.instrs, types: builder.types, result }
    }

    /// Whether some lane may fail: a claim that cannot fail on its table runs without checks.
    pub fn may_fail(&self) -> bool {
        self.instrs.iter().any(|instr| instr.fails)
    }

    fn run<'s>(&self, inputs: &[Input<'_>], n: usize, s: &'s mut Scratch) -> Lanes<'s> {
        for instr in &self.instrs {
            self.step(instr, inputs, n, s);
        }
        let failed = &s.fails[self.result];
        let first_failure =
            if self.instrs[self.result].fails { failed[..n].iter().position(|&f| f) } else { None };
        Lanes { values: &s.ints[self.result][..n], first_failure }
    }

    /// Runs one instruction on `n` lanes: its failures from its operands, its values, then the
    /// failures of the lazy operations, lane by lane.
    fn step(&self, instr: &Instr, inputs: &[Input<'_>], n: usize, s: &mut Scratch) {
        let out = instr.out;
        let mut lanes = Out {
            ints: std::mem::take(&mut s.ints[out]),
            reals: std::mem::take(&mut s.reals[out]),
            fails: std::mem::take(&mut s.fails[out]),
        };
        lanes.ints.resize(n, 0);
        lanes.reals.resize(n, 0.0);
        if instr.fails {
            lanes.fails.clear();
            lanes.fails.resize(n, false);
            if instr.op.is_lazy() {
                self.lazy_failures(instr, n, s, &mut lanes.fails);
            } else {
                // A failure in an operand is the result's, as the interpreter's `?` passes it on.
                for operand in instr.op.operands() {
                    if self.instrs[operand].fails {
                        or_into(&mut lanes.fails, &s.fails[operand][..n]);
                    }
                }
            }
        }
        self.compute(instr, inputs, n, s, &mut lanes);
        s.ints[out] = lanes.ints;
        s.reals[out] = lanes.reals;
        s.fails[out] = lanes.fails;
    }

    /// The failures of `&&`, `||` and `if`: an operand's failure counts only in the lanes where
    /// the interpreter evaluates that operand (the right side where the left does not decide,
    /// the branch taken).
    fn lazy_failures(&self, instr: &Instr, n: usize, s: &Scratch, fails: &mut [bool]) {
        let failed = |r: Reg, k: usize| self.instrs[r].fails && s.fails[r][k];
        let int = |r: Reg| &s.ints[r][..n];
        match instr.op {
            Op::And(a, b) | Op::Or(a, b) => {
                let deciding = i64::from(matches!(instr.op, Op::And(..)));
                for (k, fail) in fails.iter_mut().enumerate() {
                    *fail = failed(a, k) || (int(a)[k] == deciding && failed(b, k));
                }
            }
            Op::Select(c, a, b) => {
                for (k, fail) in fails.iter_mut().enumerate() {
                    let taken = if int(c)[k] != 0 { a } else { b };
                    *fail = failed(c, k) || failed(taken, k);
                }
            }
            _ => unreachable!("only the lazy operations"),
        }
    }

    /// The values of one instruction on `n` lanes (and the failures of a checked operation).
    fn compute(&self, instr: &Instr, inputs: &[Input<'_>], n: usize, s: &Scratch, out: &mut Out) {
        let int = |r: Reg| &s.ints[r][..n];
        let real = |r: Reg| &s.reals[r][..n];
        let checked = instr.checked;
        let Out { ints, reals, fails } = out;
        match instr.op {
            Op::Int(c) => ints.fill(c),
            Op::Real(c) => reals.fill(c),
            Op::Var(slot) => match inputs[slot] {
                Input::Splat(v) => ints.fill(v),
                Input::Ramp(start) => {
                    for (k, x) in ints.iter_mut().enumerate() {
                        *x = start + k as i64;
                    }
                }
                Input::Lanes(values) => ints.copy_from_slice(&values[..n]),
            },
            Op::ToReal(a) => map(reals, int(a), |x| x as f64),
            Op::IntBin(op, a, b) => int_bin(op, checked, int(a), int(b), ints, fails),
            Op::RealBin(op, a, b) => match op {
                BinOp::Add => zip(reals, real(a), real(b), |x, y| x + y),
                BinOp::Sub => zip(reals, real(a), real(b), |x, y| x - y),
                BinOp::Mul => zip(reals, real(a), real(b), |x, y| x * y),
                BinOp::Div => zip(reals, real(a), real(b), |x, y| x / y),
                BinOp::Rem => zip(reals, real(a), real(b), f64::rem_euclid),
                _ => zip(ints, real(a), real(b), |x, y| i64::from(compare_reals(op, x, y))),
            },
            Op::BoolEq(eq, a, b) => zip(ints, int(a), int(b), |x, y| i64::from((x == y) == eq)),
            Op::NegInt(a) if checked => checked_map(ints, fails, int(a), i64::checked_neg),
            Op::NegInt(a) => map(ints, int(a), |x| x.wrapping_neg()),
            Op::NegReal(a) => map(reals, real(a), |x| -x),
            Op::AbsInt(a) if checked => checked_map(ints, fails, int(a), i64::checked_abs),
            Op::AbsInt(a) => map(ints, int(a), |x| x.wrapping_abs()),
            Op::AbsReal(a) => map(reals, real(a), f64::abs),
            Op::Sqrt(a) => map(reals, real(a), f64::sqrt),
            Op::Round(rounding, a) => round(rounding, checked, real(a), ints, fails),
            Op::Not(a) => map(ints, int(a), |x| x ^ 1),
            Op::And(a, b) => zip(ints, int(a), int(b), |x, y| x & y),
            Op::Or(a, b) => zip(ints, int(a), int(b), |x, y| x | y),
            Op::Xor(a, b) => zip(ints, int(a), int(b), |x, y| x ^ y),
            Op::MinInt(a, b) => zip(ints, int(a), int(b), |x, y| if y < x { y } else { x }),
            Op::MaxInt(a, b) => zip(ints, int(a), int(b), |x, y| if y > x { y } else { x }),
            Op::MinReal(a, b) => zip(reals, real(a), real(b), |x, y| if y < x { y } else { x }),
            Op::MaxReal(a, b) => zip(reals, real(a), real(b), |x, y| if y > x { y } else { x }),
            Op::Select(c, a, b) if self.types[instr.out] == Type::Real => {
                select(reals, int(c), real(a), real(b));
            }
            Op::Select(c, a, b) => select(ints, int(c), int(a), int(b)),
        }
    }
}

/// The registers an instruction writes, taken from the scratch while it runs.
struct Out {
    ints: Vec<i64>,
    reals: Vec<f64>,
    fails: Vec<bool>,
}

/// A real as an integer on every lane: checked lane by lane where it may fail.
fn round(rounding: Rounding, checked: bool, x: &[f64], ints: &mut [i64], fails: &mut [bool]) {
    let exact = |x: f64| match rounding {
        Rounding::Floor => real_to_int(x.floor()),
        Rounding::Ceil => real_to_int(x.ceil()),
        Rounding::Exact => real_to_int(x.round()).filter(|&i| i as f64 == x),
    };
    if checked {
        return checked_map(ints, fails, x, exact);
    }
    // Known to be well inside i64: truncate, then step down (floor) or up (ceil) where the
    // truncation went the other way; exact beyond 2^53 too, where every real is a whole number.
    // No call to libm's floor: vectorised.
    match rounding {
        Rounding::Floor => map(ints, x, |x| {
            let t = x as i64;
            t - i64::from(t as f64 > x)
        }),
        Rounding::Ceil => map(ints, x, |x| {
            let t = x as i64;
            t + i64::from((t as f64) < x)
        }),
        Rounding::Exact => map(ints, x, |x| exact(x).unwrap_or(0)),
    }
}

impl Op {
    /// `&&`, `||` and `if`, which the interpreter evaluates lazily.
    fn is_lazy(&self) -> bool {
        matches!(self, Op::And(..) | Op::Or(..) | Op::Select(..))
    }

    fn operands(&self) -> Vec<Reg> {
        match *self {
            Op::Int(_) | Op::Real(_) | Op::Var(_) => Vec::new(),
            Op::ToReal(a)
            | Op::NegInt(a)
            | Op::NegReal(a)
            | Op::AbsInt(a)
            | Op::AbsReal(a)
            | Op::Sqrt(a)
            | Op::Round(_, a)
            | Op::Not(a) => vec![a],
            Op::IntBin(_, a, b)
            | Op::RealBin(_, a, b)
            | Op::BoolEq(_, a, b)
            | Op::And(a, b)
            | Op::Or(a, b)
            | Op::Xor(a, b)
            | Op::MinInt(a, b)
            | Op::MaxInt(a, b)
            | Op::MinReal(a, b)
            | Op::MaxReal(a, b) => vec![a, b],
            Op::Select(c, a, b) => vec![c, a, b],
        }
    }
}

fn compare_reals(op: BinOp, x: f64, y: f64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

fn or_into(fails: &mut [bool], more: &[bool]) {
    for (f, &m) in fails.iter_mut().zip(more) {
        *f |= m;
    }
}

#[inline(always)]
fn map<A: Copy, T>(out: &mut [T], a: &[A], f: impl Fn(A) -> T) {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = f(x);
    }
}

#[inline(always)]
fn zip<A: Copy, T>(out: &mut [T], a: &[A], b: &[A], f: impl Fn(A, A) -> T) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = f(x, y);
    }
}

#[inline(always)]
fn checked_map<A: Copy>(
    out: &mut [i64],
    fails: &mut [bool],
    a: &[A],
    f: impl Fn(A) -> Option<i64>,
) {
    for ((o, fail), &x) in out.iter_mut().zip(fails.iter_mut()).zip(a) {
        match f(x) {
            Some(v) => *o = v,
            None => *fail = true,
        }
    }
}

#[inline(always)]
fn checked_zip(
    out: &mut [i64],
    fails: &mut [bool],
    a: &[i64],
    b: &[i64],
    f: impl Fn(i64, i64) -> Option<i64>,
) {
    for (((o, fail), &x), &y) in out.iter_mut().zip(fails.iter_mut()).zip(a).zip(b) {
        match f(x, y) {
            Some(v) => *o = v,
            None => *fail = true,
        }
    }
}

/// A checked operation without a branch: the wrapped value, and the lane marked failed when it
/// overflowed (its value is then never read).
#[inline(always)]
fn overflowing_zip(
    out: &mut [i64],
    fails: &mut [bool],
    a: &[i64],
    b: &[i64],
    f: impl Fn(i64, i64) -> (i64, bool),
) {
    for (((o, fail), &x), &y) in out.iter_mut().zip(fails.iter_mut()).zip(a).zip(b) {
        let (v, overflowed) = f(x, y);
        *o = v;
        *fail |= overflowed;
    }
}

fn select<T: Copy>(out: &mut [T], c: &[i64], a: &[T], b: &[T]) {
    for (((o, &c), &x), &y) in out.iter_mut().zip(c).zip(a).zip(b) {
        *o = if c != 0 { x } else { y };
    }
}

/// The integer operations of two operands that the formula synthesis builds formulas from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `+ - * / %` (and the comparisons, which the synthesis does not build).
    Bin(BinOp),
    /// `xor(x, y)`.
    Xor,
    /// `min(x, y)`.
    Min,
    /// `max(x, y)`.
    Max,
}

/// `op` on every lane of `a` and `b` into `out`, checked as a check's program runs it: whether
/// no lane failed (an overflow, a division by zero). The synthesis computes its formulas'
/// values on the sample cells with it: one evaluator for the synthesis and the checks.
pub fn int_rows(op: IntOp, a: &[i64], b: &[i64], out: &mut [i64], fails: &mut [bool]) -> bool {
    fails.fill(false);
    match op {
        IntOp::Bin(op) => int_bin(op, true, a, b, out, fails),
        IntOp::Xor => zip(out, a, b, |x, y| x ^ y),
        IntOp::Min => zip(out, a, b, |x, y| if y < x { y } else { x }),
        IntOp::Max => zip(out, a, b, |x, y| if y > x { y } else { x }),
    }
    !fails.contains(&true)
}

/// `|x|` on every lane, checked: whether no lane overflowed (`|i64::MIN|`).
pub fn abs_rows(a: &[i64], out: &mut [i64], fails: &mut [bool]) -> bool {
    fails.fill(false);
    checked_map(out, fails, a, i64::checked_abs);
    !fails.contains(&true)
}

/// An integer operation on every lane, checked lane by lane when it may fail.
fn int_bin(op: BinOp, checked: bool, a: &[i64], b: &[i64], out: &mut [i64], fails: &mut [bool]) {
    let cmp = |f: fn(&i64, &i64) -> bool| move |x: i64, y: i64| i64::from(f(&x, &y));
    match (op, checked) {
        (BinOp::Add, false) => zip(out, a, b, i64::wrapping_add),
        (BinOp::Sub, false) => zip(out, a, b, i64::wrapping_sub),
        (BinOp::Mul, false) => zip(out, a, b, i64::wrapping_mul),
        // Known not to fail, except in lanes an operand failed in, whose values are stale: a
        // zero there must not stop the run.
        (BinOp::Div, false) => zip(out, a, b, |x, y| x.checked_div_euclid(y).unwrap_or(0)),
        (BinOp::Rem, false) => zip(out, a, b, |x, y| x.checked_rem_euclid(y).unwrap_or(0)),
        (BinOp::Add, true) => overflowing_zip(out, fails, a, b, i64::overflowing_add),
        (BinOp::Sub, true) => overflowing_zip(out, fails, a, b, i64::overflowing_sub),
        (BinOp::Mul, true) => overflowing_zip(out, fails, a, b, i64::overflowing_mul),
        (BinOp::Div, true) => checked_zip(out, fails, a, b, i64::checked_div_euclid),
        (BinOp::Rem, true) => checked_zip(out, fails, a, b, i64::checked_rem_euclid),
        (BinOp::Eq, _) => zip(out, a, b, cmp(i64::eq)),
        (BinOp::Ne, _) => zip(out, a, b, cmp(i64::ne)),
        (BinOp::Lt, _) => zip(out, a, b, cmp(i64::lt)),
        (BinOp::Le, _) => zip(out, a, b, cmp(i64::le)),
        (BinOp::Gt, _) => zip(out, a, b, cmp(i64::gt)),
        (BinOp::Ge, _) => zip(out, a, b, cmp(i64::ge)),
        (BinOp::And | BinOp::Or, _) => unreachable!("conditions are joined by And and Or"),
    }
}

mod build;
#[cfg(test)]
mod tests;
