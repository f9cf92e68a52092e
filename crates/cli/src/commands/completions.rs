//! `grundy completions SHELL` and `grundy completions man`: generated from the one clap
//! definition of the command line, so they cannot drift from `--help`.

use crate::output::{Destination, Overwrite, Special};
use anyhow::Result;
use anyhow::{anyhow, bail};
use std::path::PathBuf;
use std::process::ExitCode;

/// Print a completion script for a shell, or the man page (roff), on standard output.
///
/// Examples: `source <(grundy completions bash)`;
/// `grundy completions zsh > ~/.zfunc/_grundy`;
/// `grundy completions fish > ~/.config/fish/completions/grundy.fish`;
/// `grundy completions man > grundy.1 && man ./grundy.1`;
/// `grundy completions man --dir ~/.cargo/share/man/man1` (a page per command; `man` looks
/// there for the commands of ~/.cargo/bin, where `cargo install` puts `grundy`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// bash, zsh, fish, elvish, powershell, or man for the man page.
    #[arg(value_enum)]
    target: Target,
    /// With man: write grundy.1 and a page per command (grundy-compute.1, ...) into this
    /// directory instead of the main page to standard output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Target {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
    Man,
}

/// Writes the script or pages `args` ask for, of the command line `command` describes.
pub(crate) fn run(args: Args, mut command: clap::Command) -> Result<ExitCode> {
    use clap_complete::Shell;
    let shell = match args.target {
        Target::Bash => Shell::Bash,
        Target::Zsh => Shell::Zsh,
        Target::Fish => Shell::Fish,
        Target::Elvish => Shell::Elvish,
        Target::Powershell => Shell::PowerShell,
        Target::Man => {
            let Some(dir) = args.dir else {
                print(&page(command)?)?;
                return Ok(ExitCode::SUCCESS);
            };
            // Like `install -D`: a fresh ~/.cargo/share/man/man1 is made, not refused.
            if dir.exists() && !dir.is_dir() {
                bail!("cannot write the man pages into {}: not a directory", dir.display());
            }
            std::fs::create_dir_all(&dir).map_err(|e| {
                anyhow!("cannot make the directory {} for the man pages: {e}", dir.display())
            })?;
            command.build();
            let mut pages = Vec::new();
            for sub in command.get_subcommands().filter(|sub| sub.get_name() != "help") {
                let name = format!("grundy-{}", sub.get_name());
                let sub = sub.clone().display_name(name.clone());
                pages.push((dir.join(format!("{name}.1")), page(sub)?));
            }
            pages.push((dir.join("grundy.1"), page(command)?));
            // The pages are grundy's own files: every place is checked before any is written
            // (issue 59: a link planted as grundy.1 was written through, a FIFO blocked).
            for (path, _) in &pages {
                own_page(path)?;
            }
            for (path, bytes) in pages {
                Destination::open(Some(&path), Overwrite::Force, Special::Refuse)?
                    .write_with(|out| out.write_all(&bytes))?;
            }
            return Ok(ExitCode::SUCCESS);
        }
    };
    if args.dir.is_some() {
        bail!("--dir is for the man pages (grundy completions man --dir DIR)");
    }
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "grundy", &mut script);
    print(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// A command's man page, in roff.
fn page(command: clap::Command) -> Result<Vec<u8>> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    Ok(page)
}

/// Whether a man page may be written at `path`: nothing is there, or a regular file (an older
/// page, replaced); a symbolic link (dangling or not), a FIFO or a device is refused.
fn own_page(path: &std::path::Path) -> Result<()> {
    if crate::derived::exists(path)? && !std::fs::symlink_metadata(path)?.is_file() {
        bail!(
            "cannot write the man page {}: it is not a regular file (a device, FIFO or \
             directory); delete it",
            path.display()
        );
    }
    Ok(())
}

/// Writes `bytes` to standard output.
fn print(bytes: &[u8]) -> Result<()> {
    Destination::open(None, Overwrite::Force, Special::WriteThrough)?
        .write_with(|out| out.write_all(bytes))
}
