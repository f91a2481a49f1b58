//! CEGAR alone (without the invariant prover that `subst verify` runs before it) on `main` of a
//! program, run once per test binary for each program and block encoding: `refinement.rs` and
//! `blocks.rs` state facts about the same runs (the refinements and their invariants; the
//! abstract states with and without blocks), and each run is a Z3 check of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use subst::abs::blocks::Blocks;
use subst::abs::{Abstractor, EventView};
use subst::check::cegar::{CPart, CegarOptions, CegarOutcome, run};
use subst::front::{self, FrontOptions};

/// What CEGAR alone on `main` ends with.
#[derive(Debug)]
pub struct Ended {
    /// `holds`, `fails: TRACE` or `unknown: WHY`.
    pub verdict: String,
    /// Refinements made.
    pub refinements: usize,
    /// Refinements answered by an inductive invariant at a cut point.
    pub generalised: u64,
    /// Houdini runs for refinement ([`subst::abs::AbsStats::invariant_runs`]).
    pub invariant_runs: u64,
    /// Predicates at the end.
    pub predicates: usize,
    /// Abstract states of the last model.
    pub states: usize,
}

/// CEGAR alone with the default options and `blocks` on `main` of `path`, run once (in a thread
/// of its own, as a test of its own would: Z3's context is per thread, and the models it picks
/// can depend on the terms made in it before).
pub fn cegar_alone(path: &Path, blocks: Blocks) -> &'static Ended {
    type Cells = BTreeMap<(PathBuf, bool), &'static OnceLock<Ended>>;
    static RUNS: Mutex<Cells> = Mutex::new(BTreeMap::new());
    let key = (path.to_path_buf(), blocks == Blocks::Loop);
    let cell: &'static OnceLock<Ended> = RUNS.lock().unwrap().entry(key).or_insert_with(|| Box::leak(Box::default()));
    cell.get_or_init(|| {
        let options = CegarOptions { blocks, ..CegarOptions::default() };
        std::thread::scope(|s| s.spawn(|| cegar_with(path, options)).join())
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// CEGAR alone with `options` on `main` of `path`, run afresh.
pub fn cegar_with(path: &Path, options: CegarOptions) -> Ended {
    let program = front::load(&[path.to_path_buf()], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut parts = [CPart::new(Abstractor::new(&comp, EventView::Hidden))];
    let (outcome, stats) = run(&[], &mut parts, None, options);
    let verdict = match outcome {
        CegarOutcome::Holds => "holds".to_string(),
        CegarOutcome::Fails { trace, .. } => format!("fails: {}", trace.join(" ")),
        CegarOutcome::Unknown(r) => format!("unknown: {r}"),
    };
    Ended {
        verdict,
        refinements: stats.refinements,
        generalised: parts[0].abs.stats.generalised,
        invariant_runs: parts[0].abs.stats.invariant_runs,
        predicates: stats.predicates,
        states: stats.abstract_states,
    }
}
