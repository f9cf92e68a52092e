use crate::load::{fill_table, load_game, Analysis};
use crate::output::write_json_line;
use crate::progress::Bar;
use crate::threads::ThreadsArg;
use anyhow::{bail, Result};
use grundy_core::{table::check_position, Coord, Game, LoopyValue, Nimber};
use grundy_patterns::positions::{values_of, Law, Position, Strip, ValuesError};
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
    /// Misère play: the player who makes the last move loses. The sum's misère value comes
    /// from the exact search over its positions (the tame rule when every component is tame).
    #[arg(long)]
    pub(super) misere: bool,
    /// With --misere: the most seconds the exact search over sums may run.
    #[arg(long, value_name = "SECONDS", default_value_t = grundy_patterns::misere::SearchLimits::DEFAULT_SECONDS)]
    pub(super) search_seconds: u64,
    #[command(flatten)]
    pub(super) threads: ThreadsArg,
    #[command(flatten)]
    pub(crate) memory: crate::budget::MemoryArg,
}

#[derive(Serialize)]
struct Component {
    game: String,
    position: Vec<Coord>,
    value: u32,
}

/// Who wins the sum, with the player to move: `P` (the previous player) or `N` (the next).
#[derive(Clone, Copy, Debug, Serialize)]
enum Outcome {
    P,
    N,
}

#[derive(Serialize)]
struct Report {
    game: String,
    components: Vec<Component>,
    value: u32,
    outcome: Outcome,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    laws: Vec<Law>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    strips: Vec<Strip>,
}

/// One game of the sum and the positions of it, as the user wrote them.
pub(super) struct Term<'a> {
    pub(super) game: Game,
    pub(super) positions: Vec<Position<'a>>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let terms = parse_terms(&args.sum.terms)?;
    refuse_loopy_misere(&terms, args.sum.misere)?;
    if misere_sum(&terms, args.sum.misere)? {
        let report = super::misere_sums::report(&sum_terms(&terms), args.sum.search_seconds)?;
        return super::misere_sums::print_value(&report, args.json);
    }
    let threads = args.sum.threads.pool()?;
    // JSON output also silences the progress bar.
    let bar = Bar::waiting(args.json);
    if terms.iter().any(|t| t.game.is_loopy()) {
        let report = loopy_sum(&terms, &threads, &bar)?;
        return print_loopy(&args, &report);
    }
    threads.install(|| {
        let fill = |game: &Game, shape: &grundy_core::TableShape| {
            fill_table(game, shape, &threads, &bar, Analysis::None)
                .map_err(|err| with_stream_hint(err, game, shape))
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
) -> anyhow::Error {
    let too_large = err
        .downcast_ref::<grundy_compute::RequestError>()
        .is_some_and(|e| matches!(e.kind(), grundy_compute::RequestErrorKind::TooLarge(_)));
    if too_large && grundy_compute::streaming_rows(game, shape).is_ok() {
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
    fill: &(dyn Fn(&Game, &grundy_core::TableShape) -> Result<grundy_core::GrundyTable> + Sync),
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
    let mut values: Vec<Vec<u32>> = terms.iter().map(|t| vec![0; t.positions.len()]).collect();
    for (game, _, at) in &games {
        let positions: Vec<Position<'_>> =
            at.iter().map(|&(t, p)| terms[t].positions[p].clone()).collect();
        let mut fill = |shape: &_| fill(game, shape);
        let answered = values_of(game, &positions, &mut fill).map_err(|err| match err {
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
    let sum = components.iter().fold(Nimber::ZERO, |sum, c| sum ^ Nimber(c.value));
    let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
    let report = Report {
        game: names.join(" + "),
        components,
        value: sum.value(),
        outcome: if sum.is_p() { Outcome::P } else { Outcome::N },
        laws,
        strips,
    };
    Ok((report, texts))
}

#[derive(Serialize)]
struct LoopyComponent {
    game: String,
    position: Vec<Coord>,
    /// `3`, or `"inf(0,2)"` for ∞ with K = {0, 2}.
    #[serde(serialize_with = "loopy_json")]
    value: LoopyValue,
    #[serde(skip)]
    text: String,
}

#[derive(Serialize)]
struct LoopyReport {
    game: String,
    components: Vec<LoopyComponent>,
    /// `3`, or `"inf(0,2)"`.
    #[serde(serialize_with = "loopy_json")]
    value: LoopyValue,
    /// `P`, `N` or `D` (a draw: play goes on forever).
    outcome: char,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    laws: Vec<Law>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    strips: Vec<Strip>,
}

/// A generalized value in JSON, as `moves` writes it: a number, or `"inf(0,2)"`.
fn loopy_json<S: serde::Serializer>(value: &LoopyValue, serializer: S) -> Result<S::Ok, S::Error> {
    use grundy_patterns::moves::SumValue;
    value.json().serialize(serializer)
}

/// A sum with loopy components: each loopy game's whole board by the retrograde kernel, the
/// others' Grundy values as usual (`loopy_values_of`), and the sum by Smith's rule.
fn loopy_sum(
    terms: &[Term<'_>],
    threads: &grundy_compute::Threads,
    bar: &Bar,
) -> Result<LoopyReport> {
    use grundy_patterns::positions::loopy_values_of;
    let (mut components, mut values) = (Vec::new(), Vec::new());
    let (mut laws, mut strips) = (Vec::new(), Vec::new());
    for term in terms {
        let game = &term.game;
        let found = threads.install(|| {
            let mut fill_loopy = |shape: &grundy_core::TableShape| {
                crate::load::fill_loopy(game, shape, threads, bar, 0)
            };
            let mut fill = |shape: &grundy_core::TableShape| {
                fill_table(game, shape, threads, bar, Analysis::None)
                    .map_err(|err| with_stream_hint(err, game, shape))
            };
            loopy_values_of(game, &term.positions, &mut fill_loopy, &mut fill)
        });
        let found = found.map_err(|err| match err {
            ValuesError::Fill(err) => err,
            err => anyhow::anyhow!("{err}"),
        })?;
        laws.extend(found.laws);
        strips.extend(found.strips);
        for ((text, position), value) in term.positions.iter().zip(found.values) {
            let name = game.name().to_string();
            let text = if terms.len() > 1 { format!("{name} {text}") } else { text.to_string() };
            values.push(value.clone());
            components.push(LoopyComponent { game: name, position: position.clone(), value, text });
        }
    }
    bar.finish();
    let sum = LoopyValue::sum(&values);
    let names: Vec<&str> = terms.iter().map(|t| t.game.name()).collect();
    Ok(LoopyReport {
        game: names.join(" + "),
        components,
        outcome: sum.outcome().letter(),
        value: sum,
        laws,
        strips,
    })
}

fn print_loopy(args: &Args, report: &LoopyReport) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if args.json {
        write_json_line(&mut out, report)?;
        return Ok(ExitCode::SUCCESS);
    }
    for component in &report.components {
        writeln!(out, "{}: {}", component.text, component.value)?;
    }
    if report.components.len() > 1 {
        writeln!(out, "sum: {}", report.value)?;
    }
    writeln!(out, "outcome: {} ({})", report.outcome, outcome_meaning(report.outcome))?;
    print_laws(&mut out, &report.laws, &report.strips)?;
    Ok(ExitCode::SUCCESS)
}

/// What an outcome's letter means, the player to move first.
pub(super) fn outcome_meaning(letter: char) -> &'static str {
    match letter {
        'P' => "the player to move loses",
        'N' => "the player to move wins",
        _ => "a draw: neither player can force a win, and play goes on forever",
    }
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
    let outcome = match report.outcome {
        Outcome::P => 'P',
        Outcome::N => 'N',
    };
    writeln!(out, "outcome: {outcome} ({})", outcome_meaning(outcome))?;
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
pub(super) fn sum_terms<'g>(terms: &'g [Term<'_>]) -> Vec<grundy_patterns::misere::SumTerm<'g>> {
    terms
        .iter()
        .map(|t| grundy_patterns::misere::SumTerm {
            game: &t.game,
            positions: t.positions.iter().map(|(_, pos)| pos.clone()).collect(),
        })
        .collect()
}

/// Refuses misère play of a sum with a loopy component: it is not computed.
pub(super) fn refuse_loopy_misere(terms: &[Term<'_>], flag: bool) -> Result<()> {
    let misere = flag || terms.iter().any(|t| t.game.play() == grundy_core::Play::Misere);
    if let Some(term) = terms.iter().find(|t| t.game.is_loopy()).filter(|_| misere) {
        bail!(
            "{} is loopy: misère play of loopy games is not computed (their normal play is)",
            term.game.name()
        );
    }
    Ok(())
}

/// Whether the sum is played misère: `--misere`, or every game's spec says `play = "misere"`
/// (games that disagree are refused: a sum is played under one convention).
pub(super) fn misere_sum(terms: &[Term<'_>], flag: bool) -> Result<bool> {
    use grundy_core::Play;
    let misere = terms.iter().filter(|t| t.game.play() == Play::Misere).count();
    if flag || misere == terms.len() {
        return Ok(true);
    }
    if misere > 0 {
        let name = &terms.iter().find(|t| t.game.play() == Play::Misere).expect("one").game;
        bail!(
            "{} is played misère and the other games of the sum are not; a sum is played under \
             one convention (give --misere to play all of it misère)",
            name.name()
        );
    }
    Ok(false)
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
