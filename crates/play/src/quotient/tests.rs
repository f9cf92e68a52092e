use super::*;
use grundy_core::lookup;

fn generator(heap: usize, index: u32, period: u32) -> Generator {
    Generator { heap, index, period }
}

/// A cyclic monoid ⟨g | g^(i+p) = g^i⟩ wraps exponents past i + p back by multiples of p.
#[test]
fn a_cyclic_monoid_wraps_past_its_index() {
    let free = Free::of(&[generator(0, 2, 3)], 100).unwrap();
    assert_eq!(free.size, 5);
    let wrapped: Vec<u64> = (0..12).map(|e| free.wrap(0, e)).collect();
    assert_eq!(wrapped, [0, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2]);
    // g^3 · g^4 = g^7 = g^4 (7 − 2 = 5 ≡ 2 mod 3).
    assert_eq!(free.mul(3, 4), 4);
    assert_eq!(free.of_word(&[7]), 4);
}

/// Two generators multiply coordinate by coordinate, in mixed radix; the product is commutative
/// and associative with the empty word as its unit.
#[test]
fn a_product_of_cyclic_monoids_is_a_commutative_monoid() {
    let free = Free::of(&[generator(0, 1, 2), generator(1, 0, 2)], 100).unwrap();
    assert_eq!(free.size, 6);
    for x in 0..free.size {
        assert_eq!(free.mul(x, 0), x);
        for y in 0..free.size {
            assert_eq!(free.mul(x, y), free.mul(y, x));
            for z in 0..free.size {
                assert_eq!(free.mul(free.mul(x, y), z), free.mul(x, free.mul(y, z)));
            }
        }
    }
    // Each coordinate is its generator's exponent.
    let x = free.of_word(&[2, 1]);
    assert_eq!((free.exponent(x, 0), free.exponent(x, 1)), (2, 1));
}

/// A candidate larger than the memory allows is refused (the quotient may be infinite).
#[test]
fn a_candidate_past_the_limit_is_refused() {
    let generators = [generator(0, 4, 4), generator(1, 4, 4), generator(2, 4, 4)];
    assert!(Free::of(&generators, 511).is_none());
    assert_eq!(Free::of(&generators, 512).map(|f| f.size), Some(512));
}

/// The trivial quotient has one class, the empty sum, which is no P-position (misère: the
/// player to move without a move wins); a position is P when it has options and none is P.
#[test]
fn p_positions_follow_from_the_options_classes() {
    let trivial = Reduced::trivial();
    assert_eq!(trivial.len(), 1);
    assert!(!trivial.p[0]);
    assert_eq!(trivial.mul(0, 0), 0);
    assert!(!trivial.p_by_moves(&[]));
    assert!(trivial.p_by_moves(&[0]));
}

/// The closure keeps each heap's options as sorted multisets of earlier heaps, with heaps that
/// have no move left out (they change no sum) and repeats removed.
#[test]
fn the_closure_normalises_each_heaps_options() {
    let game = lookup("subtraction:1,2,3").unwrap();
    let mut closure = Closure::new(&game).unwrap();
    assert_eq!(closure.last(), None);
    for _ in 0..4 {
        closure.push_game();
    }
    assert_eq!(closure.last(), Some(3));
    // Heap 0 has no move; heap 3 moves to heaps 0, 1 and 2, and heap 0 is the empty sum.
    assert!(closure.heaps[0].options.is_empty());
    assert_eq!(closure.heaps[3].options, vec![vec![], vec![1], vec![2]]);
    let index = closure.push(vec![vec![2, 1, 0], vec![1, 2], vec![0]]);
    assert_eq!(index, 4);
    assert_eq!(closure.heaps[4].options, vec![vec![], vec![1, 2]]);
}

/// A board is no heap game: it has no misère quotient.
#[test]
fn only_heap_games_have_a_closure() {
    let kiki = lookup("kiki").unwrap();
    assert!(matches!(Closure::new(&kiki), Err(QuotientError::NotAHeapGame(_))));
}
