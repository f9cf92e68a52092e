//! The checkpoint format: a partial table and its [`WaveMark`], written to and read from any
//! stream, so that every front end (the command line, a notebook) saves and resumes alike. Where
//! the bytes go — a file written atomically, its path — is the caller's business.
//!
//! # Format (version 1)
//! ```text
//! "GRUNDYCP"          8 bytes, the magic
//! version             u32, little-endian
//! crc32               u32, little-endian: CRC-32 of every byte after this field
//! header length       u32, little-endian
//! header              JSON: game name and spec, size, tile sides, tile-waves done and in all,
//!                     cell width; for a streamed fill also `stream`: rows kept, caller bytes
//! cells               the table as a .npy array (see `grundy_core::write_npy`), to the end
//! ```
//!
//! The retrograde kernel (a loopy game, [`crate::retrograde`]) saves its labelling after a
//! round: the header adds `labels: {"rounds": R}` (the rounds done), its `waves_done` and
//! `waves_total` count the positions labelled and all of them, and the body is one u32 label per
//! position, little-endian, in row-major order (a value below R, ∞ as `u32::MAX`, not yet
//! labelled as `u32::MAX - 1`). The game graph is not saved: it is rebuilt from the rules.
//!
//! A streamed fill ([`RowStream`]) saves its ring instead of a table: the waves are its rows and
//! the body is
//! ```text
//! ring                rows kept × columns u32 cells, little-endian, row i at slot i mod kept
//! 3 line stores       rows, columns, diagonals: a u64 count, then per line its first stored
//!                     word (u64), mex (u32), word count (u64) and words (u64 each)
//! caller state        the bytes the header counts (the command line keeps a summary's sums)
//! ```
//!
//! # Trust
//! A checkpoint is used only when its checksum holds (verified over the whole stream before the
//! header is believed: a damaged header could claim any shape), its game, rules and size are the
//! run's own, and every other header field agrees with the plan the run would make (tile sides,
//! tile-wave counts, done ≤ total, the `.npy` body's type, byte order and shape; for a ring, the
//! mode, the rows kept, the number of lines, and line summaries that are consistent and no larger
//! than the game's values allow). A checksum is no signature: a forged body under a matching header and checksum cannot be told from a real
//! one.

use crate::plan::WaveMark;
use crate::retrograde::Labelling;
use crate::store::RingStore;
use crate::stream::RowStream;
use grundy_core::{
    parse_spec, read_npy, to_spec, write_npy, CellWidth, Coord, Game, GrundyTable, Nimber,
    NpyError, Play, PrefixSet, TableShape,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};

const MAGIC: &[u8; 8] = b"GRUNDYCP";
const VERSION: u32 = 1;
/// A header longer than this is not one of ours (it is a few hundred bytes).
const MAX_HEADER: u32 = 1 << 20;

/// What a checkpoint says it holds.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    game: String,
    /// The rules as `grundy show` prints them: two games with one name and other rules differ.
    spec: String,
    size: Vec<Coord>,
    tile_sides: [usize; 3],
    waves_done: usize,
    waves_total: usize,
    cell_bytes: usize,
    /// Present in the checkpoints of streamed fills, whose body is a ring of rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stream: Option<StreamHeader>,
    /// Present in the checkpoints of the retrograde kernel, whose body is a labelling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    labels: Option<LabelsHeader>,
}

/// What a labelling's checkpoint adds to the header: the rounds done.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelsHeader {
    rounds: u32,
}

/// What a checkpoint holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// A partial table: a run that holds the whole table saved it.
    Table,
    /// A ring of rows and its line summaries: a streamed (or distributed) run saved it.
    Ring,
    /// A loopy game's labelling after some rounds: the retrograde kernel saved it.
    Labels,
}

/// What a streamed fill's checkpoint adds to the header.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StreamHeader {
    /// Rows kept in the ring.
    kept: usize,
    /// Bytes of the caller's own state at the end of the body (a summary's running sums).
    caller_bytes: u64,
}

/// Why a checkpoint was refused.
#[derive(Debug)]
pub struct CheckpointError {
    // Boxed: a refusal is rare, and the Ok side is what callers carry.
    kind: Box<CheckpointErrorKind>,
}

/// What is wrong with a checkpoint.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointErrorKind {
    /// Reading it failed.
    Io(io::Error),
    /// It does not start with the magic string.
    NotCheckpoint,
    /// It ends inside its fixed fields or its header.
    TooShort,
    /// It has another format version.
    Version {
        /// Its version.
        found: u32,
    },
    /// Its checksum fails.
    Damaged {
        /// The checksum of its bytes.
        computed: u32,
        /// The checksum it states.
        stored: u32,
    },
    /// Its header is malformed or too long.
    Header {
        /// What is wrong.
        message: String,
    },
    /// It belongs to another game (or the same name with other rules) or size.
    OtherRun {
        /// Its game.
        game: String,
        /// Its size.
        size: Vec<Coord>,
        /// The run's game.
        expected_game: String,
        /// The run's size.
        expected_size: Vec<Coord>,
        /// How its rules differ from the run's, when the names and sizes agree (the play
        /// convention, or other rules under the same name).
        rules: Option<String>,
    },
    /// It was saved with other tiles or another number of tile-waves than the run's plan.
    OtherPlan {
        /// Its tile sides.
        tile_sides: [usize; 3],
        /// Its tile-waves in all.
        waves: usize,
        /// The plan's tile sides.
        expected_tile_sides: [usize; 3],
        /// The plan's tile-waves in all.
        expected_waves: usize,
    },
    /// It counts more tile-waves done than there are.
    WavesDone {
        /// Tile-waves done.
        done: usize,
        /// Tile-waves in all.
        total: usize,
    },
    /// Its header gives a cell width that does not exist.
    CellBytes {
        /// The width it gives.
        bytes: usize,
    },
    /// Its table is not the `.npy` array the header announces.
    Table(NpyError),
    /// It was saved by a streamed fill and the run holds the whole table, or the other way
    /// round.
    OtherMode {
        /// What it holds.
        holds: Holds,
    },
    /// The ring of rows and line summaries of a streamed fill's checkpoint do not fit its plan.
    Ring {
        /// What is wrong.
        message: String,
    },
    /// The labelling of a retrograde checkpoint is not one of the run's board.
    Labels {
        /// What is wrong.
        message: String,
    },
}

impl CheckpointError {
    fn new(kind: CheckpointErrorKind) -> CheckpointError {
        CheckpointError { kind: Box::new(kind) }
    }

    /// What is wrong.
    pub fn kind(&self) -> &CheckpointErrorKind {
        &self.kind
    }
}

impl From<io::Error> for CheckpointError {
    fn from(err: io::Error) -> CheckpointError {
        CheckpointError::new(CheckpointErrorKind::Io(err))
    }
}

fn size_text(size: &[Coord]) -> String {
    size.iter().map(Coord::to_string).collect::<Vec<_>>().join("x")
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CheckpointErrorKind as K;
        match &*self.kind {
            K::Io(err) => write!(f, "cannot read it: {err}"),
            K::NotCheckpoint => f.write_str("it is not a grundy checkpoint"),
            K::TooShort => f.write_str("it is too short"),
            K::Version { found } => {
                write!(f, "it has format version {found}; this grundy reads version {VERSION}")
            }
            K::Damaged { computed, stored } => write!(
                f,
                "it is damaged (checksum {computed:08x}, expected {stored:08x}); delete it to \
                 start over"
            ),
            K::Header { message } => write!(f, "its header: {message}"),
            K::OtherRun { rules: Some(rules), .. } => {
                write!(f, "{rules}; use another checkpoint file, or delete this one to start over")
            }
            K::OtherRun { game, size, expected_game, expected_size, rules: None } => write!(
                f,
                "it belongs to {game} up to {}, not to {expected_game} up to {}; use another \
                 checkpoint file, or delete this one to start over",
                size_text(size),
                size_text(expected_size)
            ),
            K::OtherPlan { tile_sides, waves, expected_tile_sides, expected_waves } => write!(
                f,
                "it was saved with tiles of sides {tile_sides:?} in {waves} tile-waves, but this \
                 run uses tiles of sides {expected_tile_sides:?} in {expected_waves} tile-waves"
            ),
            K::WavesDone { done, total } => {
                write!(f, "it says {done} of {total} tile-waves are done")
            }
            K::CellBytes { bytes } => write!(f, "its header gives {bytes}-byte cells"),
            K::Table(err) => write!(f, "{err}"),
            K::OtherMode { holds: Holds::Ring } => f.write_str(
                "it was saved by a streamed run; resume it with a streamed run, or delete it to \
                 start over",
            ),
            K::OtherMode { holds: Holds::Table } => f.write_str(
                "it was saved by a run that holds the whole table; resume it with such a run, or \
                 delete it to start over",
            ),
            K::OtherMode { holds: Holds::Labels } => f.write_str(
                "it was saved by the retrograde kernel (a loopy game's labelling); delete it to \
                 start over",
            ),
            K::Ring { message } => write!(f, "its ring of rows: {message}"),
            K::Labels { message } => write!(f, "its labelling: {message}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// The run a checkpoint belongs to: a game, its rules and the size of its table.
#[derive(Clone, Debug)]
pub struct CheckpointOf {
    game: String,
    spec: String,
    size: Vec<Coord>,
}

impl CheckpointOf {
    /// The run of `game` up to `size` (the largest coordinates).
    pub fn new(game: &Game, size: &[Coord]) -> CheckpointOf {
        CheckpointOf { game: game.name().to_string(), spec: to_spec(game), size: size.to_vec() }
    }

    /// How a checkpoint of this run's game and size, saved with the rules `spec`, differs from
    /// this run: its play convention, or its rules.
    fn rules_differ(&self, spec: &str) -> String {
        let play = |spec: &str| parse_spec(spec, "a checkpoint").map(|game| game.play());
        let said = |play: Play| play.word();
        let what = format!("{} up to {}", self.game, size_text(&self.size));
        match (play(spec), play(&self.spec)) {
            (Ok(saved), Ok(run)) if saved != run => format!(
                "it was saved by a run of {what} under {} play, and this run is under {} play",
                said(saved),
                said(run)
            ),
            _ => format!("it was saved by a run of {what} with other rules under the same name"),
        }
    }

    /// Writes `table`, final in the tile-waves `mark` counts as done, to `out`. The checksum
    /// precedes the bytes it covers: a placeholder goes first, the rest is hashed as it streams,
    /// and the checksum is written into the placeholder at the end (so `out` must seek).
    ///
    /// # Errors
    /// Writing or seeking failed.
    pub fn write<W: Write + Seek>(
        &self,
        out: &mut W,
        table: &GrundyTable,
        mark: WaveMark,
    ) -> io::Result<()> {
        let header = self.header(mark, table.width().bytes(), None);
        self.write_with(out, &header, |body| write_npy(table, body).map_err(io::Error::other))
    }

    /// Writes the ring of a streamed fill and `caller`, the caller's own state (a summary's
    /// running sums, say), to `out`, as [`CheckpointOf::write`] writes a table.
    ///
    /// # Errors
    /// Writing or seeking failed.
    pub fn write_stream<W: Write + Seek>(
        &self,
        out: &mut W,
        ring: &RingStore,
        caller: &[u8],
    ) -> io::Result<()> {
        let mark = ring.plan().mark(ring.rows_done());
        let stream = StreamHeader { kept: ring.kept(), caller_bytes: caller.len() as u64 };
        let header = self.header(mark, 4, Some(stream));
        self.write_with(out, &header, |body| {
            for &cell in &ring.cells {
                body.write_all(&cell.to_le_bytes())?;
            }
            for sets in ring.lines() {
                body.write_all(&(sets.len() as u64).to_le_bytes())?;
                for set in sets {
                    let (base, words, mex) = set.parts();
                    body.write_all(&(base as u64).to_le_bytes())?;
                    body.write_all(&mex.value().to_le_bytes())?;
                    body.write_all(&(words.len() as u64).to_le_bytes())?;
                    for word in words {
                        body.write_all(&word.to_le_bytes())?;
                    }
                }
            }
            body.write_all(caller)
        })
    }

    fn header(&self, mark: WaveMark, cell_bytes: usize, stream: Option<StreamHeader>) -> Header {
        Header {
            game: self.game.clone(),
            spec: self.spec.clone(),
            size: self.size.clone(),
            tile_sides: mark.tile_sides,
            waves_done: mark.done,
            waves_total: mark.total,
            cell_bytes,
            stream,
            labels: None,
        }
    }

    /// The mark a labelling's header carries: no tiles, the positions labelled of all.
    fn labels_mark(labelled: usize, positions: usize) -> WaveMark {
        WaveMark { done: labelled, total: positions, tile_sides: [0; 3] }
    }

    /// Writes the retrograde kernel's `labelling` (a loopy game's board after some rounds) to
    /// `out`, as [`CheckpointOf::write`] writes a table. The body is one little-endian u32 label
    /// per position, in row-major order.
    ///
    /// # Errors
    /// Writing or seeking failed.
    pub fn write_labels<W: Write + Seek>(
        &self,
        out: &mut W,
        labelling: &Labelling,
    ) -> io::Result<()> {
        let labels = labelling.labels();
        let mark = Self::labels_mark(labelling.labelled(), labels.len());
        let mut header = self.header(mark, 4, None);
        header.labels = Some(LabelsHeader { rounds: labelling.rounds() });
        self.write_with(out, &header, |body| {
            for chunk in labels.chunks(1 << 14) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|l| l.to_le_bytes()).collect();
                body.write_all(&bytes)?;
            }
            Ok(())
        })
    }

    /// Reads a labelling of this run's board of `positions` positions from `input`, after the
    /// checks of [`CheckpointOf::read`] and more: one label per position, each a value below the
    /// rounds done, ∞ or not yet, and as many labelled as the header says.
    ///
    /// # Errors
    /// The input is no checkpoint, is damaged, or belongs to another run or mode.
    pub fn read_labels<R: Read + Seek>(
        &self,
        mut input: R,
        positions: usize,
    ) -> Result<Labelling, CheckpointError> {
        let labels_error =
            |message: String| CheckpointError::new(CheckpointErrorKind::Labels { message });
        // The plan's total is the positions; what was labelled is checked below.
        let plan = Self::labels_mark(0, positions);
        let header = self.verified_header(&mut input, &plan, Holds::Labels)?;
        let rounds = header.labels.expect("verified: a labelling").rounds;
        if header.cell_bytes != 4 {
            return Err(labels_error(format!("it has {}-byte labels", header.cell_bytes)));
        }
        let mut input = io::BufReader::new(input);
        let mut labels = Vec::with_capacity(positions);
        let mut bytes = [0u8; 4];
        for _ in 0..positions {
            input
                .read_exact(&mut bytes)
                .map_err(|_| CheckpointError::new(CheckpointErrorKind::TooShort))?;
            labels.push(u32::from_le_bytes(bytes));
        }
        if input.read(&mut [0u8; 1])? != 0 {
            return Err(labels_error("it has bytes after its end".to_string()));
        }
        let labelling = Labelling::restore(labels, rounds).ok_or_else(|| {
            labels_error(format!("a label is neither a value below {rounds}, ∞ nor unlabelled"))
        })?;
        if labelling.labelled() != header.waves_done {
            return Err(labels_error(format!(
                "it labels {} positions, not the {} its header says",
                labelling.labelled(),
                header.waves_done
            )));
        }
        Ok(labelling)
    }

    /// The fixed fields, `header` and the body that `body` writes, with the checksum.
    fn write_with<W: Write + Seek>(
        &self,
        out: &mut W,
        header: &Header,
        body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let header = serde_json::to_vec(header).map_err(io::Error::other)?;
        let start = out.stream_position()?;
        let mut buffered = BufWriter::with_capacity(1 << 16, &mut *out);
        buffered.write_all(MAGIC)?;
        buffered.write_all(&VERSION.to_le_bytes())?;
        buffered.write_all(&0u32.to_le_bytes())?;
        let mut hashed = Crc32Writer { inner: &mut buffered, hasher: crc32fast::Hasher::new() };
        hashed.write_all(&(header.len() as u32).to_le_bytes())?;
        hashed.write_all(&header)?;
        body(&mut hashed)?;
        let crc = hashed.hasher.finalize();
        buffered.flush()?;
        drop(buffered);
        out.seek(SeekFrom::Start(start + 12))?;
        out.write_all(&crc.to_le_bytes())?;
        out.seek(SeekFrom::End(0))?;
        Ok(())
    }

    /// Reads a checkpoint of this run from `input`: the table over `shape` and its mark, after
    /// every check in the module documentation against `plan` (the tile-waves this run would
    /// make, `crate::fill::TableFill::plan`).
    ///
    /// # Errors
    /// The input is no checkpoint, is damaged, or belongs to another run or plan.
    pub fn read<R: Read + Seek>(
        &self,
        mut input: R,
        shape: &TableShape,
        plan: &WaveMark,
    ) -> Result<(GrundyTable, WaveMark), CheckpointError> {
        use CheckpointErrorKind as K;
        let header = self.verified_header(&mut input, plan, Holds::Table)?;
        let width = match header.cell_bytes {
            1 => CellWidth::U8,
            2 => CellWidth::U16,
            4 => CellWidth::U32,
            bytes => return Err(CheckpointError::new(K::CellBytes { bytes })),
        };
        let table = read_npy(shape.clone(), width, input)
            .map_err(|err| CheckpointError::new(K::Table(err)))?;
        let mark = WaveMark {
            done: header.waves_done,
            total: header.waves_total,
            tile_sides: header.tile_sides,
        };
        Ok((table, mark))
    }

    /// Reads a streamed fill's checkpoint of this run from `input`: the ring `stream` goes on
    /// from, and the caller's own state saved with it, after the checks of
    /// [`CheckpointOf::read`] and more: the ring must be the one `stream` keeps, every line
    /// summary consistent and no larger than the game's values allow.
    ///
    /// # Errors
    /// The input is no checkpoint, is damaged, or belongs to another run, plan or mode.
    pub fn read_stream<R: Read + Seek>(
        &self,
        mut input: R,
        stream: &RowStream,
    ) -> Result<(RingStore, Vec<u8>), CheckpointError> {
        let plan = stream.plan();
        let header = self.verified_header(&mut input, &plan.start(), Holds::Ring)?;
        let ring_error =
            |message: String| CheckpointError::new(CheckpointErrorKind::Ring { message });
        let stream_header = header.stream.expect("verified: a streamed checkpoint");
        if stream_header.kept != stream.kept_rows() || header.cell_bytes != 4 {
            return Err(ring_error(format!(
                "it keeps {} rows of {}-byte cells, but this run keeps {} rows of 4-byte cells",
                stream_header.kept,
                header.cell_bytes,
                stream.kept_rows()
            )));
        }
        if stream_header.caller_bytes > u64::from(MAX_HEADER) {
            return Err(ring_error(format!(
                "it claims {} bytes of summary state",
                stream_header.caller_bytes
            )));
        }
        // The sizes a ring of this plan has: nothing larger is allocated, whatever the file says.
        let fresh = RingStore::new(plan);
        let mut input = io::BufReader::new(input);
        let short = |_| CheckpointError::new(CheckpointErrorKind::TooShort);
        let u32_at = |input: &mut io::BufReader<R>| {
            let mut bytes = [0u8; 4];
            input.read_exact(&mut bytes).map(|()| u32::from_le_bytes(bytes)).map_err(short)
        };
        let mut cells = Vec::with_capacity(fresh.cells.len());
        for _ in 0..fresh.cells.len() {
            cells.push(u32_at(&mut input)?);
        }
        let u64_at = |input: &mut io::BufReader<R>| {
            let mut bytes = [0u8; 8];
            input.read_exact(&mut bytes).map(|()| u64::from_le_bytes(bytes)).map_err(short)
        };
        let most_words = stream.value_bound() / 64 + 2;
        let mut lines: [Vec<PrefixSet>; 3] = Default::default();
        for (store, (sets, expected)) in lines.iter_mut().zip(fresh.lines()).enumerate() {
            let count = u64_at(&mut input)?;
            if count != expected.len() as u64 {
                return Err(ring_error(format!(
                    "line store {store} holds {count} lines, not {}",
                    expected.len()
                )));
            }
            for line in 0..count {
                let base = u64_at(&mut input)?;
                let mex = u32_at(&mut input)?;
                let len = u64_at(&mut input)?;
                if len > most_words || base > most_words {
                    return Err(ring_error(format!(
                        "line {line} of store {store} claims {len} words from word {base}"
                    )));
                }
                let mut words = Vec::with_capacity(len as usize);
                for _ in 0..len {
                    words.push(u64_at(&mut input)?);
                }
                let set =
                    PrefixSet::from_parts(base as usize, words, Nimber(mex)).ok_or_else(|| {
                        ring_error(format!("line {line} of store {store} is inconsistent"))
                    })?;
                sets.push(set);
            }
        }
        let mut caller = vec![0; stream_header.caller_bytes as usize];
        input.read_exact(&mut caller).map_err(short)?;
        if input.read(&mut [0u8; 1])? != 0 {
            return Err(ring_error("it has bytes after its end".to_string()));
        }
        let ring = RingStore::restore(plan, header.waves_done, cells, lines)
            .ok_or_else(|| ring_error("it does not fit this run's plan".to_string()))?;
        Ok((ring, caller))
    }

    /// Reads the fixed fields and the header, after checking the checksum over the whole input,
    /// and checks the header against this run, `plan` and what the run `holds`. Leaves
    /// `input` at the start of the body.
    fn verified_header<R: Read + Seek>(
        &self,
        input: &mut R,
        plan: &WaveMark,
        holds: Holds,
    ) -> Result<Header, CheckpointError> {
        use CheckpointErrorKind as K;
        let refuse = |kind| Err(CheckpointError::new(kind));
        let mut fixed = [0u8; 16];
        let mut got = 0;
        while got < fixed.len() {
            match input.read(&mut fixed[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err.into()),
            }
        }
        if got == 0 || fixed[..got.min(8)] != MAGIC[..got.min(8)] {
            return refuse(K::NotCheckpoint);
        }
        if got < fixed.len() {
            return refuse(K::TooShort);
        }
        let version = u32::from_le_bytes(fixed[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return refuse(K::Version { found: version });
        }
        let stored = u32::from_le_bytes(fixed[12..16].try_into().expect("4 bytes"));
        // The checksum before anything else is believed: a damaged header could claim any shape,
        // and reading by it could ask for any amount of memory.
        let mut hashing = Crc32Writer { inner: io::sink(), hasher: crc32fast::Hasher::new() };
        io::copy(input, &mut hashing)?;
        let computed = hashing.hasher.finalize();
        if computed != stored {
            return refuse(K::Damaged { computed, stored });
        }
        input.seek(SeekFrom::Start(fixed.len() as u64))?;
        let header = read_header(input)?;
        if header.game != self.game || header.spec != self.spec || header.size != self.size {
            let rules = (header.game == self.game && header.size == self.size)
                .then(|| self.rules_differ(&header.spec));
            return refuse(K::OtherRun {
                game: header.game,
                size: header.size,
                expected_game: self.game.clone(),
                expected_size: self.size.clone(),
                rules,
            });
        }
        let saved = match (&header.stream, &header.labels) {
            (Some(_), _) => Holds::Ring,
            (None, Some(_)) => Holds::Labels,
            (None, None) => Holds::Table,
        };
        if saved != holds {
            return refuse(K::OtherMode { holds: saved });
        }
        if header.tile_sides != plan.tile_sides || header.waves_total != plan.total {
            return refuse(K::OtherPlan {
                tile_sides: header.tile_sides,
                waves: header.waves_total,
                expected_tile_sides: plan.tile_sides,
                expected_waves: plan.total,
            });
        }
        if header.waves_done > header.waves_total {
            return refuse(K::WavesDone { done: header.waves_done, total: header.waves_total });
        }
        Ok(header)
    }
}

/// Reads the header after the fixed fields (whose checksum has passed).
fn read_header(input: &mut impl Read) -> Result<Header, CheckpointError> {
    let short = |_| CheckpointError::new(CheckpointErrorKind::TooShort);
    let mut len = [0u8; 4];
    input.read_exact(&mut len).map_err(short)?;
    let len = u32::from_le_bytes(len);
    if len > MAX_HEADER {
        return Err(CheckpointError::new(CheckpointErrorKind::Header {
            message: format!("it would be {len} bytes long"),
        }));
    }
    let mut text = vec![0; len as usize];
    input.read_exact(&mut text).map_err(short)?;
    serde_json::from_slice::<Header>(&text).map_err(|err| {
        CheckpointError::new(CheckpointErrorKind::Header { message: err.to_string() })
    })
}

/// A writer that hashes what passes through it.
struct Crc32Writer<W> {
    inner: W,
    hasher: crc32fast::Hasher,
}

impl<W: Write> Write for Crc32Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests;
