//! The budget of bounded work: how long a proof or a law search may run, and who may stop it.
//!
//! Fills are bounded by memory up front and stopped through their [`Progress`]; the work after a
//! fill (a box proof, the law search and the proofs of its laws) is bounded here, by one type
//! (issue 59: a box proof of a 49 M-cell box ran for minutes with no bound, and the law search's
//! proofs ran past `--law-seconds`). A [`Budget`] is a validated number of [`Seconds`] from the
//! moment it was made, and the caller's [`Progress`]: work reports to it and asks it whether to
//! stop (a user's Ctrl-C, a view's client that went away). Work that runs out says so in its
//! result and claims nothing it did not finish.

use crate::progress::{NoProgress, Progress};
use std::fmt;
use std::time::{Duration, Instant};

/// A time bound: a finite number of seconds from 0 to [`Seconds::MOST`].
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Seconds(f64);

/// Why a time bound was refused: not a finite number from 0 to [`Seconds::MOST`] (issue 59: `inf`
/// and `1e20` panicked, `-1` was taken as 0 and `NaN` as "stop at once").
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{what} is a number of seconds from 0 to {}", Seconds::MOST.0)]
pub struct SecondsError {
    /// What the bound is of: "a law search's time bound".
    pub what: &'static str,
    /// The bound refused.
    pub seconds: f64,
}

impl Seconds {
    /// The largest bound taken: a week, which keeps every deadline inside every clock.
    pub const MOST: Seconds = Seconds(604_800.0);

    /// `seconds` as a bound of `what` (named in the refusal: "a proof's time bound").
    ///
    /// # Errors
    /// `seconds` is NaN, infinite, negative or past [`Seconds::MOST`].
    pub fn new(seconds: f64, what: &'static str) -> Result<Seconds, SecondsError> {
        match (0.0..=Seconds::MOST.0).contains(&seconds) {
            true => Ok(Seconds(seconds)),
            false => Err(SecondsError { what, seconds }),
        }
    }

    /// A bound written in the code, checked when it compiles.
    ///
    /// # Panics
    /// At compile time in a `const`, when `seconds` is out of range.
    pub const fn new_const(seconds: f64) -> Seconds {
        assert!(seconds >= 0.0 && seconds <= Seconds::MOST.0, "a bound from 0 to a week");
        Seconds(seconds)
    }

    /// The bound, in seconds.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// As a command line takes it back: `10`, `0.5`.
impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why bounded work stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spent {
    /// Its time ran out.
    Time(Seconds),
    /// The time of the work it is part of ran out first (a law search's, for a law's proof).
    Outer,
    /// Its caller stopped it.
    Cancelled,
}

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spent::Time(seconds) => write!(f, "its budget of {seconds} s ran out"),
            Spent::Outer => f.write_str("the time of the work it is part of ran out"),
            Spent::Cancelled => f.write_str("it was cancelled"),
        }
    }
}

/// The time a piece of bounded work may take, from the moment the budget was made, and the
/// [`Progress`] it reports to and is stopped through.
#[derive(Clone, Copy)]
pub struct Budget<'p> {
    seconds: Seconds,
    start: Instant,
    deadline: Instant,
    /// An outer deadline that no restart passes ([`Budget::within`]).
    cap: Option<Instant>,
    progress: &'p dyn Progress,
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget").field("seconds", &self.seconds).finish_non_exhaustive()
    }
}

impl<'p> Budget<'p> {
    /// A budget of `seconds` from now, reporting to and stopped through `progress`.
    pub fn new(seconds: Seconds, progress: &'p dyn Progress) -> Budget<'p> {
        let start = Instant::now();
        let deadline = start + Duration::from_secs_f64(seconds.0);
        Budget { seconds, start, deadline, cap: None, progress }
    }

    /// The same bound, ending by `other`'s deadline at the latest (a law's proof within the law
    /// search's time), now and after any [`Budget::from_now`].
    pub fn within(self, other: &Budget<'_>) -> Budget<'p> {
        self.capped(other.deadline)
    }

    /// The same bound counted from now (a proof's time starts when the proof does, not when the
    /// table's check that comes before it did), within the outer deadline it was given.
    pub fn from_now(&self) -> Budget<'p> {
        let restarted = Budget::new(self.seconds, self.progress);
        match self.cap {
            Some(cap) => restarted.capped(cap),
            None => restarted,
        }
    }

    /// The same budget, ending by `cap` at the latest, now and after any restart.
    fn capped(mut self, cap: Instant) -> Budget<'p> {
        let cap = self.cap.map_or(cap, |own| own.min(cap));
        self.cap = Some(cap);
        self.deadline = self.deadline.min(cap);
        self
    }

    /// The bound it was made with.
    pub fn seconds(&self) -> Seconds {
        self.seconds
    }

    /// When the work must end.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// How long the work has run.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// What is left of the time.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Whether the work must stop now, and why: its caller cancelled it, or its time ran out.
    pub fn spent(&self) -> Option<Spent> {
        if self.progress.cancelled() {
            return Some(Spent::Cancelled);
        }
        let now = Instant::now();
        match self.cap {
            Some(cap) if now >= cap => Some(Spent::Outer),
            _ => (now >= self.deadline).then_some(Spent::Time(self.seconds)),
        }
    }

    /// Says that the work begins, and that it has `total` units (a box's cells): the caller's
    /// progress counts them from 0.
    pub fn starts(&self, total: u64) {
        self.progress.starts(total);
    }

    /// Reports `units` more done (cells of a box, rows of a table).
    pub fn advance(&self, units: u64) {
        self.progress.advance(units);
    }

    /// The caller's progress, for work that reports in its own units.
    pub fn progress(&self) -> &'p dyn Progress {
        self.progress
    }
}

/// The budget of a proof when the caller says nothing: ten seconds, nobody to stop it.
impl Default for Budget<'static> {
    fn default() -> Budget<'static> {
        Budget::new(Budget::PROOF_SECONDS, &NoProgress)
    }
}

impl Budget<'_> {
    /// The default time of a proof: a box of about ten million cells on one core.
    pub const PROOF_SECONDS: Seconds = Seconds::new_const(10.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    struct Stop(AtomicBool);

    impl Progress for Stop {
        fn advance(&self, _: u64) {}
        fn cancelled(&self) -> bool {
            self.0.load(Ordering::Relaxed)
        }
    }

    #[test]
    fn seconds_are_finite_from_zero_to_a_week() {
        for bad in [f64::NAN, f64::INFINITY, -f64::INFINITY, -1.0, 1e20, 604_800.5, f64::MAX] {
            let err = Seconds::new(bad, "a proof's time bound").unwrap_err();
            assert_eq!(
                err.to_string(),
                "a proof's time bound is a number of seconds from 0 to 604800"
            );
        }
        assert_eq!(Seconds::new(0.0, "t").unwrap().get(), 0.0);
        assert_eq!(Seconds::new(604_800.0, "t").unwrap(), Seconds::MOST);
    }

    #[test]
    fn a_budget_is_spent_by_its_time_or_its_caller() {
        let stop = Stop(AtomicBool::new(false));
        let long = Budget::new(Seconds::new(3600.0, "t").unwrap(), &stop);
        assert_eq!(long.spent(), None);
        stop.0.store(true, Ordering::Relaxed);
        assert_eq!(long.spent(), Some(Spent::Cancelled));
        let none = Budget::new(Seconds::new(0.0, "t").unwrap(), &NoProgress);
        assert_eq!(none.spent(), Some(Spent::Time(Seconds(0.0))));
        assert_eq!(none.spent().unwrap().to_string(), "its budget of 0 s ran out");
        // A proof within a search ends with the search, restarted or not.
        let proof = Budget::new(Seconds::new(3600.0, "t").unwrap(), &NoProgress).within(&none);
        assert!(proof.spent().is_some() && proof.from_now().spent().is_some());
        assert_eq!(long.from_now().seconds(), long.seconds());
    }
}
