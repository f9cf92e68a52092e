//! Misère quotients against a brute force from the definition, against their own one-move
//! consistency, against the tame quotient Winning Ways and Plambeck–Siegel give,
//! and against Bouton's rule for misère Nim.

use grundy_compute::misere::{with_deep_stack, SearchLimits};
use grundy_compute::NoProgress;
use grundy_core::{lookup, Axis, Coord, Game, Rule};
use grundy_play::quotient::{misere_quotient, QuotientError};
use std::collections::HashMap;

fn limits() -> SearchLimits {
    SearchLimits::new(4 << 30, 600, "test")
}

/// A seeded generator (fastrand's wyrand), so that a failure names its case again.
type Draws = fastrand::Rng;

/// Misère outcomes of sums of one heap game by the definition and nothing else: a sum is a
/// P-position when it has a move and every option is an N-position. Sums are kept as sorted
/// multisets of heaps with a move; an N-position stops at its first P-option.
struct Brute {
    /// Each heap's options, each the heaps with a move it leaves.
    options: Vec<Vec<Vec<u8>>>,
    memo: HashMap<Vec<u8>, bool>,
}

impl Brute {
    fn new(game: &Game, top: Coord) -> Brute {
        let mut options: Vec<Vec<Vec<u8>>> = Vec::new();
        for n in 0..=top {
            let heap: Vec<Vec<u8>> = game
                .options(&[n])
                .iter()
                .map(|o| {
                    let mut parts: Vec<u8> = o
                        .iter()
                        .map(|piece| piece[0] as u8)
                        .filter(|&h| !options[h as usize].is_empty())
                        .collect();
                    parts.sort_unstable();
                    parts
                })
                .collect();
            options.push(heap);
        }
        Brute { options, memo: HashMap::new() }
    }

    fn is_p(&mut self, heaps: &[Coord]) -> bool {
        let mut sum: Vec<u8> = heaps
            .iter()
            .map(|&h| h as u8)
            .filter(|&h| !self.options[h as usize].is_empty())
            .collect();
        sum.sort_unstable();
        self.sorted_is_p(&sum)
    }

    fn sorted_is_p(&mut self, sum: &[u8]) -> bool {
        if sum.is_empty() {
            return false;
        }
        if let Some(&p) = self.memo.get(sum) {
            return p;
        }
        let mut p = true;
        let mut next = Vec::with_capacity(sum.len() + 1);
        'moves: for i in 0..sum.len() {
            if i > 0 && sum[i] == sum[i - 1] {
                continue;
            }
            for k in 0..self.options[sum[i] as usize].len() {
                next.clear();
                next.extend_from_slice(&sum[..i]);
                next.extend_from_slice(&sum[i + 1..]);
                next.extend_from_slice(&self.options[sum[i] as usize][k]);
                next.sort_unstable();
                if self.sorted_is_p(&next) {
                    p = false;
                    break 'moves;
                }
            }
        }
        self.memo.insert(sum.to_vec(), p);
        p
    }
}

/// 500 random sums of 2–4 heaps up to `top`: the quotient's outcome is the brute force's.
fn outcomes_agree(name: &str, top: Coord) {
    let game = lookup(name).unwrap();
    let quotient = misere_quotient(&game, top, &limits(), &NoProgress).unwrap();
    with_deep_stack(&limits(), || {
        let mut brute = Brute::new(&game, top);
        let mut draws = Draws::with_seed(0x9e37_79b9_7f4a_7c15 ^ top as u64);
        for _ in 0..500 {
            let heaps: Vec<Coord> =
                (0..2 + draws.u64(..3)).map(|_| draws.u64(..top as u64 + 1) as Coord).collect();
            assert_eq!(quotient.is_p(&heaps).unwrap(), brute.is_p(&heaps), "{name}: {heaps:?}");
        }
    });
}

/// 2000 random sums, 500 of each game, up to the largest heaps whose brute force a test can
/// afford (it grows about 1.4–1.8 times with each heap: Kayles' to 22 remembers 11 million
/// sums); heaps up to 30 are checked one move deep below.
#[test]
fn outcomes_of_random_sums_agree_with_the_brute_force() {
    outcomes_agree("kayles", 18);
    outcomes_agree("dawsons-kayles", 22);
    outcomes_agree("octal:0.137", 22);
    outcomes_agree("subtraction:1,3,4", 30);
}

/// One move deep, from the definition: a sum is P exactly when it has a move and the quotient
/// calls none of its options P. Holding on every sum is the induction that makes the quotient
/// right; here it is tried on 2000 random sums of 2–4 heaps up to 30 (up to 28 for Dawson's
/// Kayles, whose quotient past 28 takes minutes).
#[test]
fn outcomes_up_to_heap_30_follow_from_their_options() {
    for (name, top) in [
        ("kayles", 30),
        ("dawsons-kayles", 28),
        ("subtraction:1,3,4", 30),
        ("subtraction:1,2,5", 30),
    ] {
        let game = lookup(name).unwrap();
        let quotient = misere_quotient(&game, top, &limits(), &NoProgress).unwrap();
        let mut draws = Draws::with_seed(0x2545_f491_4f6c_dd1d ^ top as u64);
        for _ in 0..500 {
            let heaps: Vec<Coord> =
                (0..2 + draws.u64(..3)).map(|_| draws.u64(..top as u64 + 1) as Coord).collect();
            let mut options = Vec::new();
            for (i, &heap) in heaps.iter().enumerate() {
                for option in game.options(&[heap]) {
                    let mut next = heaps.clone();
                    next.remove(i);
                    next.extend(option.iter().map(|piece| piece[0]));
                    options.push(quotient.is_p(&next).unwrap());
                }
            }
            let p = !options.is_empty() && !options.contains(&true);
            assert_eq!(quotient.is_p(&heaps).unwrap(), p, "{name}: {heaps:?}");
        }
    }
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
    let mut draws = Draws::with_seed(7);
    for _ in 0..2000 {
        let heaps: Vec<Coord> = (0..1 + draws.u64(..5)).map(|_| draws.u64(..8) as Coord).collect();
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
