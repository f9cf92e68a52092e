use crate::load::{Analysis, TableArgs};
use crate::output::{write_json_line, Destination, Overwrite, Special};
use crate::progress::Bar;
use anyhow::{anyhow, bail, Result};
use grundy_compute::bands::{NoCuts, SoloLink};
use grundy_compute::{Budget, Runtime, Seconds};
use grundy_compute::{FillRequest, Layout, PreparedFill, RequestErrorKind, Resumable, RowsTo};
use grundy_laws::conjecture::{
    check_with, CheckReport, ClaimKind, Claimed, Conjecture, RowChecker,
};
use grundy_laws::ErrorKind;
use std::io::Write;
use std::process::ExitCode;

/// Test a closed-form conjecture against a table: say whether it agrees on every cell, list the
/// first counterexamples, and prove it for every board where the game's moves allow.
///
/// Variables: the axis names (e.g. `n`, `m`), `i`, `j`, `k` for the axes, and `g` (the value, in
/// `--holds` only). Operators: `+ - * / %` (integer), comparisons, `&& || !`, parentheses;
/// functions `floor ceil sqrt abs min max xor if`; the constant `phi`.
///
/// Exit code 0 when the claim agrees, 1 when it disagrees, 2 on an error.
///
/// Examples: `grundy check kiki --size 2000x2000 --p-set "n % 2 == 1 && m % 2 == 1"`,
/// `grundy check nim --size 500x500 --values "xor(a, b)"`.
#[derive(Debug, clap::Args)]
#[command(group(
    clap::ArgGroup::new("claim").required(true).args(["p_set", "values", "holds", "draws"])
))]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) table: TableArgs,
    /// Claim: the P-positions (value 0) are exactly the cells where EXPR is true.
    #[arg(long = "p-set", value_name = "EXPR", allow_hyphen_values = true)]
    p_set: Option<String>,
    /// Claim: the Grundy value equals EXPR.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    values: Option<String>,
    /// Claim: EXPR (which may use g, the value) is true on every cell.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    holds: Option<String>,
    /// Claim (a loopy game): the draws are exactly the cells where EXPR is true.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    draws: Option<String>,
    /// The period to prove the claim with, e.g. `4x2`: a multiple of the period the expression's
    /// form shows (a period seen on a table proves nothing about the boards beyond it).
    #[arg(long, value_name = "PxQ")]
    period: Option<String>,
    /// How many counterexamples to list.
    #[arg(long, default_value_t = 10, value_name = "K")]
    show: usize,
    /// Compute the game row by row and check each row as it is final, for tables larger than
    /// memory (2-D games whose moves do not run down whole columns).
    #[arg(long)]
    stream: bool,
    /// The seconds the proof for every board may take once the claim agrees with the table; a
    /// proof that runs out says where it stopped and proves nothing.
    #[arg(long, value_name = "SECONDS", default_value_t = Budget::PROOF_SECONDS,
          value_parser = crate::budget::proof_seconds)]
    pub(crate) proof_seconds: Seconds,
    /// Write the sentences that the automatic prover decides for the claim to FILE, as a Walnut
    /// command file, so that Walnut can check them independently (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    walnut: Option<std::path::PathBuf>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Exit code for a claim that disagrees with the table.
const EXIT_DISAGREES: u8 = 1;

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let (kind, text, option) = match (&args.p_set, &args.values, &args.holds, &args.draws) {
        (Some(e), _, _, _) => (ClaimKind::PSet, e, "--p-set"),
        (_, Some(e), _, _) => (ClaimKind::Values, e, "--values"),
        (_, _, Some(e), _) => (ClaimKind::Holds, e, "--holds"),
        (_, _, _, Some(e)) => (ClaimKind::Draws, e, "--draws"),
        _ => unreachable!("clap requires one claim"),
    };
    // The library names no options: the claim is named here, after the option that gave it.
    let parse = |names: &[&str]| Conjecture::parse_named(kind, text, names, option);
    let threads = runtime.threads().clone();
    // JSON output also silences the progress bar.
    let bar = Bar::waiting(args.table.quiet || args.json);
    let walnut = args
        .walnut
        .as_deref()
        .map(|path| Destination::open(Some(path), Overwrite::Force, Special::WriteThrough))
        .transpose()?;
    if args.stream {
        let (game, shape) = args.table.game_to_stream()?;
        let axis_names: Vec<&str> = shape.axes().iter().map(|a| a.name.as_str()).collect();
        let conjecture = parse(&axis_names)?;
        let sentences = args
            .walnut
            .is_some()
            .then(|| walnut_sentences(Some(&game), &conjecture))
            .transpose()?;
        let period =
            args.period.as_deref().map(|p| parse_period(p, axis_names.len())).transpose()?;
        refuse_period(&conjecture, period.as_deref(), axis_names.len())?;
        // Every row, in order, from bands of tile rows on the command's threads.
        let layout = Layout::Streamed { rows: RowsTo::Writer, resumable: Resumable::No };
        let request =
            FillRequest { runtime: runtime.clone(), layout, ..FillRequest::new(&game, &shape) };
        let prepared = request.prepare().map_err(|err| match err.into_kind() {
            RequestErrorKind::NoStream(why) => anyhow!("cannot stream {}: {why}", game.name()),
            kind => anyhow!("{}", grundy_compute::RequestError::from(kind)),
        })?;
        prepared.check_memory(runtime.memory(), &grundy_compute::memory::Besides::NOTHING)?;
        let PreparedFill::Bands { fill, .. } = prepared else {
            unreachable!("a streamed fill in one run is bands")
        };
        let mut checker = RowChecker::new(&conjecture, &shape, args.show);
        bar.start(shape.cells() as u64);
        threads.install(|| {
            fill.run(&SoloLink, None, &bar, &mut |row| checker.feed(row), &mut NoCuts)
        })?;
        bar.finish();
        let budget = Budget::new(args.proof_seconds, &bar);
        let report = checker.finish(&game, game.name(), period.as_deref(), &budget);
        bar.finish();
        if let (Some(destination), Some(text)) = (walnut, sentences) {
            destination.write_with(|out| out.write_all(text.as_bytes()))?;
        }
        return print(&args, &report, &axis_names);
    }
    let (report, axis_names) = threads.install(|| -> Result<_> {
        let loaded = args.table.load(runtime, &bar, Analysis::None)?;
        let axis_names: Vec<String> = loaded.data().axes().iter().map(|a| a.name.clone()).collect();
        let names: Vec<&str> = axis_names.iter().map(String::as_str).collect();
        // Parse before anything else is done with the table: a bad expression is an input error.
        let conjecture = parse(&names)?;
        let period = args.period.as_deref().map(|p| parse_period(p, names.len())).transpose()?;
        refuse_period(&conjecture, period.as_deref(), names.len())?;
        let sentences =
            walnut.is_some().then(|| walnut_sentences(loaded.game(), &conjecture)).transpose()?;
        let budget = Budget::new(args.proof_seconds, &bar);
        let report = check_with(&loaded, &conjecture, period.as_deref(), args.show, &budget);
        let report = report.map_err(|err| match err.kind() {
            ErrorKind::LoopyPeriod { table } => {
                anyhow::anyhow!("--period: no theorem proves a claim about {table}'s board")
            }
            ErrorKind::OutcomesOnly { table } => {
                anyhow::anyhow!(
                    "{table} holds only outcomes (P/N); {option} needs a table of values"
                )
            }
            _ => anyhow::Error::from(err),
        })?;
        if let (Some(destination), Some(text)) = (walnut, sentences) {
            destination.write_with(|out| out.write_all(text.as_bytes()))?;
        }
        Ok((report, axis_names))
    })?;
    bar.finish();
    let names: Vec<&str> = axis_names.iter().map(String::as_str).collect();
    print(&args, &report, &names)
}

/// The Walnut command file of the claim's sentences, or why the automata do not take it.
fn walnut_sentences(game: Option<&grundy_core::Game>, conjecture: &Conjecture) -> Result<String> {
    let game = game.ok_or_else(|| {
        anyhow!("--walnut: the game's rules are not known for this table (read from a file)")
    })?;
    conjecture
        .walnut(game)
        .map_err(|why| anyhow!("--walnut: the automata do not take this claim: {why}"))
}

/// Prints `report` as text or JSON; the exit code says whether the claim agreed.
fn print(args: &Args, report: &CheckReport, axis_names: &[&str]) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if args.json {
        write_json_line(&mut out, report)?;
    } else {
        print_report(&mut out, report, axis_names)?;
    }
    Ok(if report.disagreements == 0 { ExitCode::SUCCESS } else { ExitCode::from(EXIT_DISAGREES) })
}

/// Refuses a `--period` that cannot be the claim's (before the table is computed).
fn refuse_period(conjecture: &Conjecture, period: Option<&[u64]>, dims: usize) -> Result<()> {
    match period.and_then(|p| conjecture.refuse_period(p, dims)) {
        Some(why) => bail!("--period: {why}"),
        None => Ok(()),
    }
}

fn parse_period(text: &str, dims: usize) -> Result<Vec<u64>> {
    let parts: Vec<u64> = text
        .split('x')
        .map(|p| p.parse::<u64>().ok().filter(|&p| p >= 1 && p < grundy_core::COORD_LIMIT as u64))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            anyhow::anyhow!(
                "malformed period `{text}`: write whole numbers from 1 to 2^31 - 1 such as 2x2"
            )
        })?;
    if parts.len() != dims {
        let (parts, axes) = (
            grundy_core::counted(parts.len(), "part", "parts"),
            grundy_core::counted(dims, "axis", "axes"),
        );
        bail!("period `{text}` has {parts} but the table has {axes}");
    }
    Ok(parts)
}

fn print_report(out: &mut impl Write, r: &CheckReport, axis_names: &[&str]) -> std::io::Result<()> {
    let size: Vec<String> = r.size.iter().map(i64::to_string).collect();
    let claim = match r.claim {
        ClaimKind::PSet => format!("the P-positions are exactly where {}", r.expression),
        ClaimKind::Values => format!("g = {}", r.expression),
        ClaimKind::Holds => format!("{} on every cell", r.expression),
        ClaimKind::Draws => format!("the draws are exactly where {}", r.expression),
    };
    writeln!(out, "{} up to {}: {claim}", r.game, size.join("x"))?;
    if r.disagreements == 0 {
        writeln!(out, "agrees on all {} cells", r.cells)?;
    } else {
        writeln!(out, "disagrees on {} of {} cells", r.disagreements, r.cells)?;
        if !r.counterexamples.is_empty() {
            writeln!(out, "first counterexamples ({}, value, claim):", axis_names.join(", "))?;
        }
        for c in &r.counterexamples {
            let pos: Vec<String> = c.position.iter().map(i64::to_string).collect();
            // A loopy game's ∞ is `inf`; its counterexamples name what the position is.
            let value = if c.value == u32::MAX { "inf".to_string() } else { c.value.to_string() };
            let actual = match (r.claim, c.claimed) {
                (ClaimKind::PSet, Claimed::Outcome("N or D")) => format!("{value} (P)"),
                (ClaimKind::PSet, Claimed::Outcome("P")) if c.value == u32::MAX => {
                    format!("{value} (N or D)")
                }
                (ClaimKind::PSet, _) => {
                    format!("{value} ({})", if c.value == 0 { "P" } else { "N" })
                }
                (ClaimKind::Draws, Claimed::Outcome("P or N")) => format!("{value} (D)"),
                (ClaimKind::Draws, _) => format!("{value} (P or N)"),
                _ => value,
            };
            writeln!(out, "  ({}): {actual}, claim says {}", pos.join(", "), c.claimed)?;
        }
    }
    let verdict =
        if r.proof.is_proved() { "proved for every board" } else { "not proved for every board" };
    writeln!(out, "{verdict}: {}", r.proof.argument())
}
