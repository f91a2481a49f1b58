//! Block encoding of CEGAR's may-abstraction ([`subst::abs::blocks`]): on the same programs,
//! CEGAR alone (without the invariant prover that `subst verify` runs before it) reaches the
//! same verdict with abstract states only at loop heads, event points and the entry, so with
//! fewer abstract states than with one at every location; and the block-encoded may-model
//! still has a path for every run of the interpreter (as `tests/abstraction.rs` checks for the
//! model with a state at every location).

use crate::common;

use std::path::{Path, PathBuf};

use common::cegar::{Ended, cegar_alone};
use common::soundness::{input_lists, seed_predicates};
use common::{generator, header};
use subst::abs::blocks::Blocks;
use subst::abs::{Abstractor, EventView, Mode};
use subst::check::cegar::run_labels;
use subst::front::{self, FrontOptions};
use subst::ir::{Component, interp};
use subst::smt::Smt;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// What CEGAR alone on `main` of `path` ends with (one run per program and encoding, shared
/// with `refinement.rs`).
fn cegar(path: &Path, blocks: Blocks) -> &'static Ended {
    cegar_alone(path, blocks)
}

/// Runs CEGAR alone both ways on `path` and checks that the verdicts agree; returns (states
/// with a state at every location, states with blocks, refinements with blocks).
fn both(path: &str) -> (String, usize, usize, usize) {
    let single = cegar(&example(path), Blocks::Single);
    let blocks = cegar(&example(path), Blocks::Loop);
    assert_eq!(single.verdict, blocks.verdict, "{path}: the verdicts differ");
    (blocks.verdict.clone(), single.states, blocks.states, blocks.refinements)
}

#[test]
fn a_chain_of_6_locks_is_proved_with_2_abstract_states_and_no_refinement() {
    let (verdict, single, blocks, refinements) = both("examples-c/loops/lock_chain_6.c");
    assert_eq!(verdict, "holds");
    assert_eq!((single, blocks, refinements), (3754, 2, 0));
}

#[test]
fn chains_of_8_and_10_locks_are_proved_with_blocks_alone() {
    // With a state at every location, CEGAR alone does not prove these in minutes.
    for f in ["examples-c/loops/lock_chain_8.c", "examples-c/loops/lock_chain_10.c"] {
        let e = cegar(&example(f), Blocks::Loop);
        assert_eq!((e.verdict.as_str(), e.states, e.refinements), ("holds", 2, 0), "{f}");
    }
}

#[test]
fn a_loop_that_needs_s_equals_2i_has_the_same_verdict_with_fewer_states() {
    let (verdict, single, blocks, _) = both("tests/refine/sum_twice.c");
    assert_eq!(verdict, "holds");
    assert!(blocks < single, "{blocks} block states, {single} single");
}

#[test]
fn a_real_bug_after_a_spurious_path_is_found_with_blocks_too() {
    let (verdict, single, blocks, _) = both("tests/refine/transfer_bug.c");
    assert_eq!(verdict, "fails: main!reach_error");
    assert!(blocks < single, "{blocks} block states, {single} single");
}

/// Whether the block-encoded may-model of `comp` has a path for the interpreter's run on each
/// of `inputs`; the number of runs checked, or the first one without a path.
fn block_model_covers_runs(comp: &Component, inputs: &[Vec<i128>], preds: usize) -> Result<usize, String> {
    let mut smt = Smt::new(subst::smt::DEFAULT_QUERY_BUDGET);
    let mut abs = Abstractor::new(comp, EventView::Visible);
    abs.blocks = Blocks::Loop;
    seed_predicates(&mut abs, preds);
    let may = abs.build(&mut smt, Mode::May).map_err(|e| format!("may: {e:?}"))?;
    for list in inputs {
        let limits = interp::Limits { max_steps: 200_000, max_events: 25 };
        let run = interp::run(comp, &mut interp::Scripted::new(list.iter().copied()), limits);
        let labels = run_labels(comp, &run);
        let sets: Vec<Vec<String>> = labels.iter().map(|l| vec![l.clone()]).collect();
        if may.find_path(&comp.name, &sets).is_none() {
            return Err(format!("the run {labels:?} (inputs {list:?}) is not a path of the block-encoded may-model"));
        }
    }
    Ok(inputs.len())
}

#[test]
fn block_encoded_may_models_of_the_examples_have_every_run_of_the_interpreter() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c");
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in header::c_files(&dir) {
        let text = std::fs::read_to_string(&path).expect("readable");
        let h = header::parse_header(&text).expect("a header");
        let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("loads");
        for name in &h.components {
            let comp = program.lower(name).expect("lowers");
            let mut inputs: Vec<Vec<i128>> =
                h.runs.iter().filter(|r| &r.component == name).map(|r| r.inputs.clone()).collect();
            inputs.extend(input_lists(path.as_os_str().len() as u64));
            match block_model_covers_runs(&comp, &inputs, 4) {
                Ok(n) => checked += n,
                Err(e) => failures.push(format!("{} {name}: {e}", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 100, "only {checked} runs checked");
}

#[test]
fn block_encoded_may_models_of_generated_programs_have_every_run_of_the_interpreter() {
    let mut failures = Vec::new();
    for seed in 0..12 {
        let g = generator::program(seed);
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join(format!("gen{seed}.c"));
        std::fs::write(&path, &g.source).expect("write");
        let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("loads");
        let comp = program.lower(&g.component).expect("lowers");
        match block_model_covers_runs(&comp, &input_lists(seed), 2) {
            Ok(_) => {}
            // The solver giving up decides nothing about soundness.
            Err(e) if e.contains("Unknown(") => {}
            Err(e) => failures.push(format!("seed {seed}: {e}\n{}", g.source)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The pairs of ways out of one location of `comp` (an edge and how it is taken, as
/// [`subst::abs::invariant::takes`] lists them) whose guards can hold in one state, as the
/// solver finds them over an arbitrary state (so over every reachable one). The merges of the
/// block encoding and of the bounded search rest on there being none: they put the ways into a
/// location into an if-then-else chain whose first true condition wins, and whose last
/// condition is never tested.
fn overlapping_ways_out(comp: &Component) -> Vec<String> {
    use subst::abs::invariant::takes;
    use subst::smt::Encoder;
    let enc = Encoder::new(comp);
    let vocab = enc.state("");
    let mut smt = Smt::new(subst::smt::DEFAULT_QUERY_BUDGET);
    let mut found = Vec::new();
    for (loc, outs) in comp.successors().iter().enumerate() {
        let mut guards = Vec::new();
        for &e in outs {
            for &(take, _) in takes(&comp.edges[e].stmt) {
                guards.push((e, take, enc.effect(&comp.edges[e], take, &vocab[..]).guard));
            }
        }
        for (i, (e1, t1, g1)) in guards.iter().enumerate() {
            for (e2, t2, g2) in &guards[i + 1..] {
                if !matches!(smt.sat(&[g1.clone(), g2.clone()]), Ok(false)) {
                    found.push(format!("{} at l{loc}: edges {e1} ({t1:?}) and {e2} ({t2:?})", comp.name));
                }
            }
        }
    }
    found
}

/// A program of the shapes that give a location several ways in or out: a switch with
/// fall-through, a default among the cases, a case range and shared targets, a `goto` into a
/// label that a case reaches too, short-circuit conditions with `?:` in conditions and values,
/// `break` and `continue` in nested loops, a helper with a switch inlined twice, nondet choices
/// and `assume`.
const SHAPES: &str = r#"
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
static int pick(int k) {
  switch (k & 15) {
    case 0: return 1;
    case 1: case 2: return 2;
    case 3: if (k > 100) return 30;
    case 4: return 4;
    case 5 ... 8: return k;
    default: return k & 1 ? 9 : 90;
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int(), y = 0, s = 0;
  __VERIFIER_assume(x >= -5 && x < 64);
  switch (x) {
    case 0: case 1: y = 1;
    case 2: y += 2; break;
    default: y = 100;
    case 3: case 4: y += 3; break;
    case 5: goto L;
    case 10: if (x > 5 && (x < 20 || y)) y = 11; else y = 12; break;
    case 11: y = x ? 5 : 6; break;
    case 12: case 13: y = 13;
    L: y = y + 1; break;
  }
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      if (j == 1 || (y > 3 ? x : y) == 7) continue;
      if (__VERIFIER_nondet_int()) break;
      s += pick(x + j);
    }
    s += pick(y);
  }
  if (s < 0 && (x < 0 ? -x : x) > 100) reach_error();
  return 0;
}
"#;

#[test]
fn no_location_of_a_lowered_program_has_two_ways_out_that_can_hold_together() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut sources: Vec<(PathBuf, Vec<String>)> = Vec::new();
    let shapes = dir.path().join("shapes.c");
    std::fs::write(&shapes, SHAPES).expect("write");
    sources.push((shapes, vec!["main".to_string()]));
    for seed in 0..12 {
        for (kind, make) in [
            ("plain", generator::program as fn(u64) -> generator::GenProgram),
            ("memory", generator::program_with_memory),
        ] {
            let g = make(seed);
            let path = dir.path().join(format!("gen_{kind}_{seed}.c"));
            std::fs::write(&path, &g.source).expect("write");
            sources.push((path, vec![g.component.clone()]));
        }
    }
    for path in header::c_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples-c")) {
        let text = std::fs::read_to_string(&path).expect("readable");
        let h = header::parse_header(&text).expect("a header");
        sources.push((path, h.components.clone()));
    }
    let mut found = Vec::new();
    let mut branching = 0;
    for (path, components) in &sources {
        let program = front::load(std::slice::from_ref(path), &FrontOptions::default()).expect("loads");
        for name in components {
            let comp = program.lower(name).expect("lowers");
            branching += comp.successors().iter().filter(|s| s.len() > 1).count();
            if !subst::abs::invariant::branches_only_by_assumptions(&comp) {
                found.push(format!("{}: {name} branches other than by assumptions", path.display()));
            }
            found.extend(overlapping_ways_out(&comp).into_iter().map(|f| format!("{}: {f}", path.display())));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(branching > 400, "only {branching} locations with several ways out");
}

#[test]
fn two_ways_out_whose_guards_overlap_are_found() {
    // `x > 0` and `x > 5` both hold at x = 6: the merges would keep only the first way's values.
    let text = "component main\n  local x: i32\n  local y: i32\n  entry l0\n  exit l3\n  l0 -> l1: havoc x\n  \
                l1 -> l2: assume (x > 0)\n  l1 -> l2: assume (x > 5)\n  l2 -> l3: y = 1\n";
    let comp = subst::ir::parse::component(text).expect("the IR text parses");
    assert_eq!(overlapping_ways_out(&comp).len(), 1);
}
