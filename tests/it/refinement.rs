//! CEGAR's own refinement, without the invariant prover that `subst verify` runs before it: the
//! programs of `tests/refine/` go through [`subst::check::cegar::run`] alone, and the snapshot
//! records the verdict, the refinements and how many of them an inductive invariant at a cut
//! point answered ([`subst::abs::refine`]). Refinement by weakest preconditions alone learns these
//! loops one iteration per refinement and reaches the limit of 200.

use std::path::{Path, PathBuf};

use subst::abs::{Abstractor, EventView};
use subst::check::cegar::{CPart, CegarOptions, CegarOutcome, run};
use subst::front::{self, FrontOptions};

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/refine").join(name)
}

/// CEGAR alone on `main` of `path`: the verdict, the refinements, those answered by an invariant.
fn cegar_alone(path: &Path) -> String {
    cegar_with(path, CegarOptions::default())
}

/// [`cegar_alone`] with `options`.
fn cegar_with(path: &Path, options: CegarOptions) -> String {
    let program = front::load(&[path.to_path_buf()], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut parts = [CPart::new(Abstractor::new(&comp, EventView::Hidden))];
    let (outcome, stats) = run(&[], &mut parts, None, options);
    let verdict = match outcome {
        CegarOutcome::Holds => "holds".to_string(),
        CegarOutcome::Fails { trace, .. } => format!("fails: {}", trace.join(" ")),
        CegarOutcome::Unknown(r) => format!("unknown: {r}"),
    };
    format!(
        "{verdict}\nrefinements: {}\nby an invariant: {}\npredicates: {}",
        stats.refinements, parts[0].abs.stats.generalised, stats.predicates
    )
}

#[test]
fn a_loop_that_needs_s_equals_2i_costs_one_refinement_by_its_invariant() {
    insta::assert_snapshot!(cegar_alone(&program("sum_twice.c")));
}

#[test]
fn a_transfer_loop_that_needs_x_plus_y_equals_n_is_proved_by_cegar_alone() {
    insta::assert_snapshot!(cegar_alone(&program("transfer.c")));
}

#[test]
fn the_invariant_added_by_refinement_does_not_hide_a_real_bug() {
    insta::assert_snapshot!(cegar_alone(&program("transfer_bug.c")));
}

#[test]
fn weakest_preconditions_alone_do_not_prove_the_s_equals_2i_loop_in_5_refinements() {
    let options = CegarOptions { generalise: false, max_refinements: 5, ..CegarOptions::default() };
    insta::assert_snapshot!(cegar_with(&program("sum_twice.c"), options));
}
