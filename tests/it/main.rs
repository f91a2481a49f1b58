//! The integration tests, built as one binary (one link instead of one per file): each module
//! is a former `tests/*.rs` file and states its own facts. Shared helpers live in `common`.

mod common;

mod abstraction;
mod alphabet;
mod automata;
mod blocks;
mod compat;
mod contain;
mod contract;
mod cverify;
mod dynamic;
mod examples;
mod gcc_agreement;
mod invalid;
mod ipc;
mod ir;
mod learners;
mod learning;
mod models;
mod preprocessed;
mod refinement;
mod robust;
mod scalable;
mod semantics;
mod spec;
mod unsupported;
