use super::*;
use grundy_core::lookup;

fn request<'g>(
    game: &'g Game,
    shape: &'g TableShape,
    engine: Engine,
    layout: Layout,
) -> Result<&'static str, RequestErrorKind> {
    let prepared = FillRequest { engine, layout, ..FillRequest::new(game, shape) }
        .prepare()
        .map_err(RequestError::into_kind)?;
    Ok(match prepared {
        PreparedFill::Table(_) => "table",
        PreparedFill::Rows(_) => "rows",
        PreparedFill::Bands { rows: None, .. } => "bands",
        PreparedFill::Bands { rows: Some(_), .. } => "bands with rings",
        PreparedFill::Retrograde(_) => "retrograde",
    })
}

/// Every engine × layout on a board, a heap game and a game that cannot stream: what is
/// prepared, and what is refused with which kind.
#[test]
// A table of cases, read top to bottom: the limit is for functions of the code.
#[allow(clippy::too_many_lines)]
fn every_engine_and_layout_is_decided_here() {
    use Resumable::{No, Yes};
    use RowsTo::{Summary, Writer};
    let kiki = lookup("kiki").unwrap();
    let board = TableShape::new(&kiki, &[20, 20], "20x20").unwrap();
    let kayles = lookup("kayles").unwrap();
    let heaps = TableShape::new(&kayles, &[100], "100").unwrap();
    let cutting = lookup("cutting").unwrap();
    let whole_columns = TableShape::new(&cutting, &[20, 20], "20x20").unwrap();
    let streamed = |rows, resumable| Layout::Streamed { rows, resumable };
    let distributed = |rows, resumable| Layout::Distributed { ranks: 2, rows, resumable };
    for engine in Engine::ALL {
        let in_memory = request(&kiki, &board, engine, Layout::IN_MEMORY);
        let resumable = request(&kiki, &board, engine, Layout::InMemory { resumable: Yes });
        match engine {
            Engine::Sparse => {
                assert!(matches!(in_memory, Err(RequestErrorKind::NotSparse(_))));
            }
            Engine::Reference => {
                assert_eq!(in_memory.unwrap(), "table");
                assert!(matches!(resumable, Err(RequestErrorKind::ReferenceNotResumable)));
            }
            Engine::Retrograde => {
                assert_eq!((in_memory.unwrap(), resumable.unwrap()), ("retrograde", "retrograde"));
            }
            Engine::Search => {
                assert!(matches!(in_memory, Err(RequestErrorKind::NotSearch { .. })));
                assert!(matches!(resumable, Err(RequestErrorKind::NotSearch { .. })));
            }
            _ => assert_eq!((in_memory.unwrap(), resumable.unwrap()), ("table", "table")),
        }
        for layout in [streamed(Writer, No), streamed(Summary, No), distributed(Writer, No)] {
            let prepared = request(&kiki, &board, engine, layout);
            match engine {
                Engine::Auto | Engine::Tiles => assert_eq!(prepared.unwrap(), "bands"),
                Engine::Retrograde => assert!(
                    matches!(prepared, Err(RequestErrorKind::Loopy(LoopyRefusal::Layout))),
                    "{layout:?}"
                ),
                Engine::Sparse => {
                    assert!(matches!(prepared, Err(RequestErrorKind::NotSparse(_))))
                }
                Engine::Search => {
                    assert!(matches!(prepared, Err(RequestErrorKind::NotSearch { .. })))
                }
                _ => assert!(
                    matches!(prepared, Err(RequestErrorKind::NotTiles { .. })),
                    "{engine} {layout:?}"
                ),
            }
        }
    }
    let tiles = |game, shape, layout| request(game, shape, Engine::Tiles, layout);
    assert_eq!(tiles(&kiki, &board, streamed(Summary, Yes)).unwrap(), "rows");
    assert!(matches!(
        tiles(&kiki, &board, streamed(Writer, Yes)),
        Err(RequestErrorKind::RowsNotResumable)
    ));
    assert_eq!(tiles(&kiki, &board, distributed(Summary, Yes)).unwrap(), "bands with rings");
    assert!(matches!(
        tiles(&kiki, &board, distributed(Writer, Yes)),
        Err(RequestErrorKind::RowsNotResumable)
    ));
    assert!(matches!(
        tiles(&cutting, &whole_columns, streamed(Writer, No)),
        Err(RequestErrorKind::NoStream(_))
    ));
    assert!(matches!(
        tiles(&cutting, &whole_columns, distributed(Summary, Yes)),
        Err(RequestErrorKind::EveryRowNotResumable)
    ));
    assert_eq!(tiles(&cutting, &whole_columns, distributed(Writer, No)).unwrap(), "bands");
    assert!(matches!(
        tiles(&kayles, &heaps, streamed(Summary, No)),
        Err(RequestErrorKind::NoStream(NoStream::Axes { dims: 1 }))
    ));
    assert!(matches!(
        tiles(&kayles, &heaps, distributed(Writer, No)),
        Err(RequestErrorKind::NoBands(_))
    ));
    // Auto runs the sparse-space kernel on heap games it computes, the tiles elsewhere.
    let auto = |game, shape| match FillRequest::new(game, shape).prepare().unwrap() {
        PreparedFill::Table(fill) => fill.engine(),
        _ => unreachable!(),
    };
    assert_eq!(auto(&kayles, &heaps), Engine::Sparse);
    assert_eq!(auto(&kiki, &board), Engine::Tiles);
    // Misère play: tables of single positions run the tiles (never the sparse-space
    // kernel, whose candidates are normal-play pair values); heap games whose moves leave
    // sums run the exact search, in memory in one run, and boards whose moves leave sums are
    // refused whatever the engine or layout.
    let misere_kiki = kiki.clone().with_play(Play::Misere);
    assert_eq!(auto(&misere_kiki, &board), Engine::Tiles);
    let subtraction = lookup("subtraction:1,2,5").unwrap();
    let sub_heaps = TableShape::new(&subtraction, &[100], "100").unwrap();
    let misere_subtraction = subtraction.clone().with_play(Play::Misere);
    assert_eq!(auto(&misere_subtraction, &sub_heaps), Engine::Tiles);
    assert!(matches!(
        request(&misere_subtraction, &sub_heaps, Engine::Sparse, Layout::IN_MEMORY),
        Err(RequestErrorKind::MisereEngine { engine: Engine::Sparse })
    ));
    assert_eq!(
        request(&misere_kiki, &board, Engine::Tiles, streamed(Writer, No)).unwrap(),
        "bands"
    );
    let misere_kayles = kayles.clone().with_play(Play::Misere);
    assert_eq!(auto(&misere_kayles, &heaps), Engine::Search);
    let misere_cutting = cutting.clone().with_play(Play::Misere);
    for engine in Engine::ALL {
        let heaps = request(&misere_kayles, &heaps, engine, Layout::IN_MEMORY);
        let resumed = request(
            &misere_kayles,
            &heaps_shape(&kayles),
            engine,
            Layout::InMemory { resumable: Yes },
        );
        let board = request(&misere_cutting, &whole_columns, engine, Layout::IN_MEMORY);
        if engine == Engine::Retrograde {
            // The retrograde kernel computes normal play only.
            for refused in [heaps, resumed, board] {
                assert!(matches!(
                    refused,
                    Err(RequestErrorKind::Loopy(LoopyRefusal::Misere { .. }))
                ));
            }
            continue;
        }
        if matches!(engine, Engine::Auto | Engine::Search) {
            assert_eq!(heaps.unwrap(), "table");
        } else {
            assert!(matches!(heaps, Err(RequestErrorKind::MisereSums { .. })), "{engine}");
        }
        for refused in [resumed, board] {
            assert!(matches!(refused, Err(RequestErrorKind::MisereSums { .. })), "{engine}");
        }
    }
}

fn heaps_shape(game: &Game) -> TableShape {
    TableShape::new(game, &[100], "100").unwrap()
}

/// The memory check counts what each layout holds, and says which.
#[test]
fn the_memory_check_says_what_is_held() {
    let wythoff = lookup("wythoff").unwrap();
    let shape = TableShape::new(&wythoff, &[3000, 3000], "3000x3000").unwrap();
    let prepare =
        |layout| FillRequest { layout, ..FillRequest::new(&wythoff, &shape) }.prepare().unwrap();
    let table = prepare(Layout::IN_MEMORY);
    let streamed = prepare(Layout::Streamed { rows: RowsTo::Writer, resumable: Resumable::No });
    let rank =
        prepare(Layout::Distributed { ranks: 2, rows: RowsTo::Writer, resumable: Resumable::No });
    assert_eq!(
        (table.held(), streamed.held(), rank.held()),
        (Held::Table, Held::Streamed, Held::Rank)
    );
    assert!(streamed.planned_bytes() < table.planned_bytes());
    // A check that cannot pass: more than the machine can address.
    let err = table
        .check_memory(&MemoryPool::default(), &Besides::held("more", u128::MAX / 2))
        .unwrap_err();
    assert_eq!(err.held, Held::Table);
    assert!(err.available.is_none());
}
