//! Learning regular languages with L*: the observation table and the learner. This module
//! knows nothing about C, Z3 or specs: it talks to a [`lstar::Membership`] oracle or a
//! [`lstar::Teacher`] about words over an alphabet of names.

pub mod lstar;
pub mod table;

pub use lstar::{CexMode, Learner, Membership, Stats, Teacher};
pub use table::Table;
