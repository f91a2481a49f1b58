//! Robustness: inputs built to break the tool end in a located message (exit 2) or an honest
//! verdict, never in a crash. The deep inputs are generated here, not committed as large files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use subst::front::{self, FrontOptions};

fn subst(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_subst")).args(args).arg(file).output().expect("the binary runs")
}

/// Writes `text` as `name` in a fresh folder (kept alive by the returned guard).
fn source(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// `main` with `expr` assigned to `x`.
fn c_main(expr: &str) -> String {
    format!("int main(void) {{\n  int x = 1;\n  x = {expr};\n  return x;\n}}\n")
}

/// Asserts that `show ir` rejects `text` with exit 2, a message that names the file and line
/// 3 (where every generated expression sits), and says the input nests too deeply.
fn assert_too_deep(text: &str) {
    let (_dir, path) = source("deep.c", text);
    let out = subst(&["show", "ir"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.contains(&format!("{}:", path.display())), "{stderr}");
    assert!(stderr.contains("nested too deeply"), "{stderr}");
    assert!(stderr.len() < 4000, "the message is short: {} bytes", stderr.len());
}

#[test]
fn three_thousand_nested_parentheses_exit_2_with_a_location() {
    assert_too_deep(&c_main(&format!("{}1{}", "(".repeat(3000), ")".repeat(3000))));
}

#[test]
fn a_flat_chain_of_8000_sums_exits_2_with_a_location() {
    assert_too_deep(&c_main(&vec!["x"; 8000].join(" + ")));
}

#[test]
fn six_thousand_nested_casts_exit_2_with_a_location() {
    assert_too_deep(&c_main(&format!("{}x", "(int)".repeat(6000))));
}

#[test]
fn nested_conditionals_exit_2_with_a_location() {
    assert_too_deep(&c_main(&format!("{}0", "x ? 1 : ".repeat(3000))));
    assert_too_deep(&c_main(&format!("{}1{}", "(x ? ".repeat(3000), " : 0)".repeat(3000))));
}

#[test]
fn a_long_else_if_chain_exits_2_with_a_location() {
    let chain = "if (x == 1) x = 2; else ".repeat(3000);
    assert_too_deep(&format!("int main(void) {{\n  int x = 1;\n  {chain} x = 0;\n  return x;\n}}\n"));
}

#[test]
fn a_small_file_of_doubling_macros_exits_2_with_a_location() {
    let text = "#define A(x) x+x\n#define B(x) A(A(A(A(x))))\n#define C(x) B(B(B(B(x))))\nint main(void) {\n  int x = 1;\n  x = C(x);\n  return x;\n}\n";
    assert!(text.len() < 180);
    assert_too_deep(text);
}

#[test]
fn nesting_below_the_limits_is_verified() {
    let deep = [
        vec!["x"; 1400].join(" + "),
        format!("{}x", "(int)".repeat(900)),
        format!("{}0", "x ? 1 : ".repeat(900)),
        format!("{}x{}", "(x + ".repeat(900), ")".repeat(900)),
    ];
    for expr in deep {
        let text = format!(
            "void reach_error(void);\nint __VERIFIER_nondet_int(void);\nint main(void) {{\n  int x = __VERIFIER_nondet_int();\n  x = {expr};\n  if (x == 3) reach_error();\n  return x;\n}}\n"
        );
        let (_dir, path) = source("ok.c", &text);
        let out = subst(&["verify"], &path);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}: {}", &expr[..30], String::from_utf8_lossy(&out.stderr));
    }
}

/// A chain of 5,000 functions, each calling the next: lowering inlines every call, one level
/// of recursion in the lowerer per call, so past its bound the input is refused at the call
/// that goes too deep, not run off the end of the stack.
#[test]
fn calls_nested_5000_deep_exit_2_with_a_location() {
    let n = 5000;
    let mut text = String::from("extern void reach_error(void);\nint f0(int x) { return x; }\n");
    for i in 1..n {
        text.push_str(&format!("int f{i}(int x) {{ return f{}(x) + 1; }}\n", i - 1));
    }
    text.push_str(&format!("int main(void) {{ if (f{}(0) != {}) reach_error(); return 0; }}\n", n - 1, n - 1));
    let (_dir, path) = source("chain.c", &text);
    let out = subst(&["show", "ir"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.contains("calls nested more than 4096 deep"), "{stderr}");
    assert!(stderr.contains(&format!("{}:", path.display())), "{stderr}");
}

#[test]
fn a_diagnostic_on_a_100000_character_line_is_short() {
    let text = format!("int main(void) {{ int x = 0; {} x = ; return x; }}\n", "x = x + 1; ".repeat(10_000));
    let (_dir, path) = source("long.c", &text);
    let out = subst(&["show", "ir"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("syntax error") && stderr.contains(":1:"), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes", stderr.len());
}

#[test]
fn a_syntax_error_without_a_spec_does_not_blame_the_missing_spec() {
    // Reading and parsing do not use the spec, so "no spec found" would send the user the wrong
    // way; it belongs to errors of the components and their events.
    let (dir, path) = source("cut.c", "int main(void) { int x; x = 1 /");
    std::fs::write(dir.path().join("ok.c"), "int main(void) { return 0; }\n").unwrap();
    for args in [vec!["verify"], vec!["check"], vec!["show", "ir"]] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_subst"));
        cmd.args(&args);
        if args[0] == "check" {
            cmd.arg(dir.path().join("ok.c"));
        }
        let out = cmd.arg(&path).output().expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("syntax error") && stderr.contains("cut.c:1:"), "{args:?}: {stderr}");
        assert!(!stderr.contains("spec"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_syntax_error_at_the_end_of_a_file_cut_short_shows_its_last_line() {
    let (_dir, path) = source("cut.c", "int main(void) { int x; x = 1 /");
    let out = subst(&["verify"], &path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cut.c:1:32: syntax error"), "{stderr}");
    assert!(stderr.contains(" 1 │ int main(void) { int x; x = 1 /"), "{stderr}");
    assert!(stderr.contains("unexpected token here"), "{stderr}");
}

#[test]
fn deep_specs_exit_2_with_a_location() {
    for text in [
        format!("const N = {}1{}\nP = (a -> STOP).\n", "(".repeat(100_000), ")".repeat(100_000)),
        format!("const N = {}1\nP = (a -> STOP).\n", "- ".repeat(100_000)),
        format!("const N = {}\nP = (a -> STOP).\n", vec!["1"; 100_000].join(" + ")),
    ] {
        let (_dir, path) = source("deep.lts", &text);
        let out = Command::new(env!("CARGO_BIN_EXE_subst")).args(["show", "lts"]).arg(&path).arg("P").output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("nested too deeply") && stderr.contains("deep.lts:1:"), "{stderr}");
    }
}

#[test]
fn deep_ir_text_is_a_parse_error() {
    let expr = format!("{}x{}", "-(".repeat(10_000), ")".repeat(10_000));
    let text = format!("component c\n  global x: i32 = 0\n  entry l0\n  exit l1\n  l0 -> l1: x = {expr}\n");
    // As in the binary, on a thread with a large stack: the parser recurses up to its limit.
    let err = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || subst::ir::parse::component(&text).map(|_| ()))
        .unwrap()
        .join()
        .unwrap()
        .unwrap_err();
    assert!(err.message.contains("nested more than"), "{err}");
}

/// Old and new versions of a component whose containment check takes long: a 64-bit counter
/// in two words, which explicit exploration and abstraction both struggle with.
const SLOW_OLD: &str = "void tick(void);\nvoid tock(void);\nunsigned a, b;\nvoid comp(void) {\n  while (1) {\n    a = a + 1;\n    if (a == 0) b = b + 1;\n    if (a * 7 + b == 123456789u) tock();\n    tick();\n  }\n}\n";

/// A property that the slow component breaks only after about 10^8 iterations: `tock` never
/// happens.
const SLOW_SPEC: &str = "property NO_TOCK = (tick -> NO_TOCK) + {tock}.\n||SYS = (comp).\n";

/// Runs the binary with `args` (ending in `--timeout 2`) in `dir`, and asserts that it ends
/// unknown because of the time limit, in time. A deadline check, not a speed goal: the bound
/// (the limit + 20 s) holds on a machine under heavy load, and is still far below what the
/// slow pair needs without a limit; `benches/timeout.sh` measures the overrun itself.
fn assert_stops_at_the_time_limit(dir: &Path, args: &[&str]) {
    assert_eq!(args[args.len() - 2..], ["--timeout", "2"]);
    let start = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_subst")).current_dir(dir).args(args).output().unwrap();
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{args:?}: {stdout}");
    assert!(stdout.contains("the time limit of 2 s was reached"), "{args:?}: {stdout}");
    assert!(took < std::time::Duration::from_secs(2 + 20), "{args:?} took {took:?}");
}

/// A folder with the slow pair as `old.c` and `new.c` and a spec for it, `s.lts`.
fn slow_pair() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.c"), SLOW_OLD).unwrap();
    std::fs::write(dir.path().join("new.c"), SLOW_OLD.replace("123456789u", "123456788u")).unwrap();
    std::fs::write(dir.path().join("s.lts"), SLOW_SPEC).unwrap();
    dir
}

#[test]
fn timeout_holds_on_a_long_containment() {
    let dir = slow_pair();
    assert_stops_at_the_time_limit(dir.path(), &["check", "--no-cache", "old.c", "new.c", "--timeout", "2"]);
}

#[test]
fn timeout_holds_on_a_long_compatibility_check() {
    let dir = slow_pair();
    let args = ["check", "--no-cache", "--skip-containment", "old.c", "new.c", "--spec", "s.lts", "--timeout", "2"];
    assert_stops_at_the_time_limit(dir.path(), &args);
}

#[test]
fn timeout_holds_on_a_long_verify() {
    let dir = slow_pair();
    assert_stops_at_the_time_limit(dir.path(), &["verify", "--no-cache", "new.c", "--spec", "s.lts", "--timeout", "2"]);
    // The same counter as a plain program whose error is about 10^8 iterations deep.
    let program = SLOW_OLD.replace("void comp(void)", "int main(void)").replace("tock();", "reach_error();");
    std::fs::write(dir.path().join("deep.c"), program.replace("void tick(void);", "void reach_error(void);")).unwrap();
    assert_stops_at_the_time_limit(dir.path(), &["verify", "deep.c", "--timeout", "2"]);
}

/// A token ring of `n` nodes (`benches/dynamic_ring.lts`), version `v`: learning assumptions
/// for it takes tens of seconds at `n = 50` (27 s for `verify --engine ag` on a loaded 2-core
/// machine), all of it in the learner and its membership queries, with no SMT query or
/// abstraction that would look at the clock.
fn ring(n: usize, v: usize) -> String {
    format!(
        "const N = {n}\nconst K = 2\nconst V = {v}\n\
         NODE(T=0, I=0) = if (T) then HOLDING else WAITING,\n\
         WAITING = (token.in -> HOLDING),\n\
         HOLDING = (when (I != K || V == 1) critical -> HOLDING\n\
         | when (I == K && V == 2) critical -> DONE\n\
         | token.out -> WAITING),\n\
         DONE = (token.out -> WAITING).\n\
         property ONE_TOKEN = HOLDER[0],\n\
         HOLDER[i:0..N-1] = (node[i].critical -> HOLDER[i] | pass[i] -> HOLDER[(i + 1) % N]).\n\
         ||RING = (node[0]:NODE(1, 0) || forall [i:1..N-1] node[i]:NODE(0, i))\n\
         /{{pass[i:0..N-1]/node[i].token.out, pass[j:0..N-1]/node[(j + 1) % N].token.in}}.\n"
    )
}

/// A folder with the ring of 100 nodes, old (`old.lts`) and upgraded (`new.lts`): verifying
/// the upgraded one takes over 20 s in a release build (50 nodes took 1.7 s after DynamicCheck
/// got faster, too close to the tests' 2 s limit).
fn big_ring() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.lts"), ring(100, 1)).unwrap();
    std::fs::write(dir.path().join("new.lts"), ring(100, 2)).unwrap();
    dir
}

#[test]
fn timeout_holds_while_learning_the_assumptions_of_a_model() {
    let dir = big_ring();
    let args = ["verify", "new.lts", "--engine", "ag", "--probe-states", "0", "--timeout", "2"];
    assert_stops_at_the_time_limit(dir.path(), &args);
}

#[test]
fn timeout_holds_while_adaptive_lsharp_learns_an_upgrade() {
    let dir = big_ring();
    let args = ["check", "old.lts", "new.lts", "--probe-states", "0", "--reuse", "adaptive", "--timeout", "2"];
    assert_stops_at_the_time_limit(dir.path(), &args);
}

#[test]
fn an_undecided_containment_names_the_memory_bound_of_explicit_exploration() {
    // One run of the binary: its reason is the rendering of `Reason::MemoryLimit` with the
    // bound (1 MiB) and what the must-abstraction then ran into (the limit of 3 refinements),
    // so the whole message states the outcome that a run through the library gave (the test
    // ran both, the same containment twice).
    let dir = slow_pair();
    let args = ["check", "--no-cache", "old.c", "new.c", "--explicit-memory", "1", "--max-refinements", "3"];
    let out = Command::new(env!("CARGO_BIN_EXE_subst")).current_dir(dir.path()).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains(
            "reached its memory bound of 1 MiB (--explicit-memory), and the must-abstraction used instead did not \
             decide: the limit of 3 refinements was reached"
        ),
        "{stdout}"
    );
}

/// Runs `subst verify FILE`, pausing the process with SIGSTOP for `pause` after `after`.
fn verify_paused(file: &Path, after: std::time::Duration, pause: std::time::Duration) -> (Option<i32>, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_subst"))
        .arg("verify")
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    std::thread::sleep(after);
    let signal = |s: &str| Command::new("kill").args([s, &pid]).status().map(|st| st.success()).unwrap_or(false);
    if signal("-STOP") {
        std::thread::sleep(pause);
        assert!(signal("-CONT"));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_paused_run_gives_the_same_verdict_as_an_unpaused_one() {
    let file = Path::new("examples-c/svcomp_bits.c");
    let zero = std::time::Duration::ZERO;
    let (code, report) = verify_paused(file, zero, zero);
    assert_eq!(code, Some(1), "svcomp_bits.c fails: {report}");
    for after_ms in [20, 80, 200] {
        let paused = verify_paused(file, std::time::Duration::from_millis(after_ms), std::time::Duration::from_secs(3));
        assert_eq!(paused, (code, report.clone()), "paused after {after_ms} ms");
    }
}

/// Runs the binary with `args` in `dir`; its exit code and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_subst")).current_dir(dir).args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_non_utf8_source_is_located_at_its_first_bad_byte() {
    let (dir, path) = source("latin1.c", "");
    std::fs::write(&path, b"int main(void) {\n  int x = 1; /* caf\xe9 */\n  return x;\n}\n").unwrap();
    let (code, stderr) = run_in(dir.path(), &["show", "ir", "latin1.c"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("latin1.c:2:") && stderr.contains("not UTF-8"), "{stderr}");
    assert!(!stderr.contains("gcc"), "{stderr}");
}

#[test]
fn an_empty_c_file_says_it_defines_no_function() {
    let (dir, _) = source("empty.c", "");
    let (code, stderr) = run_in(dir.path(), &["show", "ir", "empty.c"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("define no function"), "{stderr}");
}

#[test]
fn an_undefined_process_in_a_composition_is_located_in_the_spec() {
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    std::fs::write(dir.path().join("s.lts"), "P = (a -> P).\n||S = (P || NOSUCH).\n").unwrap();
    let (code, stderr) = run_in(dir.path(), &["verify", "w.c", "--spec", "s.lts"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("s.lts:2:13") && stderr.contains("neither a process"), "{stderr}");
}

#[test]
fn a_c_file_given_as_the_spec_is_called_c() {
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    let (code, stderr) = run_in(dir.path(), &["verify", "w.c", "--spec", "w.c"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("w.c is C, not an FSP spec"), "{stderr}");
}

#[test]
fn inputs_beyond_64_bits_and_max_missing_0_are_usage_errors() {
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    let (code, stderr) = run_in(dir.path(), &["show", "run", "w.c", "--inputs", "99999999999999999999"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("does not fit in 64 bits"), "{stderr}");
    let (code, stderr) = run_in(dir.path(), &["check", "w.c", "w.c", "--max-missing", "0"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("0 is not in 1.."), "{stderr}");
}

#[test]
fn a_query_budget_of_0_is_a_usage_error_not_an_unbounded_solver() {
    // Z3 reads an `rlimit` of 0 as no limit: a budget of 0 let one query run for ever.
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    let (code, stderr) = run_in(dir.path(), &["verify", "w.c", "--query-budget", "0"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("0 is not in 1.."), "{stderr}");
}

#[test]
fn preprocessor_options_that_drop_the_line_markers_are_refused() {
    // `-P` left every step of a run at `<unknown>:1`; `--help` and `-dM` print text that is not the
    // file, which was parsed as if it were.
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    for option in ["--cpp=-P", "--cpp=--help", "--cpp=-dM"] {
        let (code, stderr) = run_in(dir.path(), &["verify", "w.c", option]);
        assert_eq!(code, Some(2), "{option}: {stderr}");
        assert!(stderr.contains("w.c is not the file with line markers"), "{option}: {stderr}");
    }
    let (code, stderr) = run_in(dir.path(), &["show", "ir", "w.c", "--cpp=-DN=1"]);
    assert_eq!(code, Some(0), "an option that keeps them is accepted: {stderr}");
}

#[test]
fn timeout_holds_on_a_monolithic_product_too_large_to_explore() {
    // 40 independent two-state parts: 2^40 product states, which the monolithic engine used to
    // explore without looking at the clock until the memory ran out.
    let dir = tempfile::tempdir().unwrap();
    let parts: Vec<String> = (0..40).map(|i| format!("p{i}:P")).collect();
    let spec = format!("P = (a -> b -> P).\n||S = ({}).\n", parts.join(" || "));
    std::fs::write(dir.path().join("big.lts"), spec).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["verify", "big.lts", "--timeout", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("the time limit of 2 s was reached"), "{stdout}");
}

#[test]
fn a_switch_of_20000_cases_on_one_line_is_lowered() {
    // Every span on a line used to cost the length of the line: 20,000 cases on one line (a
    // generated file) took about ten minutes in the front end (4,000 took 27 s), and now take
    // about a second. No time is asserted: without the fix this test would take those minutes;
    // `front::source_map`'s unit tests count the alignments instead.
    let cases: String = (0..20_000).map(|i| format!(" case {i}: x = {i}; break;")).collect();
    let text = format!("int main(void) {{\n  int x = 0;\n  switch (x) {{{cases} }}\n  return x;\n}}\n");
    let (dir, _) = source("cases.c", &text);
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["show", "ir", "cases.c"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let col = text.lines().nth(2).unwrap().find("x = 19999").unwrap() + 1;
    assert!(stdout.contains(&format!("\"cases.c\" 3:{col}-")), "the last case is located");
}

#[test]
fn a_non_utf8_spec_is_located_at_its_first_bad_byte() {
    let (dir, _) = source("w.c", "void writer(void) { while (1) { a(); } }\n");
    std::fs::write(dir.path().join("s.lts"), b"// caf\xe9\nP = (a -> P).\n||S = (writer).\n").unwrap();
    let (code, stderr) = run_in(dir.path(), &["verify", "w.c", "--spec", "s.lts"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("s.lts:1:7") && stderr.contains("not UTF-8"), "{stderr}");
}

#[test]
fn a_property_or_assembly_named_without_a_spec_is_a_usage_error() {
    // Without a spec, `verify` checks `reach_error()`; it used to answer "holds" while ignoring
    // the property named.
    let (dir, _) = source("p.c", "int main(void) { return 0; }\n");
    for flag in ["--prop", "--assembly"] {
        let (code, stderr) = run_in(dir.path(), &["verify", "p.c", flag, "NOPE"]);
        assert_eq!(code, Some(2), "{flag}: {stderr}");
        assert!(
            stderr.contains(&format!("{flag} NOPE names a part of a spec")) && stderr.contains("p.lts"),
            "{stderr}"
        );
    }
}

#[test]
fn a_composition_of_2000_parts_is_ordered_and_verified() {
    // The greedy order of the levels recomputed every interface from every part left: 1,000
    // parts took over a minute before the product's one state was explored (20,000 took hours).
    let (dir, _) = source("many.lts", &format!("P = (a -> P).\n||S = ({}).\n", vec!["P"; 2000].join(" || ")));
    let (code, stderr) = run_in(dir.path(), &["verify", "many.lts"]);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn a_file_scope_enum_constant_beyond_int_is_reported_where_it_is_defined_when_used() {
    let text = "enum E { A = 99999999999 };\nint main(void) {\n  int x = A;\n  return x;\n}\n";
    let (dir, _) = source("e.c", text);
    let (code, stderr) = run_in(dir.path(), &["show", "ir", "e.c"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("e.c:1:10") && stderr.contains("outside the range of int"), "{stderr}");
    assert!(!stderr.contains("not declared"), "{stderr}");
}

#[test]
fn an_unused_file_scope_enum_constant_beyond_int_is_no_error() {
    let text = "enum E { A = 99999999999 };\nint main(void) {\n  int x = 1;\n  return x;\n}\n";
    let (dir, _) = source("e.c", text);
    let (code, stderr) = run_in(dir.path(), &["show", "ir", "e.c"]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// A spec whose composition puts `n` labels `x:` before the process `P`.
fn labelled(n: usize) -> String {
    format!("P = (a -> P).\n||S = ({}P).\n", "x:".repeat(n))
}

#[test]
fn fifty_thousand_labels_on_one_process_exit_2_with_a_location() {
    let (dir, _) = source("deep.lts", &labelled(50_000));
    let (code, stderr) = run_in(dir.path(), &["show", "lts", "deep.lts", "S"]);
    assert_eq!(code, Some(2), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.contains("deep.lts:2:") && stderr.contains("nested too deeply"), "{stderr}");
    assert!(stderr.len() < 4000, "the message is short: {} bytes", stderr.len());
}

#[test]
fn a_hundred_labels_on_one_process_prefix_its_events() {
    let (dir, _) = source("labels.lts", &labelled(100));
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .current_dir(dir.path())
        .args(["show", "lts", "labels.lts", "S"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let event = format!("{}a", "x.".repeat(100));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&event), "{}", String::from_utf8_lossy(&out.stdout));
}

/// Runs `f` on a thread of its own; its result, or a failed test after a minute. A guard, not a
/// speed goal: reading a FIFO waits for a writer for ever, and that wait is what it catches.
fn without_waiting<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(60)).expect("it returned instead of waiting for a writer")
}

/// A FIFO named `name` in `dir`.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(Command::new("mkfifo").arg(&path).status().unwrap().success());
    path
}

#[test]
fn a_fifo_given_as_the_spec_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "s.lts");
    let err = without_waiting(move || subst::spec::load(&path).err()).expect("an error");
    assert!(err.message.contains("s.lts`: it is not a regular file"), "{err}");
}

#[test]
fn a_cache_entry_that_is_a_fifo_is_a_miss_not_a_wait() {
    let dir = tempfile::tempdir().unwrap();
    let key = "0".repeat(64);
    std::fs::create_dir(dir.path().join("contain")).unwrap();
    fifo(&dir.path().join("contain"), &format!("{key}.json"));
    let cache = subst::cache::Cache::with_key(dir.path(), subst::cache::Key::from_secret(b"test"));
    assert!(without_waiting(move || cache.load::<serde_json::Value>("contain", &key)).is_none());
}

#[test]
fn a_line_marker_naming_a_fifo_leaves_the_message_without_an_excerpt() {
    // The renderer reads the file a location names, to show its line; a `#line` can name anything.
    let dir = tempfile::tempdir().unwrap();
    let pipe = fifo(dir.path(), "pipe.c");
    let (_src, path) = source("m.c", &format!("#line 1 \"{}\"\nint main(void) {{ int x = ; }}\n", pipe.display()));
    let message =
        without_waiting(move || front::load(&[path], &FrontOptions::default()).err().map(|d| d.render(false)));
    let message = message.expect("a syntax error");
    assert!(message.starts_with(&format!("error: {}:1:26: syntax error", pipe.display())), "{message}");
}

#[test]
fn a_device_given_as_a_c_file_is_not_called_missing() {
    let err = subst::front::c_files(Path::new("/dev/zero")).unwrap_err();
    assert_eq!(err.message, "/dev/zero is not a regular file or a folder (a FIFO, socket or device is not read)");
}

#[test]
fn a_spec_over_256_mib_is_refused_unread() {
    // A sparse file: its size costs no disk and, refused on its size, no memory.
    let (_dir, path) = source("big.lts", "");
    std::fs::File::options().write(true).open(&path).unwrap().set_len(300 << 20).unwrap();
    let err = subst::spec::load(&path).unwrap_err();
    assert!(err.message.ends_with("big.lts`: it is larger than 256 MiB"), "{err}");
}

#[test]
fn lines_after_the_largest_line_number_stay_at_it_as_in_gcc() {
    // gcc -E repeats `# 4294967295` for every later line; the map added one to it, which wrapped
    // to line 0 (or panicked in a debug build).
    let text = "#line 4294967295\nint main(void) {\n  int x = 1;\n  x = x + 1;\n  return x;\n}\n";
    let (_dir, path) = source("big_line.c", text);
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).unwrap();
    let ir = subst::ir::text::component(&program.lower("main").unwrap());
    assert!(ir.contains("big_line.c\" 4294967295:3-"), "{ir}");
    assert!(!ir.contains("big_line.c\" 0:"), "{ir}");
}

#[test]
fn a_few_lines_of_macros_that_expand_past_16_mib_are_refused_before_parsing() {
    // 60 lines of 100,000 statements each: 18 MB of preprocessed text from a file of 700 bytes.
    // The parser takes about 150 bytes of memory per byte (30 MB ran out of 3 GB).
    let mut text = String::from("#define A0 x = 1;\n");
    for i in 1..=5 {
        text.push_str(&format!("#define A{i} {}\n", vec![format!("A{}", i - 1); 10].join(" ")));
    }
    text.push_str(&format!("int main(void) {{\n  int x = 0;\n{}  return x;\n}}\n", "  A5\n".repeat(60)));
    assert!(text.len() < 1000);
    let (_dir, path) = source("bomb.c", &text);
    let err = front::load(std::slice::from_ref(&path), &FrontOptions::default()).err().expect("refused");
    assert!(err.message.ends_with("bomb.c is longer than 16 MiB, more than subst parses"), "{err}");
}
