use crate::load::{load_game, spec_path};
use anyhow::{Context, Result};
use std::io::Write;
use std::process::ExitCode;

/// Print the spec (TOML) of GAME: a catalog game, a parameterised name such as `subtraction:2,5`,
/// or a spec file. Save it, edit it, and pass the file as GAME to any command.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`) or a path to a spec file.
    game: String,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
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
