//! `moves` of sums with loopy components (issue 32): every move's outcome, as the library gives
//! it from the components' generalized values and Smith's rule, against a win/lose/draw search
//! of the whole sum's game graph, built from the components' options.

use grundy_compute::{FillRequest, NoProgress};
use grundy_core::{parse_spec, Coord, Game, LoopyOutcome, LoopyValue, Table, TableShape};
use grundy_play::moves::{moves_of, Term};
use std::collections::HashMap;

/// A seeded generator (fastrand's wyrand), so that a failure names its case again.
type Draws = fastrand::Rng;

/// Small loopy games (catalog rules on smaller boards, and a heap game that may grow) and one
/// game that ends, each with the positions a sum draws from.
fn games() -> Vec<(Game, Vec<Vec<Coord>>)> {
    let spec = |text: &str| parse_spec(text, "test.toml").unwrap();
    let knight = spec(
        "name = \"knight-7\"\ndescription = \"knight-retreat on 7 x 7\"\n\
         axes = [{ name = \"n\", min = 0, max = 6 }, { name = \"m\", min = 0, max = 6 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2, -1], [-1, -2], [-1, 0], [1, 1]]\n",
    );
    let shuffle = spec(
        "name = \"shuffle-6\"\ndescription = \"diagonal-shuffle on 6 x 6\"\n\
         axes = [{ name = \"n\", min = 0, max = 5 }, { name = \"m\", min = 0, max = 5 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-1, -1], [-2, -2], [1, -1], [-1, 1]]\n",
    );
    let heaps = spec(
        "name = \"grow-12\"\ndescription = \"take 2 or 3, or add 1, heaps to 12\"\n\
         axes = [{ name = \"n\", min = 0, max = 12 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2], [-3], [1]]\n",
    );
    let board = |n: Coord| (0..n).flat_map(|i| (0..n).map(move |j| vec![i, j])).collect();
    let ends = grundy_core::lookup("subtraction:1,3,4").unwrap();
    vec![
        (knight, board(7)),
        (shuffle, board(6)),
        (heaps, (0..=12).map(|h| vec![h]).collect()),
        (ends, (0..=14).map(|h| vec![h]).collect()),
    ]
}

/// Win/lose/draw of every position of a graph, by the definition: P when every option is N
/// (so a position without a move is P), N when some option is P, until nothing changes; the
/// rest are draws.
fn brute_outcomes(options: &[Vec<usize>]) -> Vec<LoopyOutcome> {
    let mut outcome: Vec<Option<LoopyOutcome>> = vec![None; options.len()];
    loop {
        let mut changed = false;
        for u in 0..options.len() {
            if outcome[u].is_some() {
                continue;
            }
            if options[u].iter().any(|&v| outcome[v] == Some(LoopyOutcome::P)) {
                outcome[u] = Some(LoopyOutcome::N);
                changed = true;
            } else if options[u].iter().all(|&v| outcome[v] == Some(LoopyOutcome::N)) {
                outcome[u] = Some(LoopyOutcome::P);
                changed = true;
            }
        }
        if !changed {
            return outcome.into_iter().map(|o| o.unwrap_or(LoopyOutcome::D)).collect();
        }
    }
}

/// One component's graph over its positions (and every position they reach), by
/// `Game::options`: the positions, their numbers and their options.
struct Component {
    positions: Vec<Vec<Coord>>,
    index: HashMap<Vec<Coord>, usize>,
    options: Vec<Vec<usize>>,
}

fn component(game: &Game, start: &[Vec<Coord>]) -> Component {
    let mut positions = start.to_vec();
    let mut index: HashMap<Vec<Coord>, usize> =
        positions.iter().enumerate().map(|(i, p)| (p.clone(), i)).collect();
    let mut options = Vec::new();
    let mut at = 0;
    while at < positions.len() {
        let mut out = Vec::new();
        for option in game.options(&positions[at]) {
            let [to] = &option[..] else { panic!("these games' moves leave one position") };
            let next = positions.len();
            let v = *index.entry(to.clone()).or_insert(next);
            if v == next {
                positions.push(to.clone());
            }
            out.push(v);
        }
        options.push(out);
        at += 1;
    }
    Component { positions, index, options }
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
    let components: Vec<Component> = games.iter().map(|(g, p)| component(g, p)).collect();
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
        let sizes: Vec<usize> = picked.iter().map(|&g| components[g].positions.len()).collect();
        let mut stride = vec![1usize; count];
        for j in 1..count {
            stride[j] = stride[j - 1] * sizes[j - 1];
        }
        let total: usize = sizes.iter().product();
        let options: Vec<Vec<usize>> = (0..total)
            .map(|x| {
                let mut out = Vec::new();
                for (j, &g) in picked.iter().enumerate() {
                    let at = x / stride[j] % sizes[j];
                    for &v in &components[g].options[at] {
                        out.push(x - at * stride[j] + v * stride[j]);
                    }
                }
                out
            })
            .collect();
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
