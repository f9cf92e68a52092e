//! How far a survey computes each member: what both the members and the partial file's
//! settings and bounds are stated in.

use grundy_core::{Coord, Game};

/// How far each member is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Extent {
    /// The largest coordinate on each axis (heap size for heap games; both axes for boards).
    pub size: Coord,
    /// Compute heap games until a theorem proves the period, from `size` up to `limit`.
    pub until_proved: Option<u64>,
    /// The most seconds a heap game's search may take: it stops at the first tile-wave after
    /// them, and the member's row covers the heaps searched by then. Absent from a partial
    /// file's settings when not given, so older partial files read back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<u64>,
    /// The most seconds a misère heap game's exact search may take
    /// ([`grundy_compute::misere::SearchLimits`]; its default when absent): the member's row covers
    /// the heaps searched by then, and its [`crate::survey::Computed::note`] says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_seconds: Option<u64>,
}

impl Extent {
    /// The largest coordinate on each axis of `game`'s table (heap games searching for a proof
    /// start there).
    pub fn max(&self, game: &Game) -> Vec<Coord> {
        game.axes().iter().map(|a| a.min.max(self.size)).collect()
    }

    /// The most values a member computed this far can have: what bounds the values read back
    /// from a partial file.
    pub fn most_values(&self, game: &Game) -> u128 {
        game.axes()
            .iter()
            .map(|axis| {
                let top = match self.until_proved {
                    // A proof search may go past its limit by one round's table at most: twice.
                    Some(limit) => i128::from(self.size).max(i128::from(limit) * 2),
                    None => i128::from(self.size),
                };
                u128::try_from(top.max(i128::from(axis.min)) - i128::from(axis.min) + 1)
                    .unwrap_or(0)
            })
            .fold(1u128, u128::saturating_mul)
    }
}
