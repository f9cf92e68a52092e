use super::{fill_table, load_game};
use crate::output::write_json_line;
use anyhow::Result;
use grundy_compute::Engine;
use grundy_core::{parse_coords, table::check_position, Coord, Nimber, TableShape};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// Print the Grundy value of each position, of their sum (XOR) and the outcome.
///
/// `grundy value subtraction:2,5 5 12` is S-Nim with heaps 5 and 12; `grundy value cutting 4x2`
/// is a 4×2 paper.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A catalog game (see `grundy games`) or a path to a spec file.
    game: String,
    /// Positions: `7` for heap games, `3x2` for boards. Several positions are a sum of games.
    #[arg(required = true)]
    positions: Vec<String>,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

#[derive(Serialize)]
struct Component {
    position: Vec<Coord>,
    value: u32,
}

#[derive(Serialize)]
struct Report<'a> {
    game: &'a str,
    components: Vec<Component>,
    value: u32,
    outcome: &'static str,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let game = load_game(&args.game)?;
    let positions = args
        .positions
        .iter()
        .map(|text| {
            let pos = parse_coords(text, "position")?;
            check_position(&game, &pos, text)?;
            Ok(pos)
        })
        .collect::<Result<Vec<_>>>()?;
    // One table over the box that holds every position.
    let max: Vec<Coord> =
        (0..game.dims()).map(|d| positions.iter().map(|p| p[d]).max().unwrap()).collect();
    let text: Vec<String> = max.iter().map(Coord::to_string).collect();
    let shape = TableShape::new(&game, &max, &text.join("x"))?;
    let table = fill_table(&game, &shape, Engine::Tiles, args.threads.map(usize::from), args.json)?;
    let components: Vec<Component> = positions
        .into_iter()
        .map(|position| {
            let value = table.get(&position).expect("the table covers every position").value();
            Component { position, value }
        })
        .collect();
    let sum = components.iter().fold(Nimber::ZERO, |sum, c| sum ^ Nimber(c.value));
    let report = Report {
        game: game.name(),
        components,
        value: sum.value(),
        outcome: if sum.is_p() { "P" } else { "N" },
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        write_json_line(&mut out, &report)?;
    } else {
        for (text, component) in args.positions.iter().zip(&report.components) {
            writeln!(out, "{text}: {}", component.value)?;
        }
        if report.components.len() > 1 {
            writeln!(out, "sum: {}", report.value)?;
        }
        let meaning =
            if sum.is_p() { "the player to move loses" } else { "the player to move wins" };
        writeln!(out, "outcome: {} ({meaning})", report.outcome)?;
    }
    Ok(ExitCode::SUCCESS)
}
