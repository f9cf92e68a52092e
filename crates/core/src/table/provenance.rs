//! Where a table file came from: the game's rules as a spec, the program, the command, the date,
//! and a checksum of the values that does not depend on the file's format.
//!
//! A [`Provenance`] travels with a table however it is written (a `#` header in CSV, a sidecar
//! JSON file beside `.npy` and b-files) and reads back the same. Its checksum,
//! [`ValuesDigest`], is SHA-256 over the table's values as little-endian `u32`s in row-major
//! order (P/N outcomes as 0 and 1), so a CSV grid, a long CSV, a `.npy` array and a b-file of
//! one table carry one checksum, and a reader can check any of them against it.

use super::{Cell, CellKind, GrundyTable};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The version of the provenance record's fields; a reader refuses a newer one. Version 2 added
/// [`Provenance::record_sha256`].
pub const PROVENANCE_VERSION: u32 = 2;

/// Where a table came from. Every field is plain text or numbers, so that the record reads the
/// same as JSON in a sidecar, a CSV header or a Parquet file's metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// [`PROVENANCE_VERSION`] when written.
    pub provenance: u32,
    /// The game's name.
    pub game: String,
    /// The game's rules as a spec (TOML): give it to grundy as a file to compute the same table.
    pub spec: String,
    /// [`fingerprint`] of `spec`: two files with one fingerprint come from the same rules.
    pub fingerprint: String,
    /// The table's largest coordinates, one per axis.
    pub size: Vec<i64>,
    /// What the cells hold: `values` or `outcomes` (P as 0, N as 1).
    pub cells: String,
    /// The grundy version that wrote the table.
    pub grundy_version: String,
    /// The git revision it was built from (`unknown` outside a checkout).
    pub git_revision: String,
    /// The command line, word by word.
    pub command: Vec<String>,
    /// When the table was written, UTC, RFC 3339 (from `SOURCE_DATE_EPOCH` when set).
    pub created: String,
    /// The engine that computed it.
    pub engine: String,
    /// [`ValuesDigest`] of the values, `sha256:` and 64 hex digits; empty where a CSV file
    /// carries it on its last line instead (a streamed table's is known only at its end).
    #[serde(default)]
    pub values_sha256: String,
    /// The record's own checksum ([`Provenance::own_digest`]): a changed byte anywhere in the
    /// other fields shows. Empty in a record of version 1.
    #[serde(default)]
    pub record_sha256: String,
}

/// Why a provenance record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProvenanceError {
    /// Not the JSON of a provenance record.
    #[error("the provenance record is not valid: {0}")]
    Malformed(#[from] serde_json::Error),
    /// Written by a newer grundy.
    #[error(
        "the provenance record has version {found}; this grundy reads up to {PROVENANCE_VERSION}"
    )]
    Newer {
        /// The record's version.
        found: u32,
    },
}

impl Provenance {
    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a provenance record serialises")
    }

    /// The record as indented JSON, for a sidecar file.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a provenance record serialises")
    }

    /// Reads a record written by [`Provenance::to_json`] or [`Provenance::to_json_pretty`].
    ///
    /// # Errors
    /// Text that is not such a record, or a record of a newer version.
    pub fn from_json(text: &str) -> Result<Provenance, ProvenanceError> {
        let record: Provenance = serde_json::from_str(text)?;
        if record.provenance > PROVENANCE_VERSION {
            return Err(ProvenanceError::Newer { found: record.provenance });
        }
        Ok(record)
    }

    /// SHA-256 over the record's fields but its two checksums (`values_sha256`, known only
    /// once the values are written, and `record_sha256` itself), as one line of JSON: `sha256:`
    /// and 64 hex digits.
    pub fn own_digest(&self) -> String {
        let fields = Provenance {
            values_sha256: String::new(),
            record_sha256: String::new(),
            ..self.clone()
        };
        format!("sha256:{}", hex(&Sha256::digest(fields.to_json().as_bytes())))
    }

    /// The record with its own checksum set ([`Provenance::own_digest`]).
    pub fn sealed(self) -> Provenance {
        Provenance { record_sha256: self.own_digest(), ..self }
    }

    /// Whether [`Provenance::record_sha256`] is the record's own checksum; `None` for a record
    /// that carries none (version 1).
    pub fn seal_holds(&self) -> Option<bool> {
        (!self.record_sha256.is_empty()).then(|| self.record_sha256 == self.own_digest())
    }

    /// What the cells hold, as the record says it; `None` for a word other than `values` and
    /// `outcomes`.
    pub fn cell_kind(&self) -> Option<CellKind> {
        match self.cells.as_str() {
            "values" => Some(CellKind::Values),
            "outcomes" => Some(CellKind::Outcomes),
            _ => None,
        }
    }

    /// The name of what the cells hold, as the record says it.
    pub fn cells_name(kind: CellKind) -> &'static str {
        match kind {
            CellKind::Values => "values",
            CellKind::Outcomes => "outcomes",
        }
    }
}

/// The fingerprint of a spec's text: `sha256:` and the first 16 hex digits of its SHA-256.
pub fn fingerprint(spec: &str) -> String {
    let digest = Sha256::digest(spec.as_bytes());
    format!("sha256:{}", &hex(&digest)[..16])
}

/// SHA-256 over a table's values, fed in row-major order (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ValuesDigest {
    hasher: Sha256,
    /// Values fed, as bytes, before they go to the hasher a block at a time.
    pending: Vec<u8>,
}

impl ValuesDigest {
    /// Values buffered before hashing: the hasher is faster on long inputs.
    const BLOCK: usize = 1 << 16;

    /// A digest of no values yet.
    pub fn new() -> ValuesDigest {
        ValuesDigest::default()
    }

    /// Feeds `values`, the next in row-major order; with `kind` outcomes, every value above 0
    /// counts as 1 (an N-position).
    pub fn feed(&mut self, values: impl IntoIterator<Item = u32>, kind: CellKind) {
        for value in values {
            let value = match kind {
                CellKind::Values => value,
                CellKind::Outcomes => u32::from(value != 0),
            };
            self.pending.extend_from_slice(&value.to_le_bytes());
            if self.pending.len() >= ValuesDigest::BLOCK {
                self.hasher.update(&self.pending);
                self.pending.clear();
            }
        }
    }

    /// The checksum: `sha256:` and 64 hex digits.
    pub fn finish(mut self) -> String {
        self.hasher.update(&self.pending);
        format!("sha256:{}", hex(&self.hasher.finalize()))
    }

    /// The checksum of a whole table whose cells hold `kind`.
    pub fn of_table(table: &GrundyTable, kind: CellKind) -> String {
        let mut digest = ValuesDigest::new();
        with_cells!(table.cells(), |values| {
            for chunk in values.chunks(ValuesDigest::BLOCK) {
                digest.feed(chunk.iter().map(|&v| Cell::nimber(v).0), kind);
            }
        });
        digest.finish()
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        write!(text, "{byte:02x}").expect("writing to a string");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lookup;
    use crate::table::TableShape;

    fn record() -> Provenance {
        let game = lookup("kiki").unwrap();
        let spec = crate::game::to_spec(&game);
        Provenance {
            provenance: PROVENANCE_VERSION,
            game: "kiki".into(),
            fingerprint: fingerprint(&spec),
            spec,
            size: vec![3, 4],
            cells: "values".into(),
            grundy_version: "0.1.0".into(),
            git_revision: "abc".into(),
            command: vec!["grundy".into(), "compute".into()],
            created: "2026-12-03T00:00:00Z".into(),
            engine: "tiles".into(),
            values_sha256: String::new(),
            record_sha256: String::new(),
        }
        .sealed()
    }

    #[test]
    fn a_record_reads_back_from_either_json() {
        let record = record();
        assert_eq!(Provenance::from_json(&record.to_json()).unwrap(), record);
        assert_eq!(Provenance::from_json(&record.to_json_pretty()).unwrap(), record);
        assert!(!record.to_json().contains('\n'), "one line, for a CSV comment");
        let newer = record.to_json().replace("\"provenance\":2", "\"provenance\":9");
        assert!(matches!(Provenance::from_json(&newer), Err(ProvenanceError::Newer { found: 9 })));
        assert!(Provenance::from_json("{").is_err());
    }

    #[test]
    fn a_record_holds_its_own_checksum() {
        let record = record();
        assert_eq!(record.seal_holds(), Some(true));
        // Any field changed, by a byte: the seal breaks. The values' checksum is not sealed
        // (a CSV file's comes after the record).
        let mut changed = record.clone();
        changed.command[1] = "compuTe".into();
        assert_eq!(changed.seal_holds(), Some(false));
        let mut changed = record.clone();
        changed.size[0] = 30;
        assert_eq!(changed.seal_holds(), Some(false));
        let mut summed = record.clone();
        summed.values_sha256 = "sha256:00".into();
        assert_eq!(summed.seal_holds(), Some(true));
        let old = Provenance { record_sha256: String::new(), provenance: 1, ..record };
        assert_eq!(Provenance::from_json(&old.to_json()).unwrap().seal_holds(), None);
    }

    #[test]
    fn the_digest_is_of_values_not_of_their_width_or_feeding() {
        let kiki = lookup("kiki").unwrap();
        let shape = TableShape::new(&kiki, &[3, 4], "3x4").unwrap();
        let values: Vec<crate::nimber::Nimber> =
            (0..12).map(|v| crate::nimber::Nimber(v % 4)).collect();
        let table = GrundyTable::from_nimbers(shape, &values);
        let whole = ValuesDigest::of_table(&table, CellKind::Values);
        let mut fed = ValuesDigest::new();
        fed.feed((0..5).map(|v| v % 4), CellKind::Values);
        fed.feed((5..12).map(|v| v % 4), CellKind::Values);
        assert_eq!(fed.finish(), whole);
        // SHA-256 of the 48 bytes 0,1,2,3 (each a little-endian u32) three times.
        let mut bytes = Vec::new();
        for v in 0..12u32 {
            bytes.extend_from_slice(&(v % 4).to_le_bytes());
        }
        assert_eq!(whole, format!("sha256:{}", hex(&Sha256::digest(&bytes))));
        // Outcomes: every N-position is 1.
        let mut outcomes = ValuesDigest::new();
        outcomes.feed((0..12).map(|v| u32::from(v % 4 != 0)), CellKind::Values);
        assert_eq!(ValuesDigest::of_table(&table, CellKind::Outcomes), outcomes.finish());
        assert_ne!(ValuesDigest::of_table(&table, CellKind::Outcomes), whole);
    }

    #[test]
    fn fingerprints_tell_rules_apart() {
        let kiki = crate::game::to_spec(&lookup("kiki").unwrap());
        let wythoff = crate::game::to_spec(&lookup("wythoff").unwrap());
        assert_eq!(fingerprint(&kiki), fingerprint(&kiki));
        assert_ne!(fingerprint(&kiki), fingerprint(&wythoff));
        assert_eq!(fingerprint(&kiki).len(), "sha256:".len() + 16);
    }
}
