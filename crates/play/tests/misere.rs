//! The misère search against an independent brute force: misère values of sums of heaps by
//! the definition (1 for a sum without a move, otherwise the mex of its options' values), with
//! a memo over sorted multisets and nothing else — no tame rule, no standing, no genus code.

use grundy_compute::misere::{genus_table, with_deep_stack, MisereSearch, SearchLimits};
use grundy_compute::NoProgress;
use grundy_core::{lookup, Coord, Game};
use proptest::prelude::*;
use std::collections::HashMap;

/// A sum: the heaps of the game, then nim-heaps, each sorted.
type Sum = (Vec<Coord>, Vec<Coord>);

struct Brute<'g> {
    game: &'g Game,
    memo: HashMap<Sum, u32>,
}

impl Brute<'_> {
    fn value(&mut self, sum: &Sum) -> u32 {
        if let Some(&v) = self.memo.get(sum) {
            return v;
        }
        let mut seen = Vec::new();
        for (i, &heap) in sum.0.iter().enumerate() {
            for option in self.game.options(&[heap]) {
                let mut next = sum.clone();
                next.0.remove(i);
                next.0.extend(option.iter().map(|piece| piece[0]));
                next.0.sort_unstable();
                seen.push(self.value(&next));
            }
        }
        for (i, &heap) in sum.1.iter().enumerate() {
            for smaller in 0..heap {
                let mut next = sum.clone();
                next.1[i] = smaller;
                next.1.sort_unstable();
                seen.push(self.value(&next));
            }
        }
        let value = if seen.is_empty() { 1 } else { (0..).find(|v| !seen.contains(v)).unwrap() };
        self.memo.insert(sum.clone(), value);
        value
    }
}

fn limits() -> SearchLimits {
    SearchLimits::new(4 << 30, 600, "test")
}

/// The genus of every heap up to `last` equals the brute force's misère values of the heap
/// plus k copies of *2, for every k the genus computed.
fn genus_agrees(name: &str, last: Coord) {
    let game = lookup(name).unwrap();
    let table = genus_table(&game, last, &limits(), &NoProgress).unwrap();
    let mut brute = Brute { game: &game, memo: HashMap::new() };
    let normal = grundy_compute::fill_reference(
        &game,
        &grundy_core::TableShape::new(&game, &[last], "t").unwrap(),
    );
    for row in &table {
        assert_eq!(
            Some(grundy_core::Nimber(row.genus.normal)),
            normal.get(&[row.heap]),
            "{name} {}",
            row.heap
        );
        assert!(row.genus.settled, "{name} {}: {}", row.heap, row.genus);
        for (k, &gamma) in row.genus.misere.iter().enumerate() {
            let sum = (vec![row.heap], vec![2; k]);
            assert_eq!(gamma, brute.value(&sum), "{name} {} + {k} copies of *2", row.heap);
        }
        // A heap the search calls tame has a tame genus.
        if row.standing.tame {
            assert!(row.genus.is_tame_genus(), "{name} {}: {}", row.heap, row.genus);
        }
    }
}

#[test]
fn the_genus_of_kayles_and_dawsons_kayles_agrees_with_the_definition() {
    with_deep_stack(&limits(), || {
        genus_agrees("kayles", 30);
        genus_agrees("dawsons-kayles", 36);
        genus_agrees("octal:0.137", 32);
        genus_agrees("subtraction:1,2,5", 60);
    });
}

/// Winning Ways' genera of the first Kayles heaps (its table of Kayles in misère play).
#[test]
fn kayles_has_winning_ways_genera() {
    let table = with_deep_stack(&limits(), || {
        genus_table(&lookup("kayles").unwrap(), 5, &limits(), &NoProgress).unwrap()
    });
    let genera: Vec<String> = table.iter().map(|row| row.genus.to_string()).collect();
    assert_eq!(genera, ["0^120", "1^031", "2^20", "3^31", "1^031", "4^146"]);
    assert!(table[..5].iter().all(|row| row.standing.tame));
    assert!(table[5].standing.restive());
}

/// Misère outcomes of random sums of 2 to 4 heaps agree with the brute force, for each game up
/// to the largest heap its search answers quickly.
#[test]
fn random_sums_agree_with_the_brute_force() {
    with_deep_stack(&limits(), || {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for (name, largest) in
            [("kayles", 12), ("dawsons-kayles", 16), ("octal:0.137", 14), ("subtraction:1,3,4", 30)]
        {
            let game = lookup(name).unwrap();
            let mut search = MisereSearch::new(vec![game.clone()], &limits());
            let mut brute = Brute { game: &game, memo: HashMap::new() };
            for _ in 0..500 {
                let count = 2 + next(3) as usize;
                let mut heaps: Vec<Coord> =
                    (0..count).map(|_| next(largest + 1) as Coord).collect();
                let components: Vec<_> =
                    heaps.iter().map(|&h| search.component(0, &[h]).unwrap()).collect();
                heaps.sort_unstable();
                let brute_value = brute.value(&(heaps.clone(), vec![]));
                let p = search.is_p_position(&components).unwrap();
                assert_eq!(p, brute_value == 0, "{name} {heaps:?}");
                assert_eq!(search.value_of(&components).unwrap(), brute_value, "{name} {heaps:?}");
            }
        }
    });
}

proptest! {
    /// Bouton's misère rule: a sum of nim-heaps is a misère P-position exactly when its
    /// nim-sum is 0 and some heap is larger than 1, or its nim-sum is 1 and none is.
    #[test]
    fn misere_nim_follows_boutons_rule(heaps in prop::collection::vec(0u32..12, 0..6)) {
        let mut search = MisereSearch::new(vec![], &limits());
        let components: Vec<_> = heaps.iter().map(|&h| search.nim_heap(h)).collect();
        let nim_sum = heaps.iter().fold(0, |x, &h| x ^ h);
        let p = if heaps.iter().any(|&h| h > 1) { nim_sum == 0 } else { nim_sum == 1 };
        prop_assert_eq!(search.is_p_position(&components).unwrap(), p);
        prop_assert_eq!(search.value_of(&components).unwrap() == 0, p);
    }
}

/// The standings a subtraction game's proved law gives far out are the search's (issue 50:
/// `value --misere subtraction:1,2,3 10^12 7` was "too far out"), and sums of tame heaps have
/// the value the brute force gives: the law and the tame rule answer what the search cannot
/// reach.
#[test]
fn proved_standings_answer_sums_beyond_the_search() {
    use grundy_play::misere::{misere_sum, standing_law, SumTerm};
    for name in [
        "subtraction:1,2,3",
        "subtraction:2,3",
        "subtraction:1,4",
        "subtraction:2,5,6",
        "subtraction:1,3,4",
    ] {
        let game = lookup(name).unwrap().with_play(grundy_core::Play::Misere);
        let law = standing_law(&game, &limits()).unwrap().unwrap_or_else(|| panic!("{name}"));
        let mut brute = Brute { game: &game, memo: HashMap::new() };
        with_deep_stack(&limits(), || {
            let mut search = MisereSearch::new(vec![game.clone()], &limits());
            for n in 0..600 {
                let c = search.component(0, &[n]).unwrap();
                assert_eq!(law.standing(n), search.standing(c).unwrap(), "{name}: heap {n}");
            }
        });
        // Far out, a sum of two heaps takes the value of the sum of the two heaps of the same
        // standings near the start (the same residues past the period), when all are tame.
        let far = 1_000_000_000_000i64;
        for (a, b) in [(0, 3), (5, 7), (11, 2)] {
            let terms = [SumTerm { game: &game, positions: vec![vec![far + a], vec![b]] }];
            let answer = misere_sum(&terms, &limits());
            if !law.all_tame() {
                assert!(answer.is_err(), "{name}: a wild game far out is not answered");
                continue;
            }
            let answer = answer.unwrap();
            assert_eq!(answer.method, "tame rule");
            // A heap near the start with the standing of far + a, as the brute force sees it.
            let near = (0..200).find(|&n| law.standing(n) == law.standing(far + a)).unwrap();
            let expected = brute.value(&(vec![near, b], vec![]));
            assert_eq!(answer.value, expected, "{name}: {far} + {a} and {b}");
        }
    }
}
