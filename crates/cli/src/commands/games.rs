use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;

/// List the catalog games: name, axes and a one-line description.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: Args) -> Result<ExitCode> {
    let catalog = grundy_core::game::catalog();
    let name_width = catalog.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let axes_width = catalog.iter().map(|e| e.axes.len()).max().unwrap_or(0);
    let mut out = crate::output::stdout()?;
    for entry in &catalog {
        writeln!(
            out,
            "{:name_width$}  {:axes_width$}  {}",
            entry.name, entry.axes, entry.description
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
