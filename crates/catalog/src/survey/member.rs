//! One member computed and analysed into its row ([`survey_member`]), and the classes of
//! members whose values agree ([`classify`]).

use super::extent::Extent;
use super::partial::Computed;
use super::row::{Equivalence, PeriodicLines, Row};
use grundy_compute::memory::Besides;
use grundy_compute::misere::SearchLimits;
use grundy_compute::{FillError, FillRequest, Progress, RequestError, Runtime, SequenceRecords};
use grundy_core::{Coord, Game, ModelError, Table, TableShape};
use grundy_laws::answered::{fill_whole, watch};
use grundy_laws::proof::Proof;
use grundy_laws::until_proved::{ProofSearch, SearchError};
use grundy_laws::{analysis_bytes, analyze, LineReport, Report};
use std::fmt;
use std::time::{Duration, Instant};

/// Why a member could not be computed: the member and what went wrong.
#[derive(Debug)]
pub struct MemberError {
    game: String,
    // Boxed: a member's error is rare, and its row is what the Ok side carries by value.
    kind: Box<MemberErrorKind>,
}

/// What went wrong with a member.
#[derive(Debug)]
#[non_exhaustive]
pub enum MemberErrorKind {
    /// Its search for a proved period.
    Search(SearchError),
    /// Its size is not one of its tables.
    Size(ModelError),
    /// Its fill cannot be made (it does not fit in memory).
    Request(RequestError),
    /// Its fill failed.
    Fill(FillError),
    /// Its analysis failed.
    Analysis(grundy_laws::Error),
}

impl MemberError {
    /// What went wrong.
    pub fn kind(&self) -> &MemberErrorKind {
        &self.kind
    }
}

impl fmt::Display for MemberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.game)?;
        match &*self.kind {
            MemberErrorKind::Search(err) => write!(f, "{err}"),
            MemberErrorKind::Size(err) => write!(f, "{err}"),
            MemberErrorKind::Request(err) => write!(f, "{err}"),
            MemberErrorKind::Fill(err) => write!(f, "{err}"),
            MemberErrorKind::Analysis(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for MemberError {}

/// Computes and analyses one member on `runtime` (its threads installed by the caller, who
/// runs the members in parallel on them); `progress` hears which engine runs and may cancel it
/// (it is not told of cells: a survey counts members).
pub fn survey_member(
    runtime: &Runtime,
    game: &Game,
    extent: Extent,
    progress: &dyn Progress,
) -> Result<Computed, MemberError> {
    let progress = &Members(progress);
    let started = Instant::now();
    let mut note = None;
    let fail =
        |kind: MemberErrorKind| MemberError { game: game.name().to_string(), kind: Box::new(kind) };
    let theorem = extent.until_proved.filter(|_| {
        game.dims() == 1 && grundy_laws::proof::theorems::has_periodicity_theorem(game)
    });
    let (report, table) = match theorem {
        Some(limit) => {
            let start = game.axes()[0].min.max(extent.size);
            let mut search = ProofSearch::new(game, Some(start), limit, runtime.clone())
                .map_err(|e| fail(MemberErrorKind::Search(e)))?;
            loop {
                if let Some(found) =
                    search.round(progress).map_err(|e| fail(MemberErrorKind::Search(e)))?
                {
                    let table = search.last_table().expect("a round ran").clone();
                    break (found.report, Table::of_game(game.clone(), table));
                }
            }
        }
        None => {
            let max = extent.max(game);
            let text: Vec<String> = max.iter().map(Coord::to_string).collect();
            let shape = TableShape::new(game, &max, &text.join("x"))
                .map_err(|e| fail(MemberErrorKind::Size(e)))?;
            // The watch ends with the fill, before the analysis starts.
            let besides = Besides::one_after_another([
                watch(game, &shape),
                ("the analysis", analysis_bytes(&shape.lens())),
            ]);
            let request = FillRequest {
                runtime: runtime.clone(),
                search_seconds: extent.search_seconds.unwrap_or(SearchLimits::DEFAULT_SECONDS),
                ..FillRequest::new(game, &shape)
            };
            let fill = request.whole(&besides).map_err(|e| fail(MemberErrorKind::Request(e)))?;
            // Searched only as far as a theorem proves the period, when one does, or as the
            // member's seconds allow; a misère search cut by its limits keeps the heaps found.
            let deadline = extent.seconds.map(|s| started + Duration::from_secs(s));
            let described = match fill_whole(&fill, progress, deadline) {
                Ok(table) => table,
                Err(FillError::Search { why, found: Some(found) }) => {
                    let last = found.shape().max()[0];
                    note = Some(format!("its search stopped after heap {last}: {why}"));
                    Table::of_game(game.clone(), *found)
                }
                Err(err) => return Err(fail(MemberErrorKind::Fill(err))),
            };
            let report = analyze(&described).map_err(|e| fail(MemberErrorKind::Analysis(e)))?;
            (report, described)
        }
    };
    let mut row = row_of(game, &table, &report);
    row.seconds = started.elapsed().as_secs_f64();
    Ok(Computed { row, values: table.data().cells().to_u32_vec(), note })
}

/// A member's row: its table's counts and records, and what its report found.
fn row_of(game: &Game, table: &Table, report: &Report) -> Row {
    let stats = table.stats();
    let records = SequenceRecords::of(Some(game), table.data());
    let mut row = Row {
        game: game.name().to_string(),
        trivial: stats.max == 0,
        values: table.data().len(),
        max: stats.max,
        max_first_at: records.as_ref().map(|r| r.max_first_at),
        p_positions: stats.p_positions,
        rare_mask: records.as_ref().and_then(|r| r.rare_mask),
        rare_class: records.as_ref().and_then(|r| r.rare_class),
        rare: records.as_ref().and_then(|r| r.rare),
        last_rare: records.as_ref().and_then(|r| r.last_rare),
        ..Row::default()
    };
    match report {
        Report::Sequence(r) => {
            let s = &r.sequence;
            (row.period, row.preperiod, row.saltus) = (s.period, s.preperiod, s.saltus);
            (row.proof, row.needed_length) = (s.proof.clone(), s.needed_length);
        }
        Report::Board(r) => {
            row.outcome_rule = r.outcome.rule.clone();
            row.proof = r.outcome.proof.clone();
            (row.separable, row.symmetric) = (Some(r.outcome.separable), Some(r.symmetric));
            row.periodic_lines = Some(periodic_lines(&r.rows, &r.columns, &r.diagonals));
        }
        Report::LoopyHeaps(r) => {
            let min = table.data().axes()[0].min;
            let values = r.values.as_ref();
            row.period = values.map(|p| p.period);
            row.preperiod = values.map(|p| (p.from - min) as usize);
            row.saltus = values.map(|p| p.saltus);
            row.proof = Some(Proof::none(r.argument));
        }
        // A survey's members are heap games and boards.
        Report::Solid(_) => {}
        Report::LoopyBoard(r) => {
            row.outcome_rule = r.p_positions.rule.clone();
            row.proof = Some(Proof::none(r.argument));
            row.periodic_lines = Some(periodic_lines(&r.rows, &r.columns, &r.diagonals));
        }
    }
    row
}

/// The rows of `computed` (in member order) with their classes: members whose values agree on
/// every position both computed form a class named after its first member. An equivalence is
/// `proved` when both are proved periodic (heap games) and they agree on at least the larger
/// preperiod plus the least common multiple of the periods (with the same saltus): from there
/// on both repeat, so they agree everywhere. Trivial members form classes of their own kind
/// only with each other.
pub fn classify(computed: &[Computed]) -> Vec<Row> {
    let mut rows: Vec<Row> = computed.iter().map(|c| c.row.clone()).collect();
    let mut representatives: Vec<usize> = Vec::new();
    for i in 0..computed.len() {
        let found = representatives.iter().copied().find(|&r| {
            let (a, b) = (&computed[r], &computed[i]);
            let common = a.values.len().min(b.values.len());
            a.row.trivial == b.row.trivial
                && same_axes(&a.row, &b.row)
                && a.values[..common] == b.values[..common]
        });
        match found {
            None => {
                representatives.push(i);
                rows[i].class = rows[i].game.clone();
                rows[i].equivalence = Equivalence::Representative;
            }
            Some(r) => {
                rows[i].class = rows[r].game.clone();
                let common = computed[r].values.len().min(computed[i].values.len());
                rows[i].equivalence = if proves_equal(&rows[r], &rows[i], common) {
                    Equivalence::Proved
                } else {
                    Equivalence::AgreeUpTo(common)
                };
            }
        }
    }
    rows
}

/// Heap games only: boards of different shapes never share a class.
fn same_axes(a: &Row, b: &Row) -> bool {
    a.max_first_at.is_some() == b.max_first_at.is_some()
}

fn proves_equal(a: &Row, b: &Row, agree: usize) -> bool {
    let (Some(pa), Some(pb), Some(ea), Some(eb)) = (a.period, b.period, a.preperiod, b.preperiod)
    else {
        return false;
    };
    // Arithmetic periodicity (a saltus) repeats only with the same period and saltus.
    let proved = |row: &Row| row.proof.as_ref().is_some_and(Proof::is_proved);
    if !(proved(a) && proved(b)) || a.saltus != b.saltus || (a.saltus != Some(0) && pa != pb) {
        return false;
    }
    let lcm = pa / gcd(pa, pb) * pb;
    ea.max(eb) + lcm <= agree
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A survey's progress as one member's fill hears it: no cells (the survey counts members),
/// its cancellation and the engine that runs.
struct Members<'p>(&'p dyn Progress);

impl Progress for Members<'_> {
    fn advance(&self, _cells: u64) {}

    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }

    fn runs(&self, engine: grundy_compute::Engine) {
        self.0.runs(engine);
    }
}

/// How many of a board's rows, columns and diagonals are periodic, of how many.
fn periodic_lines(
    rows: &[LineReport],
    columns: &[LineReport],
    diagonals: &[LineReport],
) -> PeriodicLines {
    let periodic =
        |lines: &[LineReport]| [lines.iter().filter(|l| l.period.is_some()).count(), lines.len()];
    PeriodicLines {
        rows: periodic(rows),
        columns: periodic(columns),
        diagonals: periodic(diagonals),
    }
}
