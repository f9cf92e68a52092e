//! When a checkpointed run saves, and how a streamed checkpoint's ring and sums are taken up
//! again: shared by the one-process runs and rank 0 of a distributed one.

use super::summary::RowSums;
use super::writers::output::Run;
use crate::checkpoint::Checkpoint;
use crate::signals;
use anyhow::{anyhow, Result};
use grundy_compute::{Control, RingStore, RowStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// When a checkpointed run saves: every `every`, and when a signal asks it to stop.
pub(super) struct Saves {
    every: Duration,
    last: Instant,
    /// The first failed save, which stopped the run.
    pub(super) saved: Result<()>,
    /// Whether a signal stopped the run (after saving).
    pub(super) stopped: bool,
}

impl Saves {
    pub(super) fn every(every: Duration) -> Saves {
        Saves { every, last: Instant::now(), saved: Ok(()), stopped: false }
    }

    /// Whether it is time to save: `every` has passed, or a signal came.
    pub(super) fn due(&self) -> bool {
        signals::interrupted() || self.last.elapsed() >= self.every
    }

    /// After a wave: saves with `save` when it is time or a signal came, and says whether to go
    /// on.
    pub(super) fn after_wave(&mut self, save: impl FnOnce() -> Result<()>) -> Control {
        let interrupted = signals::interrupted();
        if self.due() {
            if let Err(err) = save() {
                self.saved = Err(err);
                return Control::Stop;
            }
            self.last = Instant::now();
        }
        if interrupted {
            self.stopped = true;
            return Control::Stop;
        }
        Control::Continue
    }
}

/// The ring and the summary's sums a streamed checkpoint held (`loaded`), checked against each
/// other; says that the run resumes.
pub(super) fn resumed(
    run: &Run,
    stream: &RowStream,
    checkpoint: &Checkpoint,
    loaded: Option<(RingStore, Vec<u8>)>,
) -> Result<Option<(RingStore, RowSums)>> {
    let Some((ring, bytes)) = loaded else { return Ok(None) };
    let done = ring.rows_done();
    let cells = (done * run.shape.lens()[1]) as u64;
    let sums = RowSums::from_bytes(&bytes, cells).ok_or_else(|| {
        anyhow!(
            "checkpoint {} refused: its summary sums are not those of {done} rows",
            checkpoint.path().display()
        )
    })?;
    if !run.quiet {
        checkpoint.say_resuming(done, stream.plan().waves(), "row");
    }
    Ok(Some((ring, sums)))
}

/// After a checkpointed run's finished table was written (`written`): deletes the checkpoint;
/// or, when the write failed, keeps the finished table in it (`save`) so that the next run
/// writes it without computing anything, and says so (`say_saved` after a signal).
pub(super) fn after_write(
    checkpoint: &Checkpoint,
    written: Result<()>,
    save: impl FnOnce() -> Result<()>,
    say_saved: impl FnOnce(),
) -> Result<ExitCode> {
    if let Err(err) = written {
        let saved = save();
        signals::undefer();
        if signals::is_stopped(&err) && saved.is_ok() {
            say_saved();
            return Ok(ExitCode::from(signals::EXIT_INTERRUPTED));
        }
        return Err(match saved {
            Ok(()) => err.context(format!(
                "the finished table is saved in checkpoint {}",
                checkpoint.path().display()
            )),
            Err(_) => err,
        });
    }
    signals::undefer();
    checkpoint.remove()?;
    Ok(ExitCode::SUCCESS)
}
