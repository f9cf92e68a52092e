//! The Sprague–Grundy sum theorem for boards: when every move changes one coordinate only, and
//! the moves on an axis do not depend on the other coordinates, the board is the sum of one heap
//! game per axis and its value is the xor of theirs, G(a, b) = G₁(a) ⊕ G₂(b).
//!
//! A claim `xor(f(a), g(b))` (values) or `f(a) == g(b)` (P-set) is then proved once each part
//! is equal to its heap game's proved law (up to one xor constant c common to both, which leaves
//! the xor and the equality unchanged):
//! - a slide of any length along the axis makes the part a Nim heap, value `n − min` (every
//!   smaller heap is an option); f equals it when its form shows `f(n + p) = f(n) + p` and it
//!   agrees on one stretch of p;
//! - a subtraction game with a finite set has its period proved by the subtraction window
//!   ([`crate::proof::theorems`]); f equals it when its form shows a period q and it agrees
//!   through the preperiod and one lcm of the periods;
//! - an axis without moves is the zero game.

use crate::expr::BinOp;
use crate::expr::{eval_node, node_reads, node_shift, Expr, Func, Node, Value};
use crate::proof::automatic::Claimed;
use crate::proof::theorems::{proved_law, subtraction_reach, ProvedLaw};
use crate::proof::{Proof, Theorem};
use grundy_core::{mex, Axis, Coord, Game, Nimber, Rule};

/// A part's law.
enum Law {
    /// No move along the axis.
    Zero,
    /// A Nim heap.
    Nim,
    /// A proved period.
    Periodic(ProvedLaw),
}

/// One heap game of the sum.
struct Part {
    axis: usize,
    min: Coord,
    law: Law,
    /// How the argument names it: `a Nim heap on a`, `subtraction {1, 2} on b (period 3, proved)`.
    name: String,
}

impl Part {
    fn value(&self, n: Coord) -> i64 {
        match &self.law {
            Law::Zero => 0,
            Law::Nim => n - self.min,
            Law::Periodic(law) => i64::from(law.value(n)),
        }
    }
}

/// Proves `expr` about `game` by the sum theorem, or says why it does not apply (`Err`): the
/// game is not a sum, a part has no proved law, or the claim is not the sum of its parts' laws.
pub(crate) fn prove(
    game: &Game,
    claimed: Claimed,
    expr: &Expr,
    slot_axes: &[Option<usize>],
) -> Result<Proof, String> {
    if let Some(why) = game.beyond_normal_recursion() {
        return Err(format!(
            "the sum theorem is about normal play along moves that end, and {why}"
        ));
    }
    if game.dims() != 2 {
        return Err("the sum theorem here is for boards of two axes".into());
    }
    let parts = [part(game, 0)?, part(game, 1)?];
    let (f, g) = split(expr.root(), claimed)
        .ok_or("the claim is not of the form xor(f(a), g(b)) (values) or f(a) == g(b) (P-set)")?;
    let reads = |node: &Node| -> Vec<usize> {
        (0..2)
            .filter(|&axis| {
                slot_axes
                    .iter()
                    .enumerate()
                    .any(|(slot, a)| *a == Some(axis) && node_reads(node, slot))
            })
            .collect()
    };
    let (f, g) = match (reads(f).as_slice(), reads(g).as_slice()) {
        ([] | [0], [] | [1]) => (f, g),
        ([] | [1], [] | [0]) => (g, f),
        _ => return Err("the claim's two parts do not each read one axis".into()),
    };
    // The xor constant c, read at the corner; then each part equals its law xor c.
    let at = |node: &Node, part: &Part, n: Coord| -> Result<i64, String> {
        let slots: Vec<i64> =
            slot_axes.iter().map(|a| if *a == Some(part.axis) { n } else { 0 }).collect();
        match eval_node(node, &slots) {
            Ok(Value::Int(v)) => Ok(v),
            _ => Err(format!("the claim's part cannot be evaluated at {n}")),
        }
    };
    let c = at(f, &parts[0], parts[0].min)? ^ parts[0].value(parts[0].min);
    for (node, part) in [(f, &parts[0]), (g, &parts[1])] {
        agrees(node, part, c, slot_axes, &at)?;
    }
    let name = &game.axes();
    let how = match claimed {
        Claimed::Values => "the value is the xor of the parts' values".to_string(),
        Claimed::PSet => "the P-positions are where the parts' values are equal".to_string(),
    };
    Ok(Proof::by(
        Theorem::SumOfGames,
        format!(
            "{} and {}: {how}, and the claim's part in {} and in {} equals each part's law{}",
            parts[0].name,
            parts[1].name,
            name[0].name,
            name[1].name,
            if c == 0 { String::new() } else { format!(" xor {c}") }
        ),
    ))
}

/// The claim's two parts: `xor(f, g)` for values; `f == g` or `xor(f, g) == 0` for a P-set.
fn split(root: &Node, claimed: Claimed) -> Option<(&Node, &Node)> {
    fn xor(node: &Node) -> Option<(&Node, &Node)> {
        match node {
            Node::Call(Func::Xor, args, _) => Some((&args[0], &args[1])),
            _ => None,
        }
    }
    match claimed {
        Claimed::Values => xor(root),
        Claimed::PSet => match root {
            Node::Bin(BinOp::Eq, a, b, true) => match (&**a, &**b) {
                (x, Node::Const(Value::Int(0))) | (Node::Const(Value::Int(0)), x)
                    if xor(x).is_some() =>
                {
                    xor(x)
                }
                _ => Some((&**a, &**b)),
            },
            _ => None,
        },
    }
}

/// Whether `node` (a part of the claim) equals `part`'s law xor `c` at every coordinate from the
/// axis' smallest on, shown by its form and a finite stretch.
fn agrees(
    node: &Node,
    part: &Part,
    c: i64,
    slot_axes: &[Option<usize>],
    at: &dyn Fn(&Node, &Part, Coord) -> Result<i64, String>,
) -> Result<(), String> {
    let axis_name = |p: &Part| p.name.clone();
    let (periods, increments) = node_shift(node, slot_axes.len()).ok_or_else(|| {
        format!("the claim's part for {} shows no period or slope in its form", axis_name(part))
    })?;
    // Shifting the axis shifts every slot that reads it: over the lcm P of their periods, the
    // part grows by K.
    let mut period: u64 = 1;
    for (slot, axis) in slot_axes.iter().enumerate() {
        if *axis == Some(part.axis) {
            period = crate::expr::lcm(period, periods[slot]);
        }
    }
    let mut growth: i64 = 0;
    for (slot, axis) in slot_axes.iter().enumerate() {
        if *axis == Some(part.axis) {
            growth += increments[slot] * (period / periods[slot]) as i64;
        }
    }
    let (stretch, slope) = match &part.law {
        Law::Nim => (period, period as i64),
        Law::Zero => (period, 0),
        Law::Periodic(law) => {
            let (e, p) = (law.period.preperiod as u64, law.period.period as u64);
            (e + crate::expr::lcm(p, period), 0)
        }
    };
    if growth != slope || (matches!(part.law, Law::Nim) && c != 0) {
        return Err(format!("the claim's part does not grow as {} does", part.name));
    }
    if stretch > 1 << 20 {
        return Err(format!("the stretch to compare with {} is too long", part.name));
    }
    for n in part.min..part.min + stretch as Coord {
        if at(node, part, n)? ^ c != part.value(n) {
            return Err(format!("the claim's part differs from {} at {n}", part.name));
        }
    }
    Ok(())
}

/// The heap game on `axis`: the rules that move along it, as a 1-D game, with its law.
fn part(game: &Game, axis: usize) -> Result<Part, String> {
    let name = &game.axes()[axis].name;
    let min = game.axes()[axis].min;
    let mut rules = Vec::new();
    let mut nim = false;
    for rule in game.rules() {
        let along = |d: &Vec<Coord>| -> Result<Option<Coord>, String> {
            match d.iter().filter(|&&x| x != 0).count() {
                1 => Ok((d[axis] != 0).then_some(d[axis])),
                _ => {
                    Err("a move changes two coordinates at once, so the board is not a sum".into())
                }
            }
        };
        let mine = |list: &Vec<Vec<Coord>>| -> Result<Vec<Vec<Coord>>, String> {
            Ok(list
                .iter()
                .map(along)
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .flatten()
                .map(|d| vec![d])
                .collect())
        };
        let projected = match rule {
            Rule::Step { offsets } => Rule::Step { offsets: mine(offsets)? },
            Rule::Jump { directions, steps } => {
                Rule::Jump { directions: mine(directions)?, steps: steps.clone() }
            }
            Rule::Slide { directions, max } => {
                let directions = mine(directions)?;
                nim |= max.is_none() && directions.iter().any(|d| d[0] == -1);
                Rule::Slide { directions, max: *max }
            }
            Rule::Split { .. } | Rule::TakeAndBreak { .. } => {
                return Err("a move leaves a sum of positions".into())
            }
        };
        let empty = match &projected {
            Rule::Step { offsets } => offsets.is_empty(),
            Rule::Jump { directions, .. } | Rule::Slide { directions, .. } => directions.is_empty(),
            _ => false,
        };
        if !empty {
            rules.push(projected);
        }
    }
    if nim {
        return Ok(Part { axis, min, law: Law::Nim, name: format!("a Nim heap on {name}") });
    }
    if rules.is_empty() {
        return Ok(Part { axis, min, law: Law::Zero, name: format!("no move on {name}") });
    }
    let heap = Game::new(name, "a part of a sum", vec![Axis::new(name, min)], rules)
        .map_err(|e| format!("the part on {name}: {e}"))?;
    let Some(reach) = subtraction_reach(&heap) else {
        return Err(format!(
            "no theorem gives the part on {name} its law (its moves are neither a slide of any \
             length nor a finite subtraction set)"
        ));
    };
    let amounts: Vec<String> = (1..=reach)
        .filter(|&k| heap.options(&[min + k as Coord]).iter().any(|o| o[0][0] == min))
        .map(|k| k.to_string())
        .collect();
    let mut values: Vec<u32> = Vec::new();
    let mut length = 64usize;
    while length <= 1 << 16 {
        while values.len() < length {
            let n = min + values.len() as Coord;
            let options =
                heap.options(&[n]).into_iter().map(|o| Nimber(values[(o[0][0] - min) as usize]));
            values.push(mex(options).0);
        }
        if let Some(law) = proved_law(&heap, &values, min) {
            let name = format!(
                "subtraction {{{}}} on {name} (period {}{}, proved)",
                amounts.join(", "),
                law.period.period,
                match law.period.preperiod {
                    0 => String::new(),
                    e => format!(" from {}", min + e as Coord),
                }
            );
            return Ok(Part { axis, min, law: Law::Periodic(law), name });
        }
        length *= 2;
    }
    Err(format!("the part on {name} shows no proved period within {} values", 1 << 16))
}
