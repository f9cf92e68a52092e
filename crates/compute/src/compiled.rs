//! Rules compiled against one table shape into flat move tables.
//!
//! A move along a direction becomes a flat offset into the row-major value array plus the list of
//! amounts it may be taken by; a split becomes an axis stride. Nothing is interpreted per cell
//! beyond bounds arithmetic, so a game stated as data runs as fast as one written by hand.

use grundy_core::{Coord, Game, MexSet, Nimber, Rule, StepSet, TableShape};

/// The amounts a ray may be taken by.
#[derive(Clone, Debug)]
enum Amounts {
    /// An explicit increasing list (steps, jumps).
    List(Vec<usize>),
    /// Every amount from 1 up to a bound (slides).
    UpTo(usize),
}

/// Moves along one direction.
#[derive(Clone, Debug)]
struct Ray {
    /// For each axis the direction lowers: (axis, how much one unit lowers it).
    lowers: Vec<(usize, usize)>,
    /// How far back in the flat array one unit of the move goes.
    flat: usize,
    amounts: Amounts,
}

impl Ray {
    /// The largest amount that keeps the cell at `index` on the board.
    #[inline]
    fn max_amount(&self, index: &[usize]) -> usize {
        self.lowers.iter().map(|&(axis, unit)| index[axis] / unit).min().unwrap_or(0)
    }
}

/// A cut along one axis into two pieces.
#[derive(Clone, Debug)]
struct Split {
    axis: usize,
    axis_min: Coord,
    smallest: Coord,
    unequal: bool,
    stride: usize,
}

/// A game's rules compiled against one table shape.
#[derive(Clone, Debug)]
pub(crate) struct CompiledGame {
    lens: Vec<usize>,
    rays: Vec<Ray>,
    splits: Vec<Split>,
    take_and_break: Vec<u8>,
}

impl CompiledGame {
    pub(crate) fn new(game: &Game, shape: &TableShape) -> CompiledGame {
        let lens = shape.lens();
        let mut strides = vec![1usize; lens.len()];
        for d in (0..lens.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * lens[d + 1];
        }
        let longest = lens.iter().copied().max().unwrap_or(0);
        let mut compiled = CompiledGame {
            lens: lens.clone(),
            rays: Vec::new(),
            splits: Vec::new(),
            take_and_break: Vec::new(),
        };
        let ray = |direction: &[Coord], amounts: Amounts| {
            let lowers: Vec<(usize, usize)> = direction
                .iter()
                .enumerate()
                .filter(|(_, &d)| d < 0)
                .map(|(a, &d)| (a, (-d) as usize))
                .collect();
            let flat = lowers.iter().map(|&(a, unit)| unit * strides[a]).sum();
            Ray { lowers, flat, amounts }
        };
        for rule in game.rules() {
            match rule {
                Rule::Step { offsets } => {
                    compiled.rays.extend(offsets.iter().map(|o| ray(o, Amounts::List(vec![1]))))
                }
                Rule::Jump { directions, steps } => {
                    let amounts = jump_amounts(steps, longest);
                    compiled
                        .rays
                        .extend(directions.iter().map(|d| ray(d, Amounts::List(amounts.clone()))));
                }
                Rule::Slide { directions, max } => {
                    let bound = max.map_or(longest, |m| (m as usize).min(longest));
                    compiled.rays.extend(directions.iter().map(|d| ray(d, Amounts::UpTo(bound))));
                }
                Rule::Split { axis, min_piece, unequal } => {
                    let axis_min = game.axes()[*axis].min;
                    compiled.splits.push(Split {
                        axis: *axis,
                        axis_min,
                        smallest: (*min_piece).max(axis_min),
                        unequal: *unequal,
                        stride: strides[*axis],
                    });
                }
                Rule::TakeAndBreak { code } => {
                    // Several take-and-break rules combine digit by digit.
                    let digits = code.digits();
                    if compiled.take_and_break.len() < digits.len() {
                        compiled.take_and_break.resize(digits.len(), 0);
                    }
                    for (mine, &theirs) in compiled.take_and_break.iter_mut().zip(digits) {
                        *mine |= theirs;
                    }
                }
            }
        }
        compiled
    }

    pub(crate) fn lens(&self) -> &[usize] {
        &self.lens
    }

    /// The value of the cell at `index` (flat position `flat`), given that every earlier wave is
    /// final in `values`. `mex` is scratch space, empty on entry and on exit.
    #[inline]
    pub(crate) fn cell_value(
        &self,
        values: &[Nimber],
        index: &[usize],
        flat: usize,
        mex: &mut MexSet,
    ) -> Nimber {
        for ray in &self.rays {
            let reach = ray.max_amount(index);
            match &ray.amounts {
                Amounts::List(amounts) => {
                    for &amount in amounts.iter().take_while(|&&a| a <= reach) {
                        mex.insert(values[flat - amount * ray.flat]);
                    }
                }
                Amounts::UpTo(bound) => {
                    for amount in 1..=reach.min(*bound) {
                        mex.insert(values[flat - amount * ray.flat]);
                    }
                }
            }
        }
        for split in &self.splits {
            let i = index[split.axis];
            let c = split.axis_min + i as Coord;
            let base = flat - i * split.stride;
            let at = |size: Coord| values[base + (size - split.axis_min) as usize * split.stride];
            for a in split.smallest..=c / 2 {
                let b = c - a;
                if b < split.smallest || (split.unequal && a == b) {
                    continue;
                }
                mex.insert(at(a) ^ at(b));
            }
        }
        if !self.take_and_break.is_empty() {
            self.take_and_break_options(values, index[0], mex);
        }
        let value = mex.mex();
        mex.clear();
        value
    }

    /// Options of a heap of `n` (heap axes start at 0, so index = size).
    fn take_and_break_options(&self, values: &[Nimber], n: usize, mex: &mut MexSet) {
        for (k, &digit) in self.take_and_break.iter().enumerate().take(n + 1) {
            let rest = n - k;
            if digit & 1 != 0 && rest == 0 {
                mex.insert(Nimber::ZERO);
            }
            if digit & 2 != 0 && rest >= 1 && k >= 1 {
                mex.insert(values[rest]);
            }
            if digit & 4 != 0 {
                for a in 1..=rest / 2 {
                    mex.insert(values[a] ^ values[rest - a]);
                }
            }
            if digit & 8 != 0 {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        mex.insert(values[a] ^ values[b] ^ values[rest - a - b]);
                    }
                }
            }
        }
    }
}

fn jump_amounts(steps: &StepSet, longest: usize) -> Vec<usize> {
    steps.up_to(longest as u64).into_iter().map(|a| a as usize).collect()
}
