//! A survey's partial file: one line per member computed, as it is computed (its row and its
//! values, packed), so that an interrupted survey goes on from where it stopped. The format, and
//! the rules for reading it back, are this module's; the command line owns the file.

use super::family::Family;
use super::row::Row;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::BufRead;

/// A member's row before classes, and its values (kept to compare members).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Computed {
    /// The row (`class` and `equivalence` not yet set).
    pub row: Row,
    /// The values, row-major (serialised packed: see [`packed`]).
    #[serde(with = "packed")]
    pub values: Vec<u32>,
}

/// Values as a survey's partial file keeps them: `W:` then, in base64, the values as
/// little-endian cells of W bytes (the narrowest that holds them), deflated. A periodic
/// sequence of a million byte values takes a few kilobytes instead of megabytes of JSON.
pub mod packed {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::io::{Read, Write};

    /// Packs `values`.
    pub fn serialize<S: Serializer>(values: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
        let max = values.iter().copied().max().unwrap_or(0);
        let width = if max <= 0xff {
            1
        } else if max <= 0xffff {
            2
        } else {
            4
        };
        let mut encoder =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        for v in values {
            encoder.write_all(&v.to_le_bytes()[..width]).map_err(serde::ser::Error::custom)?;
        }
        let deflated = encoder.finish().map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&format!("{width}:{}", STANDARD.encode(deflated)))
    }

    /// Unpacks values packed by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u32>, D::Error> {
        let text = String::deserialize(deserializer)?;
        let (width, data) = text.split_once(':').ok_or_else(|| D::Error::custom("no width"))?;
        let width: usize = match width {
            "1" => 1,
            "2" => 2,
            "4" => 4,
            other => return Err(D::Error::custom(format!("cell width {other}"))),
        };
        let deflated = STANDARD.decode(data).map_err(D::Error::custom)?;
        let mut bytes = Vec::new();
        flate2::read::DeflateDecoder::new(&deflated[..])
            .read_to_end(&mut bytes)
            .map_err(D::Error::custom)?;
        if bytes.len() % width != 0 {
            return Err(D::Error::custom("a cell cut short"));
        }
        Ok(bytes
            .chunks_exact(width)
            .map(|cell| {
                let mut le = [0u8; 4];
                le[..width].copy_from_slice(cell);
                u32::from_le_bytes(le)
            })
            .collect())
    }
}

/// The line of a partial file that keeps `computed`: one JSON object and a newline.
///
/// # Errors
/// It cannot be written as JSON (it always can).
pub fn partial_line(computed: &Computed) -> serde_json::Result<String> {
    let mut line = serde_json::to_string(computed)?;
    line.push('\n');
    Ok(line)
}

/// Why a partial file cannot be gone on from.
#[derive(Debug)]
pub struct PartialError {
    /// The 1-based line.
    line: usize,
    kind: PartialErrorKind,
}

/// What is wrong with a line of a partial file.
#[derive(Debug)]
#[non_exhaustive]
pub enum PartialErrorKind {
    /// It cannot be read.
    Read(std::io::Error),
    /// It is not a member's row (and not the last line, which an interruption may cut short).
    NotARow(serde_json::Error),
    /// It is a row of a game that is not a member of the family.
    NotAMember {
        /// The game.
        game: String,
        /// The family, as written.
        family: String,
    },
}

impl PartialError {
    /// What is wrong.
    pub fn kind(&self) -> &PartialErrorKind {
        &self.kind
    }
}

impl fmt::Display for PartialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.line;
        match &self.kind {
            PartialErrorKind::Read(err) => write!(f, "line {line} cannot be read: {err}"),
            PartialErrorKind::NotARow(err) => write!(f, "line {line} is not a survey row: {err}"),
            PartialErrorKind::NotAMember { game, family } => {
                write!(f, "line {line} is {game}, which is not a member of {family}")
            }
        }
    }
}

impl std::error::Error for PartialError {}

/// The members an interrupted survey of `family` computed, by name, from its partial file: one
/// row per line. A last line cut short by the interruption is dropped; any other bad line, or a
/// member of another family, is an error.
///
/// # Errors
/// As [`PartialErrorKind`] says.
pub fn read_partial(
    input: impl BufRead,
    family: &Family,
) -> Result<HashMap<String, Computed>, PartialError> {
    let members: HashSet<&str> = family.members.iter().map(|g| g.name()).collect();
    let mut done = HashMap::new();
    let mut lines = input.lines().enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let refuse = |kind| PartialError { line: index + 1, kind };
        let line = line.map_err(|err| refuse(PartialErrorKind::Read(err)))?;
        match serde_json::from_str::<Computed>(&line) {
            Ok(computed) if members.contains(computed.row.game.as_str()) => {
                done.insert(computed.row.game.clone(), computed);
            }
            Ok(computed) => {
                let game = computed.row.game;
                let family = family.text.clone();
                return Err(refuse(PartialErrorKind::NotAMember { game, family }));
            }
            Err(_) if lines.peek().is_none() => {}
            Err(err) => return Err(refuse(PartialErrorKind::NotARow(err))),
        }
    }
    Ok(done)
}
