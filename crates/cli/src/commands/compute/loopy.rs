//! A loopy game's table (`grundy_compute::retrograde`): generalized Sprague–Grundy values,
//! finite or ∞, written as CSV (`inf`, with K in the long layout's `k` column), outcomes P/N/D,
//! numpy (∞ as 4294967295, the largest uint32) or a JSON summary.

use super::config::Config;
use super::saves::{after_write, Saves};
use super::writers::LabelWriter;
use crate::checkpoint::Checkpoint;
use crate::output::{write_json_line, Destination};
use crate::progress::Bar;
use crate::signals::{self, StopOnSignal};
use anyhow::{Context, Result};
use grundy_compute::retrograde::{Labelling, LoopyTable, RetrogradeFill};
use grundy_core::{write_npy, write_table_csv, Table, INFINITE_LABEL};
use serde::Serialize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What `--format summary` says of a loopy table.
#[derive(Serialize)]
struct LoopySummary<'a> {
    game: &'a str,
    size: &'a [i64],
    engine: &'static str,
    cells: u64,
    moves: u64,
    p_positions: u64,
    n_positions: u64,
    draws: u64,
    /// Positions of value ∞ (draws, and N-positions whose K holds 0).
    infinite: u64,
    /// The largest finite value.
    max: u32,
    /// When no play can go round (every move lowers this weighted sum of the coordinates,
    /// e.g. `n + 3m`): the values were found in one pass, in waves of that sum, and are all
    /// finite.
    #[serde(skip_serializing_if = "Option::is_none")]
    acyclic: Option<String>,
    seconds: f64,
}

pub(super) fn run(
    config: &Config,
    fill: &RetrogradeFill<'_>,
    destination: Destination,
) -> Result<ExitCode> {
    let start = Instant::now();
    let checkpoint = config.open_checkpoint()?;
    let bar = Bar::new(config.shape.cells() as u64, config.quiet);
    let table = match &checkpoint {
        None => fill.fill(&bar).context("cannot compute the table")?,
        Some((checkpoint, every)) => match labelled(config, fill, checkpoint, *every, &bar)? {
            Some(table) => table,
            None => return Ok(ExitCode::from(signals::EXIT_INTERRUPTED)),
        },
    };
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let game = &config.game;
    if let (Some(w), false) = (table.hidden_descent(game), config.quiet) {
        eprintln!(
            "note: {} raises a coordinate, but every move lowers {}: no play goes round, so its \
             values are Sprague–Grundy values (no draws), found in one pass",
            game.name(),
            game.weighted_sum(w)
        );
    }
    let about = About {
        moves: table.moves() as u64,
        acyclic: table.descent().map(|w| config.game.weighted_sum(w)),
        seconds,
    };
    // Kept for a write that fails: the next run writes it without labelling again.
    let labelling = checkpoint.is_some().then(|| table.labelling());
    let table = table.into_table(config.game.clone());
    let written = write(config, &table, &about, destination);
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
    if let (Some(labelling), false) = (&start, config.quiet) {
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

/// What the summary says besides the table's cells.
struct About {
    moves: u64,
    acyclic: Option<String>,
    seconds: f64,
}

fn write(config: &Config, table: &Table, about: &About, destination: Destination) -> Result<()> {
    match config.writer(|row| row.labels)? {
        LabelWriter::Csv(layout) => destination
            .write_with(|out| write_table_csv(table, layout, config.cells, &mut StopOnSignal(out))),
        LabelWriter::Npy => destination.write_with(|out| {
            write_npy(table.data(), &mut StopOnSignal(out)).map_err(grundy_core::NpyError::into_io)
        }),
        LabelWriter::Summary => {
            let mut counts = [0u64; 3];
            for i in 0..table.data().len() {
                counts[table.outcome_at(i) as usize] += 1;
            }
            let [p, n, d] = counts;
            let labels = table.data().cells().to_u32_vec();
            let summary = LoopySummary {
                game: config.game.name(),
                size: &config.max,
                engine: "retrograde",
                cells: labels.len() as u64,
                moves: about.moves,
                p_positions: p,
                n_positions: n,
                draws: d,
                infinite: labels.iter().filter(|&&l| l == INFINITE_LABEL).count() as u64,
                max: table.stats().max,
                acyclic: about.acyclic.clone(),
                seconds: about.seconds,
            };
            destination.write_with(|out| write_json_line(&mut StopOnSignal(out), &summary))
        }
    }
}
