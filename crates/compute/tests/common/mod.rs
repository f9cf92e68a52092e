//! Helpers shared by the integration tests.
#![allow(dead_code, unreachable_pub)]

use grundy_compute::{
    fill_reference, Control, Engine, FillRequest, Layout, NoProgress, Resumable, Runtime,
    TableFill, ThreadCount, Threads, WaveMark,
};
use grundy_core::{Game, GrundyTable, TableShape};

/// How a test fills a table: the engine, the threads (`None`: the current pool) and the tile
/// side.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub engine: Engine,
    pub threads: Option<usize>,
    pub tile_side: Option<usize>,
}

impl Config {
    pub const AUTO: Config = Config { engine: Engine::Auto, threads: None, tile_side: None };

    pub fn of(engine: Engine) -> Config {
        Config { engine, ..Config::AUTO }
    }
}

/// The in-memory fill `config` asks for, prepared through the library's request (resumable but
/// for the reference engine, which has no waves).
pub fn table_fill<'g>(game: &'g Game, shape: &'g TableShape, config: Config) -> TableFill<'g> {
    let threads = config.threads.map(|t| ThreadCount::new(t).unwrap());
    let resumable = if config.engine == Engine::Reference { Resumable::No } else { Resumable::Yes };
    FillRequest {
        engine: config.engine,
        runtime: Runtime::new(Threads::new(threads).unwrap(), Default::default()),
        layout: Layout::InMemory { resumable },
        tile_side: config.tile_side,
        ..FillRequest::new(game, shape)
    }
    .table(&grundy_compute::memory::Besides::NOTHING)
    .unwrap()
}

/// The table `config` fills.
pub fn fill(game: &Game, shape: &TableShape, config: Config) -> GrundyTable {
    table_fill(game, shape, config).fill(&NoProgress).unwrap()
}

/// Fills `game` up to `max` with every engine path (the reference; waves and tiles on 1, 2 and 8
/// threads; resumable tile and cell-wave fills stopped after every wave), asserts that all the tables are
/// identical, and returns the table.
pub fn fill_all_ways(game: &Game, max: &[i64]) -> GrundyTable {
    let shape = TableShape::new(game, max, "test").unwrap();
    let reference = fill_reference(game, &shape);
    let configs = [
        (Engine::Waves, None),
        (Engine::Tiles, None),
        (Engine::Tiles, Some(1)),
        (Engine::Tiles, Some(3)),
        (Engine::Tiles, Some(7)),
    ];
    for (engine, tile_side) in configs {
        for threads in [1, 2, 8] {
            let config = Config { engine, threads: Some(threads), tile_side };
            let table = fill(game, &shape, config);
            assert!(
                table == reference,
                "{} up to {max:?}: {engine:?} (tile side {tile_side:?}) on {threads} threads differs from the reference",
                game.name()
            );
        }
    }
    let resumable = [(Engine::Tiles, None), (Engine::Tiles, Some(3)), (Engine::Waves, None)];
    for (engine, tile_side) in resumable {
        for threads in [1, 2] {
            let config = Config { engine, threads: Some(threads), tile_side };
            let table = fill_stopping_after_every_wave(game, &shape, config);
            assert!(
                table == reference,
                "{} up to {max:?}: resumed {engine:?} fill (tile side {tile_side:?}) on {threads} threads differs from the reference",
                game.name()
            );
        }
    }
    reference
}

/// Fills resumably, stopping after every tile-wave and resuming from a copy of the partial table
/// (in the narrowest cells that hold its values), until the table is complete.
pub fn fill_stopping_after_every_wave(
    game: &Game,
    shape: &TableShape,
    config: Config,
) -> GrundyTable {
    let fill = table_fill(game, shape, config);
    let mut start: Option<(GrundyTable, WaveMark)> = None;
    let mut stops = 0;
    loop {
        let (table, mark) =
            fill.fill_resumable(start.take(), &NoProgress, &mut |_, _| Control::Stop).unwrap();
        if mark.is_complete() {
            assert_eq!(stops + 1, mark.total, "one stop after every tile-wave but the last");
            return table;
        }
        stops += 1;
        assert_eq!(mark.done, stops);
        let copy = GrundyTable::from_nimbers(shape.clone(), &table.to_nimbers());
        start = Some((copy, mark));
    }
}

/// Fills `game` up to `max` with the default engine only.
pub fn fill_waves(game: &Game, max: &[i64]) -> GrundyTable {
    let shape = TableShape::new(game, max, "test").unwrap();
    fill(game, &shape, Config::AUTO)
}

/// The values of a 1-D table, as plain integers.
pub fn sequence(table: &GrundyTable) -> Vec<u32> {
    table.cells().to_u32_vec()
}
