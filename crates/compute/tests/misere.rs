//! Misère tables against an independent brute force: a position is a misère P-position exactly
//! when it has an option and every option is an N-position (a position without a move is an
//! N-position: its player, having no move, wins). The brute force knows nothing of mex or of
//! `Play::value`; it reads the rules through `Game::options` and recurses with a memo.

mod common;

use common::fill_all_ways;
use grundy_core::{lookup, parse_spec, Coord, Game, Play};
use ndarray::Dimension;
use std::collections::HashMap;

/// Whether `pos` is a misère P-position, by the definition.
fn misere_p(game: &Game, pos: &[Coord], memo: &mut HashMap<Vec<Coord>, bool>) -> bool {
    if let Some(&known) = memo.get(pos) {
        return known;
    }
    let options = game.options(pos);
    let p = !options.is_empty()
        && options.iter().all(|option| {
            assert_eq!(option.len(), 1, "a single position");
            !misere_p(game, &option[0], memo)
        });
    memo.insert(pos.to_vec(), p);
    p
}

fn check(game: &Game, max: &[i64]) {
    let game = game.clone().with_play(Play::Misere);
    let table = fill_all_ways(&game, max);
    let mut memo = HashMap::new();
    let mut p_positions = 0;
    for index in ndarray::indices(ndarray::IxDyn(&table.shape().lens())) {
        let pos: Vec<Coord> =
            index.slice().iter().zip(game.axes()).map(|(&i, axis)| axis.min + i as Coord).collect();
        let value = table.get(&pos).unwrap().value();
        let p = misere_p(&game, &pos, &mut memo);
        assert_eq!(value == 0, p, "{} at {pos:?}: value {value}", game.name());
        p_positions += usize::from(p);
    }
    assert!(p_positions > 0, "{}: some P-positions", game.name());
}

#[test]
fn misere_tables_agree_with_the_definition() {
    for name in ["kiki", "wythoff", "prime-steps", "fibonacci-rook", "subtract-a-square"] {
        let game = lookup(name).unwrap();
        let max: &[i64] = if game.dims() == 1 { &[400] } else { &[33, 41] };
        check(&game, max);
    }
    // A spec that states its own convention, with slides along a row and a column and
    // knight-like steps: the line summaries carry misère values too.
    let spec = r#"
name = "misere-rook-knight"
play = "misere"
axes = [{ name = "x", min = 0 }, { name = "y", min = 2 }]
[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1]]
[[rules]]
kind = "step"
offsets = [[-2, -1], [-1, -2]]
"#;
    let game = parse_spec(spec, "misere-rook-knight").unwrap();
    assert_eq!(game.play(), Play::Misere);
    check(&game, &[37, 30]);
}

/// The misère tables differ from the normal ones, so that a kernel ignoring the convention
/// cannot pass the test above by accident.
#[test]
fn misere_differs_from_normal_play() {
    for name in ["kiki", "wythoff"] {
        let normal = lookup(name).unwrap();
        let misere = normal.clone().with_play(Play::Misere);
        let a = fill_all_ways(&normal, &[20, 20]);
        let b = fill_all_ways(&misere, &[20, 20]);
        assert!(a != b, "{name}");
    }
}
