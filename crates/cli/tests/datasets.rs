//! The curated datasets are what their listed commands make: every committed file in the table
//! of `data/README.md` is rebuilt by its command and compared byte for byte (`scripts/regen-data.sh`
//! does the same with the release build and the SHA-256 sums).

mod common;

use common::grundy;
use std::fs;
use std::path::Path;

/// Minutes in a debug build: CI runs it in a step of its own, in release (`.ci/run`; locally
/// `cargo test --release -p grundy-cli --test datasets -- --ignored`).
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn every_committed_dataset_is_what_its_command_makes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = fs::read_to_string(root.join("data/README.md")).unwrap();
    let table = readme
        .split("<!-- datasets:start -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- datasets:end -->").next())
        .expect("data/README.md has the dataset table between its markers");
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for row in table.lines().filter(|line| line.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let file = cells[1].trim_matches('`');
        let command = cells[5].trim_matches('`');
        if file.starts_with("data/large/") {
            continue;
        }
        let args: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(args[0], "grundy", "{row}");
        let n = args.len();
        assert_eq!(&args[n - 2..], ["--out", file], "the command writes the file it lists: {row}");
        let rebuilt = dir.path().join(Path::new(file).file_name().unwrap());
        // From the repository's root, as `scripts/regen-data.sh` runs them (the index names spec
        // files by their paths there).
        let mut run = grundy();
        run.current_dir(&root);
        run.args(&args[1..n - 1]).arg(&rebuilt).arg("--quiet").assert().success();
        let committed = fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(committed.len() < 1 << 20, "{file} is over 1 MiB: list it under data/large/");
        assert!(
            fs::read(&rebuilt).unwrap() == committed,
            "{file} differs from what `{command}` makes"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} datasets listed");
}
