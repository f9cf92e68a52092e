//! The genus of a position and the genera of a heap game's heaps: what `compute --misere` and
//! `patterns --misere` report, and the misère values of heap games that no fill computes.

use super::limits::{with_deep_stack, SearchLimits};
use super::search::{tameness, Component, MisereSearch, Standing};
use crate::error::MisereError;
use crate::progress::Progress;
use grundy_core::{Coord, Game};
use std::fmt;

/// The genus of a position: its normal value and the misère values of it plus k copies of *2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play value g.
    pub normal: u32,
    /// γ₀, γ₁, …: the misère values of G, G + *2, G + *2 + *2, … as far as they were computed.
    pub misere: Vec<u32>,
    /// Whether the last four values computed alternate between some a and a ⊕ 2, the tail
    /// every genus ends in (Conway); when not, the superscript is written with a trailing `…`.
    pub settled: bool,
}

impl Genus {
    /// The most copies of *2 the search adds before it gives up waiting for the tail.
    pub const MOST_TWOS: usize = 12;

    /// The superscript's values: γ₀ … γₜ with t the least (at least 1) from which
    /// γₖ₊₂ = γₖ on for every value computed.
    pub fn superscript(&self) -> &[u32] {
        let values = &self.misere;
        if !self.settled {
            return values;
        }
        // The least k₀ from which γₖ₊₂ = γₖ; the superscript runs to γ_{k₀+1}.
        let n = values.len();
        let mut start = n.saturating_sub(2);
        while start > 0 && values[start + 1] == values[start - 1] {
            start -= 1;
        }
        &values[..(start + 2).min(n)]
    }

    /// Whether the genus is one of the tame genera 0^120, 1^031 or a^a(a⊕2).
    pub fn is_tame_genus(&self) -> bool {
        match self.superscript() {
            [1, 2, 0] => self.normal == 0,
            [0, 3, 1] => self.normal == 1,
            [a, b] => *a == self.normal && *b == self.normal ^ 2,
            _ => false,
        }
    }
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.superscript();
        let tail = if self.settled { "" } else { "…" };
        if digits.iter().all(|&d| d < 10) {
            let text: String = digits.iter().map(|d| d.to_string()).collect();
            write!(f, "{}^{text}{tail}", self.normal)
        } else {
            let text: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            write!(f, "{}^({}){tail}", self.normal, text.join(","))
        }
    }
}

/// A heap game's genera counted: how far every heap is tame, and how many are restive, wild or
/// unsettled (`compute --misere --format summary`, `patterns --misere`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GeneraCount {
    /// The largest heap up to which every heap is tame (`None` when the first is not).
    pub tame_up_to: Option<Coord>,
    /// Heaps that are not tame though every option is.
    pub restive: u64,
    /// Other heaps that are not tame.
    pub wild: u64,
    /// Heaps whose genus had not settled after [`Genus::MOST_TWOS`] copies of *2.
    pub unsettled: u64,
}

impl GeneraCount {
    /// The count of `rows`.
    pub fn of(rows: &[HeapGenus]) -> GeneraCount {
        let tame_up_to = match rows.iter().position(|row| !row.standing.tame) {
            Some(0) => None,
            Some(at) => Some(rows[at - 1].heap),
            None => rows.last().map(|row| row.heap),
        };
        let count =
            |kind: &str| rows.iter().filter(|row| tameness(&row.standing) == kind).count() as u64;
        GeneraCount {
            tame_up_to,
            restive: count("restive"),
            wild: count("wild"),
            unsettled: rows.iter().filter(|row| !row.genus.settled).count() as u64,
        }
    }
}

/// A period of a genus sequence: every genus from heap `from` on repeats `period` heaps later,
/// as far as the table reaches (`to`), with three periods at least seen. Evidence only: no
/// theorem is known that proves a genus sequence periodic in general (Allen shows truncated
/// genus sequences of quaternary games are periodic, and full ones need not be).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GenusPeriod {
    /// The period.
    pub period: usize,
    /// The heaps before the periodic part.
    pub preperiod: usize,
    /// The first heap of the periodic part.
    pub from: Coord,
    /// The last heap seen.
    pub to: Coord,
}

/// The smallest period (with its smallest preperiod) of the genus sequence in `rows`, seen at
/// least three times; genera compare as written (normal value, superscript and whether settled).
pub fn genus_period(rows: &[HeapGenus]) -> Option<GenusPeriod> {
    let keys: Vec<(u32, &[u32], bool)> =
        rows.iter().map(|r| (r.genus.normal, r.genus.superscript(), r.genus.settled)).collect();
    let n = keys.len();
    for period in 1..=n / 3 {
        // The least start from which x(i + period) = x(i) up to the end.
        let mut start = n - period;
        while start > 0 && keys[start - 1] == keys[start - 1 + period] {
            start -= 1;
        }
        if n - start >= 3 * period {
            let first = rows.first().map_or(0, |r| r.heap);
            let to = rows.last().map_or(0, |r| r.heap);
            return Some(GenusPeriod {
                period,
                preperiod: start,
                from: first + start as Coord,
                to,
            });
        }
    }
    None
}

/// One heap of a heap game's genus table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGenus {
    /// The heap size.
    pub heap: Coord,
    /// Its genus.
    pub genus: Genus,
    /// What the search knows of it (tame, restive).
    pub standing: Standing,
}

/// The genus of every heap of the 1-D game `game` from its first heap to `last`, in order, with
/// its tameness, by a [`MisereSearch`] within `limits`; `progress` hears of each heap
/// (a "cell") and may cancel between heaps.
///
/// # Errors
/// [`MisereError::TooManyPositions`] and [`MisereError::TooLong`] when the search reaches its
/// limits before `last` ([`genera_within`] keeps the heaps found by then);
/// [`MisereError::Cancelled`].
///
/// # Panics
/// If `game` is not a heap game.
pub fn genus_table(
    game: &Game,
    last: Coord,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<Vec<HeapGenus>, MisereError> {
    let genera = genera_within(game, last, limits, progress)?;
    match genera.cut {
        Some(cut) => Err(cut),
        None => Ok(genera.rows),
    }
}

/// The genera a search found within its limits: every heap from the first to `last`, or to
/// where the search reached its limits.
#[derive(Debug)]
pub struct Genera {
    /// The heaps found, in order.
    pub rows: Vec<HeapGenus>,
    /// Why the search stopped before the last heap asked for: its time or memory limit
    /// ([`MisereError::TooLong`], [`MisereError::TooManyPositions`]); `None` when it got there.
    pub cut: Option<MisereError>,
}

/// [`genus_table`], keeping the heaps found when the search reaches its time or memory limit
/// (a survey's member, which says how far it got).
///
/// # Errors
/// [`MisereError::Cancelled`], and the errors of a position outside the search's range.
///
/// # Panics
/// If `game` is not a heap game.
pub fn genera_within(
    game: &Game,
    last: Coord,
    limits: &SearchLimits,
    progress: &dyn Progress,
) -> Result<Genera, MisereError> {
    assert_eq!(game.dims(), 1, "a heap game");
    let first = game.axes()[0].min;
    let game = game.clone();
    with_deep_stack(limits, move || {
        let mut search = MisereSearch::new(vec![game], limits);
        let mut rows = Vec::new();
        for heap in first..=last {
            if progress.cancelled() {
                return Err(MisereError::Cancelled);
            }
            let found = search.component(0, &[heap]).and_then(|c| {
                let standing = search.standing(c)?;
                let genus = search.genus(c)?;
                Ok(HeapGenus { heap, genus, standing })
            });
            match found {
                Ok(row) => rows.push(row),
                Err(cut @ (MisereError::TooLong { .. } | MisereError::TooManyPositions { .. })) => {
                    return Ok(Genera { rows, cut: Some(cut) })
                }
                Err(err) => return Err(err),
            }
            progress.advance(1);
        }
        Ok(Genera { rows, cut: None })
    })
}

impl MisereSearch {
    /// The genus of `c`: its normal value and the misère values of `c` + k copies of *2, for k
    /// from 0 until the last four alternate between some a and a ⊕ 2 (at most
    /// [`Genus::MOST_TWOS`]).
    ///
    /// # Errors
    /// [`MisereError::TooManyPositions`].
    pub fn genus(&mut self, c: Component) -> Result<Genus, MisereError> {
        let normal = self.standing(c)?.normal;
        let two = self.nim_heap(2);
        let mut misere = Vec::new();
        let mut sum = vec![c];
        for k in 0..=Genus::MOST_TWOS {
            misere.push(self.value_of(&sum)?);
            sum.push(two);
            let alternates =
                |j: usize| misere[j] == misere[j - 2] && misere[j] ^ misere[j - 1] == 2;
            if k >= 3 && alternates(k) && alternates(k - 1) {
                return Ok(Genus { normal, misere, settled: true });
            }
        }
        Ok(Genus { normal, misere, settled: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::search::{MisereSearch, Standing};
    use crate::misere::SearchLimits;

    fn genus(normal: u32, misere: &[u32]) -> Genus {
        Genus { normal, misere: misere.to_vec(), settled: true }
    }

    #[test]
    fn superscripts_are_the_shortest() {
        assert_eq!(genus(0, &[1, 2, 0, 2, 0, 2]).to_string(), "0^120");
        assert_eq!(genus(1, &[0, 3, 1, 3, 1, 3]).to_string(), "1^031");
        assert_eq!(genus(2, &[2, 0, 2, 0, 2, 0]).to_string(), "2^20");
        assert_eq!(genus(4, &[1, 4, 6, 4, 6, 4, 6]).to_string(), "4^146");
        assert_eq!(genus(12, &[12, 14, 12, 14]).to_string(), "12^(12,14)");
        assert!(genus(0, &[1, 2, 0, 2, 0, 2]).is_tame_genus());
        assert!(genus(5, &[5, 7, 5, 7]).is_tame_genus());
        assert!(!genus(4, &[1, 4, 6, 4, 6, 4, 6]).is_tame_genus());
    }

    #[test]
    fn genus_periods_are_the_smallest_seen_three_times() {
        let row = |heap: Coord, normal: u32| HeapGenus {
            heap,
            genus: genus(normal, &[normal, normal ^ 2]),
            standing: Standing { normal, misere: normal, options_tame: true, tame: true },
        };
        let rows: Vec<HeapGenus> =
            (0..20).map(|h| row(h, if h < 2 { 7 } else { (h % 3) as u32 })).collect();
        let found = genus_period(&rows).unwrap();
        assert_eq!((found.period, found.preperiod, found.from, found.to), (3, 2, 2, 19));
        assert_eq!(genus_period(&rows[..8]), None);
    }

    #[test]
    fn nim_heaps_have_the_tame_genera() {
        let mut search = MisereSearch::new(vec![], &SearchLimits::new(1 << 24, 60, "test"));
        let expected = ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57"];
        for (v, text) in expected.iter().enumerate() {
            let heap = search.nim_heap(v as u32);
            assert_eq!(search.genus(heap).unwrap().to_string(), *text);
            assert!(search.standing(heap).unwrap().tame);
        }
    }
}
