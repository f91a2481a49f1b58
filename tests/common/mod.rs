//! Helpers shared by the integration tests: native runs of C programs through gcc, the reference
//! for the semantics of the supported C subset, and a generator of random programs in that
//! subset.

// Each test binary uses only some of the helpers.
#![allow(dead_code)]

pub mod generator;
pub mod native;
