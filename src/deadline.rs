//! The whole run's deadline (`--timeout`): one value, made once when the command starts, that
//! every phase looks at (explicit exploration, the bounded search, abstraction, CEGAR,
//! containment, DynamicCheck) and that gives every SMT query at most the time left.
//!
//! Invariant: the deadline only ever turns an answer into Unknown
//! ([`crate::check::Reason::Timeout`]); every budget that decides an answer counts work (solver
//! resource units, refinements, states), so a run that meets its deadline answers the same on a
//! fast, a slow or a loaded machine.
//!
//! How it is kept (measured in `benches/timeout.sh`, `benches/TIMEOUT.md`): the phases look at
//! the clock between steps of their own (a membership query, 1024 explored states, a location of
//! the bounded search's unrolling, a step of k-induction's formulas, and the learners' own work
//! between queries, through [`crate::learn::Membership::stopped`]); Z3 checks and pushes
//! (where Z3 takes in what was asserted) are interrupted at the deadline by a watchdog thread
//! ([`crate::smt::with_watchdog`]); what a stopped run built is not freed (a solver, an explicit
//! graph), and the process exits once its report is written, without tearing down Z3's context.
//!
//! Known weakness: one step that does not look at the clock (a product of large automata, one
//! inclusion check, one `simplify` call, which cannot be interrupted safely) can overrun it by
//! its own duration.

use std::time::{Duration, Instant};

/// When the run must stop, if ever.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline {
    /// The instant, and the limit it was made from (for messages).
    at: Option<(Instant, Duration)>,
}

impl Deadline {
    /// No deadline.
    pub fn none() -> Deadline {
        Deadline { at: None }
    }

    /// `limit` from now.
    pub fn after(limit: Duration) -> Deadline {
        Deadline { at: Some((Instant::now() + limit, limit)) }
    }

    /// `after(limit)` when a limit is given, else no deadline.
    pub fn from_limit(limit: Option<Duration>) -> Deadline {
        limit.map_or(Deadline::none(), Deadline::after)
    }

    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|(at, _)| Instant::now() >= at)
    }

    /// The time left (zero once passed), or `None` without a deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.at.map(|(at, _)| at.saturating_duration_since(Instant::now()))
    }

    /// The limit the deadline was made from.
    pub fn limit(&self) -> Option<Duration> {
        self.at.map(|(_, l)| l)
    }

    /// The instant, for code that keeps an `Option<Instant>`.
    pub fn instant(&self) -> Option<Instant> {
        self.at.map(|(at, _)| at)
    }

    /// `Err(Reason::Timeout)` once passed.
    pub fn check(&self) -> Result<(), crate::check::Reason> {
        if self.passed() { Err(crate::check::Reason::Timeout(self.limit().unwrap_or_default())) } else { Ok(()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_deadline_never_passes_and_a_zero_one_has_passed() {
        assert!(!Deadline::none().passed());
        assert_eq!(Deadline::none().remaining(), None);
        let d = Deadline::after(Duration::ZERO);
        assert!(d.passed());
        assert_eq!(d.remaining(), Some(Duration::ZERO));
        assert!(!Deadline::after(Duration::from_secs(3600)).passed());
    }
}
