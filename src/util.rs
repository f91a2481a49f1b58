//! Hash maps and sets with a fixed hasher, and a persistent vector ([`pvec`]).
//!
//! The standard `RandomState` seeds each process differently, so iterating a map could visit
//! its entries in a different order from one run to the next; where that order reaches the
//! solver (the order in which Z3 terms are built in the shared context), a run could pick a
//! different model, and so a different witness input, for the same input. A fixed hasher makes
//! every run of subst on the same input do the same work in the same order. Nothing here hashes
//! untrusted keys chosen to collide; inputs are bounded by the front end's limits.

use std::hash::{BuildHasherDefault, DefaultHasher};

/// A `HashMap` that iterates in the same order in every run.
#[allow(clippy::disallowed_types)]
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<DefaultHasher>>;
/// A `HashSet` that iterates in the same order in every run.
#[allow(clippy::disallowed_types)]
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<DefaultHasher>>;

pub mod pvec;
