//! Misère laws near normal ones. Under misère play the P-positions of many games are those of
//! normal play except in a small corner around the positions without a move: misère Nim's are
//! Nim's outside (0, 0) … (1, 1), misère Wythoff's are Wythoff's outside (0, 0) … (2, 2). The
//! source fills the same game's normal-play table on a box, reads its P-set proposals with the
//! other sources, and when the two P-sets differ only within a corner of side at most
//! [`LARGEST_CORNER`], proposes each normal law outside the corner with the corner's misère
//! P-positions listed: `(a <= 2 && b <= 2 && (…)) || ((a > 2 || b > 2) && (law))`. As every
//! proposal, it is checked on every cell of the misère table and proved there (the automata's
//! misère sentences), never taken from the normal table.

use super::{beatty, p_equations, rays, separable, LawSearch, Proposal, Source};
use crate::conjecture::ClaimKind;
use grundy_core::{Play, Table, TableShape};
use std::time::Instant;

/// The largest corner (cells along each axis, less one) named position by position.
const LARGEST_CORNER: usize = 7;

/// The normal-play table is filled on a box of at most this many cells along each axis: enough
/// to see its laws, small enough for the reference fill.
const NORMAL_SIDE: usize = 96;

/// The table's P-set as a normal-play law outside a corner, for a 2-D game's table under
/// another play.
pub(super) fn propose(
    source: &Source<'_>,
    deadline: Instant,
    search: &mut LawSearch,
) -> Vec<Proposal> {
    let Some(game) = source.described.game() else { return Vec::new() };
    // The table's own game under normal play: nothing to compare with when it is the same.
    let normal = game.clone().with_play(Play::Normal);
    // A loopy board's labels are not values of a fill position by position.
    if &normal == game || source.labels.is_some() || source.lens.len() != 2 {
        return Vec::new();
    }
    let [rows, cols] = [source.lens[0].min(NORMAL_SIDE), source.lens[1].min(NORMAL_SIDE)];
    // A corner must leave most of the box to the law.
    if rows.min(cols) < 4 * (LARGEST_CORNER + 1) {
        return Vec::new();
    }
    let max = vec![source.mins[0] + rows as i64 - 1, source.mins[1] + cols as i64 - 1];
    let shape = TableShape::from_axes(game.axes().to_vec(), max);
    let values = grundy_compute::fill_reference(&normal, &shape);
    let table = Table::of_game(normal, values);
    let normal_p = |f: usize| table.data().get_flat(f).is_p();
    let misere_p = |i: usize, j: usize| (source.is_p)(i * source.lens[1] + j);
    // The smallest corner outside which the P-sets agree on the box.
    let mut corner = 0;
    for i in 0..rows {
        for j in 0..cols {
            if normal_p(i * cols + j) != misere_p(i, j) {
                corner = corner.max(i.max(j) + 1);
            }
        }
    }
    if corner == 0 || corner > LARGEST_CORNER + 1 {
        return Vec::new();
    }
    // The normal table as the sources read it, built here (not through `analysis`, which calls
    // this search).
    let normal_source = Source {
        described: &table,
        names: source.names.clone(),
        mins: source.mins.clone(),
        lens: vec![rows, cols],
        value: None,
        labels: None,
        is_p: &normal_p,
        rules: Vec::new(),
    };
    let mut laws = rays::propose(&normal_source);
    laws.extend(p_equations(&normal_source, deadline, search));
    laws.extend(beatty::propose(&normal_source));
    laws.extend(separable::propose(&normal_source));
    let [a, b] = [&source.names[0], &source.names[1]];
    let [low_a, low_b] = [source.mins[0], source.mins[1]];
    let [high_a, high_b] = [low_a + corner as i64 - 1, low_b + corner as i64 - 1];
    let cells: Vec<(i64, i64)> = (0..corner)
        .flat_map(|i| (0..corner).map(move |j| (i, j)))
        .filter(|&(i, j)| misere_p(i, j))
        .map(|(i, j)| (low_a + i as i64, low_b + j as i64))
        .collect();
    let listed: Vec<String> =
        cells.iter().map(|(i, j)| format!("({a} == {i} && {b} == {j})")).collect();
    let pairs: Vec<String> = cells.iter().map(|(i, j)| format!("({i}, {j})")).collect();
    let inside = format!("{a} <= {high_a} && {b} <= {high_b}");
    let outside = format!("({a} > {high_a} || {b} > {high_b})");
    laws.into_iter()
        .filter(|law| law.kind == ClaimKind::PSet)
        .map(|law| {
            let expression = match listed.is_empty() {
                true => format!("{outside} && ({})", law.expression),
                false => format!(
                    "({inside} && ({})) || ({outside} && ({}))",
                    listed.join(" || "),
                    law.expression
                ),
            };
            let statement = format!(
                "under misère play, the P-positions of normal play outside the corner \
                 {inside} (normal play's law: {}), and in the corner {}",
                law.statement,
                match pairs.is_empty() {
                    true => "none".to_string(),
                    false => pairs.join(", "),
                }
            );
            Proposal { kind: ClaimKind::PSet, expression, statement, found_by: "misère corner" }
        })
        .collect()
}
