use super::*;
use grundy_core::{lookup, parse_spec};

/// The flat moves are the rules' meaning: the same options, counted, as `Game::options`,
/// position by position, for steps, jumps (lists, ranges, named sets) and slides (with and
/// without a bound) in every direction, near the edges and away from them.
#[test]
fn flat_moves_are_the_options_of_the_rules() {
    let specs = [
        r#"name = "a"
axes = [{ name = "n", min = 1, max = 14 }, { name = "m", min = 0, max = 9 }]
[[rules]]
kind = "step"
offsets = [[-2, 1], [1, -2], [1, 1]]
[[rules]]
kind = "jump"
directions = [[-1, 1], [1, 0]]
steps = "primes"
[[rules]]
kind = "slide"
directions = [[0, -1], [1, -1]]
max = 3
[[rules]]
kind = "slide"
directions = [[-1, -1]]
"#,
        r#"name = "b"
axes = [{ name = "n", min = 0, max = 40 }]
[[rules]]
kind = "jump"
directions = [[-1]]
steps = "2.."
all-but = [5]
[[rules]]
kind = "step"
offsets = [[3]]
"#,
        r#"name = "c"
axes = [{ name = "x", min = 0, max = 4 }, { name = "y", min = 2, max = 6 }, { name = "z", min = 0 }]
[[rules]]
kind = "step"
offsets = [[1, -1, -1], [-1, 1, 0], [0, 0, -2]]
"#,
    ];
    let mut games: Vec<Game> = specs.iter().map(|s| parse_spec(s, "t").unwrap()).collect();
    games.extend(
        ["knight-retreat", "diagonal-shuffle", "wythoff", "prime-steps"]
            .map(|n| lookup(n).unwrap()),
    );
    for game in &games {
        let max: Vec<Coord> = game.axes().iter().map(|a| a.max.unwrap_or(a.min + 11)).collect();
        let shape = TableShape::new(game, &max, "t").unwrap();
        let moves = FlatMoves::new(game, &shape);
        let lens = shape.lens();
        for u in 0..shape.cells() as usize {
            let mut at = u;
            let mut pos = vec![0; lens.len()];
            for d in (0..lens.len()).rev() {
                pos[d] = game.axes()[d].min + (at % lens[d]) as Coord;
                at /= lens[d];
            }
            let mut expected: Vec<usize> = game
                .options(&pos)
                .iter()
                .map(|option| shape.index_of(&option[0]).expect("inside the table"))
                .collect();
            let mut found = Vec::new();
            moves.options(u, &mut found);
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{} at {pos:?}", game.name());
        }
    }
}
