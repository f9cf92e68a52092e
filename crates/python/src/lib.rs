//! The native half of the `grundy` Python package (`grundy._grundy`): thin functions over the
//! workspace's crates. The Python half (`python/grundy/__init__.py`) gives them their Python
//! idiom: the `Table` array, the `Game` class, the result dataclasses and the keyword arguments.
//!
//! What crosses the boundary: names and spec texts of games, coordinates, numpy arrays (tables
//! leave as the table's own cells, without a copy; they come in as `uint32`), JSON text (the
//! reports, exactly as the CLI's `--json` writes them) and PNG bytes. Errors cross as the
//! Python-defined classes of `grundy._errors`, never as a panic: every computation runs on a
//! worker thread whose panic becomes a `GrundyError`.
//!
//! Long computations release the GIL. While one runs, the calling thread wakes every 100 ms,
//! takes the GIL back briefly to look for a signal (Ctrl-C in a terminal, the stop button of a
//! notebook: a `KeyboardInterrupt`) and to report progress; on an interrupt it asks the fill to
//! stop (the engines stop between waves) and raises it.

use grundy_catalog::identify::{
    game_sequence, heap_sequence, line_of, name_report, GameSequenceError, IdentifyJson, Index,
    Line, Sequence,
};
use grundy_compute::memory::{Held, Need};
use grundy_compute::misere as search;
use grundy_compute::{Budget, Engine, Seconds, SequenceRecords};
use grundy_core::{
    check_position, Axis, CellArray, CellKind, Coord, GrundyTable, Table, TableShape,
};
use grundy_laws::closed_form::LawOptions;
use grundy_laws::conjecture::{check_with, ClaimKind, Conjecture};
use grundy_laws::until_proved::{ProofSearch, SearchError};
use grundy_laws::{analysis_bytes, analyze_with, Report, ReportJson};
use grundy_play::misere;
use grundy_play::positions::{values_of, Position, ValuesError};
use grundy_plot::{plot, ImageFormat, PlotOptions};
use numpy::{IntoPyArray, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::atomic::{AtomicBool, Ordering};

mod support;

use support::{
    error, fill_error, fill_table, guard, load_game, memory_of, misere_error, parse_engine,
    request_error, runtime_of, size_text, threads_of, watched, Class, Holds, LOADED_BY,
};

/// The misère value of a sum (`grundy value --misere`), as the JSON of its report: each term a
/// game (name, spec) and its positions.
#[pyfunction]
#[pyo3(signature = (terms, seconds=None))]
fn misere_sum(
    py: Python<'_>,
    terms: Vec<(String, Option<String>, Vec<Vec<Coord>>)>,
    seconds: Option<u64>,
) -> PyResult<String> {
    guard(py, || {
        let mut games = Vec::new();
        for (name, spec, _) in &terms {
            games.push(load_game(py, name, spec.as_deref())?);
        }
        let sum: Vec<misere::SumTerm<'_>> = games
            .iter()
            .zip(&terms)
            .map(|(game, (_, _, positions))| misere::SumTerm { game, positions: positions.clone() })
            .collect();
        let limits = search::SearchLimits::within(
            &memory_of(py)?,
            seconds.unwrap_or(search::SearchLimits::DEFAULT_SECONDS),
        );
        let report = watched(py, 0, None, |_| misere::misere_sum(&sum, &limits))?
            .map_err(|err| misere_error(py, err))?;
        serde_json::to_string(&report).map_err(|err| error(py, Class::Grundy, err))
    })
}

/// The genus of every heap of a heap game up to `last`: (heap, misère value, genus, tameness).
#[pyfunction]
#[pyo3(signature = (game, spec, last, seconds=None, progress=None))]
fn genus_of(
    py: Python<'_>,
    game: &str,
    spec: Option<&str>,
    last: Coord,
    seconds: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<(Coord, u32, String, String)>> {
    guard(py, || {
        let loaded = load_game(py, game, spec)?;
        if loaded.dims() != 1 {
            let message =
                format!("the genus is a heap game's; {} has {} axes", loaded.name(), loaded.dims());
            return Err(error(py, Class::Input, message));
        }
        let limits = search::SearchLimits::within(
            &memory_of(py)?,
            seconds.unwrap_or(search::SearchLimits::DEFAULT_SECONDS),
        );
        let total = u64::try_from(last - loaded.axes()[0].min + 1).unwrap_or(0);
        let rows = watched(py, total, progress.as_ref(), |watch| {
            search::genus_table(&loaded, last, &limits, watch)
        })?
        .map_err(|err| misere_error(py, err))?;
        Ok(rows
            .iter()
            .map(|row| {
                let tameness = search::tameness(&row.standing).to_string();
                (row.heap, row.genus.misere[0], row.genus.to_string(), tameness)
            })
            .collect())
    })
}

/// The catalog: (name, axes, description) of every game.
#[pyfunction]
fn games() -> Vec<(String, String, String)> {
    grundy_core::game::catalog().into_iter().map(|e| (e.name, e.axes, e.description)).collect()
}

/// A game as Python sees it: name, description, axes as (name, smallest coordinate), spec text,
/// play convention (`normal` or `misere`), and whether it is loopy.
type Described = (String, String, Vec<(String, Coord)>, String, String, bool);

/// The [`Described`] of a game.
#[pyfunction]
#[pyo3(signature = (game, spec=None))]
fn describe(py: Python<'_>, game: &str, spec: Option<&str>) -> PyResult<Described> {
    guard(py, || {
        let loaded = load_game(py, game, spec)?;
        let text = match (spec, grundy_core::game::catalog_spec(game)) {
            (Some(text), _) => text.to_string(),
            (None, Some(text)) => text.to_string(),
            (None, None) => grundy_core::to_spec(&loaded),
        };
        let axes = loaded.axes().iter().map(|a| (a.name.clone(), a.min)).collect();
        let play = loaded.play().name().to_string();
        let (name, description) = (loaded.name().to_string(), loaded.description().to_string());
        Ok((name, description, axes, text, play, loaded.is_loopy()))
    })
}

/// The spec of a game under the play convention `play` (`normal` or `misere`, as the CLI's
/// `--play` takes them): the one place where Python's `play=` becomes the game's
/// [`grundy_core::Play`], through [`grundy_core::Game::with_play`].
#[pyfunction]
#[pyo3(signature = (game, spec, play))]
fn spec_with_play(py: Python<'_>, game: &str, spec: Option<&str>, play: &str) -> PyResult<String> {
    guard(py, || {
        let play: grundy_core::Play = play.parse().map_err(|err| error(py, Class::Input, err))?;
        let loaded = load_game(py, game, spec)?;
        Ok(grundy_core::to_spec(&loaded.with_play(play)))
    })
}

/// The table of a game as a numpy array of its own cell type (uint8, uint16 or uint32), which
/// takes over the table's memory: no copy; a loopy game's as int64, ∞ as -1. With the engine
/// the library chose for it.
#[pyfunction]
#[pyo3(signature = (game, spec, size, threads=None, engine=None, progress=None, holds=None))]
#[allow(clippy::too_many_arguments)]
fn compute(
    py: Python<'_>,
    game: &str,
    spec: Option<&str>,
    size: Vec<Coord>,
    threads: Option<usize>,
    engine: Option<&str>,
    progress: Option<Py<PyAny>>,
    holds: Option<&str>,
) -> PyResult<(Py<PyAny>, &'static str)> {
    guard(py, || {
        let loaded = load_game(py, game, spec)?;
        let engine = parse_engine(py, engine)?;
        let runtime = runtime_of(py, threads)?;
        let held = Holds::parse(py, holds)?;
        let (table, engine) =
            fill_table(py, &loaded, &size, &runtime, engine, progress.as_ref(), held)?;
        let engine = engine.name();
        // A loopy game's values as the CSV's `g` column has them: ∞ as -1.
        if let Some(values) = table.g_values() {
            let shape = table.data().shape().lens();
            let array = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&shape), values)
                .expect("one value a cell");
            return Ok((array.into_pyarray(py).into_any().unbind(), engine));
        }
        let array = match table.into_data().into_array() {
            CellArray::U8(a) => a.into_pyarray(py).into_any().unbind(),
            CellArray::U16(a) => a.into_pyarray(py).into_any().unbind(),
            CellArray::U32(a) => a.into_pyarray(py).into_any().unbind(),
        };
        Ok((array, engine))
    })
}

/// The values of `positions` of a game however far out, as `grundy value` finds them: a heap
/// game whose period a theorem proves is computed only as far as the proof needs, a board with
/// bounded moves one strip at a time (`grundy_play::positions`).
#[pyfunction]
#[pyo3(signature = (game, spec, positions, threads=None))]
fn values_at(
    py: Python<'_>,
    game: &str,
    spec: Option<&str>,
    positions: Vec<Vec<Coord>>,
    threads: Option<usize>,
) -> PyResult<Vec<u32>> {
    guard(py, || {
        let loaded = load_game(py, game, spec)?;
        let dims = loaded.dims();
        let texts: Vec<String> = positions.iter().map(|p| size_text(p)).collect();
        for (position, text) in positions.iter().zip(&texts) {
            if position.len() != dims {
                let message = format!(
                    "position {text} has {} but {} has {}",
                    grundy_core::counted(position.len(), "coordinate", "coordinates"),
                    loaded.name(),
                    grundy_core::counted(dims, "axis", "axes"),
                );
                return Err(error(py, Class::Input, message));
            }
            check_position(&loaded, position, text).map_err(|err| error(py, Class::Input, err))?;
        }
        let positions: Vec<Position<'_>> =
            texts.iter().map(String::as_str).zip(positions.iter().cloned()).collect();
        let runtime = runtime_of(py, threads)?;
        let mut fill = |shape: &TableShape| {
            let size = shape.max().to_vec();
            fill_table(py, &loaded, &size, &runtime, Engine::Auto, None, Holds::Nothing)
                .map(|(table, _)| table)
        };
        match values_of(&loaded, &positions, &mut fill) {
            Ok(answered) => Ok(answered.values),
            Err(ValuesError::Fill(err)) => Err(err),
            Err(err) => Err(error(py, Class::Input, err)),
        }
    })
}

/// A table's values as they come from Python: a C-order array of the narrowest unsigned type
/// that holds them (the Python half converts anything else, once), copied once in its own width.
#[derive(FromPyObject)]
enum Cells<'py> {
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
}

impl Cells<'_> {
    fn lens(&self) -> Vec<usize> {
        match self {
            Cells::U8(a) => a.shape().to_vec(),
            Cells::U16(a) => a.shape().to_vec(),
            Cells::U32(a) => a.shape().to_vec(),
        }
    }

    fn cell_bytes(&self) -> usize {
        match self {
            Cells::U8(_) => 1,
            Cells::U16(_) => 2,
            Cells::U32(_) => 4,
        }
    }

    /// The table of `shape` holding these cells, narrowed.
    fn table(&self, shape: TableShape) -> Option<GrundyTable> {
        Some(match self {
            Cells::U8(a) => GrundyTable::from_vec(shape, a.as_slice().ok()?.to_vec()),
            Cells::U16(a) => GrundyTable::from_vec(shape, a.as_slice().ok()?.to_vec()).narrowed(),
            Cells::U32(a) => GrundyTable::from_vec(shape, a.as_slice().ok()?.to_vec()).narrowed(),
        })
    }
}

/// Refuses a copy of a table of `lens` in cells of `cell_bytes` that would not fit in the memory
/// available (the budget included): what the Python half asks before it converts an array.
#[pyfunction]
fn check_copy(py: Python<'_>, lens: Vec<usize>, cell_bytes: usize) -> PyResult<()> {
    guard(py, || {
        let cells = lens.iter().map(|&len| len as u128).product::<u128>();
        let needed = cells.saturating_mul(cell_bytes as u128);
        memory_of(py)?
            .check_bytes(cells, cell_bytes, needed, Held::Table)
            .map_err(|err| error(py, Class::TooLarge, err))
    })
}

/// A game as Python hands it over: a `grundy.Game`, read through its catalog name or path
/// (`_ref`) and the spec text of a game built from one (`_spec`).
#[derive(FromPyObject)]
struct GameArg {
    #[pyo3(attribute("_ref"))]
    reference: String,
    #[pyo3(attribute("_spec"))]
    spec: Option<String>,
}

/// A table as Python hands it over: `grundy._Described`, the array with its axes as
/// (name, min), its name and the game it is a table of, when known.
#[derive(FromPyObject)]
struct TableArg<'py> {
    #[pyo3(attribute)]
    array: Cells<'py>,
    #[pyo3(attribute)]
    axes: Vec<(String, Coord)>,
    #[pyo3(attribute)]
    name: String,
    #[pyo3(attribute)]
    game: Option<GameArg>,
}

/// A table described for the analyses, from an array with its axes and the game it is a table
/// of when known; `extra` is what the caller holds besides the table's copy (an analysis),
/// checked with it before the copy is made.
fn described(py: Python<'_>, table: TableArg<'_>, extra: u128) -> PyResult<Table> {
    let TableArg { array, axes, name, game } = table;
    let memory = memory_of(py)?;
    let lens = array.lens();
    if !(1..=3).contains(&lens.len()) {
        let message = format!("a table has 1 to 3 axes; this array has {}", lens.len());
        return Err(error(py, Class::Input, message));
    }
    if lens.len() != axes.len() {
        let message = format!(
            "the array has {} but {} axis names were given",
            grundy_core::counted(lens.len(), "dimension", "dimensions"),
            axes.len()
        );
        return Err(error(py, Class::Input, message));
    }
    if lens.contains(&0) {
        return Err(error(py, Class::Input, "the array is empty"));
    }
    // Every coordinate of the table within the limit coordinates have (2^31 either way).
    let mut max = Vec::new();
    for ((axis, min), &len) in axes.iter().zip(&lens) {
        let last = i128::from(*min) + len as i128 - 1;
        let limit = i128::from(grundy_core::COORD_LIMIT);
        if i128::from(*min) <= -limit || last >= limit {
            let message = format!(
                "axis {axis} runs from {min} to {last}: coordinates lie between -2^31 and 2^31"
            );
            return Err(error(py, Class::Input, message));
        }
        max.push(last as Coord);
    }
    let cells = lens.iter().map(|&len| len as u128).product::<u128>();
    let width = array.cell_bytes();
    let need = Need::of(cells, width, cells.saturating_mul(width as u128), Held::Table)
        .besides("what the call holds besides the table", extra);
    memory.check(&need).map_err(|err| error(py, Class::TooLarge, err))?;
    let axes = axes.into_iter().map(|(name, min)| Axis::new(&name, min)).collect();
    let shape = TableShape::from_axes(axes, max);
    let data = array
        .table(shape)
        .ok_or_else(|| error(py, Class::Input, "the array must be contiguous (C order)"))?;
    Ok(match game {
        Some(game) => {
            let game = load_game(py, &game.reference, game.spec.as_deref())?;
            Table::of_values(game, data).map_err(|why| {
                let message = format!(
                    "{why} (its array holds ∞ as -1), so its analyses, checks and pictures run \
                     from the game in the command line (`grundy patterns`, `grundy check`, \
                     `grundy plot`)"
                );
                error(py, Class::Input, message)
            })?
        }
        // An array from Python holds values (outcome tables are read from CSV by the CLI).
        None => Table::without_game(data, CellKind::Values, &name),
    })
}

fn to_json(py: Python<'_>, value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|err| error(py, Class::Grundy, err))
}

/// The report of `grundy patterns --json` for a table.
#[pyfunction]
#[pyo3(signature = (table, law_seconds=None, proof_seconds=None))]
fn patterns_of(
    py: Python<'_>,
    table: TableArg<'_>,
    law_seconds: Option<f64>,
    proof_seconds: Option<f64>,
) -> PyResult<String> {
    guard(py, || {
        let laws = law_seconds.unwrap_or(LawOptions::DEFAULT_SECONDS);
        let options = LawOptions::within(laws)
            .map_err(|err| error(py, Class::Input, format!("law_seconds: {err}")))?
            .with_proof_seconds(seconds(
                py,
                proof_seconds,
                Budget::PROOF_SECONDS.get(),
                "proof_seconds",
            )?);
        // The table's copy of the array and what the analysis holds besides, before either is
        // made.
        let extra = analysis_bytes(&table.array.lens());
        let table = described(py, table, extra)?;
        // The law search and the proofs stopped by a notebook's interrupt too.
        let (report, records) = watched(py, 0, None, |watch| {
            let report = analyze_with(&table, &options.reporting_to(watch));
            (report, SequenceRecords::of(table.game(), table.data()))
        })?;
        let report = report.map_err(|err| error(py, Class::Input, err))?;
        report_json(py, &report, table.data(), records.as_ref(), None)
    })
}

/// A time bound given as `keyword` (the default when `None`), as the library checks it.
fn seconds(py: Python<'_>, given: Option<f64>, default: f64, keyword: &str) -> PyResult<Seconds> {
    let what = "a proof's time bound";
    Seconds::new(given.unwrap_or(default), what)
        .map_err(|err| error(py, Class::Input, format!("{keyword}: {err}")))
}

/// The JSON of `grundy patterns --json`: the report of `data`, with the known games it names.
fn report_json(
    py: Python<'_>,
    report: &Report,
    data: &GrundyTable,
    records: Option<&SequenceRecords>,
    search: Option<&grundy_laws::until_proved::Search>,
) -> PyResult<String> {
    let known = name_report(data, report, Index::builtin());
    to_json(py, &ReportJson { report, records, until_proved: search, known: Some(&known) })
}

/// A line of a board as Python names it: `("row", 2)`, `("column", 3)`, `("diagonal", -1)`.
fn line_arg(py: Python<'_>, line: Option<(String, Coord)>) -> PyResult<Option<Line>> {
    line.map(|(kind, at)| match kind.as_str() {
        "row" => Ok(Line::Row(at)),
        "column" => Ok(Line::Column(at)),
        "diagonal" => Ok(Line::Diagonal(at)),
        _ => Err(error(py, Class::Input, format!("`{kind}` is no line: row, column or diagonal"))),
    })
    .transpose()
}

/// `grundy identify --json` for `query`, named `what`.
fn identify_json(
    py: Python<'_>,
    what: &str,
    query: &Sequence,
    shift: i64,
    index: Option<&[u8]>,
) -> PyResult<String> {
    // The index read from `index` (an index file's bytes), or the built-in one.
    let read;
    let index = match index {
        None => Index::builtin(),
        Some(bytes) => {
            read = Index::read(bytes).map_err(|err| error(py, Class::Input, err))?;
            &read
        }
    };
    let found = index.identify(query, shift);
    let json = IdentifyJson {
        sequence: what,
        values: query.values.len(),
        found: &found,
        index: &index.header,
    };
    to_json(py, &json)
}

/// `grundy identify GAME --json`: a heap game (computed until a theorem proves its period where
/// one covers it) or a line of a board computed up to `size`.
#[pyfunction]
#[pyo3(signature = (game, spec, size, line, limit, shift, index=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn identify_game(
    py: Python<'_>,
    game: &str,
    spec: Option<&str>,
    size: Vec<Coord>,
    line: Option<(String, Coord)>,
    limit: u64,
    shift: i64,
    index: Option<&[u8]>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    guard(py, || {
        let runtime = runtime_of(py, threads)?;
        let loaded = load_game(py, game, spec)?;
        let line = line_arg(py, line)?;
        let what = match line {
            Some(line) if loaded.dims() == 2 => {
                let axes = loaded.axes();
                format!("{} {}", loaded.name(), line.describe([&axes[0].name, &axes[1].name]))
            }
            _ => loaded.name().to_string(),
        };
        let found = watched(py, 0, progress.as_ref(), |watch| {
            game_sequence(&loaded, &size, line, limit, &runtime, watch, &mut |_| {})
        })?;
        let query = found.map_err(|err| match err {
            GameSequenceError::Compute(SearchError::TooLarge(err)) => {
                error(py, Class::TooLarge, err)
            }
            GameSequenceError::Compute(SearchError::Request(err)) => request_error(py, err),
            GameSequenceError::Compute(SearchError::Fill(err)) => fill_error(py, err),
            err => error(py, Class::Input, format!("{}: {err}", loaded.name())),
        })?;
        identify_json(py, &what, &query, shift, index)
    })
}

/// `grundy identify --json` for an array: a 1-D array's values, or a line of a 2-D one.
#[pyfunction]
#[pyo3(signature = (table, line, shift, index=None))]
fn identify_array(
    py: Python<'_>,
    table: TableArg<'_>,
    line: Option<(String, Coord)>,
    shift: i64,
    index: Option<&[u8]>,
) -> PyResult<String> {
    guard(py, || {
        let line = line_arg(py, line)?;
        let name = table.name.clone();
        let table = described(py, table, 0)?;
        let data = table.data();
        let (what, query) = match (data.axes(), line) {
            ([axis], None) => {
                (name.to_string(), heap_sequence(None, data.cells().to_u32_vec(), axis.min))
            }
            ([x, y], Some(line)) => {
                let query = line_of(data, line).map_err(|err| error(py, Class::Input, err))?;
                (format!("{name} {}", line.describe([&x.name, &y.name])), query)
            }
            ([_], Some(_)) => {
                return Err(error(py, Class::Input, "a 1-D array is one sequence: it has no lines"))
            }
            (axes, _) => {
                let message = format!(
                    "a {}-D array is no sequence: take a row, a column or a diagonal of a 2-D one",
                    axes.len()
                );
                return Err(error(py, Class::Input, message));
            }
        };
        identify_json(py, &what, &query, shift, index)
    })
}

/// The report of `grundy patterns GAME --until-proved --json`.
#[pyfunction]
#[pyo3(signature = (game, spec, start, limit, threads=None, progress=None))]
fn patterns_until_proved(
    py: Python<'_>,
    game: &str,
    spec: Option<&str>,
    start: Option<Coord>,
    limit: u64,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    guard(py, || {
        let runtime = runtime_of(py, threads)?;
        let loaded = load_game(py, game, spec)?;
        let search_error = |py: Python<'_>, err: SearchError| match err {
            SearchError::NotHeapGame(_) | SearchError::NoTheorem(_) | SearchError::Size(_) => {
                error(py, Class::Input, format!("{}: {err}", loaded.name()))
            }
            SearchError::TooLarge(err) => error(py, Class::TooLarge, err),
            SearchError::Request(err) => request_error(py, err),
            SearchError::Fill(err) => fill_error(py, err),
            err => error(py, Class::Grundy, err),
        };
        let mut search =
            ProofSearch::new(&loaded, start, limit, runtime).map_err(|e| search_error(py, e))?;
        loop {
            let shape = search.next_shape().map_err(|e| search_error(py, e))?;
            let total = u64::try_from(shape.cells()).unwrap_or(u64::MAX);
            let round = watched(py, total, progress.as_ref(), |watch| search.round(watch))?;
            if let Some(found) = round.map_err(|e| search_error(py, e))? {
                let table = search.last_table().expect("a round ran");
                let (report, records) = (&found.report, found.records.as_ref());
                return report_json(py, report, table, records, Some(&found.search));
            }
        }
    })
}

/// The report of `grundy check --json` for a claim about a table.
#[pyfunction]
#[pyo3(signature = (table, kind, expression, period=None, show=10, proof_seconds=None))]
fn check_of(
    py: Python<'_>,
    table: TableArg<'_>,
    kind: &str,
    expression: &str,
    period: Option<Vec<u64>>,
    show: usize,
    proof_seconds: Option<f64>,
) -> PyResult<String> {
    guard(py, || {
        let proof_seconds =
            seconds(py, proof_seconds, Budget::PROOF_SECONDS.get(), "proof_seconds")?;
        // The keyword (`p_set`) is the kind's name (`p-set`) as Python spells a name.
        let kind: ClaimKind =
            kind.replace('_', "-").parse().map_err(|err| error(py, Class::Input, err))?;
        let argument = kind.option().replace('-', "_");
        let names: Vec<&str> = table.axes.iter().map(|(n, _)| n.as_str()).collect();
        let conjecture = Conjecture::parse_named(kind, expression, &names, &argument)
            .map_err(|err| error(py, Class::Input, err))?;
        if let Some(period) = &period {
            if period.len() != names.len() || period.contains(&0) {
                let message = format!(
                    "period {period:?} needs one whole number of at least 1 for each of the {} axes",
                    names.len()
                );
                return Err(error(py, Class::Input, message));
            }
        }
        let table = described(py, table, 0)?;
        // The proof within its budget, stopped by a notebook's interrupt too.
        let report = watched(py, 0, None, |watch| {
            let budget = Budget::new(proof_seconds, watch);
            check_with(&table, &conjecture, period.as_deref(), show, &budget)
        })?
        .map_err(|err| error(py, Class::Input, err))?;
        to_json(py, &report)
    })
}

/// The picture `grundy plot` draws of a table, in the format a file extension names (`png`,
/// `svg` or `pdf`).
#[pyfunction]
#[pyo3(signature = (table, outcome=false, max_side=1000, extension="png"))]
fn plot_of<'py>(
    py: Python<'py>,
    table: TableArg<'py>,
    outcome: bool,
    max_side: usize,
    extension: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    guard(py, || {
        if !(16..=8192).contains(&max_side) {
            let message = format!("max_side must be from 16 to 8192, not {max_side}");
            return Err(error(py, Class::Input, message));
        }
        let Some(format) = ImageFormat::of_extension(extension) else {
            let message = format!("a picture is a .png, .svg or .pdf file, not .{extension}");
            return Err(error(py, Class::Input, message));
        };
        let lens = table.array.lens();
        let table = described(py, table, Holds::Plot.bytes(&lens))?;
        let options = PlotOptions { outcome, max_side };
        let picture = watched(py, 0, None, |_| plot(&table, &options, format))?
            .map_err(|err| error(py, Class::Input, err))?;
        Ok(PyBytes::new(py, &picture))
    })
}

/// A view's server, serving on a thread of its own until stopped (`grundy.view`).
#[pyclass(module = "grundy._grundy")]
struct ViewServer {
    url: String,
    token: String,
    stop: std::sync::Arc<AtomicBool>,
    serving: Option<std::thread::JoinHandle<Result<(), grundy_view::ServeError>>>,
}

#[pymethods]
impl ViewServer {
    /// The page's address.
    #[getter]
    fn url(&self) -> String {
        self.url.clone()
    }

    /// The token every request needs.
    #[getter]
    fn token(&self) -> String {
        self.token.clone()
    }

    /// Whether the server still serves.
    #[getter]
    fn running(&self) -> bool {
        self.serving.as_ref().is_some_and(|s| !s.is_finished())
    }

    /// Stops the server within about a second (the work under way is cancelled); stopping
    /// twice does nothing.
    fn stop(&mut self, py: Python<'_>) -> PyResult<()> {
        self.stop.store(true, Ordering::SeqCst);
        let Some(serving) = self.serving.take() else { return Ok(()) };
        let joined = py.detach(|| serving.join());
        match joined {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(error(py, Class::Grundy, err)),
            Err(_) => Err(error(py, Class::Grundy, "the view's server failed")),
        }
    }
}

impl Drop for ViewServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Serves the page of `grundy view` for a table on 127.0.0.1 (`port`, or a free one).
#[pyfunction]
#[pyo3(signature = (table, port=None, threads=None))]
fn view_start(
    py: Python<'_>,
    table: TableArg<'_>,
    port: Option<u16>,
    threads: Option<usize>,
) -> PyResult<ViewServer> {
    guard(py, || {
        let lens = table.array.lens();
        if lens.len() > 2 {
            let message =
                format!("the view shows 1-D and 2-D tables; this one has {} axes", lens.len());
            return Err(error(py, Class::Input, message));
        }
        let threads = threads_of(py, threads)?;
        let table = described(py, table, grundy_view::view_bytes(&lens))?;
        let server = grundy_view::Server::bind(port).map_err(|err| error(py, Class::Input, err))?;
        let (url, token) = (server.url(), server.token().to_string());
        let state = py.detach(|| grundy_view::ViewState::of_table(table, threads));
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let serving =
            std::thread::spawn(move || server.run(state, move || stopping.load(Ordering::SeqCst)));
        Ok(ViewServer { url, token, stop, serving: Some(serving) })
    })
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    LOADED_BY.get_or_init(std::process::id);
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(spec_with_play, m)?)?;
    m.add_function(wrap_pyfunction!(compute, m)?)?;
    m.add_function(wrap_pyfunction!(values_at, m)?)?;
    m.add_function(wrap_pyfunction!(misere_sum, m)?)?;
    m.add_function(wrap_pyfunction!(genus_of, m)?)?;
    m.add_function(wrap_pyfunction!(patterns_of, m)?)?;
    m.add_function(wrap_pyfunction!(patterns_until_proved, m)?)?;
    m.add_function(wrap_pyfunction!(check_of, m)?)?;
    m.add_function(wrap_pyfunction!(plot_of, m)?)?;
    m.add_function(wrap_pyfunction!(check_copy, m)?)?;
    m.add_function(wrap_pyfunction!(view_start, m)?)?;
    m.add_function(wrap_pyfunction!(identify_game, m)?)?;
    m.add_function(wrap_pyfunction!(identify_array, m)?)?;
    m.add_class::<ViewServer>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SPEC_LIMIT_BYTES", grundy_core::SPEC_LIMIT_BYTES)?;
    m.add("COORD_LIMIT", grundy_core::COORD_LIMIT)?;
    Ok(())
}
