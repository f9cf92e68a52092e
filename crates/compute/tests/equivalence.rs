//! The wave fill equals the reference fill, for every catalog game and for random games, on
//! several sizes and thread counts.

mod common;

use common::fill_all_ways;
use grundy_core::{game::catalog, lookup, parse_spec, Axis, Game, OctalCode, Rule, StepSet};
use proptest::prelude::*;

#[test]
fn every_catalog_game_agrees_with_the_reference() {
    let cases: &[(&str, &[&[i64]])] = &[
        ("cutting", &[&[2, 2], &[9, 5], &[30, 30]]),
        ("kiki", &[&[1, 1], &[1, 40], &[37, 23], &[80, 80]]),
        ("prime-steps", &[&[1, 1], &[20, 3], &[60, 45]]),
        ("wythoff", &[&[0, 0], &[0, 30], &[40, 40]]),
        ("nim", &[&[3, 0], &[33, 17]]),
        ("subtraction:2,5", &[&[0], &[100]]),
        ("subtraction:1,3,4", &[&[200]]),
        ("octal:0.6", &[&[120]]),
        ("kayles", &[&[1], &[150]]),
        ("dawsons-kayles", &[&[150]]),
        ("dawsons-chess", &[&[150]]),
        ("octal:4.07", &[&[80]]),
    ];
    for (name, sizes) in cases {
        let game = lookup(name).unwrap();
        for max in *sizes {
            fill_all_ways(&game, max);
        }
    }
}

#[test]
fn every_spec_in_data_games_agrees_with_the_reference() {
    for entry in catalog().iter().filter(|e| !e.name.contains(':')) {
        let game = lookup(&entry.name).unwrap();
        if game.is_loopy() {
            continue; // the retrograde kernel's own tests check loopy games
        }
        let max: Vec<i64> = match game.dims() {
            1 => vec![150],
            2 => vec![28, 33],
            _ => vec![9, 8, 7],
        };
        fill_all_ways(&game, &max);
    }
}

/// Spec files that state a catalog game another way give the same table.
#[test]
fn restated_games_give_identical_tables() {
    let axes = |a: &str, b: &str, min: i64| {
        format!("axes = [{{ name = \"{a}\", min = {min} }}, {{ name = \"{b}\", min = {min} }}]\n")
    };
    let cases: Vec<(&str, String, Vec<i64>)> = vec![
        (
            "kiki",
            axes("n", "m", 1)
                + "[[rules]]\nkind = \"jump\"\ndirections = [[-1, -1], [0, -1]]\nsteps = [1]\n[[rules]]\nkind = \"step\"\noffsets = [[-1, 0]]\n",
            vec![60, 70],
        ),
        (
            "nim",
            axes("a", "b", 0) + "[[rules]]\nkind = \"jump\"\ndirections = [[-1, 0], [0, -1]]\nsteps = \"1..=1000\"\n",
            vec![50, 40],
        ),
        (
            "prime-steps",
            axes("n", "m", 1)
                + "[[rules]]\nkind = \"jump\"\ndirections = [[-1, 0]]\nsteps = \"primes\"\n[[rules]]\nkind = \"jump\"\ndirections = [[0, -1], [-1, -1]]\nsteps = \"2..=200\"\nall-but = [4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25, 26, 27, 28, 30, 32, 33, 34, 35, 36, 38, 39, 40, 42, 44, 45, 46, 48, 49, 50, 51, 52, 54, 55, 56, 57, 58, 60, 62, 63, 64, 65, 66, 68, 69, 70]\n",
            vec![70, 70],
        ),
        (
            "wythoff",
            axes("a", "b", 0)
                + "[[rules]]\nkind = \"slide\"\ndirections = [[-1, -1]]\n[[rules]]\nkind = \"slide\"\ndirections = [[0, -1], [-1, 0]]\nmax = 100\n",
            vec![45, 45],
        ),
        (
            "cutting",
            axes("w", "h", 2)
                + "[[rules]]\nkind = \"split\"\naxis = \"h\"\nmin-piece = 2\nunequal = false\n[[rules]]\nkind = \"split\"\naxis = \"w\"\nmin-piece = 1\n",
            vec![40, 30],
        ),
        ("octal:0.77", "axes = [{ name = \"n\" }]\n[[rules]]\nkind = \"take-and-break\"\ncode = \"0.77\"\n".into(), vec![300]),
        (
            "subtraction:1,3,4",
            "axes = [{ name = \"n\" }]\n[[rules]]\nkind = \"jump\"\ndirections = [[-1]]\nsteps = \"1..=4\"\nall-but = [2]\n".into(),
            vec![300],
        ),
    ];
    for (catalog_name, body, max) in cases {
        let restated =
            parse_spec(&format!("name = \"restated\"\n{body}"), "restated.toml").unwrap();
        let catalog_game = lookup(catalog_name).unwrap();
        assert_eq!(
            fill_all_ways(&restated, &max).to_nimbers(),
            fill_all_ways(&catalog_game, &max).to_nimbers(),
            "{catalog_name}"
        );
    }
}

/// Random 2-D games built from every rule kind that applies to boards.
fn arbitrary_rule() -> impl Strategy<Value = Rule> {
    let direction = (-3i64..=0, -3i64..=0)
        .prop_filter("lowers", |(a, b)| a + b < 0)
        .prop_map(|(a, b)| vec![a, b]);
    let directions = prop::collection::vec(direction, 1..4);
    prop_oneof![
        directions.clone().prop_map(|offsets| Rule::Step { offsets }),
        (directions.clone(), prop::collection::vec(1u64..12, 1..5)).prop_map(
            |(directions, steps)| Rule::Jump { directions, steps: StepSet::list(steps).unwrap() }
        ),
        directions
            .clone()
            .prop_map(|directions| Rule::Jump { directions, steps: StepSet::primes() }),
        (directions, prop::option::of(1u64..6))
            .prop_map(|(directions, max)| Rule::Slide { directions, max }),
        (0usize..2, 1i64..4, any::<bool>()).prop_map(|(axis, min_piece, unequal)| Rule::Split {
            axis,
            min_piece,
            unequal
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_board_games_agree_with_the_reference(
        rules in prop::collection::vec(arbitrary_rule(), 1..4),
        mins in (0i64..3, 0i64..3),
        extra in (0i64..25, 0i64..25),
    ) {
        let axes = vec![Axis::new("x", mins.0), Axis::new("y", mins.1)];
        let game = Game::new("random", "", axes, rules).unwrap();
        fill_all_ways(&game, &[mins.0 + extra.0, mins.1 + extra.1]);
    }

    #[test]
    fn random_octal_games_agree_with_the_reference(digits in prop::collection::vec(0u8..16, 1..5), split in any::<bool>()) {
        let code = format!("{}.{}", if split { "4" } else { "0" }, digits.iter().map(|d| format!("{d:x}")).collect::<String>());
        if let Ok(code) = OctalCode::parse_hex(&code) {
            let game = Game::new("random", "", vec![Axis::new("n", 0)], vec![Rule::TakeAndBreak { code }]).unwrap();
            fill_all_ways(&game, &[60]);
        }
    }
}

/// Larger tables than the reference can fill quickly: the tiled engine (default tiles, line
/// accumulators) against the cell-wave engine (no lines), which walks every slide.
#[test]
fn tiles_agree_with_waves_on_larger_tables() {
    use common::{fill, Config};
    use grundy_compute::Engine;
    use grundy_core::TableShape;
    let cases: &[(&str, &[i64])] = &[
        ("wythoff", &[700, 650]),
        ("nim", &[520, 600]),
        ("kiki", &[900, 1100]),
        ("cutting", &[300, 280]),
        ("prime-steps", &[500, 520]),
        // Square tables of symmetric games take the mirrored path.
        ("wythoff", &[600, 600]),
        ("nim", &[513, 513]),
        ("kiki", &[700, 700]),
        ("cutting", &[301, 301]),
        ("prime-steps", &[450, 450]),
        ("fibonacci-rook", &[300, 300]),
        ("wythoff-short-diagonal", &[400, 400]),
        ("cutting-cuboid", &[40, 36, 33]),
    ];
    for (name, max) in cases {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, max, "test").unwrap();
        let waves = fill(
            &game,
            &shape,
            Config { engine: Engine::Waves, threads: Some(2), tile_side: None },
        );
        // Wythoff's and Nim's values outgrow byte cells part-way, inside tiles: the widening path.
        for (threads, tile_side) in [(1, None), (2, None), (3, None), (2, Some(5))] {
            let config = Config { engine: Engine::Tiles, threads: Some(threads), tile_side };
            let tiles = fill(&game, &shape, config);
            assert!(
                tiles == waves,
                "{name} {max:?}: tiles ({tile_side:?}) on {threads} threads differ from waves"
            );
        }
    }
}

/// The row-by-row streaming fill gives the rows of the tiled table, and refuses games whose moves
/// reach whole columns.
#[test]
fn streamed_rows_are_the_tables_rows() {
    use common::{fill, Config};
    use grundy_compute::{
        streaming_rows, FillRequest, Layout, NoProgress, PreparedFill, Resumable, RowsTo,
    };
    use grundy_core::TableShape;
    let cases: &[(&str, &[i64], usize)] = &[
        ("kiki", &[300, 257], 2),
        ("wythoff", &[400, 380], 1),
        ("nim", &[300, 300], 1),
        ("wythoff-short-diagonal", &[200, 230], 3),
        // Jumps by primes up to 113 (the longest axis has 120 cells): a ring of 114 rows.
        ("prime-steps", &[120, 90], 114),
    ];
    for &(name, max, kept) in cases {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, max, "test").unwrap();
        assert_eq!(streaming_rows(&game, &shape), Ok(kept), "{name}");
        let table = fill(&game, &shape, Config::AUTO);
        let layout = Layout::Streamed { rows: RowsTo::Summary, resumable: Resumable::Yes };
        let Ok(PreparedFill::Rows(stream)) =
            FillRequest { layout, ..FillRequest::new(&game, &shape) }.prepare()
        else {
            panic!("{name} streams its rows")
        };
        let mut streamed = Vec::new();
        stream
            .run(&NoProgress, |row| {
                streamed.extend(row.iter().map(|&v| grundy_core::Nimber(v)));
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(streamed, table.to_nimbers(), "{name}");
    }
    for (name, max) in
        [("cutting", &[30i64, 30][..]), ("kayles", &[40]), ("cutting-cuboid", &[5, 5, 5])]
    {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, max, "test").unwrap();
        assert!(streaming_rows(&game, &shape).is_err(), "{name} should not stream");
    }
}
