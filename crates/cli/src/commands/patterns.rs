use crate::load::{is_table_file, load_game, Analysis, TableArgs};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::{bail, Result};
use grundy_catalog::identify::{name_report, Index, Match, Named};
use grundy_compute::misere::{genus_period, genus_table, GeneraCount, GenusPeriod, SearchLimits};
use grundy_compute::SequenceRecords;
use grundy_compute::{Budget, Content, Runtime, Seconds};
use grundy_core::{parse_coords, CellKind};
use grundy_laws::proof::Proof;
use grundy_laws::until_proved::{ProofSearch, Search, SearchError};
use grundy_laws::{
    analyze_with,
    closed_form::{LawOptions, Laws},
    BoardReport, ErrorKind, LineReport, LoopyBoardReport, LoopyHeapReport, Report, ReportJson,
    SequenceReport, SolidReport,
};
use std::io::Write;
use std::process::ExitCode;

/// Find the laws behind a table: the period (with preperiod and saltus) of a heap game, proved
/// where a theorem allows; for boards the period and an exact rule for the P-positions and the
/// values, symmetry, separable P-sets, and the period of every row, column and diagonal. A loopy
/// game's board: where its P-positions and draws lie, and each line's outcomes (evidence).
///
/// Examples: `grundy patterns kayles --size 1000`, `grundy patterns kiki --size 200x200`,
/// `grundy patterns table.csv --json`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) table: TableArgs,
    /// Print the full report as JSON.
    #[arg(long)]
    json: bool,
    /// Compute more values of a heap game until a periodicity theorem proves its period (the
    /// Octal Periodicity Theorem, or the window of a finite subtraction game): from --size (4095
    /// by default) the size grows to what the theorem needs, at least by a quarter each round.
    #[arg(long)]
    until_proved: bool,
    /// The largest heap size --until-proved computes.
    #[arg(long, requires = "until_proved", value_name = "N", default_value_t = 1 << 27,
          value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    limit: u64,
    /// Print the misère quotient of a heap game's heaps up to --heaps (Plambeck–Siegel): its
    /// order, P-portion, a presentation, and every heap's class. Found and checked: every sum of
    /// those heaps has the outcome of its class.
    #[arg(long, requires = "heaps", conflicts_with = "until_proved")]
    misere_quotient: bool,
    /// The largest heap of --misere-quotient.
    #[arg(long, value_name = "N", requires = "misere_quotient",
          value_parser = clap::value_parser!(i64).range(0..=1 << 20))]
    heaps: Option<i64>,
    /// The seconds the search for laws (formulas, sums of games, Beatty rays) may take; past
    /// them it reports the laws found so far and where it stopped. 0 skips the search, and the
    /// check of each law on every cell that it ends with.
    #[arg(long, value_name = "SECONDS", default_value_t = LawOptions::default(),
          value_parser = crate::budget::law_seconds)]
    law_seconds: LawOptions<'static>,
    /// The seconds each proof may take (an outcome rule's, a law's; a law's within what is left
    /// of --law-seconds too); a proof that runs out says where it stopped and proves nothing.
    #[arg(long, value_name = "SECONDS",
          default_value_t = Budget::PROOF_SECONDS,
          value_parser = crate::budget::proof_seconds)]
    proof_seconds: Seconds,
    /// The seconds --misere-quotient may take before it stops with an error.
    #[arg(long, value_name = "SECONDS", requires = "misere_quotient",
          default_value_t = SearchLimits::DEFAULT_SECONDS)]
    search_seconds: u64,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    // JSON output also silences the progress bar.
    let bar = Bar::waiting(args.table.quiet || args.json);
    if args.until_proved {
        return until_proved(&args, runtime, &bar);
    }
    if let Some(last) = args.heaps.filter(|_| args.misere_quotient) {
        return misere_quotient(&args, last, runtime, &bar);
    }
    // The fill and the analyses on the command's pool, so that --threads bounds the whole
    // command.
    let (report, records, known, genera) = runtime.install(|| -> Result<_> {
        let loaded = args.table.load(runtime, &bar, Analysis::Patterns)?;
        let options = args.law_seconds.with_proof_seconds(args.proof_seconds).reporting_to(&bar);
        let report = analyze_with(&loaded, &options).map_err(|err| match err.kind() {
            ErrorKind::Axes { dims } => anyhow::anyhow!(
                "patterns analyses tables of one, two or three axes (values, not outcomes, on \
                     three); this one has {dims} (take a 2-D slice with --slice AXIS=COORD)"
            ),
            _ => anyhow::Error::from(err),
        })?;
        let known = name_report(loaded.data(), &report, Index::builtin());
        let genera = genera_of(loaded.game(), loaded.data(), runtime)?;
        Ok((report, SequenceRecords::of(loaded.game(), loaded.data()), known, genera))
    })?;
    print_report(&args, &report, records.as_ref(), None, &known, genera.as_ref())
}

fn print_loopy_heaps(out: &mut impl Write, r: &LoopyHeapReport) -> std::io::Result<()> {
    let [low, high] = r.range;
    let n = &r.axis;
    writeln!(out, "{}: {n} = {low}..={high} (loopy)", r.game)?;
    let c = &r.counts;
    writeln!(out, "outcomes:  {} P, {} N, {} D ({})", c.p, c.n, c.d, r.argument)?;
    for (what, period) in [("outcomes", &r.outcomes), ("values", &r.values)] {
        match period {
            Some(p) if p.saltus != 0 => writeln!(
                out,
                "{what}: period {} with saltus {} from {n} = {}",
                p.period, p.saltus, p.from
            )?,
            Some(p) => writeln!(out, "{what}: period {} from {n} = {}", p.period, p.from)?,
            None => writeln!(out, "{what}: no period within the range")?,
        }
    }
    for (what, heaps, count) in [("P-positions", &r.p_positions, c.p), ("draws", &r.draws, c.d)] {
        let listed: Vec<String> = heaps.iter().map(i64::to_string).collect();
        let more = if count as usize > heaps.len() { ", …" } else { "" };
        writeln!(
            out,
            "{what}: {}{more}",
            if listed.is_empty() { "none".to_string() } else { listed.join(", ") }
        )?;
    }
    Ok(())
}

fn print_loopy(out: &mut impl Write, r: &LoopyBoardReport) -> std::io::Result<()> {
    let [x, y] = &r.axes;
    let ([x0, y0], [x1, y1]) = (r.min, r.size);
    writeln!(out, "{}: {x} = {x0}..={x1}, {y} = {y0}..={y1} (loopy)", r.game)?;
    let c = &r.counts;
    writeln!(out, "outcomes:  {} P, {} N, {} D ({})", c.p, c.n, c.d, r.argument)?;
    for (what, set) in [("P-positions", &r.p_positions), ("draws", &r.draws)] {
        match (set.period, set.from) {
            (Some([p, q]), Some([a, b])) => {
                writeln!(out, "{what}: period [{p}, {q}] from ({x}, {y}) = ({a}, {b})")?;
                if let Some(rule) = &set.rule {
                    writeln!(out, "           exactly where {rule}")?;
                }
            }
            _ => writeln!(out, "{what}: no 2-D period within the board")?,
        }
    }
    writeln!(out, "lines:     the outcomes along each line (P, N, D), its period also found in the line's first three quarters")?;
    lines(out, "rows", x, y, Some(r.size[1]), &r.rows)?;
    lines(out, "columns", y, x, Some(r.size[0]), &r.columns)?;
    lines(out, "diagonals", &format!("{x} - {y}"), x, None, &r.diagonals)?;
    Ok(())
}

/// What `patterns` says of a misère heap game's genera: how far it is tame, how many heaps are
/// restive or wild, and the genus sequence's period where one is seen (evidence only).
#[derive(serde::Serialize)]
struct Genera {
    #[serde(flatten)]
    count: GeneraCount,
    period: Option<GenusPeriod>,
    /// The last heap computed.
    to: i64,
    argument: &'static str,
}

const GENUS_EVIDENCE: &str = "evidence only: the genera as far as the table reaches; no theorem is known that proves a genus sequence periodic in general";

/// The genera of a misère heap game's table (`None` for anything else), by the library's
/// exact search over the same heaps.
fn genera_of(
    game: Option<&grundy_core::Game>,
    table: &grundy_core::GrundyTable,
    runtime: &Runtime,
) -> Result<Option<Genera>> {
    let genera = |g: &&grundy_core::Game| Content::of(g) == Content::Genera;
    let Some(game) = game.filter(genera) else {
        return Ok(None);
    };
    let limits = SearchLimits::within(runtime.memory(), SearchLimits::DEFAULT_SECONDS);
    let last = table.shape().max()[0];
    let rows = genus_table(game, last, &limits, &grundy_compute::NoProgress)?;
    Ok(Some(Genera {
        count: GeneraCount::of(&rows),
        period: genus_period(&rows),
        to: last,
        argument: GENUS_EVIDENCE,
    }))
}

fn print_genera(out: &mut impl Write, genera: &Genera, axis: &str) -> std::io::Result<()> {
    let tame = match genera.count.tame_up_to {
        Some(n) if n == genera.to => format!("every heap tame up to {axis} = {n}"),
        Some(n) => format!("tame up to {axis} = {n}"),
        None => "the first heap is not tame".to_string(),
    };
    let count = &genera.count;
    writeln!(out, "genera: {tame}; {} restive, {} wild", count.restive, count.wild)?;
    match &genera.period {
        Some(p) => writeln!(
            out,
            "genus sequence: period {} from {axis} = {} (seen to {axis} = {}); {}",
            p.period, p.from, p.to, genera.argument
        ),
        None => writeln!(
            out,
            "genus sequence: no period seen three times up to {axis} = {}; {}",
            genera.to, genera.argument
        ),
    }
}

/// `patterns GAME --misere-quotient --heaps N`: the library's quotient, printed.
fn misere_quotient(args: &Args, last: i64, runtime: &Runtime, bar: &Bar) -> Result<ExitCode> {
    let source = &args.table.source;
    if is_table_file(source) {
        bail!("--misere-quotient computes a game's heaps; {source} is a table to read");
    }
    if args.table.size.is_some() {
        bail!("--misere-quotient takes its heaps from --heaps, not --size");
    }
    let game = load_game(source)?;
    let limits = SearchLimits::within(runtime.memory(), args.search_seconds);
    bar.start((last + 1).max(0) as u64);
    let quotient = grundy_play::quotient::misere_quotient(&game, last, &limits, bar)?;
    bar.finish();
    let outcome = quotient.outcome();
    let mut out = crate::output::stdout()?;
    if args.json {
        #[derive(serde::Serialize)]
        struct QuotientJson<'a> {
            game: &'a str,
            last_heap: i64,
            #[serde(flatten)]
            quotient: &'a grundy_play::quotient::OutcomeQuotient,
            changes: &'a [i64],
            argument: &'static str,
        }
        let json = QuotientJson {
            game: game.name(),
            last_heap: last,
            quotient: &outcome,
            changes: quotient.changes(),
            argument: QUOTIENT_ARGUMENT,
        };
        write_json_line(&mut out, &json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let axis = &game.axes()[0].name;
    writeln!(out, "misère quotient of {}, heaps {axis} ≤ {last}", game.name())?;
    writeln!(out, "order {}, P-portion {}", outcome.order, outcome.p_portion)?;
    let names: Vec<String> =
        outcome.generators.iter().map(|(name, heap)| format!("{name} = heap {heap}")).collect();
    writeln!(out, "generators: {}", names.join(", "))?;
    writeln!(out, "relations: {}", outcome.relations.join(", "))?;
    writeln!(out, "P-portion: {}", outcome.p_positions.join(", "))?;
    let changes: Vec<String> = quotient.changes().iter().map(i64::to_string).collect();
    writeln!(out, "presentation grows at heaps: {}", changes.join(", "))?;
    writeln!(out, "heap classes:")?;
    for row in outcome.heaps.chunks(10) {
        let cells: Vec<String> = row.iter().map(|(n, word)| format!("{n}:{word}")).collect();
        writeln!(out, "  {}", cells.join(" "))?;
    }
    writeln!(out, "{QUOTIENT_ARGUMENT}")?;
    Ok(ExitCode::SUCCESS)
}

const QUOTIENT_ARGUMENT: &str = "proved for these heaps: every sum of them has the misère outcome of its class (a finite check over the pairs of class and options' classes that every sum has); heaps beyond --heaps may change it";

/// `patterns GAME --until-proved`: rounds of computing and analysing, each larger, until the
/// period is proved or the limit is reached (`grundy_laws::until_proved`).
fn until_proved(args: &Args, runtime: &Runtime, bar: &Bar) -> Result<ExitCode> {
    let source = &args.table.source;
    if is_table_file(source) {
        bail!("--until-proved computes a game; {source} is a table to read");
    }
    let game = args.table.play.apply(load_game(source)?);
    let start = args.table.size.as_deref().map(|size| parse_coords(size, "size")).transpose()?;
    let mut search = ProofSearch::new(&game, start.map(|s| s[0]), args.limit, runtime.clone())
        .map_err(|err| match err {
            SearchError::NotHeapGame(dims) => anyhow::anyhow!(
                "--until-proved proves the periods of heap games; {} has {}",
                game.name(),
                grundy_core::counted(dims, "axis", "axes")
            ),
            SearchError::NoTheorem(why) => anyhow::anyhow!(
                "--until-proved needs a game a periodicity theorem covers, and none covers {}: \
                 {why}",
                game.name()
            ),
            err => err.into(),
        })?;
    loop {
        let shape = search.next_shape()?;
        bar.start(shape.cells() as u64);
        let found = search.round(bar)?;
        bar.finish();
        if let Some(found) = found {
            let table = search.last_table().expect("a round ran");
            let known = name_report(table, &found.report, Index::builtin());
            let records = found.records.as_ref();
            let genera = genera_of(Some(&game), table, runtime)?;
            return print_report(
                args,
                &found.report,
                records,
                Some(&found.search),
                &known,
                genera.as_ref(),
            );
        }
    }
}

/// Prints `report` as text or JSON, with the records of a heap game's sequence and how an
/// `--until-proved` search went.
fn print_report(
    args: &Args,
    report: &Report,
    records: Option<&SequenceRecords>,
    search: Option<&Search>,
    known: &Named,
    genera: Option<&Genera>,
) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if args.json {
        /// The library's report, and a misère heap game's genera.
        #[derive(serde::Serialize)]
        struct WithGenera<'a> {
            #[serde(flatten)]
            json: ReportJson<'a, Named>,
            #[serde(skip_serializing_if = "Option::is_none")]
            genera: Option<&'a Genera>,
        }
        let json = ReportJson { report, records, until_proved: search, known: Some(known) };
        write_json_line(&mut out, &WithGenera { json, genera })?;
    } else {
        match &report {
            Report::Sequence(r) => print_sequence(&mut out, r)?,
            Report::Board(r) => print_board(&mut out, r)?,
            Report::LoopyHeaps(r) => print_loopy_heaps(&mut out, r)?,
            Report::LoopyBoard(r) => print_loopy(&mut out, r)?,
            Report::Solid(r) => print_solid(&mut out, r)?,
        }
        if let Some(laws) = report.laws() {
            print_laws(&mut out, laws, report, known)?;
        }
        print_known(&mut out, report, known)?;
        if let (Some(records), Report::Sequence(r)) = (records, report) {
            writeln!(out, "{}", records.describe(&r.axis))?;
        }
        if let (Some(genera), Report::Sequence(r)) = (genera, report) {
            print_genera(&mut out, genera, &r.axis)?;
        }
        if let (Some(search), Report::Sequence(r)) = (search, report) {
            let rounds = grundy_core::counted(search.rounds, "round", "rounds");
            if r.sequence.proof.as_ref().is_some_and(Proof::is_proved) {
                writeln!(out, "until proved: {} values computed ({rounds})", search.values)?;
            } else {
                writeln!(
                    out,
                    "until proved: not proved with {} values ({rounds}); --limit {} stopped the search",
                    search.values, search.limit
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_sequence(out: &mut impl Write, r: &SequenceReport) -> std::io::Result<()> {
    let s = &r.sequence;
    let n = &r.axis;
    writeln!(out, "{}: {n} = {}..={} ({} values)", r.game, r.min, r.size[0], s.searched.length)?;
    match (s.period, s.saltus, s.preperiod, s.from) {
        (Some(p), Some(saltus), Some(e), Some(from)) => {
            let kind =
                if saltus == 0 { String::new() } else { format!(", saltus {saltus} (arithmetic)") };
            writeln!(out, "period {p}{kind}, preperiod {e}: periodic from {n} = {from}")?;
            let argument = s.proof.as_ref().map_or("no theorem was tried", Proof::argument);
            if s.proof.as_ref().is_some_and(Proof::is_proved) {
                writeln!(out, "  proved: {argument}")?;
            } else {
                writeln!(
                    out,
                    "  evidence only: the period holds on {n} = {from}..={} of the table; not proved: {argument}",
                    r.size[0]
                )?;
            }
        }
        _ => writeln!(
            out,
            "no period found (searched periods up to {} in {n} = {}..={})",
            s.searched.max_period, r.min, r.size[0]
        )?,
    }
    Ok(())
}

fn print_board(out: &mut impl Write, r: &BoardReport) -> std::io::Result<()> {
    let [x, y] = &r.axes;
    let ([x0, y0], [x1, y1]) = (r.min, r.size);
    writeln!(out, "{}: {x} = {x0}..={x1}, {y} = {y0}..={y1}", r.game)?;
    let on_table = format!("evidence only: every cell of the table ({x} <= {x1}, {y} <= {y1})");
    let period = |period: Option<[usize; 2]>, from: Option<[i64; 2]>| match (period, from) {
        (Some([p, q]), Some([a, b])) => format!(
            "period [{p}, {q}] from ({x}, {y}) = ({a}, {b}), also found in the table's first \
             three quarters on each axis; {on_table}"
        ),
        _ => "no 2-D period within the table".to_string(),
    };
    writeln!(out, "outcome:   {}", period(r.outcome.period, r.outcome.from))?;
    if let Some(rule) = &r.outcome.rule {
        writeln!(out, "           P-positions: {rule}")?;
        let argument = r.outcome.proof.as_ref().map_or("no proof was tried", Proof::argument);
        if r.outcome.proof.as_ref().is_some_and(Proof::is_proved) {
            writeln!(out, "             proved for every board: {argument}")?;
        } else {
            writeln!(out, "             {on_table}; not proved: {argument}")?;
        }
    }
    let separable = yes(r.outcome.separable);
    writeln!(out, "           separable P-set: {separable} ({on_table})")?;
    if r.cells == CellKind::Values {
        writeln!(out, "values:    {}", period(r.values.period, r.values.from))?;
        if let Some(rule) = &r.values.rule {
            writeln!(out, "           g = {rule} ({on_table}; not proved)")?;
        }
    }
    writeln!(out, "symmetric: {} ({on_table})", yes(r.symmetric))?;
    let within = "evidence only: each line as far as the table reaches, its period also found in the line's first three quarters";
    writeln!(out, "lines:     {within}")?;
    lines(out, "rows", x, y, Some(r.size[1]), &r.rows)?;
    lines(out, "columns", y, x, Some(r.size[0]), &r.columns)?;
    lines(out, "diagonals", &format!("{x} - {y}"), x, None, &r.diagonals)?;
    Ok(())
}

fn print_solid(out: &mut impl Write, r: &SolidReport) -> std::io::Result<()> {
    let ranges: Vec<String> =
        (0..3).map(|d| format!("{} = {}..={}", r.axes[d], r.min[d], r.size[d])).collect();
    writeln!(out, "{}: {}", r.game, ranges.join(", "))?;
    let on_table = "evidence only: every cell of the table";
    writeln!(
        out,
        "sum:       {} ({on_table}): the value is the xor of the three edges' values",
        yes(r.sum_of_edges)
    )?;
    writeln!(out, "edges:     each axis' heap game, the other coordinates at their minimums")?;
    for (d, edge) in r.edges.iter().enumerate() {
        let others: Vec<String> =
            (0..3).filter(|&o| o != d).map(|o| format!("{} = {}", r.axes[o], r.min[o])).collect();
        let found = match (edge.period, edge.saltus, edge.from) {
            (Some(p), Some(0), Some(from)) => format!("period {p} from {} = {from}", r.axes[d]),
            (Some(p), Some(s), Some(from)) => {
                format!("period {p}, saltus {s} from {} = {from}", r.axes[d])
            }
            _ => "no period within the table".to_string(),
        };
        writeln!(out, "  {} ({}): {found}", r.axes[d], others.join(", "))?;
    }
    Ok(())
}

/// The laws, each as the `grundy check` option and expression that confirm it.
fn print_laws(
    out: &mut impl Write,
    laws: &Laws,
    report: &Report,
    known: &Named,
) -> std::io::Result<()> {
    if laws.laws.is_empty() && laws.law_search.largest_size == 0 {
        // The search did not run (a time bound of 0 s, a table too thin); the reason follows.
        writeln!(out, "laws:      not searched")?;
    } else if laws.laws.is_empty() {
        // What was ruled out: every formula up to the size the synthesis finished, not its cap.
        let formulas = match laws.law_search.searched_size {
            Some(size) => format!("formulas of up to {size} nodes"),
            None => "equations between formulas of up to 3 nodes".to_string(),
        };
        writeln!(
            out,
            "laws:      none found ({formulas}, digits, pieces, sums of heap games or of the edges, Beatty rays, periodic rays, separable P-sets, misère corners)"
        )?;
    } else {
        writeln!(
            out,
            "laws:      each a claim for `grundy check`, checked on every cell; proved first, then fewest nodes"
        )?;
    }
    // The best law of each kind (proved, then fewest nodes); `--json` lists them all.
    let mut kinds = Vec::new();
    for law in &laws.laws {
        if kinds.contains(&law.kind) {
            continue;
        }
        kinds.push(law.kind);
        writeln!(out, "  --{} \"{}\"", law.kind.option(), law.expression)?;
        writeln!(out, "      {}", law.statement)?;
        if let Report::Board(r) = report {
            // The heap games of a sum, by name when the index knows them.
            if law.found_by.starts_with("sum of") {
                for (kind, index) in [("column", r.min[1]), ("row", r.min[0])] {
                    let named = known.lines.iter().find(|l| l.kind == kind && l.index == index);
                    if let Some(named) = named {
                        let names: Vec<&str> =
                            named.matches.iter().take(3).map(|m| m.class.as_str()).collect();
                        writeln!(out, "      the {} is known as {}", named.line, names.join(", "))?;
                    }
                }
            }
        }
        if law.proof.is_proved() {
            writeln!(out, "      proved for every board: {}", law.proof.argument())?;
        } else {
            writeln!(
                out,
                "      evidence only, on {}; not proved: {}",
                law.scope.trim_start_matches("every cell, "),
                law.proof.argument()
            )?;
        }
    }
    if laws.laws.len() > kinds.len() {
        writeln!(out, "  ... ({} longer with --json)", laws.laws.len() - kinds.len())?;
    }
    if let Some(stopped) = &laws.law_search.stopped {
        writeln!(out, "  the search stopped: {stopped}")?;
    }
    Ok(())
}

/// Lines of known games printed in text (`--json` has them all).
const SHOWN_KNOWN_LINES: usize = 12;

/// The known games the sequence or the lines are, as `octal:0.07(h - 2)`.
fn print_known(out: &mut impl Write, report: &Report, known: &Named) -> std::io::Result<()> {
    let named = |matches: &[Match], n: &str| -> String {
        let mut names: Vec<String> = matches
            .iter()
            .take(3)
            .map(|m| {
                let at = match m.shift {
                    0 => n.to_string(),
                    k if k > 0 => format!("{n} + {k}"),
                    k => format!("{n} - {}", -k),
                };
                let how = match m.to {
                    None => "proved".to_string(),
                    Some(to) => format!("agrees on {n} = {}..={to}", m.from),
                };
                format!("{}({at}), {how}", m.class)
            })
            .collect();
        if matches.len() > 3 {
            names.push(format!("{} more", matches.len() - 3));
        }
        names.join("; ")
    };
    match report {
        // A loopy game's values are in no index of Grundy values; a 3-D table's edges are not
        // looked up.
        Report::LoopyHeaps(_) | Report::LoopyBoard(_) | Report::Solid(_) => {}
        Report::Sequence(r) => match known.sequence.as_deref() {
            Some(matches) if !matches.is_empty() => {
                writeln!(out, "known as: {}", named(matches, &r.axis))?
            }
            _ => writeln!(out, "known as: no game of the index (grundy identify says more)")?,
        },
        Report::Board(r) => {
            let looked = format!(
                "{} periodic lines looked up in the index of known games{}",
                known.lines_looked_up,
                match known.lines_skipped {
                    0 => String::new(),
                    n => format!(" ({n} more not looked up)"),
                }
            );
            writeln!(out, "known lines: {} of {looked}", known.lines.len())?;
            // A diagonal is indexed by its smaller coordinate.
            let diagonal = format!("min({}, {})", r.axes[0], r.axes[1]);
            for line in known.lines.iter().take(SHOWN_KNOWN_LINES) {
                let n = match line.kind {
                    "row" => &r.axes[1],
                    "column" => &r.axes[0],
                    _ => &diagonal,
                };
                writeln!(out, "  {} = {}", line.line, named(&line.matches, n))?;
            }
            if known.lines.len() > SHOWN_KNOWN_LINES {
                writeln!(
                    out,
                    "  ... ({} more with --json)",
                    known.lines.len() - SHOWN_KNOWN_LINES
                )?;
            }
        }
    }
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Lines of a table, each shown in full when there are few long ones (a thin board's rows, the
/// point of computing one), otherwise how many are periodic and the first few. A line without a
/// period says how far a longer table must reach to show the one its end suggests.
fn lines(
    out: &mut impl Write,
    what: &str,
    index_name: &str,
    along: &str,
    end: Option<i64>,
    lines: &[LineReport],
) -> std::io::Result<()> {
    const IN_FULL: usize = 32;
    let periodic: Vec<&LineReport> = lines.iter().filter(|l| l.period.is_some()).collect();
    write!(out, "{what}: {} of {} periodic", periodic.len(), lines.len())?;
    let law = |line: &LineReport| {
        match (line.period, line.saltus, line.from) {
        (Some(p), Some(s), Some(from)) => {
            let saltus = if s == 0 { String::new() } else { format!(" saltus {s}") };
            format!("period {p}{saltus} from {along} = {from}")
        }
        _ => match line.visible_at {
            Some(at) => format!(
                "no period yet; its end suggests one that a table reaching {along} = {at} would show"
            ),
            None => match end {
                Some(end) => format!(
                    "no period yet, and its end suggests none: try a table reaching {along} = {} \
                     or more",
                    2 * end + 1
                ),
                None => "no period yet, and its end suggests none".to_string(),
            },
        },
    }
    };
    // A thin table's lines: few and long, the reason to compute such a table.
    let thin = lines.len() <= IN_FULL && lines.len() > 1 && end.is_some_and(|end| end >= 256);
    if thin {
        writeln!(out)?;
        for line in lines {
            writeln!(out, "  {index_name} = {}: {}", line.index, law(line))?;
        }
        return Ok(());
    }
    for (shown, line) in periodic.iter().enumerate() {
        if shown == 5 {
            write!(out, "; ...")?;
            break;
        }
        let separator = if shown == 0 { ":" } else { ";" };
        write!(out, "{separator} {index_name} = {}: {}", line.index, law(line))?;
    }
    let reach = lines.iter().filter_map(|l| l.visible_at);
    if let (count @ 1.., Some(at)) = (reach.clone().count(), reach.max()) {
        write!(out, "; {count} more would show a period on a table reaching {along} = {at}")?;
    }
    writeln!(out)
}
