//! ARCHITECTURE.md's errands name the files a change touches; the code says which files those
//! are. Each errand's list (between `<!-- errand:NAME -->` and `<!-- /errand -->`) must be
//! exactly the source files, tests aside, that hold what the errand changes:
//!
//! - `move`: a new kind of move needs an arm wherever the code matches on a `Rule` variant
//!   (core alone: the engines and the proofs read the rule's `MoveForm`), at most five files;
//! - `form`: a new form of moves, wherever the code matches on a `MoveForm` variant;
//! - `play`: a new play convention, wherever the code names `Play::Normal` or `Play::Misere`;
//! - `claim`: a new function of the claim language, wherever the code names a `Func` variant.
//!
//! and `game`: every game of the catalog folder is checked against its known values in
//! `crates/compute/tests/known.rs` (by name), the file the errand names.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Test modules kept in files of their own (`#[cfg(test)] mod compositions;`), as
/// `scripts/seams.sh` counts them.
const TEST_MODULES: &[&str] = &["crates/compute/src/compositions.rs"];

/// Every source file of the crates' `src/` folders with its code before its test module, tests
/// aside (`tests/` folders, `tests.rs` files, benches), by its path from the repository's root.
fn sources() -> Vec<(String, String)> {
    let root = root();
    let mut found = Vec::new();
    let mut stack = vec![root.join("crates")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["tests", "benches", "target"].contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            if !relative.contains("/src/")
                || name == "tests.rs"
                || !name.ends_with(".rs")
                || TEST_MODULES.contains(&relative.as_str())
            {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            let code = text.split("\n#[cfg(test)]").next().unwrap().to_string();
            found.push((relative, code));
        }
    }
    found.sort();
    found
}

/// Where `token` starts in `line` as a path of its own (not the end of a longer name, such as
/// `ValueRule::` for `Rule::`), outside a `//` comment.
fn token_at(line: &str, token: &str) -> Option<usize> {
    let code = line.split("//").next().unwrap();
    code.match_indices(token).map(|(at, _)| at).find(|&at| {
        code[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

/// The files whose code has a line that `holds`.
fn files_where(holds: impl Fn(&str) -> bool) -> BTreeSet<String> {
    sources()
        .into_iter()
        .filter(|(_, code)| code.lines().any(&holds))
        .map(|(file, _)| file)
        .collect()
}

/// Whether `code` matches on a variant named by `token`: an arm (`Token::X { .. } =>`, over
/// lines too), a `let` or `if let` that takes one apart, or a `matches!`. Building a value of the
/// type (`vec![Rule::Slide { .. }]`) is not matching on it.
fn matches_on(code: &str, token: &str) -> bool {
    code.lines().enumerate().any(|(number, line)| {
        let Some(at) = token_at(line, token) else { return false };
        let before = &line[..at];
        // `let Token::X`, `let [Token::X] = …`, `if let (Token::X, …)`.
        let opened = before.trim_end().trim_end_matches(['[', '(', '&', ' ']);
        if opened.ends_with("let") || before.contains("matches!(") {
            return true;
        }
        // From the variant on, at depth 0: `=>` ends an arm; `;`, `,`, `=` or a closing bracket
        // end an expression.
        let rest: String = code.lines().skip(number).collect::<Vec<_>>().join("\n");
        let rest = &rest[rest.find(&line[at..]).unwrap_or(0)..];
        let mut depth = 0usize;
        for (i, c) in rest.char_indices() {
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' if depth == 0 => return false,
                '}' | ')' | ']' => depth -= 1,
                '=' if depth == 0 => return rest[i..].starts_with("=>"),
                ';' | ',' if depth == 0 => return false,
                _ => {}
            }
        }
        false
    })
}

/// The files whose code matches on a variant named by `token` ([`matches_on`]).
fn files_matching_on(token: &str) -> BTreeSet<String> {
    sources()
        .into_iter()
        .filter(|(_, code)| matches_on(code, token))
        .map(|(file, _)| file)
        .collect()
}

/// The files an errand's block of ARCHITECTURE.md names (each `crates/….rs` in backquotes).
fn listed(errand: &str) -> BTreeSet<String> {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let open = format!("<!-- errand:{errand} -->");
    let start = text.find(&open).unwrap_or_else(|| panic!("ARCHITECTURE.md has no {open}"));
    let block = &text[start..];
    let block = &block[..block.find("<!-- /errand -->").expect("the errand's block ends")];
    block
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.starts_with("crates/") && word.ends_with(".rs"))
        .map(str::to_string)
        .collect()
}

fn assert_listed(errand: &str, found: BTreeSet<String>) {
    let listed = listed(errand);
    let missing: Vec<&String> = found.difference(&listed).collect();
    let extra: Vec<&String> = listed.difference(&found).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "ARCHITECTURE.md's errand `{errand}` lists {} files where the code has {}: add {missing:?}, \
         remove {extra:?}",
        listed.len(),
        found.len()
    );
}

#[test]
fn a_new_kind_of_move_lists_every_file_that_matches_on_a_rule() {
    let found = files_matching_on("Rule::");
    assert!(found.contains("crates/core/src/game.rs"), "{found:?}");
    // Issue 68: a new kind of move was ten files; lowered to forms, it stays in core.
    assert!(found.len() <= 5, "a new kind of move touches {} files: {found:?}", found.len());
    assert_listed("move", found);
}

#[test]
fn a_new_form_of_moves_lists_every_file_that_matches_on_a_form() {
    let found = files_matching_on("MoveForm::");
    assert!(found.contains("crates/compute/src/compiled.rs"), "{found:?}");
    assert_listed("form", found);
}

#[test]
fn a_new_play_convention_lists_every_file_that_names_one() {
    let found = files_where(|line| {
        token_at(line, "Play::Normal").is_some() || token_at(line, "Play::Misere").is_some()
    });
    assert!(found.contains("crates/core/src/play.rs"), "{found:?}");
    assert_listed("play", found);
}

#[test]
fn a_new_function_of_the_claim_language_lists_every_file_that_names_one() {
    let found = files_where(|line| token_at(line, "Func::").is_some());
    assert!(found.contains("crates/expr/src/parse.rs"), "{found:?}");
    assert_listed("claim", found);
}

/// A new game's errand ends in `known.rs`: every game of the catalog folder is named there.
#[test]
fn every_catalog_game_is_checked_in_known_rs() {
    let known = fs::read_to_string(root().join("crates/compute/tests/known.rs")).unwrap();
    let mut unchecked = Vec::new();
    for entry in fs::read_dir(root().join("crates/core/games")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !known.contains(&format!("\"{name}\"")) {
            unchecked.push(name);
        }
    }
    unchecked.sort();
    assert!(unchecked.is_empty(), "crates/compute/tests/known.rs checks none of {unchecked:?}");
    assert!(listed("game").contains("crates/compute/tests/known.rs"));
}

/// A reader of the rules' forms reads the same moves at every position; a game with terminal
/// positions (issue 69) has other moves at some. Each file that reads forms says what it does
/// with terminal positions (reads them, refuses the game, or is never reached with one), so that
/// a new reader cannot ignore them unseen.
#[test]
fn every_reader_of_forms_decides_about_terminal_positions() {
    let readers: Vec<(String, String)> =
        sources().into_iter().filter(|(_, code)| code.contains(".form()")).collect();
    assert!(readers.len() >= 5, "{:?}", readers.iter().map(|(f, _)| f).collect::<Vec<_>>());
    for (file, code) in readers {
        if file == "crates/core/src/game/form.rs" {
            continue;
        }
        assert!(code.contains("terminal"), "{file} reads the rules' forms but not `terminal()`");
    }
}
