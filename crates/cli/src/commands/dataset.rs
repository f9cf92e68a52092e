//! `grundy dataset RECIPE --out DIR`: a collection built from a recipe. Each file is made by the
//! `grundy` command its entry states, run as a command of its own (so every table, picture and
//! survey is exactly what that command makes, with its own checks, threads and memory budget),
//! and skipped when the last build's manifest shows it is already what the recipe asks for.
//! Then the collection's own files: `SHA256SUMS`, `manifest.json` and the dataset card.

mod card;
mod manifest;
mod recipe;

use crate::output::{Destination, Overwrite, Special};
use crate::runtime_args::RuntimeArgs;
use anyhow::{anyhow, bail, Context, Result};
use grundy_compute::Runtime;
use manifest::{Built, GameRecord, Manifest, Summed, MANIFEST_VERSION};
use recipe::{Entry, Kind, Recipe, CARD, CHECKSUMS, MANIFEST};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::time::Instant;

/// Build a collection of tables, pictures and surveys from a recipe (TOML), with its checksums,
/// a manifest and a dataset card.
///
/// Each `[[table]]`, `[[plot]]` and `[[survey]]` entry is made by the `grundy compute`, `plot`
/// or `survey` command it states, into DIR; a file that the last build made with the same
/// command, inputs and grundy version, and that is unchanged since, is not made again. `[[kept]]`
/// entries are files made elsewhere, listed with their checksums. Then DIR gets `SHA256SUMS`
/// (`sha256sum -c SHA256SUMS` checks it), `manifest.json` (every file: its command, game, rules,
/// inputs, size and SHA-256) and `README.md`, the card: what each file is, its game's rules, how
/// to load it, and how to rebuild it. Paths in the recipe (spec files) are relative to the
/// recipe's folder, and the commands run there. `data/recipe.toml` is an example.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The recipe: a TOML file.
    recipe: PathBuf,
    /// The folder the collection is built in (made if it is missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Make every file again, even those already as the recipe asks.
    #[arg(long)]
    force: bool,
    /// Say which files would be made and which are up to date; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Say nothing but errors.
    #[arg(short, long)]
    quiet: bool,
}

pub(crate) fn run(args: Args, runtime: &Runtime, asked: RuntimeArgs) -> Result<ExitCode> {
    let recipe = Recipe::read(&args.recipe)?;
    let recipe_path = std::path::absolute(&args.recipe)
        .with_context(|| format!("cannot find {}", args.recipe.display()))?;
    let out = std::path::absolute(&args.out)
        .with_context(|| format!("cannot find {}", args.out.display()))?;
    if out.exists() && !out.is_dir() {
        bail!("--out {} is not a folder", args.out.display());
    }
    let recipe_dir = recipe_path.parent().expect("a file's absolute path has a parent");
    // Paths in a recipe are relative to its folder, for the card's commands as for the build:
    // the commands run there, and so do this command's reads of the games they name.
    std::env::set_current_dir(recipe_dir)
        .with_context(|| format!("cannot enter {}", recipe_dir.display()))?;
    let say = |line: String| {
        if !args.quiet {
            eprintln!("{line}");
        }
    };
    let build = Build {
        out: &out,
        exe: std::env::current_exe().context("cannot find the grundy program to run")?,
        passed: asked.thread_words(),
        budget: runtime.memory().budget(),
    };
    // Held until this build ends: two builds of one folder at once would race on its manifest.
    let _folder_lock = if args.dry_run {
        None
    } else {
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot make the folder {}", args.out.display()))?;
        hold_folder(&out, &args.out)?
    };
    let previous = if args.force { None } else { Manifest::previous(&out) };
    let mut manifest = Manifest {
        grundy_dataset: MANIFEST_VERSION,
        title: recipe.title.clone(),
        recipe: recipe_as_seen_from(&recipe_path, &out),
        grundy_version: env!("CARGO_PKG_VERSION").to_string(),
        files: Vec::new(),
    };
    // Every entry's game and inputs are read before anything is made: a misspelt game in the
    // last entry fails at once, not after the others.
    let wanted =
        recipe.entries.iter().map(|entry| build.wanted(entry)).collect::<Result<Vec<_>>>()?;
    let Some((made, current)) =
        make_entries(&args, &recipe, &build, previous.as_ref(), &mut manifest, wanted, &say)?
    else {
        return Ok(ExitCode::from(crate::signals::EXIT_INTERRUPTED));
    };
    if let Some(previous) = &previous {
        for gone in
            previous.files.iter().filter(|b| !recipe.entries.iter().any(|e| e.file == b.file))
        {
            say(format!("no longer in the recipe, left in place: {}", gone.file));
        }
    }
    if args.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    build.write(CHECKSUMS, &card::checksums(&manifest))?;
    build.write(MANIFEST, &manifest.to_json())?;
    build.write(CARD, &card::card(&recipe, &manifest))?;
    say(format!(
        "{}: {made} made, {current} up to date, {} kept; {CHECKSUMS}, {MANIFEST} and {CARD} written",
        args.out.display(),
        recipe.entries.iter().filter(|e| e.kind == Kind::Kept).count(),
    ));
    Ok(ExitCode::SUCCESS)
}

/// Makes the recipe's entries in order (`wanted`: what each needs), recording each in
/// `manifest`: the files made and those up to date, or `None` when a signal stopped the build
/// (the manifest then records what was made, and the next run goes on from there).
fn make_entries(
    args: &Args,
    recipe: &Recipe,
    build: &Build<'_>,
    previous: Option<&Manifest>,
    manifest: &mut Manifest,
    wanted: Vec<Wanted>,
    say: &dyn Fn(String),
) -> Result<Option<(usize, usize)>> {
    let (mut made, mut current) = (0, 0);
    for (k, (entry, wanted)) in recipe.entries.iter().zip(wanted).enumerate() {
        let counter = format!("[{}/{}]", k + 1, recipe.entries.len());
        let before = previous.and_then(|p| p.files.iter().find(|b| b.file == entry.file));
        let still = previous.is_some_and(|p| p.grundy_version == manifest.grundy_version)
            && before.is_some_and(|before| build.is_current(before, &wanted));
        if entry.kind == Kind::Kept {
            let found = build.kept(entry, wanted)?;
            manifest.files.push(found);
            continue;
        }
        if still {
            current += 1;
            say(format!("{counter} up to date: {}", entry.file));
            manifest.files.push(before.expect("checked above").clone());
            continue;
        }
        let shown = crate::provenance::shell_line(wanted.command.as_deref().unwrap_or_default());
        if args.dry_run {
            say(format!("{counter} would make {}: {shown}", entry.file));
            continue;
        }
        say(format!("{counter} making {}: {shown}", entry.file));
        let start = Instant::now();
        let outcome = build.make(entry, wanted, before);
        if !matches!(outcome, Ok(Made::File(_))) {
            // What is made stays, and the manifest says so (with the last build's records of
            // the entries not reached, which the next run checks again): it goes on from here.
            let later = &recipe.entries[k + 1..];
            let kept = previous
                .iter()
                .flat_map(|p| &p.files)
                .filter(|b| later.iter().any(|e| e.file == b.file));
            manifest.files.extend(kept.cloned());
            build.write(MANIFEST, &manifest.to_json())?;
        }
        match outcome? {
            Made::File(built) => manifest.files.push(*built),
            Made::Interrupted => {
                eprintln!(
                    "grundy: interrupted while making {}; the {made} files made before it are \
                     recorded in {MANIFEST}: run the same command to go on",
                    entry.file
                );
                return Ok(None);
            }
        }
        made += 1;
        say(format!("{counter} made {} in {:.1} s", entry.file, start.elapsed().as_secs_f64()));
    }
    Ok(Some((made, current)))
}

/// What a build needs to make files: where, with which program, and what it hands on.
struct Build<'a> {
    out: &'a Path,
    exe: PathBuf,
    /// `--threads N`, when given.
    passed: Vec<String>,
    /// The memory budget, when one is set.
    budget: Option<u64>,
}

/// What an entry asks for, before it is made: everything of its record but the results.
struct Wanted {
    command: Option<Vec<String>>,
    game: Option<GameRecord>,
    inputs: Vec<Summed>,
}

impl Build<'_> {
    /// The record an entry's file should have: its command, its game, and the files it reads
    /// (every word of the command that names a file in the recipe's folder: its spec files).
    fn wanted(&self, entry: &Entry) -> Result<Wanted> {
        let named = || format!("{} ([[{}]])", entry.file, entry.kind.name());
        let game = match &entry.game {
            None => None,
            Some(name) => {
                let game = crate::load::load_game(name).with_context(named)?;
                let game = match crate::play::PlayArg::in_words(&entry.words) {
                    Some(play) => game.with_play(play),
                    None => game,
                };
                let spec = grundy_core::to_spec(&game);
                Some(GameRecord {
                    name: game.name().to_string(),
                    description: game.description().to_string(),
                    axes: game.axes().iter().map(|axis| axis.name.clone()).collect(),
                    fingerprint: grundy_core::table::fingerprint(&spec),
                    spec,
                })
            }
        };
        let mut inputs = Vec::new();
        for word in entry.words.iter().skip(1).filter(|w| !w.starts_with('-')) {
            if Path::new(word).is_file() {
                inputs.push(Summed::of(Path::new(word), word).with_context(named)?);
            }
        }
        Ok(Wanted { command: entry.command(), game, inputs })
    }

    /// Whether `before`, the last build's record, is what the entry wants and its files are
    /// unchanged on disk.
    fn is_current(&self, before: &Built, wanted: &Wanted) -> bool {
        let unchanged = |summed: &Summed| {
            manifest::sha256_of(&self.out.join(&summed.file))
                .is_ok_and(|(bytes, sha256)| bytes == summed.bytes && sha256 == summed.sha256)
        };
        before.command == wanted.command
            && before.game == wanted.game
            && before.inputs == wanted.inputs
            && unchanged(&Summed {
                file: before.file.clone(),
                bytes: before.bytes,
                sha256: before.sha256.clone(),
            })
            && before.sidecar.as_ref().is_none_or(unchanged)
    }

    /// A kept file's record: it must be in the folder already.
    fn kept(&self, entry: &Entry, wanted: Wanted) -> Result<Built> {
        let path = self.out.join(&entry.file);
        if !path.is_file() {
            bail!(
                "{}: the kept file is not in {} (a kept file is made elsewhere; put it there)",
                entry.file,
                self.out.display()
            );
        }
        let summed = Summed::of(&path, &entry.file)?;
        Ok(built(entry, wanted, summed, None))
    }

    /// Where `file` goes in the folder, refusing a symbolic link on the way there or at it:
    /// a collection's files are grundy's own, and a link planted in the folder would make a
    /// rebuild write through it, wherever it points (issue 50).
    fn own_path(&self, file: &str) -> Result<PathBuf> {
        let mut path = self.out.to_path_buf();
        for word in file.split('/') {
            path.push(word);
            crate::derived::exists(&path)?;
        }
        Ok(path)
    }

    /// Makes an entry's file by running its command, and records it.
    fn make(&self, entry: &Entry, wanted: Wanted, before: Option<&Built>) -> Result<Made> {
        let target = self.own_path(&entry.file)?;
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot make the folder {}", folder.display()))?;
        }
        // A .npy or b-file's command may write its provenance beside it. The last build's
        // sidecar goes first, so that one found afterwards is this command's.
        let sidecar = crate::provenance::sidecar_path(&target);
        crate::derived::exists(&sidecar)?;
        if before.is_some_and(|b| b.sidecar.is_some()) {
            let _ = std::fs::remove_file(&sidecar);
        }
        let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let sidecar_before = modified(&sidecar);
        let mut command = Command::new(&self.exe);
        command
            .args(&entry.words)
            .arg("--out")
            .arg(&target)
            .arg("--quiet")
            .args(&self.passed)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(bytes) = self.budget {
            command.env(grundy_compute::memory::BUDGET_VARIABLE, bytes.to_string());
        }
        let shown = crate::provenance::shell_line(wanted.command.as_deref().unwrap_or_default());
        let Some((status, stderr)) =
            run_interruptibly(command).with_context(|| format!("cannot run {shown}"))?
        else {
            return Ok(Made::Interrupted);
        };
        if !status.success() {
            let why = stderr
                .lines()
                .rev()
                .find(|line| !line.trim().is_empty())
                .map(|line| {
                    line.trim_start_matches("grundy: error: ").trim_start_matches("grundy: ")
                })
                .unwrap_or("it stopped without saying why");
            return Err(anyhow!("{}: `{shown}` failed: {why}", entry.file));
        }
        let summed = Summed::of(&target, &entry.file)?;
        let sidecar_after = modified(&sidecar);
        let sidecar = match sidecar_after {
            Some(after) if sidecar_before != Some(after) => {
                Some(Summed::of(&sidecar, &format!("{}.json", entry.file))?)
            }
            _ => None,
        };
        Ok(Made::File(Box::new(built(entry, wanted, summed, sidecar))))
    }

    /// Writes one of the collection's own files, atomically.
    fn write(&self, name: &str, text: &str) -> Result<()> {
        let path = self.own_path(name)?;
        let destination = Destination::open(Some(&path), Overwrite::IfWritable, Special::Refuse)?;
        destination.write_with(|out| out.write_all(text.as_bytes()))
    }
}

/// What running an entry's command came to, when it did not fail.
enum Made {
    File(Box<Built>),
    /// Ctrl-C or SIGTERM stopped it (the command itself cleans up after itself).
    Interrupted,
}

/// Takes the folder's own `flock` for this build, so that a second `grundy dataset` into it
/// fails at once instead of racing on the manifest. Locking the folder, not a file in it, adds
/// nothing to the collection; the lock ends with the process, however it ends.
#[cfg(unix)]
fn hold_folder(folder: &Path, shown: &Path) -> Result<Option<std::fs::File>> {
    use std::os::fd::AsRawFd;
    let handle = std::fs::File::open(folder)
        .with_context(|| format!("cannot open the folder {}", shown.display()))?;
    // SAFETY: flock on a descriptor this function owns.
    if unsafe { libc::flock(handle.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = std::io::Error::last_os_error();
        // A file system without locks (some network ones) builds unguarded, as before.
        if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
            bail!(
                "{} is being built by another `grundy dataset` run; wait for it to end",
                shown.display()
            );
        }
    }
    Ok(Some(handle))
}

#[cfg(not(unix))]
fn hold_folder(_folder: &Path, _shown: &Path) -> Result<Option<std::fs::File>> {
    Ok(None)
}

/// Runs `command` to its end, its standard error read meanwhile: its status and standard error,
/// or `None` when a signal stopped the build. Signals are deferred while it runs: Ctrl-C reaches
/// the command too (one process group) and it stops cleanly; a SIGTERM to this process alone is
/// handed on to it. Either way this process then records what is made before it stops.
fn run_interruptibly(mut command: Command) -> std::io::Result<Option<(ExitStatus, String)>> {
    // Deferred before the command starts: a signal cannot come between, and leave it running.
    crate::signals::defer();
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(err) => {
            crate::signals::undefer();
            return Err(err);
        }
    };
    let mut stderr = child.stderr.take().expect("standard error is piped");
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let mut handed_on = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if crate::signals::interrupted() && !handed_on {
            handed_on = true;
            #[cfg(unix)]
            if let Ok(pid) = libc::pid_t::try_from(child.id()) {
                // SAFETY: kill(2) with a child's pid, not yet reaped, only sends it a signal.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
            #[cfg(not(unix))]
            let _ = child.kill();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let interrupted = crate::signals::undefer();
    let text = reading.join().unwrap_or_default();
    Ok((!interrupted).then_some((status, text)))
}

fn built(entry: &Entry, wanted: Wanted, summed: Summed, sidecar: Option<Summed>) -> Built {
    Built {
        file: entry.file.clone(),
        kind: entry.kind.name().to_string(),
        about: entry.about.clone(),
        command: wanted.command,
        game: wanted.game,
        inputs: wanted.inputs,
        bytes: summed.bytes,
        sha256: summed.sha256,
        sidecar,
    }
}

/// The recipe's path as the card's rebuilding command gives it, run in the output folder: its
/// name when it is there, a relative path when one folder holds the other, else its full path.
fn recipe_as_seen_from(recipe: &Path, out: &Path) -> String {
    let name = recipe.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let folder = recipe.parent().expect("a file's absolute path has a parent");
    if let Ok(inside) = recipe.strip_prefix(out) {
        return inside.to_string_lossy().replace('\\', "/");
    }
    if let Ok(below) = out.strip_prefix(folder) {
        let up = "../".repeat(below.components().count());
        return format!("{up}{name}");
    }
    recipe.to_string_lossy().into_owned()
}
