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

use crate::proof::automatic::Claimed;
use crate::proof::theorems::{proved_law, subtraction_reach, ProvedLaw};
use crate::proof::{Proof, Theorem};
use grundy_core::{mex, Amounts, Axis, Coord, Game, MoveForm, Nimber, Rule};
use grundy_expr::{eval_node, node_reads, node_shift, Expr, Func, Node, Value};
use grundy_expr::{BinOp, Slot};

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
/// game is not a sum, a part has no proved law, or the claim is not the sum of its parts.
///
/// The claim is an xor of parts (values), or an equation between two xors of parts (P-set: the
/// xor of all the parts is 0). Each part reads one axis: a formula in its coordinate, equal to
/// the part's proved law up to an xor constant (the constants xor to 0), or the table's edge
/// `g_a` itself, which is the part's heap game wherever every part's minimum is terminal
/// (the edge holds G₁(a) ⊕ G₂(min) ⊕ …, and those are 0). An axis without moves may have no
/// part. Any number of axes.
pub(crate) fn prove(
    game: &Game,
    claimed: Claimed,
    expr: &Expr,
    slots: &[Slot],
) -> Result<Proof, String> {
    if let Some(why) = game.beyond_normal_recursion() {
        return Err(format!(
            "the sum theorem is about normal play along moves that end, and {why}"
        ));
    }
    let dims = game.dims();
    if dims < 2 {
        return Err("the sum theorem is about boards of two or more axes".into());
    }
    let heaps: Vec<Heap> = (0..dims).map(|axis| heap(game, axis)).collect::<Result<_, _>>()?;
    let leaves = leaves(expr.root(), claimed).ok_or(
        "the claim is not an xor of parts (values), or an equation between xors of parts (P-set)",
    )?;
    let slot_axes: Vec<Option<usize>> = slots
        .iter()
        .map(|slot| match slot {
            Slot::Axis(axis) => Some(*axis),
            Slot::Edge(_) | Slot::Value => None,
        })
        .collect();
    let axis_name = |axis: usize| game.axes()[axis].name.as_str();
    let (parts, mut constant) = by_axis(&leaves, slots, game)?;
    let mut named = Vec::new();
    for (axis, leaf) in parts.iter().enumerate() {
        let heap = &heaps[axis];
        let Some(node) = leaf else {
            if matches!(heap, Heap::Zero) {
                continue;
            }
            return Err(format!(
                "the claim has no part for {}, where there are moves",
                axis_name(axis)
            ));
        };
        let edge = slots.iter().position(|s| *s == Slot::Edge(axis));
        if edge.is_some_and(|slot| matches!(node, Node::Var(v) if *v == slot)) {
            // G(…, x, …) on the edge is G_axis(x) xor every other part at its minimum.
            if let Some(other) = (0..dims).find(|&d| !heaps[d].terminal_at_min(game, d)) {
                return Err(format!(
                    "the edge g_{} holds the part on {} at its minimum, which has moves",
                    axis_name(axis),
                    axis_name(other)
                ));
            }
            named.push(format!("the table's edge g_{0} (the heap game on {0})", axis_name(axis)));
            continue;
        }
        if edge.is_some_and(|slot| node_reads(node, slot)) {
            return Err(format!(
                "the claim's part for {} reads its edge inside a formula",
                axis_name(axis)
            ));
        }
        let part = part(game, axis, heap)?;
        let at = |n: Coord| -> Result<i64, String> {
            let values: Vec<i64> =
                slot_axes.iter().map(|a| if *a == Some(axis) { n } else { 0 }).collect();
            match eval_node(node, &values) {
                Ok(Value::Int(v)) => Ok(v),
                _ => Err(format!("the claim's part cannot be evaluated at {n}")),
            }
        };
        let c = at(part.min)? ^ part.value(part.min);
        agrees(node, &part, c, &slot_axes, &at)?;
        constant ^= c;
        named.push(match c {
            0 => part.name,
            c => format!("{} (the claim's part xor {c})", part.name),
        });
    }
    if constant != 0 {
        return Err(format!("the claim's parts differ from the parts' laws by xor {constant}"));
    }
    let how = match claimed {
        Claimed::Values => "the value is the xor of the parts' values",
        Claimed::PSet => "the P-positions are where the parts' values xor to 0",
    };
    Ok(Proof::by(
        Theorem::SumOfGames,
        format!(
            "{}: {how}, and the claim names each part by its law or its edge",
            named.join(" and ")
        ),
    ))
}

/// Whether every move of `game` changes one coordinate and leaves one position: the board is a
/// sum of one heap game per axis (whose laws may still be unknown).
pub(crate) fn is_sum(game: &Game) -> bool {
    game.beyond_normal_recursion().is_none()
        && (0..game.dims()).all(|axis| heap(game, axis).is_ok())
}

/// Whether the sum theorem knows a law for the heap game on `axis` of `game` (a Nim heap, no
/// move, or a finite subtraction set with its period proved), so that a formula for that part
/// can be proved equal to it; a part without one can still be named by its edge, `g_a`.
pub(crate) fn knows_part(game: &Game, axis: usize) -> bool {
    heap(game, axis).and_then(|heap| part(game, axis, &heap)).is_ok()
}

/// The claim's part for each axis of `dims` (the leaf that reads it), and the xor of the
/// constant leaves; `Err` when a leaf reads two axes or `g`, or two leaves read one axis.
fn by_axis<'n>(
    leaves: &[&'n Node],
    slots: &[Slot],
    game: &Game,
) -> Result<(Vec<Option<&'n Node>>, i64), String> {
    let (dims, axis_name) = (game.dims(), |axis: usize| game.axes()[axis].name.clone());
    let mut parts: Vec<Option<&Node>> = vec![None; dims];
    let mut constant = 0i64;
    for &leaf in leaves {
        let reads = |slot: usize| node_reads(leaf, slot);
        if slots.iter().enumerate().any(|(slot, s)| *s == Slot::Value && reads(slot)) {
            return Err("the claim reads g".into());
        }
        let read: Vec<usize> = (0..dims)
            .filter(|&axis| {
                slots.iter().enumerate().any(|(slot, s)| {
                    matches!(s, Slot::Axis(a) | Slot::Edge(a) if *a == axis) && reads(slot)
                })
            })
            .collect();
        match read.as_slice() {
            [] => match eval_node(leaf, &vec![0; slots.len()]) {
                Ok(Value::Int(v)) => constant ^= v,
                _ => return Err("a constant part of the claim is not an integer".into()),
            },
            [axis] if parts[*axis].is_none() => parts[*axis] = Some(leaf),
            [axis] => return Err(format!("two of the claim's parts read {}", axis_name(*axis))),
            _ => return Err("a part of the claim reads two axes".into()),
        }
    }
    Ok((parts, constant))
}

/// The claim's parts: the leaves of `xor(…)` for values; of both sides of `==` for a P-set
/// (`f == g` is `xor(f, g) == 0`).
fn leaves(root: &Node, claimed: Claimed) -> Option<Vec<&Node>> {
    fn xor_leaves<'n>(node: &'n Node, out: &mut Vec<&'n Node>) {
        match node {
            Node::Call(Func::Xor, args, _) => args.iter().for_each(|a| xor_leaves(a, out)),
            _ => out.push(node),
        }
    }
    let mut out = Vec::new();
    match (claimed, root) {
        (Claimed::Values, _) => xor_leaves(root, &mut out),
        (Claimed::PSet, Node::Bin(BinOp::Eq, a, b, true)) => {
            xor_leaves(a, &mut out);
            xor_leaves(b, &mut out);
        }
        (Claimed::PSet, _) => return None,
    }
    Some(out)
}

/// Whether `node` (a part of the claim) equals `part`'s law xor `c` at every coordinate from the
/// axis' smallest on, shown by its form and a finite stretch.
fn agrees(
    node: &Node,
    part: &Part,
    c: i64,
    slot_axes: &[Option<usize>],
    at: &dyn Fn(Coord) -> Result<i64, String>,
) -> Result<(), String> {
    let axis_name = |p: &Part| p.name.clone();
    // A lookup names the heaps of a preperiod one by one, `if(n == k, v, rest)`: past the last
    // such heap the part is `rest`, whose form is read.
    let (rest, past) = exceptions(node, part.axis, slot_axes);
    let past = past.max(part.min);
    let (periods, increments) = node_shift(rest, slot_axes.len()).ok_or_else(|| {
        format!("the claim's part for {} shows no period or slope in its form", axis_name(part))
    })?;
    // Shifting the axis shifts every slot that reads it: over the lcm P of their periods, the
    // part grows by K.
    let mut period: u64 = 1;
    for (slot, axis) in slot_axes.iter().enumerate() {
        if *axis == Some(part.axis) {
            period = grundy_expr::lcm(period, periods[slot]);
        }
    }
    let mut growth: i64 = 0;
    for (slot, axis) in slot_axes.iter().enumerate() {
        if *axis == Some(part.axis) {
            growth += increments[slot] * (period / periods[slot]) as i64;
        }
    }
    // Where the comparison may stop: one period of both past the exceptions and the law's
    // preperiod, from where each repeats (or grows by its slope).
    let (end, slope) = match &part.law {
        Law::Nim => (past.checked_add(period as Coord), period as i64),
        Law::Zero => (past.checked_add(period as Coord), 0),
        Law::Periodic(law) => {
            let (e, p) = (law.period.preperiod as u64, law.period.period as u64);
            let start = past.max(part.min + e as Coord);
            (start.checked_add(grundy_expr::lcm(p, period) as Coord), 0)
        }
    };
    if growth != slope || (matches!(part.law, Law::Nim) && c != 0) {
        return Err(format!("the claim's part does not grow as {} does", part.name));
    }
    let end = end
        .filter(|end| end - part.min <= 1 << 20)
        .ok_or_else(|| format!("the stretch to compare with {} is too long", part.name))?;
    for n in part.min..end {
        if at(n)? ^ c != part.value(n) {
            return Err(format!("the claim's part differs from {} at {n}", part.name));
        }
    }
    Ok(())
}

/// The part `node` less its leading exceptions `if(n == k, v, …)` (or `if((n - m) == k, v, …)`)
/// on the coordinate of `axis`, and the first coordinate past them all (`Coord::MIN` when none).
fn exceptions<'n>(node: &'n Node, axis: usize, slot_axes: &[Option<usize>]) -> (&'n Node, Coord) {
    let on_axis = |slot: &usize| slot_axes.get(*slot) == Some(&Some(axis));
    let point = |cond: &Node| -> Option<Coord> {
        let Node::Bin(BinOp::Eq, left, right, true) = cond else { return None };
        let Node::Const(Value::Int(k)) = **right else { return None };
        match &**left {
            Node::Var(slot) if on_axis(slot) => Some(k),
            Node::Bin(BinOp::Sub, var, m, true) => match (&**var, &**m) {
                (Node::Var(slot), Node::Const(Value::Int(m))) if on_axis(slot) => k.checked_add(*m),
                _ => None,
            },
            _ => None,
        }
    };
    let (mut node, mut past) = (node, Coord::MIN);
    while let Node::Call(Func::If, args, _) = node {
        let (Some(k), Node::Const(Value::Int(_))) = (point(&args[0]), &args[1]) else { break };
        past = past.max(k.saturating_add(1));
        node = &args[2];
    }
    (node, past)
}

/// The heap game on one axis, as the rules that move along it make it.
enum Heap {
    /// No move along the axis.
    Zero,
    /// A slide of any length: a Nim heap.
    Nim,
    /// Another heap game.
    Game(Game),
}

impl Heap {
    /// Whether the heap game has no move from the axis' smallest coordinate (value 0 there).
    fn terminal_at_min(&self, game: &Game, axis: usize) -> bool {
        match self {
            Heap::Zero | Heap::Nim => true,
            Heap::Game(heap) => heap.options(&[game.axes()[axis].min]).is_empty(),
        }
    }
}

/// The heap game on `axis`: the rules that move along it, as a 1-D game; `Err` when the board
/// is not a sum (a move changes two coordinates, or leaves a sum of positions).
fn heap(game: &Game, axis: usize) -> Result<Heap, String> {
    if let Some(terminal) = game.terminal() {
        return Err(format!(
            "no move starts where `{}` holds, which ties the coordinates together",
            terminal.text()
        ));
    }
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
        let mine = |list: &[Vec<Coord>]| -> Result<Vec<Vec<Coord>>, String> {
            Ok(list
                .iter()
                .map(along)
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .flatten()
                .map(|d| vec![d])
                .collect())
        };
        let MoveForm::Translate { directions, amounts } = rule.form() else {
            return Err("a move leaves a sum of positions".into());
        };
        let directions = mine(directions)?;
        nim |= amounts == (Amounts::Run { max: None }) && directions.iter().any(|d| d[0] == -1);
        if !directions.is_empty() {
            rules.push(Rule::translation(directions, amounts));
        }
    }
    if nim {
        return Ok(Heap::Nim);
    }
    if rules.is_empty() {
        return Ok(Heap::Zero);
    }
    Game::new(name, "a part of a sum", vec![Axis::new(name, min)], rules)
        .map(Heap::Game)
        .map_err(|e| format!("the part on {name}: {e}"))
}

/// The part on `axis` (its heap game `heap`) with its law.
fn part(game: &Game, axis: usize, heap: &Heap) -> Result<Part, String> {
    let name = &game.axes()[axis].name;
    let min = game.axes()[axis].min;
    let heap = match heap {
        Heap::Nim => {
            return Ok(Part { axis, min, law: Law::Nim, name: format!("a Nim heap on {name}") })
        }
        Heap::Zero => {
            return Ok(Part { axis, min, law: Law::Zero, name: format!("no move on {name}") })
        }
        Heap::Game(heap) => heap,
    };
    let Some(reach) = subtraction_reach(heap) else {
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
        if let Some(law) = proved_law(heap, &values, min) {
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
