use crate::load::{fill_table, load_game, Analysis};
use crate::output::write_json_line;
use crate::progress::Bar;
use anyhow::{bail, Result};
use grundy_compute::Runtime;
use grundy_core::{table::check_position, Coord, Game, LoopyValue, Play, SumValue};
use grundy_play::positions::{values_of, Law, Position, Strip, ValuesError};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

/// Print the Grundy value of each position, of their sum (XOR) and the outcome.
///
/// `grundy value subtraction:2,5 5 12` is S-Nim with heaps 5 and 12; `grundy value cutting 4x2`
/// is a 4×2 paper; `grundy value kayles 10 + wythoff 3x5` is a sum of different games. A heap
/// game whose period a theorem proves (octal games, subtraction games with finite sets) is
/// computed only as far as the proof needs, so every heap size has a value:
/// `grundy value kayles 10^18`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) sum: SumArgs,
    /// Print a JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// What `value` and `moves` share: the sum's terms, and the threads and memory to compute them.
#[derive(Debug, clap::Args)]
pub(crate) struct SumArgs {
    /// `GAME POS [POS ...] [+ GAME POS [POS ...]] ...`: a catalog game (see `grundy games`) or a
    /// spec file, then its positions (`7` or `10^18` for heap games, `3x2` for boards); several
    /// positions are a sum of games, and `+` adds positions of another game to the sum.
    #[arg(required = true, value_name = "GAME POS")]
    pub(super) terms: Vec<String>,
    /// The play convention of the whole sum; under misère play its value comes from the exact
    /// search over its positions (the tame rule when every component is tame).
    #[command(flatten)]
    pub(super) play: crate::play::PlayArg,
    /// With --misere: the most seconds the exact search over sums may run.
    #[arg(long, value_name = "SECONDS", default_value_t = grundy_compute::misere::SearchLimits::DEFAULT_SECONDS)]
    pub(super) search_seconds: u64,
}

#[derive(Serialize)]
struct Component {
    game: String,
    position: Vec<Coord>,
    /// `3`, or `"inf(0,2)"` for ∞ with K = {0, 2} (a loopy game's).
    #[serde(serialize_with = "value_json")]
    value: LoopyValue,
}

#[derive(Serialize)]
struct Report {
    game: String,
    components: Vec<Component>,
    #[serde(serialize_with = "value_json")]
    value: LoopyValue,
    /// `P`, `N` or `D` (a draw: play goes on forever).
    outcome: char,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    laws: Vec<Law>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    strips: Vec<Strip>,
}

/// A generalized value in JSON, as `moves` writes it: a number, or `"inf(0,2)"`.
fn value_json<S: serde::Serializer>(value: &LoopyValue, serializer: S) -> Result<S::Ok, S::Error> {
    value.json().serialize(serializer)
}

/// One game of the sum and the positions of it, as the user wrote them.
pub(super) struct Term<'a> {
    pub(super) game: Game,
    pub(super) positions: Vec<Position<'a>>,
}

pub(crate) fn run(args: Args, runtime: &Runtime) -> Result<ExitCode> {
    let terms = parse_terms(&args.sum.terms)?;
    let play = sum_play(&terms, args.sum.play)?;
    // JSON output also silences the progress bar.
    let bar = Bar::waiting(args.json);
    if let Some(answer) = far_on_a_board(&terms, play, runtime, &bar)? {
        return print_law_answer(&args, terms[0].positions[0].0, &answer);
    }
    if play == Play::Misere {
        let report = super::misere_sums::report(
            &sum_terms(&terms),
            args.sum.search_seconds,
            runtime.memory(),
        )?;
        return super::misere_sums::print_value(&report, args.json);
    }
    runtime.install(|| {
        let fill = |game: &Game, shape: &grundy_core::TableShape| {
            fill_table(game, shape, runtime, &bar, Analysis::None)
                .map_err(|err| with_stream_hint(err, game, shape, runtime))
        };
        let (report, texts) = sum_of(&terms, &fill)?;
        print(&args, &report, &texts)
    })
}

/// A table too large to hold, of a game that streams: says that `compute --stream` computes it
/// (issue 28: `value nim 1000000x3` was refused with no way that works).
pub(super) fn with_stream_hint(
    err: anyhow::Error,
    game: &Game,
    shape: &grundy_core::TableShape,
    runtime: &Runtime,
) -> anyhow::Error {
    let too_large = err
        .downcast_ref::<grundy_compute::RequestError>()
        .is_some_and(|e| matches!(e.kind(), grundy_compute::RequestErrorKind::TooLarge(_)));
    let streamed = || {
        let request = grundy_compute::FillRequest::new(game, shape);
        grundy_compute::FillRequest { runtime: runtime.clone(), ..request }.streamed_would_fit()
    };
    if too_large && streamed() {
        let size: Vec<String> = shape.max().iter().map(|c| c.to_string()).collect();
        return anyhow::anyhow!(
            "{}; `grundy compute {} --size {} --stream` computes the table row by row in \
             little memory",
            crate::errors::chain(&err),
            game.name(),
            size.join("x")
        );
    }
    err
}

/// The values of every term and of their sum, each game's tables filled by `fill`; with the
/// text that names each component.
fn sum_of(
    terms: &[Term<'_>],
    fill: &(dyn Fn(&Game, &grundy_core::TableShape) -> Result<grundy_core::Table> + Sync),
) -> Result<(Report, Vec<String>)> {
    let mut laws = Vec::new();
    let mut strips = Vec::new();
    // The terms of one game (its name and rules) are answered together: one proof or strip for
    // all of them (issue 28: 10^4 terms `kayles N +` took 11.9 s, one proof each).
    // Each game with its spec and its positions: (term, position in the term).
    type Positions<'t> = (&'t Game, String, Vec<(usize, usize)>);
    let mut games: Vec<Positions<'_>> = Vec::new();
    for (t, term) in terms.iter().enumerate() {
        let spec = grundy_core::to_spec(&term.game);
        let at = match games.iter().position(|(_, s, _)| *s == spec) {
            Some(at) => at,
            None => {
                games.push((&term.game, spec, Vec::new()));
                games.len() - 1
            }
        };
        games[at].2.extend((0..term.positions.len()).map(|p| (t, p)));
    }
    // Generalized values: a sum with a loopy component has them, and every other sum's are its
    // finite Grundy values.
    let mut values: Vec<Vec<LoopyValue>> =
        terms.iter().map(|t| vec![LoopyValue::Finite(0); t.positions.len()]).collect();
    for (game, _, at) in &games {
        let positions: Vec<Position<'_>> =
            at.iter().map(|&(t, p)| terms[t].positions[p].clone()).collect();
        let mut fill = |shape: &_| fill(game, shape);
        let answered =
            values_of::<LoopyValue, _>(game, &positions, &mut fill).map_err(|err| match err {
                ValuesError::Fill(err) => err,
                err => anyhow::anyhow!("{err}"),
            })?;
        laws.extend(answered.laws);
        strips.extend(answered.strips);
        for (&(t, p), value) in at.iter().zip(answered.values) {
            values[t][p] = value;
        }
    }
    let mut components = Vec::new();
    let mut texts = Vec::new();
    for (term, values) in terms.iter().zip(values) {
        for ((text, position), value) in term.positions.iter().zip(values) {
            let game = term.game.name().to_string();
            texts.push(if terms.len() > 1 { format!("{game} {text}") } else { text.to_string() });
            components.push(Component { game, position: position.clone(), value });
        }
    }
    let sum = LoopyValue::sum(components.iter().map(|c| &c.value));
    let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
    let report = Report {
        game: names.join(" + "),
        components,
        outcome: sum.outcome().letter(),
        value: sum,
        laws,
        strips,
    };
    Ok((report, texts))
}

/// What an outcome's letter means, the player to move first.
pub(super) fn outcome_meaning(letter: char) -> &'static str {
    match letter {
        'P' => "the player to move loses",
        'N' => "the player to move wins",
        _ => "a draw: neither player can force a win, and play goes on forever",
    }
}

/// One position of one board that the library sends to a law
/// ([`grundy_play::positions::wants_a_law`]), answered by a proved law of the game under `play`
/// when one reads it exactly.
fn far_on_a_board(
    terms: &[Term<'_>],
    play: Play,
    runtime: &Runtime,
    bar: &Bar,
) -> Result<Option<grundy_play::positions::LawAnswer>> {
    let [Term { game, positions }] = terms else { return Ok(None) };
    let [(_, pos)] = positions.as_slice() else { return Ok(None) };
    let game = &game.clone().with_play(play);
    if !grundy_play::positions::wants_a_law(game, pos) {
        return Ok(None);
    }
    runtime.install(|| {
        let mut fill =
            |shape: &grundy_core::TableShape| fill_table(game, shape, runtime, bar, Analysis::None);
        grundy_play::positions::answered_by_law(game, pos, &mut fill)
            .map_err(|err| anyhow::anyhow!("{err}"))
    })
}

/// A position answered by a proved law: its value (or "not 0" where only the P-set law is
/// proved), the outcome, and the law with its proof.
fn print_law_answer(
    args: &Args,
    text: &str,
    answer: &grundy_play::positions::LawAnswer,
) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if args.json {
        write_json_line(&mut out, answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    match answer.value {
        Some(value) => writeln!(out, "{text}: {value}")?,
        None => writeln!(out, "{text}: not 0 (a P-set law answered; no values law is proved)")?,
    }
    writeln!(out, "outcome: {} ({})", answer.outcome, outcome_meaning(answer.outcome))?;
    writeln!(
        out,
        "{}: answered by the {} law `{}`, found on {} cells computed; proved: {}",
        answer.game,
        answer.claim.option(),
        answer.law,
        answer.cells_computed,
        answer.argument
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the values, the sum and the outcome as text or JSON.
fn print(args: &Args, report: &Report, texts: &[String]) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if args.json {
        write_json_line(&mut out, report)?;
        return Ok(ExitCode::SUCCESS);
    }
    for (text, component) in texts.iter().zip(&report.components) {
        writeln!(out, "{text}: {}", component.value)?;
    }
    if report.components.len() > 1 {
        writeln!(out, "sum: {}", report.value)?;
    }
    writeln!(out, "outcome: {} ({})", report.outcome, outcome_meaning(report.outcome))?;
    print_laws(&mut out, &report.laws, &report.strips)?;
    Ok(ExitCode::SUCCESS)
}

/// The proved periods and repeating strips that answered positions beyond the tables, one line
/// each (`value` and `moves`).
pub(super) fn print_laws(
    out: &mut (impl Write + ?Sized),
    laws: &[Law],
    strips: &[Strip],
) -> Result<()> {
    for law in laws {
        writeln!(
            out,
            "{}: period {} from n = {}, from {} values computed; proved: {}",
            law.game, law.period, law.from, law.values_computed, law.argument
        )?;
    }
    for strip in strips {
        writeln!(
            out,
            "{}: the strip repeats along {} with period {} from {} = {}, from {} cells computed; \
             proved: {}",
            strip.game,
            strip.axis,
            strip.period,
            strip.axis,
            strip.from,
            strip.cells_computed,
            strip.argument
        )?;
    }
    Ok(())
}

/// The terms as the library's misère search takes them.
pub(super) fn sum_terms<'g>(terms: &'g [Term<'_>]) -> Vec<grundy_play::misere::SumTerm<'g>> {
    terms
        .iter()
        .map(|t| grundy_play::misere::SumTerm {
            game: &t.game,
            positions: t.positions.iter().map(|(_, pos)| pos.clone()).collect(),
        })
        .collect()
}

/// The convention the sum is played under: the one `--play` (or `--misere`) gives, else the one
/// every game's spec gives (games that disagree are refused: a sum is played under one
/// convention).
pub(super) fn sum_play(terms: &[Term<'_>], asked: crate::play::PlayArg) -> Result<Play> {
    if let Some(play) = asked.given() {
        return Ok(play);
    }
    let first = &terms[0].game;
    match terms.iter().find(|t| t.game.play() != first.play()) {
        None => Ok(first.play()),
        Some(other) => bail!(
            "{} is played {} and {} {}; a sum is played under one convention (give --misere to \
             play all of it misère)",
            first.name(),
            first.play().word(),
            other.game.name(),
            other.game.play().word()
        ),
    }
}

/// Splits `GAME POS... + GAME POS...` into terms and parses each position against its game.
pub(super) fn parse_terms(words: &[String]) -> Result<Vec<Term<'_>>> {
    words
        .split(|word| word == "+")
        .map(|group| {
            let Some((name, positions)) = group.split_first() else {
                bail!("`+` must stand between two games with their positions, e.g. kayles 10 + nim 3x5")
            };
            if positions.is_empty() {
                bail!("no position given for {name}; write e.g. `{name} 7` or `{name} 3x2`");
            }
            let game = load_game(name)?;
            let positions = positions
                .iter()
                .map(|text| {
                    let pos = parse_position(text)?;
                    check_position(&game, &pos, text)?;
                    Ok((text.as_str(), pos))
                })
                .collect::<Result<_>>()?;
            Ok(Term { game, positions })
        })
        .collect()
}

/// A position: coordinates separated by `x`, each a whole number or a power such as `10^18`.
fn parse_position(text: &str) -> Result<Vec<Coord>> {
    text.split('x')
        .map(|part| {
            let number = |digits: &str| -> Result<u128> {
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    bail!(
                        "malformed position `{text}`: `{part}` is not a whole number >= 0 or a \
                         power such as 10^18; write e.g. 7, 10^18 or 3x2"
                    );
                }
                digits
                    .parse()
                    .map_err(|_| anyhow::anyhow!("position `{text}`: `{part}` is too large"))
            };
            let value = match part.split_once('^') {
                Some((base, exponent)) => {
                    let base = number(base)?;
                    u32::try_from(number(exponent)?).ok().and_then(|e| base.checked_pow(e))
                }
                None => Some(number(part)?),
            };
            value.and_then(|v| Coord::try_from(v).ok()).ok_or_else(|| {
                anyhow::anyhow!("position `{text}`: `{part}` is too large (at most 2^63 - 1)")
            })
        })
        .collect()
}
