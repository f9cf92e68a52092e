//! A loopy game's table (`grundy_compute::retrograde`): generalized Sprague–Grundy values,
//! finite or ∞, labelled round by round (from and to a checkpoint), then written by the writer
//! table's `labels` column.

use super::config::Config;
use super::saves::{after_write, Saves};
use super::writers::output::Labelled;
use crate::checkpoint::Checkpoint;
use crate::output::Destination;
use crate::progress::Bar;
use crate::signals;
use anyhow::{Context, Result};
use grundy_compute::retrograde::{Labelling, LoopyTable, RetrogradeFill};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub(super) fn run(
    config: &Config,
    fill: &RetrogradeFill<'_>,
    destination: Destination,
) -> Result<ExitCode> {
    let start = Instant::now();
    let checkpoint = config.open_checkpoint()?;
    let bar = Bar::new(config.run.shape.cells() as u64, config.run.quiet);
    let table = match &checkpoint {
        None => fill.fill(&bar).context("cannot compute the table")?,
        Some((checkpoint, every)) => match labelled(config, fill, checkpoint, *every, &bar)? {
            Some(table) => table,
            None => return Ok(ExitCode::from(signals::EXIT_INTERRUPTED)),
        },
    };
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let game = &config.run.game;
    if let (Some(w), false) = (table.hidden_descent(game), config.run.quiet) {
        eprintln!(
            "note: {} raises a coordinate, but every move lowers {}: no play goes round, so its \
             values are Sprague–Grundy values (no draws), found in one pass",
            game.name(),
            game.weighted_sum(w)
        );
    }
    let moves = table.moves() as u64;
    let acyclic = table.descent().map(|w| config.run.game.weighted_sum(w));
    // Kept for a write that fails: the next run writes it without labelling again.
    let labelling = checkpoint.is_some().then(|| table.labelling());
    let table = table.into_table(config.run.game.clone());
    let write = config.writer(|row| row.labels)?;
    let written =
        write(Labelled { run: &config.run, table: &table, moves, acyclic, seconds, destination });
    match (&checkpoint, labelling) {
        (Some((checkpoint, _)), Some(labelling)) => after_write(
            checkpoint,
            written,
            || checkpoint.save_labels(&labelling),
            || checkpoint.say_saved_at(&done_text(&labelling)),
        ),
        _ => written.map(|()| ExitCode::SUCCESS),
    }
}

/// How far a labelling is, in words: `3 rounds: 1200 of 4096 positions labelled`.
fn done_text(labelling: &Labelling) -> String {
    let rounds = labelling.rounds();
    format!(
        "{rounds} round{}: {} of {} positions labelled",
        if rounds == 1 { "" } else { "s" },
        labelling.labelled(),
        labelling.labels().len()
    )
}

/// `compute --checkpoint` of a loopy game: labels from the checkpoint if there is one, saving
/// the labelling after a round every `--checkpoint-every` seconds and when interrupted. Returns
/// `None` when a signal stopped the run (after saving and saying so). An acyclic game's one
/// pass has no rounds: it saves only a finished table that could not be written.
fn labelled(
    config: &Config,
    fill: &RetrogradeFill<'_>,
    checkpoint: &Checkpoint,
    every: Duration,
    bar: &Bar,
) -> Result<Option<LoopyTable>> {
    // From here on a signal stops the run cleanly: while the checkpoint is read, before the
    // first round (nothing to save), then after the next round.
    signals::defer();
    let start = checkpoint.load_labels(fill.positions())?;
    if signals::interrupted() {
        checkpoint.say_unchanged("round");
        return Ok(None);
    }
    if let (Some(labelling), false) = (&start, config.run.quiet) {
        checkpoint.say_resuming_at(&done_text(labelling));
    }
    let mut saves = Saves::every(every);
    let mut last = None;
    let table = fill
        .fill_resumable(start, bar, &mut |labelling| {
            last = Some(done_text(labelling));
            saves.after_wave(|| checkpoint.save_labels(labelling))
        })
        .context("cannot compute the table")?;
    saves.saved?;
    match table {
        None => {
            checkpoint.say_saved_at(last.as_deref().unwrap_or("the labelling"));
            Ok(None)
        }
        Some(table) if signals::interrupted() => {
            // It came after the last save: keep the finished labelling for the next run.
            let labelling = table.labelling();
            checkpoint.save_labels(&labelling)?;
            checkpoint.say_saved_at(&done_text(&labelling));
            Ok(None)
        }
        Some(table) => Ok(Some(table)),
    }
}
