//! Rules compiled against one table shape into flat move tables.
//!
//! A move along a direction becomes a flat offset into the row-major value array plus the list of
//! amounts it may be taken by; a split becomes an axis stride. Nothing is interpreted per cell
//! beyond bounds arithmetic, so a game stated as data runs as fast as one written by hand.

use crate::plan::{Halves, LineKind};
use grundy_core::Amounts as Along;
use grundy_core::{
    Cell, CellWidth, Coord, Game, MexSet, MoveForm, Nimber, PrefixSet, StepSet, TableShape,
};

/// Read access to the values of a table being filled.
pub(crate) trait Cells {
    /// The stored cell type.
    type Cell: Cell;

    /// The value at flat index `index`, which must be final.
    fn at(&self, index: usize) -> Nimber;

    /// The `len` cells from flat index `start` as one slice, all final, when every stored cell
    /// there is its value; `None` sends the caller to [`Cells::at`].
    fn run(&self, start: usize, len: usize) -> Option<&[Self::Cell]>;
}

impl<C: Cell> Cells for [C] {
    type Cell = C;

    #[inline]
    fn at(&self, index: usize) -> Nimber {
        self[index].nimber()
    }

    #[inline]
    fn run(&self, start: usize, len: usize) -> Option<&[C]> {
        Some(&self[start..start + len])
    }
}

/// An empty line set, to fill the unused slots of a fixed array of line references.
pub(crate) static NO_LINE: PrefixSet = PrefixSet::new();

/// The amounts a ray may be taken by.
#[derive(Clone, Debug)]
enum Amounts {
    /// An explicit increasing list (long jump sets such as the primes): each amount with how far
    /// back in the flat array it goes.
    List(Vec<(usize, usize)>),
    /// Every amount from 1 up to a bound (slides).
    UpTo(usize),
}

/// One fixed move (a step, or a jump by one amount of a short list): legal where every index is
/// at least `need`, and it reads the cell `back` places earlier in the flat array.
#[derive(Clone, Copy, Debug)]
struct FixedMove {
    need: [usize; 3],
    back: usize,
}

/// Jump sets up to this size become [`FixedMove`]s: a few compares per move beat walking a list.
const FIXED_JUMPS: usize = 8;

/// Lines of at most this many cells are walked, not summarised. A line's summary is a window of
/// its values, and on a thin board the short lines' values are as large as the long axis: the
/// columns of Wythoff 30 × 10^6 held a window of up to a million values each (issue 52: 262 GiB
/// planned, 6.5 GB used at 30 × 200 000), where walking reads at most 63 cells.
pub(crate) const SHORT_LINE: usize = 64;

/// How many cells a line of `kind` has on a 2-D table of `lens`.
fn line_length(kind: LineKind, lens: &[usize]) -> usize {
    let (rows, cols) = match lens {
        [rows, cols] => (*rows, *cols),
        _ => return usize::MAX,
    };
    match kind {
        LineKind::Row => cols,
        LineKind::Column => rows,
        LineKind::Diagonal => rows.min(cols),
    }
}

/// Moves along one direction.
#[derive(Clone, Debug)]
struct Ray {
    /// For each axis the direction lowers, (axis, how much one unit lowers it); the first
    /// `lowered` entries are used. Inline rather than a `Vec`: this is read for every cell.
    lowers: [(usize, usize); 3],
    lowered: usize,
    /// How far back in the flat array one unit of the move goes.
    flat: usize,
    amounts: Amounts,
    /// Read through the mirror cell (see [`CompiledGame::transposing_columns`]).
    transposed: bool,
}

impl Ray {
    /// The largest amount that keeps the cell at `index` on the board.
    #[inline]
    fn max_amount(&self, index: &[usize; 3]) -> usize {
        let mut most = usize::MAX;
        for &(axis, unit) in &self.lowers[..self.lowered] {
            // Units of 1 are the common case; a division costs tens of cycles.
            let reach = if unit == 1 { index[axis] } else { index[axis] / unit };
            most = most.min(reach);
        }
        most
    }
}

/// Fixed 2-D steps, split for a row-by-row loop: those into earlier rows (`[rows up, columns
/// back]`, read from slices of those rows) and those along the row (bit k − 1 of `left` for k
/// columns back, read from the last values computed, kept in a register).
#[derive(Clone, Debug)]
pub(crate) struct Stencil {
    pub(crate) above: Vec<[usize; 2]>,
    pub(crate) left: u64,
    /// The most rows up and columns back any step goes.
    pub(crate) reach: [usize; 2],
}

impl Stencil {
    /// The most steps into earlier rows (each a slice the row loop holds).
    pub(crate) const MOST_ABOVE: usize = 8;
    /// The most columns back along the row (the last values are kept a byte each in a word).
    pub(crate) const MOST_LEFT: usize = 8;

    /// Every step, as `[rows up, columns back]`.
    pub(crate) fn steps(&self) -> Vec<[usize; 2]> {
        let left = (0..Stencil::MOST_LEFT).filter(|k| self.left >> k & 1 != 0).map(|k| [0, k + 1]);
        self.above.iter().copied().chain(left).collect()
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
    /// Read through the mirror cell (see [`CompiledGame::transposing_columns`]).
    transposed: bool,
}

/// A game's rules compiled against one table shape.
#[derive(Clone, Debug)]
pub(crate) struct CompiledGame {
    lens: Vec<usize>,
    lines: Vec<LineKind>,
    fixed: Vec<FixedMove>,
    rays: Vec<Ray>,
    splits: Vec<Split>,
    take_and_break: Vec<u8>,
    /// The value of the option a take-and-break move that leaves no heap leads to: the empty
    /// position's under the game's play ([`grundy_core::Play::option_value`]), 1 under misère.
    leaves_nothing: Nimber,
}

/// How unbounded 2-D slides along a row, a column or the main diagonal are compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slides {
    /// As [`LineKind`]s whose summaries the store keeps: a cell reads one set per line.
    Summarised,
    /// As rays the kernel walks cell by cell (the cell-wave engine, a check on the summaries).
    Walked,
}

/// The table's geometry as the compiled moves need it: its lengths, the flat strides of its
/// axes, and its longest axis.
struct Geometry {
    lens: Vec<usize>,
    strides: Vec<usize>,
    longest: usize,
}

impl Geometry {
    fn of(shape: &TableShape) -> Geometry {
        let lens = shape.lens();
        let mut strides = vec![1usize; lens.len()];
        for d in (0..lens.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * lens[d + 1];
        }
        let longest = lens.iter().copied().max().unwrap_or(0);
        Geometry { lens, strides, longest }
    }

    /// A move of any amount along `direction`, walked by the kernel.
    fn ray(&self, direction: &[Coord], amounts: Amounts) -> Ray {
        let mut lowers = [(0, 0); 3];
        let mut lowered = 0;
        for (axis, &d) in direction.iter().enumerate().filter(|(_, &d)| d < 0) {
            lowers[lowered] = (axis, (-d) as usize);
            lowered += 1;
        }
        let flat = lowers[..lowered].iter().map(|&(a, unit)| unit * self.strides[a]).sum();
        Ray { lowers, lowered, flat, amounts, transposed: false }
    }

    /// `amount` times `direction`, as a fixed move.
    fn fixed(&self, direction: &[Coord], amount: usize) -> FixedMove {
        let mut need = [0; 3];
        let mut back = 0;
        for (axis, &d) in direction.iter().enumerate() {
            need[axis] = (-d) as usize * amount;
            back += need[axis] * self.strides[axis];
        }
        FixedMove { need, back }
    }
}

impl CompiledGame {
    /// Compiles `game` for `shape`, its long slides as `slides` says.
    pub(crate) fn new(game: &Game, shape: &TableShape, slides: Slides) -> CompiledGame {
        let geometry = Geometry::of(shape);
        let mut compiled = CompiledGame {
            lens: geometry.lens.clone(),
            lines: Vec::new(),
            fixed: Vec::new(),
            rays: Vec::new(),
            splits: Vec::new(),
            take_and_break: Vec::new(),
            leaves_nothing: game.play().option_value([]),
        };
        // The same moves at every position, whatever `game.terminal()` says: a game with
        // terminal positions is the reference fill's (`FillRequest::prepare`), whose plan alone
        // this compiles.
        for rule in game.rules() {
            match rule.form() {
                MoveForm::Translate { directions, amounts: Along::One } => {
                    compiled.fixed.extend(directions.iter().map(|o| geometry.fixed(o, 1)))
                }
                MoveForm::Translate { directions, amounts: Along::Set(steps) } => {
                    let amounts = jump_amounts(steps, geometry.longest);
                    for direction in directions {
                        if amounts.len() <= FIXED_JUMPS {
                            let each = amounts.iter().map(|&a| geometry.fixed(direction, a));
                            compiled.fixed.extend(each);
                        } else {
                            let unit = geometry.ray(direction, Amounts::UpTo(0)).flat;
                            let list = amounts.iter().map(|&a| (a, a * unit)).collect();
                            compiled.rays.push(geometry.ray(direction, Amounts::List(list)));
                        }
                    }
                }
                MoveForm::Translate { directions, amounts: Along::Run { max } } => {
                    for direction in directions {
                        compiled.add_slide(&geometry, direction, max, slides);
                    }
                }
                MoveForm::Cut { axis, min_piece, unequal } => {
                    let axis_min = game.axes()[axis].min;
                    compiled.splits.push(Split {
                        axis,
                        axis_min,
                        smallest: min_piece.max(axis_min),
                        unequal,
                        stride: geometry.strides[axis],
                        transposed: false,
                    });
                }
                MoveForm::Code(code) => {
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

    /// A slide along `direction` (at most `max`): a line whose summaries the store keeps, or a
    /// ray the kernel walks.
    fn add_slide(
        &mut self,
        geometry: &Geometry,
        direction: &[Coord],
        max: Option<u64>,
        slides: Slides,
    ) {
        let lens = &geometry.lens;
        let bound = max.map_or(geometry.longest, |m| (m as usize).min(geometry.longest));
        // No slide goes further than the axes it lowers are long.
        let reach = direction
            .iter()
            .zip(lens)
            .filter(|(&d, _)| d < 0)
            .map(|(&d, &len)| len.saturating_sub(1) / (-d) as usize)
            .min()
            .unwrap_or(0);
        let bound = bound.min(reach);
        let line = match direction {
            [0, -1] => Some(LineKind::Row),
            [-1, 0] => Some(LineKind::Column),
            [-1, -1] => Some(LineKind::Diagonal),
            _ => None,
        };
        // A short line (a column of a thin board) is walked: its few cells cost less to read
        // than a set as wide as its values costs to keep.
        let summarised = |line: &LineKind| {
            slides == Slides::Summarised && max.is_none() && line_length(*line, lens) > SHORT_LINE
        };
        match line.filter(summarised) {
            Some(line) if !self.lines.contains(&line) => self.lines.push(line),
            Some(_) => {}
            None => self.rays.push(geometry.ray(direction, Amounts::UpTo(bound))),
        }
    }

    pub(crate) fn lens(&self) -> &[usize] {
        &self.lens
    }

    /// The same moves, with those that walk down a column (rays along (−k, 0), splits of the first
    /// axis) reading the mirror row instead: on a symmetric table T(i, j) = T(j, i), so column j
    /// up to row i is row j up to column i, which lies contiguous in memory. Only for tables the
    /// engine fills symmetrically, where every mirror cell an option needs is written.
    pub(crate) fn transposing_columns(mut self) -> CompiledGame {
        let cols = self.lens[1];
        for ray in &mut self.rays {
            if ray.lowered == 1 && ray.lowers[0].0 == 0 {
                let unit = ray.lowers[0].1;
                ray.transposed = true;
                ray.flat = unit;
                if let Amounts::List(list) = &mut ray.amounts {
                    for (amount, back) in list.iter_mut() {
                        *back = *amount * unit;
                    }
                }
            }
        }
        for split in &mut self.splits {
            if split.axis == 0 {
                split.transposed = true;
                split.stride = 1;
            }
        }
        debug_assert_eq!(cols, self.lens[0]);
        self
    }

    /// How far back along `axis` a cell's options reach (moves on lines need none: they read
    /// line summaries), or `None` when some move reaches along the whole axis (a split of it, or
    /// take-and-break moves on a heap).
    pub(crate) fn reach(&self, axis: usize) -> Option<usize> {
        if (axis == 0 && !self.take_and_break.is_empty())
            || self.splits.iter().any(|s| s.axis == axis)
        {
            return None;
        }
        let len = self.lens[axis];
        let mut reach = self.fixed.iter().map(|m| m.need[axis]).max().unwrap_or(0);
        for ray in &self.rays {
            if let Some(&(_, unit)) =
                ray.lowers[..ray.lowered].iter().find(|(lowered, _)| *lowered == axis)
            {
                // The amounts were listed up to the table's longest side; along this axis only
                // those that stay inside it can be taken.
                let fits = |a: usize| a * unit < len;
                let most = match &ray.amounts {
                    Amounts::List(list) => {
                        list.iter().map(|(a, _)| *a).take_while(|&a| fits(a)).last().unwrap_or(0)
                    }
                    Amounts::UpTo(bound) => (*bound).min((len - 1) / unit),
                };
                reach = reach.max(most * unit);
            }
        }
        Some(reach)
    }

    /// How a table of `shape` may be computed: by halves when swapping the two axes maps the
    /// moves onto themselves, on a square 2-D table whose axes start at the same coordinate (then
    /// T(i, j) = T(j, i)), else whole.
    pub(crate) fn halves(&self, shape: &TableShape) -> Halves {
        if self.is_symmetric(shape) {
            Halves::Mirrored
        } else {
            Halves::Whole
        }
    }

    fn is_symmetric(&self, shape: &TableShape) -> bool {
        let axes = shape.axes();
        if self.lens.len() != 2 || self.lens[0] != self.lens[1] || axes[0].min != axes[1].min {
            return false;
        }
        let mut fixed: Vec<[usize; 2]> =
            self.fixed.iter().map(|m| [m.need[0], m.need[1]]).collect();
        let mut fixed_swapped: Vec<[usize; 2]> = fixed.iter().map(|[a, b]| [*b, *a]).collect();
        fixed.sort_unstable();
        fixed_swapped.sort_unstable();
        let ray_key = |ray: &Ray, swap: bool| {
            let mut units = [0usize; 2];
            for &(axis, unit) in &ray.lowers[..ray.lowered] {
                units[if swap { 1 - axis } else { axis }] = unit;
            }
            let amounts: Vec<usize> = match &ray.amounts {
                Amounts::List(list) => list.iter().map(|(a, _)| *a).collect(),
                Amounts::UpTo(most) => vec![usize::MAX, *most],
            };
            (units, amounts)
        };
        let mut rays: Vec<_> = self.rays.iter().map(|r| ray_key(r, false)).collect();
        let mut rays_swapped: Vec<_> = self.rays.iter().map(|r| ray_key(r, true)).collect();
        rays.sort_unstable();
        rays_swapped.sort_unstable();
        let mut splits: Vec<_> =
            self.splits.iter().map(|s| (s.axis, s.smallest, s.unequal)).collect();
        let mut splits_swapped: Vec<_> =
            self.splits.iter().map(|s| (1 - s.axis, s.smallest, s.unequal)).collect();
        splits.sort_unstable();
        splits_swapped.sort_unstable();
        fixed == fixed_swapped
            && rays == rays_swapped
            && splits == splits_swapped
            && self.lines.contains(&LineKind::Row) == self.lines.contains(&LineKind::Column)
    }

    /// An upper bound on every value of the table: a value is at most the number of options of
    /// its cell, and this bounds that number (saturating).
    pub(crate) fn value_bound(&self) -> u64 {
        let longest = self.lens.iter().copied().max().unwrap_or(0) as u64;
        let (rows, cols) = match self.lens.as_slice() {
            [rows, cols] => (*rows as u64, *cols as u64),
            _ => (0, 0),
        };
        let mut bound = self.fixed.len() as u64;
        for ray in &self.rays {
            bound += match &ray.amounts {
                Amounts::List(amounts) => amounts.len() as u64,
                Amounts::UpTo(most) => *most as u64,
            };
        }
        for line in &self.lines {
            bound += match line {
                LineKind::Row => cols,
                LineKind::Column => rows,
                LineKind::Diagonal => rows.min(cols),
            };
        }
        for split in &self.splits {
            bound += (split.axis_min as u64 + self.lens[split.axis] as u64) / 2 + 1;
        }
        for (k, &digit) in self.take_and_break.iter().enumerate() {
            let rest = longest.saturating_sub(k as u64);
            bound = bound.saturating_add(u64::from(digit & 3 != 0));
            if digit & 4 != 0 {
                bound = bound.saturating_add(rest / 2 + 1);
            }
            if digit & 8 != 0 {
                bound = bound.saturating_add(rest.saturating_mul(rest) / 6 + 1);
            }
        }
        bound
    }

    /// The game's moves as a 2-D stencil, when they are only fixed steps (kiki, king's moves,
    /// short jumps), fewer than 64: then every value is below 64 and a cell's options fit one
    /// register word.
    pub(crate) fn stencil(&self) -> Option<Stencil> {
        let only_fixed = self.rays.is_empty()
            && self.splits.is_empty()
            && self.lines.is_empty()
            && self.take_and_break.is_empty();
        if self.lens.len() != 2 || !only_fixed || self.fixed.len() >= 64 {
            return None;
        }
        let mut stencil = Stencil { above: Vec::new(), left: 0, reach: [0; 2] };
        for step in &self.fixed {
            let [up, back, _] = step.need;
            stencil.reach = [stencil.reach[0].max(up), stencil.reach[1].max(back)];
            if up == 0 {
                stencil.left |= 1 << (back - 1);
            } else {
                stencil.above.push([up, back]);
            }
        }
        let fits =
            stencil.above.len() <= Stencil::MOST_ABOVE && stencil.left < 1 << Stencil::MOST_LEFT;
        fits.then_some(stencil)
    }

    /// The lines the caller must keep (none when slides are walked).
    pub(crate) fn lines(&self) -> &[LineKind] {
        &self.lines
    }

    /// Adds to `mex` the values of every option of the cell at `index` except those on lines;
    /// values below 64 go to the returned word instead (see [`MexSet::insert_with_low`]).
    #[inline]
    /// `index` has 0 on the axes the table does not have.
    pub(crate) fn insert_options<C: Cells + ?Sized>(
        &self,
        values: &C,
        index: &[usize; 3],
        flat: usize,
        mex: &mut MexSet,
    ) -> u64 {
        let mut low = 0u64;
        for step in &self.fixed {
            if index[0] >= step.need[0] && index[1] >= step.need[1] && index[2] >= step.need[2] {
                mex.insert_with_low(&mut low, values.at(flat - step.back));
            }
        }
        // The mirror cell (j, i) of a 2-D cell (i, j), for moves read through it.
        let mirror = || index[1] * self.lens[0] + index[0];
        for ray in &self.rays {
            let reach = ray.max_amount(index);
            let from = if ray.transposed { mirror() } else { flat };
            if ray.flat == 1 && reach > 0 {
                // Every option lies in the run of `reach` cells just before this one.
                let most = match &ray.amounts {
                    Amounts::List(_) => reach,
                    Amounts::UpTo(bound) => reach.min(*bound),
                };
                if let Some(run) = values.run(from - most, most) {
                    match &ray.amounts {
                        Amounts::List(amounts) => {
                            for &(_, back) in amounts.iter().take_while(|&&(a, _)| a <= reach) {
                                mex.insert_with_low(&mut low, run[most - back].nimber());
                            }
                        }
                        Amounts::UpTo(_) => {
                            for &cell in run {
                                mex.insert_with_low(&mut low, cell.nimber());
                            }
                        }
                    }
                    continue;
                }
            }
            match &ray.amounts {
                Amounts::List(amounts) => {
                    for &(_, back) in amounts.iter().take_while(|&&(a, _)| a <= reach) {
                        mex.insert_with_low(&mut low, values.at(from - back));
                    }
                }
                Amounts::UpTo(bound) => {
                    for amount in 1..=reach.min(*bound) {
                        mex.insert_with_low(&mut low, values.at(from - amount * ray.flat));
                    }
                }
            }
        }
        for split in &self.splits {
            let i = index[split.axis];
            let c = split.axis_min + i as Coord;
            let base = if split.transposed { mirror() } else { flat } - i * split.stride;
            if split.stride == 1 && c / 2 >= split.smallest {
                // The pieces lie in one contiguous run: XOR it with itself reversed.
                let first = (split.smallest - split.axis_min) as usize;
                let len = (c - 2 * split.smallest + 1) as usize;
                if let Some(run) = values.run(base + first, len) {
                    let pairs = if split.unequal { len / 2 } else { len.div_ceil(2) };
                    xor_pairs(run, pairs, &mut low, mex);
                    continue;
                }
            }
            let at =
                |size: Coord| values.at(base + (size - split.axis_min) as usize * split.stride);
            for a in split.smallest..=c / 2 {
                let b = c - a;
                if b < split.smallest || (split.unequal && a == b) {
                    continue;
                }
                mex.insert_with_low(&mut low, at(a) ^ at(b));
            }
        }
        if !self.take_and_break.is_empty() {
            self.take_and_break_options(values, index[0], mex, &mut low);
        }
        low
    }

    /// Options of a heap of `n` (heap axes start at 0, so index = size).
    fn take_and_break_options<C: Cells + ?Sized>(
        &self,
        values: &C,
        n: usize,
        mex: &mut MexSet,
        low: &mut u64,
    ) {
        for (k, &digit) in self.take_and_break.iter().enumerate().take(n + 1) {
            let rest = n - k;
            if digit & 1 != 0 && rest == 0 {
                mex.insert_with_low(low, self.leaves_nothing);
            }
            if digit & 2 != 0 && rest >= 1 && k >= 1 {
                mex.insert_with_low(low, values.at(rest));
            }
            if digit & 4 != 0 {
                for a in 1..=rest / 2 {
                    mex.insert_with_low(low, values.at(a) ^ values.at(rest - a));
                }
            }
            if digit & 8 != 0 {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        mex.insert_with_low(
                            low,
                            values.at(a) ^ values.at(b) ^ values.at(rest - a - b),
                        );
                    }
                }
            }
        }
    }
}

/// Adds `run[k] ^ run[len − 1 − k]` for k < `pairs`: the options of a split whose pieces are
/// read from one contiguous run.
#[inline]
fn xor_pairs<C: Cell>(run: &[C], pairs: usize, low: &mut u64, mex: &mut MexSet) {
    let mut k = 0;
    if let (CellWidth::U8, Ok(bytes)) = (C::WIDTH, bytemuck::try_cast_slice::<C, u8>(run)) {
        // Byte cells: eight pairs per step, XORed as one word against the reversed tail.
        let n = bytes.len();
        // Lane-wise `1 << (xor % 8)`, split by xor < 8 and xor >= 8: folded into `low` at the end.
        let (mut below_8, mut from_8) = (0u64, 0u64);
        while k + 8 <= pairs {
            let head = u64::from_le_bytes(bytes[k..k + 8].try_into().expect("eight bytes"));
            let tail = u64::from_le_bytes(bytes[n - 8 - k..n - k].try_into().expect("eight bytes"));
            let xors = head ^ tail.swap_bytes();
            if xors & 0xF0F0_F0F0_F0F0_F0F0 == 0 {
                // Every XOR is below 16 (the common case: small values): no per-byte work.
                let (below, from) = lane_bits(xors);
                below_8 |= below;
                from_8 |= from;
            } else {
                for byte in xors.to_le_bytes() {
                    mex.insert_with_low(low, Nimber(byte.into()));
                }
            }
            k += 8;
        }
        *low |= fold_lanes(below_8) | fold_lanes(from_8) << 8;
    }
    for (&a, &b) in run[k..].iter().zip(run.iter().rev().skip(k)).take(pairs - k) {
        mex.insert_with_low(low, Nimber(a.into() ^ b.into()));
    }
}

/// For eight byte lanes each below 16, each lane's `1 << (lane % 8)`, in the first word for the
/// lanes below 8 and in the second for the others (0 elsewhere). Built by three conditional
/// shifts of a lane's 1 by 1, 2 and 4; no bit crosses into the next lane, since before the shift
/// by s a lane's bit is below position s.
#[inline]
fn lane_bits(lanes: u64) -> (u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // 0xFF in the lanes whose bit `bit` is set (a lane's 0 or 1 times 0xFF carries nowhere).
    let where_set = |bit: u32| ((lanes >> bit) & ONES) * 0xFF;
    let mut one = ONES;
    for bit in 0..3 {
        let set = where_set(bit);
        one = (one & !set) | ((one << (1 << bit)) & set);
    }
    let high = where_set(3);
    (one & !high, one & high)
}

/// The OR of a word's eight bytes.
#[inline]
fn fold_lanes(word: u64) -> u64 {
    let word = word | word >> 32;
    let word = word | word >> 16;
    (word | word >> 8) & 0xFF
}

fn jump_amounts(steps: &StepSet, longest: usize) -> Vec<usize> {
    steps.up_to(longest as u64).into_iter().map(|a| a as usize).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::{lookup, parse_spec};
    use proptest::prelude::*;

    proptest! {
        /// The word-at-a-time split of byte runs marks exactly the XORs the plain pairing does,
        /// for runs of small values (the lane path), of values below 64 (XORs on both sides of
        /// 16) and of any byte (the per-byte fallback).
        #[test]
        fn xor_pairs_marks_every_pair(
            small in prop::collection::vec(0u8..16, 0..80),
            mid in prop::collection::vec(0u8..64, 0..80),
            wide in prop::collection::vec(any::<u8>(), 0..80),
            odd_out in any::<bool>(),
        ) {
            for run in [&small, &mid, &wide] {
                let pairs = if odd_out { run.len() / 2 } else { run.len().div_ceil(2) };
                let (mut low, mut mex) = (0u64, MexSet::new());
                xor_pairs(run, pairs, &mut low, &mut mex);
                let (mut plain_low, mut plain) = (0u64, MexSet::new());
                for k in 0..pairs {
                    let x = run[k] ^ run[run.len() - 1 - k];
                    plain.insert_with_low(&mut plain_low, Nimber(x.into()));
                }
                prop_assert_eq!(low, plain_low);
                for word in 0..4 {
                    prop_assert_eq!(mex.word(word), plain.word(word));
                }
            }
        }
    }

    fn symmetric(game: &Game, max: &[i64]) -> bool {
        let shape = TableShape::new(game, max, "test").unwrap();
        CompiledGame::new(game, &shape, Slides::Summarised).halves(&shape) == Halves::Mirrored
    }

    #[test]
    fn symmetry_is_detected_from_the_moves() {
        for name in [
            "kiki",
            "wythoff",
            "nim",
            "cutting",
            "prime-steps",
            "wythoff-short-diagonal",
            "fibonacci-rook",
        ] {
            assert!(symmetric(&lookup(name).unwrap(), &[50, 50]), "{name}");
            assert!(!symmetric(&lookup(name).unwrap(), &[50, 49]), "{name} on a non-square table");
        }
        let lopsided = parse_spec(
            "name = \"l\"\naxes = [{ name = \"a\" }, { name = \"b\" }]\n[[rules]]\nkind = \"step\"\noffsets = [[-1, 0], [0, -2]]\n",
            "l.toml",
        )
        .unwrap();
        assert!(!symmetric(&lopsided, &[20, 20]));
        let shifted = parse_spec(
            "name = \"s\"\naxes = [{ name = \"a\", min = 1 }, { name = \"b\" }]\n[[rules]]\nkind = \"step\"\noffsets = [[-1, 0], [0, -1]]\n",
            "s.toml",
        )
        .unwrap();
        assert!(!symmetric(&shifted, &[20, 19]));
        assert!(!symmetric(&lookup("kayles").unwrap(), &[20]));
    }
}
