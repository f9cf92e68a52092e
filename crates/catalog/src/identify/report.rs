//! What `patterns` names: a heap game's sequence and every periodic line of a board, each
//! looked up in an index.

use super::index::Index;
use super::lines::{line_of, Line};
use super::matching::{Match, DEFAULT_SHIFT};
use super::sequence::{Law, Sequence};
use grundy_core::GrundyTable;
use grundy_laws::proof::Proof;
use grundy_laws::{LineReport, Report};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The most periodic lines of each kind (rows, columns, diagonals) that are looked up: a board
/// of 10^6 rows has as many lines, and the first ones are those a reader looks at (rows and
/// columns from the first, diagonals from the main one outwards).
pub const MOST_LINES_LOOKED_UP: usize = 1024;

// What naming holds is reserved with the analysis it follows: the figures are grundy-laws'.
pub use grundy_laws::{NAMING_BYTES, NAMING_BYTES_PER_VALUE};

/// The fewest values a line must have to be looked up: on fewer, matches are coincidences
/// (a diagonal of 9 cells agrees with dozens of games).
pub const LEAST_LINE_VALUES: usize = 32;

/// The known games a report's sequences are.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Named {
    /// A heap game's sequence: the classes equal to it after a shift (`None` for a board).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence: Option<Vec<Match>>,
    /// A board's periodic lines that equal a known game after a shift.
    pub lines: Vec<NamedLine>,
    /// Periodic lines looked up (at most [`MOST_LINES_LOOKED_UP`] of each kind, each of at
    /// least [`LEAST_LINE_VALUES`] values).
    pub lines_looked_up: usize,
    /// Periodic lines not looked up because of that bound.
    pub lines_skipped: usize,
}

/// One periodic line of a board and the known games it equals.
#[derive(Clone, Debug, Serialize)]
pub struct NamedLine {
    /// `row`, `column` or `diagonal`.
    pub kind: &'static str,
    /// Its coordinate (x − y for a diagonal).
    pub index: i64,
    /// The line as text: `row w = 2`.
    pub line: String,
    /// The classes it equals, best first: shared by the lines with the same values (a board
    /// repeats its lines, and a class may have hundreds of members: halfp 4000² held 45 MB of
    /// copies).
    pub matches: Arc<[Match]>,
}

/// The classes `query` equals, without the members whose names begin with `own` (lines of the
/// table's own game).
fn known_games(index: &Index, query: &Sequence, own: &str) -> Vec<Match> {
    index
        .identify(query, DEFAULT_SHIFT)
        .same_values
        .into_iter()
        .filter_map(|mut m| {
            m.members.retain(|member| !member.game.starts_with(own));
            let first = m.members.first()?;
            m.class = first.game.clone();
            Some(m)
        })
        .collect()
}

fn hash_of(query: &Sequence) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (query.start, &query.values).hash(&mut hasher);
    hasher.finish()
}

/// A kind of line: its name, its reports and how a line of it is named by its index.
type LineKind<'a> = (&'static str, &'a [LineReport], fn(i64) -> Line);

/// Looks up in `index` what `report` (the analysis of the table `data`) found: a heap game's sequence,
/// with its proved law when the report proved one, and every periodic row, column and
/// diagonal of a board. Members that are lines of the table's own game are left out (a table
/// names no line after itself).
pub fn name_report(data: &GrundyTable, report: &Report, index: &Index) -> Named {
    match report {
        // A loopy game's values (∞ among them) are in no index of Grundy values; a 3-D table's
        // edges are not looked up (yet).
        Report::LoopyHeaps(_) | Report::LoopyBoard(_) | Report::Solid(_) => Named::default(),
        Report::Sequence(r) => {
            let s = &r.sequence;
            let proved = s.proof.as_ref().and_then(Proof::theorem);
            let law = match (s.period, s.preperiod, s.saltus, proved) {
                (Some(period), Some(preperiod), Some(saltus), Some(theorem)) => Some(Law {
                    period,
                    preperiod,
                    saltus: u32::try_from(saltus).unwrap_or(0),
                    theorem: theorem.name().to_string(),
                }),
                _ => None,
            };
            // With a law, the preperiod and one period give every value (`Sequence`): a proof
            // search's table of 2·10^7 values is not copied whole, and its preperiod only when
            // a class with a law could agree with it (`same_values_of`).
            let kept = law.as_ref().map_or(data.len(), |law| law.preperiod + law.period);
            let value = |n: usize| data.get_flat(n).value();
            let found = index.same_values_of(r.min, kept, value, law, DEFAULT_SHIFT);
            Named { sequence: Some(found), ..Named::default() }
        }
        Report::Board(r) => {
            let own = format!("{} ", r.game);
            let axes = [r.axes[0].as_str(), r.axes[1].as_str()];
            let mut named = Named::default();
            // Boards repeat their lines (kiki's rows alternate between two): each distinct line
            // is looked up once, by a hash of its values checked against the first line that
            // had it.
            let mut seen: HashMap<u64, (Line, Arc<[Match]>)> = HashMap::new();
            let kinds: [LineKind<'_>; 3] = [
                ("row", &r.rows, Line::Row),
                ("column", &r.columns, Line::Column),
                ("diagonal", &r.diagonals, Line::Diagonal),
            ];
            for (kind, lines, line_at) in kinds {
                let mut periodic: Vec<&LineReport> =
                    lines.iter().filter(|l| l.period.is_some()).collect();
                if kind == "diagonal" {
                    periodic.sort_by_key(|l| (l.index.abs(), l.index));
                }
                named.lines_skipped += periodic.len().saturating_sub(MOST_LINES_LOOKED_UP);
                for report in periodic.into_iter().take(MOST_LINES_LOOKED_UP) {
                    let line = line_at(report.index);
                    let Ok(query) = line_of(data, line) else { continue };
                    if query.values.len() < LEAST_LINE_VALUES {
                        continue;
                    }
                    named.lines_looked_up += 1;
                    let key = hash_of(&query);
                    // The first line is taken again to be compared, not kept: a board's lines
                    // may be long.
                    let same = |first: Line| line_of(data, first).is_ok_and(|f| f == query);
                    let matches = match seen.get(&key) {
                        Some((first, matches)) if same(*first) => matches.clone(),
                        _ => {
                            let matches: Arc<[Match]> = known_games(index, &query, &own).into();
                            seen.insert(key, (line, matches.clone()));
                            matches
                        }
                    };
                    if !matches.is_empty() {
                        let text = line.describe(axes);
                        named.lines.push(NamedLine {
                            kind,
                            index: report.index,
                            line: text,
                            matches,
                        });
                    }
                }
            }
            named
        }
    }
}
