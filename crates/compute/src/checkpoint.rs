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
//!                     cell width
//! cells               the table as a .npy array (see `grundy_core::write_npy`), to the end
//! ```
//!
//! # Trust
//! A checkpoint is used only when its checksum holds (verified over the whole stream before the
//! header is believed: a damaged header could claim any shape), its game, rules and size are the
//! run's own, and every other header field agrees with the plan the run would make (tile sides,
//! tile-wave counts, done ≤ total, the `.npy` body's type, byte order and shape). A checksum is
//! no signature: a forged body under a matching header and checksum cannot be told from a real
//! one.

use crate::WaveMark;
use grundy_core::{
    read_npy, to_spec, write_npy, CellWidth, Coord, Game, GrundyTable, NpyError, TableShape,
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
}

/// Why a checkpoint was refused.
#[derive(Debug)]
pub struct CheckpointError {
    kind: CheckpointErrorKind,
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
}

impl CheckpointError {
    fn new(kind: CheckpointErrorKind) -> CheckpointError {
        CheckpointError { kind }
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
        match &self.kind {
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
            K::OtherRun { game, size, expected_game, expected_size } => write!(
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
        let header = Header {
            game: self.game.clone(),
            spec: self.spec.clone(),
            size: self.size.clone(),
            tile_sides: mark.tile_sides,
            waves_done: mark.done,
            waves_total: mark.total,
            cell_bytes: table.width().bytes(),
        };
        let header = serde_json::to_vec(&header).map_err(io::Error::other)?;
        let start = out.stream_position()?;
        let mut buffered = BufWriter::with_capacity(1 << 16, &mut *out);
        buffered.write_all(MAGIC)?;
        buffered.write_all(&VERSION.to_le_bytes())?;
        buffered.write_all(&0u32.to_le_bytes())?;
        let mut body = Crc32Writer { inner: &mut buffered, hasher: crc32fast::Hasher::new() };
        body.write_all(&(header.len() as u32).to_le_bytes())?;
        body.write_all(&header)?;
        write_npy(table, &mut body).map_err(io::Error::other)?;
        let crc = body.hasher.finalize();
        buffered.flush()?;
        drop(buffered);
        out.seek(SeekFrom::Start(start + 12))?;
        out.write_all(&crc.to_le_bytes())?;
        out.seek(SeekFrom::End(0))?;
        Ok(())
    }

    /// Reads a checkpoint of this run from `input`: the table over `shape` and its mark, after
    /// every check in the module documentation against `plan` (the tile-waves this run would
    /// make, `crate::plan_waves`).
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
        io::copy(&mut input, &mut hashing)?;
        let computed = hashing.hasher.finalize();
        if computed != stored {
            return refuse(K::Damaged { computed, stored });
        }
        input.seek(SeekFrom::Start(fixed.len() as u64))?;
        let header = read_header(&mut input)?;
        if header.game != self.game || header.spec != self.spec || header.size != self.size {
            return refuse(K::OtherRun {
                game: header.game,
                size: header.size,
                expected_game: self.game.clone(),
                expected_size: self.size.clone(),
            });
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
        let width = match header.cell_bytes {
            1 => CellWidth::U8,
            2 => CellWidth::U16,
            4 => CellWidth::U32,
            bytes => return refuse(K::CellBytes { bytes }),
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
mod tests {
    use super::*;
    use crate::{fill_resumable, plan_waves, Control, FillConfig, NoProgress};
    use grundy_core::lookup;
    use std::io::Cursor;

    /// A checkpoint written to memory reads back as the same table and mark, and a change of
    /// one byte anywhere after the checksum is caught.
    #[test]
    fn round_trip_and_damage() {
        let game = lookup("wythoff").unwrap();
        let shape = TableShape::new(&game, &[300, 300], "300x300").unwrap();
        let config = FillConfig::default();
        let plan = plan_waves(&game, &shape, &config);
        let mut stop = |_: &GrundyTable, mark: WaveMark| {
            if mark.done == 3 {
                Control::Stop
            } else {
                Control::Continue
            }
        };
        let (table, mark) =
            fill_resumable(&game, &shape, &config, None, &NoProgress, &mut stop).unwrap();
        let of = CheckpointOf::new(&game, &[300, 300]);
        let mut bytes = Cursor::new(Vec::new());
        of.write(&mut bytes, &table, mark).unwrap();
        let bytes = bytes.into_inner();
        let (again, again_mark) = of.read(Cursor::new(&bytes), &shape, &plan).unwrap();
        assert!(again == table);
        assert_eq!(again_mark, mark);
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 1;
        let err = of.read(Cursor::new(&damaged), &shape, &plan).unwrap_err();
        assert!(matches!(err.kind(), CheckpointErrorKind::Damaged { .. }), "{err}");
        let nim = CheckpointOf::new(&lookup("nim").unwrap(), &[300, 300]);
        let err = nim.read(Cursor::new(&bytes), &shape, &plan).unwrap_err();
        assert!(err.to_string().starts_with("it belongs to wythoff up to 300x300"), "{err}");
    }
}
