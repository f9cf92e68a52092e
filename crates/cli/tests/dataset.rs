//! `grundy dataset RECIPE --out DIR` end to end: a collection built from a recipe holds what each
//! entry's command makes, its checksums, manifest and card; a second build makes nothing; a
//! changed file, input or entry is made again, and only it; bad recipes and failing entries are
//! one-line errors that leave the collection's own files unwritten.

use crate::common;

use common::{grundy, stdout_of};
use predicates::prelude::*;
use sha2::{Digest, Sha256};
use std::fs;
use std::path::Path;

/// A recipe with every kind of entry, a spec file of its own and a kept file.
const RECIPE: &str = r#"
title = "A small collection"
about = "Tables for the tests."

[[table]]
file = "kiki-12.csv"
about = "kiki's game"
game = "spec/kiki.toml"
size = "12x10"

[[table]]
file = "tables/wythoff-20.npy"
about = "Wythoff's game, numpy"
game = "wythoff"
size = "20x20"

[[table]]
file = "kayles-50.b"
about = "Kayles, b-file"
game = "kayles"
size = 50
options = ["--no-provenance"]

[[table]]
file = "cutting-9.parquet"
about = "the cutting game, Parquet"
game = "cutting"
size = "9x9"

[[plot]]
file = "pictures/kiki.svg"
about = "kiki's P-positions"
game = "spec/kiki.toml"
size = "12x10"
outcome = true

[[survey]]
file = "octal.csv"
about = "every octal code 0.d"
families = ["octal:0.?"]
options = ["--no-seconds"]

[[kept]]
file = "notes.txt"
about = "notes made by hand"
"#;

/// A folder with the recipe (and its spec file) and an output folder with the kept file.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("spec")).unwrap();
    fs::write(dir.path().join("spec/kiki.toml"), stdout_of(&["show", "kiki"])).unwrap();
    fs::write(dir.path().join("recipe.toml"), RECIPE).unwrap();
    fs::create_dir_all(dir.path().join("out")).unwrap();
    fs::write(dir.path().join("out/notes.txt"), "by hand\n").unwrap();
    dir
}

/// Runs `grundy dataset recipe.toml --out out` in `dir` (plus `extra`); its standard error.
fn build(dir: &Path, extra: &[&str]) -> String {
    let out = grundy()
        .current_dir(dir)
        .args(["dataset", "recipe.toml", "--out", "out"])
        .args(extra)
        .assert()
        .success();
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

fn made(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|line| {
            line.split_once("] making ")
                .map(|(_, rest)| rest.split(':').next().unwrap().to_string())
        })
        .collect()
}

fn sha256(path: &Path) -> String {
    format!("{:x}", Sha256::digest(fs::read(path).unwrap()))
}

#[test]
fn a_recipe_builds_its_files_with_checksums_manifest_and_card() {
    let dir = setup();
    let log = build(dir.path(), &[]);
    assert_eq!(
        made(&log),
        [
            "kiki-12.csv",
            "tables/wythoff-20.npy",
            "kayles-50.b",
            "cutting-9.parquet",
            "pictures/kiki.svg",
            "octal.csv"
        ]
    );
    let out = dir.path().join("out");

    // Each file is what its command makes.
    assert_eq!(
        fs::read_to_string(out.join("kiki-12.csv")).unwrap(),
        stdout_of(&["compute", "kiki", "--size", "12x10"])
    );
    assert_eq!(
        fs::read_to_string(out.join("kayles-50.b")).unwrap(),
        stdout_of(&["compute", "kayles", "--size", "50", "--format", "bfile"])
    );
    assert_eq!(&fs::read(out.join("tables/wythoff-20.npy")).unwrap()[..6], b"\x93NUMPY");
    assert_eq!(&fs::read(out.join("cutting-9.parquet")).unwrap()[..4], b"PAR1");
    assert!(fs::read_to_string(out.join("pictures/kiki.svg")).unwrap().contains("<svg"));
    assert!(fs::read_to_string(out.join("octal.csv")).unwrap().starts_with("game,"));
    // The .npy's provenance is beside it (the b-file's was turned off), and checks out.
    let shown = stdout_of(&["show", out.join("tables/wythoff-20.npy").to_str().unwrap()]);
    assert!(shown.contains("wythoff"), "{shown}");
    assert!(!out.join("kayles-50.b.json").exists());

    // SHA256SUMS lists every file and the sidecar, with their real checksums.
    let sums = fs::read_to_string(out.join("SHA256SUMS")).unwrap();
    let listed: Vec<(&str, &str)> =
        sums.lines().map(|line| line.split_once("  ").unwrap()).collect();
    let names: Vec<&str> = listed.iter().map(|(_, file)| *file).collect();
    assert_eq!(
        names,
        [
            "kiki-12.csv",
            "tables/wythoff-20.npy",
            "tables/wythoff-20.npy.json",
            "kayles-50.b",
            "cutting-9.parquet",
            "pictures/kiki.svg",
            "octal.csv",
            "notes.txt"
        ]
    );
    for (sum, file) in &listed {
        assert_eq!(*sum, sha256(&out.join(file)), "{file}");
    }

    // The manifest: each file's command, game, inputs and checksum.
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["title"], "A small collection");
    assert_eq!(manifest["recipe"], "../recipe.toml");
    let kiki = &manifest["files"][0];
    assert_eq!(kiki["command"].as_array().unwrap().len(), 7);
    assert_eq!(kiki["game"]["name"], "kiki");
    assert_eq!(kiki["game"]["axes"], serde_json::json!(["n", "m"]));
    assert_eq!(kiki["inputs"][0]["file"], "spec/kiki.toml");
    assert_eq!(kiki["inputs"][0]["sha256"], sha256(&dir.path().join("spec/kiki.toml")));
    assert_eq!(kiki["sha256"], sha256(&out.join("kiki-12.csv")));
    let provenance = show_json(&out.join("cutting-9.parquet"));
    assert_eq!(manifest["files"][3]["game"]["fingerprint"], provenance["fingerprint"]);
    assert_eq!(manifest["files"][6]["kind"], "kept");
    assert!(manifest["files"][6].get("command").is_none());

    // The card: every file, how to load each kind, the games' rules, how to rebuild.
    let card = fs::read_to_string(out.join("README.md")).unwrap();
    for needle in [
        "# A small collection",
        "Tables for the tests.",
        "| `kiki-12.csv` | kiki's game | `kiki` |",
        "pd.read_csv(\"kiki-12.csv\", index_col=0, comment=\"#\")",
        "np.load(\"tables/wythoff-20.npy\")",
        "np.loadtxt(\"kayles-50.b\"",
        "pd.read_parquet(\"cutting-9.parquet\")",
        "pd.read_csv(\"octal.csv\")",
        "### wythoff",
        "kind = \"step\"",
        "`grundy dataset ../recipe.toml --out .`",
        "`grundy survey 'octal:0.?' --no-seconds --out octal.csv`",
        "| `notes.txt` | kept: made elsewhere (see above) |",
    ] {
        assert!(card.contains(needle), "the card lacks {needle}:\n{card}");
    }
}

fn show_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&stdout_of(&["show", path.to_str().unwrap(), "--json"])).unwrap()
}

#[test]
fn a_second_build_makes_only_what_changed() {
    let dir = setup();
    build(dir.path(), &[]);
    let out = dir.path().join("out");
    let card = fs::read(out.join("README.md")).unwrap();
    let manifest = fs::read(out.join("manifest.json")).unwrap();

    let again = build(dir.path(), &[]);
    assert_eq!(made(&again), Vec::<String>::new(), "{again}");
    assert_eq!(again.matches("] up to date: ").count(), 6, "{again}");
    assert_eq!(fs::read(out.join("README.md")).unwrap(), card);
    assert_eq!(fs::read(out.join("manifest.json")).unwrap(), manifest);

    // A changed file is made again; so is one whose spec file changed, and a changed entry.
    fs::write(out.join("kayles-50.b"), "0 0\n").unwrap();
    assert_eq!(made(&build(dir.path(), &[])), ["kayles-50.b"]);
    let spec = fs::read_to_string(dir.path().join("spec/kiki.toml")).unwrap();
    fs::write(dir.path().join("spec/kiki.toml"), format!("{spec}\n# edited\n")).unwrap();
    assert_eq!(made(&build(dir.path(), &[])), ["kiki-12.csv", "pictures/kiki.svg"]);
    let recipe = RECIPE.replace("size = \"20x20\"", "size = \"21x21\"");
    fs::write(dir.path().join("recipe.toml"), recipe).unwrap();
    assert_eq!(made(&build(dir.path(), &[])), ["tables/wythoff-20.npy"]);
    // A changed sidecar counts as a changed file.
    fs::write(out.join("tables/wythoff-20.npy.json"), "{}").unwrap();
    assert_eq!(made(&build(dir.path(), &[])), ["tables/wythoff-20.npy"]);
    // --dry-run says what it would make and writes nothing; --force makes everything.
    fs::write(out.join("octal.csv"), "changed").unwrap();
    let dry = build(dir.path(), &["--dry-run"]);
    assert!(dry.contains("would make octal.csv"), "{dry}");
    assert_eq!(fs::read_to_string(out.join("octal.csv")).unwrap(), "changed");
    assert_eq!(made(&build(dir.path(), &["--force"])).len(), 6);
}

#[test]
fn a_failing_entry_stops_the_build_and_the_next_one_goes_on() {
    let dir = setup();
    let broken = RECIPE.replace("size = 50", "size = \"5O\"");
    fs::write(dir.path().join("recipe.toml"), broken).unwrap();
    let failed = grundy()
        .current_dir(dir.path())
        .args(["dataset", "recipe.toml", "--out", "out", "--quiet"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(failed.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("grundy: error: kayles-50.b: `grundy compute kayles --size 5O")
            && stderr.contains("5O"),
        "{stderr}"
    );
    let out = dir.path().join("out");
    // The card and checksums are written only for a whole collection.
    assert!(!out.join("README.md").exists() && !out.join("SHA256SUMS").exists());
    // A game that does not exist fails before anything is made.
    let misspelt = RECIPE.replace("game = \"cutting\"", "game = \"cuttin\"");
    fs::write(dir.path().join("recipe.toml"), misspelt).unwrap();
    grundy()
        .current_dir(dir.path())
        .args(["dataset", "recipe.toml", "--out", "out"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "grundy: error: cutting-9.parquet ([[table]]): unknown game `cuttin`",
        ))
        .stderr(predicate::str::contains("making").not());
    fs::write(dir.path().join("recipe.toml"), RECIPE).unwrap();
    assert_eq!(
        made(&build(dir.path(), &[])),
        ["kayles-50.b", "cutting-9.parquet", "pictures/kiki.svg", "octal.csv"]
    );
}

/// Two builds of one folder at once would race on its manifest: the second fails at once, in one
/// line naming the folder, and writes nothing.
#[cfg(unix)]
#[test]
fn a_folder_being_built_is_refused_to_a_second_build() {
    use std::os::fd::AsRawFd;
    let dir = setup();
    let folder = fs::File::open(dir.path().join("out")).unwrap();
    // SAFETY: flock on a descriptor this test owns, as a running build holds it.
    assert_eq!(unsafe { libc::flock(folder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    let failed = grundy()
        .current_dir(dir.path())
        .args(["dataset", "recipe.toml", "--out", "out"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("out is being built by another `grundy dataset` run"));
    assert_eq!(failed.get_output().stderr.iter().filter(|&&b| b == b'\n').count(), 1);
    assert!(!dir.path().join("out/manifest.json").exists());
    assert!(!dir.path().join("out/kiki-12.csv").exists());
    // A dry run writes nothing, so it needs no lock.
    build(dir.path(), &["--dry-run"]);
    drop(folder);
    build(dir.path(), &[]);
    assert!(dir.path().join("out/manifest.json").exists());
}

#[test]
fn bad_recipes_are_one_line_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let kept = "title = \"t\"\n[[kept]]\nfile = \"k.txt\"\nabout = \"k\"\n";
    for (recipe, message) in [
        ("title = \"t\"\n[[table]]\nfile = \"x.csv\"\n", "missing field `about`"),
        ("title = [", "recipe recipe.toml"),
        (
            "title = \"t\"\n[[table]]\nfile = \"../x.csv\"\nabout = \"a\"\ngame = \"nim\"\n",
            "inside the output folder",
        ),
        (kept, "k.txt: the kept file is not in"),
        // Issue 50: names that would break `sha256sum -c SHA256SUMS` or a terminal.
        (
            "title = \"t\"\n[[table]]\nfile = \"a\\nb.csv\"\nabout = \"a\"\ngame = \"nim\"\nsize = \"3x3\"\n",
            "holds the control character '\\n'",
        ),
        (
            "title = \"t\"\n[[table]]\nfile = \"\\u001b[31mred.csv\"\nabout = \"a\"\ngame = \"nim\"\nsize = \"3x3\"\n",
            "holds the control character '\\u{1b}'",
        ),
    ] {
        fs::write(dir.path().join("recipe.toml"), recipe).unwrap();
        let failed = grundy()
            .current_dir(dir.path())
            .args(["dataset", "recipe.toml", "--out", "out"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
        let stderr = &failed.get_output().stderr;
        assert_eq!(stderr.iter().filter(|&&b| b == b'\n').count(), 1, "{recipe}");
        assert!(!dir.path().join("out/README.md").exists());
    }
    grundy()
        .current_dir(dir.path())
        .args(["dataset", "missing.toml", "--out", "out"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
    fs::write(dir.path().join("file"), "").unwrap();
    fs::write(dir.path().join("recipe.toml"), kept).unwrap();
    grundy()
        .current_dir(dir.path())
        .args(["dataset", "recipe.toml", "--out", "file"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out file is not a folder"));
}

/// SIGTERM (or Ctrl-C) during a long entry stops the build within moments: the command making
/// it stops and leaves nothing behind, the files made before it are recorded, and the next run
/// goes on from there.
#[cfg(unix)]
#[test]
fn an_interrupted_build_keeps_what_it_made() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let recipe = |slow: &str| {
        format!(
            "title = \"t\"\n\
             [[table]]\nfile = \"kiki.csv\"\nabout = \"a\"\ngame = \"kiki\"\nsize = \"9x9\"\n\
             [[table]]\nfile = \"slow.json\"\nabout = \"b\"\ngame = \"wythoff\"\nsize = \"{slow}\"\n\
             options = [\"--stream\"]\n"
        )
    };
    fs::write(dir.path().join("recipe.toml"), recipe("40000x40000")).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .current_dir(dir.path())
        .args(["dataset", "recipe.toml", "--out", "out"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push(line.clone());
        if line.contains("making slow.json") {
            break;
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let started = std::time::Instant::now();
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert!(started.elapsed().as_secs() < 20, "it took {:?} to stop", started.elapsed());
    seen.extend(lines.map(Result::unwrap));
    assert_eq!(status.code(), Some(130), "{seen:?}");
    assert!(seen.last().unwrap().contains("interrupted while making slow.json"), "{seen:?}");
    let out = dir.path().join("out");
    let left: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut left = left;
    left.sort();
    assert_eq!(left, ["kiki.csv", "manifest.json"], "nothing half-made is left");
    fs::write(dir.path().join("recipe.toml"), recipe("20x20")).unwrap();
    assert_eq!(made(&build(dir.path(), &[])), ["slow.json"]);
}

/// A link planted in a collection's folder is refused, not written through, wherever it is:
/// at an entry's file, on the way to it, at its sidecar or at one of the build's own files
/// (issue 50).
#[cfg(unix)]
#[test]
fn a_rebuild_writes_through_no_link_planted_in_the_folder() {
    let dir = setup();
    build(dir.path(), &[]);
    let out = dir.path().join("out");
    let victim = dir.path().join("victim.txt");
    for planted in ["kiki-12.csv", "tables", "tables/wythoff-20.npy.json", "SHA256SUMS"] {
        fs::write(&victim, "precious\n").unwrap();
        let at = out.join(planted);
        let moved = dir.path().join("moved");
        fs::rename(&at, &moved).unwrap();
        std::os::unix::fs::symlink(&victim, &at).unwrap();
        grundy()
            .current_dir(dir.path())
            .args(["dataset", "recipe.toml", "--out", "out", "--force"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is a symbolic link"));
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n", "{planted}");
        fs::remove_file(&at).unwrap();
        fs::rename(&moved, &at).unwrap();
    }
}
