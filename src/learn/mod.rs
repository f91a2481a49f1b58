//! Learning regular languages: L* with an observation table ([`lstar`], [`table`]), L#
//! with an observation tree ([`lsharp`], [`tree`]), and adaptive L#, which learns a changed
//! target with a reference model such as the old assumption ([`adaptive`]). This module knows nothing about C, Z3 or
//! specs: it talks to a [`lstar::Membership`] oracle or a [`lstar::Teacher`] about words over
//! an alphabet of names, or, without building names, about words of letter indices into the
//! learner's sorted alphabet ([`lstar::Membership::member_indexed`]). The oracle can stop a
//! learner ([`lstar::Membership::stopped`], the run's deadline): the learner then returns from
//! its loops at the next step of its own and is dropped; the learning functions return
//! [`lstar::LearnError::Stopped`].

pub mod adaptive;
pub mod lsharp;
pub mod lstar;
pub mod table;
pub mod tree;

pub use lsharp::{LSharp, SavedTree, Separation};
pub use lstar::{CexMode, Learner, Membership, Stats, Teacher};
pub use table::Table;

/// Which learner learns an assumption. L# is the default: on the IPC it asks 5.6 times fewer
/// membership queries than L* for P1 and 6.5 times fewer for P2, and it is the learner with
/// which compositional checks beat monolithic ones on the scalable assembly
/// (`benches/IPC_SCALE.md`, `benches/SCALABLE.md`, `benches/COMPAT.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// L* with an observation table ([`Learner`]); after an upgrade its table is re-validated.
    LStar,
    /// L# with an observation tree ([`LSharp`]); after an upgrade the words of its tree are
    /// asked again.
    #[default]
    LSharp,
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Algorithm::LStar => "lstar",
            Algorithm::LSharp => "lsharp",
        })
    }
}
