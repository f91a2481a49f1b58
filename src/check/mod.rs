//! The checks subst answers: verification of one assembly, containment of changed components
//! (paper 003 Section 4) and compatibility of an upgraded assembly (Section 5; FSP models now, C
//! assemblies in a later stage).
//!
//! Every check ends in a [`Verdict`]: it holds, it fails with evidence, or it is unknown for a
//! stated reason. A limit is never turned into "holds".

pub mod ag;
pub mod bmc;
pub mod cegar;
pub mod compat;
pub mod contain;
pub mod only_run;
pub mod product;
pub mod substitution;
pub mod upgrade;
pub mod verify;

use std::fmt;
use std::time::Duration;

/// Why a check could not decide: each limit is a variant (as egg's `StopReason`), so that
/// reports and tests can match on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The run's deadline (`--timeout`, the limit given) passed.
    Timeout(Duration),
    /// The limit of refinements (`--max-refinements`) was reached.
    RefinementLimit(usize),
    /// A refinement of what is said (e.g. "the old version of `writer`") found no new predicate
    /// to rule out a spurious counterexample.
    NoNewPredicate(String),
    /// An SMT query used up its resource budget (Z3 `rlimit` units) while doing what is said.
    SolverBudget {
        /// What the query was for, e.g. "abstracting `writer`".
        during: String,
        /// The budget of one query.
        budget: u32,
    },
    /// The SMT solver answered unknown for a reason of its own.
    SolverUnknown {
        /// What the query was for.
        during: String,
        /// The solver's reason.
        why: String,
    },
    /// A bound on explored states was reached.
    StateLimit(usize),
    /// The explicit exploration of what is said (e.g. "the new version of `writer`") reached
    /// its memory bound of `bytes`; the must-abstraction used in its place did not decide, for
    /// the reason `then`.
    MemoryLimit {
        /// What was explored.
        what: String,
        /// The bound, in bytes.
        bytes: usize,
        /// Why the must-abstraction did not decide either.
        then: Box<Reason>,
    },
    /// The abstraction of what is said (e.g. "`writer`") exceeds this many states.
    AbstractionLimit(String, usize),
    /// The property cannot be checked as given (e.g. it is not deterministic).
    Property(String),
    /// An internal consistency check failed (a bug in subst; the answer is withheld).
    Internal(String),
    /// The check was not run, for the reason given (e.g. the old assembly lacks a component).
    NotChecked(String),
}

impl Reason {
    /// The reason for `e`, a solver error while doing `during`.
    pub fn solver(during: impl Into<String>, e: crate::smt::SmtError) -> Reason {
        use crate::smt::SmtError;
        match e {
            SmtError::Deadline => Reason::Timeout(Duration::ZERO),
            SmtError::Budget(budget) => Reason::SolverBudget { during: during.into(), budget },
            SmtError::Unknown(why) => Reason::SolverUnknown { during: during.into(), why },
            SmtError::CallLimit(n) => Reason::NotChecked(format!("the limit of {n} SMT calls was reached")),
        }
    }

    /// The same reason, with a timeout's limit filled in from `deadline`.
    pub fn with_limit(self, deadline: &crate::deadline::Deadline) -> Reason {
        match self {
            Reason::Timeout(d) if d.is_zero() => Reason::Timeout(deadline.limit().unwrap_or_default()),
            Reason::MemoryLimit { what, bytes, then } => {
                Reason::MemoryLimit { what, bytes, then: Box::new(then.with_limit(deadline)) }
            }
            r => r,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Timeout(d) => write!(f, "the time limit of {} s was reached", d.as_secs()),
            Reason::RefinementLimit(n) => write!(f, "the limit of {n} refinements was reached"),
            Reason::NoNewPredicate(c) => {
                write!(f, "refining {c} found no new predicate to rule out a spurious counterexample")
            }
            Reason::SolverBudget { during, budget } => {
                write!(f, "{during}: an SMT query used up its budget of {budget} resource units")
            }
            Reason::SolverUnknown { during, why } => write!(f, "{during}: the SMT solver answered unknown ({why})"),
            Reason::StateLimit(n) => write!(f, "the limit of {n} states was reached"),
            Reason::MemoryLimit { what, bytes, then } => write!(
                f,
                "the explicit exploration of {what} reached its memory bound of {} MiB (--explicit-memory), and the must-abstraction used instead did not decide: {then}",
                bytes >> 20
            ),
            Reason::AbstractionLimit(c, n) => write!(f, "the abstraction of {c} exceeds {n} states"),
            Reason::Property(why) => write!(f, "the property cannot be checked: {why}"),
            Reason::Internal(why) => write!(f, "internal error: {why}"),
            Reason::NotChecked(why) => f.write_str(why),
        }
    }
}

/// The answer to one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The property holds.
    Holds,
    /// It fails; a shortest trace of visible events that shows it.
    Fails(Vec<String>),
    /// Undecided.
    Unknown(Reason),
}

impl Verdict {
    /// The exit code of PRODUCT.md for this verdict: 0, 1 or 3.
    pub fn exit_code(&self) -> u8 {
        match self {
            Verdict::Holds => 0,
            Verdict::Fails(_) => 1,
            Verdict::Unknown(_) => 3,
        }
    }

    /// Combines verdicts: any failure fails, else any unknown is unknown, else it holds.
    pub fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        let mut result = Verdict::Holds;
        for v in verdicts {
            match (&result, v) {
                (Verdict::Fails(_), _) => {}
                (_, f @ Verdict::Fails(_)) => result = f,
                (Verdict::Holds, u @ Verdict::Unknown(_)) => result = u,
                _ => {}
            }
        }
        result
    }
}
