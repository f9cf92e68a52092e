//! The curated collections are what their recipes make: `data/recipe.toml` and
//! `docs/images/recipe.toml` are built again, whole (`--force`), in a copy of their folders, and
//! every committed file, the checksums, the manifest and the card must come out byte for byte
//! (files not committed, under `data/large/`, by their checksum in `SHA256SUMS`).

mod common;

use common::grundy;
use std::fs;
use std::path::Path;

/// Copies the folder `from` into `to`, following symbolic links (`data/games` is one), leaving
/// out `large/` (not committed: the build makes it, and SHA256SUMS checks it).
fn copy_folder(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let path = entry.path();
        if path.is_dir() {
            if name != "large" {
                copy_folder(&path, &to.join(&name));
            }
        } else {
            fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// Builds the collection in `folder` (relative to the repository) again in a copy and compares.
fn rebuilds_byte_for_byte(folder: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let committed = root.join(folder);
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy");
    copy_folder(&committed, &copy);
    grundy()
        .current_dir(&copy)
        .args(["dataset", "recipe.toml", "--out", ".", "--force", "--quiet"])
        .assert()
        .success();
    let sums = fs::read_to_string(committed.join("SHA256SUMS")).unwrap();
    let files: Vec<&str> =
        sums.lines().map(|line| line.split_once("  ").expect("`SUM  FILE` lines").1).collect();
    assert!(files.len() >= 4, "{folder}/SHA256SUMS lists only {} files", files.len());
    for own in ["SHA256SUMS", "manifest.json", "README.md"] {
        assert!(
            fs::read(copy.join(own)).unwrap() == fs::read(committed.join(own)).unwrap(),
            "{folder}/{own} is not what its recipe makes: run scripts/regen-data.sh"
        );
    }
    for file in files {
        if file.starts_with("large/") {
            continue; // its checksum is in SHA256SUMS, compared above
        }
        let bytes =
            fs::read(committed.join(file)).unwrap_or_else(|e| panic!("{folder}/{file}: {e}"));
        assert!(bytes.len() < 1 << 20, "{folder}/{file} is over 1 MiB: list it under large/");
        assert!(
            fs::read(copy.join(file)).unwrap() == bytes,
            "{folder}/{file} differs from what its recipe makes"
        );
    }
}

/// Minutes in a debug build: CI runs it in a step of its own, in release (`.ci/run`; locally
/// `cargo test --release -p grundy-cli --test datasets -- --ignored`).
#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn the_curated_datasets_are_what_their_recipe_makes() {
    rebuilds_byte_for_byte("data");
}

#[test]
#[ignore = "slow: run with --release -- --ignored (a CI step of its own)"]
fn the_readme_pictures_are_what_their_recipe_makes() {
    rebuilds_byte_for_byte("docs/images");
}
