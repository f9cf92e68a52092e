//! Every engine can be cancelled (issue 13): a `Progress` that asks to stop ends the fill between
//! waves with `FillError::Cancelled`, and the resumable fill returns its mark so far.

mod common;

use common::{table_fill, Config};
use grundy_compute::{
    Control, Engine, FillError, FillRequest, Layout, NoProgress, PreparedFill, Progress, Resumable,
    RowsTo,
};
use grundy_core::{lookup, TableShape};
use std::sync::atomic::{AtomicU64, Ordering};

/// Cancels once `limit` cells are reported.
struct StopAfter {
    cells: AtomicU64,
    limit: u64,
}

impl Progress for StopAfter {
    fn advance(&self, cells: u64) {
        self.cells.fetch_add(cells, Ordering::Relaxed);
    }

    fn cancelled(&self) -> bool {
        self.cells.load(Ordering::Relaxed) >= self.limit
    }
}

#[test]
fn every_engine_stops_when_asked() {
    let game = lookup("wythoff").unwrap();
    let shape = TableShape::new(&game, &[150, 150], "150x150").unwrap();
    for engine in [Engine::Reference, Engine::Waves, Engine::Tiles] {
        let config = Config { engine, threads: Some(2), tile_side: Some(16) };
        let fill = table_fill(&game, &shape, config);
        let progress = StopAfter { cells: AtomicU64::new(0), limit: 1000 };
        let result = fill.fill(&progress);
        assert!(matches!(result, Err(FillError::Cancelled)), "{engine:?}");
        let done = progress.cells.load(Ordering::Relaxed);
        assert!(done < shape.cells() as u64, "{engine:?} went on to the end");
        assert!(fill.fill(&NoProgress).is_ok(), "{engine:?}");
    }
    let config = Config { engine: Engine::Tiles, threads: Some(2), tile_side: Some(16) };
    let progress = StopAfter { cells: AtomicU64::new(0), limit: 1000 };
    let mut saw = 0;
    let fill = table_fill(&game, &shape, config);
    let (_, mark) = fill
        .fill_resumable(None, &progress, &mut |_, _| {
            saw += 1;
            Control::Continue
        })
        .unwrap();
    assert!(!mark.is_complete());
    assert_eq!(mark.done, saw, "the caller saw every tile-wave that was done");
}

/// The streaming fill stops too: between rows, with the rows handed to the sink so far and the
/// mark that says how many.
#[test]
fn the_streaming_fill_stops_when_asked() {
    let game = lookup("wythoff").unwrap();
    let shape = TableShape::new(&game, &[150, 150], "150x150").unwrap();
    let layout = Layout::Streamed { rows: RowsTo::Summary, resumable: Resumable::Yes };
    let Ok(PreparedFill::Rows(stream)) =
        FillRequest { layout, ..FillRequest::new(&game, &shape) }.prepare()
    else {
        panic!("a resumable streamed summary streams its rows")
    };
    let progress = StopAfter { cells: AtomicU64::new(0), limit: 1000 };
    let mut rows = 0;
    let mark = stream
        .run(&progress, |_| {
            rows += 1;
            Ok::<(), ()>(())
        })
        .unwrap();
    assert!(!mark.is_complete());
    assert_eq!(mark.done, rows);
    assert_eq!(rows, 1000usize.div_ceil(151), "stopped at the first row past the limit");
    let mark = stream.run(&NoProgress, |_| Ok::<(), ()>(())).unwrap();
    assert!(mark.is_complete());
    assert_eq!(mark.total, 151);
}
