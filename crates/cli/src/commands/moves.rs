use super::value::{
    misere_sum, outcome_meaning, parse_terms, print_laws, refuse_loopy_misere, sum_terms,
    with_stream_hint, SumArgs,
};
use crate::load::{fill_loopy, fill_table, Analysis};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::Result;
use grundy_core::{Coord, Game, GameOption, LoopyOutcome, LoopyValue, TableShape};
use grundy_patterns::moves::{loopy_moves_of, moves_of, ComponentMoves, Moves, MovesError};
use grundy_patterns::moves::{SumValue, Term};
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

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let terms = parse_terms(&args.sum.terms)?;
    refuse_loopy_misere(&terms, args.sum.misere)?;
    let texts: Vec<String> = terms
        .iter()
        .flat_map(|t| {
            let prefix =
                if terms.len() > 1 { format!("{} ", t.game.name()) } else { String::new() };
            t.positions.iter().map(move |(text, _)| format!("{prefix}{text}"))
        })
        .collect();
    let mut out = crate::output::stdout()?;
    if misere_sum(&terms, args.sum.misere)? {
        let moves = super::misere_sums::moves(&sum_terms(&terms), args.sum.search_seconds)?;
        if args.json {
            write_json_line(&mut out, &moves.report())?;
        } else {
            print_text(&mut out, &moves, &texts, args.all, explain_misere)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let threads = args.sum.threads.pool()?;
    let bar = Bar::waiting(args.json);
    let loopy = terms.iter().any(|t| t.game.is_loopy());
    let library_terms: Vec<Term<'_, '_>> =
        terms.iter().map(|t| Term { game: &t.game, positions: t.positions.clone() }).collect();
    let mut fill = |game: &Game, shape: &TableShape| {
        fill_table(game, shape, &threads, &bar, Analysis::None)
            .map_err(|err| with_stream_hint(err, game, shape))
    };
    let unwrap = |err| match err {
        MovesError::Values(ValuesError::Fill(err)) => err,
        err => anyhow::anyhow!("{err}"),
    };
    if loopy {
        let mut fill_loopy =
            |game: &Game, shape: &TableShape| fill_loopy(game, shape, &threads, &bar, 0);
        let moves = threads
            .install(|| loopy_moves_of(&library_terms, &mut fill_loopy, &mut fill))
            .map_err(unwrap)?;
        bar.finish();
        if args.json {
            write_json_line(&mut out, &moves.report())?;
        } else {
            print_text(&mut out, &moves, &texts, args.all, explain_smith)?;
            if moves.value.outcome() == LoopyOutcome::N {
                // A P-position can be left and reached again for ever (Smith's counters order
                // the moves that make progress; they are not kept).
                writeln!(
                    out,
                    "note: play can go round here: every winning move keeps the win, but choosing \
                     them so that play returns to a position already seen can go on for ever"
                )?;
            }
        }
    } else {
        let moves = threads.install(|| moves_of(&library_terms, &mut fill)).map_err(unwrap)?;
        if args.json {
            write_json_line(&mut out, &moves.report())?;
        } else {
            print_text(&mut out, &moves, &texts, args.all, explain_mex)?;
        }
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

/// An explanation of a single position's value from its options' values.
type Explain<V> = fn(&mut dyn Write, &ComponentMoves<V>, &str) -> Result<()>;

/// One line of text per move: winning moves (to a P-position) first, then those that keep a
/// draw (to a D-position, loopy sums only), then the others.
fn print_text<V: SumValue>(
    out: &mut dyn Write,
    moves: &Moves<V>,
    texts: &[String],
    all: bool,
    explain: Explain<V>,
) -> Result<()> {
    let (mut winning, mut drawing, mut others) = (Vec::new(), Vec::new(), Vec::new());
    let misere = if moves.play == grundy_core::Play::Misere { "misère " } else { "" };
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
        .map(|(c, text)| match c.misere {
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

/// Why a loopy sum's component has its value: Smith's conditions on its options' values. A
/// winning move in a game that can go round keeps the win but does not by itself end play.
fn explain_smith(
    out: &mut dyn Write,
    component: &ComponentMoves<LoopyValue>,
    text: &str,
) -> Result<()> {
    let values: Vec<String> = component.option_values().iter().map(|v| v.to_string()).collect();
    let taken = if values.is_empty() {
        format!("{text} has no options")
    } else {
        format!("the options take the values {{{}}}", values.join(", "))
    };
    match &component.value {
        LoopyValue::Finite(v) => writeln!(
            out,
            "smith: {taken}; no option has value {v}, and every option of a larger or infinite \
             value has a move back to value {v}, so {text} has value {v}"
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
    Ok(())
}

/// Why a position has its misère value: the mex of its options' misère values (a split's the
/// value of the pieces as one sum), or 1 when it has none (the player to move wins by having
/// no move).
fn explain_misere(out: &mut dyn Write, component: &ComponentMoves, text: &str) -> Result<()> {
    let values = component.option_values();
    if values.is_empty() {
        writeln!(
            out,
            "misère: {text} has no options: the player to move cannot move and so wins, and its \
             misère value is 1"
        )?;
        return Ok(());
    }
    let listed: Vec<String> = values.iter().map(u32::to_string).collect();
    writeln!(
        out,
        "mex: the options take the misère values {{{}}}; the smallest missing is {}, the misère \
         value of {text}",
        listed.join(", "),
        component.mex()
    )?;
    Ok(())
}

/// Why a position has its value: the values its options take, and the smallest one missing.
fn explain_mex(out: &mut dyn Write, component: &ComponentMoves, text: &str) -> Result<()> {
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
