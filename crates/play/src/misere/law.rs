//! Standings of every heap of a subtraction game with a finite set, from a proved period: what
//! answers a misère sum of heaps far beyond the exact search's reach.
//!
//! In a heap game whose moves remove at most t stones and leave one heap, every heap of t stones
//! or more has every move, and its standing — normal value, misère value and whether it is tame
//! (Conway: its options are, and its values are (0, 1), (1, 0) or (a, a)) — is a function of
//! the standings of the t heaps before it: the normal and misère values are the mex of theirs,
//! and it is tame when they all are and its values have the tame form. So the subtraction
//! window argument proves the standings periodic from the first of t heaps that repeat a period
//! later, as it proves the values periodic. When every heap of the period and before it is tame,
//! every heap is, and a sum of heaps of such games has the misère value the tame rule gives
//! (Conway, *On Numbers and Games*, ch. 12): the nim-sum of the normal values, flipped by 1 when
//! every component is fickle.

use grundy_compute::misere::{with_deep_stack, MisereError, MisereSearch, SearchLimits, Standing};
use grundy_core::{Coord, Game};
use grundy_laws::proof::theorems::{proved_law, subtraction_reach, ProvedLaw};
use std::collections::HashMap;

/// The most heaps searched for a period of the standings.
const MOST_HEAPS: Coord = 1 << 16;

/// Every heap's standing, from a period proved by the subtraction window.
#[derive(Clone, Debug)]
pub struct StandingLaw {
    /// The law of the standings' numbers (an index into `standings`).
    law: ProvedLaw,
    standings: Vec<Standing>,
}

impl StandingLaw {
    /// The standing of heap `n` (at least the axis' smallest).
    pub fn standing(&self, n: Coord) -> Standing {
        self.standings[self.law.value(n) as usize]
    }

    /// Whether every heap is tame: every standing of the period and before it is.
    pub fn all_tame(&self) -> bool {
        self.standings.iter().all(|s| s.tame)
    }

    /// The theorem's argument.
    pub fn argument(&self) -> &str {
        &self.law.argument
    }
}

/// The standings of every heap of `game`, a heap game under misère play whose moves remove a
/// bounded number of stones and leave one heap, when the subtraction window proves their
/// period within the first 2^16 heaps (searched within `limits`); `None` for another game or no
/// proved period.
///
/// # Errors
/// The search's limits.
pub fn standing_law(
    game: &Game,
    limits: &SearchLimits,
) -> Result<Option<StandingLaw>, MisereError> {
    if game.dims() != 1 || subtraction_reach(game).is_none() || game.options_are_sums() {
        return Ok(None);
    }
    let game = game.clone();
    with_deep_stack(limits, move || {
        let min = game.axes()[0].min;
        let mut search = MisereSearch::new(vec![game.clone()], limits);
        let mut ids: HashMap<(u32, u32, bool), u32> = HashMap::new();
        let (mut standings, mut sequence) = (Vec::new(), Vec::new());
        let mut last = min + 255;
        loop {
            for n in min + sequence.len() as Coord..=last {
                let standing = search.standing(search.component(0, &[n])?)?;
                let key = (standing.normal, standing.misere, standing.tame);
                let id = *ids.entry(key).or_insert_with(|| {
                    standings.push(standing);
                    standings.len() as u32 - 1
                });
                sequence.push(id);
            }
            if let Some(law) = proved_law(&game, &sequence, min) {
                return Ok(Some(StandingLaw { law, standings }));
            }
            if last - min >= MOST_HEAPS {
                return Ok(None);
            }
            last = min + 2 * (last - min + 1) - 1;
        }
    })
}
