//! Win, loss or draw of every position of a game graph by the plainest fixpoint: the oracle that
//! the retrograde kernel and the moves of loopy sums are checked against.

use grundy_core::{Coord, Game, LoopyOutcome};
use std::collections::HashMap;

/// Win/lose/draw of every position of a graph given as option lists, by the definition: a
/// position is P when every option is N (so a position without a move is P), N when some
/// option is P, repeated until nothing changes; what is left is a draw.
pub fn brute_outcomes(options: &[Vec<usize>]) -> Vec<LoopyOutcome> {
    let mut outcome: Vec<Option<LoopyOutcome>> = vec![None; options.len()];
    loop {
        let mut changed = false;
        for u in 0..options.len() {
            if outcome[u].is_some() {
                continue;
            }
            if options[u].iter().any(|&v| outcome[v] == Some(LoopyOutcome::P)) {
                outcome[u] = Some(LoopyOutcome::N);
                changed = true;
            } else if options[u].iter().all(|&v| outcome[v] == Some(LoopyOutcome::N)) {
                outcome[u] = Some(LoopyOutcome::P);
                changed = true;
            }
        }
        if !changed {
            return outcome.into_iter().map(|o| o.unwrap_or(LoopyOutcome::D)).collect();
        }
    }
}

/// The graph of the sum of the graphs `parts`: a position is one position of each part, numbered
/// `Σ position_j · stride_j`, and a move moves in one part. Returns the options and the strides.
pub fn sum_graph(parts: &[&[Vec<usize>]]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let sizes: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    let total: usize = sizes.iter().product();
    let mut stride = vec![1; parts.len()];
    for j in 1..parts.len() {
        stride[j] = stride[j - 1] * sizes[j - 1];
    }
    let mut options = vec![Vec::new(); total];
    for (x, out) in options.iter_mut().enumerate() {
        for (j, part) in parts.iter().enumerate() {
            let at = x / stride[j] % sizes[j];
            for &v in &part[at] {
                out.push(x - at * stride[j] + v * stride[j]);
            }
        }
    }
    (options, stride)
}

/// The graph of a game over the positions `start` and every position they reach, by
/// `Game::options` (games whose moves leave one position): the positions, their numbers and
/// their options.
pub struct Component {
    /// The positions, `start` first.
    pub positions: Vec<Vec<Coord>>,
    /// Each position's number.
    pub index: HashMap<Vec<Coord>, usize>,
    /// Each position's options, by number.
    pub options: Vec<Vec<usize>>,
}

impl Component {
    /// Explores the game from `start`.
    pub fn new(game: &Game, start: &[Vec<Coord>]) -> Component {
        let mut positions = start.to_vec();
        let mut index: HashMap<Vec<Coord>, usize> =
            positions.iter().enumerate().map(|(i, p)| (p.clone(), i)).collect();
        let mut options = Vec::new();
        let mut at = 0;
        while at < positions.len() {
            let mut out = Vec::new();
            for option in game.options(&positions[at]) {
                let [to] = &option[..] else { panic!("{}'s moves leave sums", game.name()) };
                let next = positions.len();
                let v = *index.entry(to.clone()).or_insert(next);
                if v == next {
                    positions.push(to.clone());
                }
                out.push(v);
            }
            options.push(out);
            at += 1;
        }
        Component { positions, index, options }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LoopyOutcome::{D, N, P};

    /// A position without a move is P, one with a move to it N; a two-cycle with no exit is
    /// drawn, and an exit to a P-position wins it.
    #[test]
    fn outcomes_by_the_definition() {
        assert_eq!(brute_outcomes(&[vec![], vec![0]]), [P, N]);
        assert_eq!(brute_outcomes(&[vec![1], vec![0]]), [D, D]);
        assert_eq!(brute_outcomes(&[vec![1], vec![0, 2], vec![]]), [P, N, P]);
    }

    /// The sum of two single moves: four positions, each move in one part.
    #[test]
    fn a_sum_moves_in_one_part() {
        let one: &[Vec<usize>] = &[vec![], vec![0]];
        let (options, stride) = sum_graph(&[one, one]);
        assert_eq!(stride, [1, 2]);
        assert_eq!(options, [vec![], vec![0], vec![0], vec![2, 1]]);
        assert_eq!(brute_outcomes(&options), [P, N, N, P]);
    }
}
