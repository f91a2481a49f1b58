//! Finite automata over events: the doubly labelled automata (DLA) of paper 003 and the
//! operations every later stage ends in: composition, hiding, determinisation, minimisation,
//! safety checks and language inclusion, each with the shortest counterexample.
//!
//! Architecture invariant: this module knows nothing about C, Z3 or the spec syntax; it works on
//! event names and proposition names only.

pub mod compose;
pub mod determinize;
pub mod dla;
pub mod dot;
pub mod inclusion;
pub mod minimize;
pub mod safety;

pub use dla::{Builder, Dla, StateId, TAU, TAU_NAME};
