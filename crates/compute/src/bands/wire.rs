//! The distributed fill's messages: little-endian numbers, cells in the width they are held in
//! (one byte says which), and line summaries as their words past the mex. Messages come from the
//! same program on another rank, so a malformed one is a bug: reading one panics.

use grundy_core::{with_cells, CellSlice, CellWidth, Nimber, PrefixSet};

/// A message being written.
#[derive(Default)]
pub(super) struct Wire {
    bytes: Vec<u8>,
}

impl Wire {
    pub(super) fn put(&mut self, n: u64) {
        self.bytes.extend_from_slice(&n.to_le_bytes());
    }

    pub(super) fn put_set(&mut self, set: &PrefixSet) {
        let (base, words, mex) = set.parts();
        // The words below the mex's are all ones: leave them out (a set keeps up to 32 of them).
        let skip = ((mex.0 / 64) as usize).saturating_sub(base).min(words.len());
        let (base, words) = (base + skip, &words[skip..]);
        self.put(base as u64);
        self.put(mex.0.into());
        self.put(words.len() as u64);
        for &word in words {
            self.put(word);
        }
    }

    /// The width of the cells [`Wire::put_cells`] writes next: one byte, its bytes per cell.
    pub(super) fn put_width(&mut self, width: CellWidth) {
        self.bytes.push(width.bytes() as u8);
    }

    /// `cells`, each as the little-endian bytes of its width.
    pub(super) fn put_cells(&mut self, cells: CellSlice<'_>) {
        with_cells!(cells, |cells| self.bytes.extend(cells.iter().flat_map(|v| v.to_le_bytes())));
    }

    pub(super) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// A message being read.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    pub(super) fn get(&mut self) -> u64 {
        let n = u64::from_le_bytes(self.bytes[self.at..self.at + 8].try_into().expect("8 bytes"));
        self.at += 8;
        n
    }

    /// The bytes a cell of the cells that follow takes (written by [`Wire::put_width`]), and the
    /// width that holds them.
    pub(super) fn cell_width(&mut self) -> (usize, CellWidth) {
        let bytes = usize::from(self.bytes[self.at]);
        self.at += 1;
        let width = match bytes {
            1 => CellWidth::U8,
            2 => CellWidth::U16,
            _ => CellWidth::U32,
        };
        (bytes, width)
    }

    /// `len` cells of `bytes` bytes each, appended to `row` as values.
    pub(super) fn cells_into(&mut self, bytes: usize, len: usize, row: &mut Vec<u32>) {
        let cells = &self.bytes[self.at..self.at + bytes * len];
        match bytes {
            1 => row.extend(cells.iter().map(|&b| u32::from(b))),
            2 => row
                .extend(cells.chunks_exact(2).map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))),
            _ => row.extend(
                cells.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
        }
        self.at += bytes * len;
    }

    /// Adds the summary that comes next to `set`.
    pub(super) fn union_into(&mut self, set: &mut PrefixSet) {
        let base = self.get() as usize;
        let mex = Nimber(self.get() as u32);
        let len = self.get() as usize;
        let words = &self.bytes[self.at..self.at + 8 * len];
        self.at += 8 * len;
        let words = words.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("8")));
        set.union_with_parts(base, words, mex);
    }
}

/// Where the fill starts, for the ranks other than 0: the row and, when every row is kept, the
/// rows above it.
pub(super) fn encode_start(next_row: usize, rows: &[u32]) -> Vec<u8> {
    let mut wire = Wire::default();
    wire.put(next_row as u64);
    wire.put(rows.len() as u64);
    for &v in rows {
        wire.bytes.extend_from_slice(&v.to_le_bytes());
    }
    wire.bytes
}

/// The row where the fill starts and the rows above it that [`encode_start`] wrote.
pub(super) fn decode_start(message: &[u8]) -> (usize, Vec<u32>) {
    let mut wire = Reader::new(message);
    let next_row = wire.get() as usize;
    let mut rows = Vec::new();
    let len = wire.get() as usize;
    wire.cells_into(4, len, &mut rows);
    (next_row, rows)
}
