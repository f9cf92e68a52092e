//! Piecewise laws: a case split by residue class or by region, each piece's formula found by
//! the synthesis on the piece's own cells, joined as one claim. `diagonal-shuffle` (a loopy
//! board) is ∞ where n + m is odd and min(n, m) mod 3 elsewhere: `if((n + m) % 2 == 0, g ==
//! min(n, m) % 3, g == -1)`. On a table of values the claim is a values claim `if(c, f1, f2)`;
//! on a loopy board a holds claim on `g`, the value (−1 at an ∞ position).

use super::synthesis::Synthesis;
use super::{LawSearch, Proposal, Source};
use crate::conjecture::ClaimKind;
use grundy_core::INFINITE_G;
use grundy_expr::Expr;
use rayon::prelude::*;
use std::time::Instant;

/// The largest formula of a piece (nodes).
const LARGEST_PIECE: usize = 5;

/// The fewest sample cells a piece must have to be solved.
const FEWEST_SAMPLES: usize = 12;

/// Whether a cell (a, b) is in a piece.
type Inside = fn(i64, i64) -> bool;

/// A case split: each piece's condition (the last piece's is what is left) and membership.
struct Split {
    pieces: Vec<(String, Inside)>,
}

fn splits([a, b]: [&str; 2]) -> Vec<Split> {
    let piece = |text: String, f: Inside| (text, f);
    vec![
        Split {
            pieces: vec![
                piece(format!("({a} + {b}) % 2 == 0"), |a, b| (a + b).rem_euclid(2) == 0),
                piece(String::new(), |_, _| true),
            ],
        },
        Split {
            pieces: vec![
                piece(format!("{a} % 2 == 0"), |a, _| a.rem_euclid(2) == 0),
                piece(String::new(), |_, _| true),
            ],
        },
        Split {
            pieces: vec![
                piece(format!("{b} % 2 == 0"), |_, b| b.rem_euclid(2) == 0),
                piece(String::new(), |_, _| true),
            ],
        },
        Split {
            pieces: vec![
                piece(format!("{a} < {b}"), |a, b| a < b),
                piece(format!("{a} == {b}"), |a, b| a == b),
                piece(String::new(), |_, _| true),
            ],
        },
    ]
}

/// What a piece holds: ∞ everywhere, or the values of a formula.
#[derive(Clone, PartialEq, Eq)]
enum Piece {
    Infinite,
    Formula(String),
}

/// Piecewise laws of a 2-D table, each from one split whose every piece has a formula.
pub(super) fn propose(
    source: &Source<'_>,
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    let Some(g) = source.value.or(source.labels) else { return Vec::new() };
    let loopy = source.value.is_none();
    let names = [source.names[0].as_str(), source.names[1].as_str()];
    // Spread samples, and the main diagonal's first cells (the region a == b is thin).
    let mut flats = source.samples(600);
    let cols = source.lens[1];
    flats.extend((0..source.lens[0].min(cols).min(64)).map(|i| i * cols + i));
    flats.sort_unstable();
    flats.dedup();
    let cells: Vec<([i64; 2], i64)> = flats
        .iter()
        .map(|&f| {
            let c = source.coords(f);
            ([c[0], c[1]], g(f))
        })
        .collect();
    // The splits are independent: solved at once on the pool (the table is filled by now, and
    // the synthesis is the law search's own cost), in their order.
    let solved: Vec<(Option<Proposal>, u64)> = splits(names)
        .into_par_iter()
        .map(|split| {
            let mut tried = LawSearch::default();
            let pieces = solve(&split, &cells, &source.names, deadline, &mut tried);
            // Not a law by pieces where one formula holds everywhere (Nim is xor on every side).
            let law = pieces
                .filter(|pieces| !one_formula_fits(pieces, &cells, &source.names))
                .map(|pieces| claim(&split, &pieces, loopy));
            (law, tried.formulas_tried)
        })
        .collect();
    search.formulas_tried += solved.iter().map(|(_, tried)| tried).sum::<u64>();
    solved.into_iter().filter_map(|(law, _)| law).collect()
}

/// Each piece of `split` solved on its sample cells, or `None` when one has no formula.
fn solve(
    split: &Split,
    cells: &[([i64; 2], i64)],
    names: &[String],
    deadline: Instant,
    search: &mut LawSearch,
) -> Option<Vec<Piece>> {
    let mut taken = vec![false; cells.len()];
    let mut pieces = Vec::new();
    for (_, inside) in &split.pieces {
        let mine: Vec<usize> = (0..cells.len())
            .filter(|&k| !taken[k] && inside(cells[k].0[0], cells[k].0[1]))
            .collect();
        if mine.len() < FEWEST_SAMPLES {
            return None;
        }
        for &k in &mine {
            taken[k] = true;
        }
        let target: Vec<i64> = mine.iter().map(|&k| cells[k].1).collect();
        if target.iter().all(|&v| v == INFINITE_G) {
            pieces.push(Piece::Infinite);
            continue;
        }
        if target.contains(&INFINITE_G) {
            return None;
        }
        let points: Vec<Vec<i64>> = mine.iter().map(|&k| cells[k].0.to_vec()).collect();
        let found = Synthesis::new(names, &points).find(&target, LARGEST_PIECE, deadline);
        search.formulas_tried += found.tried;
        pieces.push(Piece::Formula(found.candidates.into_iter().next()?));
    }
    Some(pieces)
}

/// Whether one piece's formula gives every sample cell, so that the split says nothing.
fn one_formula_fits(pieces: &[Piece], cells: &[([i64; 2], i64)], names: &[String]) -> bool {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    pieces.iter().any(|piece| match piece {
        Piece::Infinite => cells.iter().all(|&(_, g)| g == INFINITE_G),
        Piece::Formula(text) => Expr::parse(text, &names)
            .is_ok_and(|expr| cells.iter().all(|(at, g)| expr.eval_int(at) == Ok(*g))),
    })
}

/// The split as one claim: a values claim on a table of values, a holds claim on `g` on a
/// loopy board.
fn claim(split: &Split, pieces: &[Piece], loopy: bool) -> Proposal {
    let said = |piece: &Piece| match (piece, loopy) {
        (Piece::Infinite, _) => format!("g == {INFINITE_G}"),
        (Piece::Formula(f), true) => format!("g == {f}"),
        (Piece::Formula(f), false) => f.clone(),
    };
    let last = pieces.len() - 1;
    let mut expression = said(&pieces[last]);
    for k in (0..last).rev() {
        expression = format!("if({}, {}, {expression})", split.pieces[k].0, said(&pieces[k]));
    }
    let words: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(k, piece)| {
            let what = match piece {
                Piece::Infinite => "∞".to_string(),
                Piece::Formula(f) => f.clone(),
            };
            if k == last {
                format!("elsewhere {what}")
            } else {
                format!("where {}, {what}", split.pieces[k].0)
            }
        })
        .collect();
    Proposal {
        kind: if loopy { ClaimKind::Holds } else { ClaimKind::Values },
        statement: format!("the value by pieces: {}", words.join("; ")),
        expression,
        found_by: "pieces",
    }
}
