use super::value::{misere_sum, parse_terms, print_laws, sum_terms, with_stream_hint, SumArgs};
use crate::load::{fill_table, Analysis};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::{bail, Result};
use grundy_core::{Coord, GameOption};
use grundy_patterns::moves::{moves_of, ComponentMoves, Moves, MovesError, Term};
use grundy_patterns::positions::ValuesError;
use std::io::Write;
use std::process::ExitCode;

/// Every move of a position or a sum, with the value it leaves; the winning moves first.
///
/// `grundy moves wythoff 5x8` lists the moves of Wythoff's game from (5, 8) and marks those
/// to a P-position; `grundy moves kayles 10 + nim 3x5` lists the moves of both components and
/// marks those after which the sum's value is 0. For a single position the value is explained:
/// which values its options take and which is missing. A heap of any size whose game has a
/// proved period is answered from it (`grundy moves kayles 10^18`): a large group of splits is
/// told by the values its options take, how many take each, and the first.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) sum: SumArgs,
    /// Print a JSON object instead of text (every option, each with `sum` and `winning`).
    #[arg(long)]
    json: bool,
    /// List every other move too (text; by default the first 40 are shown).
    #[arg(long)]
    all: bool,
}

/// Other moves shown in text unless `--all`.
const SHOWN: usize = 40;

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let terms = parse_terms(&args.sum.terms)?;
    if let Some(term) = terms.iter().find(|t| t.game.is_loopy()) {
        bail!(
            "{} is loopy: `grundy moves` does not take loopy games yet; `grundy value` gives a \
             sum's value and outcome (P, N or D)",
            term.game.name()
        );
    }
    if misere_sum(&terms, args.sum.misere)? {
        let report = super::misere_sums::report(&sum_terms(&terms), true, args.sum.search_seconds)?;
        return super::misere_sums::print_moves(&report, args.json, args.all);
    }
    let threads = args.sum.threads.pool()?;
    let bar = Bar::waiting(args.json);
    let moves = threads.install(|| {
        let mut fill = |game: &grundy_core::Game, shape: &grundy_core::TableShape| {
            fill_table(game, shape, &threads, &bar, Analysis::None)
                .map_err(|err| with_stream_hint(err, game, shape))
        };
        let terms: Vec<Term<'_, '_>> =
            terms.iter().map(|t| Term { game: &t.game, positions: t.positions.clone() }).collect();
        moves_of(&terms, &mut fill).map_err(|err| match err {
            MovesError::Values(ValuesError::Fill(err)) => err,
            err => anyhow::anyhow!("{err}"),
        })
    })?;
    let texts: Vec<String> = terms
        .iter()
        .flat_map(|t| {
            let prefix =
                if terms.len() > 1 { format!("{} ", t.game.name()) } else { String::new() };
            t.positions.iter().map(move |(text, _)| format!("{prefix}{text}"))
        })
        .collect();
    let mut out = crate::output::stdout()?;
    if args.json {
        write_json_line(&mut out, &moves.report())?;
    } else {
        print_text(&mut out, &moves, &texts, args.all)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A position as the user writes it: `7`, `3x5`.
fn position_text(pos: &[Coord]) -> String {
    pos.iter().map(Coord::to_string).collect::<Vec<_>>().join("x")
}

/// An option: the positions it leaves, joined by `+`; `nothing` for the empty heap sum.
fn option_text(option: &GameOption) -> String {
    if option.is_empty() {
        return "nothing".to_string();
    }
    option.iter().map(|p| position_text(p)).collect::<Vec<_>>().join(" + ")
}

/// One line of text per move: winning moves (sum 0 after them) first, then the others.
fn print_text(out: &mut impl Write, moves: &Moves, texts: &[String], all: bool) -> Result<()> {
    let (mut winning, mut others) = (Vec::new(), Vec::new());
    for (i, (component, text)) in moves.components.iter().zip(texts).enumerate() {
        for group in &component.groups {
            for option in &group.options {
                let sum = moves.sum_after(i, option.value);
                let line = format!(
                    "{text} -> {}  [{}]  value {}, sum {sum}",
                    option_text(&option.to),
                    group.kind,
                    option.value
                );
                if sum == 0 { &mut winning } else { &mut others }.push(line);
            }
            for class in &group.classes {
                let sum = moves.sum_after(i, class.value);
                let more = class.count - 1;
                let line = format!(
                    "{text} -> {}{}  [{}]  value {}, sum {sum}",
                    option_text(&class.first),
                    if more > 0 { format!(" and {more} more like it") } else { String::new() },
                    group.kind,
                    class.value
                );
                if sum == 0 { &mut winning } else { &mut others }.push(line);
            }
        }
    }
    let values: Vec<String> = moves
        .components
        .iter()
        .zip(texts)
        .map(|(c, text)| format!("{text}: value {}", c.value))
        .collect();
    let (outcome, meaning) = if moves.value == 0 {
        ("P", "the player to move loses")
    } else {
        ("N", "the player to move wins")
    };
    if moves.components.len() > 1 {
        writeln!(out, "{}; sum {}; {outcome} ({meaning})", values.join(", "), moves.value)?;
    } else {
        writeln!(out, "{}; {outcome} ({meaning})", values[0])?;
    }
    if winning.is_empty() {
        writeln!(out, "winning moves: none (every move leaves a sum of value other than 0)")?;
    } else {
        writeln!(out, "winning moves (each leaves a sum of value 0):")?;
        for line in &winning {
            writeln!(out, "  {line}")?;
        }
    }
    if !others.is_empty() {
        writeln!(out, "other moves:")?;
        let shown = if all { others.len() } else { others.len().min(SHOWN) };
        for line in &others[..shown] {
            writeln!(out, "  {line}")?;
        }
        if shown < others.len() {
            writeln!(out, "  … and {} more (--all lists them)", others.len() - shown)?;
        }
    }
    if let [component] = &moves.components[..] {
        explain_mex(out, component, &texts[0])?;
    }
    print_laws(out, &moves.laws, &moves.strips)?;
    Ok(())
}

/// Why a position has its value: the values its options take, and the smallest one missing.
fn explain_mex(out: &mut impl Write, component: &ComponentMoves, text: &str) -> Result<()> {
    let values = component.option_values();
    if values.is_empty() {
        writeln!(out, "mex: {text} has no options, so its value is 0")?;
        return Ok(());
    }
    let listed: Vec<String> = values.iter().map(u32::to_string).collect();
    writeln!(
        out,
        "mex: the options take the values {{{}}}; the smallest missing is {}, the value of {text}",
        listed.join(", "),
        component.mex()
    )?;
    Ok(())
}
