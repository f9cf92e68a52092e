//! The catalog: the spec files in this crate's `games/` folder (also seen as `data/games/` at the
//! top of the repository), embedded at compile time by `build.rs` so the binary works from any
//! directory and the packaged crate carries them, and the parameterised names `subtraction:S`
//! and `octal:CODE`. A game is in the catalog because its file is: there is no second list.

use super::{parse_spec, Axis, Game, OctalCode, Rule, StepSet};
use crate::error::ModelError;

/// One line of `grundy games`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    /// The name to type, e.g. `kiki` or `subtraction:S`.
    pub name: String,
    /// The axes and their ranges, e.g. `n >= 1, m >= 1` (or `n in 0..=63` on a bounded axis).
    pub axes: String,
    /// One line saying what the game is.
    pub description: String,
}

// `SPECS`: every `games/*.toml` of this crate, written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

const SUBTRACTION: &str =
    "remove s stones, s in the comma list S, e.g. subtraction:2,5 (S-Nim, HDU 1536)";
const OCTAL: &str = "take-and-break game with octal code CODE, e.g. octal:0.137 (Dawson's chess)";
const HEX: &str =
    "take-and-break game with hexadecimal code CODE (8: three heaps), e.g. hex:0.8 or hex:4.c";

/// Every catalog entry: the embedded spec files by name, then `subtraction:S`, `octal:CODE` and
/// `hex:CODE`.
pub fn catalog() -> Vec<CatalogEntry> {
    let mut entries: Vec<CatalogEntry> = SPECS
        .iter()
        .map(|(name, _)| {
            let game = lookup(name).expect("embedded specs are valid (tested)");
            let axes: Vec<String> = game
                .axes()
                .iter()
                .map(|a| match a.max {
                    Some(max) => format!("{} in {}..={max}", a.name, a.min),
                    None => format!("{} >= {}", a.name, a.min),
                })
                .collect();
            CatalogEntry {
                name: name.to_string(),
                axes: axes.join(", "),
                description: game.description().to_string(),
            }
        })
        .collect();
    for (name, description) in
        [("subtraction:S", SUBTRACTION), ("octal:CODE", OCTAL), ("hex:CODE", HEX)]
    {
        entries.push(CatalogEntry {
            name: name.into(),
            axes: "n >= 0".into(),
            description: description.into(),
        });
    }
    entries
}

/// The spec text of the catalog game `name`, if it is an embedded spec file.
pub fn catalog_spec(name: &str) -> Option<&'static str> {
    SPECS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// The game called `name` in the catalog, including the parameterised `subtraction:S`,
/// `octal:CODE` and `hex:CODE`.
pub fn lookup(name: &str) -> Result<Game, ModelError> {
    if let Some(text) = catalog_spec(name) {
        return parse_spec(text, &format!("games/{name}.toml"));
    }
    let bad = |reason: String| ModelError::BadParameter { name: name.to_string(), reason };
    let heap = || vec![Axis::new("n", 0)];
    if let Some(list) = name.strip_prefix("subtraction:") {
        let steps = parse_subtraction_set(list).map_err(bad)?;
        let description =
            format!("subtraction game: remove s stones, s in {{{}}}", list.replace(' ', ""));
        Game::new(
            name,
            &description,
            heap(),
            vec![Rule::Jump { directions: vec![vec![-1]], steps }],
        )
    } else if let Some(code) = name.strip_prefix("octal:") {
        let code = OctalCode::parse_octal(code).map_err(|err| bad(err.to_string()))?;
        let description = format!("take-and-break game with octal code {code}");
        Game::new(name, &description, heap(), vec![Rule::TakeAndBreak { code }])
    } else if let Some(code) = name.strip_prefix("hex:") {
        let code = OctalCode::parse_hex(code).map_err(|err| bad(err.to_string()))?;
        let description = format!("take-and-break game with hexadecimal code {code}");
        Game::new(name, &description, heap(), vec![Rule::TakeAndBreak { code }])
    } else {
        let known: Vec<String> = catalog().into_iter().map(|e| e.name).collect();
        Err(ModelError::UnknownGame { name: name.to_string(), known: known.join(", ") })
    }
}

fn parse_subtraction_set(list: &str) -> Result<StepSet, String> {
    if list.trim().is_empty() {
        return Err("the subtraction set is empty; write e.g. subtraction:2,5".into());
    }
    let amounts = list
        .split(',')
        .map(|item| {
            let item = item.trim();
            match item.parse::<u64>() {
                Ok(0) => {
                    Err("0 is not a subtraction amount (a move must remove stones)".to_string())
                }
                Ok(n) if n <= u32::MAX as u64 => Ok(n),
                _ => Err(format!("`{item}` is not a positive whole number")),
            }
        })
        .collect::<Result<Vec<u64>, String>>()?;
    StepSet::list(amounts).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_spec_is_valid_and_named_after_its_file() {
        for (name, _) in SPECS {
            let game = lookup(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(game.name(), *name);
            assert!(!game.description().is_empty(), "{name} has no description");
        }
        assert_eq!(catalog().len(), SPECS.len() + 3);
    }

    #[test]
    fn malformed_parameters_are_refused() {
        for name in [
            "subtraction:",
            "subtraction:0",
            "subtraction:2,,5",
            "subtraction:x",
            "octal:0.8",
            "octal:",
        ] {
            let err = lookup(name).unwrap_err();
            assert!(matches!(err, ModelError::BadParameter { .. }), "{name}: {err}");
        }
        let err = lookup("chess").unwrap_err().to_string();
        assert!(
            err.starts_with("unknown game `chess` (known games: cutting, cutting-cuboid"),
            "{err}"
        );
    }

    #[test]
    fn parameterised_entries_build() {
        assert_eq!(
            lookup("subtraction:5,2").unwrap().rules()[0],
            Rule::Jump { directions: vec![vec![-1]], steps: StepSet::list(vec![2, 5]).unwrap() }
        );
        assert_eq!(lookup("octal:0.07").unwrap().name(), "octal:0.07");
    }
}
