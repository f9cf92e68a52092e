//! Checkpoints of `compute --checkpoint FILE`: the finished tile-waves of a table, saved so that a
//! run with the same arguments goes on from them.
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
//! The file is written under a temporary name, synced and renamed into place, so a crash (even
//! `kill -9`) leaves either the previous checkpoint or the new one, never a mixture. A checkpoint
//! is used only when its checksum holds and its game, rules and size are the run's own; the
//! checksum is verified before the header is read.

use crate::output::{Destination, Overwrite, Special};
use anyhow::{anyhow, bail, Context, Result};
use grundy_compute::WaveMark;
use grundy_core::{read_npy, to_spec, write_npy, CellWidth, Coord, Game, GrundyTable, TableShape};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

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

/// The checkpoint file of one run: the game and size it belongs to.
pub(crate) struct Checkpoint<'a> {
    path: PathBuf,
    game: &'a Game,
    spec: String,
    size: Vec<Coord>,
    overwrite: Overwrite,
}

impl<'a> Checkpoint<'a> {
    /// The checkpoint at `path` of `game` up to `size`; `overwrite` says whether a read-only
    /// file may be replaced by a save.
    pub(crate) fn new(
        path: &Path,
        game: &'a Game,
        size: &[Coord],
        overwrite: Overwrite,
    ) -> Checkpoint<'a> {
        Checkpoint {
            path: path.to_path_buf(),
            game,
            spec: to_spec(game),
            size: size.to_vec(),
            overwrite,
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The saved table and how far it is filled, or `None` if there is no checkpoint yet. `plan`
    /// is the tile-waves this run would make (`grundy_compute::plan_waves`).
    ///
    /// # Errors
    /// The file is unreadable, not a checkpoint, damaged (its checksum fails), belongs to another
    /// game or size, or its header disagrees with `plan` (tiles, tile-waves, cell type, array
    /// shape): never silently used or replaced. A checksum is no signature, so every field is
    /// checked against what this run would write before anything is allocated by it.
    pub(crate) fn load(
        &self,
        shape: &TableShape,
        plan: &WaveMark,
    ) -> Result<Option<(GrundyTable, WaveMark)>> {
        match std::fs::metadata(&self.path) {
            Ok(meta) if !meta.is_file() => {
                bail!(self.refused("it is not a regular file (a device, FIFO or directory)"))
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
        let file = match File::open(&self.path) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| self.refused("cannot read it")),
        };
        let mut input = BufReader::with_capacity(1 << 16, file);
        let mut fixed = [0u8; 16];
        let mut got = 0;
        while got < fixed.len() {
            match input.read(&mut fixed[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err).with_context(|| self.refused("cannot read it")),
            }
        }
        if fixed[..got.min(8)] != MAGIC[..got.min(8)] || got == 0 {
            bail!(self.refused("it is not a grundy checkpoint"));
        }
        if got < 16 {
            bail!(self.refused("it is too short"));
        }
        let version = u32::from_le_bytes(fixed[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            bail!(self.refused(&format!(
                "it has format version {version}; this grundy reads version {VERSION}"
            )));
        }
        let stored_crc = u32::from_le_bytes(fixed[12..16].try_into().expect("4 bytes"));
        // The checksum before anything else is believed: a damaged header could claim any shape,
        // and reading by it could ask for any amount of memory.
        let mut hashing = Crc32Writer { inner: io::sink(), hasher: crc32fast::Hasher::new() };
        io::copy(&mut input, &mut hashing).with_context(|| self.refused("cannot read it"))?;
        self.verify(hashing.hasher.finalize(), stored_crc)?;
        input
            .seek(SeekFrom::Start(fixed.len() as u64))
            .with_context(|| self.refused("cannot read it"))?;
        let header = self.read_header(&mut input)?;
        if header.game != self.game.name() || header.spec != self.spec || header.size != self.size {
            bail!(self.refused(&format!(
                "it belongs to {} up to {}, not to {} up to {}; use another --checkpoint file, or \
                 delete this one to start over",
                header.game,
                size_text(&header.size),
                self.game.name(),
                size_text(&self.size)
            )));
        }
        if header.tile_sides != plan.tile_sides || header.waves_total != plan.total {
            bail!(self.refused(&format!(
                "it was saved with tiles of sides {:?} in {} tile-waves, but this run uses tiles \
                 of sides {:?} in {} tile-waves",
                header.tile_sides, header.waves_total, plan.tile_sides, plan.total
            )));
        }
        if header.waves_done > header.waves_total {
            bail!(self.refused(&format!(
                "it says {} of {} tile-waves are done",
                header.waves_done, header.waves_total
            )));
        }
        let width = match header.cell_bytes {
            1 => CellWidth::U8,
            2 => CellWidth::U16,
            4 => CellWidth::U32,
            other => bail!(self.refused(&format!("its header gives {other}-byte cells"))),
        };
        let table = read_npy(shape.clone(), width, &mut input)
            .map_err(|err| self.refused_error(&err.to_string()))?;
        let mark = WaveMark {
            done: header.waves_done,
            total: header.waves_total,
            tile_sides: header.tile_sides,
        };
        Ok(Some((table, mark)))
    }

    /// Reads the header after the fixed fields (whose checksum has passed).
    fn read_header(&self, input: &mut impl Read) -> Result<Header> {
        let mut len = [0u8; 4];
        input.read_exact(&mut len).map_err(|_| self.refused_error("it is too short"))?;
        let len = u32::from_le_bytes(len);
        if len > MAX_HEADER {
            bail!(self.refused(&format!("its header would be {len} bytes long")));
        }
        let mut text = vec![0; len as usize];
        input.read_exact(&mut text).map_err(|_| self.refused_error("it is too short"))?;
        serde_json::from_slice::<Header>(&text)
            .map_err(|err| self.refused_error(&format!("its header: {err}")))
    }

    fn verify(&self, computed: u32, stored: u32) -> Result<()> {
        if computed != stored {
            bail!(self.refused(&format!(
                "it is damaged (checksum {computed:08x}, expected {stored:08x}); delete it to \
                 start over"
            )));
        }
        Ok(())
    }

    fn refused(&self, why: &str) -> String {
        format!("checkpoint {} refused: {why}", self.path.display())
    }

    fn refused_error(&self, why: &str) -> anyhow::Error {
        anyhow!(self.refused(why))
    }

    /// Saves `table`, final in the tile-waves `mark` counts as done, atomically.
    pub(crate) fn save(&self, table: &GrundyTable, mark: WaveMark) -> Result<()> {
        let header = Header {
            game: self.game.name().to_string(),
            spec: self.spec.clone(),
            size: self.size.clone(),
            tile_sides: mark.tile_sides,
            waves_done: mark.done,
            waves_total: mark.total,
            cell_bytes: table.width().bytes(),
        };
        let header = serde_json::to_vec(&header).expect("the header serialises");
        // The checksum precedes the bytes it covers: a placeholder goes first, the rest is hashed
        // as it streams to the file, and the checksum is written into the placeholder at the end.
        let destination = Destination::open(Some(&self.path), self.overwrite, Special::Refuse)
            .with_context(|| format!("cannot save checkpoint {}", self.path.display()))?;
        destination
            .write_file_with(|file| {
                let mut out = BufWriter::with_capacity(1 << 16, &mut *file);
                out.write_all(MAGIC)?;
                out.write_all(&VERSION.to_le_bytes())?;
                out.write_all(&0u32.to_le_bytes())?;
                let mut body = Crc32Writer { inner: &mut out, hasher: crc32fast::Hasher::new() };
                body.write_all(&(header.len() as u32).to_le_bytes())?;
                body.write_all(&header)?;
                write_npy(table, &mut body).map_err(io::Error::other)?;
                let crc = body.hasher.finalize();
                out.flush()?;
                drop(out);
                file.seek(SeekFrom::Start(12))?;
                file.write_all(&crc.to_le_bytes())
            })
            .with_context(|| format!("cannot save checkpoint {}", self.path.display()))
    }

    /// Deletes the checkpoint once the table it served is written.
    pub(crate) fn remove(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(err)
                .with_context(|| format!("cannot delete checkpoint {}", self.path.display())),
        }
    }
}

fn size_text(size: &[Coord]) -> String {
    size.iter().map(Coord::to_string).collect::<Vec<_>>().join("x")
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
