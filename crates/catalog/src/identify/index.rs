//! The index of known games: classes of equal sequences, each stored once with its members,
//! read from and written to a gzipped file of JSON lines.

use super::lines::{line_of, Line};
use super::sequence::{Compare, Law, Sequence};
use super::windows::Windows;
use crate::survey::Equivalence;
use grundy_compute::Content;
use grundy_core::table::{read_line_within, Line as TextLine};
use grundy_core::{Coord, GrundyTable, TableShape};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, Read, Write};

/// The version of the index file's format, in its first line.
pub const INDEX_FORMAT: u32 = 1;

/// The most bytes an index file may hold once inflated (the built-in one: 4 MB).
const MOST_INDEX_BYTES: u64 = 1 << 28;
/// The longest line of an index (the built-in one's: 18 kB): a file of one endless line is
/// refused at this, not held whole.
const MOST_LINE_BYTES: usize = 4 << 20;

/// One class: a sequence and every known game whose values are it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The class' name: its first member.
    pub name: String,
    /// The class' values: with the law when a theorem proved the period, otherwise the first
    /// values computed (the range verified).
    #[serde(flatten)]
    pub sequence: Sequence,
    /// The values of the representative that were computed when the index was built (what its
    /// members' equivalences were checked on), when more than are stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computed: Option<usize>,
    /// The members, the first one the representative.
    pub members: Vec<Member>,
}

/// A known game (or a line of one, or a published sequence) in a class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    /// Its name: a game (`octal:0.07`), a line of a board (`wythoff row a = 3`) or a published
    /// sequence (`OEIS A002186`).
    pub game: String,
    /// How its equality with the class' values stands: `representative`, `proved` or
    /// `agree up to N` (the first N values).
    #[serde(with = "crate::survey::text")]
    pub equivalence: Equivalence,
    /// What it is, when its name does not say (a published sequence's title and source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The first line of an index file: what it is and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`INDEX_FORMAT`].
    pub grundy_index: u32,
    /// How it was built: the command, in words.
    pub built_with: String,
    /// Classes (lines after this one).
    pub classes: usize,
    /// Members over all classes.
    pub members: usize,
    /// The most values a class without a law keeps.
    pub stored_values: usize,
}

/// A sequence to put in an index: its name, values and an optional note.
#[derive(Clone, Debug)]
pub struct Known {
    /// The name (see [`Member::game`]).
    pub game: String,
    /// Its values (with a law when proved).
    pub sequence: Sequence,
    /// See [`Member::note`].
    pub note: Option<String>,
}

/// The index: classes in the order their first members were given.
pub struct Index {
    /// How it was made.
    pub header: Header,
    /// The classes.
    pub entries: Vec<Entry>,
    windows: std::sync::OnceLock<Windows>,
}

impl fmt::Debug for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Index").field("header", &self.header).finish_non_exhaustive()
    }
}

/// Why an index file cannot be read.
#[derive(Debug)]
pub struct IndexError {
    /// The 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "not an index of known games: {}", self.what),
            line => write!(f, "not an index of known games: line {line}: {}", self.what),
        }
    }
}

impl std::error::Error for IndexError {}

/// The values stored for a class without a law at most (a law stores its preperiod and one
/// period, however long).
pub const STORED_VALUES: usize = 1536;

/// Values compared before two members go into one class: the first ones, hashed.
const BUCKET_VALUES: i64 = 24;

impl Index {
    /// The classes of `known` (in order; a member joins the first class whose values it
    /// agrees with on every value both know, from the same first coordinate), each keeping at
    /// most `stored` values unless a law gives them.
    pub fn build(known: Vec<Known>, built_with: String, stored: usize) -> Index {
        let mut entries: Vec<Entry> = Vec::new();
        let mut buckets: HashMap<(Coord, Vec<Option<u32>>), Vec<usize>> = HashMap::new();
        // The class sequences in full while classifying; cut to `stored` afterwards.
        for known in known {
            let seq = &known.sequence;
            let key = (seq.start, (0..BUCKET_VALUES).map(|i| seq.get(seq.start + i)).collect());
            let bucket = buckets.entry(key).or_default();
            let joined = bucket.iter().find_map(|&e| {
                let class = &entries[e].sequence;
                let agreement = seq.agreement(class, 0, Compare::Values, 1)?;
                let equivalence = match agreement.compared() {
                    None => Equivalence::Proved,
                    Some(n) => Equivalence::AgreeUpTo(n as usize),
                };
                Some((e, equivalence))
            });
            let member = |equivalence| Member { game: known.game.clone(), equivalence, note: None };
            match joined {
                Some((e, equivalence)) => entries[e]
                    .members
                    .push(Member { note: known.note.clone(), ..member(equivalence) }),
                None => {
                    bucket.push(entries.len());
                    entries.push(Entry {
                        name: known.game.clone(),
                        computed: None,
                        members: vec![Member {
                            note: known.note.clone(),
                            ..member(Equivalence::Representative)
                        }],
                        sequence: known.sequence,
                    });
                }
            }
        }
        for entry in &mut entries {
            let keep = match &entry.sequence.law {
                Some(law) => law.preperiod + law.period,
                None => stored,
            };
            if entry.sequence.values.len() > keep {
                entry.computed = Some(entry.sequence.values.len());
            }
            entry.sequence.values.truncate(keep);
            entry.sequence.values.shrink_to_fit();
        }
        let members = entries.iter().map(|e| e.members.len()).sum();
        let header = Header {
            grundy_index: INDEX_FORMAT,
            built_with,
            classes: entries.len(),
            members,
            stored_values: stored,
        };
        Index::of(header, entries)
    }

    fn of(header: Header, entries: Vec<Entry>) -> Index {
        Index { header, entries, windows: std::sync::OnceLock::new() }
    }

    /// Writes the index: JSON lines, the header first (a caller gzips them where the file's
    /// name says so).
    ///
    /// # Errors
    /// The writer's.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        serde_json::to_writer(&mut *out, &self.header)?;
        out.write_all(b"\n")?;
        for entry in &self.entries {
            serde_json::to_writer(&mut *out, entry)?;
            out.write_all(b"\n")?;
        }
        out.flush()
    }

    /// Reads an index written by [`Index::write`], gzipped or not, checking every line.
    ///
    /// # Errors
    /// What is wrong, and on which line.
    pub fn read(input: impl Read) -> Result<Index, IndexError> {
        let bad = |line: usize, what: String| IndexError { line, what };
        let mut input = std::io::BufReader::new(input);
        let gzipped =
            input.fill_buf().map_err(|err| bad(0, err.to_string()))?.starts_with(&[0x1f, 0x8b]);
        let text: Box<dyn Read> =
            if gzipped { Box::new(flate2::read::GzDecoder::new(input)) } else { Box::new(input) };
        let mut text = std::io::BufReader::new(text.take(MOST_INDEX_BYTES + 1));
        let mut lines = Vec::new();
        let mut line = Vec::new();
        while let Some(read) = read_line_within(&mut text, &mut line, MOST_LINE_BYTES)
            .map_err(|err| bad(lines.len() + 1, err.to_string()))?
        {
            let number = lines.len() + 1;
            if read == TextLine::Longer {
                let what = format!("it is longer than {} MiB: not an index", MOST_LINE_BYTES >> 20);
                return Err(bad(number, what));
            }
            let text = String::from_utf8(std::mem::take(&mut line))
                .map_err(|_| bad(number, "it is not UTF-8 text".into()))?;
            lines.push(text);
        }
        if text.get_ref().limit() == 0 {
            let what = format!("the index is larger than {} MiB", MOST_INDEX_BYTES >> 20);
            return Err(bad(0, what));
        }
        let mut lines = lines.into_iter();
        let first = lines.next().ok_or_else(|| bad(0, "it is empty".into()))?;
        let header: Header =
            serde_json::from_str(&first).map_err(|err| bad(1, format!("no header: {err}")))?;
        if header.grundy_index != INDEX_FORMAT {
            let what =
                format!("format {} (this grundy reads format {INDEX_FORMAT})", header.grundy_index);
            return Err(bad(1, what));
        }
        // Lines read in order, parsed and checked in parallel (most of reading the index).
        let lines: Vec<String> = lines.collect();
        let entries = lines
            .par_iter()
            .enumerate()
            .map(|(i, line)| {
                let number = i + 2;
                let entry: Entry =
                    serde_json::from_str(line).map_err(|err| bad(number, err.to_string()))?;
                if entry.sequence.values.is_empty() {
                    return Err(bad(number, "a class without values".into()));
                }
                if !entry.sequence.is_consistent() {
                    return Err(bad(number, "its law needs more values than it holds".into()));
                }
                if entry.members.is_empty() {
                    return Err(bad(number, "a class without members".into()));
                }
                Ok(entry)
            })
            .collect::<Result<Vec<Entry>, IndexError>>()?;
        if entries.len() != header.classes {
            let what = format!("{} classes, the header says {}", entries.len(), header.classes);
            return Err(bad(0, what));
        }
        Ok(Index::of(header, entries))
    }

    /// The index shipped with grundy (`data/known-games.jsonl.gz`), read once.
    pub fn builtin() -> &'static Index {
        static BUILTIN: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            Index::read(&include_bytes!("../../data/known-games.jsonl.gz")[..])
                .expect("the shipped index is checked by the tests")
        })
    }

    pub(crate) fn windows(&self) -> &Windows {
        self.windows.get_or_init(|| {
            Windows::of(&self.entries.iter().map(|e| &e.sequence).collect::<Vec<_>>())
        })
    }
}

/// Lines of each board an index keeps: the first rows and columns.
pub const BOARD_LINES: usize = 8;

impl Index {
    /// The index of a survey's members (`computed`, in the order of `games`), with the
    /// published sequences of [`published`] after them. Heap games keep their law where a
    /// theorem proved the period; boards give their first [`BOARD_LINES`] rows and columns and
    /// their main diagonal (3-D games give none).
    pub fn of_survey(
        games: &[grundy_core::Game],
        computed: &[crate::survey::Computed],
        extent: crate::survey::Extent,
        built_with: String,
    ) -> Index {
        let mut known = Vec::new();
        // An index holds Grundy values: a loopy member's (∞ among them) names nothing.
        let members = games.iter().zip(computed);
        for (game, computed) in members.filter(|(game, _)| Content::of(game).holds_values()) {
            let axes = game.axes();
            match axes {
                [axis] => known.push(Known {
                    game: game.name().to_string(),
                    sequence: Sequence {
                        start: axis.min,
                        values: computed.values.clone(),
                        law: law_of(&computed.row),
                    },
                    note: None,
                }),
                [_, _] => {
                    let shape = TableShape::from_axes(axes.to_vec(), extent.max(game));
                    let table = GrundyTable::from_vec(shape, computed.values.clone());
                    let symmetric = computed.row.symmetric == Some(true);
                    known.extend(board_lines(game.name(), &table, symmetric, BOARD_LINES));
                }
                _ => {}
            }
        }
        known.extend(published());
        Index::build(known, built_with, STORED_VALUES)
    }
}

/// A law read from a survey's row: the period a theorem proved.
pub fn law_of(row: &crate::survey::Row) -> Option<Law> {
    let proof = row.proof.as_ref().filter(|p| p.is_proved())?;
    Some(Law {
        preperiod: row.preperiod?,
        period: row.period?,
        saltus: u32::try_from(row.saltus?).ok()?,
        theorem: proof.theorem().map(|t| t.name().to_string()).unwrap_or_default(),
    })
}

/// Published sequences the index holds beside the games (`data/oeis.toml`): facts with their
/// source, classed with the games they agree with.
pub fn published() -> Vec<Known> {
    #[derive(Deserialize)]
    struct File {
        sequence: Vec<Published>,
    }
    #[derive(Deserialize)]
    struct Published {
        oeis: String,
        game: String,
        offset: Coord,
        values: Vec<u32>,
    }
    let file: File = toml::from_str(include_str!("../../data/oeis.toml"))
        .expect("data/oeis.toml is checked by the tests");
    file.sequence
        .into_iter()
        .map(|p| Known {
            game: format!("OEIS {}", p.oeis),
            sequence: Sequence::of(p.offset, p.values),
            note: Some(format!("{} (oeis.org/{})", p.game, p.oeis)),
        })
        .collect()
}

/// The lines of a board that an index keeps: the first `count` rows, the first `count`
/// columns (unless the board is symmetric) and the main diagonal.
pub fn board_lines(game: &str, table: &GrundyTable, symmetric: bool, count: usize) -> Vec<Known> {
    let axes = table.axes();
    let max = table.shape().max();
    let (x, y) = (&axes[0], &axes[1]);
    let mut lines: Vec<Line> = (x.min..=max[0]).take(count).map(Line::Row).collect();
    if !symmetric {
        lines.extend((y.min..=max[1]).take(count).map(Line::Column));
    }
    lines.push(Line::Diagonal(0));
    lines
        .into_iter()
        .filter_map(|line| {
            let sequence = line_of(table, line).ok()?;
            let game = format!("{game} {}", line.describe([&x.name, &y.name]));
            Some(Known { game, sequence, note: None })
        })
        .collect()
}
