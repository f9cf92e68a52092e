//! `value --misere` and `moves --misere`: a sum's misère value, outcome and moves, from the
//! library's exact search (`grundy_patterns::misere::misere_sum`), as text or JSON.

use crate::output::write_json_line;
use anyhow::Result;
use grundy_patterns::misere::{misere_sum, SearchLimits, SumReport, SumTerm};
use std::io::Write;
use std::process::ExitCode;

/// The sum's report, with every move when `moves`, within `seconds`.
pub(super) fn report(terms: &[SumTerm<'_>], moves: bool, seconds: u64) -> Result<SumReport> {
    Ok(misere_sum(terms, moves, &SearchLimits::available(seconds))?)
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

/// Prints `moves --misere`'s answer: every move with the misère value of the sum it leaves,
/// winning ones first (40 unless `all`).
pub(super) fn print_moves(report: &SumReport, json: bool, all: bool) -> Result<ExitCode> {
    let mut out = crate::output::stdout()?;
    if json {
        write_json_line(&mut out, report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let several = report.game.contains(" + ");
    let texts = component_texts(report, several);
    let moves = report.moves.as_deref().unwrap_or_default();
    writeln!(out, "misère value {} ({} moves)", report.value, moves.len())?;
    const SHOWN: usize = 40;
    for (k, m) in moves.iter().enumerate() {
        if !all && k == SHOWN {
            writeln!(out, "… {} more (--all lists them)", moves.len() - SHOWN)?;
            break;
        }
        let to: Vec<String> =
            m.to.iter()
                .map(|p| p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x"))
                .collect();
        let to = if to.is_empty() { "nothing".to_string() } else { to.join(" + ") };
        let mark = if m.winning { "  winning" } else { "" };
        writeln!(out, "{} -> {to}: sum misère {}{mark}", texts[m.component], m.sum)?;
    }
    print_outcome(&mut out, report)?;
    Ok(ExitCode::SUCCESS)
}
