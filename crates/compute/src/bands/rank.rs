//! A rank's part of the distributed fill: its band of tile rows, filled wave by wave, with the
//! rows it sends to and receives from its neighbours.

use super::*;

impl<'a> Rank<'a> {
    pub(super) fn new(fill: &'a BandFill, link: &'a dyn Link, start: BandCut) -> Rank<'a> {
        let cols = fill.cols;
        let start_row = start.next_row;
        let bands = (fill.rows - start_row).div_ceil(fill.band_rows());
        let mut lines = Lines::new(&fill.plan, 0);
        // Only rank 0's cut has summaries; the others get theirs from the band above.
        if start.columns.len() == lines.columns.len() {
            lines.columns = start.columns;
        }
        if start.diagonals.len() == lines.diagonals.len() {
            lines.diagonals = start.diagonals;
        }
        let held_rows = start.rows.len() / cols;
        let max = start.rows.iter().copied().max().unwrap_or(0);
        let mut held = CellVec::with_width(CellWidth::for_max(max.into()));
        held.resize(if fill.every_row { fill.rows * cols } else { held_rows * cols });
        for (at, &value) in start.rows.iter().enumerate() {
            held.set(at, Nimber(value));
        }
        Rank {
            fill,
            link,
            me: link.rank(),
            start_row,
            bands,
            held,
            first_row: start_row - held_rows,
            band_first_row: start_row,
            lines,
            next_out: 0,
            next_in: 0,
            row_buffer: Vec::new(),
        }
    }

    /// Rank 0: `band` is final (computed here, or all of it received).
    pub(super) fn known(&self, band: usize, progress: &dyn Progress) {
        if self.me == 0 {
            let (r0, r1) = self.band_span(band);
            progress.advance(((r1 - r0) * self.fill.cols) as u64);
        }
    }

    pub(super) fn owner(&self, band: usize) -> usize {
        band % self.fill.ranks
    }

    pub(super) fn band_span(&self, band: usize) -> (usize, usize) {
        let r0 = self.start_row + band * self.fill.band_rows();
        (r0, (r0 + self.fill.band_rows()).min(self.fill.rows))
    }

    /// The tile columns of band `band` (the lower half's, when mirrored).
    pub(super) fn tile_columns(&self, band: usize) -> usize {
        let w = self.fill.plan.tile_sides()[1];
        let columns = if self.fill.mirrored() { self.band_span(band).1 } else { self.fill.cols };
        columns.div_ceil(w)
    }

    /// Whether rank `rank` is sent band `band`'s rows: rank 0 for the sink, and, when every row
    /// is kept, the ranks with a later band that did not get them as edges.
    pub(super) fn gets_rows(&self, rank: usize, band: usize) -> bool {
        if rank == self.owner(band) {
            return false;
        }
        if !self.fill.every_row {
            return rank == 0;
        }
        let next_owner = (band + 1 < self.bands).then(|| self.owner(band + 1));
        let later = (band + 2..self.bands).any(|b| self.owner(b) == rank);
        next_owner != Some(rank) && (rank == 0 || later)
    }

    pub(super) fn run<E>(
        &mut self,
        progress: &dyn Progress,
        sink: &mut dyn FnMut(&[u32]) -> Result<(), E>,
        cuts: &mut dyn Cuts,
    ) -> Result<BandsDone, E> {
        let mut units = Vec::new();
        for band in (self.me..self.bands).step_by(self.fill.ranks) {
            let (r0, r1) = self.band_span(band);
            self.begin_band(band, progress);
            // Edges come from the band above's owner: none when that is this rank (one rank),
            // whose summaries and rows are the ones the edges would carry. Sending them anyway
            // queued a copy of every line summary between two bands: 1 GB of Wythoff 65536²'s
            // 2.69 GB.
            let previous_columns = match band.checked_sub(1) {
                Some(above) if self.owner(above) != self.me => self.tile_columns(above),
                _ => 0,
            };
            let mut edges_in = 0;
            if self.me == 0 && band > 0 && cuts.due() {
                // Everything above the band first: then the cut is complete.
                while edges_in < previous_columns {
                    self.apply(band - 1, Channel::Edge);
                    edges_in += 1;
                }
                if self.fill.every_row && self.owner(band - 1) != self.me {
                    self.known(band - 1, progress);
                }
                self.output(band, progress, sink)?;
                let cut = self.cut(r0);
                if cuts.save(&cut) == Control::Stop {
                    return Ok(BandsDone::Stopped { next_row: r0 });
                }
            }
            let band_height = (r1 - r0).div_ceil(self.fill.plan.tile_sides()[0]);
            let columns = self.tile_columns(band);
            for wave in 0..band_height + columns - 1 {
                // The band above, as far as this wave's top tile.
                while edges_in < previous_columns && edges_in <= wave {
                    self.apply(band - 1, Channel::Edge);
                    edges_in += 1;
                    let others = self.owner(band - 1) != self.me;
                    if edges_in == previous_columns && self.fill.every_row && others {
                        self.known(band - 1, progress);
                    }
                }
                self.units(band, wave, &mut units);
                self.fill_wave(&units);
                if let Some(column) = (wave + 1).checked_sub(band_height) {
                    if band + 1 < self.bands && self.owner(band + 1) != self.me {
                        let edge = self.edge(band, column);
                        self.link.send(self.owner(band + 1), Channel::Edge, edge);
                    }
                }
            }
            for to in 0..self.fill.ranks {
                if self.gets_rows(to, band) {
                    self.link.send(to, Channel::Rows, self.rows_message(r0, r1));
                }
            }
            if self.fill.every_row {
                self.next_in = band + 1;
                self.known(band, progress);
            }
            if self.me == 0 {
                self.output(band + 1, progress, sink)?;
            }
        }
        if self.me == 0 {
            if self.fill.every_row {
                for band in self.next_in..self.bands {
                    if self.gets_rows(0, band) {
                        self.apply(band, Channel::Rows);
                        self.known(band, progress);
                    }
                }
                self.next_in = self.bands;
            }
            self.output(self.bands, progress, sink)?;
        }
        Ok(BandsDone::Complete)
    }

    /// Makes room for `band` and takes in what it reads besides the band above's edges.
    pub(super) fn begin_band(&mut self, band: usize, progress: &dyn Progress) {
        let (r0, r1) = self.band_span(band);
        let cols = self.fill.cols;
        if self.fill.every_row {
            // Every finished band above but the last (which comes as edges).
            for earlier in self.next_in..band.saturating_sub(1) {
                if self.gets_rows(self.me, earlier) {
                    self.apply(earlier, Channel::Rows);
                    self.known(earlier, progress);
                }
            }
            self.next_in = band.saturating_sub(1).max(self.next_in);
        } else {
            // The halo rows above the band, then the band: keep what is still held of them.
            let first = r0.saturating_sub(self.fill.halo);
            let keep_from = first.max(self.first_row);
            let held_end = self.first_row + self.held_len() / cols.max(1);
            if keep_from < held_end {
                let src = (keep_from - self.first_row) * cols..(held_end - self.first_row) * cols;
                self.held.copy_within(src, (keep_from - first) * cols);
            }
            self.first_row = first;
            self.held.resize((r1 - first) * cols);
        }
        self.band_first_row = r0;
        if self.fill.plan.reads().lines.contains(&LineKind::Row) {
            self.lines.rows = vec![PrefixSet::new(); r1 - r0];
        }
    }

    pub(super) fn held_len(&self) -> usize {
        self.held.len()
    }

    /// The units of local wave `wave` of `band`: tile (t, wave − t) of the band for each of its
    /// tile rows t.
    pub(super) fn units(&self, band: usize, wave: usize, units: &mut Vec<Unit>) {
        let (r0, r1) = self.band_span(band);
        let [h, w, _] = self.fill.plan.tile_sides();
        let mirrored = self.fill.mirrored();
        units.clear();
        for t in 0..(r1 - r0).div_ceil(h) {
            let Some(column) = wave.checked_sub(t) else { break };
            let lo = [r0 + t * h, column * w, 0];
            if lo[1] >= self.fill.cols || (mirrored && lo[1] > lo[0]) {
                continue;
            }
            let hi = [(lo[0] + h).min(r1), (lo[1] + w).min(self.fill.cols), 1];
            // Mirrored tiles are square and aligned, so a tile on the diagonal starts on it.
            units.push(Unit { lo, hi, lower_only: mirrored && lo[0] == lo[1] });
        }
    }

    /// Computes `units` (one local wave) into the held cells, widening them when a value needs
    /// it.
    pub(super) fn fill_wave(&mut self, units: &[Unit]) {
        if units.is_empty() {
            return;
        }
        let first = self.first_row * self.fill.cols;
        let r0 = self.band_first_row;
        let cols = self.fill.cols;
        let mirror = self.fill.mirrored();
        let kernel = &self.fill.kernel;
        fn wave<C: Cell>(
            kernel: &StencilKernel,
            units: &[Unit],
            held: &mut CellVec,
            window: (usize, usize, usize, bool),
            lines: &mut Lines,
        ) -> Vec<(usize, Nimber)> {
            let (first, first_row, cols, mirror) = window;
            let cells = held.typed_mut::<C>().expect("the held cells' width");
            let window = Window { cells, first, first_row, cols, mirror };
            fill_window_wave(kernel, units, Executor::Rayon, window, lines).1
        }
        let window = (first, r0, cols, mirror);
        let (held, lines) = (&mut self.held, &mut self.lines);
        let overflow = match held.width() {
            CellWidth::U8 => wave::<u8>(kernel, units, held, window, lines),
            CellWidth::U16 => wave::<u16>(kernel, units, held, window, lines),
            CellWidth::U32 => wave::<u32>(kernel, units, held, window, lines),
        };
        if !overflow.is_empty() {
            let max = overflow.iter().map(|(_, v)| v.value()).max().unwrap_or(0);
            let wider = self.held.width().wider().expect("u32 cells hold every nimber");
            self.held.widen(wider.max(CellWidth::for_max(max.into())));
            for (flat, value) in overflow {
                self.held.set(flat - first, value);
            }
        }
    }

    /// Band `band`'s edge at tile column `column`.
    pub(super) fn edge(&self, band: usize, column: usize) -> Vec<u8> {
        let (r0, r1) = self.band_span(band);
        let cols = self.fill.cols;
        let w = self.fill.plan.tile_sides()[1];
        let (c0, c1) = (column * w, ((column + 1) * w).min(cols));
        let top = if self.fill.every_row { r0 } else { r1.saturating_sub(self.fill.halo) };
        let mut wire = Wire::default();
        wire.put(top as u64);
        wire.put(r1 as u64);
        wire.put(c0 as u64);
        wire.put(c1 as u64);
        self.put_cells(&mut wire, top..r1, c0..c1);
        if !self.lines.columns.is_empty() {
            for set in &self.lines.columns[c0..c1] {
                wire.put_set(set);
            }
        }
        if !self.lines.diagonals.is_empty() {
            // The diagonals through the band's last row at these columns.
            for c in c0..c1 {
                wire.put_set(&self.lines.diagonals[LineKind::Diagonal.locate(r1 - 1, c, cols)]);
            }
        }
        wire.into_bytes()
    }

    /// Band rows `r0..r1`, every column.
    pub(super) fn rows_message(&self, r0: usize, r1: usize) -> Vec<u8> {
        let mut wire = Wire::default();
        wire.put(r0 as u64);
        wire.put(r1 as u64);
        wire.put(0);
        wire.put(self.fill.cols as u64);
        self.put_cells(&mut wire, r0..r1, 0..self.fill.cols);
        wire.into_bytes()
    }

    pub(super) fn put_cells(
        &self,
        wire: &mut Wire,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
    ) {
        wire.put_width(self.held.width());
        let held = self.held.cells();
        for i in rows {
            let at = (i - self.first_row) * self.fill.cols;
            wire.put_cells(held.range(at + cols.start..at + cols.end));
        }
    }

    /// Receives the next message of `channel` from `band`'s owner and takes it in: its cells
    /// (and their mirrors), and for an edge its summaries.
    pub(super) fn apply(&mut self, band: usize, channel: Channel) {
        let message = self.link.receive(self.owner(band), channel);
        let mut wire = Reader::new(&message);
        let [r0, r1, c0, c1] = [(); 4].map(|_| wire.get() as usize);
        let (bytes, width) = wire.cell_width();
        self.held.widen(width);
        let cols = self.fill.cols;
        let mirror = self.fill.mirrored();
        let mut row = Vec::with_capacity(c1 - c0);
        for i in r0..r1 {
            row.clear();
            wire.cells_into(bytes, c1 - c0, &mut row);
            let at = (i - self.first_row) * cols;
            if !mirror {
                for (j, &value) in (c0..c1).zip(&row) {
                    self.held.set(at + j, Nimber(value));
                }
                continue;
            }
            // Only the lower half is sent as computed; each cell also goes to its mirror.
            for (j, &value) in (c0..c1).zip(&row).filter(|&(j, _)| j <= i) {
                self.held.set(at + j, Nimber(value));
                // A rank that keeps a few rows holds the mirrors inside them only.
                if j >= self.first_row {
                    self.held.set((j - self.first_row) * cols + i, Nimber(value));
                }
            }
        }
        if channel == Channel::Edge {
            if !self.lines.columns.is_empty() {
                for c in c0..c1 {
                    wire.union_into(&mut self.lines.columns[c]);
                }
            }
            if !self.lines.diagonals.is_empty() {
                for c in c0..c1 {
                    let line = LineKind::Diagonal.locate(r1 - 1, c, cols);
                    wire.union_into(&mut self.lines.diagonals[line]);
                }
            }
        }
    }

    /// Rank 0: hands the rows of every band before `until` to the sink, in order, receiving
    /// the other ranks' finished bands (when every row is kept, at the end only: until then the
    /// rows of a mirrored table are not all known).
    pub(super) fn output<E>(
        &mut self,
        until: usize,
        progress: &dyn Progress,
        sink: &mut dyn FnMut(&[u32]) -> Result<(), E>,
    ) -> Result<(), E> {
        let cols = self.fill.cols;
        if self.fill.every_row {
            // Rank 0 holds every row, but a mirrored row is only known once every later one is.
            if until < self.bands || self.next_out == self.bands {
                return Ok(());
            }
            let mut row = std::mem::take(&mut self.row_buffer);
            for i in self.start_row..self.fill.rows {
                row.clear();
                let at = i * cols;
                self.held.cells().range(at..at + cols).append_to(&mut row);
                sink(&row)?;
            }
            self.next_out = self.bands;
            self.row_buffer = row;
            return Ok(());
        }
        let mut row = std::mem::take(&mut self.row_buffer);
        while self.next_out < until.min(self.bands) {
            let band = self.next_out;
            let (r0, r1) = self.band_span(band);
            let lower = self.fill.lower_rows();
            let width = |i: usize| if lower { i + 1 } else { cols };
            if self.owner(band) == 0 {
                for i in r0..r1 {
                    row.clear();
                    let at = (i - self.first_row) * cols;
                    self.held.cells().range(at..at + width(i)).append_to(&mut row);
                    sink(&row)?;
                }
            } else {
                let message = self.link.receive(self.owner(band), Channel::Rows);
                // Past the rows and columns the message spans: the band's, every column.
                let mut wire = Reader::new(&message);
                for _ in 0..4 {
                    wire.get();
                }
                let (bytes, _) = wire.cell_width();
                for i in r0..r1 {
                    row.clear();
                    wire.cells_into(bytes, cols, &mut row);
                    row.truncate(width(i));
                    sink(&row)?;
                }
            }
            progress.advance(((r1 - r0) * cols) as u64);
            self.next_out += 1;
        }
        self.row_buffer = row;
        Ok(())
    }

    /// The cut before row `r0` (rank 0, with everything above taken in).
    pub(super) fn cut(&self, r0: usize) -> BandCut {
        let cols = self.fill.cols;
        let first = if self.fill.every_row { 0 } else { r0.saturating_sub(self.fill.halo) };
        let rows = ((first - self.first_row) * cols..(r0 - self.first_row) * cols)
            .map(|at| self.held.get(at).value())
            .collect();
        BandCut {
            next_row: r0,
            rows,
            columns: self.lines.columns.clone(),
            diagonals: self.lines.diagonals.clone(),
        }
    }
}
