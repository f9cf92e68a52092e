//! The exact misère search: misère Grundy values of sums of positions, the genus of a position,
//! tameness, and the tables of heap games under misère play whose moves leave sums (which no
//! fill computes: the engine [`crate::engine::Engine::Search`], which [`crate::request::FillRequest::prepare`] picks for them).
//!
//! Under misère play the last player to move loses. A position's misère Grundy value γ⁻ is 1
//! when it has no option and the mex of its options' values otherwise (it is 0 exactly on the
//! misère P-positions), and unlike normal play the value of a sum is not a function of its
//! components' values. [`MisereSearch`] computes it exactly by a memoised search over the
//! sum's positions, kept as sorted multisets of components (a component without a move is left
//! out: it changes nothing), with one shortcut that theory allows:
//!
//! - **The tame rule** (Conway, *On Numbers and Games*, ch. 12). A position is *tame* when its
//!   normal and misère values (g, γ⁻) are (0, 1), (1, 0) or (a, a), and every option is a sum
//!   of tame positions; sums of tame positions are tame and play like misère Nim: the sum's γ⁻
//!   is the nim-sum of the g's when some component has g = γ⁻ (a *firm* one), and 1 ⊕ that
//!   nim-sum when every component is (0, 1) or (1, 0) (*fickle*). A sum whose components are
//!   all tame is answered by this rule without a search.
//!
//! The **genus** of a position G (Conway's g^γ₀γ₁γ₂…) is its normal value g and the misère
//! values γₖ of G + *2 + … + *2 (k copies of the nim-heap *2), computed here by the same search
//! until four values in a row alternate between some a and a ⊕ 2 (every genus ends so, Conway
//! showed; when it starts is not known in general, so four in a row is a rule of thumb, and a
//! genus not settled after [`Genus::MOST_TWOS`] copies is written with a trailing `…`), and
//! written with the shortest superscript, as Winning Ways does: the digits up to where the last
//! two start to alternate.
//!
//! The search is exact; what bounds it is the memory of what it remembers (options, standings
//! and sums) and its time, both in [`SearchLimits`], refused as
//! [`MisereError::TooManyPositions`] or [`MisereError::TooLong`] when a question needs more.
//! Its cost grows quickly with the heaps of wild games: Kayles' genus to heap 30 takes 0.9 s,
//! to 40 7 s and to 50 54 s (one core). The misère quotient answers
//! outcomes of sums of one game's heaps much further, where it stays small (`grundy_play::quotient`).

mod genus;
mod limits;
mod search;

pub use crate::error::MisereError;
pub use genus::{
    genera_within, genus_period, genus_table, Genera, GeneraCount, Genus, GenusPeriod, HeapGenus,
};
pub use limits::{with_deep_stack, SearchLimits, SAY_AFTER};
pub use search::{tame_rule, tameness, Component, MisereSearch, Standing};

use crate::error::FillError;
use crate::progress::Progress;
use grundy_core::{Coord, Game, GrundyTable, Nimber, TableShape};

/// Whether a game's table comes from the exact search rather than from a fill: a heap game
/// under misère play whose moves leave sums (no fill computes it; see [`grundy_core::Play`]).
/// Decided in one place, [`crate::request::FillRequest::prepare`]; a front end may ask it to say what
/// will run (a survey's note), never to choose.
pub fn table_by_search(game: &Game) -> bool {
    game.dims() == 1 && !game.values_are_local()
}

/// A table prepared for the exact misère search: what [`crate::request::FillRequest::prepare`] returns
/// for a heap game under misère play whose moves leave sums, inside a [`crate::fill::TableFill`].
pub(crate) struct MisereFill<'g> {
    game: &'g Game,
    shape: &'g TableShape,
    limits: &'g SearchLimits,
}

impl<'g> MisereFill<'g> {
    pub(crate) fn new(
        game: &'g Game,
        shape: &'g TableShape,
        limits: &'g SearchLimits,
    ) -> MisereFill<'g> {
        MisereFill { game, shape, limits }
    }

    /// Every heap's genus and tameness, and the misère values ([`genera_within`]) as a table.
    ///
    /// # Errors
    /// A cancellation, or a limit: then the heaps found before it, as a table of their own.
    pub(crate) fn genera(
        &self,
        progress: &dyn Progress,
    ) -> Result<(GrundyTable, Vec<HeapGenus>), FillError> {
        let genera = genera_within(self.game, self.shape.max()[0], self.limits, progress)?;
        let values: Vec<Nimber> =
            genera.rows.iter().map(|row| Nimber(row.genus.misere[0])).collect();
        let mut max = self.shape.max().to_vec();
        max[0] = self.shape.axes()[0].min + values.len() as Coord - 1;
        let shape = TableShape::from_axes(self.shape.axes().to_vec(), max);
        let table = GrundyTable::from_nimbers(shape, &values);
        match genera.cut {
            None => Ok((table, genera.rows)),
            Some(why) => {
                let found = (!values.is_empty()).then(|| Box::new(table));
                Err(FillError::Search { why, found })
            }
        }
    }
}
