//! The wave fill equals the reference fill, for every catalog game and for random games, on
//! several sizes and thread counts.

mod common;

use common::{fill_all_ways, grundys_game, subtract_a_prime, subtract_a_square};
use grundy_core::{lookup, Axis, Game, OctalCode, Rule, StepSet};
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
fn games_beyond_the_catalog_agree_with_the_reference() {
    fill_all_ways(&grundys_game(), &[150]);
    fill_all_ways(&subtract_a_square(200), &[200]);
    fill_all_ways(&subtract_a_prime(), &[200]);
}

#[test]
fn three_dimensional_games_agree_with_the_reference() {
    let cuboid = Game::new(
        "cuboid",
        "",
        vec![Axis::new("x", 2), Axis::new("y", 2), Axis::new("z", 2)],
        (0..3).map(|axis| Rule::Split { axis, min_piece: 2, unequal: false }).collect(),
    )
    .unwrap();
    fill_all_ways(&cuboid, &[9, 8, 7]);
    let queen3 = Game::new(
        "queen3",
        "",
        vec![Axis::new("x", 0), Axis::new("y", 0), Axis::new("z", 0)],
        vec![Rule::Slide {
            directions: vec![vec![-1, 0, 0], vec![0, -1, 0], vec![0, 0, -1], vec![-1, -1, -1]],
            max: None,
        }],
    )
    .unwrap();
    fill_all_ways(&queen3, &[12, 10, 11]);
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
        directions.clone().prop_map(|directions| Rule::Jump { directions, steps: StepSet::Primes }),
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
