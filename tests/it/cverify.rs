//! `subst verify` on C: verdicts of the CEGAR examples, of the SV-COMP style benchmark
//! programs and of C assemblies against spec properties; snapshots of the reports.
//!
//! A verdict must never contradict the expected one. Among the examples, programs whose proof is
//! out of reach of the current refinement say so in their header (`// unknown today: <why>`),
//! and only for those is Unknown accepted, the same for the benchmark programs; they run with a
//! smaller budget of solver work. No program runs with a time limit in effect (budgets count
//! work), so that whether it is decided does not depend on the machine's load.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use subst::check::Verdict;
use subst::check::cegar::{CegarOptions, ProgramResult, verify_assembly, verify_program};
use subst::front::{self, FrontOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The expected verdict of a program (`true`: holds) and whether Unknown is accepted.
fn expected(text: &str) -> (bool, bool) {
    let first = text.lines().next().unwrap_or_default();
    let holds = if first.contains("holds") || first.contains("expect: true") {
        true
    } else if first.contains("fails") || first.contains("expect: false") {
        false
    } else {
        panic!("no verdict on the first line: {first}")
    };
    (holds, text.lines().take(5).any(|l| l.starts_with("// unknown today:")))
}

/// One program's check, run once and read by every test that asks about that program.
struct Checked {
    /// The lowered `main`, for the report.
    comp: subst::ir::Component,
    /// The checker's result.
    result: ProgramResult,
    /// The expected verdict (`true`: holds) and whether Unknown is accepted, from the header.
    holds: bool,
    may_be_unknown: bool,
}

fn check_one(path: &Path) -> Checked {
    let text = std::fs::read_to_string(path).expect("readable");
    let (holds, may_be_unknown) = expected(&text);
    let program = front::load(&[path.to_path_buf()], &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let mut options =
        CegarOptions { deadline: subst::deadline::Deadline::after(SAFETY_NET), ..CegarOptions::default() };
    if may_be_unknown {
        options.query_budget = UNKNOWN_QUERY_BUDGET;
    }
    let result = verify_program(&comp, options);
    Checked { comp, result, holds, may_be_unknown }
}

/// The time limit of every program: none in effect. A verdict is decided
/// by the checker's budgets of work (refinements, solver resource units), so that it does not
/// depend on the machine's load; this limit only stops a run that would hang the suite (and
/// it is far from the point where the solver's own timeout is set, `smt::with_watchdog`, so a
/// result is the one of a run without a deadline).
const SAFETY_NET: Duration = Duration::from_secs(30 * 60);

/// The solver's budget per query (resource units) for a program whose header says it is
/// unknown today: a twentieth of the default, so that such a program ends Unknown after a few
/// seconds of work on any machine, where the default budget lets the two in `benches/svcomp`
/// run for 18 s and 111 s (benches/VERIFY.md has their full runs). Their verdict, if they get
/// one, must still be right.
const UNKNOWN_QUERY_BUDGET: u32 = 1_000_000;

/// Checks every program in `dir` on two threads, once per test binary: the tests of a folder's
/// verdicts and those about one program of it (its report, how it was decided) read the same
/// results, so that no program is checked twice. A program whose header admits that it is
/// unknown today (`// unknown today: <why>`) runs with [`UNKNOWN_QUERY_BUDGET`]; every other
/// program runs within the checker's budgets of work only.
fn checked(dir: &str) -> &'static BTreeMap<PathBuf, Checked> {
    static DIRS: Mutex<BTreeMap<String, &'static OnceLock<BTreeMap<PathBuf, Checked>>>> = Mutex::new(BTreeMap::new());
    let cell: &'static OnceLock<_> =
        *DIRS.lock().unwrap().entry(dir.to_string()).or_insert_with(|| Box::leak(Box::default()));
    cell.get_or_init(|| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("a folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        files.sort();
        let work = Mutex::new(files);
        let done = Mutex::new(BTreeMap::new());
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    while let Some(path) = work.lock().unwrap().pop() {
                        // A thread of its own per program, as a test of its own had: Z3's
                        // context is per thread, and the models it picks (so the counts read
                        // by the tests below) can depend on the terms made in it before.
                        let c = std::thread::scope(|one| one.spawn(|| check_one(&path)).join())
                            .unwrap_or_else(|e| std::panic::resume_unwind(e));
                        done.lock().unwrap().insert(path, c);
                    }
                });
            }
        });
        done.into_inner().unwrap()
    })
}

/// The wrong verdicts among the programs of `dir` (see [`checked`]), and how many were decided.
/// A program that may be unknown today must have the right verdict when it has one, and
/// Unknown is accepted, so its smaller budget decides nothing. Every other program must get
/// its verdict.
fn check_dir(dir: &str) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut decided = 0;
    for (path, c) in checked(dir) {
        let v = c.result.verdict();
        let ok = match (&v, c.holds) {
            (Verdict::Holds, true) | (Verdict::Fails(_), false) => {
                decided += 1;
                true
            }
            (Verdict::Unknown(_), _) => c.may_be_unknown,
            _ => false,
        };
        if !ok {
            failures.push(format!("{}: expected holds={}, got {v:?}", path.display(), c.holds));
        }
    }
    (failures, decided)
}

/// The check of the program `path` (`FOLDER/FILE`, the folder one of [`checked`]'s).
fn checked_program(path: &str) -> &'static Checked {
    let (dir, _) = path.rsplit_once('/').expect("a folder and a file");
    checked(dir).get(&root().join(path)).unwrap_or_else(|| panic!("{path} was not checked"))
}

#[test]
fn cegar_examples_have_their_verdicts() {
    let (failures, decided) = check_dir("examples-c/cegar");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decided >= 6, "only {decided} examples decided");
}

#[test]
fn loop_examples_have_their_verdicts() {
    // Lock chains of 6, 8 and 10 locks, loops whose proofs need linear invariants (s == 2*i,
    // x + y == n signed and unsigned, y == 2*x across a branch), a retry counter, bugs 250
    // and 300 iterations deep (one behind an equality that short runs suggest and the
    // re-check refutes), invariants split on a condition (parity_steps, last_index), and
    // programs without input decided by their only run (a bug a million iterations deep, a
    // run that cycles forever): each must get its verdict.
    let (failures, decided) = check_dir("examples-c/loops");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decided >= 18, "only {decided} examples decided");
}

#[test]
fn svcomp_style_programs_are_never_answered_wrongly() {
    // Two of the 27 say in their header that they are unknown today (benches/VERIFY.md); their
    // verdict, if they get one, must be right.
    let (failures, decided) = check_dir("benches/svcomp");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decided >= 25, "only {decided} programs decided");
}

#[test]
fn soundness_probes_have_their_verdicts() {
    // Programs that once got a wrong verdict (benches/VERIFY.md, "Soundness hunt (15s1)"), each
    // with the verdict of the gcc-compiled program in its header: every one must be decided
    // and right.
    let (failures, decided) = check_dir("tests/data/soundness");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let total = std::fs::read_dir(root().join("tests/data/soundness")).expect("a folder").count();
    assert_eq!(decided, total, "every soundness probe is decided");
}

/// The text report of the program `path` and its exit code, from the check of its folder.
fn report_of(path: &str) -> (String, u8) {
    let Checked { comp, result, .. } = checked_program(path);
    let text = subst::report::program_text(comp, result, false);
    (text.replace(&format!("{}/", root().display()), ""), result.verdict().exit_code())
}

#[test]
fn report_of_a_program_that_fails() {
    let (text, code) = report_of("examples-c/cegar/lock_loop_bug.c");
    assert_eq!(code, 1);
    insta::assert_snapshot!(text);
}

#[test]
fn report_of_a_program_that_holds() {
    let (text, code) = report_of("examples-c/cegar/lock_loop.c");
    assert_eq!(code, 0);
    insta::assert_snapshot!(text);
}

fn assembly_report(files: &[&str], prop: &str) -> (String, u8) {
    let spec = subst::spec::load(&root().join("specs/lock.lts")).expect("the spec loads");
    let options = FrontOptions { families: spec.family_ranges(), ..FrontOptions::default() };
    let paths: Vec<PathBuf> = files.iter().map(|f| root().join(f)).collect();
    let program = front::load(&paths, &options).expect("loads");
    let r = verify_assembly(&spec, "LOCK", &program, &[prop.to_string()], CegarOptions::default()).expect("verifies");
    let text = subst::report::assembly_text(&r, false);
    (text.replace(&format!("{}/", root().display()), ""), r.verdict().exit_code())
}

#[test]
fn the_c_lock_assembly_satisfies_granted() {
    let (text, code) = assembly_report(&["examples-c/lock_client.c", "examples-c/lock_server.c"], "GRANTED");
    assert_eq!(code, 0, "{text}");
}

#[test]
fn a_greedy_c_lock_assembly_violates_granted_with_the_models_trace() {
    let (text, code) =
        assembly_report(&["examples-c/assembly/greedy_client.c", "examples-c/assembly/greedy_server.c"], "GRANTED");
    assert_eq!(code, 1, "{text}");
    // The same trace as the FSP model GREEDY_MODEL in specs/lock.lts.
    assert!(text.contains("trace: request grant.1 request grant.1"), "{text}");
    insta::assert_snapshot!(text);
}

/// Regression: a C component's model held only the events its reached states perform, so an
/// event of its alphabet that it can never perform (`reset`) was left to another part to perform
/// alone, and both engines answered a wrong "fails" with the trace `reset`.
#[test]
fn an_event_a_component_can_never_perform_is_refused_by_its_model() {
    for engine in ["mono", "ag"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
            .current_dir(root())
            .args(["verify", "examples-c/assembly/quiet_reset.c", "--spec", "examples-c/assembly/quiet_reset.lts"])
            .args(["--prop", "NORESET", "--no-cache", "--engine", engine])
            .output()
            .expect("subst runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "--engine {engine}: {text}");
        assert!(text.contains("NORESET: holds"), "--engine {engine}: {text}");
    }
}

/// `--stats` on an assembly splits the run's time into its phases (abstraction, model check,
/// path checks), for both engines, so that where the time goes is read off one run
/// (`benches/IPC_SCALE.md`); the phases are parts of the whole.
#[test]
fn the_stats_of_an_assembly_split_its_time_into_phases() {
    for engine in ["mono", "ag"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
            .current_dir(root())
            .args([
                "verify",
                "examples-c/lock_client.c",
                "examples-c/lock_server.c",
                "--spec",
                "specs/lock.lts",
                "--assembly",
                "LOCK",
            ])
            .args(["--prop", "GRANTED", "--no-cache", "--stats", "--engine", engine])
            .output()
            .expect("subst runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "--engine {engine}: {text}");
        let ms = |key: &str| -> f64 {
            let at = text.find(key).unwrap_or_else(|| panic!("--engine {engine}: no `{key}` in {text}"));
            let rest = &text[at + key.len()..];
            let end = rest.find(" ms").expect("a time in ms");
            rest[..end].trim().parse().expect("a number")
        };
        let phases = ms("abstraction ") + ms("model check ") + ms("path checks ");
        // Each phase is printed rounded to 0.1 ms.
        assert!(phases <= ms("\n    time: ") + 0.2, "--engine {engine}: {text}");
    }
}

/// How a program's verdict came about: the verdict, and whether invariants proved it before
/// any refinement.
fn how_decided(path: &str) -> String {
    let r = &checked_program(path).result;
    let verdict = match r.verdict() {
        Verdict::Holds => "holds",
        Verdict::Fails(_) => "fails",
        Verdict::Unknown(_) => "unknown",
    };
    format!("{verdict}; by invariants: {}; refinements: {}", r.stats.invariants > 0, r.stats.refinements)
}

/// `/` and `%` reach the solver as a quotient and a remainder with their defining
/// constraints (`smt::division`), which a divider circuit made too hard for its budget.
#[test]
fn quotient_and_remainder_by_a_constant_are_proved_by_their_definitions() {
    insta::assert_snapshot!(how_decided("examples-c/loops/minutes_seconds.c"), @"holds; by invariants: true; refinements: 0");
}

/// A bound that the samples leave tight is widened to the program's constants
/// (`level - round <= 999`).
#[test]
fn a_bound_at_a_program_constant_is_found() {
    insta::assert_snapshot!(how_decided("examples-c/loops/bounded_drift.c"), @"holds; by invariants: true; refinements: 0");
}

/// A loop bounded by an assumed input range, whose property no candidate invariant states, is
/// proved by its complete unrolling: at 31 iterations the solver finds that no run goes on,
/// though no way into the next iteration simplified to false.
#[test]
fn a_loop_bounded_by_an_assumed_range_is_proved_by_its_complete_unrolling() {
    insta::assert_snapshot!(how_decided("examples-c/loops/sum_of_squares.c"), @"holds; by invariants: false; refinements: 0");
    let r = &checked_program("examples-c/loops/sum_of_squares.c").result;
    assert!(r.stats.bmc_complete, "the unrolling is complete");
}

/// An error that needs all 50 iterations of a loop is found by the bounded search, whose
/// unrolling is complete at depth 51: its early turn ran over its share of the budget there,
/// and a later turn asks the waiting error way again with the whole budget (before, a complete
/// unrolling was never asked again, and CEGAR refined one iteration at a time).
#[test]
fn an_error_way_left_over_budget_by_an_early_turn_is_asked_again() {
    insta::assert_snapshot!(how_decided("examples-c/loops/every_input_bug.c"), @"fails; by invariants: false; refinements: 0");
    let r = &checked_program("examples-c/loops/every_input_bug.c").result;
    assert!(r.stats.bmc_complete, "the unrolling is complete");
    assert_eq!(r.stats.bmc_depth, 51);
}

/// Products of the loop's variables are columns of the sampled relations: `2*sum == i*i - i`.
#[test]
fn a_degree_two_invariant_is_found() {
    insta::assert_snapshot!(how_decided("examples-c/loops/triangle_sum.c"), @"holds; by invariants: true; refinements: 0");
}

/// A bound that is inductive only beside a degree-2 equality (`2*t == c*c + c + 4` fixes `t`
/// only modulo 2^31) is offered again in the round of the products, after round 2 pruned it.
#[test]
fn a_bound_pruned_without_the_products_is_offered_again_with_them() {
    insta::assert_snapshot!(how_decided("examples-c/loops/triangle_gap.c"), @"holds; by invariants: true; refinements: 0");
}

/// The bounded search takes its first turn before the second round of invariants, so a bug
/// two iterations deep costs a few dozen solver checks, not the rounds' hundred and more.
#[test]
fn a_shallow_bug_is_found_before_the_expensive_rounds_of_invariants() {
    let r = &checked_program("examples-c/loops/charger_bug.c").result;
    assert!(matches!(r.verdict(), Verdict::Fails(_)), "{:?}", r.verdict());
    assert!(r.stats.smt.calls <= 60, "{} solver checks", r.stats.smt.calls);
}

/// A failing `assert(cond && "message")` is reported at the assert's line, and the
/// interpreter's replay of the run confirms it there.
#[test]
fn a_failing_assert_with_a_message_is_reported_at_its_line() {
    let (text, code) = report_of("examples-c/loops/assert_message_bug.c");
    assert_eq!(code, 1);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.contains("confirmed by the interpreter: the run ends at examples-c/loops/assert_message_bug.c:17:"),
        "{text}"
    );
}

/// An old-style task that marks its error with the label `ERROR:` and calls no error function
/// is refused with the label's location (exit 2), not answered "holds": subst does not check
/// labels.
#[test]
fn an_error_label_without_an_error_call_is_refused() {
    let dir = std::env::temp_dir().join(format!("subst-error-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("error_label.c");
    let program = "extern int __VERIFIER_nondet_int(void);\n\
                   int main() {\n  int x = __VERIFIER_nondet_int();\n  if (x == 42) {\n    ERROR: return 1;\n  }\n  return 0;\n}\n";
    std::fs::write(&file, program).expect("written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(&dir)
        .args(["verify", "error_label.c", "--no-cache"])
        .env("NO_COLOR", "1")
        .output()
        .expect("subst runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stderr));
}

/// The only run of a program without input skips the iterations of a counting loop by their
/// closed form: a bug 1.5 billion iterations deep, beyond the steps the run may execute.
#[test]
fn a_counting_loop_is_accelerated_to_a_deep_bug() {
    insta::assert_snapshot!(how_decided("examples-c/loops/long_count_bug.c"), @"fails; by invariants: false; refinements: 0");
}

/// What the only run of the program at `path` shows, in a word.
fn only_run_of(path: &str) -> &'static str {
    use subst::check::only_run::{MAX_STEPS, OnlyRun, only_run};
    let path = root().join(path);
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    match only_run(&comp, MAX_STEPS) {
        OnlyRun::Several => "several runs",
        OnlyRun::Safe { .. } => "safe",
        OnlyRun::Error(..) => "error",
        OnlyRun::TooLong => "too long",
    }
}

/// An array declared without an initialiser and filled before it is read leaves the program
/// one run: the only run executes it, both ways (main before this: neither decided in 60 s).
#[test]
fn an_array_filled_before_it_is_read_leaves_one_run() {
    assert_eq!(only_run_of("examples-c/loops/ring_average.c"), "safe");
    assert_eq!(only_run_of("examples-c/loops/ring_average_bug.c"), "error");
}

/// A slot that is read before anything was written to it holds any value: the program has
/// several runs, and the only run must not take the 0 it stores for the slot as its value.
#[test]
fn a_slot_read_before_it_is_written_leaves_several_runs() {
    assert_eq!(only_run_of("examples-c/loops/unfilled_slot_bug.c"), "several runs");
}

/// The blocks of the invariants keep the two ways of a branch apart: `red + blue == 5*ticks`
/// is proved by round 1 with a few dozen checks, where its consecution query over the merged
/// branch ran out of budget (and so did every later round's).
#[test]
fn an_equality_across_a_branch_is_checked_one_way_at_a_time() {
    let path = root().join("examples-c/loops/two_rates.c");
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let budget = subst::smt::DEFAULT_QUERY_BUDGET;
    let attempt = subst::abs::invariant::prove(&comp, budget, &subst::deadline::Deadline::none());
    assert!(attempt.proved, "{:?}", attempt.why_not);
    assert!(attempt.calls <= 40, "{} solver checks", attempt.calls);
}

/// A state machine whose invariant is a bound per state (`phase == 90 -> level <= 2`) with a
/// state that may wait any number of rounds (so k-induction does not help): the value splits
/// of round 2 offer the bounds of a dozen states, where the case splits' octagons of a few
/// atoms filled the candidates first and nothing was proved.
#[test]
fn a_state_machine_is_proved_by_bounds_per_state() {
    let path = root().join("examples-c/loops/relay_phases.c");
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).expect("loads");
    let comp = program.lower("main").expect("lowers");
    let budget = subst::smt::DEFAULT_QUERY_BUDGET;
    let attempt = subst::abs::invariant::prove(&comp, budget, &subst::deadline::Deadline::none());
    assert!(attempt.proved, "{:?}", attempt.why_not);
    assert!(attempt.calls <= 1500, "{} solver checks", attempt.calls);
}
