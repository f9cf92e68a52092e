use crate::errors::printable;
use crate::load::{is_table_file, load_game, read_table_file, spec_path};
use crate::provenance;
use anyhow::{bail, Context, Result};
use grundy_compute::Runtime;
use grundy_core::{CellKind, Provenance, Table, TableShape, ValuesDigest};
use std::io::Write;
use std::process::ExitCode;

/// Print the spec (TOML) of GAME: a catalog game, a parameterised name such as `subtraction:2,5`,
/// or a spec file. Save it, edit it, and pass the file as GAME to any command.
///
/// Given a table FILE written by `grundy compute` (.csv, .csv.gz, .npy, .b, or a sidecar
/// FILE.json), print where it came from (its provenance: the rules, the program, the command,
/// the date, the engine) and check it against the file: the values' checksum, what the cells
/// hold, the size, the rules (their fingerprint, and the table computed again from them when it
/// is small, or with --recompute) and the record's own checksum. A file or record changed since
/// fails, naming what differs; what the file cannot show is listed as not checked.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`), a path to a spec file, or a table file.
    game: String,
    /// For a table file: print the provenance record as JSON (after the check).
    #[arg(long)]
    json: bool,
    /// For a table file: compute the table again from the rules in its provenance and compare,
    /// however large it is (tables of up to 2^20 cells are computed again anyway).
    #[arg(long)]
    recompute: bool,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    // A sidecar names its table: `t.npy.json` is the provenance of `t.npy`.
    let table = args.game.strip_suffix(".json").filter(|table| is_table_file(table));
    if let Some(table) = table.or(is_table_file(&args.game).then_some(args.game.as_str())) {
        return show_table(table, args.json, args.recompute, runtime);
    }
    if args.json || args.recompute {
        let option = if args.json { "--json prints" } else { "--recompute checks" };
        bail!("{option} a table file's provenance; {} is a game", args.game);
    }
    // Check the game first: a spec file that does not parse is an error, not something to echo.
    let game = load_game(&args.game)?;
    let text = match (spec_path(&args.game), grundy_core::game::catalog_spec(&args.game)) {
        (Some(path), _) => {
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", args.game))?
        }
        (None, Some(text)) => text.to_string(),
        (None, None) => grundy_core::to_spec(&game),
    };
    crate::output::stdout()?.write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The provenance of the table file `path`, checked against the file: every field that the
/// file can show is compared with it, and what it cannot show is named.
fn show_table(path: &str, json: bool, recompute: bool, runtime: &Runtime) -> Result<ExitCode> {
    let record = provenance::read(path, runtime.memory())?;
    let table = read_table_file(path, runtime)?;
    let audit = audit(path, &record, &table, recompute, runtime)?;
    let mut out = crate::output::stdout()?;
    if json {
        writeln!(out, "{}", record.to_json_pretty())?;
    } else {
        write_record(&mut out, path, &record, &audit)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Tables of at most this many cells are recomputed from the record's rules by default: a
/// second or so at most.
const RECOMPUTED_CELLS: u128 = 1 << 20;

/// What a record was checked against, and what could not be.
struct Audit {
    checked: Vec<String>,
    not_checked: Vec<String>,
}

/// Checks `record` against `table`, read from `path`: the values' checksum, what the cells hold,
/// the size, the rules (their fingerprint, their name, and the values recomputed from them when
/// the table is small or `recompute` asks), and the record's own checksum. The first field that
/// disagrees is an error naming it.
fn audit(
    path: &str,
    record: &Provenance,
    table: &Table,
    recompute: bool,
    runtime: &Runtime,
) -> Result<Audit> {
    let mut audit = Audit { checked: Vec::new(), not_checked: Vec::new() };
    // Formats that say what their cells hold (P/N or numbers) and where their axes start.
    let described = !(path.ends_with(".npy") || path.ends_with(".b") || path.ends_with(".b.gz"));
    let (kind, values) = audit_cells(path, record, table, described, &mut audit)?;
    let game = audit_rules(path, record, &mut audit)?;
    let shape = audit_size(path, record, &game, table, described, &mut audit)?;
    let cells = shape.cells();
    if recompute || cells <= RECOMPUTED_CELLS {
        match recomputed(&game, &shape, kind, runtime) {
            Ok(again) if again == values => {
                audit.checked.push("the values against the rules (computed again)".into())
            }
            Ok(again) => bail!(
                "{path}: its values are not those of its rules: computed again from the spec in \
                 its provenance they hash to {again}, not {values} (the file or its rules changed)"
            ),
            Err(why) => audit
                .not_checked
                .push(format!("the values against the rules ({})", printable(&format!("{why:#}")))),
        }
    } else {
        audit.not_checked.push(format!(
            "the values against the rules (a table of {cells} cells is computed again only with \
             --recompute)"
        ));
    }

    match record.seal_holds() {
        Some(true) => audit.checked.push("the record's own checksum".into()),
        Some(false) => bail!(
            "{path}: its provenance record changed after grundy wrote it: its fields no longer \
             match the record's own checksum {}",
            printable(&record.record_sha256)
        ),
        None => audit.not_checked.push(
            "the record's other fields (written before records carried their own checksum)".into(),
        ),
    }
    audit.not_checked.push(
        "that the command, the date, the program and the engine are what the record says \
         (nothing in the file can show it)"
            .into(),
    );
    Ok(audit)
}

/// What the cells hold and their checksum, against `record`: the kind and the digest.
fn audit_cells(
    path: &str,
    record: &Provenance,
    table: &Table,
    described: bool,
    audit: &mut Audit,
) -> Result<(CellKind, String)> {
    let Some(kind) = record.cell_kind() else {
        bail!(
            "{path}: its provenance says the cells hold `{}`; grundy writes values or outcomes",
            printable(&record.cells)
        );
    };
    let found = table.kind();
    let largest = table.data().stats().max;
    match (kind, found) {
        (CellKind::Values, CellKind::Outcomes) => {
            bail!("{path} holds P/N outcomes, but its provenance says values")
        }
        (CellKind::Outcomes, CellKind::Values) if described || largest > 1 => bail!(
            "{path} holds values (up to {largest}), but its provenance says outcomes (P/N, \
             written as 0 and 1)"
        ),
        _ => {}
    }
    audit.checked.push("what the cells hold".into());
    let values = ValuesDigest::of_table(table.data(), kind);
    if values != record.values_sha256 {
        bail!(
            "{path}: its values do not match its provenance: they hash to {values}, but it was \
             written with {} (the file changed after grundy wrote it)",
            printable(&record.values_sha256)
        );
    }
    audit.checked.push("the values' checksum".into());
    Ok((kind, values))
}

/// The rules of `record`: they read, their fingerprint is the record's, and they name its game.
fn audit_rules(path: &str, record: &Provenance, audit: &mut Audit) -> Result<grundy_core::Game> {
    let game = grundy_core::parse_spec(&record.spec, "the provenance's spec")
        .with_context(|| format!("{path}: its provenance's rules do not read"))?;
    let fingerprint = grundy_core::table::fingerprint(&record.spec);
    if fingerprint != record.fingerprint {
        bail!(
            "{path}: its provenance's rules have the fingerprint {fingerprint}, but the record \
             says {} (the rules or the fingerprint changed after grundy wrote them)",
            printable(&record.fingerprint)
        );
    }
    if game.name() != record.game {
        bail!(
            "{path}: its provenance names the game `{}`, but its rules are {}'s",
            printable(&record.game),
            game.name()
        );
    }
    audit.checked.push("the rules' fingerprint".into());
    Ok(game)
}

/// The size of `record` fits its rules and is the file's.
fn audit_size(
    path: &str,
    record: &Provenance,
    game: &grundy_core::Game,
    table: &Table,
    described: bool,
    audit: &mut Audit,
) -> Result<TableShape> {
    let axes = game.axes();
    let size_text = || record.size.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let shape = (record.size.len() == axes.len())
        .then(|| TableShape::new(game, &record.size, &size_text()).ok())
        .flatten()
        .with_context(|| {
            format!(
                "{path}: its provenance's size {} does not fit its rules",
                printable(&size_text())
            )
        })?;
    let file = table.data().shape();
    let fits = shape.lens() == file.lens()
        && (!described
            || axes.iter().zip(file.axes()).all(|(a, f)| a.min == f.min)
                && (path.ends_with(".b")
                    || path.ends_with(".b.gz")
                    || axes.iter().zip(file.axes()).all(|(a, f)| a.name == f.name)));
    if !fits {
        let file_size: Vec<String> = file
            .axes()
            .iter()
            .zip(file.max())
            .map(|(a, max)| format!("{} {}..={max}", a.name, a.min))
            .collect();
        bail!(
            "{path}: its provenance says {} up to {}, but the file holds {}",
            record.game,
            size_text(),
            file_size.join(", ")
        );
    }
    audit.checked.push("the size".into());
    Ok(shape)
}

/// The checksum of the table of `game` over `shape` computed again, its cells read as `kind`.
fn recomputed(
    game: &grundy_core::Game,
    shape: &TableShape,
    kind: CellKind,
    runtime: &Runtime,
) -> Result<String> {
    // A loopy game's labels are no table of values: the request refuses them.
    let fill = crate::load::prepare_fill(game, shape, runtime, crate::load::Analysis::None)?;
    let table = fill.fill(&grundy_compute::NoProgress).context("cannot compute the table")?;
    Ok(ValuesDigest::of_table(&table, kind))
}

fn write_record(
    out: &mut dyn Write,
    path: &str,
    record: &Provenance,
    audit: &Audit,
) -> std::io::Result<()> {
    // Every field comes from a file: control characters in it are escaped, never sent to the
    // terminal as they are.
    let p = |text: &str| printable(text);
    let size: Vec<String> = record.size.iter().map(i64::to_string).collect();
    writeln!(
        out,
        "{}: {} up to {}, {}",
        p(path),
        p(&record.game),
        size.join("x"),
        p(&record.cells)
    )?;
    writeln!(out, "  values: {}", p(&record.values_sha256))?;
    writeln!(out, "  checked: {}", audit.checked.join(", "))?;
    writeln!(out, "  not checked: {}", audit.not_checked.join("; "))?;
    writeln!(
        out,
        "  written by grundy {} (git {}) at {}",
        p(&record.grundy_version),
        p(&record.git_revision),
        p(&record.created)
    )?;
    writeln!(out, "  engine: {}", p(&record.engine))?;
    writeln!(out, "  command: {}", p(&crate::provenance::shell_line(&record.command)))?;
    writeln!(out, "  rules (fingerprint {}):", p(&record.fingerprint))?;
    for line in record.spec.lines() {
        writeln!(out, "{}", format!("    {}", p(line)).trim_end())?;
    }
    Ok(())
}
