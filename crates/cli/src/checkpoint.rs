//! Checkpoints of `compute --checkpoint FILE` (with or without `--stream`): where they live. The format, and every check a
//! checkpoint must pass before it is used, are `grundy_compute::checkpoint`'s; this module owns
//! the path: reading the file, saving it atomically (temporary file, sync, rename) through
//! [`Destination`], and deleting it once the table is written. A crash (even `kill -9`) leaves
//! either the previous checkpoint or the new one, never a mixture.

use crate::derived::{Guarded, Lock};
use crate::output::{file_identity, Destination, Overwrite, Special};
use anyhow::{bail, Context, Result};
use grundy_compute::checkpoint::{CheckpointError, CheckpointErrorKind, CheckpointOf, Holds};
use grundy_compute::retrograde::Labelling;
use grundy_compute::{RingStore, RowStream, WaveMark};
use grundy_core::{Coord, Game, GrundyTable, TableShape};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

/// What a checkpoint's lock refusals name.
const GUARDED: Guarded = Guarded { what: "checkpoint", option: "--checkpoint" };

/// The checkpoint file of one run: the game and size it belongs to.
///
/// A run holds its checkpoint's lock ([`Lock`]) from start to end, so that a second run given
/// the same file is refused instead of racing the first; and it deletes only the file it saved or
/// resumed from (issue 19: a run that finished deleted another game's checkpoint).
pub(crate) struct Checkpoint {
    path: PathBuf,
    of: CheckpointOf,
    overwrite: Overwrite,
    /// Dropping it releases the lock.
    lock: std::sync::Mutex<Lock>,
    /// The identity (device, inode) of the file this run last saved or loaded.
    ours: std::sync::Mutex<Option<(u64, u64)>>,
}

impl Checkpoint {
    /// The checkpoint at `path` of `game` up to `size`, locked for this run; `overwrite` says
    /// whether a read-only file may be replaced by a save.
    ///
    /// # Errors
    /// Another run holds the checkpoint's lock, or the lock file cannot be made.
    pub(crate) fn open(
        path: &Path,
        game: &Game,
        size: &[Coord],
        overwrite: Overwrite,
    ) -> Result<Checkpoint> {
        let lock = Lock::take(path, GUARDED)?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            of: CheckpointOf::new(game, size),
            overwrite,
            lock: std::sync::Mutex::new(lock),
            ours: std::sync::Mutex::new(None),
        })
    }

    /// Takes the lock again if it was deleted by hand during the run (issue 28): a second run
    /// may have taken the checkpoint since, and then this one stops rather than race it.
    fn keep_locked(&self) -> Result<()> {
        let mut lock = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let path = lock.path().to_path_buf();
        lock.retake(&self.path, GUARDED)
            .with_context(|| format!("its lock {} was deleted during this run", path.display()))
    }

    /// Remembers the file now at the path as this run's.
    fn claim(&self) {
        *self.ours.lock().unwrap_or_else(|e| e.into_inner()) = identity(&self.path);
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The saved table and how far it is filled, or `None` if there is no checkpoint yet. `plan`
    /// is the tile-waves this run would make (`grundy_compute::TableFill::plan`).
    ///
    /// # Errors
    /// The file is not a regular file, unreadable, or refused by
    /// `grundy_compute::checkpoint::CheckpointOf::read`: never silently used or replaced.
    pub(crate) fn load(
        &self,
        shape: &TableShape,
        plan: &WaveMark,
    ) -> Result<Option<(GrundyTable, WaveMark)>> {
        self.load_with(|input| self.of.read(input, shape, plan))
    }

    /// The saved ring of a streamed run and the summary state saved with it, or `None` if there
    /// is no checkpoint yet; refused as [`Checkpoint::load`] refuses.
    pub(crate) fn load_stream(&self, stream: &RowStream) -> Result<Option<(RingStore, Vec<u8>)>> {
        self.load_with(|input| self.of.read_stream(input, stream))
    }

    /// The saved labelling of a loopy game's board of `positions` positions, or `None` if there
    /// is no checkpoint yet; refused as [`Checkpoint::load`] refuses.
    pub(crate) fn load_labels(&self, positions: usize) -> Result<Option<Labelling>> {
        self.load_with(|input| self.of.read_labels(input, positions))
    }

    fn load_with<T>(
        &self,
        read: impl FnOnce(BufReader<File>) -> Result<T, CheckpointError>,
    ) -> Result<Option<T>> {
        let refused = |why: &dyn std::fmt::Display| {
            format!("checkpoint {} refused: {why}", self.path.display())
        };
        match std::fs::metadata(&self.path) {
            Ok(meta) if !meta.is_file() => {
                bail!(refused(&"it is not a regular file (a device, FIFO or directory)"))
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
        let file = match File::open(&self.path) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| refused(&"cannot read it")),
        };
        let id = file.metadata().ok().map(|meta| file_identity(&meta));
        match read(BufReader::with_capacity(1 << 16, file)) {
            Ok(loaded) => {
                *self.ours.lock().unwrap_or_else(|e| e.into_inner()) = id;
                Ok(Some(loaded))
            }
            // A run of the other mode is resumed with or without an option of ours: say which.
            Err(err) => match err.kind() {
                CheckpointErrorKind::OtherMode { holds: Holds::Ring } => bail!(refused(
                    &"it was saved by a streamed run (--stream); resume it with --stream, or \
                      delete it to start over"
                )),
                CheckpointErrorKind::OtherMode { holds: Holds::Table } => bail!(refused(
                    &"it was saved by a run that holds the whole table; resume it without \
                      --stream, or delete it to start over"
                )),
                _ => bail!(refused(&err)),
            },
        }
    }

    /// Saves `table`, final in the tile-waves `mark` counts as done, atomically.
    pub(crate) fn save(&self, table: &GrundyTable, mark: WaveMark) -> Result<()> {
        let context = || format!("cannot save checkpoint {}", self.path.display());
        self.keep_locked().with_context(context)?;
        Destination::open(Some(&self.path), self.overwrite, Special::Refuse)
            .with_context(context)?
            .write_file_with(|file| self.of.write(file, table, mark))
            .with_context(context)?;
        self.claim();
        Ok(())
    }

    /// Saves the ring of a streamed run with `state` (the summary's sums), atomically.
    pub(crate) fn save_stream(&self, ring: &RingStore, state: &[u8]) -> Result<()> {
        let context = || format!("cannot save checkpoint {}", self.path.display());
        self.keep_locked().with_context(context)?;
        Destination::open(Some(&self.path), self.overwrite, Special::Refuse)
            .with_context(context)?
            .write_file_with(|file| self.of.write_stream(file, ring, state))
            .with_context(context)?;
        self.claim();
        Ok(())
    }

    /// Saves a loopy game's labelling after a round, atomically.
    pub(crate) fn save_labels(&self, labelling: &Labelling) -> Result<()> {
        let context = || format!("cannot save checkpoint {}", self.path.display());
        self.keep_locked().with_context(context)?;
        Destination::open(Some(&self.path), self.overwrite, Special::Refuse)
            .with_context(context)?
            .write_file_with(|file| self.of.write_labels(file, labelling))
            .with_context(context)?;
        self.claim();
        Ok(())
    }

    /// Says that a signal stopped the run before its first `wave` (a tile-wave, a row): the
    /// checkpoint is as it was.
    pub(crate) fn say_unchanged(&self, wave: &str) {
        say(&format!(
            "grundy: interrupted before any {wave}; checkpoint {} is unchanged; run the same \
             command again to resume",
            self.path.display()
        ));
    }

    /// Says that the run goes on from the checkpoint, `done` of `total` waves done.
    pub(crate) fn say_resuming(&self, done: usize, total: usize, wave: &str) {
        self.say_resuming_at(&format!("{done} of {total} {wave}s done"));
    }

    /// Says that the run goes on from the checkpoint, which holds `what`.
    pub(crate) fn say_resuming_at(&self, what: &str) {
        say(&format!("grundy: resuming from checkpoint {} ({what})", self.path.display()));
    }

    /// Says that a signal stopped the run after saving `done` of `total` waves.
    pub(crate) fn say_saved(&self, done: usize, total: usize, wave: &str) {
        self.say_saved_at(&format!("{done} of {total} {wave}s"));
    }

    /// Says that a signal stopped the run after saving `what`.
    pub(crate) fn say_saved_at(&self, what: &str) {
        say(&format!(
            "grundy: interrupted; saved {what} to checkpoint {}; run the same command again to \
             resume",
            self.path.display()
        ));
    }

    /// Deletes the checkpoint once the table it served is written, if the file is still the one
    /// this run saved or resumed from; a file that another run put there is left alone.
    pub(crate) fn remove(&self) -> Result<()> {
        let Some(ours) = *self.ours.lock().unwrap_or_else(|e| e.into_inner()) else {
            return Ok(());
        };
        if identity(&self.path) != Some(ours) {
            say(&format!(
                "grundy: checkpoint {} is no longer the one this run saved; left in place",
                self.path.display()
            ));
            return Ok(());
        }
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(err)
                .with_context(|| format!("cannot delete checkpoint {}", self.path.display())),
        }
    }
}

/// The identity of the file at `path`, if there is one.
fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|meta| file_identity(&meta))
}

/// Prints a checkpoint's note on standard error, made safe for a terminal as error lines are:
/// the file's name is the user's, and may hold escapes (issue 59: they were printed raw).
fn say(line: &str) {
    eprintln!("{}", crate::errors::printable(line));
}
