//! The expression language of `grundy check` and of the rules `grundy patterns` prints.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Floor,
    Ceil,
    Sqrt,
    Abs,
    Min,
    Max,
    Xor,
    If,
}

#[derive(Clone, Debug)]
enum Node {
    Const(Value),
    Var(usize),
    Neg(Box<Node>),
    Not(Box<Node>),
    /// Operands and whether the arithmetic is on integers.
    Bin(BinOp, Box<Node>, Box<Node>, bool),
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
                Node::Const(_) | Node::Var(_) => 1,
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
            Node::Const(_) => Some(constant()),
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

fn checked_lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b)).checked_mul(b)
}

/// The least common multiple.
pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

fn real_to_int(r: f64) -> Option<i64> {
    (r.is_finite() && r.abs() < 9.0e18).then_some(r as i64)
}

fn eval(node: &Node, vars: &[i64]) -> Result<Value, EvalError> {
    Ok(match node {
        Node::Const(value) => *value,
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
                let better = if func == Func::Min {
                    next.real() < best.real()
                } else {
                    next.real() > best.real()
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

impl Parser<'_> {
    /// Runs `parse` one nesting level deeper, refusing more than [`MAX_DEPTH`] levels.
    fn nested<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<T, ExprError>,
    ) -> Result<T, ExprError> {
        if self.depth >= MAX_DEPTH {
            let at = self.position();
            return Err(self.error(at, format!("nested too deeply (more than {MAX_DEPTH} levels)")));
        }
        self.depth += 1;
        let parsed = parse(self);
        self.depth -= 1;
        parsed
    }

    fn error(&self, at: usize, message: String) -> ExprError {
        ExprError {
            expression: self.text.to_string(),
            column: Some(self.text[..at.min(self.text.len())].chars().count() + 1),
            message,
        }
    }

    fn end(&self) -> usize {
        self.text.len()
    }

    fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.at) {
            Some(Token { kind: Kind::Op(op), .. }) => Some(op),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn position(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end(), |t| t.start)
    }

    fn expect_type(
        &self,
        at: usize,
        ty: Type,
        wanted: &[Type],
        what: &str,
    ) -> Result<(), ExprError> {
        if wanted.contains(&ty) {
            Ok(())
        } else {
            Err(self.error(at, format!("{what} needs {}, not {ty}", wanted[0])))
        }
    }

    fn expression(&mut self) -> Result<(Node, Type), ExprError> {
        self.nested(|parser| parser.logic(0))
    }

    /// `||` (level 0) and `&&` (level 1).
    fn logic(&mut self, level: usize) -> Result<(Node, Type), ExprError> {
        let (op, symbol) = if level == 0 { (BinOp::Or, "||") } else { (BinOp::And, "&&") };
        let start = self.position();
        let (mut node, mut ty) = if level == 0 { self.logic(1)? } else { self.comparison()? };
        while self.peek_op() == Some(symbol) {
            self.at += 1;
            self.expect_type(start, ty, &[Type::Bool], &format!("`{symbol}`"))?;
            let right_at = self.position();
            let (right, right_ty) = if level == 0 { self.logic(1)? } else { self.comparison()? };
            self.expect_type(right_at, right_ty, &[Type::Bool], &format!("`{symbol}`"))?;
            node = Node::Bin(op, Box::new(node), Box::new(right), false);
            ty = Type::Bool;
        }
        Ok((node, ty))
    }

    fn comparison(&mut self) -> Result<(Node, Type), ExprError> {
        let start = self.position();
        let (left, left_ty) = self.additive()?;
        let op = match self.peek_op() {
            Some("==") => BinOp::Eq,
            Some("!=") => BinOp::Ne,
            Some("<") => BinOp::Lt,
            Some("<=") => BinOp::Le,
            Some(">") => BinOp::Gt,
            Some(">=") => BinOp::Ge,
            _ => return Ok((left, left_ty)),
        };
        self.at += 1;
        let right_at = self.position();
        let (right, right_ty) = self.additive()?;
        let equality = matches!(op, BinOp::Eq | BinOp::Ne);
        if (left_ty == Type::Bool || right_ty == Type::Bool) && !(equality && left_ty == right_ty) {
            let at = if left_ty == Type::Bool { start } else { right_at };
            return Err(self.error(at, "comparisons need numbers on both sides".into()));
        }
        if matches!(self.peek_op(), Some("==" | "!=" | "<" | "<=" | ">" | ">=")) {
            return Err(
                self.error(self.position(), "comparisons do not chain; join them with `&&`".into())
            );
        }
        let integers = left_ty == Type::Int && right_ty == Type::Int;
        Ok((Node::Bin(op, Box::new(left), Box::new(right), integers), Type::Bool))
    }

    fn additive(&mut self) -> Result<(Node, Type), ExprError> {
        self.arithmetic(true)
    }

    fn arithmetic(&mut self, additive: bool) -> Result<(Node, Type), ExprError> {
        let start = self.position();
        let (mut node, mut ty) = if additive { self.arithmetic(false)? } else { self.unary()? };
        loop {
            let op = match (additive, self.peek_op()) {
                (true, Some("+")) => BinOp::Add,
                (true, Some("-")) => BinOp::Sub,
                (false, Some("*")) => BinOp::Mul,
                (false, Some("/")) => BinOp::Div,
                (false, Some("%")) => BinOp::Rem,
                _ => return Ok((node, ty)),
            };
            let symbol = self.peek_op().unwrap();
            self.at += 1;
            self.expect_type(start, ty, &[Type::Int, Type::Real], &format!("`{symbol}`"))?;
            let right_at = self.position();
            let (right, right_ty) = if additive { self.arithmetic(false)? } else { self.unary()? };
            self.expect_type(right_at, right_ty, &[Type::Int, Type::Real], &format!("`{symbol}`"))?;
            let integers = ty == Type::Int && right_ty == Type::Int;
            node = Node::Bin(op, Box::new(node), Box::new(right), integers);
            ty = if integers { Type::Int } else { Type::Real };
        }
    }

    fn unary(&mut self) -> Result<(Node, Type), ExprError> {
        let at = self.position();
        if self.eat("-") {
            let (inner, ty) = self.nested(Self::unary)?;
            self.expect_type(at, ty, &[Type::Int, Type::Real], "`-`")?;
            return Ok((Node::Neg(Box::new(inner)), ty));
        }
        if self.eat("!") {
            let (inner, ty) = self.nested(Self::unary)?;
            self.expect_type(at, ty, &[Type::Bool], "`!`")?;
            return Ok((Node::Not(Box::new(inner)), Type::Bool));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<(Node, Type), ExprError> {
        let Some(token) = self.tokens.get(self.at).copied() else {
            return Err(self.error(self.end(), "the expression ends too early".into()));
        };
        self.at += 1;
        match token.kind {
            Kind::Int(i) => Ok((Node::Const(Value::Int(i)), Type::Int)),
            Kind::Real(r) => Ok((Node::Const(Value::Real(r)), Type::Real)),
            Kind::Op("(") => {
                let inner = self.expression()?;
                if !self.eat(")") {
                    return Err(self.error(self.position(), "expected `)`".into()));
                }
                Ok(inner)
            }
            Kind::Op(op) => Err(self.error(token.start, format!("unexpected `{op}`"))),
            Kind::Ident => {
                let name = token.text(self.text);
                if self.peek_op() == Some("(") {
                    self.at += 1;
                    return self.call(name, token.start);
                }
                match name {
                    "phi" => Ok((Node::Const(Value::Real((1.0 + 5f64.sqrt()) / 2.0)), Type::Real)),
                    "true" => Ok((Node::Const(Value::Bool(true)), Type::Bool)),
                    "false" => Ok((Node::Const(Value::Bool(false)), Type::Bool)),
                    _ => match self.names.iter().position(|n| *n == name) {
                        Some(index) => {
                            self.used[index] = true;
                            Ok((Node::Var(index), Type::Int))
                        }
                        None => Err(self.error(
                            token.start,
                            format!(
                                "unknown variable `{name}` (allowed: {}, and the constant phi)",
                                self.names.join(", ")
                            ),
                        )),
                    },
                }
            }
        }
    }

    fn call(&mut self, name: &str, at: usize) -> Result<(Node, Type), ExprError> {
        let func = match name {
            "floor" => Func::Floor,
            "ceil" => Func::Ceil,
            "sqrt" => Func::Sqrt,
            "abs" => Func::Abs,
            "min" => Func::Min,
            "max" => Func::Max,
            "xor" => Func::Xor,
            "if" => Func::If,
            _ => {
                return Err(self.error(
                    at,
                    format!(
                    "unknown function `{name}` (known: floor, ceil, sqrt, abs, min, max, xor, if)"
                ),
                ))
            }
        };
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                let arg_at = self.position();
                let (node, ty) = self.expression()?;
                args.push((node, ty, arg_at));
                if self.eat(")") {
                    break;
                }
                if !self.eat(",") {
                    return Err(self.error(self.position(), "expected `,` or `)`".into()));
                }
            }
        }
        let count_ok = match func {
            Func::Floor | Func::Ceil | Func::Sqrt | Func::Abs => args.len() == 1,
            Func::Xor => args.len() == 2,
            Func::If => args.len() == 3,
            Func::Min | Func::Max => args.len() >= 2,
        };
        if !count_ok {
            let wanted = match func {
                Func::Xor => "2 arguments",
                Func::If => "3 arguments (condition, then, else)",
                Func::Min | Func::Max => "2 or more arguments",
                _ => "1 argument",
            };
            return Err(self.error(at, format!("`{name}` takes {wanted}, not {}", args.len())));
        }
        let numeric = [Type::Int, Type::Real];
        let ty = match func {
            Func::If => {
                let (_, cond_ty, cond_at) = args[0];
                self.expect_type(cond_at, cond_ty, &[Type::Bool], "the condition of `if`")?;
                let (then_ty, else_ty) = (args[1].1, args[2].1);
                match (then_ty, else_ty) {
                    (a, b) if a == b => a,
                    (Type::Bool, _) | (_, Type::Bool) => {
                        return Err(self.error(
                            at,
                            "the two branches of `if` must both be numbers or both conditions"
                                .into(),
                        ))
                    }
                    _ => Type::Real,
                }
            }
            Func::Xor => {
                for (_, ty, arg_at) in &args {
                    self.expect_type(*arg_at, *ty, &[Type::Int], "`xor`")?;
                }
                Type::Int
            }
            _ => {
                for (_, ty, arg_at) in &args {
                    self.expect_type(*arg_at, *ty, &numeric, &format!("`{name}`"))?;
                }
                match func {
                    Func::Floor | Func::Ceil => Type::Int,
                    Func::Sqrt => Type::Real,
                    _ if args.iter().all(|(_, ty, _)| *ty == Type::Int) => Type::Int,
                    _ => Type::Real,
                }
            }
        };
        Ok((Node::Call(func, args.into_iter().map(|(node, _, _)| node).collect(), ty), ty))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_and_huge_expressions_are_refused_not_overflowed() {
        let nested = |depth: usize| format!("{}n{}", "(".repeat(depth), ")".repeat(depth));
        assert!(Expr::parse(&nested(60), &["n"]).is_ok());
        let err = Expr::parse(&nested(100), &["n"]).unwrap_err();
        assert!(err.to_string().contains("nested too deeply"), "{err}");
        let err = Expr::parse(&format!("{}n", "-".repeat(200)), &["n"]).unwrap_err();
        assert!(err.to_string().contains("nested too deeply"), "{err}");
        let err = Expr::parse(&format!("{}n > 0", "!".repeat(100)), &["n"]).unwrap_err();
        assert!(err.to_string().contains("nested too deeply"), "{err}");
        let long = vec!["n"; 600].join(" + ");
        let err = Expr::parse(&long, &["n"]).unwrap_err();
        assert!(err.to_string().contains("too long (more than 1000 tokens)"), "{err}");
        let fits = vec!["n"; 400].join(" + ");
        assert_eq!(Expr::parse(&fits, &["n"]).unwrap().eval(&[2]).unwrap(), Value::Int(800));
    }

    fn value(text: &str, vars: &[i64]) -> Value {
        Expr::parse(text, &["n", "m", "g"]).unwrap_or_else(|e| panic!("{e}")).eval(vars).unwrap()
    }

    #[test]
    fn evaluates() {
        let check =
            |text: &str, expected: Value| assert_eq!(value(text, &[7, 4, 3]), expected, "{text}");
        check("n % 2 == 1 && m % 2 == 1", Value::Bool(false));
        check("n + m * 2 - 1", Value::Int(14));
        check("n / 2", Value::Int(3));
        check("-n / 2", Value::Int(-4));
        check("-n % 2", Value::Int(1));
        check("xor(n, m)", Value::Int(3));
        check("min(n, m, 9)", Value::Int(4));
        check("max(n, 2.5)", Value::Real(7.0));
        check("floor(n * phi)", Value::Int(11));
        check("ceil(sqrt(n))", Value::Int(3));
        check("abs(m - n)", Value::Int(3));
        check("if(n > m, n, m)", Value::Int(7));
        check("!(g <= n + m) || true", Value::Bool(true));
        check("(n == 7) == (m == 4)", Value::Bool(true));
        check("2 + 3 * 4 % 5", Value::Int(4));
        check("n - m - 1", Value::Int(2));
        check("n != 7 || m >= 4 && g < 3", Value::Bool(false));
    }

    #[test]
    fn wythoff_p_positions_with_phi() {
        let p = Expr::parse("min(a, b) == floor(abs(a - b) * phi)", &["a", "b"]).unwrap();
        assert!(p.eval_bool(&[3, 5]).unwrap());
        assert!(p.eval_bool(&[5, 3]).unwrap());
        assert!(!p.eval_bool(&[4, 5]).unwrap());
    }

    #[test]
    fn errors_say_where() {
        let error = |text: &str| Expr::parse(text, &["n", "m"]).unwrap_err().to_string();
        assert_eq!(
            error("n % 2 = 1"),
            "bad expression `n % 2 = 1` at column 7: `=` is not an operator; write `==` to compare"
        );
        assert_eq!(error("n +"), "bad expression `n +` at column 4: the expression ends too early");
        assert_eq!(error("(n + 1"), "bad expression `(n + 1` at column 7: expected `)`");
        assert_eq!(error("n $ 2"), "bad expression `n $ 2` at column 3: unexpected character `$`");
        assert_eq!(
            error("x + 1"),
            "bad expression `x + 1` at column 1: unknown variable `x` (allowed: n, m, and the constant phi)"
        );
        assert!(error("foo(n)").contains("unknown function `foo`"));
        assert!(error("n && m").contains("`&&` needs a condition, not an integer"));
        assert!(error("n < m < 3").contains("do not chain"));
        assert!(error("xor(n)").contains("`xor` takes 2 arguments, not 1"));
        assert!(error("n & m").contains("write `&&`"));
        assert!(error("n m").contains("unexpected `m`"));
        assert!(error("").contains("ends too early"));
    }

    #[test]
    fn runtime_errors() {
        let e = Expr::parse("n / m", &["n", "m"]).unwrap();
        assert_eq!(e.eval(&[1, 0]), Err(EvalError::DivisionByZero));
        let e = Expr::parse("n * n * n * n * n", &["n"]).unwrap();
        assert_eq!(e.eval(&[1 << 20]), Err(EvalError::Overflow));
        let e = Expr::parse("sqrt(n)", &["n"]).unwrap();
        assert_eq!(e.eval_int(&[4]), Ok(2));
        assert_eq!(e.eval_int(&[5]), Err(EvalError::NotAnInteger));
    }

    #[test]
    fn periods_come_from_the_form() {
        let periods = |text: &str| Expr::parse(text, &["n", "m", "g"]).unwrap().periods();
        let cases: &[(&str, Option<[u64; 3]>)] = &[
            ("n % 2 == 1 && m % 2 == 1", Some([2, 2, 1])),
            ("n % 2 == 1 || n % 3 == 0", Some([6, 1, 1])),
            ("if(m % 4 == 1, 3, xor(n % 2, 1))", Some([2, 4, 1])),
            ("(n + 1) % 2 == 0", Some([2, 1, 1])),
            ("(n + m) % 3 == 0", Some([3, 3, 1])),
            ("(2 * n - 3 * m) % 6", Some([3, 2, 1])),
            ("floor(n / 2) % 2 == 0", Some([4, 1, 1])),
            ("(n / 3 + m) % 2", Some([6, 2, 1])),
            ("-(n % 5)", Some([5, 1, 1])),
            ("true", Some([1, 1, 1])),
            ("7", Some([1, 1, 1])),
            // A coordinate outside a residue: not periodic, whatever a table shows.
            ("n % 2 == 1 && n > 3", None),
            ("n % 2 == 1 && m % 2 == 1 && n < 1000", None),
            ("n", None),
            ("n / 2", None),
            ("(n * m) % 2", None),
            ("n % m == 0", None),
            ("floor(n * phi) % 2 == 0", None),
            ("abs(n - m) % 2 == 0", None),
            ("min(n, 5) % 2 == 0", None),
        ];
        for (text, expected) in cases {
            assert_eq!(periods(text), expected.map(|p| p.to_vec()), "{text}");
        }
    }

    /// Whatever period the form gives holds on every integer, negative ones included.
    #[test]
    fn periods_from_the_form_hold_everywhere() {
        let texts = [
            "(n + 1) % 2 == 0",
            "(2 * n - 3 * m) % 6",
            "floor(n / 2) % 2 == 0",
            "(n / 3 + m) % 2",
            "((n - m) / 4 + n / 6) % 5 * 3 + m % 4",
            "if((n + 2 * m) % 3 == 1, (m / 2) % 7, -((n / 5) % 2))",
            "xor(n % 4, m % 6) == (n + m) % 3",
        ];
        for text in texts {
            let expr = Expr::parse(text, &["n", "m"]).unwrap();
            let periods = expr.periods().unwrap_or_else(|| panic!("{text} has a period"));
            for n in -40..40 {
                for m in -40..40 {
                    let here = expr.eval(&[n, m]).unwrap();
                    let right = expr.eval(&[n + periods[0] as i64, m]).unwrap();
                    let up = expr.eval(&[n, m + periods[1] as i64]).unwrap();
                    assert_eq!((here, here), (right, up), "{text} at ({n}, {m})");
                }
            }
        }
    }

    #[test]
    fn types() {
        let ty = |text: &str| Expr::parse(text, &["n"]).unwrap().ty();
        assert_eq!(ty("n + 1"), Type::Int);
        assert_eq!(ty("n * phi"), Type::Real);
        assert_eq!(ty("n > 1"), Type::Bool);
        let e = Expr::parse("n + 1", &["n"]).unwrap();
        assert!(e
            .expect(Type::Bool, "--p-set")
            .unwrap_err()
            .to_string()
            .contains("--p-set must be a condition"));
    }
}
