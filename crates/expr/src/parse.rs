//! The parser: tokens to a checked tree, with the type of every node.

use super::*;

impl Parser<'_> {
    /// Runs `parse` one nesting level deeper, refusing more than [`MAX_DEPTH`] levels.
    pub(super) fn nested<T>(
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

    pub(super) fn error(&self, at: usize, message: String) -> ExprError {
        ExprError {
            expression: self.text.to_string(),
            column: Some(self.text[..at.min(self.text.len())].chars().count() + 1),
            message,
        }
    }

    pub(super) fn end(&self) -> usize {
        self.text.len()
    }

    pub(super) fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.at) {
            Some(Token { kind: Kind::Op(op), .. }) => Some(op),
            _ => None,
        }
    }

    pub(super) fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn position(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end(), |t| t.start)
    }

    pub(super) fn expect_type(
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

    pub(super) fn expression(&mut self) -> Result<(Node, Type), ExprError> {
        self.nested(|parser| parser.logic(0))
    }

    /// `||` (level 0) and `&&` (level 1).
    pub(super) fn logic(&mut self, level: usize) -> Result<(Node, Type), ExprError> {
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

    pub(super) fn comparison(&mut self) -> Result<(Node, Type), ExprError> {
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

    pub(super) fn additive(&mut self) -> Result<(Node, Type), ExprError> {
        self.arithmetic(true)
    }

    pub(super) fn arithmetic(&mut self, additive: bool) -> Result<(Node, Type), ExprError> {
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

    pub(super) fn unary(&mut self) -> Result<(Node, Type), ExprError> {
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

    pub(super) fn primary(&mut self) -> Result<(Node, Type), ExprError> {
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
                    "phi" => Ok((Node::Phi, Type::Real)),
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

    pub(super) fn call(&mut self, name: &str, at: usize) -> Result<(Node, Type), ExprError> {
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
