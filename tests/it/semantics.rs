//! C semantics facts, one per test: a small C component in, the interpreter's run out.

use subst::front::{self, DataModel, FrontOptions};
use subst::ir::interp::{self, Outcome};

/// Lowers `body` as the body of `void comp(void)` after `decls`, runs it with `inputs`, and
/// returns the events (as text) and how the run ended.
fn run_with(decls: &str, body: &str, inputs: &[i128], model: DataModel) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.c");
    let src =
        format!("void out(long v);\nint in(void);\nint nondet_int(void);\n{decls}\nvoid comp(void) {{\n{body}\n}}\n");
    std::fs::write(&path, src).unwrap();
    let opts = FrontOptions { data_model: model, ..Default::default() };
    let program = front::load(&[path], &opts).map_err(|d| d.render(false)).unwrap();
    let comp = program.lower("comp").map_err(|d| d.render(false)).unwrap();
    let run = interp::run(&comp, &mut interp::Scripted::new(inputs.iter().copied()), interp::Limits::default());
    let events: Vec<String> = run.events.iter().map(|e| e.to_string()).collect();
    (events.join(" "), run.outcome.to_string())
}

fn run(body: &str) -> String {
    run_with("", body, &[], DataModel::Lp64).0
}

fn outcome(body: &str, inputs: &[i128]) -> String {
    run_with("", body, inputs, DataModel::Lp64).1
}

/// The rendered diagnostic for a program that must be rejected.
fn rejection(decls: &str, body: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.c");
    std::fs::write(&path, format!("{decls}\nvoid comp(void) {{\n{body}\n}}\n")).unwrap();
    let err = front::load(&[path], &FrontOptions::default()).and_then(|p| p.lower("comp")).unwrap_err();
    err.to_string()
}

#[test]
fn signed_to_unsigned_comparison_converts_the_signed_side() {
    assert_eq!(run("out(-1 < 0u); out(-1 < 0); out(-1L < 0u);"), "out.0 out.1 out.1");
}

#[test]
fn ilp32_makes_long_and_unsigned_compare_unsigned() {
    let (events, _) = run_with("", "out(-1L < 0u);", &[], DataModel::Ilp32);
    assert_eq!(events, "out.0");
}

#[test]
fn char_and_short_promote_to_int_before_arithmetic() {
    assert_eq!(run("unsigned char a = 200, b = 100; out(a + b); unsigned char c = a + b; out(c);"), "out.300 out.44");
    assert_eq!(run("signed char x = -128; x = -x; out(x); short s = 32767; s++; out(s);"), "out.-128 out.-32768");
}

#[test]
fn signed_overflow_wraps_like_fwrapv() {
    assert_eq!(run("int x = 2147483647; x++; out(x); out(x * 2);"), "out.-2147483648 out.0");
}

#[test]
fn unsigned_arithmetic_wraps() {
    assert_eq!(run("unsigned x = 0; x--; out(x); out(x + 2u);"), "out.4294967295 out.1");
}

#[test]
fn division_truncates_and_remainder_follows_the_dividend() {
    assert_eq!(run("int a = -7; out(a / 2); out(a % 2); out(7 % -2);"), "out.-3 out.-1 out.1");
}

#[test]
fn right_shift_of_negative_is_arithmetic() {
    assert_eq!(run("int a = -16; out(a >> 2); unsigned b = 0x80000000u; out(b >> 31);"), "out.-4 out.1");
}

#[test]
fn bool_conversion_is_not_truncation() {
    assert_eq!(run("_Bool b = 256; out(b); b = 0; b--; out(b);"), "out.1 out.1");
}

#[test]
fn short_circuit_skips_the_right_operand() {
    let body = "int x = 0; if (x && in()) out(1); if (x || in()) out(2);";
    assert_eq!(run_with("", body, &[5], DataModel::Lp64).0, "in.5 out.2");
}

#[test]
fn undefined_behaviour_faults() {
    assert_eq!(outcome("int d = nondet_int(); out(10 / d);", &[0]), "fault(div_by_zero)");
    assert_eq!(outcome("int d = nondet_int(); int m = -2147483647 - 1; out(m / d);", &[-1]), "fault(div_overflow)");
    assert_eq!(outcome("int s = nondet_int(); out(1 << s);", &[32]), "fault(shift_out_of_range)");
    assert_eq!(outcome("int s = nondet_int(); out(1 << s);", &[-1]), "fault(shift_out_of_range)");
    assert_eq!(outcome("int a[4] = {0}; int i = nondet_int(); a[i] = 1;", &[4]), "fault(index_out_of_bounds)");
    assert_eq!(outcome("int a[4] = {0}; int i = nondet_int(); a[i] = 1;", &[-1]), "fault(index_out_of_bounds)");
}

#[test]
fn uninitialised_locals_read_an_input() {
    assert_eq!(run_with("", "int x; out(x);", &[42], DataModel::Lp64).0, "out.42");
}

#[test]
fn globals_start_at_zero_and_arrays_are_zero_filled() {
    assert_eq!(
        run_with("int g; int a[3] = {5};", "out(g); out(a[0]); out(a[2]);", &[], DataModel::Lp64).0,
        "out.0 out.5 out.0"
    );
}

#[test]
fn assume_cuts_the_run() {
    assert_eq!(outcome("int x = nondet_int(); __VERIFIER_assume(x > 0); out(x);", &[0]), "blocked");
}

#[test]
fn abort_ends_the_component() {
    assert_eq!(run_with("void abort(void);", "out(1); abort(); out(2);", &[], DataModel::Lp64).0, "out.1");
}

#[test]
fn callee_sees_its_own_scope_not_the_callers() {
    let decls = "int x = 7; int get(void) { return x; }";
    assert_eq!(run_with(decls, "int x = 1; out(get()); out(x);", &[], DataModel::Lp64).0, "out.7 out.1");
}

#[test]
fn unsequenced_side_effects_are_rejected() {
    assert!(rejection("", "int i = 0; int j = i++ + i++;").contains("evaluation order matters"));
    assert!(rejection("", "int i = 0; i = i++;").contains("evaluation order matters"));
}

/// An assignment whose right side writes the same element or member (or may: an index known
/// only at run time, members of a union) writes one object twice without a sequence point.
#[test]
fn an_assignment_whose_right_side_writes_its_target_is_rejected() {
    let decls = "struct s { int x; int y; int t[2]; }; union u { int a; int b; };";
    for body in [
        "struct s v = {0}; v.x = v.x++;",
        "int a[2] = {0}; a[0] = a[0] = 1;",
        "int a[2] = {0}; int i = 0; a[i] = a[0] = 1;",
        "struct s v = {0}; int i = 0; v.t[i] = v.t[0]++;",
        "union u w; w.a = w.b = 1;",
    ] {
        assert!(rejection(decls, body).contains("evaluation order matters"), "{body}");
    }
}

/// Chained assignments to other elements or members of one variable are sequenced apart:
/// `a[0] = a[1] = 5` writes two objects, as gcc runs it.
#[test]
fn chained_assignments_to_other_elements_and_members_are_accepted() {
    let decls = "struct s { int x; int y; int t[2]; }; struct s g;";
    let body = "int a[3] = {0}; a[0] = a[1] = a[2] = 5; g.x = g.y = 4; struct s l = {0}; l.x = l.t[1] = 2; l.t[0] = l.y = 3; \
                out(a[0] + a[1] + a[2]); out(g.x + g.y); out(l.x + l.t[1]); out(l.t[0] + l.y);";
    assert_eq!(run_with(decls, body, &[], DataModel::Lp64).0, "out.15 out.8 out.4 out.6");
}

#[test]
fn recursion_is_rejected_with_its_location() {
    let msg = rejection("int f(int n) { return n ? f(n - 1) : 0; }", "int r = f(3);");
    assert!(msg.contains("recursion") && msg.contains("t.c:1:"), "{msg}");
}

#[test]
fn runaway_loops_stop_at_the_step_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.c");
    std::fs::write(&path, "void comp(void) { while (1) { } }").unwrap();
    let comp = front::load(&[path], &FrontOptions::default()).unwrap().lower("comp").unwrap();
    let limits = interp::Limits { max_steps: 1000, max_events: 10 };
    let run = interp::run(&comp, &mut interp::Scripted::new([]), limits);
    assert_eq!(run.outcome, Outcome::StepLimit);
}

#[test]
fn a_static_local_is_one_variable_across_inlined_calls() {
    let decls = "int next(void) { static int n; return ++n; }";
    assert_eq!(run_with(decls, "out(next()); out(next()); out(next());", &[], DataModel::Lp64).0, "out.1 out.2 out.3");
}

#[test]
fn an_extern_global_is_the_definition_in_another_file() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.c");
    let b = dir.path().join("b.c");
    std::fs::write(&a, "void out(int v);\nextern int limit;\nvoid comp(void) { out(limit); }\n").unwrap();
    std::fs::write(&b, "int limit = 7;\n").unwrap();
    let program = front::load(&[a.clone(), b], &FrontOptions::default()).unwrap();
    let comp = program.lower("comp").unwrap();
    let run = interp::run(&comp, &mut interp::Scripted::new([]), interp::Limits::default());
    assert_eq!(run.events[0].to_string(), "out.7");
    // Without the defining file, the declaration names nothing.
    let program = front::load(&[a], &FrontOptions::default()).unwrap();
    assert!(program.lower("comp").unwrap_err().message.contains("no file defines it"));
}

/// Lowers `comp` of two files and returns the error's message.
fn rejection_of_two_files(a: &str, b: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let (pa, pb) = (dir.path().join("a.c"), dir.path().join("b.c"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let program = front::load(&[pa, pb], &FrontOptions::default()).unwrap();
    program.lower("comp").map(|_| ()).unwrap_err().message
}

/// Declarations that disagree with the definition in another file are undefined behaviour
/// that gcc links: `extern unsigned char g;` read the low byte of `int g = 511` and `int f(void)`
/// the low half of `long f(void)`'s result, where subst took the definition's type and proved
/// both programs.
#[test]
fn a_declaration_whose_type_differs_from_the_definition_in_another_file_is_rejected() {
    let msg = rejection_of_two_files(
        "void out(int v);\nextern unsigned char g;\nvoid comp(void) { out(g); }\n",
        "int g = 511;\n",
    );
    assert!(msg.contains("declared `extern` with type u8 but defined with type i32"), "{msg}");
    let msg = rejection_of_two_files(
        "void out(int v);\nint f(void);\nvoid comp(void) { out(f()); }\n",
        "long f(void) { return 1; }\n",
    );
    assert!(msg.contains("declared here with another type than its definition"), "{msg}");
    let msg = rejection_of_two_files(
        "void out(int v);\nint f(long x);\nvoid comp(void) { out(f(1)); }\n",
        "int f(int x) { return x; }\n",
    );
    assert!(msg.contains("declared here with another type than its definition"), "{msg}");
}

/// An array declared without its size, array parameters and struct types declared again in the
/// defining file agree with their definitions.
#[test]
fn declarations_that_agree_with_the_definition_in_another_file_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let (pa, pb) = (dir.path().join("a.c"), dir.path().join("b.c"));
    let a = "void out(int v);\nextern int a[];\nstruct p { int x; };\nextern struct p pt;\nint get(int *v, struct p q);\n\
             void comp(void) { out(a[1] + pt.x + get(a, pt)); }\n";
    let b = "int a[3] = {1, 2, 3};\nstruct p { int x; };\nstruct p pt = {4};\nint get(int v[3], struct p q) { return v[0] + q.x; }\n";
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    let comp = front::load(&[pa, pb], &FrontOptions::default()).unwrap().lower("comp").unwrap();
    let run = interp::run(&comp, &mut interp::Scripted::new([]), interp::Limits::default());
    assert_eq!(run.events[0].to_string(), "out.11");
}

#[test]
fn a_write_through_a_pointer_conflicts_with_any_unsequenced_read() {
    let msg = rejection("", "int x = 1; int *p = &x; int y = x + (*p = 3);");
    assert!(msg.contains("evaluation order matters"), "{msg}");
    let msg =
        rejection("int g;\nvoid set(int *p) { *p = 2; }\nint get(void) { set(&g); return 1; }", "int y = g + get();");
    assert!(msg.contains("evaluation order matters"), "{msg}");
}

/// An assignment's store is unsequenced with a write through a pointer on either side, which
/// may be the target: `s.a = p->a++` with `p == &s` was accepted and proved (gcc stores 1).
#[test]
fn an_assignment_with_a_write_through_a_pointer_on_either_side_is_rejected() {
    let decls = "struct s { int a; };";
    for body in [
        "struct s v = {1}; struct s *p = &v; v.a = p->a++;",
        "struct s v = {1}; struct s *p = &v; p->a = v.a++;",
        "int x = 1; int *p = &x; *p = x++;",
        "int x = 1; int *p = &x; x = p[0]++;",
        "int x = 1; int *p = &x; x = (*p = 5) + 1;",
    ] {
        assert!(rejection(decls, body).contains("evaluation order matters"), "{body}");
    }
}

/// A call's writes, through pointers too, are sequenced before the store of its result.
#[test]
fn an_assignment_of_a_call_that_writes_through_a_pointer_is_accepted() {
    let decls = "struct s { int a; }; int bump(struct s *p) { p->a++; return p->a; }";
    assert_eq!(run_with(decls, "struct s v = {1}; v.a = bump(&v); out(v.a);", &[], DataModel::Lp64).0, "out.2");
}

#[test]
fn pointers_read_and_write_the_object_they_point_to() {
    assert_eq!(
        run("int a[3] = {1, 2, 3}; int *p = &a[1]; *p += 10; p++; *p = a[1]; out(a[2]); out(p - a);"),
        "out.12 out.2"
    );
    assert_eq!(
        run_with("", "int x = 1, y = 2; int *p = nondet_int() ? &x : &y; out(*p);", &[0], DataModel::Lp64).0,
        "out.2"
    );
}

#[test]
fn invalid_dereferences_fault() {
    assert_eq!(outcome("int x = 0; int *p = 0; if (nondet_int()) p = &x; out(*p);", &[0]), "fault(invalid_pointer)");
    assert_eq!(outcome("int a[2] = {0}; int *p = a + 2; out(*p);", &[]), "fault(invalid_pointer)");
    // An uninitialised pointer points nowhere: reading through it is undefined.
    assert_eq!(outcome("int x = 0; int *p; if (nondet_int()) p = &x; out(*p);", &[0]), "fault(invalid_pointer)");
}

#[test]
fn structs_copy_member_by_member() {
    let decls =
        "struct pt { int x; int y[2]; };\nstruct pt mk(int v) { struct pt r = { v, { v + 1, v + 2 } }; return r; }";
    assert_eq!(
        run_with(
            decls,
            "struct pt a = mk(1); struct pt b = a; a.y[1] = 9; out(b.y[1]); out(a.y[1]);",
            &[],
            DataModel::Lp64
        )
        .0,
        "out.3 out.9"
    );
}

#[test]
fn a_function_may_return_a_pointer_to_a_known_object() {
    let decls = "int slots[4];\nint *slot(int i) { return &slots[i & 3]; }";
    assert_eq!(
        run_with(decls, "*slot(5) = 7; out(slots[1]); out(*slot(1) + 1);", &[], DataModel::Lp64).0,
        "out.7 out.8"
    );
}

#[test]
fn main_may_take_argc_which_is_positive() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.c");
    std::fs::write(&path, "void out(int v);\nint main(int argc, char *argv[]) {\n  out(argc);\n  return 0;\n}\n")
        .unwrap();
    let comp = front::load(&[path], &FrontOptions::default()).unwrap().lower("main").unwrap();
    let ran = |input: i128| {
        let run = interp::run(&comp, &mut interp::Scripted::new([input]), interp::Limits::default());
        (run.events.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(" "), run.outcome.to_string())
    };
    assert_eq!(ran(3), ("out.3".to_string(), "exit".to_string()));
    assert_eq!(ran(0), (String::new(), "blocked".to_string()));
}

#[test]
fn a_string_literal_is_true_as_a_condition() {
    // The values printed by the same statements compiled by gcc 13 (-O0): 0 0 1 5 1 15.
    let body = r#"
        out(!"x"); out("x" && 0); out(0 || "x"); out("x" ? 5 : 6); out(!!"x");
        int n = 0;
        while ("x") { n++; if (n == 3) break; }
        for (; "y";) { n++; break; }
        do { n++; } while (!"z");
        if ("w") n += 10;
        out(n);
    "#;
    assert_eq!(run(body), "out.0 out.0 out.1 out.5 out.1 out.15");
}

#[test]
fn a_string_literal_outside_a_condition_is_rejected() {
    for body in [r#"int c = "ab"[1];"#, r#"int c = "x" == 0;"#, r#"out(sizeof("abc"));"#, r#""x";"#] {
        assert!(rejection("void out(long v);", body).contains("a string literal"), "{body}");
    }
}

#[test]
fn the_edges_of_an_inlined_body_share_one_stack_of_calls() {
    // A chain of n nested calls (lowering recurses per call: a small n on a test thread): the
    // frames the edges' origins hold are one per call (a copy per edge would be about edges ×
    // depth), the innermost edge is n + 1 calls deep, and the IR text with these stacks reads
    // back to the same component.
    for n in [4, 16, 32] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.c");
        let mut src = format!("void out(int v);\nint f{n}(int x) {{ out(x); return x; }}\n");
        for i in (0..n).rev() {
            src.push_str(&format!("int f{i}(int x) {{ int y = f{}(x) + 1; return y; }}\n", i + 1));
        }
        src.push_str("void comp(void) { out(f0(0)); }\n");
        std::fs::write(&path, src).unwrap();
        let comp = front::load(&[path], &FrontOptions::default()).unwrap().lower("comp").unwrap();
        let stacks: Vec<&subst::ir::CallStack> =
            comp.edges.iter().filter_map(|e| e.origin.as_ref()).map(|o| &o.stack).collect();
        let frames: std::collections::HashSet<*const subst::ir::Frame> =
            stacks.iter().flat_map(|s| s.innermost_first()).map(std::ptr::from_ref).collect();
        assert_eq!(frames.len(), n + 1, "n = {n}");
        assert_eq!(stacks.iter().map(|s| s.len()).max(), Some(n + 1), "n = {n}");
        let again = subst::ir::parse::component(&subst::ir::text::component(&comp)).unwrap();
        assert_eq!(again, comp, "n = {n}");
    }
}
