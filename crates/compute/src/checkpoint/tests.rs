use super::*;
use crate::layout::{Layout, Resumable};
use crate::progress::{Control, NoProgress};
use crate::request::FillRequest;
use crate::stream::RowStream;
use grundy_core::lookup;
use std::io::Cursor;

/// A checkpoint written to memory reads back as the same table and mark, and a change of
/// one byte anywhere after the checksum is caught.
#[test]
fn round_trip_and_damage() {
    let game = lookup("wythoff").unwrap();
    let shape = TableShape::new(&game, &[300, 300], "300x300").unwrap();
    let request = FillRequest {
        layout: Layout::InMemory { resumable: Resumable::Yes },
        ..FillRequest::new(&game, &shape)
    };
    let fill = request.table(&crate::memory::Besides::NOTHING).unwrap();
    let plan = fill.plan().start();
    let mut stop = |_: &GrundyTable, mark: WaveMark| {
        if mark.done == 3 {
            Control::Stop
        } else {
            Control::Continue
        }
    };
    let (table, mark) = fill.fill_resumable(None, &NoProgress, &mut stop).unwrap();
    let of = CheckpointOf::new(&game, &[300, 300]);
    let mut bytes = Cursor::new(Vec::new());
    of.write(&mut bytes, &table, mark).unwrap();
    let bytes = bytes.into_inner();
    let (again, again_mark) = of.read(Cursor::new(&bytes), &shape, &plan).unwrap();
    assert!(again == table);
    assert_eq!(again_mark, mark);
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 1;
    let err = of.read(Cursor::new(&damaged), &shape, &plan).unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::Damaged { .. }), "{err}");
    let nim = CheckpointOf::new(&lookup("nim").unwrap(), &[300, 300]);
    let err = nim.read(Cursor::new(&bytes), &shape, &plan).unwrap_err();
    assert!(err.to_string().starts_with("it belongs to wythoff up to 300x300"), "{err}");
    // The same game and size under the other play convention: the difference is named
    // (issue 50: "belongs to wythoff up to 5000x5000, not to wythoff up to 5000x5000").
    let misere = CheckpointOf::new(&game.clone().with_play(Play::Misere), &[300, 300]);
    let err = misere.read(Cursor::new(&bytes), &shape, &plan).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "it was saved by a run of wythoff up to 300x300 under normal play, and this run is \
             under misère play"
        ),
        "{err}"
    );
    let stream = RowStream::new(&game, &shape).unwrap();
    let err = of.read_stream(Cursor::new(&bytes), &stream).unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::OtherMode { holds: Holds::Table }), "{err}");
}

/// Issue 13: the streaming fill is checkpointed too. Stopped after every few rows, saved,
/// read back and resumed, it hands the sink exactly the rows of an uninterrupted stream;
/// damage, a table checkpoint and a ring claiming more than the game allows are refused.
#[test]
fn a_stream_stopped_and_resumed_from_its_checkpoint_gives_every_row_once() {
    for (name, size) in [("wythoff", [90, 70]), ("kiki", [40, 50]), ("prime-steps", [60, 60])] {
        let game = lookup(name).unwrap();
        let shape = TableShape::new(&game, &size, "test").unwrap();
        let stream = RowStream::new(&game, &shape).unwrap();
        let mut whole = Vec::new();
        stream
            .run(&NoProgress, |row| {
                whole.extend_from_slice(row);
                Ok::<(), ()>(())
            })
            .unwrap();
        let of = CheckpointOf::new(&game, &size);
        let mut rows = Vec::new();
        let mut saved: Option<Vec<u8>> = None;
        let mut stops = 0;
        loop {
            let start = saved.as_ref().map(|bytes| {
                let (ring, caller) = of.read_stream(Cursor::new(bytes), &stream).unwrap();
                assert_eq!(caller, (ring.rows_done() as u64).to_le_bytes());
                ring
            });
            let mut stop = |ring: &RingStore, _: WaveMark| {
                if ring.rows_done().is_multiple_of(7) {
                    Control::Stop
                } else {
                    Control::Continue
                }
            };
            let (ring, mark) = stream
                .run_resumable(
                    start,
                    &NoProgress,
                    |row| {
                        rows.extend_from_slice(row);
                        Ok::<(), ()>(())
                    },
                    &mut stop,
                )
                .unwrap();
            if mark.is_complete() {
                break;
            }
            stops += 1;
            let mut bytes = Cursor::new(Vec::new());
            of.write_stream(&mut bytes, &ring, &(ring.rows_done() as u64).to_le_bytes()).unwrap();
            saved = Some(bytes.into_inner());
        }
        assert_eq!(stops, size[0] as usize / 7, "{name}");
        assert_eq!(rows, whole, "{name}");
        let bytes = saved.unwrap();
        let mut damaged = bytes.clone();
        damaged[bytes.len() - 20] ^= 4;
        let err = of.read_stream(Cursor::new(&damaged), &stream).unwrap_err();
        assert!(matches!(err.kind(), CheckpointErrorKind::Damaged { .. }), "{err}");
        let err = of.read(Cursor::new(&bytes), &shape, &stream.plan().start()).unwrap_err();
        assert!(matches!(err.kind(), CheckpointErrorKind::OtherMode { holds: Holds::Ring }));
    }
}

/// A ring whose line claims a huge window (under a valid checksum) is refused before its
/// words are allocated.
#[test]
fn a_ring_claiming_more_than_the_game_allows_is_refused() {
    let game = lookup("wythoff").unwrap();
    // Longer than the lines walked without a summary (compiled.rs, SHORT_LINE).
    let shape = TableShape::new(&game, &[80, 80], "test").unwrap();
    let stream = RowStream::new(&game, &shape).unwrap();
    let mut stop = |_: &RingStore, _: WaveMark| Control::Stop;
    let (ring, _) =
        stream.run_resumable(None, &NoProgress, |_| Ok::<(), ()>(()), &mut stop).unwrap();
    let of = CheckpointOf::new(&game, &[80, 80]);
    let mut bytes = Cursor::new(Vec::new());
    of.write_stream(&mut bytes, &ring, b"").unwrap();
    let mut bytes = bytes.into_inner();
    // The first line of the first store (the row): count at the ring's end, then base, mex
    // and the word count, which is set huge; the checksum is recomputed to match.
    let header_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    let ring_end = 20 + header_len + ring.kept() * 81 * 4;
    let words_at = ring_end + 8 + 8 + 4;
    bytes[words_at..words_at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let crc = crc32fast::hash(&bytes[16..]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    let err = of.read_stream(Cursor::new(&bytes), &stream).unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::Ring { .. }), "{err}");
    assert!(err.to_string().contains("claims 1099511627776 words"), "{err}");
}

/// Issue 32: a loopy game's labelling, stopped after every few rounds, saved, read back and
/// resumed, ends with the labels of one uninterrupted fill; damage, a table's checkpoint
/// and labels that no labelling has are refused.
#[test]
fn a_labelling_stopped_and_resumed_from_its_checkpoint_gives_the_same_values() {
    use crate::request::PreparedFill;
    use crate::retrograde::RetrogradeFill;
    // knight-retreat's rules: a few rounds, then the draws.
    let text = "name = \"knight\"\ndescription = \"test\"\n\
                axes = [{ name = \"n\", min = 0, max = 24 }, { name = \"m\", min = 0, max = 24 }]\n\
                [[rules]]\nkind = \"step\"\noffsets = [[-2, -1], [-1, -2], [-1, 0], [1, 1]]\n";
    let game = grundy_core::parse_spec(text, "test.toml").unwrap();
    let shape = TableShape::new(&game, &[24, 24], "24x24").unwrap();
    let prepare = || match FillRequest::new(&game, &shape).prepare() {
        Ok(PreparedFill::Retrograde(fill)) => fill,
        _ => panic!("a loopy game runs the retrograde kernel"),
    };
    let fill: RetrogradeFill<'_> = prepare();
    let whole = fill.fill(&NoProgress).unwrap();
    let of = CheckpointOf::new(&game, &[24, 24]);
    let mut saved: Option<Vec<u8>> = None;
    let mut stops = 0;
    let table = loop {
        let start = saved
            .as_ref()
            .map(|bytes| of.read_labels(Cursor::new(bytes), fill.positions()).unwrap());
        let mut last = None;
        let mut stop = |labelling: &Labelling| {
            last = Some(labelling.clone());
            Control::Stop
        };
        match fill.fill_resumable(start, &NoProgress, &mut stop).unwrap() {
            Some(table) => break table,
            None => {
                stops += 1;
                let mut bytes = Cursor::new(Vec::new());
                of.write_labels(&mut bytes, &last.expect("stopped after a round")).unwrap();
                saved = Some(bytes.into_inner());
            }
        }
    };
    assert!(stops >= 2, "stopped after each round but the last ({stops} stops)");
    assert_eq!(table.labels(), whole.labels());
    let bytes = saved.unwrap();
    let mut damaged = bytes.clone();
    damaged[bytes.len() - 5] ^= 1;
    let err = of.read_labels(Cursor::new(&damaged), fill.positions()).unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::Damaged { .. }), "{err}");
    let err = of.read_labels(Cursor::new(&bytes), fill.positions() - 1).unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::OtherPlan { .. }), "{err}");
    let err = of
        .read(Cursor::new(&bytes), &shape, &WaveMark { done: 0, total: 625, tile_sides: [0; 3] })
        .unwrap_err();
    assert!(matches!(err.kind(), CheckpointErrorKind::OtherMode { holds: Holds::Labels }), "{err}");
    // A label that no labelling after its rounds has (a value of a later round).
    let forged = Labelling::restore(vec![7; 625], 3);
    assert!(forged.is_none());
    let finished = table.labelling();
    let mut bytes = Cursor::new(Vec::new());
    of.write_labels(&mut bytes, &finished).unwrap();
    let again = of.read_labels(Cursor::new(bytes.into_inner()), fill.positions()).unwrap();
    assert_eq!(again, finished, "a finished labelling reads back whole");
    let done = fill.fill_resumable(Some(again), &NoProgress, &mut |_| Control::Stop).unwrap();
    assert_eq!(done.unwrap().labels(), whole.labels(), "and resumes to the table at once");
}
