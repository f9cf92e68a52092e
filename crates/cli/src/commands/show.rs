use crate::load::{is_table_file, load_game, read_table_file, spec_path};
use crate::provenance;
use anyhow::{bail, Context, Result};
use grundy_core::{Provenance, ValuesDigest};
use std::io::Write;
use std::process::ExitCode;

/// Print the spec (TOML) of GAME: a catalog game, a parameterised name such as `subtraction:2,5`,
/// or a spec file. Save it, edit it, and pass the file as GAME to any command.
///
/// Given a table FILE written by `grundy compute` (.csv, .csv.gz, .npy, .b, or a sidecar
/// FILE.json), print where it came from (its provenance: the rules, the program, the command,
/// the date, the engine) and check its values against the checksum recorded then: a file
/// changed since fails with the two checksums.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`), a path to a spec file, or a table file.
    game: String,
    /// For a table file: print the provenance record as JSON (after the check).
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    // A sidecar names its table: `t.npy.json` is the provenance of `t.npy`.
    let table = args.game.strip_suffix(".json").filter(|table| is_table_file(table));
    if let Some(table) = table.or(is_table_file(&args.game).then_some(args.game.as_str())) {
        return show_table(table, args.json);
    }
    if args.json {
        bail!("--json prints a table file's provenance; {} is a game", args.game);
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

/// The provenance of the table file `path`, checked against the file's values.
fn show_table(path: &str, json: bool) -> Result<ExitCode> {
    let record = provenance::read(path)?;
    let table = read_table_file(path)?;
    let kind = table.kind();
    let found = ValuesDigest::of_table(table.data(), kind);
    if found != record.values_sha256 {
        bail!(
            "{path}: its values do not match its provenance: they hash to {found}, but it was \
             written with {} (the file changed after grundy wrote it)",
            record.values_sha256
        );
    }
    let mut out = crate::output::stdout()?;
    if json {
        writeln!(out, "{}", record.to_json_pretty())?;
    } else {
        write_record(&mut out, path, &record)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_record(out: &mut dyn Write, path: &str, record: &Provenance) -> std::io::Result<()> {
    let size: Vec<String> = record.size.iter().map(i64::to_string).collect();
    writeln!(out, "{path}: {} up to {}, {}", record.game, size.join("x"), record.cells)?;
    writeln!(out, "  values: {} (checked: the file's values match)", record.values_sha256)?;
    writeln!(
        out,
        "  written by grundy {} (git {}) at {}",
        record.grundy_version, record.git_revision, record.created
    )?;
    writeln!(out, "  engine: {}", record.engine)?;
    writeln!(out, "  command: {}", crate::provenance::shell_line(&record.command))?;
    writeln!(out, "  rules (fingerprint {}):", record.fingerprint)?;
    for line in record.spec.lines() {
        writeln!(out, "{}", format!("    {line}").trim_end())?;
    }
    Ok(())
}
