//! `--format summary`: one JSON object with the cells, sum, max, P-positions and seconds (and,
//! for what the table holds besides values, its own counts).

use super::output::{Finished, Genera, Labelled, Streaming};
use crate::commands::compute::summary::{RowSums, Summary};
use crate::output::write_json_line;
use crate::signals::StopOnSignal;
use anyhow::Result;
use grundy_compute::bands::{NoCuts, SoloLink};
use grundy_compute::misere::GeneraCount;
use grundy_core::{TableStats, INFINITE_LABEL};
use rayon::prelude::*;
use serde::Serialize;
use std::convert::Infallible;

/// A finished table: its sums (from the proved period when one answered the table), its records
/// and the period.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let run = out.run;
    let stats = out.answered.stats(|table| {
        // The sums in parallel, on the command's pool: a single pass over a large table costs as
        // much as filling a simple game's table.
        run.runtime.install(|| {
            grundy_core::with_cells!(table.cells(), |values| values
                .par_chunks(1 << 20)
                .map(TableStats::of)
                .reduce(|| TableStats::EMPTY, TableStats::merge))
        })
    });
    let mut summary = Summary::new(&run.game, &run.max, stats, out.seconds);
    summary.sequence = out.answered.records(&run.game);
    summary.by_period = out.answered.by_period();
    out.destination.write_with(|file| write_json_line(&mut StopOnSignal(file), &summary))
}

/// Streamed rows, summed as they come; a symmetric table mirrored, each row coming as its lower
/// half.
pub(super) fn rows(out: Streaming<'_>) -> Result<()> {
    let (run, fill) = (out.run, out.fill);
    let lower_half = fill.lower_rows();
    let mut sums = RowSums::new(TableStats::EMPTY);
    let mut sink = |row: &[u32]| {
        sums.add(row, lower_half);
        Ok::<(), Infallible>(())
    };
    let done = fill.run(&SoloLink, None, out.bar, &mut sink, &mut NoCuts);
    done.unwrap_or_else(|never| match never {});
    let seconds = out.start.elapsed().as_secs_f64();
    let summary = Summary::new(&run.game, &run.max, sums.stats, seconds);
    out.destination.write_with(|file| write_json_line(file, &summary))
}

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

/// A loopy game's table: its outcomes counted, its ∞ positions, its largest finite value.
pub(super) fn labels(out: Labelled<'_>) -> Result<()> {
    let (run, table) = (out.run, out.table);
    let mut counts = [0u64; 3];
    for i in 0..table.data().len() {
        counts[table.outcome_at(i) as usize] += 1;
    }
    let [p, n, d] = counts;
    let labels = table.data().cells().to_u32_vec();
    let summary = LoopySummary {
        game: run.game.name(),
        size: &run.max,
        engine: "retrograde",
        cells: labels.len() as u64,
        moves: out.moves,
        p_positions: p,
        n_positions: n,
        draws: d,
        infinite: labels.iter().filter(|&&l| l == INFINITE_LABEL).count() as u64,
        max: table.stats().max,
        acyclic: out.acyclic.clone(),
        seconds: out.seconds,
    };
    out.destination.write_with(|file| write_json_line(&mut StopOnSignal(file), &summary))
}

/// A misère heap game's values, with its genera counted.
pub(super) fn genera(out: Genera<'_>) -> Result<()> {
    let run = out.run;
    let stats = grundy_core::with_cells!(out.table.cells(), |cells| TableStats::of(cells));
    let mut summary = Summary::new(&run.game, &run.max, stats, out.seconds);
    summary.genera = Some(GeneraCount::of(out.rows));
    out.destination.write_with(|file| write_json_line(&mut StopOnSignal(file), &summary))
}

/// Rank 0's sums of every row, saved with the cut between bands to the checkpoint when there
/// is one (`distributed::summarise`); the checkpoint deleted once the summary is written.
#[cfg(feature = "mpi")]
pub(super) fn ranks(out: super::output::Ranked<'_>) -> Result<std::process::ExitCode> {
    use ranked::summarise;
    let run = out.run;
    let checkpoint = out.checkpoint.as_ref();
    let Some(stats) = summarise(run, out.fill, out.rows, out.link, checkpoint, out.bar)? else {
        return Ok(std::process::ExitCode::from(crate::signals::EXIT_INTERRUPTED));
    };
    let seconds = out.start.elapsed().as_secs_f64();
    let summary = Summary::new(&run.game, &run.max, stats, seconds);
    out.destination.write_with(|file| write_json_line(file, &summary))?;
    if let Some((checkpoint, _)) = out.checkpoint {
        checkpoint.remove()?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Rank 0's sums, saved with the cut between bands.
#[cfg(feature = "mpi")]
mod ranked {
    use super::super::output::Run;
    use crate::checkpoint::Checkpoint;
    use crate::commands::compute::saves::{resumed, Saves};
    use crate::commands::compute::summary::RowSums;
    use crate::progress::Bar;
    use anyhow::Result;
    use grundy_compute::bands::{BandCut, BandFill, BandsDone, Cuts, NoCuts};
    use grundy_compute::{Control, Progress, RowStream};
    use grundy_core::TableStats;
    use std::cell::Cell;
    use std::io;

    /// Rank 0 with `--format summary`: the sums of every row, saved with the cut between bands to
    /// `checkpoint` (as a streamed checkpoint, which any number of ranks, or one process with
    /// `--stream`, can resume) every `--checkpoint-every` and when a signal comes. `None` when a
    /// signal stopped the run.
    pub(super) fn summarise(
        run: &Run,
        fill: &BandFill,
        stream: Option<&RowStream>,
        link: &grundy_mpi::MpiLink,
        checkpoint: Option<&(Checkpoint, std::time::Duration)>,
        bar: &Bar,
    ) -> Result<Option<TableStats>> {
        let sums = Cell::new(RowSums::new(TableStats::EMPTY));
        let mut sink = |row: &[u32]| {
            let mut more = sums.get();
            more.add(row, false);
            sums.set(more);
            Ok::<(), io::Error>(())
        };
        let Some((checkpoint, every)) = checkpoint else {
            fill.run(link, None, bar, &mut sink, &mut NoCuts)?;
            return Ok(Some(sums.get().stats));
        };
        let stream = stream.expect("a resumable distributed fill has its stream of rows");
        let rows = run.shape.lens()[0];
        let start = resumed(run, stream, checkpoint, checkpoint.load_stream(stream)?)?.map(
            |(ring, resumed)| {
                sums.set(resumed);
                bar.advance(stream.plan().cells_done(ring.rows_done()));
                BandCut::from_ring(&ring, stream.kept_rows() - 1)
            },
        );
        let mut cuts = BandSaves { saves: Saves::every(*every), checkpoint, stream, sums: &sums };
        let done = fill.run(link, start, bar, &mut sink, &mut cuts)?;
        cuts.saves.saved?;
        match done {
            BandsDone::Complete => Ok(Some(sums.get().stats)),
            BandsDone::Stopped { next_row } => {
                bar.finish();
                checkpoint.say_saved(next_row, rows, "row");
                Ok(None)
            }
        }
    }

    /// Rank 0's cuts, saved as [`Saves`] says (every `--checkpoint-every` and on a signal, which
    /// then stops the run; a failed save stops it too, with the error) as streamed checkpoints.
    struct BandSaves<'a> {
        saves: Saves,
        checkpoint: &'a Checkpoint,
        stream: &'a RowStream,
        sums: &'a Cell<RowSums>,
    }

    impl Cuts for BandSaves<'_> {
        fn due(&mut self) -> bool {
            self.saves.due()
        }

        fn save(&mut self, cut: &BandCut) -> Control {
            let ring = cut.to_ring(self.stream.plan()).expect("a game that streams");
            let sums = self.sums.get().to_bytes();
            self.saves.after_wave(|| self.checkpoint.save_stream(&ring, &sums))
        }
    }
}
