//! The expression language of `grundy check` and of the rules `grundy patterns` prints.
#![warn(missing_docs)]
//!
//! Integers (`i64`), reals (`f64`) and booleans; `+ - * / %` (on integers `/` and `%` are floor
//! division and a non-negative remainder, so `n % 2 == 1` means "n odd" for any sign),
//! comparisons, `&& || !`, parentheses, the functions `floor ceil sqrt abs min max xor if` and the
//! constant `phi`, the golden ratio.
//!
//! An expression is parsed and type-checked once ([`Expr::parse`]) and then evaluated per cell
//! against a slice of variable values in a fixed order, with no lookups by name.
//!
//! Why not an expression crate: the language must report the column of a syntax error, refuse an
//! unknown variable before any cell is evaluated, keep integer arithmetic exact, and evaluate
//! 16 million cells in a few seconds. A tree of typed nodes over variable slots does all four in
//! a few hundred lines; the crates we looked at (evalexpr) report no positions and resolve
//! variables by name at every evaluation.

use std::fmt;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// A whole number.
    Int,
    /// A real number.
    Real,
    /// True or false.
    Bool,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "an integer",
            Type::Real => "a real number",
            Type::Bool => "a condition",
        })
    }
}

/// A value an expression evaluates to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A real number.
    Real(f64),
    /// True or false.
    Bool(bool),
}

impl Value {
    fn real(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Real(r) => r,
            Value::Bool(_) => unreachable!("type-checked"),
        }
    }

    fn int(self) -> i64 {
        match self {
            Value::Int(i) => i,
            _ => unreachable!("type-checked"),
        }
    }

    fn bool(self) -> bool {
        match self {
            Value::Bool(b) => b,
            _ => unreachable!("type-checked"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => i.fmt(f),
            Value::Real(r) => r.fmt(f),
            Value::Bool(b) => b.fmt(f),
        }
    }
}

/// Why an expression was refused; one line, with the column (counted from 1) where it applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// The expression as given.
    pub expression: String,
    /// The 1-based column of the problem, if it has one.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(
                f,
                "bad expression `{}` at column {column}: {}",
                self.expression, self.message
            ),
            None => write!(f, "bad expression `{}`: {}", self.expression, self.message),
        }
    }
}

impl std::error::Error for ExprError {}

/// Why an evaluation failed at one cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A division or remainder by zero.
    DivisionByZero,
    /// A result outside the 64-bit integers.
    Overflow,
    /// A real number (NaN, infinite or too large) where an integer was needed.
    NotAnInteger,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalError::DivisionByZero => "division by zero",
            EvalError::Overflow => "integer overflow",
            EvalError::NotAnInteger => "a real number that is not a finite integer",
        })
    }
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`: floor division on integers.
    Div,
    /// `%`: the non-negative remainder on integers.
    Rem,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `&&`.
    And,
    /// `||`.
    Or,
}

/// A function of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// `floor(x)`.
    Floor,
    /// `ceil(x)`.
    Ceil,
    /// `sqrt(x)`.
    Sqrt,
    /// `abs(x)`.
    Abs,
    /// `min(x, y)`.
    Min,
    /// `max(x, y)`.
    Max,
    /// `xor(x, y)`: the bitwise exclusive or of two non-negative integers.
    Xor,
    /// `if(c, x, y)`.
    If,
}

/// What a claim's variable reads, slot by slot (the claim's variables are the conjecture's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A coordinate.
    Axis(usize),
    /// The table's value on this axis' edge at the cell's coordinate on it.
    Edge(usize),
    /// The cell's value, `g`.
    Value,
}

/// A node of a parsed expression (the automatic prover reads the tree: `proof::automatic`).
#[derive(Clone, Debug)]
pub enum Node {
    /// A constant.
    Const(Value),
    /// The golden ratio, kept apart from decimal constants: a proof knows it exactly, and a
    /// decimal such as `1.618034` is another number.
    Phi,
    /// The variable in this slot.
    Var(usize),
    /// `-x`.
    Neg(Box<Node>),
    /// `!c`.
    Not(Box<Node>),
    /// Operands and whether the arithmetic is on integers.
    Bin(BinOp, Box<Node>, Box<Node>, bool),
    /// A function's call, its arguments and the type of its value.
    Call(Func, Vec<Node>, Type),
}

/// A parsed, type-checked expression over named variables.
#[derive(Clone, Debug)]
pub struct Expr {
    text: String,
    root: Node,
    ty: Type,
    used: Vec<bool>,
}

impl Expr {
    /// Parses `text` with the variables `names` (their values are passed to [`Expr::eval`] in this
    /// order).
    pub fn parse(text: &str, names: &[&str]) -> Result<Expr, ExprError> {
        let tokens = lex(text)?;
        if let Some(token) = tokens.get(MAX_TOKENS) {
            return Err(ExprError {
                expression: text.to_string(),
                column: Some(text[..token.start].chars().count() + 1),
                message: format!("the expression is too long (more than {MAX_TOKENS} tokens)"),
            });
        }
        let mut parser =
            Parser { text, tokens, at: 0, names, used: vec![false; names.len()], depth: 0 };
        let (root, ty) = parser.expression()?;
        if let Some(token) = parser.tokens.get(parser.at) {
            return Err(parser.error(token.start, format!("unexpected `{}`", token.text(text))));
        }
        Ok(Expr { text: text.to_string(), root, ty, used: parser.used })
    }

    /// Whether every evaluation is exact integer arithmetic: no `phi`, no decimal and no `sqrt`,
    /// so no floating point (which misses `floor(n * phi)` far out: at 10^18 its error passes 1).
    pub fn is_exact(&self) -> bool {
        fn exact(node: &Node) -> bool {
            match node {
                Node::Phi | Node::Const(Value::Real(_)) | Node::Call(Func::Sqrt, ..) => false,
                Node::Const(_) | Node::Var(_) => true,
                Node::Neg(inner) | Node::Not(inner) => exact(inner),
                Node::Bin(_, a, b, _) => exact(a) && exact(b),
                Node::Call(_, args, _) => args.iter().all(exact),
            }
        }
        exact(&self.root)
    }

    /// The syntax tree.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The expression's type.
    pub fn ty(&self) -> Type {
        self.ty
    }

    /// The text it was parsed from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The number of operations an evaluation does: the expression's nodes (constants,
    /// variables, operators and calls). What a check of it costs is this times the cells.
    pub fn size(&self) -> usize {
        fn nodes(node: &Node) -> usize {
            match node {
                Node::Const(_) | Node::Phi | Node::Var(_) => 1,
                Node::Neg(inner) | Node::Not(inner) => 1 + nodes(inner),
                Node::Bin(_, left, right, _) => 1 + nodes(left) + nodes(right),
                Node::Call(_, args, _) => 1 + args.iter().map(nodes).sum::<usize>(),
            }
        }
        nodes(&self.root)
    }

    /// Whether the variable at `index` (in the order given to [`Expr::parse`]) occurs.
    pub fn uses(&self, index: usize) -> bool {
        self.used[index]
    }

    /// A period for each variable (in the order given to [`Expr::parse`]) in which the expression
    /// repeats for every integer value of the variables, established from the expression's form:
    /// sums, differences and constant multiples of variables repeat once taken `% c` (or after
    /// `/ c` and `% d`), and any operation on repeating terms repeats. For example `n % 2 == 1` repeats with period 2 in `n`, `(n + m) % 3` with 3
    /// in both, `floor(n / 2) % 2` with 4, and an unused variable with 1. `None` when the form
    /// does not show that the expression repeats in every variable — `n % 2 == 1 && n < 1000`
    /// depends on `n` outside a residue — even if it happens to repeat on some table.
    pub fn periods(&self) -> Option<Vec<u64>> {
        let shift = Shift::of(&self.root, self.used.len())?;
        shift.increments.iter().all(|&k| k == 0).then_some(shift.periods)
    }

    /// For an expression of one coordinate (read by the variables at `reads_axis`, no other
    /// variable read) over coordinates from `lo` on: a period and the coordinate from which it
    /// repeats with it, established from the form as [`Expr::periods`] does, and past the point
    /// where each comparison (and `min`, `max`, `abs`) of growing terms has settled:
    /// `if(n == 0, 0, n % 2)` repeats with 2 from 1. `None` when the form does not show it.
    pub fn eventual_period(&self, reads_axis: &[bool], lo: i64) -> Option<(u64, i64)> {
        let found = eventual::eventual(&self.root, reads_axis, lo)?;
        (found.increment == 0).then_some((found.period, found.from))
    }

    /// Checks that the expression has type `expected`; `what` says what it is for.
    pub fn expect(&self, expected: Type, what: &str) -> Result<(), ExprError> {
        let fits = self.ty == expected || (expected == Type::Int && self.ty == Type::Real);
        if fits {
            return Ok(());
        }
        Err(ExprError {
            expression: self.text.clone(),
            column: None,
            message: format!("{what} must be {expected}, but this is {}", self.ty),
        })
    }

    /// Evaluates the expression with `vars` as the variables' values.
    #[inline]
    pub fn eval(&self, vars: &[i64]) -> Result<Value, EvalError> {
        eval(&self.root, vars)
    }

    /// Evaluates a boolean expression.
    #[inline]
    pub fn eval_bool(&self, vars: &[i64]) -> Result<bool, EvalError> {
        self.eval(vars).map(Value::bool)
    }

    /// Evaluates a numeric expression as an integer (a real must be a whole number).
    #[inline]
    pub fn eval_int(&self, vars: &[i64]) -> Result<i64, EvalError> {
        match self.eval(vars)? {
            Value::Int(i) => Ok(i),
            Value::Real(r) => {
                real_to_int(r.round()).filter(|&i| i as f64 == r).ok_or(EvalError::NotAnInteger)
            }
            Value::Bool(_) => unreachable!("type-checked"),
        }
    }
}

/// A node's value with the variables at `vars`.
pub fn eval_node(node: &Node, vars: &[i64]) -> Result<Value, EvalError> {
    eval(node, vars)
}

/// For each of `vars` variables, a period `p` and an increment `k` such that shifting that
/// variable by `p` adds `k` to the node's value, for every integer value of the variables (see
/// `Shift` in the source); `None` when the node's form does not show one.
pub fn node_shift(node: &Node, vars: usize) -> Option<(Vec<u64>, Vec<i64>)> {
    Shift::of(node, vars).map(|shift| (shift.periods, shift.increments))
}

/// Whether the node reads the variable at `slot`.
pub fn node_reads(node: &Node, slot: usize) -> bool {
    match node {
        Node::Var(v) => *v == slot,
        Node::Const(_) | Node::Phi => false,
        Node::Neg(inner) | Node::Not(inner) => node_reads(inner, slot),
        Node::Bin(_, a, b, _) => node_reads(a, slot) || node_reads(b, slot),
        Node::Call(_, args, _) => args.iter().any(|a| node_reads(a, slot)),
    }
}

/// How an expression changes when one variable grows: for every variable v, shifting v by
/// `periods[v]` (all other variables fixed) adds `increments[v]` to the value, for every integer
/// value of the variables. A variable gives period 1 and increment 1 in itself; sums, differences
/// and products with constants combine them over the lcm of the periods; `x / c` and `x % c` with a
/// constant c ≥ 1 (floor division and the non-negative remainder) turn an increment k into a
/// period: after c / gcd(k, c) shifts the increment is a multiple of c, so `x % c` repeats and
/// `x / c` grows by a whole number. Any other operation is followed only where every operand
/// repeats (increment 0). This is a proof from the syntax, never a sample: what it cannot follow
/// it does not claim.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shift {
    periods: Vec<u64>,
    increments: Vec<i64>,
}

impl Shift {
    /// The shift of `node` over `vars` variables, or `None` when its form does not show one.
    fn of(node: &Node, vars: usize) -> Option<Shift> {
        let constant = || Shift { periods: vec![1; vars], increments: vec![0; vars] };
        match node {
            Node::Const(_) | Node::Phi => Some(constant()),
            Node::Var(index) => {
                let mut shift = constant();
                shift.increments[*index] = 1;
                Some(shift)
            }
            Node::Neg(inner) => {
                let mut shift = Shift::of(inner, vars)?;
                for k in &mut shift.increments {
                    *k = k.checked_neg()?;
                }
                Some(shift)
            }
            Node::Bin(op @ (BinOp::Add | BinOp::Sub), left, right, _) => {
                let (a, b) = (Shift::of(left, vars)?, Shift::of(right, vars)?);
                let sign = if *op == BinOp::Add { 1 } else { -1 };
                a.combine(&b, |ka, kb| ka.checked_add(kb.checked_mul(sign)?))
            }
            Node::Bin(BinOp::Mul, left, right, integers) => {
                let (a, b) = (Shift::of(left, vars)?, Shift::of(right, vars)?);
                match (constant_int(left, &a), constant_int(right, &b)) {
                    (_, Some(c)) if *integers => a.scaled(c),
                    (Some(c), _) if *integers => b.scaled(c),
                    _ => a.repeating_with(&b),
                }
            }
            Node::Bin(op @ (BinOp::Div | BinOp::Rem), left, right, true) => {
                let (a, b) = (Shift::of(left, vars)?, Shift::of(right, vars)?);
                match constant_int(right, &b) {
                    Some(c) if c >= 1 => a.divided(c, *op == BinOp::Rem),
                    _ => a.repeating_with(&b),
                }
            }
            // floor and ceil move by whole increments exactly as their argument does.
            Node::Call(Func::Floor | Func::Ceil, args, _) => Shift::of(&args[0], vars),
            Node::Not(inner) => Shift::of(inner, vars)?.repeating_with(&constant()),
            Node::Bin(_, left, right, _) => {
                Shift::of(left, vars)?.repeating_with(&Shift::of(right, vars)?)
            }
            Node::Call(_, args, _) => args
                .iter()
                .try_fold(constant(), |shift, arg| shift.repeating_with(&Shift::of(arg, vars)?)),
        }
    }

    /// Both shifts over the lcm of their periods, the increments joined by `join`.
    fn combine(&self, other: &Shift, join: impl Fn(i64, i64) -> Option<i64>) -> Option<Shift> {
        let mut out = self.clone();
        for v in 0..self.periods.len() {
            let period = checked_lcm(self.periods[v], other.periods[v])?;
            let steps = |p: u64, k: i64| k.checked_mul(i64::try_from(period / p).ok()?);
            out.periods[v] = period;
            out.increments[v] = join(
                steps(self.periods[v], self.increments[v])?,
                steps(other.periods[v], other.increments[v])?,
            )?;
        }
        Some(out)
    }

    /// Any operation on two expressions that both repeat: it repeats over the lcm.
    fn repeating_with(&self, other: &Shift) -> Option<Shift> {
        let repeats = |s: &Shift| s.increments.iter().all(|&k| k == 0);
        (repeats(self) && repeats(other)).then(|| self.combine(other, |_, _| Some(0)))?
    }

    fn scaled(mut self, c: i64) -> Option<Shift> {
        for k in &mut self.increments {
            *k = k.checked_mul(c)?;
        }
        Some(self)
    }

    /// `x / c` (or `x % c` when `remainder`) for a constant c ≥ 1.
    fn divided(mut self, c: i64, remainder: bool) -> Option<Shift> {
        for (p, k) in self.periods.iter_mut().zip(&mut self.increments) {
            let times = c / gcd(k.unsigned_abs(), c as u64) as i64;
            *p = p.checked_mul(times as u64)?;
            *k = if remainder { 0 } else { k.checked_mul(times)? / c };
        }
        Some(self)
    }
}

/// The value of a node that depends on no variable, when it is an integer.
fn constant_int(node: &Node, shift: &Shift) -> Option<i64> {
    if shift.increments.iter().any(|&k| k != 0) || shift.periods.iter().any(|&p| p != 1) {
        return None;
    }
    match eval(node, &vec![0; shift.periods.len()]) {
        Ok(Value::Int(c)) => Some(c),
        _ => None,
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple, `None` past `u64`.
pub fn checked_lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// The least common multiple.
pub fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

/// The golden ratio, as evaluation uses it.
pub const PHI: f64 = 1.618_033_988_749_895;

fn real_to_int(r: f64) -> Option<i64> {
    (r.is_finite() && r.abs() < 9.0e18).then_some(r as i64)
}

fn eval(node: &Node, vars: &[i64]) -> Result<Value, EvalError> {
    Ok(match node {
        Node::Const(value) => *value,
        Node::Phi => Value::Real(PHI),
        Node::Var(index) => Value::Int(vars[*index]),
        Node::Neg(inner) => match eval(inner, vars)? {
            Value::Int(i) => Value::Int(i.checked_neg().ok_or(EvalError::Overflow)?),
            other => Value::Real(-other.real()),
        },
        Node::Not(inner) => Value::Bool(!eval(inner, vars)?.bool()),
        Node::Bin(BinOp::And, a, b, _) => {
            Value::Bool(eval(a, vars)?.bool() && eval(b, vars)?.bool())
        }
        Node::Bin(BinOp::Or, a, b, _) => {
            Value::Bool(eval(a, vars)?.bool() || eval(b, vars)?.bool())
        }
        Node::Bin(op, a, b, integers) => {
            let (a, b) = (eval(a, vars)?, eval(b, vars)?);
            if *integers {
                int_op(*op, a.int(), b.int())?
            } else if let (Value::Bool(x), Value::Bool(y)) = (a, b) {
                Value::Bool(if *op == BinOp::Eq { x == y } else { x != y })
            } else {
                real_op(*op, a.real(), b.real())
            }
        }
        Node::Call(func, args, ty) => call(*func, args, *ty, vars)?,
    })
}

fn int_op(op: BinOp, a: i64, b: i64) -> Result<Value, EvalError> {
    let int = |r: Option<i64>| r.map(Value::Int).ok_or(EvalError::Overflow);
    match op {
        BinOp::Add => int(a.checked_add(b)),
        BinOp::Sub => int(a.checked_sub(b)),
        BinOp::Mul => int(a.checked_mul(b)),
        BinOp::Div | BinOp::Rem if b == 0 => Err(EvalError::DivisionByZero),
        BinOp::Div => int(a.checked_div_euclid(b)),
        BinOp::Rem => int(a.checked_rem_euclid(b)),
        BinOp::Eq => Ok(Value::Bool(a == b)),
        BinOp::Ne => Ok(Value::Bool(a != b)),
        BinOp::Lt => Ok(Value::Bool(a < b)),
        BinOp::Le => Ok(Value::Bool(a <= b)),
        BinOp::Gt => Ok(Value::Bool(a > b)),
        BinOp::Ge => Ok(Value::Bool(a >= b)),
        BinOp::And | BinOp::Or => unreachable!("handled lazily"),
    }
}

fn real_op(op: BinOp, a: f64, b: f64) -> Value {
    match op {
        BinOp::Add => Value::Real(a + b),
        BinOp::Sub => Value::Real(a - b),
        BinOp::Mul => Value::Real(a * b),
        BinOp::Div => Value::Real(a / b),
        BinOp::Rem => Value::Real(a.rem_euclid(b)),
        BinOp::Eq => Value::Bool(a == b),
        BinOp::Ne => Value::Bool(a != b),
        BinOp::Lt => Value::Bool(a < b),
        BinOp::Le => Value::Bool(a <= b),
        BinOp::Gt => Value::Bool(a > b),
        BinOp::Ge => Value::Bool(a >= b),
        BinOp::And | BinOp::Or => unreachable!("handled lazily"),
    }
}

fn call(func: Func, args: &[Node], ty: Type, vars: &[i64]) -> Result<Value, EvalError> {
    if func == Func::If {
        let branch = if eval(&args[0], vars)?.bool() { &args[1] } else { &args[2] };
        let value = eval(branch, vars)?;
        return Ok(if ty == Type::Real { Value::Real(value.real()) } else { value });
    }
    let first = eval(&args[0], vars)?;
    Ok(match func {
        Func::Floor | Func::Ceil => match first {
            Value::Int(i) => Value::Int(i),
            other => {
                let r =
                    if func == Func::Floor { other.real().floor() } else { other.real().ceil() };
                Value::Int(real_to_int(r).ok_or(EvalError::NotAnInteger)?)
            }
        },
        Func::Sqrt => Value::Real(first.real().sqrt()),
        Func::Abs => match first {
            Value::Int(i) => Value::Int(i.checked_abs().ok_or(EvalError::Overflow)?),
            other => Value::Real(other.real().abs()),
        },
        Func::Xor => Value::Int(first.int() ^ eval(&args[1], vars)?.int()),
        Func::Min | Func::Max => {
            let mut best = first;
            for arg in &args[1..] {
                let next = eval(arg, vars)?;
                // Integers compare exactly (as reals, 2^53 + 1 and 2^53 would be equal).
                let better = match (next, best) {
                    (Value::Int(x), Value::Int(y)) if func == Func::Min => x < y,
                    (Value::Int(x), Value::Int(y)) => x > y,
                    _ if func == Func::Min => next.real() < best.real(),
                    _ => next.real() > best.real(),
                };
                if better {
                    best = next;
                }
            }
            if ty == Type::Real {
                Value::Real(best.real())
            } else {
                best
            }
        }
        Func::If => unreachable!("handled above"),
    })
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Int(i64),
    Real(f64),
    Ident,
    Op(&'static str),
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

impl Token {
    fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// The most tokens an expression may have. Evaluation recurses along the syntax tree, whose depth
/// grows with the number of operators, on worker threads with small stacks; real claims are far
/// shorter.
const MAX_TOKENS: usize = 1000;

/// The deepest nesting of parentheses, calls and prefix operators the parser accepts (it recurses
/// once per level).
const MAX_DEPTH: usize = 64;

const OPERATORS: [&str; 19] = [
    "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", ",", "&",
    "|",
];

fn lex(text: &str) -> Result<Vec<Token>, ExprError> {
    let error = |at: usize, message: String| ExprError {
        expression: text.to_string(),
        column: Some(text[..at].chars().count() + 1),
        message,
    };
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        let start = at;
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)) {
            while at < bytes.len() && (bytes[at].is_ascii_digit() || bytes[at] == b'.') {
                at += 1;
            }
            let literal = &text[start..at];
            let kind = if literal.contains('.') {
                Kind::Real(
                    literal
                        .parse()
                        .map_err(|_| error(start, format!("`{literal}` is not a number")))?,
                )
            } else {
                Kind::Int(
                    literal
                        .parse()
                        .map_err(|_| error(start, format!("`{literal}` is too large")))?,
                )
            };
            tokens.push(Token { kind, start, end: at });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                at += 1;
            }
            tokens.push(Token { kind: Kind::Ident, start, end: at });
            continue;
        }
        if c == b'=' && bytes.get(at + 1) != Some(&b'=') {
            return Err(error(at, "`=` is not an operator; write `==` to compare".into()));
        }
        let Some(op) = OPERATORS.iter().find(|op| text[at..].starts_with(**op)) else {
            let shown = text[at..].chars().next().unwrap_or(' ');
            return Err(error(at, format!("unexpected character `{shown}`")));
        };
        if *op == "&" || *op == "|" {
            return Err(error(at, format!("`{op}` is not an operator; write `{op}{op}`")));
        }
        at += op.len();
        tokens.push(Token { kind: Kind::Op(op), start, end: at });
    }
    Ok(tokens)
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    at: usize,
    names: &'a [&'a str],
    used: Vec<bool>,
    /// Nesting levels entered so far (see [`MAX_DEPTH`]).
    depth: usize,
}

pub mod compiled;
mod eventual;
mod parse;
#[cfg(test)]
mod tests;
