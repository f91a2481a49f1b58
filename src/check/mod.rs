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
pub mod substitution;
pub mod upgrade;
pub mod verify;

use std::fmt;

/// Why a check could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A bound on explored states was reached.
    StateLimit(usize),
    /// Another limit or an undecided solver query, described.
    Other(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::StateLimit(n) => write!(f, "the limit of {n} states was reached"),
            Reason::Other(r) => f.write_str(r),
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
