//! The game fixtures: spec files in `crates/testkit/games/`, one game each, read by name. A test
//! that needs a small game of its own writes it there once, and every test that plays it, of any
//! crate, through the library or the command line, reads the same file.

use grundy_core::{parse_spec, Game};
use std::path::{Path, PathBuf};

/// The folder of the fixtures.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// The spec file of the fixture `name` (`games/NAME.toml`), for a test that hands a path to the
/// command line. Panics, naming the folder, when there is none.
pub fn path(name: &str) -> PathBuf {
    let path = folder().join(format!("{name}.toml"));
    assert!(path.is_file(), "no game fixture `{name}` in {}", folder().display());
    path
}

/// The fixture's spec as text.
pub fn text(name: &str) -> String {
    let path = path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixture's game, parsed as the command line parses a spec file.
pub fn game(name: &str) -> Game {
    parse_spec(&text(name), &format!("{name}.toml"))
        .unwrap_or_else(|e| panic!("the game fixture `{name}`: {e}"))
}

/// The names of every fixture, sorted.
pub fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder())
        .expect("the fixtures' folder")
        .map(|entry| entry.expect("a fixture").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| path.file_stem().expect("a name").to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fixture parses, under the name its file gives it.
    #[test]
    fn every_fixture_parses_under_its_file_name() {
        let names = names();
        assert!(!names.is_empty());
        for name in names {
            assert_eq!(game(&name).name(), name, "games/{name}.toml names another game");
        }
    }

    /// Every fixture is read by a test of some crate: a game no test plays is not kept.
    #[test]
    fn every_fixture_is_read_by_a_test() {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut sources = String::new();
        let mut stack = vec![crates];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() && !path.ends_with("target") && !path.ends_with("testkit") {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    sources.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        for name in names() {
            assert!(
                sources.contains(&format!("(\"{name}\")")),
                "no test reads the game fixture `{name}`: use it or delete games/{name}.toml"
            );
        }
    }
}
