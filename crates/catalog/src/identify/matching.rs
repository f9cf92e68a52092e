//! Matching a sequence against an index: every class equal to it after a shift of index, and
//! every class whose P-positions alone agree with it.
//!
//! # Cost
//! Each class' first values are hashed in windows at the first 25 offsets, once per index
//! (`super::windows`). A query looks up its own first windows and compares in full only
//! the classes and shifts whose window matched, so a query costs a few hash lookups plus the
//! comparisons of its real matches (10^6 values against a few thousand classes: milliseconds).
//! Classes or queries too short for a window, and alignments beyond the windows, are compared
//! directly.

use super::index::Index;
use super::sequence::{Agreement, Compare, Sequence};
use super::windows::{window, windowed, OFFSETS};
use crate::survey::Equivalence;
use grundy_core::Coord;
use serde::Serialize;
use std::collections::BTreeMap;

/// The largest shift of index a query may ask for.
pub const MAX_SHIFT: i64 = 16;

/// The shifts tried unless asked otherwise: a(n) = b(n + k) for |k| ≤ 8.
pub const DEFAULT_SHIFT: i64 = 8;

/// The fewest values a match compares (fewer only when the query is shorter).
pub const LEAST_COMPARED: u64 = 8;

/// The fewest P-positions a match of P-positions alone has in the range compared: with one,
/// every game whose only P-position is the empty heap would match every other.
pub const LEAST_P_POSITIONS: usize = 2;

/// Everything an index knows about one sequence.
#[derive(Clone, Debug, Serialize)]
pub struct Identification {
    /// The query's first coordinate.
    pub from: Coord,
    /// Its last coordinate (`None`: a law gives every value).
    pub to: Option<Coord>,
    /// Whether a theorem proved the query's period.
    pub proved: bool,
    /// The shifts tried: |k| up to this.
    pub max_shift: i64,
    /// Classes equal to it after a shift.
    pub same_values: Vec<Match>,
    /// Classes whose P-positions agree with its own after a shift, but not their values.
    pub same_p_positions: Vec<Match>,
}

/// `grundy identify --json`: the sequence (how it was given), its identification and the
/// index's header.
#[derive(Debug, Serialize)]
pub struct IdentifyJson<'a> {
    /// The sequence, in words: `octal:0.137`, `cutting row w = 2`, `standard input`.
    pub sequence: &'a str,
    /// The values it holds (computed or given).
    pub values: usize,
    /// What the index knows of it.
    #[serde(flatten)]
    pub found: &'a Identification,
    /// The index searched.
    pub index: &'a super::index::Header,
}

/// One class that agrees with the query: a(n) = b(n + shift) for every n compared.
#[derive(Clone, Debug, Serialize)]
pub struct Match {
    /// The class' representative.
    pub class: String,
    /// k in a(n) = b(n + k).
    pub shift: i64,
    /// The first n compared (the query's coordinate).
    pub from: Coord,
    /// The last n compared; `None` when proved for every n ≥ `from`.
    pub to: Option<Coord>,
    /// Whether both laws prove the agreement for every n.
    pub proved: bool,
    /// The class' members, each with how its own agreement stands.
    pub members: Vec<MemberMatch>,
}

/// One known game of a matching class.
#[derive(Clone, Debug, Serialize)]
pub struct MemberMatch {
    /// Its name.
    pub game: String,
    /// Whether its agreement with the query is proved for every n.
    pub proved: bool,
    /// The last n its agreement is known for (`None` when proved).
    pub to: Option<Coord>,
    /// What it is, when its name does not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Which alignments of `query` against the classes may agree: (class, shift) pairs, from the
/// windows where they cover the alignment and every pair otherwise.
fn candidates(
    index: &Index,
    query: &Sequence,
    compare: Compare,
    max_shift: i64,
) -> Vec<(u32, i64)> {
    let lookup = index.windows().lookup(compare);
    let shifts = -max_shift..=max_shift;
    let mut found: Vec<(u32, i64)> = Vec::new();
    let every_shift = |e: u32, found: &mut Vec<(u32, i64)>| {
        found.extend(shifts.clone().map(|k| (e, k)));
    };
    for &e in &lookup.short {
        every_shift(e, &mut found);
    }
    if !windowed(query, compare) {
        for e in 0..index.entries.len() as u32 {
            if lookup.short.binary_search(&e).is_err() {
                every_shift(e, &mut found);
            }
        }
        return found;
    }
    let a = query.start;
    // Alignment of shift k with a class starting at b: the overlap begins at the query's first
    // value (class offset a + k − b) or at the class' first (query offset b − k − a).
    let covered = |b: Coord, k: i64| {
        let offset = a + k - b;
        (0..=OFFSETS).contains(&offset) || (0..=OFFSETS).contains(&-offset)
    };
    let mut far: BTreeMap<Coord, Vec<i64>> = BTreeMap::new();
    let mut windowed_entries = vec![true; index.entries.len()];
    for &e in &lookup.short {
        windowed_entries[e as usize] = false;
    }
    for (e, entry) in index.entries.iter().enumerate() {
        let b = entry.sequence.start;
        if !windowed_entries[e] {
            continue;
        }
        let uncovered = far
            .entry(b)
            .or_insert_with(|| shifts.clone().filter(|&k| !covered(b, k)).collect::<Vec<i64>>());
        found.extend(uncovered.iter().map(|&k| (e as u32, k)));
    }
    let hits = |offset: i64| {
        window(query, a + offset, compare)
            .and_then(|key| lookup.windows.get(&key))
            .map_or(&[][..], Vec::as_slice)
    };
    for &(e, o) in hits(0) {
        let k = index.entries[e as usize].sequence.start + i64::from(o) - a;
        if shifts.contains(&k) {
            found.push((e, k));
        }
    }
    for j in 1..=OFFSETS {
        for &(e, o) in hits(j) {
            let k = index.entries[e as usize].sequence.start - a - j;
            if o == 0 && shifts.contains(&k) {
                found.push((e, k));
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// The P-positions of `query` in the range `agreement` compared, counted up to
/// [`LEAST_P_POSITIONS`].
fn p_positions(query: &Sequence, agreement: &Agreement) -> usize {
    let to = agreement.to.unwrap_or(query.start + query.values.len() as Coord - 1);
    (agreement.from..=to).filter(|&n| query.get(n) == Some(0)).take(LEAST_P_POSITIONS).count()
}

/// The best agreement of `query` with each class under `compare`: a shift that covers every
/// value of the query (the class has a value at the first n + k) before one that does not
/// (issue 50: octal 0.73 from n = 7 was matched with k = −1, valid by the period, where
/// k = +7 covers the first term too), then the smallest |shift|, the positive one on a tie; as
/// (class, shift, agreement), in class order.
fn agreements(
    index: &Index,
    query: &Sequence,
    compare: Compare,
    max_shift: i64,
) -> Vec<(usize, i64, Agreement)> {
    let least = query
        .last()
        .map_or(LEAST_COMPARED, |last| ((last - query.start + 1) as u64).min(LEAST_COMPARED));
    // A match of P-positions alone needs two of them in the query.
    if compare == Compare::Outcomes
        && query.values.iter().filter(|&&v| v == 0).take(LEAST_P_POSITIONS).count()
            < LEAST_P_POSITIONS
    {
        return Vec::new();
    }
    let mut found = candidates(index, query, compare, max_shift);
    // Each class' shifts in the order preferred; the first that agrees is the class' match.
    let covers = |e: u32, k: i64| query.start + k >= index.entries[e as usize].sequence.start;
    found.sort_unstable_by_key(|&(e, k)| (e, !covers(e, k), k.abs(), -k));
    let mut best: BTreeMap<usize, (i64, Agreement)> = BTreeMap::new();
    for (e, k) in found {
        let e = e as usize;
        if best.contains_key(&e) {
            continue;
        }
        let Some(agreement) = query.agreement(&index.entries[e].sequence, k, compare, least) else {
            continue;
        };
        if compare == Compare::Outcomes && p_positions(query, &agreement) < LEAST_P_POSITIONS {
            continue;
        }
        best.insert(e, (k, agreement));
    }
    best.into_iter().map(|(e, (k, agreement))| (e, k, agreement)).collect()
}

impl Index {
    /// Every class of the index that agrees with `query` after a shift of at most `max_shift`
    /// (clamped to [`MAX_SHIFT`]), in values or only in P-positions.
    pub fn identify(&self, query: &Sequence, max_shift: i64) -> Identification {
        let max_shift = max_shift.clamp(0, MAX_SHIFT);
        let same_values = agreements(self, query, Compare::Values, max_shift);
        let valued: std::collections::HashSet<usize> =
            same_values.iter().map(|&(e, _, _)| e).collect();
        let same_outcomes: Vec<_> = agreements(self, query, Compare::Outcomes, max_shift)
            .into_iter()
            .filter(|(e, _, _)| !valued.contains(e))
            .collect();
        Identification {
            from: query.start,
            to: query.last(),
            proved: query.law.is_some(),
            max_shift,
            same_values: self.matches(same_values),
            same_p_positions: self.matches(same_outcomes),
        }
    }

    /// The classes equal to the sequence of `len` values from `start` (`value(i)` the i-th,
    /// `law` the period a theorem proved, if one did, which `len` then covers): what
    /// [`Index::identify`] gives as `same_values`. A sequence with a law and more values than
    /// any class stores is compared first by the values a class can be compared with; unless a
    /// class with a law agrees with them (which only the whole sequence settles), that is the
    /// answer. A proof search's preperiod of 10^7 values is then not copied to be named.
    pub fn same_values_of(
        &self,
        start: Coord,
        len: usize,
        value: impl Fn(usize) -> u32,
        law: Option<super::sequence::Law>,
        max_shift: i64,
    ) -> Vec<Match> {
        let max_shift = max_shift.clamp(0, MAX_SHIFT);
        // A sequence without a law is compared with a class only where the class' stored
        // values are, after a shift of at most `max_shift`.
        let stored_end =
            self.entries.iter().map(|e| e.sequence.start + e.sequence.values.len() as Coord);
        let reach =
            stored_end.max().map_or(0, |end| end + max_shift - start).max(LEAST_COMPARED as Coord);
        let reach = usize::try_from(reach).unwrap_or(usize::MAX);
        if law.is_some() && len > reach {
            let prefix = Sequence::of(start, (0..reach).map(&value).collect());
            let found = agreements(self, &prefix, Compare::Values, max_shift);
            if found.iter().all(|&(e, _, _)| self.entries[e].sequence.law.is_none()) {
                return self.matches(found);
            }
        }
        let query = Sequence { start, values: (0..len).map(value).collect(), law };
        self.identify(&query, max_shift).same_values
    }

    /// The matches of agreements found, proved first, then the longest agreement, then the
    /// smallest shift.
    fn matches(&self, found: Vec<(usize, i64, Agreement)>) -> Vec<Match> {
        let mut matches: Vec<Match> = found
            .into_iter()
            .map(|(e, shift, agreement)| self.matched(e, shift, agreement))
            .collect();
        matches.sort_by_key(|m| {
            (!m.proved, std::cmp::Reverse(m.to.map_or(i64::MAX, |to| to - m.from)), m.shift.abs())
        });
        matches
    }

    fn matched(&self, e: usize, shift: i64, agreement: Agreement) -> Match {
        let entry = &self.entries[e];
        let members = entry
            .members
            .iter()
            .filter_map(|member| {
                let to = match member.equivalence {
                    Equivalence::Representative | Equivalence::Proved => agreement.to,
                    // The member is known equal to the class on its first `n` values.
                    Equivalence::AgreeUpTo(n) => {
                        let last = entry.sequence.start + n as Coord - 1 - shift;
                        Some(agreement.to.map_or(last, |to| to.min(last)))
                    }
                };
                if to.is_some_and(|to| to < agreement.from) {
                    return None;
                }
                Some(MemberMatch {
                    game: member.game.clone(),
                    proved: to.is_none(),
                    to,
                    note: member.note.clone(),
                })
            })
            .collect();
        Match {
            class: entry.name.clone(),
            shift,
            from: agreement.from,
            to: agreement.to,
            proved: agreement.is_proved(),
            members,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::{Known, Law};
    use proptest::prelude::*;

    /// The same answer without windows: every class at every shift.
    fn every_alignment(
        index: &Index,
        query: &Sequence,
        compare: Compare,
        max_shift: i64,
    ) -> Vec<(usize, i64)> {
        let least = query
            .last()
            .map_or(LEAST_COMPARED, |last| ((last - query.start + 1) as u64).min(LEAST_COMPARED));
        let mut found = Vec::new();
        for (e, entry) in index.entries.iter().enumerate() {
            let mut shifts: Vec<i64> = (-max_shift..=max_shift).collect();
            // A shift that covers the first value first, then the smallest |k|, positive first.
            shifts.sort_by_key(|&k| (query.start + k < entry.sequence.start, k.abs(), -k));
            let best = shifts.into_iter().find(|&k| {
                query.agreement(&entry.sequence, k, compare, least).is_some_and(|a| {
                    compare == Compare::Values || p_positions(query, &a) >= LEAST_P_POSITIONS
                })
            });
            if let Some(k) = best {
                found.push((e, k));
            }
        }
        found
    }

    fn small_index(seeds: &[(u8, u8, u8, i64, bool)]) -> Index {
        let known = seeds
            .iter()
            .enumerate()
            .map(|(i, &(period, spread, len, start, proved))| {
                let period = usize::from(period % 9) + 1;
                let spread = u32::from(spread % 4) + 1;
                // A few values before a period: values from a small alphabet, so that classes
                // and windows collide often.
                let head: Vec<u32> =
                    (0..period + 3).map(|j| ((j * 7 + i * 3) as u32 / 2) % spread).collect();
                let len = usize::from(len) + period + 3;
                let values: Vec<u32> = (0..len)
                    .map(|j| if j < 3 { head[j] } else { head[3 + (j - 3) % period] })
                    .collect();
                let law =
                    proved.then(|| Law { preperiod: 3, period, saltus: 0, theorem: "test".into() });
                Known {
                    game: format!("g{i}"),
                    sequence: Sequence { start, values, law },
                    note: None,
                }
            })
            .collect();
        Index::build(known, "test".into(), 64)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The windows find exactly what comparing every class at every shift finds.
        #[test]
        fn windows_find_what_every_alignment_finds(
            seeds in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), 0i64..3, any::<bool>()), 1..12),
            pick in any::<usize>(),
            cut in 0usize..40,
            len in 1usize..200,
            start in -3i64..40,
            flip in proptest::option::of((0usize..200, 0u32..3)),
            max_shift in 0i64..=MAX_SHIFT,
        ) {
            let index = small_index(&seeds);
            // A query cut from one class, maybe with a value changed.
            let entry = &index.entries[pick % index.entries.len()].sequence;
            let mut values: Vec<u32> = (0..len as i64)
                .map_while(|i| entry.get(entry.start + cut as i64 + i))
                .collect();
            if values.is_empty() {
                values.push(0);
            }
            if let Some((at, v)) = flip {
                let at = at % values.len();
                values[at] = v;
            }
            let query = Sequence::of(start, values);
            for compare in [Compare::Values, Compare::Outcomes] {
                let mut windowed: Vec<(usize, i64)> = agreements(&index, &query, compare, max_shift)
                    .into_iter()
                    .map(|(e, k, _)| (e, k))
                    .collect();
                windowed.sort_unstable();
                prop_assert_eq!(windowed, every_alignment(&index, &query, compare, max_shift));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// A long sequence with a law is identified from its first values as from all of them:
        /// whether it is a class with a law written with a longer preperiod (which only the
        /// whole sequence proves), one without, or neither.
        #[test]
        fn a_long_lawful_query_is_named_as_from_all_its_values(
            seeds in proptest::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), 0i64..3, any::<bool>()), 1..12),
            pick in any::<usize>(),
            preperiod in 300usize..700,
            flip in proptest::option::of((0usize..700, 0u32..3)),
            start in 0i64..3,
            max_shift in 0i64..=MAX_SHIFT,
        ) {
            let index = small_index(&seeds);
            let entry = &index.entries[pick % index.entries.len()].sequence;
            // The class' values (its law's, past what it stores), with a law of its period
            // from `preperiod` on: true of the class when it has a law and nothing is flipped.
            let period = entry.law.as_ref().map_or(4, |law| law.period);
            let mut values: Vec<u32> = (0..preperiod + period)
                .map(|i| entry.get(entry.start + i as i64).unwrap_or((i % 3) as u32))
                .collect();
            if let Some((at, v)) = flip {
                let at = at % values.len();
                values[at] = v;
            }
            let law = Law { preperiod, period, saltus: 0, theorem: "test".into() };
            let query = Sequence { start, values: values.clone(), law: Some(law.clone()) };
            let whole = index.identify(&query, max_shift).same_values;
            let read = index.same_values_of(start, values.len(), |i| values[i], Some(law), max_shift);
            prop_assert_eq!(
                serde_json::to_value(&read).unwrap(),
                serde_json::to_value(&whole).unwrap()
            );
        }
    }

    #[test]
    fn the_index_reads_back_what_it_wrote() {
        let index = small_index(&[(2, 3, 40, 0, true), (2, 3, 40, 0, false), (5, 2, 90, 1, false)]);
        let mut bytes = Vec::new();
        index.write(&mut bytes).unwrap();
        let back = Index::read(&bytes[..]).unwrap();
        assert_eq!(back.header, index.header);
        assert_eq!(back.entries, index.entries);
        // Gzipped too.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &bytes).unwrap();
        assert_eq!(Index::read(&gz.finish().unwrap()[..]).unwrap().entries, index.entries);
        // Broken lines are refused with their number.
        let text = String::from_utf8(bytes).unwrap();
        let broken = text.replacen("\"values\":[", "\"values\":[-", 1);
        let err = Index::read(broken.as_bytes()).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        assert!(Index::read(cut.as_bytes()).unwrap_err().to_string().contains("classes"));
        assert!(Index::read(&b""[..]).is_err());
    }
}
