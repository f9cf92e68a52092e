//! The engines a table can be filled with, and their names: one table of names for the command
//! line, the Python package and anything later.

use std::fmt;
use std::str::FromStr;

/// Which engine fills the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fastest engine for the game: [`Engine::Sparse`] for the heap games it computes,
    /// [`Engine::Tiles`] for every other game.
    #[default]
    Auto,
    /// Row-major, options spelt out per cell; single-threaded.
    Reference,
    /// Compiled move tables, cell anti-diagonal waves in parallel.
    Waves,
    /// Compiled move tables, square tiles in anti-diagonal tile-waves in parallel, line
    /// accumulators for slides: the fast engine for boards.
    Tiles,
    /// The sparse-space (rare/common) method for heap games whose moves leave at most two heaps;
    /// two workers pipeline consecutive heaps when the heaps are expensive and the pool has two
    /// threads or more.
    Sparse,
    /// The retrograde kernel: generalized Sprague–Grundy values of a whole bounded board by
    /// Fraenkel's labelling (`crate::retrograde`). What a loopy game runs; an acyclic game whose
    /// moves leave single positions may run it too (every value is then finite and equals the
    /// other engines').
    Retrograde,
    /// The exact misère search over sums (`crate::misere`): what a heap game under misère play
    /// whose moves leave sums runs, as no cell-by-cell fill computes it (a cell's misère value
    /// is not a function of its options' values there).
    Search,
}

impl Engine {
    /// Every engine, in the order front ends list them.
    pub const ALL: [Engine; 7] = [
        Engine::Auto,
        Engine::Sparse,
        Engine::Tiles,
        Engine::Waves,
        Engine::Reference,
        Engine::Retrograde,
        Engine::Search,
    ];

    /// Every engine's name, in the order of [`Engine::ALL`].
    pub const NAMES: [&'static str; 7] =
        ["auto", "sparse", "tiles", "waves", "reference", "retrograde", "search"];

    /// The engine's name, as it is parsed.
    pub fn name(self) -> &'static str {
        let index = Engine::ALL.iter().position(|&e| e == self).expect("every engine is listed");
        Engine::NAMES[index]
    }

    /// Whether the engine runs the tiled engine's parts (its kernel, plans and stores): what the
    /// streamed and distributed layouts are made of.
    pub fn runs_tiles(self) -> bool {
        matches!(self, Engine::Auto | Engine::Tiles)
    }

    /// Whether the engine fills in waves that a caller can watch, save and stop between
    /// ([`crate::fill::TableFill::fill_resumable`]): every in-memory engine but the reference fill
    /// and the search.
    pub fn has_waves(self) -> bool {
        !matches!(self, Engine::Reference | Engine::Search)
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no engine's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEngine(pub String);

impl fmt::Display for UnknownEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = Engine::NAMES.iter().map(|n| format!("'{n}'")).collect();
        let (last, rest) = names.split_last().expect("engines are listed");
        write!(f, "unknown engine {:?}: use {} or {last}", self.0, rest.join(", "))
    }
}

impl std::error::Error for UnknownEngine {}

impl FromStr for Engine {
    type Err = UnknownEngine;

    fn from_str(name: &str) -> Result<Engine, UnknownEngine> {
        Engine::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|index| Engine::ALL[index])
            .ok_or_else(|| UnknownEngine(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for engine in Engine::ALL {
            assert_eq!(engine.name().parse::<Engine>(), Ok(engine));
            assert_eq!(engine.to_string(), engine.name());
        }
        assert_eq!(
            "fast".parse::<Engine>().unwrap_err().to_string(),
            "unknown engine \"fast\": use 'auto', 'sparse', 'tiles', 'waves', 'reference', 'retrograde' or 'search'"
        );
    }
}
