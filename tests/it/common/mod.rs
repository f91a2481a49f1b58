//! Helpers shared by the integration tests: native runs of C programs through gcc, the reference
//! for the semantics of the supported C subset; a generator of random programs in that subset;
//! the expected runs that the files under `examples-c/` state in their headers; and runs of
//! CEGAR alone that several test files read (each made once per test binary).

// Not every helper is used by the tests of every configuration.
#![allow(dead_code)]

pub mod cegar;
pub mod generator;
pub mod header;
pub mod native;
pub mod soundness;
pub mod traces;
