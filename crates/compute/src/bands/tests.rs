use super::*;
use crate::progress::NoProgress;
use crate::reference::fill_reference;
use crate::threads::ThreadCount;
use grundy_core::{lookup, parse_spec};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};

/// Ranks as threads, linked by channels.
struct LocalLink {
    rank: usize,
    ranks: usize,
    to: HashMap<(usize, Channel), Sender<Vec<u8>>>,
    from: HashMap<(usize, Channel), Receiver<Vec<u8>>>,
}

fn links(ranks: usize) -> Vec<LocalLink> {
    let mut links: Vec<LocalLink> = (0..ranks)
        .map(|rank| LocalLink { rank, ranks, to: HashMap::new(), from: HashMap::new() })
        .collect();
    for a in 0..ranks {
        for b in 0..ranks {
            for kind in [Channel::Edge, Channel::Rows] {
                let (send, receive) = channel();
                links[a].to.insert((b, kind), send);
                links[b].from.insert((a, kind), receive);
            }
        }
    }
    links
}

impl Link for LocalLink {
    fn rank(&self) -> usize {
        self.rank
    }
    fn ranks(&self) -> usize {
        self.ranks
    }
    fn send(&self, to: usize, channel: Channel, message: Vec<u8>) {
        self.to[&(to, channel)].send(message).expect("the rank is there");
    }
    fn receive(&self, from: usize, channel: Channel) -> Vec<u8> {
        // A rank 0 that stopped drops its links: end this rank without the panic message
        // (`resume_unwind` skips the hook), as the job would end it.
        self.from[&(from, channel)]
            .recv()
            .unwrap_or_else(|_| std::panic::resume_unwind(Box::new("rank 0 stopped")))
    }
}

struct Counted(AtomicU64);

impl Progress for Counted {
    fn advance(&self, cells: u64) {
        self.0.fetch_add(cells, Ordering::Relaxed);
    }
}

/// Cuts before rank 0's band `at` (counting its bands) and stops there.
struct StopAt {
    at: usize,
    seen: usize,
    cut: Option<BandCut>,
}

impl Cuts for StopAt {
    fn due(&mut self) -> bool {
        self.seen += 1;
        self.seen == self.at
    }
    fn save(&mut self, cut: &BandCut) -> Control {
        self.cut = Some(cut.clone());
        Control::Stop
    }
}

/// Runs `fill` on `ranks` threads from `start`; rank 0's rows, its progress, and how it
/// ended.
fn run_ranks(
    fill: &BandFill,
    ranks: usize,
    start: Option<BandCut>,
    cuts: &mut (dyn Cuts + Send),
) -> (Vec<u32>, u64, BandsDone) {
    let mut start = Some(start);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        let mut zero = None;
        for link in links(ranks) {
            if link.rank == 0 {
                zero = Some(link);
                continue;
            }
            handles.push(scope.spawn(move || {
                let mut sink = |_: &[u32]| Ok::<(), ()>(());
                fill.run(&link, None, &NoProgress, &mut sink, &mut NoCuts)
            }));
        }
        let link = zero.expect("rank 0");
        let mut rows = Vec::new();
        let progress = Counted(AtomicU64::new(0));
        let mut sink = |row: &[u32]| {
            rows.extend_from_slice(row);
            Ok::<(), ()>(())
        };
        let done = fill.run(&link, start.take().flatten(), &progress, &mut sink, cuts);
        let done = done.expect("the sink never fails");
        if done == BandsDone::Complete {
            for handle in handles {
                assert_eq!(handle.join().unwrap(), Ok(BandsDone::Complete));
            }
        } else {
            // The other ranks wait for rank 0 forever: a job ends them. Here the links
            // drop with rank 0's, which ends their waits with a panic: leave them.
            drop(link);
            for handle in handles {
                let _ = handle.join();
            }
        }
        (rows, progress.0.into_inner(), done)
    })
}

fn games() -> Vec<(grundy_core::Game, Vec<i64>)> {
    let queen = parse_spec(
        "name = \"queen-and-knight\"\ndescription = \"t\"\n\
         axes = [{ name = \"x\", min = 0 }, { name = \"y\", min = 0 }]\n\
         [[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2, -1], [-1, -2], [-3, 0]]\n",
        "queen",
    )
    .unwrap();
    let split = parse_spec(
        "name = \"split-and-step\"\ndescription = \"t\"\n\
         axes = [{ name = \"x\", min = 1 }, { name = \"y\", min = 0 }]\n\
         [[rules]]\nkind = \"split\"\naxis = \"x\"\n\
         [[rules]]\nkind = \"step\"\noffsets = [[0, -1], [0, -2]]\n",
        "split",
    )
    .unwrap();
    let long_step = parse_spec(
        "name = \"long-step\"\ndescription = \"t\"\n\
         axes = [{ name = \"x\", min = 0 }, { name = \"y\", min = 0 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-9, 0], [0, -1], [-5, -2]]\n",
        "long",
    )
    .unwrap();
    vec![
        (long_step, vec![50, 30]),
        (lookup("kiki").unwrap(), vec![60, 75]),
        // Slides along lines longer than the walked ones (compiled.rs, SHORT_LINE), so that
        // the bands keep a window of rows, not every row.
        (lookup("wythoff").unwrap(), vec![150, 150]),
        (lookup("wythoff").unwrap(), vec![100, 180]),
        (lookup("nim").unwrap(), vec![300, 300]),
        (lookup("cutting").unwrap(), vec![50, 50]),
        (lookup("cutting").unwrap(), vec![40, 61]),
        (lookup("prime-steps").unwrap(), vec![55, 50]),
        (lookup("wythoff-short-diagonal").unwrap(), vec![30, 44]),
        (lookup("fibonacci-rook").unwrap(), vec![40, 40]),
        (queen, vec![140, 90]),
        (split, vec![40, 33]),
        (lookup("kiki").unwrap(), vec![1, 40]),
        (lookup("kiki").unwrap(), vec![40, 1]),
    ]
}

/// A game of [`games`] with its shape and its reference values.
struct Case {
    game: grundy_core::Game,
    max: Vec<i64>,
    shape: TableShape,
    values: Vec<u32>,
}

/// Every game of [`games`] with its reference table, filled once for all the tests here: the
/// reference fill (an allocation per option) was nine tenths of each test's time.
fn cases() -> &'static [Case] {
    static CASES: std::sync::OnceLock<Vec<Case>> = std::sync::OnceLock::new();
    CASES.get_or_init(|| {
        games()
            .into_iter()
            .map(|(game, max)| {
                let shape = TableShape::new(&game, &max, "test").unwrap();
                let values =
                    fill_reference(&game, &shape).to_nimbers().iter().map(|v| v.value()).collect();
                Case { game, max, shape, values }
            })
            .collect()
    })
}

/// Every game, 1 to 4 ranks, bands of 1 to 3 tile rows, small tiles: rank 0 hands out the
/// reference table, row by row, and counts every cell once.
#[test]
fn bands_give_the_reference_table() {
    for Case { game, max, shape, values: expected } in cases() {
        for ranks in 1..=4 {
            for band_tiles in 1..=3 {
                for side in [Some(4), Some(9), None] {
                    let fill =
                        BandFill::with_tiles(game, shape, ranks, band_tiles, side, RowsTo::Writer)
                            .unwrap();
                    let (rows, cells, done) = run_ranks(&fill, ranks, None, &mut NoCuts);
                    let what = format!(
                        "{} {max:?} ranks {ranks} bands {band_tiles} tiles {side:?} every row {}",
                        game.name(),
                        fill.keeps_every_row()
                    );
                    assert_eq!(done, BandsDone::Complete, "{what}");
                    assert!(rows == *expected, "{what}");
                    assert_eq!(cells, expected.len() as u64, "{what}");
                }
            }
        }
    }
}

/// A fill for a summary mirrors symmetric tables even when its ranks keep a few rows: rank
/// 0 hands out each row's lower half, as the reference has it.
#[test]
fn summaries_mirror_symmetric_tables() {
    let mut lower = 0;
    for Case { game, max, shape, values: all } in cases() {
        let cols = shape.lens()[1];
        for ranks in 1..=3 {
            for (band_tiles, side) in [(1, Some(4)), (2, Some(9)), (1, None)] {
                let fill =
                    BandFill::with_tiles(game, shape, ranks, band_tiles, side, RowsTo::Summary)
                        .unwrap();
                let expected: Vec<u32> = if fill.lower_rows() {
                    lower += 1;
                    all.chunks(cols).enumerate().flat_map(|(i, row)| row[..=i].to_vec()).collect()
                } else {
                    all.clone()
                };
                let (rows, cells, done) = run_ranks(&fill, ranks, None, &mut NoCuts);
                let what = format!("{} {max:?} ranks {ranks} side {side:?}", game.name());
                assert_eq!(done, BandsDone::Complete, "{what}");
                assert!(rows == expected, "{what}");
                assert_eq!(cells, all.len() as u64, "{what}");
            }
        }
    }
    assert!(lower >= 20, "only {lower} fills were mirrored");
}

/// One rank through a [`SoloLink`]: the table of one process, without a message (issue 18:
/// a solo fill that sent itself its edges held a second copy of its line summaries).
#[test]
fn a_solo_link_fills_in_one_process() {
    for Case { game, shape, values: expected, .. } in cases() {
        let threads = Threads::new(Some(ThreadCount::new(2).unwrap())).unwrap();
        let fill = BandFill::new(game, shape, 1, threads, RowsTo::Writer).unwrap();
        let mut rows = Vec::new();
        let mut sink = |row: &[u32]| {
            rows.extend_from_slice(row);
            Ok::<(), ()>(())
        };
        let done = fill
            .threads()
            .install(|| fill.run(&SoloLink, None, &NoProgress, &mut sink, &mut NoCuts));
        assert_eq!(done, Ok(BandsDone::Complete), "{}", game.name());
        assert!(rows == *expected, "{}", game.name());
    }
}

/// A run cut and stopped before one of rank 0's bands, saved as a streamed checkpoint's
/// ring and resumed with another number of ranks, hands out the rest of the table.
#[test]
fn a_cut_resumes_with_any_number_of_ranks() {
    let mut stopped = 0;
    for Case { game, max, shape, values: expected } in cases() {
        let Ok(stream) = crate::stream::RowStream::new(game, shape) else { continue };
        for (ranks, again, at) in [(2, 3, 2), (3, 1, 2), (1, 4, 3), (4, 2, 2)] {
            let fill =
                BandFill::with_tiles(game, shape, ranks, 1, Some(4), RowsTo::Writer).unwrap();
            if fill.keeps_every_row() {
                continue;
            }
            let mut cuts = StopAt { at, seen: 0, cut: None };
            let (mut rows, _, done) = run_ranks(&fill, ranks, None, &mut cuts);
            let what = format!("{} {max:?} ranks {ranks} then {again}", game.name());
            let BandsDone::Stopped { next_row } = done else {
                // Too few bands to cut there.
                assert_eq!(rows, *expected, "{what}");
                continue;
            };
            stopped += 1;
            let cut = cuts.cut.unwrap();
            assert_eq!(cut.next_row, next_row);
            assert_eq!(rows.len(), next_row * shape.lens()[1], "{what}");
            let ring = cut.to_ring(stream.plan()).expect("a ring");
            let halo = stream.kept_rows() - 1;
            let resumed = BandCut::from_ring(&ring, halo);
            let fill =
                BandFill::with_tiles(game, shape, again, 2, Some(4), RowsTo::Writer).unwrap();
            let (rest, cells, done) = run_ranks(&fill, again, Some(resumed), &mut NoCuts);
            assert_eq!(done, BandsDone::Complete, "{what}");
            assert_eq!(cells as usize, rest.len(), "{what}");
            rows.extend(rest);
            assert!(rows == *expected, "{what}");
        }
    }
    assert!(stopped >= 20, "{stopped} runs were cut");
}
