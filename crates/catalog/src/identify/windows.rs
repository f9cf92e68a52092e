//! The windows of an index's classes: each class' first values hashed at the first
//! [`OFFSETS`] + 1 offsets, once per index, so that a query looks its own first windows up
//! instead of comparing every class at every shift.

use super::sequence::{Compare, Sequence};
use grundy_core::Coord;
use std::collections::HashMap;

/// Class windows are hashed at offsets 0 to `OFFSETS` from each class' first value.
pub(super) const OFFSETS: i64 = 24;
/// Values in a window of values.
const VALUE_WINDOW: i64 = 12;
/// Values in a window of outcomes (one bit each).
const OUTCOME_WINDOW: i64 = 64;

/// Class windows for one kind of comparison: window hash → (class, offset).
#[derive(Default)]
pub(super) struct Lookup {
    pub(super) windows: HashMap<u64, Vec<(u32, u8)>>,
    /// Classes too short to have every window: compared directly.
    pub(super) short: Vec<u32>,
}

/// The windows of an index's classes, for values and for outcomes.
pub(crate) struct Windows {
    values: Lookup,
    outcomes: Lookup,
}

pub(super) fn window(seq: &Sequence, from: Coord, compare: Compare) -> Option<u64> {
    match compare {
        Compare::Values => {
            // FNV-1a over the values.
            let mut hash = 0xcbf2_9ce4_8422_2325u64;
            for n in from..from + VALUE_WINDOW {
                for byte in seq.get(n)?.to_le_bytes() {
                    hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
            }
            Some(hash)
        }
        Compare::Outcomes => {
            let mut bits = 0u64;
            for (i, n) in (from..from + OUTCOME_WINDOW).enumerate() {
                bits |= u64::from(seq.get(n)? == 0) << i;
            }
            Some(bits)
        }
    }
}

fn width(compare: Compare) -> i64 {
    match compare {
        Compare::Values => VALUE_WINDOW,
        Compare::Outcomes => OUTCOME_WINDOW,
    }
}

/// Whether `seq` has every value its windows need.
pub(super) fn windowed(seq: &Sequence, compare: Compare) -> bool {
    seq.get(seq.start + OFFSETS + width(compare) - 1).is_some()
}

impl Lookup {
    fn of(sequences: &[&Sequence], compare: Compare) -> Lookup {
        let mut lookup = Lookup::default();
        for (e, &seq) in sequences.iter().enumerate() {
            if !windowed(seq, compare) {
                lookup.short.push(e as u32);
                continue;
            }
            for offset in 0..=OFFSETS {
                let key = window(seq, seq.start + offset, compare).expect("windowed");
                lookup.windows.entry(key).or_default().push((e as u32, offset as u8));
            }
        }
        lookup
    }
}

impl Windows {
    /// The windows of `sequences` (an index's classes, in order).
    pub(crate) fn of(sequences: &[&Sequence]) -> Windows {
        let (values, outcomes) = rayon::join(
            || Lookup::of(sequences, Compare::Values),
            || Lookup::of(sequences, Compare::Outcomes),
        );
        Windows { values, outcomes }
    }

    pub(super) fn lookup(&self, compare: Compare) -> &Lookup {
        match compare {
            Compare::Values => &self.values,
            Compare::Outcomes => &self.outcomes,
        }
    }
}
