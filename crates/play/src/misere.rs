//! Misère play of sums: the misère value and outcome of a sum of positions of several games,
//! and every move of one, from the exact misère search of `grundy_compute::misere` (which also
//! gives the genus, tameness and misère heap tables); and the proved standings of heaps beyond
//! the search's reach ([`standing_law`]).

mod law;

pub use law::{standing_law, StandingLaw};

use crate::moves::{ComponentMoves, MoveGroup, MoveTo, Moves, SearchNote, ValueRule};
use grundy_compute::misere::{
    tame_rule, tameness, with_deep_stack, Component, MisereError, MisereSearch, SearchLimits,
};
use grundy_core::{Coord, Game};

/// One game of a sum and its positions there.
#[derive(Clone, Debug)]
pub struct SumTerm<'g> {
    /// The game.
    pub game: &'g Game,
    /// Its positions in the sum.
    pub positions: Vec<Vec<Coord>>,
}

/// One component of a misère sum, as `grundy value --misere` reports it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ComponentReport {
    /// Its game's name.
    pub game: String,
    /// Its position.
    pub position: Vec<Coord>,
    /// Its misère Grundy value on its own.
    pub value: u32,
    /// Its normal-play value.
    pub normal: u32,
    /// `tame`, `restive` or `wild`.
    pub tameness: &'static str,
}

/// A sum under misère play: its components, its misère value and outcome, and how it was
/// found. The JSON of `value --misere` (its moves are [`misere_moves_of`]'s).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SumReport {
    /// The games' names joined by ` + `.
    pub game: String,
    /// Always `misere`.
    pub play: &'static str,
    /// The components.
    pub components: Vec<ComponentReport>,
    /// The sum's misère Grundy value.
    pub value: u32,
    /// `P` (the player to move loses) or `N`.
    pub outcome: &'static str,
    /// `tame rule` (every component tame) or `exact search`.
    pub method: &'static str,
    /// Sums the search remembered.
    pub sums_remembered: usize,
}

/// The misère value and outcome of the sum of `terms`, by a [`MisereSearch`] within `limits`.
/// A position beyond the search's reach (2^31) of a subtraction game with a finite set is
/// answered by its game's proved standings ([`standing_law`]): when every component is tame,
/// the tame rule gives the sum's value at once.
///
/// # Errors
/// A position beyond the search's reach that no proved law answers, or the search's limits.
pub fn misere_sum(terms: &[SumTerm<'_>], limits: &SearchLimits) -> Result<SumReport, MisereError> {
    refuse_loopy(terms)?;
    let far = |pos: &[Coord]| pos.iter().any(|&c| i32::try_from(c).is_err());
    let mut laws = Vec::with_capacity(terms.len());
    for term in terms {
        laws.push(match term.positions.iter().any(|pos| far(pos)) {
            true => standing_law(term.game, limits)?,
            false => None,
        });
    }
    let games: Vec<Game> = terms.iter().map(|t| t.game.clone()).collect();
    with_deep_stack(limits, move || {
        let mut search = MisereSearch::new(games, limits);
        let (mut near, mut standings, mut reports) = (Vec::new(), Vec::new(), Vec::new());
        let mut first_far = None;
        for (t, term) in terms.iter().enumerate() {
            for pos in &term.positions {
                let standing = match &laws[t] {
                    Some(law) if far(pos) => {
                        first_far.get_or_insert_with(|| pos.clone());
                        law.standing(pos[0])
                    }
                    _ => {
                        let c = search.component(t, pos)?;
                        near.push(c);
                        search.standing(c)?
                    }
                };
                standings.push(standing);
                reports.push(ComponentReport {
                    game: term.game.name().to_string(),
                    position: pos.clone(),
                    value: standing.misere,
                    normal: standing.normal,
                    tameness: tameness(&standing),
                });
            }
        }
        let (value, method) = match (standings.iter().all(|s| s.tame), first_far) {
            (true, _) => (tame_rule(&standings), "tame rule"),
            (false, None) => (search.value_of(&near)?, "exact search"),
            (false, Some(pos)) => return Err(MisereError::TooFarUntamed(pos)),
        };
        let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
        Ok(SumReport {
            game: names.join(" + "),
            play: "misere",
            components: reports,
            value,
            outcome: if value == 0 { "P" } else { "N" },
            method,
            sums_remembered: search.remembered(),
        })
    })
}

/// Every move of the sum of `terms` under misère play, in the shape of every other listing
/// ([`Moves`]): each option with its own misère value (a split's, of the pieces it leaves as one
/// sum) and the misère value of the whole sum after it, all from one [`MisereSearch`] within
/// `limits`. Each option is listed on its own: two options of one misère value can leave sums
/// of different values.
///
/// # Errors
/// A position beyond the search's reach, a group of more than [`crate::moves::EXAMINED`]
/// options ([`MisereError::TooFar`]), or the search's limits.
pub fn misere_moves_of(
    terms: &[SumTerm<'_>],
    limits: &SearchLimits,
) -> Result<Moves<u32>, MisereError> {
    refuse_loopy(terms)?;
    let games: Vec<Game> = terms.iter().map(|t| t.game.clone()).collect();
    with_deep_stack(limits, move || {
        let mut search = MisereSearch::new(games, limits);
        let mut placed = Vec::new();
        for (t, term) in terms.iter().enumerate() {
            for pos in &term.positions {
                placed.push((t, pos.clone(), search.component(t, pos)?));
            }
        }
        let all: Vec<Component> = placed.iter().map(|&(_, _, c)| c).collect();
        let value = search.value_of(&all)?;
        let note = SearchNote {
            method: if search.all_tame(&all)? { "tame rule" } else { "exact search" },
            sums_remembered: 0,
        };
        let mut components = Vec::new();
        for (i, (t, pos, c)) in placed.iter().enumerate() {
            let game = terms[*t].game;
            let standing = search.standing(*c)?;
            let mut groups = Vec::new();
            for group in game.option_groups(pos) {
                if group.len() > crate::moves::EXAMINED {
                    return Err(MisereError::TooFar(pos.clone()));
                }
                let mut options = Vec::new();
                for to in group.options() {
                    let pieces: Vec<Component> =
                        to.iter().map(|p| search.component(*t, p)).collect::<Result<_, _>>()?;
                    let mut after: Vec<Component> = all.clone();
                    after.remove(i);
                    after.extend(&pieces);
                    let value = search.value_of(&pieces)?;
                    let sum = search.value_of(&after)?;
                    options.push(MoveTo { to, value, sum });
                }
                groups.push(MoveGroup {
                    rule: group.rule + 1,
                    kind: crate::moves::describe(game, &group),
                    count: group.len(),
                    options,
                    classes: Vec::new(),
                });
            }
            components.push(ComponentMoves {
                game: game.name().to_string(),
                position: pos.clone(),
                value: standing.misere,
                groups,
                rule: ValueRule::MisereMex {
                    normal: standing.normal,
                    tameness: tameness(&standing),
                },
            });
        }
        let search = SearchNote { sums_remembered: search.remembered(), ..note };
        Ok(Moves {
            play: grundy_core::Play::Misere,
            components,
            value,
            laws: Vec::new(),
            strips: Vec::new(),
            search: Some(search),
        })
    })
}

/// A loopy game's misère play is not computed: its sums could go round for ever in the search.
fn refuse_loopy(terms: &[SumTerm<'_>]) -> Result<(), MisereError> {
    match terms.iter().find(|t| t.game.is_loopy()) {
        Some(term) => Err(MisereError::Loopy(term.game.name().to_string())),
        None => Ok(()),
    }
}
