//! `value --misere` and `moves --misere`: a sum's misère value, outcome and moves, from the
//! library's exact search (`grundy_play::misere::misere_sum`), as text or JSON.

use crate::output::write_json_line;
use anyhow::Result;
use grundy_compute::memory::MemoryPool;
use grundy_compute::misere::SearchLimits;
use grundy_play::misere::{misere_moves_of, misere_sum, SumReport, SumTerm};
use grundy_play::moves::Moves;
use std::io::Write;
use std::process::ExitCode;

/// The sum's report, within `seconds`.
pub(super) fn report(
    terms: &[SumTerm<'_>],
    seconds: u64,
    memory: &MemoryPool,
) -> Result<SumReport> {
    Ok(misere_sum(terms, &limits(seconds, memory))?)
}

/// Every move of the sum under misère play, within `seconds` (`moves` prints them as it prints
/// every other convention's).
pub(super) fn moves(terms: &[SumTerm<'_>], seconds: u64, memory: &MemoryPool) -> Result<Moves> {
    Ok(misere_moves_of(terms, &limits(seconds, memory))?)
}

/// The search's limits, which say once on standard error that a search still runs after a
/// second, and what bounds it (issue 50: `value --misere kayles 40 41` was silent for up to
/// 600 s when standard error was no terminal).
fn limits(seconds: u64, memory: &MemoryPool) -> SearchLimits {
    fn say(limits: &SearchLimits) {
        eprintln!(
            "note: the exact misère search over sums is running; it stops after {} s \
             (--search-seconds) or {} MiB ({})",
            limits.seconds,
            limits.bytes >> 20,
            limits.why
        );
    }
    SearchLimits { on_long: Some(say), ..SearchLimits::within(memory, seconds) }
}

fn component_texts(report: &SumReport, several_games: bool) -> Vec<String> {
    report
        .components
        .iter()
        .map(|c| {
            let pos: Vec<String> = c.position.iter().map(|x| x.to_string()).collect();
            if several_games {
                format!("{} {}", c.game, pos.join("x"))
            } else {
                pos.join("x")
            }
        })
        .collect()
}

/// Prints `value --misere`'s answer.
pub(super) fn print_value(report: &SumReport, json: bool) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if json {
        write_json_line(&mut out, report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let several = report.game.contains(" + ");
    for (text, c) in component_texts(report, several).iter().zip(&report.components) {
        writeln!(out, "{text}: misère {} (normal {}, {})", c.value, c.normal, c.tameness)?;
    }
    if report.components.len() > 1 {
        writeln!(out, "sum: misère {} (by the {})", report.value, report.method)?;
    }
    print_outcome(&mut out, report)?;
    Ok(ExitCode::SUCCESS)
}

fn print_outcome(out: &mut impl Write, report: &SumReport) -> Result<()> {
    let meaning = if report.outcome == "P" {
        "the player to move loses: every move leaves an N-position"
    } else {
        "the player to move wins"
    };
    writeln!(out, "outcome: {} under misère play ({meaning})", report.outcome)?;
    Ok(())
}
