//! The progress bar: indicatif on standard error, shown only for work longer than about a second
//! and only when standard error is a terminal.

use grundy_compute::Progress;
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The bar on the terminal now, if one is: a signal that ends the process clears it first, or
/// the shell's prompt would follow a half-drawn bar on its line (issue 19).
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Clears the bar on the terminal, if one is shown; no bar is drawn after.
pub(crate) fn clear_shown() {
    if let Some(bar) = SHOWN.lock().unwrap_or_else(|e| e.into_inner()).take() {
        bar.finish_and_clear();
    }
}

/// Work shorter than this gets no bar: it would only flicker.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A progress bar for one piece of work, or several in turn ([`Bar::start`]); quiet ones never
/// show, and commands pass the bar, not whether to be quiet, to the work they call.
pub(crate) struct Bar {
    bar: ProgressBar,
    start: Mutex<Instant>,
    may_show: bool,
    shown: AtomicBool,
}

impl Bar {
    /// A bar for `total` cells; `quiet` suppresses it.
    pub(crate) fn new(total: u64, quiet: bool) -> Bar {
        Bar::counting(total, quiet, "cells")
    }

    /// A bar for `total` things called `unit` (cells, members); `quiet` suppresses it.
    pub(crate) fn counting(total: u64, quiet: bool, unit: &str) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{rate}} {unit}/s, ETA {{eta}})"
            ))
            .expect("the template is valid")
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", HumanCount(state.per_sec() as u64));
            }),
        );
        Bar {
            bar,
            start: Mutex::new(Instant::now()),
            may_show: !quiet && std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// A bar for cells of work whose size is known later: [`Bar::start`] each piece.
    pub(crate) fn waiting(quiet: bool) -> Bar {
        Bar::new(0, quiet)
    }

    /// Counts a new piece of work of `total` cells from the start (after [`Bar::finish`] of the
    /// last one); it shows after a second of it.
    pub(crate) fn start(&self, total: u64) {
        self.finish();
        self.bar.set_draw_target(ProgressDrawTarget::hidden());
        self.bar.set_length(total);
        self.bar.reset();
        *self.start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Prints `line` on standard error above the bar (a note about the work, which `--quiet`
    /// does not hide: it says something of the result).
    pub(crate) fn note(&self, line: &str) {
        let line = crate::errors::printable(line);
        if self.shown.load(Ordering::Relaxed) {
            self.bar.suspend(|| eprintln!("{line}"));
        } else {
            eprintln!("{line}");
        }
    }

    pub(crate) fn finish(&self) {
        if self.shown.swap(false, Ordering::Relaxed) {
            self.bar.finish_and_clear();
            SHOWN.lock().unwrap_or_else(|e| e.into_inner()).take();
        }
    }
}

impl Progress for Bar {
    fn advance(&self, cells: u64) {
        self.bar.inc(cells);
        if self.may_show
            && !self.shown.load(Ordering::Relaxed)
            && self.start.lock().unwrap_or_else(|e| e.into_inner()).elapsed() >= SHOW_AFTER
        {
            self.shown.store(true, Ordering::Relaxed);
            *SHOWN.lock().unwrap_or_else(|e| e.into_inner()) = Some(self.bar.clone());
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    fn runs(&self, engine: grundy_compute::Engine) {
        say_engine(engine);
    }

    fn starts(&self, total: u64) {
        self.start(total);
    }
}

/// When set, every fill says on standard error which engine runs it: the path the library
/// chose (`tests/one_seam.rs` compares it across front ends).
pub(crate) const SAY_ENGINE_VARIABLE: &str = "GRUNDY_SAY_ENGINE";

/// Says `engine` when [`SAY_ENGINE_VARIABLE`] is set.
pub(crate) fn say_engine(engine: grundy_compute::Engine) {
    if std::env::var_os(SAY_ENGINE_VARIABLE).is_some() {
        eprintln!("grundy: engine: {engine}");
    }
}
