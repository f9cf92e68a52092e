//! Every console example in the README and the guide runs, with its stated output (issue 53).
//!
//! A ```` ```console ```` block holds commands (`$ ` lines) each followed by the output it
//! prints (standard output and error together). In the expected output, a line `...` stands for
//! any number of lines and `[...]` inside a line for any text. A command ending in
//! `# exit code N` must exit with N; any other must succeed. A ```` ```toml file=NAME ```` block
//! is written to NAME before the blocks that follow it. The commands of one document run in
//! order, in one temporary directory that holds `examples/` and `data/` of the repository, with
//! the `grundy` under test first on the PATH.
//!
//! The info string may name what a block needs: `python` (a Python with numpy, pandas and
//! duckdb: the one `GRUNDY_DOCS_PYTHON` names, or the block is skipped, saying so), `jq`.
//! Release only: `.ci/run` runs this in its slow stage (`--release ... -- --ignored`), with
//! `GRUNDY_REQUIRE_EXTERNAL=1`, so that nothing is skipped there.
//!
//! A block tagged `mpi` needs `mpirun` and a `grundy` built with the `mpi` feature: it runs only
//! when `GRUNDY_DOCS_BLOCKS=mpi` says so (then only such blocks run), which `.ci/run` does in its
//! MPI stage with that build; everywhere else it is left to that stage, not run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The documents whose examples run.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut docs = vec![root.join("README.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root.join("docs/guide"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    guide.retain(|p| p.extension().is_some_and(|e| e == "md"));
    guide.sort();
    docs.extend(guide);
    docs
}

/// One fenced block: its info string, its lines and the line it starts on.
struct Block {
    info: String,
    lines: Vec<String>,
    line: usize,
}

/// The fenced blocks of a Markdown text, also those indented inside a list item (their lines
/// lose the fence's indentation).
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(Block, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => {
                let block = Block { info: info.trim().to_string(), lines: Vec::new(), line: n + 1 };
                open = Some((block, indent));
            }
            (Some(_), Some("")) => blocks.push(open.take().unwrap().0),
            (Some((block, indent)), _) => {
                let cut = line.len() - line.trim_start().len();
                block.lines.push(line[cut.min(*indent)..].to_string());
            }
            (None, None) => {}
        }
    }
    blocks
}

/// Whether `actual` matches `expected`, where `...` (`…`) lines and `[...]` stand for anything.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." || first.trim() == "…" => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && matches(rest, more)),
    }
}

fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("[...]");
    let first = parts.next().unwrap();
    let Some(mut rest) = actual.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether this run is the MPI stage's (`GRUNDY_DOCS_BLOCKS=mpi`): it runs the `mpi` blocks only.
fn mpi_run() -> bool {
    std::env::var("GRUNDY_DOCS_BLOCKS").is_ok_and(|blocks| blocks == "mpi")
}

/// Whether a block belongs to this run: the `mpi` blocks to the MPI stage's, the others to
/// every other run.
fn belongs_here(info: &str) -> bool {
    info.split_whitespace().any(|word| word == "mpi") == mpi_run()
}

/// Why a block cannot run here, if it cannot.
fn missing(info: &str) -> Option<String> {
    let words: Vec<&str> = info.split_whitespace().collect();
    if words.contains(&"python") && std::env::var_os("GRUNDY_DOCS_PYTHON").is_none() {
        return Some("needs GRUNDY_DOCS_PYTHON (a Python with numpy, pandas, duckdb)".into());
    }
    if words.contains(&"jq") && Command::new("jq").arg("--version").output().is_err() {
        return Some("needs jq".into());
    }
    None
}

/// Runs the document's examples; the failures, each with what was expected and what came.
fn run_document(
    path: &Path,
    failures: &mut Vec<String>,
    skipped: &mut Vec<String>,
    ran: &mut usize,
) {
    let text = std::fs::read_to_string(path).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for folder in ["examples", "data"] {
        std::os::unix::fs::symlink(root.join(folder), dir.path().join(folder)).unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy")).parent().unwrap().to_path_buf();
    let mut path_var = vec![bin];
    if let Some(python) = std::env::var_os("GRUNDY_DOCS_PYTHON") {
        path_var.push(PathBuf::from(python).parent().unwrap().to_path_buf());
    }
    path_var.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    let path_var = std::env::join_paths(path_var).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    for block in blocks(&text) {
        let where_ = format!("{name}:{}", block.line);
        if let Some(file) = block.info.split_whitespace().find_map(|w| w.strip_prefix("file=")) {
            std::fs::write(dir.path().join(file), block.lines.join("\n") + "\n").unwrap();
            continue;
        }
        if block.info.split_whitespace().next() != Some("console") {
            continue;
        }
        if !belongs_here(&block.info) {
            continue;
        }
        *ran += 1;
        if let Some(why) = missing(&block.info) {
            skipped.push(format!("{where_}: {why}"));
            continue;
        }
        let mut commands: Vec<(String, Vec<String>)> = Vec::new();
        for line in &block.lines {
            match line.strip_prefix("$ ") {
                Some(command) => commands.push((command.to_string(), Vec::new())),
                None => match commands.last_mut() {
                    Some((_, expected)) => expected.push(line.clone()),
                    None => failures.push(format!("{where_}: output before any `$ ` command")),
                },
            }
        }
        for (command, expected) in commands {
            let code: i32 = command
                .rsplit_once("# exit code ")
                .and_then(|(_, code)| code.trim().parse().ok())
                .unwrap_or(0);
            let out = Command::new("bash")
                // The newline ends a trailing `# exit code N` comment.
                .args(["--norc", "-o", "pipefail", "-c", &format!("{{ {command}\n}} 2>&1")])
                .current_dir(dir.path())
                .env("PATH", &path_var)
                .env("COLUMNS", "100")
                .env_remove("GRUNDY_MAX_MEMORY")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let actual: Vec<&str> = text.lines().collect();
            let status = out.status.code().unwrap_or(-1);
            // A pipe into head may end the writer early: what head shows is what counts.
            let status_ok = status == code || (code == 0 && command.contains("| head"));
            if !status_ok || !matches(&expected, &actual) {
                failures.push(format!(
                    "{where_}: $ {command}\n  exit {status} (expected {code})\n  expected:\n{}\n  got:\n{}",
                    expected.iter().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n"),
                    actual.iter().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n"),
                ));
            }
        }
    }
}

#[test]
fn the_matcher_understands_its_wildcards() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&s(&["a", "...", "d"]), &["a", "d"]));
    assert!(!matches(&s(&["a", "d"]), &["a", "b", "d"]));
    assert!(line_matches("saved [...] of 375", "saved 162 of 375"));
    assert!(!line_matches("saved [...] of 375", "saved 162 of 376"));
    assert!(line_matches("x", "x") && !line_matches("x", "xy"));
}

#[test]
#[ignore = "slow: every example of the docs, in release, in the slow stage of .ci/run"]
fn every_console_example_prints_what_the_docs_say() {
    let (mut failures, mut skipped, mut ran) = (Vec::new(), Vec::new(), 0);
    if mpi_run() {
        let version = String::from_utf8(
            Command::new(env!("CARGO_BIN_EXE_grundy")).arg("--version").output().unwrap().stdout,
        )
        .unwrap();
        assert!(version.contains("mpi"), "the mpi blocks need grundy built with mpi: {version}");
        assert!(Command::new("mpirun").arg("--version").output().is_ok(), "no mpirun here");
    }
    for doc in documents() {
        run_document(&doc, &mut failures, &mut skipped, &mut ran);
    }
    assert!(
        ran > 0,
        "no example ran (GRUNDY_DOCS_BLOCKS={:?})",
        std::env::var("GRUNDY_DOCS_BLOCKS")
    );
    for skip in &skipped {
        eprintln!("skipped {skip}");
    }
    if std::env::var_os("GRUNDY_REQUIRE_EXTERNAL").is_some() {
        assert!(skipped.is_empty(), "examples skipped where none may be: {skipped:?}");
    }
    assert!(failures.is_empty(), "{} examples differ:\n{}", failures.len(), failures.join("\n\n"));
}
