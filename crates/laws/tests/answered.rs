//! A fill answered by its proved period (`grundy_laws::answered`) gives what the full
//! search gives: the same table, sums and records, for octal and subtraction games under both
//! conventions where a theorem applies; and no watch runs where none does.

use grundy_compute::{Engine, FillRequest, NoProgress, SequenceRecords};
use grundy_core::{lookup, Game, Play, TableShape};
use grundy_laws::answered::{fill_answered, watch_bytes, Answered, PeriodWatch, FIRST_CHECK};

fn shape(game: &Game, max: i64) -> TableShape {
    TableShape::new(game, &[max], &max.to_string()).unwrap()
}

/// Every figure of the answered fill against the searched table, and the law did answer.
fn answered_equals_searched(game: &Game, max: i64) {
    let shape = shape(game, max);
    let fill =
        FillRequest::new(game, &shape).table(&grundy_compute::memory::Besides::NOTHING).unwrap();
    let searched = fill.fill(&NoProgress).unwrap();
    let mut watch = PeriodWatch::new(game, &fill).expect("a theorem covers the game");
    let (table, mark) =
        fill.fill_resumable(None, &NoProgress, &mut |t, m| watch.after_wave(t, m)).unwrap();
    let answered = watch.finish(table, mark);
    let by_period = answered.by_period().unwrap_or_else(|| panic!("{}: no law", game.name()));
    assert!(by_period.from < max, "{}: the law answered nothing", game.name());
    assert_eq!(
        answered.stats(|_| unreachable!("the law sums")),
        searched.stats(),
        "{}",
        game.name()
    );
    assert_eq!(
        answered.records(game),
        SequenceRecords::of(Some(game), &searched),
        "{}: the records",
        game.name()
    );
    assert!(answered.into_table() == searched, "{}: the table", game.name());
}

#[test]
fn octal_games_answered_by_their_period_equal_the_search() {
    for name in ["kayles", "dawsons-chess", "dawsons-kayles", "octal:0.51", "octal:4.7"] {
        answered_equals_searched(&lookup(name).unwrap(), 30_000);
    }
}

#[test]
fn subtraction_games_answered_by_their_period_equal_the_search_under_both_conventions() {
    for name in ["subtraction:2,5", "subtraction:1,3,4", "subtraction:3,5,8"] {
        let game = lookup(name).unwrap();
        answered_equals_searched(&game, 30_000);
        answered_equals_searched(&game.with_play(Play::Misere), 30_000);
    }
}

/// The one-call form fills the whole table, identical to the search.
#[test]
fn fill_answered_gives_the_whole_table() {
    let game = lookup("octal:0.137").unwrap();
    let shape = shape(&game, 50_000);
    let fill =
        FillRequest::new(&game, &shape).table(&grundy_compute::memory::Besides::NOTHING).unwrap();
    let answered = fill_answered(&game, &fill, &NoProgress).unwrap();
    assert!(answered == fill.fill(&NoProgress).unwrap());
}

/// No watch where no theorem applies, where the fill has no waves to stop, or where the table
/// is too short to save anything; and a table searched to its end has no law.
#[test]
fn no_watch_where_nothing_can_be_proved_or_saved() {
    for (name, max, engine) in [
        ("grundys-game", 100_000, Engine::Auto),
        ("subtract-a-square", 100_000, Engine::Auto),
        ("kayles", 4 * FIRST_CHECK as i64 - 2, Engine::Auto),
        ("kayles", 100_000, Engine::Reference),
    ] {
        let game = lookup(name).unwrap();
        let shape = shape(&game, max);
        let fill = FillRequest { engine, ..FillRequest::new(&game, &shape) }
            .table(&grundy_compute::memory::Besides::NOTHING)
            .unwrap();
        assert!(PeriodWatch::new(&game, &fill).is_none(), "{name} {max} {engine}");
        if engine == Engine::Auto {
            assert_eq!(watch_bytes(&game, &shape), 0, "{name} {max}");
        }
    }
    let kayles = lookup("kayles").unwrap();
    assert_eq!(watch_bytes(&kayles, &shape(&kayles, 99_999)), 4 * 25_000);
    let short = shape(&kayles, 100);
    let table = FillRequest::new(&kayles, &short)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap();
    assert_eq!(Answered::searched(table).by_period(), None);
}
