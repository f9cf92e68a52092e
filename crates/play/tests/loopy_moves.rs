//! `moves` of sums with loopy components (issue 32): every move's outcome, as the library gives
//! it from the components' generalized values and Smith's rule, against a win/lose/draw search
//! of the whole sum's game graph, built from the components' options.

use grundy_compute::{FillRequest, NoProgress};
use grundy_core::{Coord, Game, LoopyValue, Table, TableShape};
use grundy_play::moves::{moves_of, Term};
use grundy_testkit::fixtures;
use grundy_testkit::loopy::{brute_outcomes, sum_graph, Component};

/// A seeded generator (fastrand's wyrand), so that a failure names its case again.
type Draws = fastrand::Rng;

/// Small loopy games (catalog rules on smaller boards, and a heap game that may grow, from the
/// test kit's fixtures) and one game that ends, each with the positions a sum draws from.
fn games() -> Vec<(Game, Vec<Vec<Coord>>)> {
    let board = |n: Coord| (0..n).flat_map(|i| (0..n).map(move |j| vec![i, j])).collect();
    let ends = grundy_core::lookup("subtraction:1,3,4").unwrap();
    vec![
        (fixtures::game("knight-7"), board(7)),
        (fixtures::game("shuffle-6"), board(6)),
        (fixtures::game("grow-12"), (0..=12).map(|h| vec![h]).collect()),
        (ends, (0..=14).map(|h| vec![h]).collect()),
    ]
}

/// Any game's table through the library's one entry, as every front end fills it.
fn fill(game: &Game, shape: &TableShape) -> Result<Table, String> {
    let fill = FillRequest::new(game, shape)
        .whole(&grundy_compute::memory::Besides::NOTHING)
        .map_err(|e| e.to_string())?;
    fill.fill(&NoProgress).map_err(|e| e.to_string())
}

/// Random sums of two and three positions of the games above: the sum's outcome and, for
/// every move of every component, the outcome it leaves agree with the search of the sum's
/// graph; the moves listed are the component's options, each once.
#[test]
fn every_move_of_a_loopy_sum_leaves_the_outcome_the_sum_graph_gives() {
    let games = games();
    let components: Vec<Component> = games.iter().map(|(g, p)| Component::new(g, p)).collect();
    let mut draws = Draws::with_seed(0x10c0_ffee_0032);
    let mut seen = [0usize; 3];
    for case in 0..150 {
        let count = 2 + draws.u64(..2) as usize;
        let picked: Vec<usize> =
            (0..count).map(|_| draws.u64(..games.len() as u64) as usize).collect();
        if picked.iter().all(|&g| !games[g].0.is_loopy()) {
            continue;
        }
        let positions: Vec<Vec<Coord>> = picked
            .iter()
            .map(|&g| games[g].1[draws.u64(..games[g].1.len() as u64) as usize].clone())
            .collect();
        // The sum's graph over the product of the picked components' graphs.
        let parts: Vec<&[Vec<usize>]> =
            picked.iter().map(|&g| components[g].options.as_slice()).collect();
        let (options, stride) = sum_graph(&parts);
        let outcomes = brute_outcomes(&options);
        let state: usize = picked
            .iter()
            .zip(&positions)
            .enumerate()
            .map(|(j, (&g, p))| components[g].index[p] * stride[j])
            .sum();
        // The library's moves, one term per component (a game may appear twice).
        let texts: Vec<String> = positions.iter().map(|p| format!("{p:?}")).collect();
        let terms: Vec<Term<'_, '_>> = picked
            .iter()
            .zip(&positions)
            .zip(&texts)
            .map(|((&g, p), text)| Term {
                game: &games[g].0,
                positions: vec![(text.as_str(), p.clone())],
            })
            .collect();
        let moves = moves_of::<LoopyValue, _>(&terms, &mut fill).unwrap();
        let what = format!("case {case}: {picked:?} at {positions:?}");
        assert_eq!(moves.value.outcome(), outcomes[state], "{what}");
        seen[outcomes[state] as usize] += 1;
        for (j, (&g, component)) in picked.iter().zip(&moves.components).enumerate() {
            let at = components[g].index[&positions[j]];
            let mut listed = Vec::new();
            for group in &component.groups {
                assert!(group.classes.is_empty(), "{what}: small groups are listed");
                for option in &group.options {
                    let [to] = &option.to[..] else { panic!("one position") };
                    let v = components[g].index[to];
                    listed.push(v);
                    let after = state - at * stride[j] + v * stride[j];
                    let outcome = option.sum.outcome();
                    assert_eq!(outcome, outcomes[after], "{what}: move {j} to {to:?}");
                }
            }
            let mut expected = components[g].options[at].clone();
            expected.sort_unstable();
            listed.sort_unstable();
            assert_eq!(listed, expected, "{what}: the moves of component {j}");
        }
        let report = serde_json::to_value(moves.report()).unwrap();
        assert_eq!(report["outcome"], outcomes[state].letter().to_string(), "{what}");
    }
    // The sums are not all of one outcome.
    assert!(seen.iter().all(|&k| k >= 3), "{seen:?}");
}
