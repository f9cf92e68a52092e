use super::*;

fn plane() -> Vec<Axis> {
    vec![Axis::new("n", 1), Axis::new("m", 1)]
}

fn refused(rule: Rule) -> String {
    Game::new("t", "", plane(), vec![rule]).unwrap_err().to_string()
}

/// Issue 13: an offset of `i64::MIN`, or offsets summing past `i64`, panicked in debug
/// builds and gave wrong answers in release; offsets, directions and pieces are bounded as
/// coordinates are.
#[test]
fn overflowing_offsets_directions_and_pieces_are_refused() {
    let step = |offsets: Vec<Vec<Coord>>| Rule::Step { offsets };
    assert!(refused(step(vec![vec![Coord::MIN, 0]])).contains("moves by 2^31 or more"));
    assert!(refused(step(vec![vec![-Coord::MAX, -Coord::MAX]])).contains("2^31 or more"));
    let slide = Rule::Slide { directions: vec![vec![-(1 << 62), -(1 << 62)]], max: None };
    assert!(refused(slide).contains("2^31 or more"));
    let split = Rule::Split { axis: 0, min_piece: Coord::MAX, unequal: false };
    assert!(refused(split).contains("below 2^31"));
    // The largest allowed offset still works.
    let far = step(vec![vec![-(COORD_LIMIT - 1), 0]]);
    assert!(Game::new("t", "", plane(), vec![far]).is_ok());
}

#[test]
fn bad_rules_are_refused_with_a_reason() {
    let step = |offsets: Vec<Vec<Coord>>| Rule::Step { offsets };
    assert!(refused(step(vec![vec![0, 0]])).contains("is zero"));
    assert!(refused(step(vec![vec![-1, 1]])).contains("raises axis `m`, which has no `max`"));
    assert!(refused(step(vec![vec![-2, 1]])).contains("raises axis `m`"));
    assert!(refused(step(vec![vec![-1]])).contains("has 1 coordinate but the game has 2 axes"));
    let split = Rule::Split { axis: 2, min_piece: 1, unequal: false };
    assert!(refused(split).contains("axis 2 does not exist"));
    let tb = Rule::TakeAndBreak { code: OctalCode::parse_octal("0.77").unwrap() };
    assert!(refused(tb).contains("single heap axis"));
    assert_eq!(
        refused(Rule::Slide { directions: vec![vec![0, -1]], max: Some(0) }),
        "rule 1 (slide), field `max`: `max` must be at least 1"
    );
}

#[test]
fn bad_axes_are_refused() {
    let rules = || vec![Rule::Step { offsets: vec![vec![-1]] }];
    assert!(Game::new("t", "", vec![], rules()).is_err());
    assert!(Game::new("t", "", vec![Axis::new("1x", 0)], rules()).is_err());
    let two = vec![Axis::new("n", 0), Axis::new("n", 0)];
    assert!(Game::new("t", "", two, vec![Rule::Step { offsets: vec![vec![-1, 0]] }]).is_err());
}

#[test]
fn options_of_kiki() {
    let kiki = lookup("kiki").unwrap();
    let mut options = kiki.options(&[2, 1]);
    options.sort();
    assert_eq!(options, vec![vec![vec![1, 1]]]);
    assert_eq!(kiki.options(&[2, 2]).len(), 3);
}

#[test]
fn options_of_take_and_break() {
    // Kayles on a row of 3: take 1 or 2 from an end or from the middle.
    let kayles = lookup("kayles").unwrap();
    let mut options = kayles.options(&[3]);
    options.sort();
    let expected: Vec<GameOption> = vec![vec![vec![1]], vec![vec![1], vec![1]], vec![vec![2]]];
    assert_eq!(options, expected);
}

/// A raise is allowed on a bounded axis only, and makes the game loopy; positions stay
/// inside the bounds, a slide reaches up to them, and the spec round-trips.
#[test]
fn loopy_games_raise_only_bounded_axes() {
    let bounded = vec![Axis::bounded("n", 0, 5), Axis::new("m", 0)];
    let up = Rule::Slide { directions: vec![vec![1, -1]], max: None };
    let game = Game::new("up", "", bounded.clone(), vec![up.clone()]).unwrap();
    assert!(game.is_loopy());
    assert!(game.is_position(&[5, 3]) && !game.is_position(&[6, 3]));
    let options: Vec<GameOption> = game.options(&[3, 4]);
    assert_eq!(options, vec![vec![vec![4, 3]], vec![vec![5, 2]]]);
    let spec = crate::game::to_spec(&game);
    assert!(spec.contains("max = 5"), "{spec}");
    assert_eq!(crate::game::parse_spec(&spec, "t").unwrap(), game);
    let raises_m = Rule::Step { offsets: vec![vec![-1, 1]] };
    let err = Game::new("t", "", bounded.clone(), vec![raises_m]).unwrap_err();
    assert!(err.to_string().contains("raises axis `m`, which has no `max`"), "{err}");
    let split = Rule::Split { axis: 1, min_piece: 1, unequal: false };
    let err = Game::new("t", "", bounded, vec![up, split]).unwrap_err();
    assert!(err.to_string().contains("rule 2 (split)"), "{err}");
    let inverted = Game::new("t", "", vec![Axis::bounded("n", 4, 2)], vec![step_down()]);
    assert!(inverted.unwrap_err().to_string().contains("must lie between"));
    // A game whose moves only lower is not loopy, bounded or not.
    let plain = Game::new("t", "", vec![Axis::bounded("n", 0, 9)], vec![step_down()]);
    assert!(!plain.unwrap().is_loopy());
}

/// Weights under which every move lowers are found, the simplest first, and exist exactly
/// when no moves can be combined into a cycle.
#[test]
fn descents_are_found_when_no_play_goes_round() {
    let board = || vec![Axis::bounded("n", 0, 9), Axis::bounded("m", 0, 9)];
    let steps = |offsets: Vec<Vec<Coord>>| {
        Game::new("t", "", board(), vec![Rule::Step { offsets }]).unwrap().descent()
    };
    assert_eq!(lookup("wythoff").unwrap().descent(), Some(vec![1, 1]));
    assert_eq!(steps(vec![vec![-1, 0], vec![0, -1], vec![1, -2]]), Some(vec![1, 1]));
    // (2, -1) raises the plain sum, but not n + 3m (2 - 3 < 0) with (-1, 0) and (0, -1).
    assert_eq!(steps(vec![vec![-1, 0], vec![0, -1], vec![2, -1]]), Some(vec![1, 3]));
    // Negative weights: m only rises while n falls.
    assert_eq!(steps(vec![vec![-1, 1], vec![-1, 0]]), Some(vec![1, 0]));
    assert_eq!(steps(vec![vec![0, 1], vec![-1, -3]]), Some(vec![4, -1]));
    // A move and its reverse, and three moves summing to zero, go round.
    assert_eq!(steps(vec![vec![1, -1], vec![-1, 1]]), None);
    assert_eq!(steps(vec![vec![1, 0], vec![0, 1], vec![-1, -1]]), None);
    let game = Game::new("t", "", board(), vec![Rule::Step { offsets: vec![vec![-1, 0]] }]);
    let game = game.unwrap();
    assert_eq!(game.weighted_sum(&[1, 3]), "n + 3m");
    assert_eq!(game.weighted_sum(&[-2, 1]), "-2n + m");
    assert_eq!(game.weighted_sum(&[4, -1]), "4n - m");
    assert_eq!(game.weighted_sum(&[0, 1]), "m");
    let knight = lookup("knight-retreat").unwrap();
    assert!(knight.is_loopy() && knight.descent().is_none());
}

fn step_down() -> Rule {
    Rule::Step { offsets: vec![vec![-1]] }
}
