//! The manifest (`manifest.json`): what a build made, machine-readable — each file with the
//! command and inputs that made it, the game's rules, its size and SHA-256. It is also what the
//! next build reads to skip the files that are already what the recipe asks for. It holds no
//! date and no git revision, so that the same recipe gives the same manifest.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// The manifest's format; a reader refuses a newer one.
pub(crate) const MANIFEST_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub(crate) grundy_dataset: u32,
    pub(crate) title: String,
    /// The recipe, as the card's rebuilding command names it (relative to the output folder).
    pub(crate) recipe: String,
    pub(crate) grundy_version: String,
    pub(crate) files: Vec<Built>,
}

/// One file of the collection, as built (or found, for a kept file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Built {
    pub(crate) file: String,
    /// `table`, `plot`, `survey` or `kept`.
    pub(crate) kind: String,
    pub(crate) about: String,
    /// The command that made it, run from the recipe's folder; none for a kept file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) command: Option<Vec<String>>,
    /// The game of a table or picture: its name, rules and fingerprint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) game: Option<GameRecord>,
    /// The files the command read (spec files), with their checksums.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) inputs: Vec<Summed>,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
    /// The provenance the command wrote beside the file (`FILE.json`), if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sidecar: Option<Summed>,
}

/// A game as the manifest and the card describe it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GameRecord {
    pub(crate) name: String,
    pub(crate) description: String,
    /// Its axes' names, in order (`n` for a heap game).
    pub(crate) axes: Vec<String>,
    /// Its canonical spec (TOML), which reproduces it; `grundy_core::to_spec`.
    pub(crate) spec: String,
    pub(crate) fingerprint: String,
}

/// A file's size and SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Summed {
    pub(crate) file: String,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
}

impl Summed {
    /// Sums the file at `path`, recorded as `file`.
    pub(crate) fn of(path: &Path, file: &str) -> Result<Summed> {
        let (bytes, sha256) =
            sha256_of(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Summed { file: file.to_string(), bytes, sha256 })
    }
}

/// The size and SHA-256 (lower-case hex) of a file, read in blocks.
pub(crate) fn sha256_of(path: &Path) -> std::io::Result<(u64, String)> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        bytes += read as u64;
    }
    Ok((bytes, format!("{:x}", hasher.finalize())))
}

impl Manifest {
    /// The manifest of an earlier build in `dir`, if there is one this build can read; an
    /// unreadable one only means that everything is built again.
    pub(crate) fn previous(dir: &Path) -> Option<Manifest> {
        let text = std::fs::read_to_string(dir.join(super::recipe::MANIFEST)).ok()?;
        let manifest: Manifest = serde_json::from_str(&text).ok()?;
        (manifest.grundy_dataset == MANIFEST_VERSION).then_some(manifest)
    }

    pub(crate) fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serializes");
        text.push('\n');
        text
    }
}
