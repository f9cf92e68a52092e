//! Terminal positions: a condition over the coordinates, in the claim language, where no move
//! starts (a spec's `terminal = "a + b <= 1"`: the Wythoff variants of Komak et al. and of
//! Renard and Rigo, arXiv 2512.11601). The reference's options ([`Game::options`]) read it;
//! every reader of the rules' forms decides what it does with it, as each assumes otherwise that
//! the same moves start everywhere.
//!
//! [`Game::options`]: super::Game::options

use super::Axis;
use crate::coord::Coord;
use grundy_expr::{Expr, Type};

/// Where no move starts: a condition over the coordinates, in exact integer arithmetic.
#[derive(Clone, Debug)]
pub struct Terminal {
    expr: Expr,
}

impl PartialEq for Terminal {
    fn eq(&self, other: &Terminal) -> bool {
        self.expr.text() == other.expr.text()
    }
}

impl Eq for Terminal {}

impl Terminal {
    /// The condition `text` over the axes' names: a condition (not a number), in exact integer
    /// arithmetic (no `phi`, decimal or `sqrt`, whose floating point misses far out), reading
    /// only coordinates.
    pub fn parse(text: &str, axes: &[Axis]) -> Result<Terminal, String> {
        let names: Vec<&str> = axes.iter().map(|a| a.name.as_str()).collect();
        let expr = Expr::parse(text, &names).map_err(|e| e.to_string())?;
        expr.expect(Type::Bool, "a terminal condition").map_err(|e| e.to_string())?;
        if !expr.is_exact() {
            return Err(format!(
                "`{text}`: a terminal condition is exact integer arithmetic (no phi, decimals \
                 or sqrt), so that it holds at every position as written"
            ));
        }
        Ok(Terminal { expr })
    }

    /// The condition as written.
    pub fn text(&self) -> &str {
        self.expr.text()
    }

    /// The condition, parsed (its variables are the axes, in order).
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Whether `pos` is terminal. A position where the condition cannot be evaluated (a division
    /// by zero, an overflow) is not: the condition does not hold there.
    pub fn holds(&self, pos: &[Coord]) -> bool {
        self.expr.eval_bool(pos).unwrap_or(false)
    }
}
