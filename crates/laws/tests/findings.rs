//! The laws `grundy patterns` must find, from tables computed here.

use grundy_compute::{FillRequest, NoProgress};
use grundy_core::{lookup, GrundyTable, Table, TableShape};
use grundy_laws::expr::Expr;
use grundy_laws::proof::{Proof, Theorem};
use grundy_laws::{analyze, BoardReport, Report, SequencePeriod};

fn table(game: &str, max: &[i64]) -> GrundyTable {
    let game = lookup(game).unwrap();
    let shape = TableShape::new(&game, max, "test").unwrap();
    FillRequest::new(&game, &shape)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap()
}

fn sequence(game: &str, n: i64) -> SequencePeriod {
    let g = lookup(game).unwrap();
    match analyze(&Table::of_game(g, table(game, &[n]))).unwrap() {
        Report::Sequence(report) => report.sequence,
        _ => panic!("{game} is a heap game"),
    }
}

fn board(game: &str, max: [i64; 2]) -> BoardReport {
    let g = lookup(game).unwrap();
    match analyze(&Table::of_game(g, table(game, &max))).unwrap() {
        Report::Board(report) => report,
        _ => panic!("{game} is a board game"),
    }
}

/// The theorem that proves a finding, if one does.
fn theorem(proof: &Option<Proof>) -> Option<Theorem> {
    proof.as_ref().and_then(Proof::theorem)
}

#[test]
fn subtraction_1_3_4_has_period_7_from_0_proved() {
    let s = sequence("subtraction:1,3,4", 300);
    assert_eq!((s.period, s.saltus, s.preperiod, s.from), (Some(7), Some(0), Some(0), Some(0)));
    assert_eq!(theorem(&s.proof), Some(Theorem::SubtractionWindow), "{:?}", s.proof);
    assert_eq!(s.needed_length, Some(11));
}

#[test]
fn kayles_has_period_12_preperiod_71_proved() {
    let s = sequence("octal:0.77", 1000);
    assert_eq!((s.period, s.preperiod, s.from), (Some(12), Some(71), Some(71)));
    assert_eq!(theorem(&s.proof), Some(Theorem::OctalPeriodicity), "{:?}", s.proof);
    assert!(s.proof.as_ref().unwrap().argument().starts_with("Octal Periodicity Theorem"));
    assert_eq!(s.needed_length, Some(2 * 71 + 2 * 12 + 2));
    // Too short a table: the period is still found (just), but the theorem's check cannot pass.
    let short = sequence("octal:0.77", 160);
    assert_eq!(short.period, Some(12));
    assert_eq!(theorem(&short.proof), None);
}

#[test]
fn dawsons_kayles_has_period_34_proved() {
    let s = sequence("octal:0.07", 1000);
    assert_eq!((s.period, s.preperiod), (Some(34), Some(53)));
    assert_eq!(theorem(&s.proof), Some(Theorem::OctalPeriodicity), "{:?}", s.proof);
}

#[test]
fn grundys_game_has_no_period_and_says_what_was_searched() {
    let s = sequence("grundys-game", 3000);
    assert_eq!(s.period, None);
    assert!(s.proof.is_none(), "no period, nothing to prove");
    assert_eq!((s.searched.max_period, s.searched.length), (1000, 3001));
}

#[test]
fn kikis_outcome_rule_is_n_odd_and_m_odd_and_holds_on_2000x2000() {
    let report = board("kiki", [60, 70]);
    assert_eq!(report.outcome.period, Some([2, 2]));
    assert_eq!(
        theorem(&report.outcome.proof),
        Some(Theorem::FiniteBox),
        "{:?}",
        report.outcome.proof
    );
    let rule = report.outcome.rule.unwrap();
    let expr = Expr::parse(&rule, &["n", "m"]).unwrap();
    let big = table("kiki", &[2000, 2000]);
    for n in 1..=2000i64 {
        for m in 1..=2000i64 {
            let p = expr.eval_bool(&[n, m]).unwrap();
            assert_eq!(
                p,
                n % 2 == 1 && m % 2 == 1,
                "the rule `{rule}` is not n odd and m odd at ({n}, {m})"
            );
            assert_eq!(p, big.get(&[n, m]).unwrap().is_p());
        }
    }
}

#[test]
fn wythoff_rows_3_and_4_are_additively_periodic() {
    let report = board("wythoff", [200, 200]);
    let row = |a: i64| report.rows.iter().find(|r| r.index == a).unwrap();
    assert_eq!((row(3).period, row(3).saltus), (Some(6), Some(6)));
    assert_eq!((row(4).period, row(4).saltus), (Some(12), Some(12)));
    assert!(report.symmetric);
    assert_eq!(report.outcome.period, None);
}

#[test]
fn nim_is_symmetric_and_the_cutting_game_is_separable() {
    assert!(board("nim", [40, 40]).symmetric);
    assert!(!board("nim", [40, 40]).outcome.separable);
    let cutting = board("cutting", [150, 150]);
    assert!(cutting.outcome.separable);
    assert!(cutting.symmetric);
}

/// A rook that moves 1 or 2 cells left or down (values (x mod 3) XOR (y mod 3)), and one that
/// moves 2, 3 or 5 cells from (1, 1) on: sums of periodic heap games, so periodic boards.
fn rook(steps: &str, min: i64) -> grundy_core::Game {
    let spec = format!(
        "name = \"rook\"\naxes = [{{ name = \"x\", min = {min} }}, {{ name = \"y\", min = {min} }}]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1, 0], [0, -1]]\nsteps = {steps}\n"
    );
    grundy_core::parse_spec(&spec, "rook.toml").unwrap()
}

#[test]
fn printed_rules_are_exact_on_their_table() {
    let games = [
        (lookup("kiki").unwrap(), [41, 37]),
        (lookup("cutting").unwrap(), [120, 110]),
        (rook("[1, 2]", 0), [40, 50]),
        (rook("[2, 3, 5]", 1), [60, 45]),
    ];
    let mut rules = 0;
    for (game, max) in games {
        let shape = TableShape::new(&game, &max, "test").unwrap();
        let t = FillRequest::new(&game, &shape)
            .table(&grundy_compute::memory::Besides::NOTHING)
            .unwrap()
            .fill(&NoProgress)
            .unwrap();
        let Report::Board(report) = analyze(&Table::of_game(game.clone(), t.clone())).unwrap()
        else {
            panic!()
        };
        let game = game.name();
        for (rule, is_outcome) in [(report.outcome.rule, true), (report.values.rule, false)] {
            let Some(rule) = rule else { continue };
            rules += 1;
            let names = [report.axes[0].as_str(), report.axes[1].as_str()];
            let expr = Expr::parse(&rule, &names).unwrap();
            let min = [t.axes()[0].min, t.axes()[1].min];
            for x in min[0]..=max[0] {
                for y in min[1]..=max[1] {
                    let value = t.get(&[x, y]).unwrap();
                    if is_outcome {
                        assert_eq!(
                            expr.eval_bool(&[x, y]).unwrap(),
                            value.is_p(),
                            "{game}: {rule} at ({x}, {y})"
                        );
                    } else {
                        assert_eq!(
                            expr.eval_int(&[x, y]).unwrap(),
                            i64::from(value.value()),
                            "{game}: {rule}"
                        );
                    }
                }
            }
        }
    }
    assert!(rules >= 5, "only {rules} rules were checked");
}

/// Issue 11, item 1, for `patterns`: a rule that holds on the table but names single cells (its
/// exceptions) does not repeat on the whole board, so it is never proved, even for a game with
/// bounded moves. Here kiki's table with one cell changed, analysed as kiki.
#[test]
fn a_rule_with_exceptions_is_never_proved() {
    let kiki = lookup("kiki").unwrap();
    let t = table("kiki", &[60, 60]);
    let mut values = t.to_nimbers();
    // (2, 2) is an N-position of kiki; call it P.
    values[60 + 1] = grundy_core::Nimber(0);
    let changed = GrundyTable::from_nimbers(t.shape().clone(), &values);
    let Report::Board(report) = analyze(&Table::of_game(kiki, changed)).unwrap() else {
        panic!("kiki is a board")
    };
    let rule = report.outcome.rule.expect("a rule with an exception");
    assert!(rule.contains("n == 2 && m == 2"), "{rule}");
    let proof = report.outcome.proof.expect("a rule was found, so a proof was tried");
    assert!(!proof.is_proved(), "{rule}: {proof:?}");
    assert!(proof.argument().contains("does not show that it repeats"));
}
