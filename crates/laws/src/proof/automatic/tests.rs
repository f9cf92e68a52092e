//! The prover against brute force: every automaton it builds for a small case agrees with the
//! relation on every word up to a length; compiled claims agree with the expression's evaluation;
//! true laws are proved and false ones (agreeing on a box, or mutated) are not.

use super::dfa::{Dfa, Var, Work};
use super::formula::{Builder, Formula};
use super::numeration::{Logic, Numeration, Rel};
use super::*;
use crate::conjecture::{ClaimKind, Conjecture};
use grundy_core::{lookup, mex, parse_spec, Nimber, Play};
use grundy_testkit::fixtures;
use std::collections::HashMap;

const BOTH: [Numeration; 2] = [Numeration::Binary, Numeration::Fibonacci];

fn never() -> Option<String> {
    None
}

/// Every tuple of numbers below `bound` on the automaton's tracks: accepted exactly when
/// `relation` holds (the word written in the numeration, with one extra leading zero too).
fn agrees(dfa: &Dfa, numeration: Numeration, bound: u128, relation: &dyn Fn(&[u128]) -> bool) {
    let tracks = dfa.tracks().len();
    let mut numbers = vec![0u128; tracks];
    loop {
        let mut word = numeration.word(&numbers);
        assert_eq!(dfa.accepts(&word), relation(&numbers), "{numeration:?} {numbers:?}");
        word.insert(0, 0);
        assert_eq!(dfa.accepts(&word), relation(&numbers), "{numeration:?} 0{numbers:?}");
        let Some(i) = numbers.iter().position(|&n| n + 1 < bound) else { break };
        numbers[i] += 1;
        numbers[..i].iter_mut().for_each(|n| *n = 0);
    }
}

/// Invalid words (two 1s in a row on a track, in Fibonacci numeration) are never accepted.
fn rejects_invalid(dfa: &Dfa, length: usize) {
    let tracks = dfa.tracks().len();
    let letters = 1u32 << tracks;
    let mut word = vec![0u32; length];
    for code in 0..(letters as u64).pow(length as u32) {
        let mut rest = code;
        for letter in word.iter_mut() {
            *letter = (rest % letters as u64) as u32;
            rest /= letters as u64;
        }
        let valid = word.windows(2).all(|w| w[0] & w[1] == 0);
        if !valid {
            assert!(!dfa.accepts(&word), "accepted the invalid word {word:?}");
        }
    }
}

#[test]
fn digits_and_words_round_trip() {
    for numeration in BOTH {
        for n in 0..2000u128 {
            let len = numeration.length(&[n]);
            let digits = numeration.digits(n, len).unwrap();
            assert!(numeration.valid(&digits));
            assert_eq!(numeration.value(&digits), n);
        }
    }
    // Zeckendorf: 10 = 8 + 2.
    assert_eq!(Numeration::Fibonacci.digits(10, 5), Some(vec![1, 0, 0, 1, 0]));
}

#[test]
fn linear_relations_agree_with_arithmetic() {
    let cases: [(&[i64], i64); 7] = [
        (&[1, -1], 0),
        (&[1, 1, -1], 0),
        (&[2, -1], 1),
        (&[1, -3], -2),
        (&[3, 2, -5], 4),
        (&[-1], 7),
        (&[1, -1], -9),
    ];
    for numeration in BOTH {
        for (coefficients, constant) in cases {
            for rel in [Rel::Eq, Rel::Le, Rel::Lt] {
                let terms: Vec<(Var, i64)> =
                    coefficients.iter().enumerate().map(|(i, &c)| (i as Var, c)).collect();
                let mut work = Work::new(MAX_STATES, &never);
                let mut logic = Logic { numeration, work: &mut work };
                let dfa = logic.linear(&terms, constant, rel).unwrap();
                let holds = |x: &[u128]| {
                    let sum: i128 = x
                        .iter()
                        .zip(coefficients)
                        .map(|(&x, &c)| x as i128 * c as i128)
                        .sum::<i128>()
                        + constant as i128;
                    match rel {
                        Rel::Eq => sum == 0,
                        Rel::Le => sum <= 0,
                        Rel::Lt => sum < 0,
                    }
                };
                let bound = if coefficients.len() == 3 { 24 } else { 70 };
                agrees(&dfa, numeration, bound, &holds);
                if numeration == Numeration::Fibonacci {
                    rejects_invalid(&dfa, 5);
                }
            }
        }
    }
}

#[test]
fn xor_shift_and_one_digit_agree_with_their_definitions() {
    let mut work = Work::new(MAX_STATES, &never);
    let mut logic = Logic { numeration: Numeration::Binary, work: &mut work };
    let xor = logic.xor(0, 1, 2).unwrap();
    agrees(&xor, Numeration::Binary, 33, &|x| x[0] ^ x[1] == x[2]);
    let power = logic.one_digit(0).unwrap();
    agrees(&power, Numeration::Binary, 300, &|x| x[0].is_power_of_two());
    let mut logic = Logic { numeration: Numeration::Fibonacci, work: &mut work };
    let fibonacci: Vec<u128> = vec![1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233];
    let one = logic.one_digit(0).unwrap();
    agrees(&one, Numeration::Fibonacci, 300, &|x| fibonacci.contains(&x[0]));
    // floor((n + 1)·φ) − 1 is n shifted: s = shift(m) ⇔ s = floor((m + 1)φ) − 1.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let shift = logic.shift(0, 1).unwrap();
    agrees(&shift, Numeration::Fibonacci, 200, &|x| {
        x[1] as f64 == ((x[0] + 1) as f64 * phi).floor() - 1.0
    });
    rejects_invalid(&shift, 5);
}

#[test]
fn projection_complement_and_product_mean_exists_not_and_or() {
    for numeration in BOTH {
        let mut work = Work::new(MAX_STATES, &never);
        let mut logic = Logic { numeration, work: &mut work };
        // ∃y: x + y = z  ⇔  x <= z; and its complement x > z.
        let sum = logic.linear(&[(0, 1), (1, 1), (2, -1)], 0, Rel::Eq).unwrap();
        let at_most = logic.exists(&[1], &sum).unwrap();
        agrees(&at_most, numeration, 60, &|x| x[0] <= x[1]);
        let above = logic.not(&at_most).unwrap();
        agrees(&above, numeration, 60, &|x| x[0] > x[1]);
        // ∃q: x = 3q (a witness longer than x never matters) and x = 2q + 1.
        let thrice = logic.linear(&[(0, 1), (1, -3)], 0, Rel::Eq).unwrap();
        let multiple = logic.exists(&[1], &thrice).unwrap();
        agrees(&multiple, numeration, 200, &|x| x[0] % 3 == 0);
        let odd = logic.linear(&[(0, 1), (1, -2)], -1, Rel::Eq).unwrap();
        let odd = logic.exists(&[1], &odd).unwrap();
        let either = logic.or(&multiple, &odd).unwrap();
        agrees(&either, numeration, 200, &|x| x[0] % 3 == 0 || x[0] % 2 == 1);
        let both = logic.and(&multiple, &odd).unwrap();
        agrees(&both, numeration, 200, &|x| x[0] % 6 == 3);
        // Minimal automata of one language are equal.
        assert_eq!(both.minimize(), both);
    }
}

/// The claim's automaton (through the compiler and the builder) at every position of a box
/// equals the expression's value there.
fn claim_agrees(game: &Game, kind: ClaimKind, text: &str, size: i64) {
    let names: Vec<&str> = game.axes().iter().map(|a| a.name.as_str()).collect();
    let conjecture = Conjecture::parse(kind, text, &names).unwrap();
    let claimed = if kind == ClaimKind::PSet { Claimed::PSet } else { Claimed::Values };
    let slots = conjecture.variables.slot_axes();
    let problem = sentences::problem(game, claimed, conjecture.expr.root(), slots).unwrap();
    let mut work = Work::new(MAX_STATES, &never);
    let mut logic = Logic { numeration: problem.numeration, work: &mut work };
    let automaton = Builder::new(&mut logic).automaton(&problem.claim()).unwrap();
    let mins: Vec<i64> = game.axes().iter().map(|a| a.min).collect();
    for a in 0..size {
        for b in 0..size {
            let pos = [mins[0] + a, mins[1] + b];
            let mut slots = vec![0; names.len() + 2];
            conjecture.variables.fill(&mut slots, &pos, 0, &crate::conjecture::Edges::unknown());
            let numbers_for = |extra: Option<u128>| -> Vec<u128> {
                automaton
                    .tracks()
                    .iter()
                    .map(|&t| match t {
                        0 => a as u128,
                        1 => b as u128,
                        _ => extra.expect("a value track"),
                    })
                    .collect()
            };
            match kind {
                ClaimKind::PSet => {
                    let expected = conjecture.expr.eval_bool(&slots).unwrap();
                    let word = problem.numeration.word(&numbers_for(None));
                    assert_eq!(automaton.accepts(&word), expected, "{text} at {pos:?}");
                }
                _ => {
                    let expected = conjecture.expr.eval_int(&slots).unwrap();
                    for y in 0..(expected.max(0) as u128 + 3) {
                        let word = problem.numeration.word(&numbers_for(Some(y)));
                        assert_eq!(
                            automaton.accepts(&word),
                            y as i64 == expected,
                            "{text} at {pos:?} y = {y}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn compiled_claims_agree_with_their_expressions() {
    let wythoff = lookup("wythoff").unwrap();
    let nim = lookup("nim").unwrap();
    for text in [
        "min(a, b) == floor(abs(a - b) * phi)",
        "a == floor(b * phi) || b == floor(a * phi) || a + b == 0",
        "ceil(a * phi) - 1 == b && a > 0",
        "floor((a - b) * phi * phi) < 3 - b",
        "floor(a / phi) == b",
    ] {
        claim_agrees(&wythoff, ClaimKind::PSet, text, 34);
    }
    for text in [
        "(a - 3) % 4 == b % 3 || max(a, b - 1) / 5 == 2",
        "if(a > b, a - b, b - a) % 7 != 2 && !(a == 2 * b + 1)",
        "(a + b) / -1 == -(a + b)",
    ] {
        let text = text.replace("/ -1", "* -1");
        claim_agrees(&nim, ClaimKind::PSet, &text, 40);
    }
    for text in ["xor(a, b)", "xor(a % 3, b / 2) + 1", "max(a, b) - min(a, b)", "(a - 7) % 5"] {
        claim_agrees(&nim, ClaimKind::Values, text, 24);
    }
}

/// The proof of `text` about `game`.
fn proof(game: &Game, kind: ClaimKind, text: &str) -> Decision {
    let names: Vec<&str> = game.axes().iter().map(|a| a.name.as_str()).collect();
    let conjecture = Conjecture::parse(kind, text, &names).unwrap();
    let claimed = if kind == ClaimKind::PSet { Claimed::PSet } else { Claimed::Values };
    decide(game, claimed, &conjecture.expr, conjecture.variables.slot_axes(), &Budget::default())
}

/// `text` about `game` is not proved, and the argument says `says`.
fn not_proved(game: &Game, kind: ClaimKind, text: &str, says: &str) {
    let decision = proof(game, kind, text);
    assert!(!decision.proof.is_proved(), "{text}");
    assert!(decision.proof.argument().contains(says), "{text}: {}", decision.proof.argument());
}

fn spec(text: &str) -> Game {
    parse_spec(text, "test").unwrap()
}

#[test]
fn the_famous_laws_are_proved() {
    let nim = lookup("nim").unwrap();
    let wythoff = lookup("wythoff").unwrap();
    let short = lookup("wythoff-short-diagonal").unwrap();
    let laws: [(&Game, ClaimKind, &str); 5] = [
        (&nim, ClaimKind::Values, "xor(a, b)"),
        (&nim, ClaimKind::PSet, "a == b"),
        (&wythoff, ClaimKind::PSet, "min(a, b) == floor(abs(a - b) * phi)"),
        (
            &short,
            ClaimKind::PSet,
            "(a == b && a % 3 == 0) || (min(a, b) % 3 == 1 && abs(a - b) == 1)",
        ),
        (
            &fixtures::game("wythoff-from-1"),
            ClaimKind::PSet,
            "min(a - 1, b - 1) == floor(abs(a - b) * phi)",
        ),
    ];
    for (game, kind, text) in laws {
        let decision = proof(game, kind, text);
        assert_eq!(
            decision.proof.theorem(),
            Some(Theorem::Automata),
            "{text}: {:?}",
            decision.proof
        );
        assert!(decision.walnut.as_deref().is_some_and(|w| w.contains("eval absorption")));
    }
}

/// Misère Nim's P-positions (two heaps): equal heaps of two or more, or one stone in all.
const MISERE_NIM: &str = "(a == b && a >= 2) || a + b == 1";
/// Misère Wythoff's: one stone in all, (2, 2), and Wythoff's pairs from the smaller heap 3 on.
const MISERE_WYTHOFF: &str =
    "a + b == 1 || (a == 2 && b == 2) || (min(a, b) >= 3 && min(a, b) == floor(abs(a - b) * phi))";

/// Wythoff's game with the positions a + b <= 1 terminal: those three, and the pairs
/// (⌊mφ⌋ − 1, ⌊mφ⌋ − 1 + m) for m >= 2 (Wythoff's pairs moved down and along by one).
const WYTHOFF_TERMINAL: &str = "a + b <= 1 || min(a, b) + 1 == floor(abs(a - b) * phi)";

/// Terminal positions (issue 69) enter the move relation: laws are proved with them, and claims
/// that ignore them, or hold on a box only, are refuted.
#[test]
fn terminal_positions_are_proved_and_refuted() {
    let wythoff = fixtures::game("wythoff-terminal");
    let nim = lookup("nim").unwrap().with_terminal("a + b <= 1").unwrap();
    let proved: [(&Game, &str); 2] = [
        (&wythoff, WYTHOFF_TERMINAL),
        (&nim, "(a == b && a != 1) || (abs(a - b) == 1 && min(a, b) == 0)"),
    ];
    for (game, text) in proved {
        let decision = proof(game, ClaimKind::PSet, text);
        assert_eq!(
            decision.proof.theorem(),
            Some(Theorem::Automata),
            "{text}: {:?}",
            decision.proof
        );
        assert!(
            decision.walnut.as_deref().is_some_and(|w| w.contains("(~(((p0 + p1 <= 1))))")),
            "{text}"
        );
    }
    let refuted: [(&Game, &str, &str); 3] = [
        // Wythoff's own law: the terminal positions are P, and (1, 2) is not.
        (&wythoff, "min(a, b) == floor(abs(a - b) * phi)", "refute"),
        (
            &wythoff,
            "(a + b <= 1 || min(a, b) + 1 == floor(abs(a - b) * phi)) && a < 5000",
            "refute absorption",
        ),
        (&nim, "a == b", "refute"),
    ];
    for (game, text, says) in refuted {
        not_proved(game, ClaimKind::PSet, text, says);
    }
}

/// Under misère play a position without a move is won by the player to move (value 1): the
/// prover's sentence `ends` says so, and absorption asks nothing of such a position.
#[test]
fn misere_laws_are_proved_and_their_ends_checked() {
    let misere = |name| lookup(name).unwrap().with_play(Play::Misere);
    let powers = fixtures::game("powers-of-two").with_play(Play::Misere);
    let heap_a = fixtures::game("heap-a").with_play(Play::Misere);
    let proved: [(&Game, ClaimKind, &str); 6] = [
        (&misere("nim"), ClaimKind::PSet, MISERE_NIM),
        (&misere("wythoff"), ClaimKind::PSet, MISERE_WYTHOFF),
        (&powers, ClaimKind::Values, "(1 - n) % 3"),
        (&powers, ClaimKind::PSet, "n % 3 == 1"),
        (&heap_a, ClaimKind::PSet, "a == 1"),
        (&heap_a, ClaimKind::Values, "if(a <= 1, 1 - a, a)"),
    ];
    for (game, kind, text) in proved {
        let decision = proof(game, kind, text);
        assert_eq!(
            decision.proof.theorem(),
            Some(Theorem::Automata),
            "{text}: {:?}",
            decision.proof
        );
        assert!(decision.walnut.as_deref().is_some_and(|w| w.contains("eval ends")), "{text}");
    }
    // Normal play's laws, and claims that fail only where no move is left, far from any box.
    let refuted: [(&Game, ClaimKind, &str, &str); 5] = [
        (
            &misere("nim"),
            ClaimKind::PSet,
            "a == b",
            "refute ends: (a = 0, b = 0) is claimed P, but has no move",
        ),
        (
            &heap_a,
            ClaimKind::PSet,
            "(a == 1 && b < 1000) || (a == 0 && b >= 1000)",
            "refute ends: (a = 0, b = 1000)",
        ),
        (&heap_a, ClaimKind::PSet, "a == 1 && b < 1000", "refute absorption: (a = 1, b = 1000)"),
        (
            &heap_a,
            ClaimKind::Values,
            "a",
            "refute ends: (a = 0, b = 0) has no move, so its value is 1",
        ),
        (&powers, ClaimKind::Values, "n % 3", "refute"),
    ];
    for (game, kind, text, says) in refuted {
        not_proved(game, kind, text, says);
    }
}

#[test]
fn claims_true_on_a_box_only_are_refuted_or_outside() {
    let nim = lookup("nim").unwrap();
    let wythoff = lookup("wythoff").unwrap();
    let cases: [(&Game, ClaimKind, &str, &str); 6] = [
        // A decimal is not phi: outside, never proved.
        (
            &wythoff,
            ClaimKind::PSet,
            "min(a, b) == floor(abs(a - b) * 1.618034)",
            "the real constant 1.618034",
        ),
        // An exception outside any small box.
        (&nim, ClaimKind::Values, "xor(a, b) + if(a == 1000 && b == 3, 1, 0)", "refute"),
        (&nim, ClaimKind::Values, "xor(a, b) % 64", "refute"),
        (
            &wythoff,
            ClaimKind::PSet,
            "min(a, b) == floor(abs(a - b) * phi) && a + b < 5000",
            "refute",
        ),
        (&nim, ClaimKind::PSet, "a == b || a + b == 3000", "refute"),
        // A branch that is never taken still leaves the fragment where its xor's argument is
        // negative: outside, not proved, and not called false.
        (
            &nim,
            ClaimKind::Values,
            "if(a >= 0, xor(a, b), xor(a - 1, b))",
            "outside the automatic prover's fragment: at (a = 0, b = 0) the claim takes the xor of a negative number",
        ),
    ];
    for (game, kind, text, says) in cases {
        not_proved(game, kind, text, says);
    }
}

/// The plain values of a 2-D game on `size`² under its play, row-major, from each axis'
/// smallest coordinate.
fn table(game: &Game, size: usize) -> Vec<u32> {
    let mins: Vec<i64> = game.axes().iter().map(|a| a.min).collect();
    let mut values = vec![0u32; size * size];
    for index in 0..size * size {
        let pos = [mins[0] + (index / size) as i64, mins[1] + (index % size) as i64];
        let options = game.options(&pos);
        let ended = options.is_empty();
        let values_of = options.into_iter().map(|o| {
            let (a, b) = ((o[0][0] - mins[0]) as usize, (o[0][1] - mins[1]) as usize);
            Nimber(values[a * size + b])
        });
        values[index] = game.play().value(mex(values_of), || ended).0;
    }
    values
}

/// Whether a claim agrees with the table of `game` on `size`².
fn agrees_on(
    game: &Game,
    kind: ClaimKind,
    text: &str,
    values: &[u32],
    size: usize,
) -> Option<bool> {
    let names: Vec<&str> = game.axes().iter().map(|a| a.name.as_str()).collect();
    let conjecture = Conjecture::parse(kind, text, &names).ok()?;
    let mins: Vec<i64> = game.axes().iter().map(|a| a.min).collect();
    let mut slots = vec![0; 8];
    for (index, value) in values.iter().enumerate() {
        let pos = [mins[0] + (index / size) as i64, mins[1] + (index % size) as i64];
        conjecture.variables.fill(&mut slots, &pos, 0, &crate::conjecture::Edges::unknown());
        let agrees = match kind {
            ClaimKind::PSet => conjecture.expr.eval_bool(&slots).ok()? == (*value == 0),
            _ => conjecture.expr.eval_int(&slots).ok()? == i64::from(*value),
        };
        if !agrees {
            return Some(false);
        }
    }
    Some(true)
}

/// Mutants of a proved law's text: each integer constant ±1, and each operator swapped for a
/// neighbour.
fn mutants(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let swaps = [
        ("min", "max"),
        ("max", "min"),
        ("<=", "<"),
        ("==", "!="),
        ("&&", "||"),
        ("||", "&&"),
        (" + ", " - "),
        (" - ", " + "),
        ("phi", "(phi + 1)"),
        ("a", "b"),
    ];
    for (from, to) in swaps {
        for (at, _) in text.match_indices(from) {
            out.push(format!("{}{to}{}", &text[..at], &text[at + from.len()..]));
        }
    }
    let bytes = text.as_bytes();
    for at in 0..bytes.len() {
        if bytes[at].is_ascii_digit() && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric()) {
            let end =
                (at..bytes.len()).find(|&i| !bytes[i].is_ascii_digit()).unwrap_or(bytes.len());
            let n: i64 = text[at..end].parse().unwrap();
            for m in [n - 1, n + 1] {
                out.push(format!("{}{m}{}", &text[..at], &text[end..]));
            }
        }
    }
    out
}

/// Every mutant that is false on a 40² table is not proved; every game mutant that changes the
/// table leaves the law unproved.
#[test]
fn mutants_of_proved_laws_are_never_proved_where_they_are_false() {
    let size = 40;
    let misere = |name| lookup(name).unwrap().with_play(Play::Misere);
    let laws = [
        (lookup("nim").unwrap(), ClaimKind::Values, "xor(a, b)"),
        (lookup("wythoff").unwrap(), ClaimKind::PSet, "min(a, b) == floor(abs(a - b) * phi)"),
        (
            lookup("wythoff-short-diagonal").unwrap(),
            ClaimKind::PSet,
            "(a == b && a % 3 == 0) || (min(a, b) % 3 == 1 && abs(a - b) == 1)",
        ),
        (misere("nim"), ClaimKind::PSet, MISERE_NIM),
        (misere("wythoff"), ClaimKind::PSet, MISERE_WYTHOFF),
        (fixtures::game("wythoff-terminal"), ClaimKind::PSet, WYTHOFF_TERMINAL),
    ];
    let mut refuted = 0;
    for (game, kind, text) in &laws {
        let (name, kind, text) = (game.name(), *kind, *text);
        let values = table(game, size);
        assert_eq!(agrees_on(game, kind, text, &values, size), Some(true), "{name}: {text}");
        for mutant in mutants(text) {
            if agrees_on(game, kind, &mutant, &values, size) != Some(false) {
                continue;
            }
            let decision = proof(game, kind, &mutant);
            assert!(!decision.proof.is_proved(), "{name}: the false {mutant} was proved");
            refuted += 1;
        }
    }
    assert!(refuted >= 40, "only {refuted} mutants were false on the box");
    // Mutate the moves: Wythoff's diagonal as a jump of 1..=2, Nim with a diagonal.
    let games = [
        (spec("name = \"w\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n[[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1]]\n[[rules]]\nkind = \"jump\"\ndirections = [[-1, -1]]\nsteps = \"1..=2\"\n"), ClaimKind::PSet, "min(a, b) == floor(abs(a - b) * phi)"),
        (spec("name = \"n\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n[[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\nmax = 2\n"), ClaimKind::Values, "xor(a, b)"),
        (spec("name = \"n2\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n[[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -2]]\n"), ClaimKind::Values, "xor(a, b)"),
    ];
    for (game, kind, text) in games {
        assert_eq!(agrees_on(&game, kind, text, &table(&game, size), size), Some(false));
        assert!(!proof(&game, kind, text).proof.is_proved(), "{text} on a mutated game");
    }
}

#[test]
fn formulas_built_agree_with_their_brute_force() {
    // The Wythoff claim's sentences' parts, on small numbers: the move relation.
    let wythoff = lookup("wythoff").unwrap();
    let names = ["a", "b"];
    let conjecture =
        Conjecture::parse(ClaimKind::PSet, "min(a, b) == floor(abs(a - b) * phi)", &names).unwrap();
    let problem = sentences::problem(
        &wythoff,
        Claimed::PSet,
        conjecture.expr.root(),
        conjecture.variables.slot_axes(),
    )
    .unwrap();
    let mut work = Work::new(MAX_STATES, &never);
    let mut logic = Logic { numeration: Numeration::Fibonacci, work: &mut work };
    let mut builder = Builder::new(&mut logic);
    let claim = problem.claim();
    let automaton = builder.automaton(&claim).unwrap();
    for a in 0..20u128 {
        for b in 0..20u128 {
            let mut values: HashMap<Var, u128> = HashMap::from([(0, a), (1, b)]);
            let word = Numeration::Fibonacci.word(&[a, b]);
            assert_eq!(
                claim.holds(&mut values, 40, Numeration::Fibonacci),
                automaton.accepts(&word),
                "{a} {b}"
            );
        }
    }
}

/// `check --walnut` writes `Conjecture::walnut`: the very text of the sentences `decide` decided.
#[test]
fn the_walnut_text_is_the_decided_sentences() {
    for (name, kind, text) in [
        ("wythoff", ClaimKind::PSet, "min(a, b) == floor(abs(a - b) * phi)"),
        ("nim", ClaimKind::Values, "xor(a, b)"),
    ] {
        let game = lookup(name).unwrap();
        let conjecture = Conjecture::parse(kind, text, &["a", "b"]).unwrap();
        let decision = proof(&game, kind, text);
        assert!(decision.proof.is_proved());
        assert_eq!(conjecture.walnut(&game).ok(), decision.walnut, "{name}");
    }
}

/// A proof that outgrows its bounds stops, says where and why, and proves nothing.
#[test]
fn a_proof_past_its_states_or_its_time_stops_and_says_so() {
    let wythoff = lookup("wythoff").unwrap();
    let text = "min(a, b) == floor(abs(a - b) * phi)";
    let conjecture = Conjecture::parse(ClaimKind::PSet, text, &["a", "b"]).unwrap();
    let slots = conjecture.variables.slot_axes();
    let small =
        decide_within(&wythoff, Claimed::PSet, &conjecture.expr, slots, &Budget::default(), 50);
    assert_eq!(
        small.proof.argument(),
        "the automatic prover stopped on stability, in Fibonacci numeration: an automaton passed 50 states"
    );
    let none = grundy_compute::Seconds::new(0.0, "test").unwrap();
    let spent = Budget::new(none, &grundy_compute::NoProgress);
    let late = decide(&wythoff, Claimed::PSet, &conjecture.expr, slots, &spent);
    assert!(!late.proof.is_proved());
    assert!(
        late.proof.argument().contains("its budget of 0 s ran out"),
        "{}",
        late.proof.argument()
    );
}

/// The move relation's automaton accepts (X, X') exactly when X' is an option of X
/// (`Game::options`, the plain reading of the rules), on every pair of a box.
#[test]
fn the_move_relation_is_the_games_options() {
    let specs = [
        lookup("wythoff").unwrap(),
        lookup("wythoff-short-diagonal").unwrap(),
        lookup("nim").unwrap(),
        lookup("kiki").unwrap(),
        lookup("fibonacci-rook").unwrap(),
        spec("name = \"j\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n[[rules]]\nkind = \"jump\"\ndirections = [[-2, 0], [-1, -3]]\nsteps = \"2..\"\nall-but = [4]\n[[rules]]\nkind = \"step\"\noffsets = [[-3, 0], [-1, -1]]\n[[rules]]\nkind = \"jump\"\ndirections = [[0, -1]]\nsteps = \"powers-of-two\"\n"),
        // Terminal positions (issue 69): no move starts where the condition holds.
        fixtures::game("wythoff-terminal"),
        fixtures::game("wythoff-from-1").with_terminal("a % 3 == 2 && b >= 4 || a == b").unwrap(),
    ];
    for game in specs {
        let problem = sentences::problem(
            &game,
            Claimed::PSet,
            Conjecture::parse(ClaimKind::PSet, "true", &["a", "b"]).unwrap().expr.root(),
            &[Some(0), Some(1)],
        )
        .unwrap();
        let (numeration, formula) =
            (problem.numeration, Formula::Call(problem.moves.clone(), vec![0, 1, 2, 3]));
        let mut work = Work::new(MAX_STATES, &never);
        let mut logic = Logic { numeration, work: &mut work };
        let automaton = Builder::new(&mut logic).automaton(&formula).unwrap();
        let mins: Vec<i64> = game.axes().iter().map(|a| a.min).collect();
        let n = 14u128;
        for a in 0..n {
            for b in 0..n {
                let pos = [mins[0] + a as i64, mins[1] + b as i64];
                let options: Vec<Vec<i64>> =
                    game.options(&pos).into_iter().map(|o| o[0].clone()).collect();
                for a1 in 0..n {
                    for b1 in 0..n {
                        let to = vec![mins[0] + a1 as i64, mins[1] + b1 as i64];
                        let numbers: Vec<u128> = automaton
                            .tracks()
                            .iter()
                            .map(|&t| [a, b, a1, b1][t as usize])
                            .collect();
                        let accepted = automaton.accepts(&numeration.word(&numbers));
                        assert_eq!(
                            accepted,
                            options.contains(&to),
                            "{}: {pos:?} -> {to:?}",
                            game.name()
                        );
                    }
                }
            }
        }
    }
}
