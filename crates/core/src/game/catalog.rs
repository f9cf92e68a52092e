//! The catalog: games known by name on the command line.

use super::{Axis, Game, OctalCode, Rule, StepSet};
use crate::ModelError;

/// One line of `grundy games`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    /// The name to type, e.g. `kiki` or `subtraction:S`.
    pub name: &'static str,
    /// The axes and their smallest coordinates, e.g. `n ≥ 1, m ≥ 1`.
    pub axes: &'static str,
    /// One line saying what the game is.
    pub description: &'static str,
}

const ENTRIES: &[CatalogEntry] = &[
    CatalogEntry {
        name: "cutting",
        axes: "w >= 2, h >= 2",
        description: "cut a WxH paper into two rectangles; whoever cuts out a 1x1 wins (POJ 2311)",
    },
    CatalogEntry {
        name: "kiki",
        axes: "n >= 1, m >= 1",
        description: "move a coin one cell left, down or diagonally left-down (HDU 2147)",
    },
    CatalogEntry {
        name: "prime-steps",
        axes: "n >= 1, m >= 1",
        description: "move a token down, right or diagonally by a prime number of cells",
    },
    CatalogEntry {
        name: "wythoff",
        axes: "a >= 0, b >= 0",
        description: "remove any number from one pile, or the same number from both",
    },
    CatalogEntry {
        name: "nim",
        axes: "a >= 0, b >= 0",
        description: "two-heap Nim: remove any number from one heap (value a XOR b)",
    },
    CatalogEntry {
        name: "subtraction:S",
        axes: "n >= 0",
        description:
            "remove s stones, s in the comma list S, e.g. subtraction:2,5 (S-Nim, HDU 1536)",
    },
    CatalogEntry {
        name: "octal:CODE",
        axes: "n >= 0",
        description: "take-and-break game with octal code CODE, e.g. octal:0.137 (Dawson's chess)",
    },
    CatalogEntry { name: "kayles", axes: "n >= 0", description: "Kayles, octal 0.77" },
    CatalogEntry {
        name: "dawsons-kayles",
        axes: "n >= 0",
        description: "Dawson's Kayles, octal 0.07",
    },
    CatalogEntry {
        name: "dawsons-chess",
        axes: "n >= 0",
        description: "Dawson's chess, octal 0.137",
    },
];

/// Every catalog entry, in the order `grundy games` lists them.
pub fn catalog() -> &'static [CatalogEntry] {
    ENTRIES
}

/// The game called `name` in the catalog, including the parameterised `subtraction:S` and
/// `octal:CODE`.
pub fn lookup(name: &str) -> Result<Game, ModelError> {
    let description = |n: &str| ENTRIES.iter().find(|e| e.name == n).map_or("", |e| e.description);
    let game = |axes: Vec<Axis>, rules: Vec<Rule>| {
        let entry = if name.starts_with("subtraction:") {
            "subtraction:S"
        } else if name.starts_with("octal:") {
            "octal:CODE"
        } else {
            name
        };
        Game::new(name, description(entry), axes, rules)
    };
    let plane = |a: &str, b: &str, min| vec![Axis::new(a, min), Axis::new(b, min)];
    let three_ways = || vec![vec![-1, 0], vec![0, -1], vec![-1, -1]];
    let heap = || vec![Axis::new("n", 0)];
    let octal = |code: &str| -> Result<Game, ModelError> {
        let code = OctalCode::parse_octal(code)
            .map_err(|reason| ModelError::BadParameter { name: name.to_string(), reason })?;
        game(heap(), vec![Rule::TakeAndBreak { code }])
    };
    match name {
        "cutting" => game(
            plane("w", "h", 2),
            vec![
                Rule::Split { axis: 0, min_piece: 2, unequal: false },
                Rule::Split { axis: 1, min_piece: 2, unequal: false },
            ],
        ),
        "kiki" => game(plane("n", "m", 1), vec![Rule::Step { offsets: three_ways() }]),
        "prime-steps" => game(
            plane("n", "m", 1),
            vec![Rule::Jump { directions: three_ways(), steps: StepSet::Primes }],
        ),
        "wythoff" => {
            game(plane("a", "b", 0), vec![Rule::Slide { directions: three_ways(), max: None }])
        }
        "nim" => game(
            plane("a", "b", 0),
            vec![Rule::Slide { directions: vec![vec![-1, 0], vec![0, -1]], max: None }],
        ),
        "kayles" => octal("0.77"),
        "dawsons-kayles" => octal("0.07"),
        "dawsons-chess" => octal("0.137"),
        _ => {
            if let Some(list) = name.strip_prefix("subtraction:") {
                let steps = parse_subtraction_set(list).map_err(|reason| {
                    ModelError::BadParameter { name: name.to_string(), reason }
                })?;
                game(heap(), vec![Rule::Jump { directions: vec![vec![-1]], steps }])
            } else if let Some(code) = name.strip_prefix("octal:") {
                octal(code)
            } else {
                let known: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
                Err(ModelError::UnknownGame { name: name.to_string(), known: known.join(", ") })
            }
        }
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
    StepSet::list(amounts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plain_entry_builds() {
        for entry in catalog().iter().filter(|e| !e.name.contains(':')) {
            let game = lookup(entry.name).unwrap();
            assert_eq!(game.description(), entry.description);
        }
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
        assert!(err.starts_with("unknown game `chess` (known games: cutting, kiki"), "{err}");
    }

    #[test]
    fn parameterised_entries_build() {
        assert_eq!(
            lookup("subtraction:5,2").unwrap().rules()[0],
            Rule::Jump { directions: vec![vec![-1]], steps: StepSet::List(vec![2, 5]) }
        );
        assert_eq!(lookup("octal:0.07").unwrap().name(), "octal:0.07");
    }
}
