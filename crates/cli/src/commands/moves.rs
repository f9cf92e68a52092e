use super::value::{
    outcome_meaning, parse_terms, print_laws, sum_play, sum_terms, with_stream_hint, SumArgs,
};
use crate::load::{fill_table, Analysis};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::Result;
use grundy_compute::Runtime;
use grundy_core::{Coord, Game, GameOption, LoopyOutcome, LoopyValue, TableShape};
use grundy_play::moves::{moves_of, ComponentMoves, Moves, MovesError};
use grundy_play::moves::{SumValue, Term, ValueRule};
use grundy_play::positions::ValuesError;
use std::io::Write;
use std::process::ExitCode;

/// Every move of a position or a sum, with the value it leaves; the winning moves first.
///
/// `grundy moves wythoff 5x8` lists the moves of Wythoff's game from (5, 8) and marks those
/// to a P-position; `grundy moves kayles 10 + nim 3x5` lists the moves of both components and
/// marks those after which the sum's value is 0. For a single position the value is explained:
/// which values its options take and which is missing. A heap of any size whose game has a
/// proved period is answered from it (`grundy moves kayles 10^18`): a large group of splits is
/// told by the values its options take, how many take each, and the first. A sum with a loopy
/// game has generalized values (`inf(K)` where play may go on forever): its moves are listed as
/// winning (to a P-position), keeping a draw (to a D-position) or losing.
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

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let terms = parse_terms(&args.sum.terms)?;
    let texts: Vec<String> = terms
        .iter()
        .flat_map(|t| {
            let prefix =
                if terms.len() > 1 { format!("{} ", t.game.name()) } else { String::new() };
            t.positions.iter().map(move |(text, _)| format!("{prefix}{text}"))
        })
        .collect();
    let mut out = crate::output::stdout()?;
    if sum_play(&terms, args.sum.play)? == grundy_core::Play::Misere {
        let moves = super::misere_sums::moves(
            &sum_terms(&terms),
            args.sum.search_seconds,
            runtime.memory(),
        )?;
        return emit(&mut out, &moves, &texts, &args);
    }
    let bar = Bar::waiting(args.json);
    let library_terms: Vec<Term<'_, '_>> =
        terms.iter().map(|t| Term { game: &t.game, positions: t.positions.clone() }).collect();
    let mut fill = |game: &Game, shape: &TableShape| {
        fill_table(game, shape, runtime, &bar, Analysis::None)
            .map_err(|err| with_stream_hint(err, game, shape, runtime))
    };
    // Generalized values: a sum with a loopy component has them, and every other sum's are
    // its finite Grundy values.
    let moves = runtime.install(|| moves_of::<LoopyValue, _>(&library_terms, &mut fill)).map_err(
        |err| match err {
            MovesError::Values(ValuesError::Fill(err)) => err,
            err => anyhow::anyhow!("{err}"),
        },
    )?;
    bar.finish();
    emit(&mut out, &moves, &texts, &args)
}

/// The moves as JSON or text.
fn emit<V: SumValue>(
    out: &mut dyn Write,
    moves: &Moves<V>,
    texts: &[String],
    args: &Args,
) -> Result<ExitCode> {
    if args.json {
        write_json_line(out, &moves.report())?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(out, moves, texts, args.all)?;
    let goes_round = moves.components.iter().any(|c| c.rule == ValueRule::Smith);
    if goes_round && moves.value.outcome() == LoopyOutcome::N {
        // A P-position can be left and reached again for ever (Smith's counters order the
        // moves that make progress; they are not kept).
        writeln!(
            out,
            "note: play can go round here: every winning move keeps the win, but choosing them \
             so that play returns to a position already seen can go on for ever"
        )?;
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

/// One line of text per move: winning moves (to a P-position) first, then those that keep a
/// draw (to a D-position, loopy sums only), then the others.
fn print_text<V: SumValue>(
    out: &mut dyn Write,
    moves: &Moves<V>,
    texts: &[String],
    all: bool,
) -> Result<()> {
    let (mut winning, mut drawing, mut others) = (Vec::new(), Vec::new(), Vec::new());
    let misere = moves.play.adjective();
    for (component, text) in moves.components.iter().zip(texts) {
        for group in &component.groups {
            let listed = group.options.iter().map(|o| (&o.to, &o.value, 1, &o.sum));
            let classes = group.classes.iter().map(|c| (&c.first, &c.value, c.count, &c.sum));
            for (to, value, count, sum) in listed.chain(classes) {
                let more = if count > 1 {
                    format!(" and {} more like it", count - 1)
                } else {
                    String::new()
                };
                let line = format!(
                    "{text} -> {}{more}  [{}]  {misere}value {value}, {misere}sum {sum}",
                    option_text(to),
                    group.kind,
                );
                match sum.outcome() {
                    LoopyOutcome::P => &mut winning,
                    LoopyOutcome::D => &mut drawing,
                    LoopyOutcome::N => &mut others,
                }
                .push(line);
            }
        }
    }
    let values: Vec<String> = moves
        .components
        .iter()
        .zip(texts)
        .map(|(c, text)| match c.rule.misere() {
            Some((normal, tameness)) => {
                format!("{text}: misère value {} (normal {normal}, {tameness})", c.value)
            }
            None => format!("{text}: value {}", c.value),
        })
        .collect();
    let outcome = moves.value.outcome().letter();
    let meaning = outcome_meaning(outcome);
    let under = if misere.is_empty() { String::new() } else { " under misère play".to_string() };
    let how = moves.search.map_or(String::new(), |s| format!(" (by the {})", s.method));
    if moves.components.len() > 1 {
        writeln!(
            out,
            "{}; {misere}sum {}{how}; {outcome}{under} ({meaning})",
            values.join(", "),
            moves.value
        )?;
    } else {
        writeln!(out, "{}; {outcome}{under} ({meaning})", values[0])?;
    }
    if winning.is_empty() {
        writeln!(out, "winning moves: none (no move leaves a P-position, a sum of value 0)")?;
    } else {
        writeln!(out, "winning moves (each leaves a P-position: a sum of value 0):")?;
        for line in &winning {
            writeln!(out, "  {line}")?;
        }
    }
    if !drawing.is_empty() {
        writeln!(out, "moves that keep a draw (each leaves a D-position):")?;
        for line in &drawing {
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
        explain(out, component, &texts[0])?;
    }
    print_laws(out, &moves.laws, &moves.strips)?;
    Ok(())
}

/// Why a position has its value, by the rule its value follows.
fn explain<V: SumValue>(
    out: &mut dyn Write,
    component: &ComponentMoves<V>,
    text: &str,
) -> Result<()> {
    let values: Vec<String> = component.option_values().iter().map(|v| v.to_string()).collect();
    let listed = values.join(", ");
    match (component.rule, component.value.to_loopy()) {
        (ValueRule::Mex, _) if values.is_empty() => {
            writeln!(out, "mex: {text} has no options, so its value is 0")?
        }
        (ValueRule::Mex, _) => writeln!(
            out,
            "mex: the options take the values {{{listed}}}; the smallest missing is {}, the \
             value of {text}",
            component.mex()
        )?,
        (ValueRule::MisereMex { .. }, _) if values.is_empty() => writeln!(
            out,
            "misère: {text} has no options: the player to move cannot move and so wins, and its \
             misère value is 1"
        )?,
        (ValueRule::MisereMex { .. }, _) => writeln!(
            out,
            "mex: the options take the misère values {{{listed}}}; the smallest missing is {}, \
             the misère value of {text}",
            component.mex()
        )?,
        // A winning move in a game that can go round keeps the win but does not by itself end
        // play.
        (ValueRule::Smith, value) => {
            let taken = if values.is_empty() {
                format!("{text} has no options")
            } else {
                format!("the options take the values {{{listed}}}")
            };
            match value {
                LoopyValue::Finite(v) => writeln!(
                    out,
                    "smith: {taken}; no option has value {v}, and every option of a larger or \
                     infinite value has a move back to value {v}, so {text} has value {v}"
                )?,
                LoopyValue::Infinite(k) => {
                    let k: Vec<String> = k.iter().map(u32::to_string).collect();
                    writeln!(
                        out,
                        "smith: {taken}; no finite value meets Smith's conditions, so {text} is \
                         infinite, with K = {{{}}} (its options' finite values)",
                        k.join(", ")
                    )?
                }
            }
        }
    }
    Ok(())
}
