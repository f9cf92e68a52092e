//! The bit-sliced stencil: 64 rows of a game of a few fixed short steps (kiki's game, king-like
//! moves) computed at once, one machine word per bit of the values.
//!
//! A plain loop over such a game is bound by one chain: a cell's value needs the value just left
//! of it, whose mex needs the one before, a few cycles each. Along an anti-diagonal there is no
//! such chain, so a strip of up to 64 rows is swept skewed: at step t, lane (row) r computes
//! column t − r. An option (up, back) of lane r at step t is lane r − up's value at step
//! t − up − back, so every option of all 64 lanes is one earlier step's bit planes shifted by
//! `up` lanes. With k steps the values are at most k, so for k ≤ 7 three planes hold them, and a
//! step is a few dozen word operations for 64 cells: the mex becomes boolean algebra on planes
//! (which values are present, then the smallest absent one).
//!
//! What the sweep cannot compute it is given: the rows above the strip (lanes shifted in from
//! above) and the columns left of it (lanes before their first column). The caller computes the
//! first rows and columns of the table, where some steps leave the board, the plain way.
//! Values leave the sweep 64 steps at a time, transposed so that each row's 64 values are one
//! word per plane, then spread into bytes eight at a time.

/// Rows swept at once: the bits of a word.
pub(crate) const LANES: usize = 64;

/// Steps of history kept, a power of two: a step reads at most `up + back` steps back.
const RING: usize = 32;

/// Margin on each side of an output row: a transposed block writes columns up to 63 before the
/// row's first and after its last.
const MARGIN: usize = 64;

/// A game's fixed steps (`[rows up, columns back]`, neither negative, not both zero) in the
/// form the sweep runs: at most 7 of them, reaching back fewer than [`RING`] steps in all.
#[derive(Clone, Debug)]
pub(crate) struct SlicedStencil {
    steps: Vec<[usize; 2]>,
    reach: [usize; 2],
    /// Bits of the values (at most the number of steps).
    bits: usize,
}

impl SlicedStencil {
    /// The most steps: values then stay below 8, three planes.
    const MOST_STEPS: usize = 7;

    /// The sweep of these steps, when it applies.
    pub(crate) fn new(steps: &[[usize; 2]]) -> Option<SlicedStencil> {
        if steps.is_empty() || steps.len() > SlicedStencil::MOST_STEPS {
            return None;
        }
        let mut reach = [0; 2];
        for &[up, back] in steps {
            if up + back == 0 {
                return None;
            }
            reach = [reach[0].max(up), reach[1].max(back)];
        }
        if steps.iter().any(|&[up, back]| up + back >= RING) {
            return None;
        }
        let bits = (usize::BITS - steps.len().leading_zeros()) as usize;
        Some(SlicedStencil { steps: steps.to_vec(), reach, bits })
    }

    /// The most rows up and columns back a step goes: cells nearer the table's first row or
    /// column than this are the caller's.
    pub(crate) fn reach(&self) -> [usize; 2] {
        self.reach
    }

    /// The bytes [`SlicedStencil::sweep`] writes a strip `w` columns wide into, for `rows` rows.
    pub(crate) fn out_len(rows: usize, w: usize) -> usize {
        rows * SlicedStencil::out_stride(w)
    }

    /// Where row `r` of a strip `w` wide starts in the output of [`SlicedStencil::sweep`].
    pub(crate) fn out_start(r: usize, w: usize) -> usize {
        r * SlicedStencil::out_stride(w) + MARGIN
    }

    fn out_stride(w: usize) -> usize {
        w + 2 * MARGIN + LANES
    }

    /// Computes a strip of `h` ≤ 64 rows and `w` columns whose every step stays on the board.
    ///
    /// `top` holds the `reach[0]` rows above the strip, nearest first, each from `reach[1]`
    /// columns before the strip's first to its last (`reach[1] + w` values); `side` holds, for
    /// each of the strip's rows, the `reach[1]` values before its first column. Row r's values
    /// land in `out` from [`SlicedStencil::out_start`]`(r, w)` on; `out` is
    /// [`SlicedStencil::out_len`]`(h, w)` long, and its margins are scratch.
    pub(crate) fn sweep(&self, h: usize, w: usize, top: &[u8], side: &[u8], out: &mut [u8]) {
        assert!((1..=LANES).contains(&h) && w > 0);
        let [up, back] = self.reach;
        assert_eq!(top.len(), up * (back + w));
        assert_eq!(side.len(), h * back);
        assert_eq!(out.len(), SlicedStencil::out_len(h, w));
        let strip = Strip { steps: &self.steps, reach: self.reach, h, w, top, side };
        match self.bits {
            1 => strip.sweep::<1>(out),
            2 => strip.sweep::<2>(out),
            _ => strip.sweep::<3>(out),
        }
    }
}

/// One sweep's inputs.
struct Strip<'a> {
    steps: &'a [[usize; 2]],
    reach: [usize; 2],
    h: usize,
    w: usize,
    top: &'a [u8],
    side: &'a [u8],
}

/// Sets lane `lane` of `planes` to `value`.
#[inline]
fn set_lane<const B: usize>(planes: &mut [u64; B], lane: usize, value: u8) {
    for (b, plane) in planes.iter_mut().enumerate() {
        let bit = u64::from(value >> b & 1);
        *plane = (*plane & !(1 << lane)) | bit << lane;
    }
}

impl Strip<'_> {
    /// Gives the lanes that have not reached the strip's first column at step `s` (which may be
    /// before the sweep's first) the values left of the strip they will read.
    #[inline]
    fn enter_side<const B: usize>(&self, planes: &mut [u64; B], s: isize) {
        let back = self.reach[1] as isize;
        let lanes = (s + 1).max(0)..(s + back + 1).min(self.h as isize);
        for q in lanes {
            // Lane q is at column s − q, in −back..0.
            let value = self.side[(q * back + back + s - q) as usize];
            set_lane(planes, q as usize, value);
        }
    }

    fn sweep<const B: usize>(&self, out: &mut [u8]) {
        let [up, back] = self.reach;
        let (h, w) = (self.h, self.w);
        let row_len = back + w;
        let mut history = [[0u64; B]; RING];
        for s in -((up + back) as isize)..0 {
            let slot = s.rem_euclid(RING as isize) as usize;
            self.enter_side(&mut history[slot], s);
        }
        let steps = w + h - 1;
        // 64 steps' planes, transposed into 64 lanes' runs of columns.
        let mut block = [[0u64; LANES]; B];
        for t in 0..steps {
            let mut present = [0u64; 8];
            for &[du, dl] in self.steps {
                let source = &history[(t + RING - du - dl) % RING];
                let mut option = [0u64; B];
                for b in 0..B {
                    option[b] = if du < LANES { source[b] << du } else { 0 };
                }
                // Lanes r < du read the rows above the strip, at column t − r − dl.
                for r in 0..du.min(h) {
                    if let Some(col) = t.checked_sub(r).filter(|&c| c < w) {
                        let value = self.top[(du - r - 1) * row_len + back + col - dl];
                        set_lane(&mut option, r, value);
                    }
                }
                for (v, present) in present.iter_mut().enumerate().take(1 << B) {
                    let mut equal = !0u64;
                    for (b, plane) in option.iter().enumerate() {
                        equal &= if v >> b & 1 != 0 { *plane } else { !*plane };
                    }
                    *present |= equal;
                }
            }
            // The mex: the smallest value no option has (always at most the number of steps).
            let mut value = [0u64; B];
            // The lanes where every value below v is present.
            let mut below = !0u64;
            for (v, &present) in present.iter().enumerate().take(1 << B) {
                let take = below & !present;
                for (b, plane) in value.iter_mut().enumerate() {
                    if v >> b & 1 != 0 {
                        *plane |= take;
                    }
                }
                below &= present;
            }
            for (b, plane) in value.iter().enumerate() {
                block[b][t % LANES] = *plane;
            }
            let slot = &mut history[t % RING];
            *slot = value;
            self.enter_side(slot, t as isize);
            if t % LANES == LANES - 1 || t == steps - 1 {
                self.flush(&mut block, t - t % LANES, out);
            }
        }
    }

    /// Writes the block of steps from `t0` to each lane's row: lane r's bit k is column
    /// t0 + k − r.
    fn flush<const B: usize>(&self, block: &mut [[u64; LANES]; B], t0: usize, out: &mut [u8]) {
        for plane in block.iter_mut() {
            transpose(plane);
        }
        for r in 0..self.h {
            let row = SlicedStencil::out_start(r, self.w) + t0 - r;
            let run = &mut out[row..row + LANES];
            for (g, bytes) in run.chunks_exact_mut(8).enumerate() {
                let mut spread = 0u64;
                for (b, plane) in block.iter().enumerate() {
                    spread |= SPREAD[(plane[r] >> (8 * g) & 0xff) as usize] << b;
                }
                bytes.copy_from_slice(&spread.to_le_bytes());
            }
        }
        for plane in block.iter_mut() {
            plane.fill(0);
        }
    }
}

/// For each byte, its bits as the low bits of eight bytes (bit k of the index is bit 0 of byte k).
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut k = 0;
        while k < 8 {
            table[i] |= ((i as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        i += 1;
    }
    table
};

/// Transposes a 64 × 64 bit matrix in place: bit c of word r becomes bit r of word c.
fn transpose(m: &mut [u64; LANES]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0;
        while k < LANES {
            // Swap the high `width` bits of word k with the low ones of word k + width.
            let swap = ((m[k] >> width) ^ m[k + width]) & mask;
            m[k] ^= swap << width;
            m[k + width] ^= swap;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn transpose_moves_bit_c_of_word_r_to_bit_r_of_word_c() {
        let mut m = [0u64; LANES];
        for (r, word) in m.iter_mut().enumerate() {
            *word = (r as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (1 << r);
        }
        let before = m;
        transpose(&mut m);
        for (r, row) in before.iter().enumerate() {
            for (c, column) in m.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "bit ({r}, {c})");
            }
        }
    }

    /// The plain loop: a table of `rows` × `cols` by mex over the steps that stay on the board.
    fn plain(steps: &[[usize; 2]], rows: usize, cols: usize) -> Vec<u8> {
        let mut t = vec![0u8; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                let mut seen = 0u32;
                for &[up, back] in steps {
                    if i >= up && j >= back {
                        seen |= 1 << t[(i - up) * cols + j - back];
                    }
                }
                t[i * cols + j] = (!seen).trailing_zeros() as u8;
            }
        }
        t
    }

    /// The strip of rows `r0..r0 + h` and columns `c0..c0 + w` of `table` swept from its
    /// surroundings.
    fn swept(
        stencil: &SlicedStencil,
        table: &[u8],
        cols: usize,
        [r0, c0, h, w]: [usize; 4],
    ) -> Vec<u8> {
        let [up, back] = stencil.reach();
        let mut top = Vec::new();
        for a in 1..=up {
            top.extend_from_slice(&table[(r0 - a) * cols + c0 - back..(r0 - a) * cols + c0 + w]);
        }
        let mut side = Vec::new();
        for r in r0..r0 + h {
            side.extend_from_slice(&table[r * cols + c0 - back..r * cols + c0]);
        }
        let mut out = vec![0xaa; SlicedStencil::out_len(h, w)];
        stencil.sweep(h, w, &top, &side, &mut out);
        (0..h)
            .flat_map(|r| {
                let start = SlicedStencil::out_start(r, w);
                out[start..start + w].to_vec()
            })
            .collect()
    }

    fn steps() -> impl Strategy<Value = Vec<[usize; 2]>> {
        prop::collection::btree_set((0usize..5, 0usize..7), 1..=7).prop_filter_map(
            "a step goes somewhere",
            |set| {
                let steps: Vec<[usize; 2]> =
                    set.into_iter().filter(|&(u, b)| u + b > 0).map(|(u, b)| [u, b]).collect();
                (!steps.is_empty()).then_some(steps)
            },
        )
    }

    proptest! {
        #[test]
        fn a_sweep_equals_the_plain_loop(
            steps in steps(),
            h in 1usize..=64,
            w in 1usize..150,
            r_extra in 0usize..3,
            c_extra in 0usize..70,
        ) {
            let stencil = SlicedStencil::new(&steps).unwrap();
            let [up, back] = stencil.reach();
            let (r0, c0) = (up + r_extra, back + c_extra);
            let (rows, cols) = (r0 + h + 2, c0 + w + 3);
            let table = plain(&steps, rows, cols);
            let strip = swept(&stencil, &table, cols, [r0, c0, h, w]);
            let expected: Vec<u8> =
                (r0..r0 + h).flat_map(|r| table[r * cols + c0..r * cols + c0 + w].to_vec()).collect();
            prop_assert_eq!(strip, expected);
        }
    }

    #[test]
    fn kiki_strips_of_every_height() {
        let steps = [[1, 0], [0, 1], [1, 1]];
        let stencil = SlicedStencil::new(&steps).unwrap();
        let table = plain(&steps, 200, 300);
        for h in [1, 2, 63, 64] {
            for (r0, c0, w) in [(1, 1, 299), (5, 40, 200), (100, 1, 64), (1, 250, 50)] {
                let strip = swept(&stencil, &table, 300, [r0, c0, h, w]);
                let expected: Vec<u8> = (r0..r0 + h)
                    .flat_map(|r| table[r * 300 + c0..r * 300 + c0 + w].to_vec())
                    .collect();
                assert_eq!(strip, expected, "rows {r0}+{h}, columns {c0}+{w}");
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_sweep() {
        assert!(SlicedStencil::new(&[]).is_none());
        assert!(SlicedStencil::new(&[[0, 0]]).is_none());
        assert!(SlicedStencil::new(&[[1, 0]; 8]).is_none());
        assert!(SlicedStencil::new(&[[20, 12]]).is_none());
        assert_eq!(SlicedStencil::new(&[[1, 0]]).unwrap().bits, 1);
        assert_eq!(SlicedStencil::new(&[[1, 0], [0, 1], [1, 1]]).unwrap().bits, 2);
        assert_eq!(SlicedStencil::new(&[[1, 0]; 4]).unwrap().bits, 3);
    }
}
