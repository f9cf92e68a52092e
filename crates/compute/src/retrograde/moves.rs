//! Flat moves: the game's move rules compiled for the board, read by the graph's builder.

use super::*;

impl FlatMoves {
    /// # Panics
    /// On a cut or a take-and-break, which [`RetrogradeFill::new`] refuses.
    pub(super) fn new(game: &Game, shape: &TableShape) -> FlatMoves {
        let lens = shape.lens();
        let mut stride = vec![1usize; lens.len()];
        for d in (0..lens.len().saturating_sub(1)).rev() {
            stride[d] = stride[d + 1] * lens[d + 1];
        }
        let longest = lens.iter().copied().max().unwrap_or(0);
        let ray = |direction: &Vec<Coord>, amounts: RayAmounts| FlatRay {
            direction: direction.clone(),
            flat: direction.iter().zip(&stride).map(|(&d, &s)| d as isize * s as isize).sum(),
            amounts,
        };
        // The same moves at every position: a game with terminal positions is the reference
        // fill's (`FillRequest::prepare`), and a loopy game has none (`Game::with_terminal`).
        debug_assert!(game.terminal().is_none(), "{} has terminal positions", game.name());
        let mut rays = Vec::new();
        for rule in game.rules() {
            let MoveForm::Translate { directions, amounts } = rule.form() else {
                unreachable!("the retrograde kernel takes moves that leave one position")
            };
            let amounts = match amounts {
                Amounts::Run { max } => {
                    RayAmounts::UpTo(max.map(|m| usize::try_from(m).unwrap_or(usize::MAX)))
                }
                listed => RayAmounts::List(
                    listed.up_to(longest as u64).into_iter().map(|a| a as usize).collect(),
                ),
            };
            rays.extend(directions.iter().map(|d| ray(d, amounts.clone())));
        }
        FlatMoves { lens, stride, rays }
    }

    /// The weighted sum `w · position` of the position at row-major `u`, less its smallest
    /// value over the table (so the smallest is 0).
    pub(super) fn level(&self, u: usize, w: &[Coord]) -> u64 {
        let mut level = 0;
        for (d, (&len, &stride)) in self.lens.iter().zip(&self.stride).enumerate() {
            let at = (u / stride % len) as Coord;
            level += w[d] * if w[d] < 0 { at - (len as Coord - 1) } else { at };
        }
        level as u64
    }

    /// Appends the options of the position at row-major `u` to `out`.
    pub(super) fn options(&self, u: usize, out: &mut Vec<usize>) {
        let mut at = [0usize; 3];
        for (d, (&len, &stride)) in self.lens.iter().zip(&self.stride).enumerate() {
            at[d] = u / stride % len;
        }
        for ray in &self.rays {
            // The largest amount that stays inside the table along this direction.
            let mut reach = usize::MAX;
            for (d, &step) in ray.direction.iter().enumerate() {
                let room = match step {
                    0 => continue,
                    s if s > 0 => (self.lens[d] - 1 - at[d]) / s as usize,
                    s => at[d] / s.unsigned_abs() as usize,
                };
                reach = reach.min(room);
            }
            let to = |amount: usize| (u as isize + amount as isize * ray.flat) as usize;
            match &ray.amounts {
                RayAmounts::List(amounts) => {
                    out.extend(amounts.iter().take_while(|&&a| a <= reach).map(|&a| to(a)));
                }
                RayAmounts::UpTo(max) => {
                    out.extend((1..=reach.min(max.unwrap_or(usize::MAX))).map(to));
                }
            }
        }
    }
}
