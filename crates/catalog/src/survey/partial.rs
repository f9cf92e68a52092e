//! A survey's partial file: one line per member computed, as it is computed (its row and its
//! values, packed), so that an interrupted survey goes on from where it stopped. The format, and
//! the rules for reading it back, are this module's; the command line owns the file.

use super::extent::Extent;
use super::family::Family;
use super::row::Row;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, Read};

/// A member's row before classes, and its values (kept to compare members).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Computed {
    /// The row (`class` and `equivalence` not yet set).
    pub row: Row,
    /// The values, row-major (serialised packed: see [`packed`]).
    #[serde(with = "packed")]
    pub values: Vec<u32>,
    /// What the front end should tell of this member besides its row: why its search stopped
    /// before the extent asked for (a misère search at its limits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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
        unpack(&text, u128::MAX).map_err(D::Error::custom)
    }

    /// Unpacks `text`, packed by [`serialize`], refusing more than `most` values before they
    /// are inflated past it (a few hundred bytes of deflated zeros can claim gigabytes).
    ///
    /// # Errors
    /// The text is not packed values, or holds more than `most`.
    pub fn unpack(text: &str, most: u128) -> Result<Vec<u32>, String> {
        let (width, data) = text.split_once(':').ok_or("no width")?;
        let width: usize = match width {
            "1" => 1,
            "2" => 2,
            "4" => 4,
            other => return Err(format!("cell width {other}")),
        };
        let deflated = STANDARD.decode(data).map_err(|err| err.to_string())?;
        let most_bytes = u64::try_from(most.saturating_mul(width as u128)).unwrap_or(u64::MAX);
        let mut bytes = Vec::new();
        flate2::read::DeflateDecoder::new(&deflated[..])
            .take(most_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|err| err.to_string())?;
        if bytes.len() as u64 > most_bytes {
            return Err(format!("more than the {most} values a member of this survey can have"));
        }
        if bytes.len() % width != 0 {
            return Err("a cell cut short".to_string());
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

/// What a partial file was written for: its first line. A survey goes on only from rows
/// computed with its own settings (issue 28: rows of 3001 and 6001 values were mixed).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Settings {
    /// The family as written.
    survey: String,
    /// How far each member is computed.
    extent: Extent,
    /// The number of members and a checksum of their rules: a template edited since the
    /// interruption lists other games under the same names.
    members: usize,
    rules: String,
}

impl Settings {
    fn of(family: &Family, extent: Extent) -> Settings {
        let mut hasher = crc32fast::Hasher::new();
        for game in &family.members {
            hasher.update(grundy_core::to_spec(game).as_bytes());
            hasher.update(b"\0");
        }
        Settings {
            survey: family.text.clone(),
            extent,
            members: family.members.len(),
            rules: format!("{:08x}", hasher.finalize()),
        }
    }

    fn describe(&self) -> String {
        let mut text = format!("{} up to {}", self.survey, self.extent.size);
        if let Some(limit) = self.extent.until_proved {
            text += &format!(", until proved (limit {limit})");
        }
        if let Some(seconds) = self.extent.search_seconds {
            text += &format!(", misère searches of {seconds} s at most");
        }
        text
    }
}

/// The first line of a partial file of `family` computed as far as `extent`: its settings.
///
/// # Errors
/// It cannot be written as JSON (it always can).
pub fn partial_header(family: &Family, extent: Extent) -> serde_json::Result<String> {
    let mut line = serde_json::to_string(&Settings::of(family, extent))?;
    line.push('\n');
    Ok(line)
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
    /// The first line is not a survey's settings.
    NoSettings,
    /// The survey was started with other settings.
    OtherSettings {
        /// What the file was written for.
        written: String,
        /// What this run computes.
        now: String,
    },
    /// The survey's settings are the same but its members' rules have changed.
    OtherRules,
    /// A line is longer than a row of this survey can be.
    TooLong {
        /// The most bytes a line may have.
        most: u64,
    },
    /// It is not a member's row (and not the last line, which an interruption may cut short).
    NotARow(String),
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
            PartialErrorKind::NoSettings => {
                f.write_str("it is not a survey's partial file (its first line names no survey)")
            }
            PartialErrorKind::OtherSettings { written, now } => write!(
                f,
                "it holds rows of {written}, not of {now}: resume with the same settings, or \
                 delete it to start over"
            ),
            PartialErrorKind::OtherRules => f.write_str(
                "its members' rules have changed since it was written: delete it to start over",
            ),
            PartialErrorKind::TooLong { most } => {
                write!(f, "line {line} is longer than a row of this survey can be ({most} bytes)")
            }
            PartialErrorKind::NotARow(err) => write!(f, "line {line} is not a survey row: {err}"),
            PartialErrorKind::NotAMember { game, family } => {
                write!(f, "line {line} is {game}, which is not a member of {family}")
            }
        }
    }
}

impl std::error::Error for PartialError {}

/// A row as a partial file holds it, its values still packed: they are unpacked once the
/// member, and so the bound on its values, is known.
#[derive(Deserialize)]
struct PackedRow {
    row: Row,
    values: String,
    #[serde(default)]
    note: Option<String>,
}

/// The members an interrupted survey of `family`, computed as far as `extent`, computed, by
/// name, from its partial file: its settings, then one row per line. A last line cut short by
/// the interruption is dropped; a file of other settings or rules, any other bad line, a line or
/// values longer than a member of this survey can have, or a member of another family, is an
/// error.
///
/// # Errors
/// As [`PartialErrorKind`] says.
pub fn read_partial(
    mut input: impl BufRead,
    family: &Family,
    extent: Extent,
) -> Result<HashMap<String, Computed>, PartialError> {
    let members: HashMap<&str, &grundy_core::Game> =
        family.members.iter().map(|g| (g.name(), g)).collect();
    let most_values = family.members.iter().map(|g| extent.most_values(g)).max().unwrap_or(0);
    // Base64 of deflated cells of four bytes at most, and the row's own fields.
    let most_line =
        u64::try_from(most_values.saturating_mul(6)).unwrap_or(u64::MAX / 2) + (1 << 16);
    let mut done = HashMap::new();
    let mut buffer = Vec::new();
    let mut index = 0;
    let mut next_line = |buffer: &mut Vec<u8>, index: &mut usize| {
        buffer.clear();
        *index += 1;
        let refuse = |kind| PartialError { line: *index, kind };
        (&mut input)
            .take(most_line + 1)
            .read_until(b'\n', buffer)
            .map_err(|err| refuse(PartialErrorKind::Read(err)))?;
        if buffer.len() as u64 > most_line {
            return Err(refuse(PartialErrorKind::TooLong { most: most_line }));
        }
        let complete = buffer.last() == Some(&b'\n');
        Ok((!buffer.is_empty()).then_some(complete))
    };
    let refuse_at = |line, kind| PartialError { line, kind };
    let settings = match next_line(&mut buffer, &mut index)? {
        Some(_) => serde_json::from_slice::<Settings>(&buffer)
            .map_err(|_| refuse_at(1, PartialErrorKind::NoSettings))?,
        None => return Err(refuse_at(1, PartialErrorKind::NoSettings)),
    };
    let ours = Settings::of(family, extent);
    if (&settings.survey, settings.extent) != (&ours.survey, ours.extent) {
        let (written, now) = (settings.describe(), ours.describe());
        return Err(refuse_at(1, PartialErrorKind::OtherSettings { written, now }));
    }
    if (settings.members, &settings.rules) != (ours.members, &ours.rules) {
        return Err(refuse_at(1, PartialErrorKind::OtherRules));
    }
    while let Some(complete) = next_line(&mut buffer, &mut index)? {
        let line = index;
        let parsed = serde_json::from_slice::<PackedRow>(&buffer).map_err(|e| e.to_string());
        let parsed = parsed.and_then(|packed| match members.get(packed.row.game.as_str()) {
            Some(game) => {
                let values = packed::unpack(&packed.values, extent.most_values(game))?;
                Ok(Ok(Computed { row: packed.row, values, note: packed.note }))
            }
            None => Ok(Err(packed.row.game)),
        });
        match parsed {
            Ok(Ok(computed)) => {
                done.insert(computed.row.game.clone(), computed);
            }
            Ok(Err(game)) => {
                let family = family.text.clone();
                return Err(refuse_at(line, PartialErrorKind::NotAMember { game, family }));
            }
            // The last line, cut short by the interruption.
            Err(_) if !complete => {}
            Err(err) => return Err(refuse_at(line, PartialErrorKind::NotARow(err))),
        }
    }
    Ok(done)
}
