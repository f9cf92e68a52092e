use crate::derived::{self, derived_path, Guarded, Lock};
use crate::load::{read_spec, spec_path};
use crate::output::{Destination, Overwrite, Special};
use crate::progress::Bar;
use anyhow::{bail, Context, Result};
use grundy_catalog::identify::Index;
use grundy_catalog::survey::{
    classify, partial_header, partial_line, read_partial, survey_member, write_rows, Computed,
    Extent, Family, RowsFormat, Timing,
};
use grundy_compute::misere::table_by_search;
use grundy_compute::Runtime;
use grundy_compute::{memory, Progress};
use grundy_core::Coord;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

/// Survey a whole family of games: compute every member, find its period (proved where a
/// theorem allows), group the members whose sequences agree, and write one row per member.
///
/// FAMILY: `octal:0.??` (every code with two digits after the point; `?` is any digit, the last
/// never 0), `octal:4.??`, `hex:0.?`; `subtraction:3-of-12` (every 3-subset of 1..=12),
/// `subtraction:any-of-6`, `subtraction:all-but-2-of-8`; or a spec file with a `[parameters]`
/// table (`k = "1..=20"`) whose names appear as `{k}` in its rules.
///
/// Examples: `grundy survey octal:0.?? --size 5000`, `grundy survey octal:0.??? --until-proved
/// --out survey.csv`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The family: `octal:0.??` (`?` is any digit, the last never 0), `octal:4.??`, `hex:0.?`,
    /// `subtraction:3-of-12` (every 3-subset of 1..=12), `subtraction:any-of-6`,
    /// `subtraction:all-but-2-of-8`, or a spec file with a `[parameters]` table whose names
    /// appear as `{k}` in its rules (and in its name). A game or a spec without parameters is
    /// a family of one; several families are surveyed together, each game once.
    #[arg(required = true, num_args = 1.., value_name = "FAMILY")]
    families: Vec<String>,
    /// The largest coordinate computed for every member (heap size, or both axes of a board);
    /// with --until-proved, where the search starts.
    #[arg(long, default_value_t = 4095, allow_hyphen_values = true)]
    size: Coord,
    /// Compute heap games until a periodicity theorem proves their period (or --limit).
    #[arg(long)]
    until_proved: bool,
    /// The play convention of every member; under misère play, misère values with the proofs
    /// that hold under it (subtraction games' window, the finite box).
    #[command(flatten)]
    play: crate::play::PlayArg,
    /// The largest heap size --until-proved computes.
    #[arg(long, requires = "until_proved", value_name = "N", default_value_t = 1 << 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    limit: u64,
    /// The most seconds each heap game's search may take: it stops at the first tile-wave
    /// after them (1024 heaps), and the member's row covers the heaps searched by then (its
    /// `values` column says how many). For surveys far out, where some members cost far more
    /// than others. Boards are computed whole.
    #[arg(long, value_name = "SECONDS", conflicts_with = "until_proved",
          value_parser = clap::value_parser!(u64).range(1..))]
    member_seconds: Option<u64>,
    /// The most seconds each misère heap game's exact search over sums may take (with
    /// --misere, for heap games whose moves leave sums): the member's row then covers the heaps
    /// searched by then (its `values` column says how many), and a note says so.
    #[arg(long, value_name = "SECONDS", default_value_t = grundy_compute::misere::SearchLimits::DEFAULT_SECONDS,
          value_parser = clap::value_parser!(u64).range(1..))]
    search_seconds: u64,
    /// Write to this file (atomically) instead of standard output; the rows done so far are kept
    /// beside it in FILE.partial until the survey completes.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing output file even if it is read-only.
    #[arg(long)]
    force: bool,
    /// `csv` (one row per member), `json` (a list of objects, the keys of `patterns --json`) or
    /// `index` (an index of known games for `grundy identify --index`: gzipped JSON lines, each
    /// class once with its proved period or its first values; how `data/known-games.jsonl.gz`
    /// is built).
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    format: Format,
    /// Go on with an interrupted survey: keep the rows in FILE.partial, compute the others.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Leave out the seconds each member took, so that the same survey writes the same bytes
    /// (for datasets with checksums).
    #[arg(long)]
    no_seconds: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Csv,
    Json,
    Index,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    // Before a family of up to 2^20 members is listed.
    if args.size < 0 {
        bail!("--size {} must be 0 or more", args.size);
    }
    let families = args
        .families
        .iter()
        .map(|text| match spec_path(text) {
            Some(path) => Ok(Family::from_template(&read_spec(path, text)?, text)?),
            None => Ok(Family::parse(text)?),
        })
        .collect::<Result<Vec<Family>>>()?;
    let mut family = Family::join(families);
    if args.play.given().is_some() {
        family.members = family.members.into_iter().map(|game| args.play.apply(game)).collect();
    }
    if args.play.is_misere() {
        family.text = format!("{} (misère)", family.text);
    }
    let extent = Extent {
        size: args.size,
        until_proved: args.until_proved.then_some(args.limit),
        seconds: args.member_seconds,
        // Recorded only when given, so that partial files of earlier surveys read back.
        search_seconds: (args.search_seconds
            != grundy_compute::misere::SearchLimits::DEFAULT_SECONDS)
            .then_some(args.search_seconds),
    };
    // The command's one pool: members run on it in parallel, each member's fill inside.
    // In an MPI job of two ranks or more, rank 0 hands out members and writes the output; the
    // other ranks compute the members they are given (the family is listed by every rank).
    #[cfg(feature = "mpi")]
    let cluster = grundy_mpi::Cluster::join();
    #[cfg(feature = "mpi")]
    if let Some(cluster) = cluster.as_ref().filter(|c| c.rank() != 0) {
        let bar = Bar::waiting(true);
        let work = |item: usize| {
            runtime
                .install(|| survey_member(runtime, &family.members[item], extent, &bar))
                .map_err(anyhow::Error::from)
                .and_then(|computed| Ok(serde_json::to_vec(&computed)?))
                // The chain on one line: rank 0 prints it as its own error line.
                .map_err(|err| crate::errors::chain(&err))
        };
        return match cluster.share(&[], work, |_, _| {}) {
            // Rank 0 says why.
            Err(grundy_mpi::ClusterError::NotStarted) => {
                Ok(ExitCode::from(crate::errors::EXIT_ERROR))
            }
            Err(err) => Err(err.into()),
            Ok(_) => Ok(ExitCode::SUCCESS),
        };
    }
    #[cfg(feature = "mpi")]
    if let Some(cluster) = &cluster {
        // Rank 0: an error before the members are handed out lets the other ranks end too;
        // one after it, they have already ended.
        return gather(&args, &family, extent, runtime, Some(cluster))
            .inspect_err(|_| cluster.end_before_sharing());
    }
    gather(
        &args,
        &family,
        extent,
        runtime,
        #[cfg(feature = "mpi")]
        None,
    )
}

/// The survey on one process, or on rank 0 of an MPI job (`cluster`): the output and the
/// partial file, the members computed here or handed out.
fn gather(
    args: &Args,
    family: &Family,
    extent: Extent,
    runtime: &Runtime,
    #[cfg(feature = "mpi")] cluster: Option<&grundy_mpi::Cluster>,
) -> Result<ExitCode> {
    let overwrite = if args.force { Overwrite::Force } else { Overwrite::IfWritable };
    // Checked before any work: an output that cannot be written is refused now.
    let destination = Destination::open(args.out.as_deref(), overwrite, Special::WriteThrough)?;
    // The rows done so far are kept beside a file output, which a second survey may not share.
    let out = args.out.as_deref().filter(|path| *path != Path::new("-"));
    let _lock = out.map(|out| Lock::take(out, GUARDED)).transpose()?;
    let partial = out.map(|out| derived_path(out, "partial"));
    let (mut done, fresh_partial) = resumed_rows(args, partial.as_deref(), family, extent)?;
    // What the finished members' values hold counts against the budget of every later member
    // (issue 28: 8 members kept 444 MB under a budget of 64 MB).
    let reserved: Mutex<Vec<memory::Reservation>> = Mutex::new(Vec::new());
    let reserve = |computed: &Computed| -> Result<()> {
        let name = format!("the values of {}", computed.row.game);
        let cells = computed.values.len() as u128;
        let reservation = runtime.memory().reserve(name, cells, 4).with_context(|| {
            format!("cannot keep the values of {} to compare members", computed.row.game)
        })?;
        reserved.lock().unwrap_or_else(|e| e.into_inner()).push(reservation);
        Ok(())
    };
    done.values().try_for_each(&reserve)?;
    let todo: Vec<usize> = (0..family.members.len())
        .filter(|&i| !done.contains_key(family.members[i].name()))
        .collect();
    let bar = Bar::counting(family.members.len() as u64, args.quiet, "members");
    bar.advance(done.len() as u64);
    let searched = todo.iter().filter(|&&i| table_by_search(&family.members[i])).count();
    if searched > 0 && !args.quiet {
        bar.note(&format!(
            "note: {searched} misère heap games are computed by the exact search over sums, each \
             for at most {} s (--search-seconds), then its row covers the heaps it reached",
            args.search_seconds
        ));
    }
    let log = open_log(partial.as_deref(), fresh_partial, family, extent)?;
    let keep = |computed: &Computed| -> Result<()> {
        reserve(computed)?;
        if let Some(note) = &computed.note {
            bar.note(&format!(
                "note: {}: {note}; its row covers its first {} values",
                computed.row.game, computed.row.values
            ));
        }
        if let Some(log) = &log {
            let line = partial_line(computed)?;
            let mut file = log.lock().expect("no writer panics holding it");
            file.write_all(line.as_bytes())
                .and_then(|()| file.flush())
                .context("cannot write the partial survey")?;
        }
        bar.advance(1);
        Ok(())
    };
    #[cfg(feature = "mpi")]
    let shared = match cluster {
        Some(cluster) => Some(share_members(cluster, &todo, &keep)?),
        None => None,
    };
    #[cfg(not(feature = "mpi"))]
    let shared: Option<Vec<Computed>> = None;
    let fresh = match shared {
        Some(fresh) => fresh,
        None => runtime.install(|| {
            todo.par_iter()
                .map(|&i| {
                    let computed = survey_member(runtime, &family.members[i], extent, &bar)?;
                    keep(&computed)?;
                    Ok(computed)
                })
                .collect::<Result<Vec<Computed>>>()
        })?,
    };
    bar.finish();
    for computed in fresh {
        done.insert(computed.row.game.clone(), computed);
    }
    let ordered: Vec<Computed> = family
        .members
        .iter()
        .map(|g| done.remove(g.name()).expect("every member is computed"))
        .collect();
    write_survey(args, family, extent, &ordered, destination)?;
    if let Some(partial) = partial {
        std::fs::remove_file(&partial)
            .with_context(|| format!("cannot delete {}", partial.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The rows an unfinished survey kept in `partial` (with `--resume`), and whether the partial
/// file starts afresh.
fn resumed_rows(
    args: &Args,
    partial: Option<&Path>,
    family: &Family,
    extent: Extent,
) -> Result<(HashMap<String, Computed>, bool)> {
    let Some(partial) = partial else { return Ok((HashMap::new(), true)) };
    if !derived::exists(partial)? {
        return Ok((HashMap::new(), true));
    }
    if !args.resume {
        bail!(
            "{} holds the rows of an unfinished survey: add --resume to go on with it, or delete \
             it",
            partial.display()
        );
    }
    Ok(match read_partial_file(partial, family, extent)? {
        Some(rows) => (rows, false),
        None => (HashMap::new(), true),
    })
}

/// The partial file each finished member's row is appended to, begun afresh (its header)
/// when `fresh`.
fn open_log(
    partial: Option<&Path>,
    fresh: bool,
    family: &Family,
    extent: Extent,
) -> Result<Option<Mutex<std::fs::File>>> {
    let Some(path) = partial else { return Ok(None) };
    let cannot = || format!("cannot write {}", path.display());
    let mut file = derived::open_to_append(path).with_context(cannot)?;
    if fresh {
        file.set_len(0).with_context(cannot)?;
        file.write_all(partial_header(family, extent)?.as_bytes()).with_context(cannot)?;
    }
    Ok(Some(Mutex::new(file)))
}

/// The finished survey, its members' rows in order, in the format asked for.
fn write_survey(
    args: &Args,
    family: &Family,
    extent: Extent,
    ordered: &[Computed],
    destination: Destination,
) -> Result<()> {
    let timing = if args.no_seconds { Timing::Omitted } else { Timing::Seconds };
    match args.format {
        Format::Csv | Format::Json => {
            let format =
                if args.format == Format::Csv { RowsFormat::Csv } else { RowsFormat::Json };
            let rows = classify(ordered);
            destination.write_with(|out| write_rows(&rows, format, timing, out))?;
        }
        Format::Index => {
            let index = Index::of_survey(&family.members, ordered, extent, built_with(args));
            destination.write_with(|out| index.write(out))?;
        }
    }
    Ok(())
}

/// How an index was built, as its header says: the command that rebuilds it.
fn built_with(args: &Args) -> String {
    let mut command = format!("grundy survey {} --size {}", args.families.join(" "), args.size);
    match args.play.given() {
        Some(grundy_core::Play::Misere) => command += " --misere",
        Some(grundy_core::Play::Normal) => command += " --play normal",
        None => {}
    }
    if args.until_proved {
        command += &format!(" --until-proved --limit {}", args.limit);
    }
    format!("{command} --format index (grundy {})", env!("CARGO_PKG_VERSION"))
}

/// Rank 0 of an MPI job: `todo` handed out to the other ranks, each result kept as it comes.
#[cfg(feature = "mpi")]
fn share_members(
    cluster: &grundy_mpi::Cluster,
    todo: &[usize],
    keep: &dyn Fn(&Computed) -> Result<()>,
) -> Result<Vec<Computed>> {
    let mut failed = None;
    let results = cluster
        .share(
            todo,
            |_| -> Result<Vec<u8>, std::convert::Infallible> { unreachable!("rank 0 hands out") },
            |_, bytes| {
                let kept = serde_json::from_slice::<Computed>(bytes)
                    .map_err(anyhow::Error::from)
                    .and_then(|computed| keep(&computed));
                if let Err(err) = kept {
                    failed.get_or_insert(err);
                }
            },
        )?
        .expect("rank 0 gathers the results");
    if let Some(err) = failed {
        return Err(err);
    }
    results.iter().map(|bytes| Ok(serde_json::from_slice(bytes)?)).collect()
}

/// What a survey output's lock refusals name.
const GUARDED: Guarded = Guarded { what: "survey output", option: "--out" };

/// The rows of an interrupted survey, from its partial file (`grundy_catalog::survey`'s
/// format and rules), or `None` when the file is empty (made, but nothing written yet).
fn read_partial_file(
    path: &Path,
    family: &Family,
    extent: Extent,
) -> Result<Option<HashMap<String, Computed>>> {
    let cannot = || format!("cannot read {}", path.display());
    let Some(file) = derived::open_to_read(path).with_context(cannot)? else {
        return Ok(None);
    };
    if file.metadata().with_context(cannot)?.len() == 0 {
        return Ok(None);
    }
    read_partial(std::io::BufReader::new(file), family, extent)
        .map(Some)
        .map_err(|err| anyhow::anyhow!("{} refused: {err}", path.display()))
}
