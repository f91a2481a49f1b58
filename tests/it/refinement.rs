//! CEGAR's own refinement, without the invariant prover that `subst verify` runs before it: the
//! programs of `tests/refine/` go through [`subst::check::cegar::run`] alone, and the snapshot
//! records the verdict, the refinements and how many of them an inductive invariant at a cut
//! point answered ([`subst::abs::refine`]). Refinement by weakest preconditions alone learns these
//! loops one iteration per refinement and reaches the limit of 200.

use crate::common;

use std::path::{Path, PathBuf};

use common::cegar::{Ended, cegar_alone};
use subst::abs::blocks::Blocks;
use subst::abs::refine::{Replay, Witness, simulate};
use subst::abs::{Abstractor, EventView};
use subst::check::cegar::{CPart, CegarOptions, ModelCheck, run_checked_in};
use subst::front::{self, FrontOptions};
use subst::smt::{DEFAULT_QUERY_BUDGET, Encoder, Smt};

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/refine").join(name)
}

/// The verdict, the refinements, those answered by an invariant, and the predicates.
fn summary(e: &Ended) -> String {
    format!(
        "{}\nrefinements: {}\nby an invariant: {}\npredicates: {}",
        e.verdict, e.refinements, e.generalised, e.predicates
    )
}

/// CEGAR alone on `main` of `path` with the default options (the run `blocks.rs` reads too).
fn cegar_alone_summary(path: &Path) -> String {
    summary(cegar_alone(path, Blocks::Single))
}

/// CEGAR alone on `main` of `path` with `options`.
fn cegar_with(path: &Path, options: CegarOptions) -> String {
    summary(&common::cegar::cegar_with(path, options))
}

#[test]
fn a_loop_that_needs_s_equals_2i_costs_one_refinement_by_its_invariant() {
    insta::assert_snapshot!(cegar_alone_summary(&program("sum_twice.c")));
}

#[test]
fn a_transfer_loop_that_needs_x_plus_y_equals_n_is_proved_by_cegar_alone() {
    insta::assert_snapshot!(cegar_alone_summary(&program("transfer.c")));
}

#[test]
fn the_invariant_added_by_refinement_does_not_hide_a_real_bug() {
    insta::assert_snapshot!(cegar_alone_summary(&program("transfer_bug.c")));
}

#[test]
fn a_spurious_path_that_cannot_run_from_its_loop_head_computes_no_invariants() {
    let e = cegar_alone(&program("clashing_guards.c"), Blocks::Single);
    assert_eq!((e.verdict.as_str(), e.generalised, e.invariant_runs), ("holds", 0, 0), "{e:?}");
    assert!(e.refinements > 0, "{e:?}");
}

#[test]
fn weakest_preconditions_alone_do_not_prove_the_s_equals_2i_loop_in_5_refinements() {
    let options = CegarOptions { generalise: false, max_refinements: 5, ..CegarOptions::default() };
    insta::assert_snapshot!(cegar_with(&program("sum_twice.c"), options));
}

#[test]
fn simulating_the_empty_path_asks_the_solver_nothing() {
    let program = front::load(&[program("sum_twice.c")], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut smt = Smt::new(DEFAULT_QUERY_BUDGET);
    let replay = simulate(&Encoder::new(&comp), &mut smt, &[]).expect("answers");
    assert_eq!((replay, smt.stats.calls), (Replay::Feasible(Witness { steps: Vec::new() }), 0));
}

#[test]
fn a_run_on_a_solver_that_answered_before_counts_only_its_own_calls() {
    let program = front::load(&[program("clashing_guards.c")], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut smt = Smt::new(DEFAULT_QUERY_BUDGET);
    let mut calls = Vec::new();
    for _ in 0..2 {
        let mut parts = [CPart::new(Abstractor::new(&comp, EventView::Hidden))];
        let (_, stats) = run_checked_in(
            &[],
            &mut parts,
            None,
            CegarOptions::default(),
            &mut ModelCheck::Mono,
            &mut || None,
            &mut smt,
        );
        calls.push(stats.smt.calls);
    }
    assert!(calls[0] > 0 && calls[1] <= calls[0], "{calls:?}");
}
