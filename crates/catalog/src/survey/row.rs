//! A member's row, as a survey writes it: one flat record whose fields are the CSV columns, the
//! JSON keys and a partial file's lines, written once here ([`Record`]).

use grundy_core::Coord;
use grundy_laws::proof::{optional, Proof};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::io::Write;

/// One member's row: what it is, what was computed, what was found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The member.
    pub game: String,
    /// The representative of its class (itself for the first of a class).
    pub class: String,
    /// How its equivalence with the representative stands.
    pub equivalence: Equivalence,
    /// No move from any position computed: every value 0.
    pub trivial: bool,
    /// Values computed (positions of its table).
    pub values: usize,
    /// The largest value.
    pub max: u32,
    /// Where the largest value first appears (heap games).
    pub max_first_at: Option<Coord>,
    /// Positions of value 0.
    pub p_positions: u64,
    /// The period, preperiod and saltus of a heap game's sequence, when one was found.
    pub period: Option<usize>,
    /// See `period`.
    pub preperiod: Option<usize>,
    /// See `period`.
    pub saltus: Option<i64>,
    /// Whether a theorem proves the period (heap games) or the outcome rule (boards), and how;
    /// `None` when there was nothing to prove.
    pub proof: Option<Proof>,
    /// Values the theorem needs.
    pub needed_length: Option<usize>,
    /// The sparse-space records of take-and-break games: the mask over value·2 + heap parity.
    pub rare_mask: Option<u64>,
    /// See `rare_mask`: the class (parity of the masked bits) of the rare heaps.
    pub rare_class: Option<u32>,
    /// See `rare_mask`.
    pub rare: Option<u64>,
    /// See `rare_mask`.
    pub last_rare: Option<u64>,
    /// A board's exact rule for its P-positions, when one was found.
    pub outcome_rule: Option<String>,
    /// A board's P-positions: whether they form a product of two sets (separable).
    pub separable: Option<bool>,
    /// A board's values: whether the table is symmetric.
    pub symmetric: Option<bool>,
    /// A board's rows, columns and diagonals: how many are periodic.
    pub periodic_lines: Option<PeriodicLines>,
    /// Seconds spent on the member.
    pub seconds: f64,
}

/// How a member's equivalence with its class' representative stands. Written as
/// `representative`, `proved` or `agree up to N`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Equivalence {
    /// The first member of its class.
    #[default]
    Representative,
    /// Equal to the representative on every position, by both periods' proofs.
    Proved,
    /// Equal to the representative on the first `N` positions, which is evidence only.
    AgreeUpTo(usize),
}

impl fmt::Display for Equivalence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Equivalence::Representative => f.write_str("representative"),
            Equivalence::Proved => f.write_str("proved"),
            Equivalence::AgreeUpTo(n) => write!(f, "agree up to {n}"),
        }
    }
}

impl std::str::FromStr for Equivalence {
    type Err = String;

    fn from_str(text: &str) -> Result<Equivalence, String> {
        match text {
            "representative" => Ok(Equivalence::Representative),
            "proved" => Ok(Equivalence::Proved),
            _ => text
                .strip_prefix("agree up to ")
                .and_then(|n| n.parse().ok())
                .map(Equivalence::AgreeUpTo)
                .ok_or_else(|| format!("`{text}` is no equivalence")),
        }
    }
}

/// How many of a board's lines are periodic. Written as `rows k/n, columns k/n, diagonals k/n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeriodicLines {
    /// Periodic rows, and rows.
    pub rows: [usize; 2],
    /// Periodic columns, and columns.
    pub columns: [usize; 2],
    /// Periodic diagonals, and diagonals.
    pub diagonals: [usize; 2],
}

impl fmt::Display for PeriodicLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [[r, rn], [c, cn], [d, dn]] = [self.rows, self.columns, self.diagonals];
        write!(f, "rows {r}/{rn}, columns {c}/{cn}, diagonals {d}/{dn}")
    }
}

impl std::str::FromStr for PeriodicLines {
    type Err = String;

    fn from_str(text: &str) -> Result<PeriodicLines, String> {
        let counts = |part: &str, name: &str| -> Option<[usize; 2]> {
            let (k, n) = part.trim().strip_prefix(name)?.trim().split_once('/')?;
            Some([k.parse().ok()?, n.parse().ok()?])
        };
        let parts: Vec<&str> = text.split(',').collect();
        let lines = match parts[..] {
            [rows, columns, diagonals] => (|| {
                Some(PeriodicLines {
                    rows: counts(rows, "rows")?,
                    columns: counts(columns, "columns")?,
                    diagonals: counts(diagonals, "diagonals")?,
                })
            })(),
            _ => None,
        };
        lines.ok_or_else(|| format!("`{text}` is no count of periodic lines"))
    }
}

/// Serde through `Display` and `FromStr`: the types above are written as the text they always
/// were.
pub(crate) mod text {
    use super::*;

    pub(crate) fn serialize<T: fmt::Display, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    pub(crate) fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
    where
        T: std::str::FromStr<Err = String>,
        D: Deserializer<'de>,
    {
        String::deserialize(deserializer)?.parse().map_err(D::Error::custom)
    }

    pub(super) mod optional {
        use super::*;

        pub(in super::super) fn serialize<T: fmt::Display, S: Serializer>(
            value: &Option<T>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match value {
                Some(value) => serializer.collect_str(value),
                None => serializer.serialize_none(),
            }
        }

        pub(in super::super) fn deserialize<'de, T, D>(
            deserializer: D,
        ) -> Result<Option<T>, D::Error>
        where
            T: std::str::FromStr<Err = String>,
            D: Deserializer<'de>,
        {
            Option::<String>::deserialize(deserializer)?
                .map(|text| text.parse().map_err(D::Error::custom))
                .transpose()
        }
    }
}

/// Whether a survey's output says how long each member took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// The `seconds` column, rounded to milliseconds.
    Seconds,
    /// No `seconds` column: the same survey writes the same bytes (datasets with checksums).
    Omitted,
}

/// The formats a survey is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsFormat {
    /// One CSV row per member, under a header.
    Csv,
    /// A JSON list of objects, one per member.
    Json,
}

/// A row as it is written: the field order is the CSV columns' and the JSON keys'. The one
/// place the columns are named.
#[derive(Serialize, Deserialize)]
pub(super) struct Record {
    game: String,
    class: String,
    #[serde(with = "text")]
    equivalence: Equivalence,
    trivial: bool,
    values: usize,
    max: u32,
    max_first_at: Option<Coord>,
    p_positions: u64,
    period: Option<usize>,
    preperiod: Option<usize>,
    saltus: Option<i64>,
    proved: bool,
    argument: Option<String>,
    needed_length: Option<usize>,
    rare_mask: Option<u64>,
    // Absent from the partial files of surveys made before it was written.
    #[serde(default)]
    rare_class: Option<u32>,
    rare: Option<u64>,
    last_rare: Option<u64>,
    outcome_rule: Option<String>,
    separable: Option<bool>,
    symmetric: Option<bool>,
    #[serde(with = "text::optional")]
    periodic_lines: Option<PeriodicLines>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    seconds: Option<f64>,
}

impl Record {
    /// `row`'s record; its seconds (to the millisecond) as `timing` says.
    pub(super) fn of(row: &Row, timing: Timing) -> Record {
        let Row {
            game,
            class,
            equivalence,
            trivial,
            values,
            max,
            max_first_at,
            p_positions,
            period,
            preperiod,
            saltus,
            proof,
            needed_length,
            rare_mask,
            rare_class,
            rare,
            last_rare,
            outcome_rule,
            separable,
            symmetric,
            periodic_lines,
            seconds,
        } = row.clone();
        Record {
            game,
            class,
            equivalence,
            trivial,
            values,
            max,
            max_first_at,
            p_positions,
            period,
            preperiod,
            saltus,
            proved: proof.as_ref().is_some_and(Proof::is_proved),
            argument: proof.as_ref().map(|p| p.argument().to_string()),
            needed_length,
            rare_mask,
            rare_class,
            rare,
            last_rare,
            outcome_rule,
            separable,
            symmetric,
            periodic_lines,
            seconds: match timing {
                Timing::Seconds => Some((seconds * 1000.0).round() / 1000.0),
                Timing::Omitted => None,
            },
        }
    }

    /// The row this record was made of (its proof named by its theorem's lead).
    pub(super) fn into_row<E: serde::de::Error>(self) -> Result<Row, E> {
        let proof = optional::from_fields(self.proved, self.argument).map_err(E::custom)?;
        Ok(Row {
            game: self.game,
            class: self.class,
            equivalence: self.equivalence,
            trivial: self.trivial,
            values: self.values,
            max: self.max,
            max_first_at: self.max_first_at,
            p_positions: self.p_positions,
            period: self.period,
            preperiod: self.preperiod,
            saltus: self.saltus,
            proof,
            needed_length: self.needed_length,
            rare_mask: self.rare_mask,
            rare_class: self.rare_class,
            rare: self.rare,
            last_rare: self.last_rare,
            outcome_rule: self.outcome_rule,
            separable: self.separable,
            symmetric: self.symmetric,
            periodic_lines: self.periodic_lines,
            seconds: self.seconds.unwrap_or(0.0),
        })
    }
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Record::of(self, Timing::Seconds).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Row, D::Error> {
        Record::deserialize(deserializer)?.into_row()
    }
}

/// Writes `rows` to `out` as `format` says, with their seconds as `timing` says.
///
/// # Errors
/// What writing to `out` returned.
pub fn write_rows(
    rows: &[Row],
    format: RowsFormat,
    timing: Timing,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let records = rows.iter().map(|row| Record::of(row, timing));
    match format {
        RowsFormat::Csv => {
            let mut writer = csv::Writer::from_writer(out);
            for record in records {
                writer.serialize(record).map_err(std::io::Error::other)?;
            }
            writer.flush()
        }
        RowsFormat::Json => {
            let records: Vec<Record> = records.collect();
            serde_json::to_writer_pretty(&mut *out, &records)?;
            writeln!(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_laws::proof::Theorem;

    #[test]
    fn texts_read_back() {
        for equivalence in
            [Equivalence::Representative, Equivalence::Proved, Equivalence::AgreeUpTo(4096)]
        {
            assert_eq!(equivalence.to_string().parse(), Ok(equivalence));
        }
        let lines = PeriodicLines { rows: [3, 5], columns: [5, 5], diagonals: [0, 9] };
        assert_eq!(lines.to_string(), "rows 3/5, columns 5/5, diagonals 0/9");
        assert_eq!(lines.to_string().parse(), Ok(lines));
        assert!("rows 3/5".parse::<PeriodicLines>().is_err());
    }

    /// The CSV header is the record's fields, in order; a row reads back as it was written.
    #[test]
    fn rows_are_written_once_as_csv_and_json() {
        let row = Row {
            game: "octal:0.07".into(),
            class: "octal:0.07".into(),
            period: Some(34),
            proof: Some(Proof::by(Theorem::OctalPeriodicity, "code 0.07 ...")),
            periodic_lines: None,
            seconds: 0.12345,
            ..Row::default()
        };
        let mut csv = Vec::new();
        write_rows(std::slice::from_ref(&row), RowsFormat::Csv, Timing::Seconds, &mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "game,class,equivalence,trivial,values,max,max_first_at,p_positions,period,\
                 preperiod,saltus,proved,argument,needed_length,rare_mask,rare_class,rare,\
                 last_rare,outcome_rule,separable,symmetric,periodic_lines,seconds"
            )
        );
        assert_eq!(
            lines.next(),
            Some(
                "octal:0.07,octal:0.07,representative,false,0,0,,0,34,,,true,\
                 Octal Periodicity Theorem (Guy and Smith): code 0.07 ...,,,,,,,,,,0.123"
            )
        );
        let mut quiet = Vec::new();
        write_rows(std::slice::from_ref(&row), RowsFormat::Csv, Timing::Omitted, &mut quiet)
            .unwrap();
        assert!(String::from_utf8(quiet).unwrap().starts_with("game,"));
        let json = serde_json::to_string(&row).unwrap();
        let back: Row = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Row { seconds: 0.123, ..row });
    }
}
