//! Known sequences (OEIS), contest samples and closed forms.

mod common;

use common::{fill_waves, sequence};
use grundy_core::{lookup, Game, GrundyTable, Nimber};
use serde::Deserialize;

#[derive(Deserialize)]
struct Sequences {
    sequence: Vec<Known>,
}

#[derive(Deserialize)]
struct Known {
    oeis: String,
    offset: usize,
    values: Vec<u32>,
}

fn known(oeis: &str) -> Vec<u32> {
    let all: Sequences = toml::from_str(include_str!("data/sequences.toml")).unwrap();
    let entry = all.sequence.into_iter().find(|s| s.oeis == oeis).unwrap();
    assert_eq!(entry.offset, 0);
    entry.values
}

fn check_prefix(game: &Game, oeis: &str) {
    let expected = known(oeis);
    let table = fill_waves(game, &[expected.len() as i64 - 1]);
    assert_eq!(sequence(&table), expected, "{} against {oeis}", game.name());
}

#[test]
fn heap_games_match_the_oeis() {
    check_prefix(&lookup("kayles").unwrap(), "A002186");
    check_prefix(&lookup("octal:0.77").unwrap(), "A002186");
    check_prefix(&lookup("dawsons-chess").unwrap(), "A002187");
    check_prefix(&lookup("octal:0.6").unwrap(), "A046695");
    check_prefix(&lookup("grundys-game").unwrap(), "A002188");
    check_prefix(&lookup("subtract-a-square").unwrap(), "A014586");
    check_prefix(&lookup("subtract-a-prime").unwrap(), "A014589");
}

#[test]
fn dawsons_kayles_is_dawsons_chess_shifted_by_one() {
    let chess = known("A002187");
    let table = fill_waves(&lookup("dawsons-kayles").unwrap(), &[chess.len() as i64]);
    let kayles = sequence(&table);
    assert_eq!(kayles[0], 0);
    assert_eq!(&kayles[1..], &chess[..]);
}

#[test]
fn kayles_is_periodic_with_period_12_after_70() {
    let values = sequence(&fill_waves(&lookup("kayles").unwrap(), &[3000]));
    assert!((71..=3000 - 12).all(|n| values[n] == values[n + 12]));
    assert_ne!(values[70], values[82]);
}

#[test]
fn subtraction_2_3_5_repeats_0_0_1_1_2_2_3() {
    let values = sequence(&fill_waves(&lookup("subtraction:2,3,5").unwrap(), &[699]));
    let period = [0, 0, 1, 1, 2, 2, 3];
    assert!(values.iter().enumerate().all(|(n, &v)| v == period[n % 7]));
}

fn wythoff(max: i64) -> GrundyTable {
    fill_waves(&lookup("wythoff").unwrap(), &[max, max])
}

#[test]
fn wythoff_matches_the_oeis() {
    let table = wythoff(80);
    let at = |a: i64, b: i64| table.get(&[a, b]).unwrap().value();
    let triangle = known("A317205");
    let mut flat = Vec::new();
    for n in 0.. {
        if flat.len() >= triangle.len() {
            break;
        }
        flat.extend((0..=n).map(|m| at(n, m)));
    }
    assert_eq!(&flat[..triangle.len()], &triangle[..]);
    let diagonal = known("A047708");
    assert_eq!((0..diagonal.len() as i64).map(|n| at(n, n)).collect::<Vec<_>>(), diagonal);
    for (row, oeis) in [(3, "A004484"), (4, "A004485")] {
        let expected = known(oeis);
        assert_eq!((0..expected.len() as i64).map(|n| at(row, n)).collect::<Vec<_>>(), expected);
    }
}

#[test]
fn wythoff_p_positions_follow_the_golden_ratio() {
    let n = 300;
    let table = wythoff(n);
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut expected = std::collections::HashSet::new();
    for k in 0.. {
        let (a, b) = ((k as f64 * phi).floor() as i64, (k as f64 * phi * phi).floor() as i64);
        if a > n {
            break;
        }
        expected.insert((a, b));
        expected.insert((b, a));
    }
    for a in 0..=n {
        for b in 0..=n {
            assert_eq!(
                table.get(&[a, b]).unwrap().is_p(),
                expected.contains(&(a, b)),
                "({a}, {b})"
            );
        }
    }
}

#[test]
fn nim_is_xor() {
    let table = fill_waves(&lookup("nim").unwrap(), &[130, 70]);
    for a in 0..=130 {
        for b in 0..=70 {
            assert_eq!(table.get(&[a, b]), Some(Nimber((a ^ b) as u32)));
        }
    }
}

#[test]
fn kiki_p_positions_are_both_odd() {
    let table = fill_waves(&lookup("kiki").unwrap(), &[2000, 2000]);
    for n in 1..=2000 {
        for m in 1..=2000 {
            assert_eq!(table.get(&[n, m]).unwrap().is_p(), n % 2 == 1 && m % 2 == 1);
        }
    }
}

/// The cutting game by a memoised recursion written straight from the contest statement.
fn cutting_by_recursion(w: usize, h: usize, memo: &mut Vec<Vec<Option<u32>>>) -> u32 {
    if let Some(v) = memo[w][h] {
        return v;
    }
    let mut seen = vec![false; 2 * (w + h) + 2];
    for a in 2..=w.saturating_sub(2) {
        let v = cutting_by_recursion(a, h, memo) ^ cutting_by_recursion(w - a, h, memo);
        seen[v as usize] = true;
    }
    for b in 2..=h.saturating_sub(2) {
        let v = cutting_by_recursion(w, b, memo) ^ cutting_by_recursion(w, h - b, memo);
        seen[v as usize] = true;
    }
    let value = seen.iter().position(|&s| !s).unwrap() as u32;
    memo[w][h] = Some(value);
    value
}

#[test]
fn cutting_matches_a_direct_recursion() {
    let table = fill_waves(&lookup("cutting").unwrap(), &[60, 60]);
    let mut memo = vec![vec![None; 61]; 61];
    for w in 2..=60 {
        for h in 2..=60 {
            assert_eq!(
                table.get(&[w as i64, h as i64]).unwrap().value(),
                cutting_by_recursion(w, h, &mut memo)
            );
        }
    }
}

#[test]
fn contest_samples() {
    let outcome = |game: &str, pos: [i64; 2]| {
        let table = fill_waves(&lookup(game).unwrap(), &pos);
        if table.get(&pos).unwrap().is_p() {
            'P'
        } else {
            'N'
        }
    };
    // POJ 2311: LOSE, LOSE, WIN.
    assert_eq!([[2, 2], [3, 2], [4, 2]].map(|p| outcome("cutting", p)), ['P', 'P', 'N']);
    // HDU 2147: What a pity!, Wonderful!, Wonderful!
    assert_eq!([[5, 3], [5, 4], [6, 6]].map(|p| outcome("kiki", p)), ['P', 'N', 'N']);
    // Prime steps: Shiro, Shiro, Shiro, Sora.
    assert_eq!(
        [[1, 1], [2, 2], [10, 10], [30, 30]].map(|p| outcome("prime-steps", p)),
        ['P', 'P', 'P', 'N']
    );
    // HDU 1536: S = {2, 5} gives LWW and S = {1, ..., 5} gives WWL.
    let positions: [&[i64]; 3] = [&[5, 12], &[2, 4, 7], &[2, 3, 7, 12]];
    for (game, expected) in [("subtraction:2,5", "LWW"), ("subtraction:1,2,3,4,5", "WWL")] {
        let table = fill_waves(&lookup(game).unwrap(), &[12]);
        let answer: String = positions
            .iter()
            .map(|heaps| {
                let sum = heaps.iter().fold(Nimber::ZERO, |s, &h| s ^ table.get(&[h]).unwrap());
                if sum.is_p() {
                    'L'
                } else {
                    'W'
                }
            })
            .collect();
        assert_eq!(answer, expected, "{game}");
    }
}

#[test]
fn the_fibonacci_rook_is_a_sum_of_two_heap_games() {
    let heap = grundy_core::parse_spec(
        "name = \"fib\"\naxes = [{ name = \"n\" }]\n[[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = \"fibonacci\"\n",
        "fib.toml",
    )
    .unwrap();
    let g = sequence(&fill_waves(&heap, &[150]));
    let rook = fill_waves(&lookup("fibonacci-rook").unwrap(), &[150, 120]);
    for a in 0..=150 {
        for b in 0..=120 {
            assert_eq!(rook.get(&[a, b]).unwrap().value(), g[a as usize] ^ g[b as usize]);
        }
    }
}

#[test]
fn the_cuboids_thinnest_face_is_the_cutting_game() {
    // A 2-thick block cannot be cut along that axis, so the cuboid's x = 2 face is the cutting
    // game on (y, z).
    let cuboid = fill_waves(&lookup("cutting-cuboid").unwrap(), &[2, 30, 30]);
    let cutting = fill_waves(&lookup("cutting").unwrap(), &[30, 30]);
    for y in 2..=30 {
        for z in 2..=30 {
            assert_eq!(cuboid.get(&[2, y, z]), cutting.get(&[y, z]));
        }
    }
}

/// Wythoff's game with the diagonal move cut to 1 or 2: the block nim-sum
/// `3·(⌊a/3⌋ ⊕ ⌊b/3⌋) + (a + b) mod 3` (the law of `data/laws/laws.toml`, proved by the box).
#[test]
fn wythoff_short_diagonal_is_a_block_nim_sum() {
    let n = 120;
    let table = fill_waves(&lookup("wythoff-short-diagonal").unwrap(), &[n, n]);
    for a in 0..=n {
        for b in 0..=n {
            let law = 3 * ((a / 3) ^ (b / 3)) + (a + b) % 3;
            assert_eq!(i64::from(table.get(&[a, b]).unwrap().value()), law, "({a}, {b})");
        }
    }
}

/// The loopy games of the catalog, on their whole boards: every position's outcome, from the
/// library's one fill entry, is the win/lose/draw of the game graph by the definition (the test
/// kit's search, which knows nothing of the engines).
#[test]
fn loopy_catalog_games_have_the_outcomes_of_their_game_graphs() {
    use grundy_compute::{memory::Besides, FillRequest, NoProgress};
    use grundy_core::{Coord, TableShape};
    use grundy_testkit::loopy::{brute_outcomes, Component};
    for name in ["knight-retreat", "diagonal-shuffle"] {
        let game = lookup(name).unwrap();
        let max: Vec<Coord> = game.axes().iter().map(|axis| axis.max.unwrap()).collect();
        let shape = TableShape::new(&game, &max, name).unwrap();
        let table = FillRequest::new(&game, &shape)
            .whole(&Besides::NOTHING)
            .unwrap()
            .fill(&NoProgress)
            .unwrap();
        let positions: Vec<Vec<Coord>> =
            (0..=max[0]).flat_map(|n| (0..=max[1]).map(move |m| vec![n, m])).collect();
        let graph = Component::new(&game, &positions);
        assert_eq!(graph.positions.len(), positions.len(), "{name}: a move leaves the board");
        let outcomes = brute_outcomes(&graph.options);
        let mut seen = [0usize; 3];
        for (position, outcome) in positions.iter().zip(&outcomes) {
            let at = shape.index_of(position).unwrap();
            assert_eq!(table.outcome_at(at), *outcome, "{name} at {position:?}");
            seen[*outcome as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k > 0), "{name}: outcomes {seen:?}");
    }
}
