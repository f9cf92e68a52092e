//! Misère quotients against the exact search (itself checked against a brute force from the
//! definition in `misere.rs`), against the tame quotient Winning Ways and Plambeck–Siegel give,
//! and against Bouton's rule for misère Nim.

use grundy_compute::NoProgress;
use grundy_core::{lookup, Axis, Coord, Game, Rule};
use grundy_patterns::misere::{with_deep_stack, MisereSearch, SearchLimits};
use grundy_patterns::quotient::{misere_quotient, QuotientError};

fn limits() -> SearchLimits {
    SearchLimits::new(4 << 30, 600, "test")
}

/// A small deterministic generator (xorshift), so that a failure names its sums again.
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `count` random sums of 2–4 heaps up to `top`: the quotient's outcome is the search's.
fn outcomes_agree(name: &str, top: Coord, count: usize) {
    let game = lookup(name).unwrap();
    let quotient = misere_quotient(&game, top, &limits(), &NoProgress).unwrap();
    with_deep_stack(|| {
        let mut search = MisereSearch::new(vec![game.clone()], &limits());
        let mut draws = Draws(0x9e37_79b9_7f4a_7c15 ^ top as u64);
        for _ in 0..count {
            let heaps: Vec<Coord> =
                (0..2 + draws.below(3)).map(|_| draws.below(top as u64 + 1) as Coord).collect();
            let parts: Vec<_> = heaps.iter().map(|&h| search.component(0, &[h]).unwrap()).collect();
            let truth = search.is_p_position(&parts).unwrap();
            assert_eq!(quotient.is_p(&heaps).unwrap(), truth, "{name}: {heaps:?}");
        }
    });
}

#[test]
fn outcomes_of_random_sums_agree_with_the_exact_search() {
    outcomes_agree("kayles", 14, 1000);
    outcomes_agree("dawsons-kayles", 16, 1000);
    outcomes_agree("octal:0.137", 16, 1000);
    outcomes_agree("subtraction:1,3,4", 30, 1000);
    outcomes_agree("subtraction:1,2,5", 30, 1000);
}

#[test]
fn tame_kayles_has_the_tame_quotient() {
    // Kayles to heap 4 is tame (genera 0^120, 1^031, 2^20, 3^31, 1^031): its quotient is T₂ =
    // ⟨a, b | a² = 1, b³ = b⟩, of order 6 with P-portion {a, b²} (Plambeck–Siegel, §3).
    let quotient = misere_quotient(&lookup("kayles").unwrap(), 4, &limits(), &NoProgress).unwrap();
    let q = quotient.outcome();
    assert_eq!((q.order, q.p_portion), (6, 2));
    assert_eq!(q.generators, vec![("a".to_string(), 1), ("b".to_string(), 2)]);
    assert_eq!(q.relations, vec!["a^2 = 1", "b^3 = b"]);
    assert_eq!(q.p_positions, vec!["a", "b^2"]);
    let words: Vec<&str> = q.heaps.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(words, vec!["1", "a", "b", "ab", "a"]);
}

#[test]
fn kayles_reaches_heap_100() {
    // Evidence, pinned: the check proves every sum's outcome; the order is the reduction's.
    let quotient =
        misere_quotient(&lookup("kayles").unwrap(), 100, &limits(), &NoProgress).unwrap();
    assert_eq!(quotient.outcome().order, 40);
    assert_eq!(quotient.changes(), &[1, 2, 5, 9, 12, 25, 27]);
}

#[test]
fn misere_nim_follows_bouton() {
    let nim = Game::new(
        "nim-heap",
        "one heap of Nim",
        vec![Axis::new("n", 0)],
        vec![Rule::Slide { directions: vec![vec![-1]], max: None }],
    )
    .unwrap();
    let quotient = misere_quotient(&nim, 7, &limits(), &NoProgress).unwrap();
    let mut draws = Draws(7);
    for _ in 0..2000 {
        let heaps: Vec<Coord> = (0..1 + draws.below(5)).map(|_| draws.below(8) as Coord).collect();
        let xor = heaps.iter().fold(0, |x, &h| x ^ h);
        let bouton = if heaps.iter().all(|&h| h <= 1) { xor == 1 } else { xor == 0 };
        assert_eq!(quotient.is_p(&heaps).unwrap(), bouton, "{heaps:?}");
    }
}

#[test]
fn refusals_name_the_problem() {
    let kiki = lookup("kiki").unwrap();
    let err = misere_quotient(&kiki, 5, &limits(), &NoProgress).err().unwrap();
    assert!(err.to_string().contains("not a heap game"), "{err}");
    let kayles = lookup("kayles").unwrap();
    let quotient = misere_quotient(&kayles, 10, &limits(), &NoProgress).unwrap();
    let err = quotient.is_p(&[3, 11]).unwrap_err();
    assert!(matches!(err, QuotientError::OutOfRange { heap: 11, last: 10, .. }), "{err}");
    // A budget too small for the candidate of Dawson's Kayles past heap 25.
    let small = SearchLimits::new(1 << 20, 600, "a test's 1 MiB");
    let dawson = lookup("dawsons-kayles").unwrap();
    let err = misere_quotient(&dawson, 40, &small, &NoProgress).err().unwrap();
    assert!(matches!(err, QuotientError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("a test's 1 MiB"), "{err}");
}
