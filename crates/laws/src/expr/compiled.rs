//! The compiled form of an expression: a straight-line program evaluated on a block of cells at
//! once, one operation over every lane before the next ([`Program`]).
//!
//! The tree interpreter ([`super::eval`]) walks the syntax tree once per cell; a check of an
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

use super::{real_to_int, BinOp, EvalError, Expr, Func, Node, Type, Value, PHI};

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
        let mut builder =
            Builder { instrs: Vec::new(), types: Vec::new(), known: Vec::new(), ranges };
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

    /// Runs one instruction on `n` lanes.
    fn step(&self, instr: &Instr, inputs: &[Input<'_>], n: usize, s: &mut Scratch) {
        let out = instr.out;
        let mut ints = std::mem::take(&mut s.ints[out]);
        let mut reals = std::mem::take(&mut s.reals[out]);
        let mut fails = std::mem::take(&mut s.fails[out]);
        ints.resize(n, 0);
        reals.resize(n, 0.0);
        if instr.fails {
            fails.clear();
            fails.resize(n, false);
            // A failure in an operand is the result's, as the interpreter's `?` passes it on;
            // the lazy operations choose below which operands count in which lanes.
            if !matches!(instr.op, Op::And(..) | Op::Or(..) | Op::Select(..)) {
                for operand in instr.op.operands() {
                    if self.instrs[operand].fails {
                        or_into(&mut fails, &s.fails[operand][..n]);
                    }
                }
            }
        }
        let int = |r: Reg| &s.ints[r][..n];
        let real = |r: Reg| &s.reals[r][..n];
        let checked = instr.checked;
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
            Op::ToReal(a) => map(&mut reals, int(a), |x| x as f64),
            Op::IntBin(op, a, b) => int_bin(op, checked, int(a), int(b), &mut ints, &mut fails),
            Op::RealBin(op, a, b) => match op {
                BinOp::Add => zip(&mut reals, real(a), real(b), |x, y| x + y),
                BinOp::Sub => zip(&mut reals, real(a), real(b), |x, y| x - y),
                BinOp::Mul => zip(&mut reals, real(a), real(b), |x, y| x * y),
                BinOp::Div => zip(&mut reals, real(a), real(b), |x, y| x / y),
                BinOp::Rem => zip(&mut reals, real(a), real(b), f64::rem_euclid),
                _ => zip(&mut ints, real(a), real(b), |x, y| i64::from(compare_reals(op, x, y))),
            },
            Op::BoolEq(eq, a, b) => {
                zip(&mut ints, int(a), int(b), |x, y| i64::from((x == y) == eq))
            }
            Op::NegInt(a) if checked => {
                checked_map(&mut ints, &mut fails, int(a), i64::checked_neg)
            }
            Op::NegInt(a) => map(&mut ints, int(a), |x| x.wrapping_neg()),
            Op::NegReal(a) => map(&mut reals, real(a), |x| -x),
            Op::AbsInt(a) if checked => {
                checked_map(&mut ints, &mut fails, int(a), i64::checked_abs)
            }
            Op::AbsInt(a) => map(&mut ints, int(a), |x| x.wrapping_abs()),
            Op::AbsReal(a) => map(&mut reals, real(a), f64::abs),
            Op::Sqrt(a) => map(&mut reals, real(a), f64::sqrt),
            Op::Round(rounding, a) => {
                let round = |x: f64| match rounding {
                    Rounding::Floor => real_to_int(x.floor()),
                    Rounding::Ceil => real_to_int(x.ceil()),
                    Rounding::Exact => real_to_int(x.round()).filter(|&i| i as f64 == x),
                };
                if checked {
                    checked_map(&mut ints, &mut fails, real(a), round);
                } else {
                    // Known to be well inside i64: truncate, then step down (floor) or up
                    // (ceil) where the truncation went the other way; exact beyond 2^53 too,
                    // where every real is a whole number. No call to libm's floor: vectorised.
                    let (x, out) = (real(a), &mut ints);
                    match rounding {
                        Rounding::Floor => map(out, x, |x| {
                            let t = x as i64;
                            t - i64::from(t as f64 > x)
                        }),
                        Rounding::Ceil => map(out, x, |x| {
                            let t = x as i64;
                            t + i64::from((t as f64) < x)
                        }),
                        Rounding::Exact => map(out, x, |x| round(x).unwrap_or(0)),
                    }
                }
            }
            Op::Not(a) => map(&mut ints, int(a), |x| x ^ 1),
            Op::And(a, b) | Op::Or(a, b) => {
                let and = matches!(instr.op, Op::And(..));
                zip(&mut ints, int(a), int(b), |x, y| if and { x & y } else { x | y });
                if instr.fails {
                    // The right side is evaluated only where the left does not decide.
                    let deciding = if and { 1 } else { 0 };
                    for (k, fail) in fails.iter_mut().enumerate() {
                        let left_fails = self.instrs[a].fails && s.fails[a][k];
                        let right_counts = int(a)[k] == deciding;
                        let right_fails = self.instrs[b].fails && s.fails[b][k];
                        *fail = left_fails || (right_counts && right_fails);
                    }
                }
            }
            Op::Xor(a, b) => zip(&mut ints, int(a), int(b), |x, y| x ^ y),
            Op::MinInt(a, b) => zip(&mut ints, int(a), int(b), |x, y| if y < x { y } else { x }),
            Op::MaxInt(a, b) => zip(&mut ints, int(a), int(b), |x, y| if y > x { y } else { x }),
            Op::MinReal(a, b) => {
                zip(&mut reals, real(a), real(b), |x, y| if y < x { y } else { x })
            }
            Op::MaxReal(a, b) => {
                zip(&mut reals, real(a), real(b), |x, y| if y > x { y } else { x })
            }
            Op::Select(c, a, b) => {
                if self.types[out] == Type::Real {
                    select(&mut reals, int(c), real(a), real(b));
                } else {
                    select(&mut ints, int(c), int(a), int(b));
                }
                if instr.fails {
                    let failed = |r: Reg, k: usize| self.instrs[r].fails && s.fails[r][k];
                    for (k, fail) in fails.iter_mut().enumerate() {
                        let taken = if int(c)[k] != 0 { a } else { b };
                        *fail = failed(c, k) || failed(taken, k);
                    }
                }
            }
        }
        s.ints[out] = ints;
        s.reals[out] = reals;
        s.fails[out] = fails;
    }
}

impl Op {
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

fn select<T: Copy>(out: &mut [T], c: &[i64], a: &[T], b: &[T]) {
    for (((o, &c), &x), &y) in out.iter_mut().zip(c).zip(a).zip(b) {
        *o = if c != 0 { x } else { y };
    }
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
        (BinOp::Add, true) => checked_zip(out, fails, a, b, i64::checked_add),
        (BinOp::Sub, true) => checked_zip(out, fails, a, b, i64::checked_sub),
        (BinOp::Mul, true) => checked_zip(out, fails, a, b, i64::checked_mul),
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

/// Builds a program from a tree, with what is known of each register.
struct Builder<'r> {
    instrs: Vec<Instr>,
    types: Vec<Type>,
    known: Vec<Known>,
    ranges: &'r [Range],
}

impl Builder<'_> {
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

    fn round(&mut self, rounding: Rounding, reg: Reg) -> Reg {
        let (lo, hi, nan) = self.known[reg].real();
        // Well inside `real_to_int`'s bound, so that the rounding of the bounds cannot matter.
        let safe = !nan && lo.is_finite() && hi.is_finite() && lo.abs() < 1e18 && hi.abs() < 1e18;
        let checked = !safe || rounding == Rounding::Exact;
        let known = Known::Int(lo.floor() as i128, hi.ceil() as i128);
        let known = if safe { known } else { Known::clamped(i64::MIN as i128, i64::MAX as i128) };
        self.push(Op::Round(rounding, reg), Type::Int, known, checked)
    }

    /// Compiles `node`: its register and type.
    fn node(&mut self, node: &Node) -> (Reg, Type) {
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

#[cfg(test)]
mod tests;
