//! The sparse-space engine (issue 14) gives the plain engine's values on every heap game it
//! computes: every octal code with up to three digits, random codes, Grundy's game and the
//! catalog's heap games; and it is what `Engine::Auto` picks for them.

mod common;

use common::Config;
use grundy_compute::{fill_reference, Engine, FillRequest, NotSparse, RequestErrorKind};
use grundy_core::{lookup, Game, GrundyTable, TableShape};
use proptest::prelude::*;
use rayon::prelude::*;

fn filled(name: &str, n: i64, engine: Engine) -> GrundyTable {
    let game = lookup(name).unwrap();
    let shape = TableShape::new(&game, &[n], "test").unwrap();
    // The current pool: the codes are filled from rayon's workers, and a pool per fill would
    // nest a blocking wait in every worker.
    common::fill(&game, &shape, Config::of(engine))
}

/// Why the sparse engine cannot compute `game`, if it cannot: as the request says.
fn sparse_eligibility(game: &Game, shape: &TableShape) -> Result<(), NotSparse> {
    let request = FillRequest { engine: Engine::Sparse, ..FillRequest::new(game, shape) };
    match request.prepare().map_err(|err| err.into_kind()) {
        Ok(_) => Ok(()),
        Err(RequestErrorKind::NotSparse(why)) => Err(why),
        Err(other) => panic!("{other:?}"),
    }
}

/// Every code 0.d1, 0.d1d2 and 0.d1d2d3 (and 4.d1d2d3, which also splits without taking) that
/// has a move leaving two heaps, to `n`: the sparse engine against the tiled one.
fn every_code_up_to_three_digits(n: i64) {
    let mut codes = Vec::new();
    for first in ["0", "4"] {
        for digits in 1..=3u32 {
            for code in 0..8u32.pow(digits) {
                let text: String = (0..digits)
                    .rev()
                    .map(|d| char::from_digit(code / 8u32.pow(d) % 8, 8).unwrap())
                    .collect();
                if text.ends_with('0') {
                    continue;
                }
                codes.push(format!("octal:{first}.{text}"));
            }
        }
    }
    let checked: usize = codes
        .par_iter()
        .map(|name| {
            let game = lookup(name).unwrap();
            let shape = TableShape::new(&game, &[n], "test").unwrap();
            if sparse_eligibility(&game, &shape).is_err() {
                return 0;
            }
            let sparse = filled(name, n, Engine::Sparse);
            let tiles = filled(name, n, Engine::Tiles);
            assert!(sparse == tiles, "{name} up to {n}: the sparse engine differs");
            1
        })
        .sum();
    assert!(checked > 900, "only {checked} codes were checked");
}

#[test]
fn every_code_with_up_to_three_digits_agrees_with_the_tiles_to_2000() {
    every_code_up_to_three_digits(2000);
}

/// The bound, 10^4, in release builds (`cargo test --release -- --ignored`).
#[test]
#[ignore = "a minute in release builds; run with --release -- --ignored"]
fn every_code_with_up_to_three_digits_agrees_with_the_tiles_to_10000() {
    every_code_up_to_three_digits(10_000);
}

#[test]
fn the_catalog_heap_games_agree_with_the_reference() {
    for (name, n) in [
        ("kayles", 3000),
        ("dawsons-kayles", 3000),
        ("grundys-game", 3000),
        ("octal:0.16", 5000),
        ("octal:0.127", 3000),
        ("octal:4.07", 2000),
    ] {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, &[n], "test").unwrap();
        let sparse = filled(name, n, Engine::Sparse);
        assert!(sparse == fill_reference(&game, &shape), "{name} up to {n}");
        let prepared = common::table_fill(&game, &shape, Config::AUTO);
        assert_eq!(prepared.engine(), Engine::Sparse, "{name}: Auto picks the sparse engine");
    }
}

#[test]
fn games_the_method_cannot_read_are_refused_or_left_to_the_tiles() {
    for name in ["nim", "subtraction:1,2,3", "kiki", "octal:0.3"] {
        let game = lookup(name).unwrap();
        let max: Vec<i64> = vec![20; game.dims()];
        let shape = TableShape::new(&game, &max, "test").unwrap();
        let why = sparse_eligibility(&game, &shape).unwrap_err();
        let request = FillRequest { engine: Engine::Sparse, ..FillRequest::new(&game, &shape) };
        let err = request.prepare().err().expect("refused");
        assert!(matches!(err.kind(), RequestErrorKind::NotSparse(w) if *w == why), "{name}: {err}");
        assert!(err.to_string().starts_with("the sparse-space engine"), "{err}");
        let prepared = common::table_fill(&game, &shape, Config::AUTO);
        assert_eq!(prepared.engine(), Engine::Tiles, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random octal and hex codes of up to six digits (hex ones without three-heap digits).
    #[test]
    fn random_codes_agree_with_the_tiles(
        digits in prop::collection::vec(0u8..8, 1..6),
        first_splits in any::<bool>(),
        n in 50i64..1500,
    ) {
        let text: String = digits.iter().map(|&d| char::from_digit(d.into(), 8).unwrap()).collect();
        let name = format!("octal:{}.{text}", if first_splits { 4 } else { 0 });
        let Ok(game) = lookup(&name) else { return Ok(()) };
        let shape = TableShape::new(&game, &[n], "test").unwrap();
        if sparse_eligibility(&game, &shape).is_err() {
            return Ok(());
        }
        prop_assert!(filled(&name, n, Engine::Sparse) == filled(&name, n, Engine::Tiles), "{}", name);
    }
}

/// A sparse fill stopped after every wave (1024 heaps) and resumed from a copy of its partial
/// table rebuilds its rare list and mask from the values, and ends with the same table; its
/// marks are the tiles' (so a checkpoint of either engine goes on with the other).
#[test]
fn a_sparse_fill_resumes_from_every_wave() {
    for (name, n) in [("octal:0.16", 6000), ("grundys-game", 5000)] {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, &[n], "test").unwrap();
        let sparse = Config::of(Engine::Sparse);
        assert_eq!(
            common::table_fill(&game, &shape, sparse).plan().start(),
            common::table_fill(&game, &shape, Config::of(Engine::Tiles)).plan().start()
        );
        let resumed = common::fill_stopping_after_every_wave(&game, &shape, sparse);
        assert!(resumed == fill_reference(&game, &shape), "{name}");
    }
}
