//! The FSP spec: every model under `specs/` parses, elaborates and has the verdicts its header
//! states; elaborated automata and diagnostics are snapshotted; small inline specs pin down
//! one semantic fact each.
//!
//! Header format (see `specs/README.md`):
//! ```text
//! // check: SYS ORDER holds
//! // check: BROKEN ORDER fails
//! // trace: input send output output
//! ```
//!
//! The checks run through `automata::safety::check`, so a wrong hand-derived verdict or trace in
//! a model fails here; a stated trace must be a shortest violating trace in visible events.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use subst::automata::safety::{self, Safety};
use subst::automata::{Builder, Dla};
use subst::spec::{self, Assembly, PartKind, Spec};

// ---- Helpers -------------------------------------------------------------------------------

fn specs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("specs")
}

fn spec_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(specs_dir())
        .expect("specs/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lts"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Spec {
    spec::load(path).unwrap_or_else(|d| panic!("{}", d.render(false)))
}

fn load_model(name: &str) -> Spec {
    load(&specs_dir().join(name))
}

fn inline(source: &str) -> Spec {
    spec::parse(source, "inline.lts").unwrap_or_else(|d| panic!("{}", d.render(false)))
}

fn inline_error(source: &str) -> String {
    match spec::parse(source, "inline.lts") {
        Ok(_) => panic!("expected an error for:\n{source}"),
        Err(d) => d.message,
    }
}

fn process(spec: &Spec, name: &str) -> Dla {
    spec.process(name).unwrap_or_else(|d| panic!("{}", d.render(false)))
}

fn assembly(spec: &Spec, name: &str) -> Assembly {
    spec.assembly(name).unwrap_or_else(|d| panic!("{}", d.render(false)))
}

/// The events leaving the initial state, sorted.
fn initial_events(d: &Dla) -> Vec<String> {
    let s = d.initial()[0];
    let mut out: Vec<String> = d.state(s).out.iter().map(|t| d.event_name(t.event).to_string()).collect();
    out.sort();
    out.dedup();
    out
}

/// A stated check from a header.
#[derive(Debug)]
struct Check {
    assembly: String,
    property: String,
    holds: bool,
    trace: Option<Vec<String>>,
}

fn parse_checks(text: &str) -> Vec<Check> {
    let mut checks: Vec<Check> = Vec::new();
    for line in text.lines().take_while(|l| l.starts_with("//")) {
        if let Some(rest) = line.strip_prefix("// check:") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [assembly, property, verdict] = words[..] else { panic!("bad check line: {line}") };
            assert!(verdict == "holds" || verdict == "fails", "bad verdict in: {line}");
            checks.push(Check {
                assembly: assembly.into(),
                property: property.into(),
                holds: verdict == "holds",
                trace: None,
            });
        } else if let Some(rest) = line.strip_prefix("// trace:") {
            let last = checks.last_mut().expect("a trace follows a check");
            assert!(!last.holds, "a trace follows a failing check: {line}");
            last.trace = Some(rest.split_whitespace().map(String::from).collect());
        }
    }
    checks
}

fn run_check(a: &Assembly, property: &Dla, extra: Option<&Dla>) -> Safety {
    let mut parts = a.automata();
    parts.extend(extra);
    safety::check(&parts, &|e| a.is_hidden(e), Some(property)).expect("a deterministic property")
}

/// An automaton that performs exactly `trace` over the visible events of `a` and `property`:
/// composed with the assembly, it forces the product along the trace.
fn trace_automaton(a: &Assembly, property: &Dla, trace: &[String]) -> Dla {
    let mut visible: BTreeSet<String> = a.parts.iter().flat_map(|p| p.automaton.alphabet().iter().cloned()).collect();
    visible.retain(|e| !a.is_hidden(e));
    visible.extend(property.alphabet().iter().cloned());
    let mut b = Builder::new();
    for e in &visible {
        b.add_event(e);
    }
    let mut at = b.add_state(&[], true);
    b.set_initial(at);
    for e in trace {
        let next = b.add_state(&[], true);
        b.add_transition(at, e, next);
        at = next;
    }
    b.build()
}

// ---- Every model ---------------------------------------------------------------------------

#[test]
fn every_spec_parses_and_every_process_elaborates() {
    let files = spec_files();
    assert!(files.len() >= 13, "specs/ should hold paper000.lts and a dozen more models");
    for path in &files {
        let spec = load(path);
        for name in spec.processes() {
            process(&spec, &name);
        }
        for name in spec.compositions() {
            let c = spec.c_components(&name).expect("a composition");
            match spec.assembly(&name) {
                Ok(_) => assert!(c.is_empty(), "{}: {name} has C components {c:?}", path.display()),
                Err(d) => {
                    assert!(!c.is_empty(), "{}: {}", path.display(), d.render(false));
                    assert!(d.message.contains("needs its C sources"), "{}", d.message);
                }
            }
        }
    }
}

#[test]
fn every_stated_check_has_the_stated_verdict_and_shortest_trace() {
    let mut n_checks = 0;
    for path in spec_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let checks = parse_checks(&text);
        assert!(!checks.is_empty(), "{}: no `// check:` lines", path.display());
        let spec = load(&path);
        for ck in checks {
            let ctx = format!("{}: {} {}", path.display(), ck.assembly, ck.property);
            assert!(spec.compositions().contains(&ck.assembly), "{ctx}: no such composition");
            assert!(spec.is_property(&ck.property), "{ctx}: not a property");
            if !spec.c_components(&ck.assembly).expect("a composition").is_empty() {
                continue; // C assemblies are checked once C components elaborate.
            }
            n_checks += 1;
            let a = assembly(&spec, &ck.assembly);
            let property = process(&spec, &ck.property);
            match (run_check(&a, &property, None), ck.holds) {
                (Safety::Holds { .. }, true) => {}
                (Safety::Violated { trace, .. }, false) => {
                    let Some(stated) = &ck.trace else { continue };
                    assert_eq!(trace.len(), stated.len(), "{ctx}: the shortest trace is {trace:?}");
                    let forced = trace_automaton(&a, &property, stated);
                    match run_check(&a, &property, Some(&forced)) {
                        Safety::Violated { trace, .. } => assert_eq!(&trace, stated, "{ctx}"),
                        Safety::Holds { .. } => panic!("{ctx}: the stated trace {stated:?} does not violate"),
                    }
                }
                (got, _) => panic!("{ctx}: expected {}, got {got:?}", if ck.holds { "holds" } else { "fails" }),
            }
        }
    }
    assert!(n_checks >= 26, "every model has a correct and a broken check");
}

// ---- Snapshots of elaborated automata ------------------------------------------------------

#[test]
fn paper000_processes_and_composition() {
    let spec = load_model("paper000.lts");
    insta::assert_snapshot!("paper000_input", process(&spec, "INPUT").to_string());
    insta::assert_snapshot!("paper000_output2", process(&spec, "OUTPUT2").to_string());
    insta::assert_snapshot!("paper000_order", process(&spec, "ORDER").to_string());
    insta::assert_snapshot!("paper000_sys", process(&spec, "SYS").to_string());
}

#[test]
fn semaphore_overflow_is_an_error_state() {
    let spec = load_model("mutex.lts");
    insta::assert_snapshot!("mutex_semaphore", process(&spec, "SEMAPHORE").to_string());
}

#[test]
fn swap_stage_keeps_the_bound_values() {
    let spec = load_model("pipeline.lts");
    insta::assert_snapshot!("pipeline_swap", process(&spec, "SWAP").to_string());
}

#[test]
fn pipeline_composite_hides_the_links() {
    let spec = load_model("pipeline.lts");
    insta::assert_snapshot!("pipeline_composite", process(&spec, "PIPELINE").to_string());
}

#[test]
fn property_parts_are_error_automata() {
    let spec = inline(
        "INPUT = (input -> send -> INPUT).\nproperty ORDER = (input -> output -> ORDER).\n||S = (INPUT || ORDER).",
    );
    let a = assembly(&spec, "S");
    assert_eq!(a.parts[1].kind, PartKind::Property);
    insta::assert_snapshot!("order_error_automaton", a.parts[1].automaton.to_string());
}

// ---- Counts of parameterised models --------------------------------------------------------

#[test]
fn buffer_of_two_has_three_states() {
    let d = process(&load_model("buffer.lts"), "BUFFER");
    assert_eq!((d.n_states(), d.n_transitions()), (3, 4));
}

#[test]
fn buffer_argument_sets_the_capacity() {
    let spec = inline(
        "BUFFER(N=2) = C[0], C[i:0..N] = (when (i<N) put -> C[i+1] | when (i>0) get -> C[i-1]).\n||B = BUFFER(5).",
    );
    let d = process(&spec, "B");
    assert_eq!((d.n_states(), d.n_transitions()), (6, 10));
}

#[test]
fn producers_consumers_have_48_states() {
    // Two producers and two consumers with two phases each, times three buffer counts; every
    // combination is reachable. Produce and consume are enabled in half the states each (for
    // each of the two processes), put and get in half the states times two of three counts.
    let d = process(&load_model("buffer.lts"), "PRODCONS");
    assert_eq!((d.n_states(), d.n_transitions()), (48, 2 * 24 + 2 * 24 + 2 * 16 + 2 * 16));
}

#[test]
fn neighbours_property_has_one_state_per_independent_set() {
    // The independent sets of a 5-cycle are 1 + 5 + 5 = 11; every one of the 10 events leads
    // somewhere from each of them (to π when forbidden), and π itself is the twelfth state.
    let d = process(&load_model("philosophers.lts"), "NEIGHBOURS");
    assert_eq!((d.n_states(), d.n_transitions()), (12, 110));
}

#[test]
fn token_ring_has_one_state_per_holder() {
    let d = process(&load_model("token_ring.lts"), "RING");
    assert_eq!((d.n_states(), d.n_transitions()), (3, 6));
}

#[test]
fn semademo_has_one_state_per_critical_phase() {
    // Free: 1 state; otherwise one of 3 processes holds the semaphore in one of 3 phases.
    let d = process(&load_model("mutex.lts"), "SEMADEMO");
    assert_eq!(d.n_states(), 1 + 3 * 3);
}

// ---- Diagnostics ---------------------------------------------------------------------------

fn render_error(name: &str, source: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(format!("{name}.lts"));
    std::fs::write(&path, source).expect("writable");
    let spec = spec::load(&path);
    let d = match spec {
        Err(d) => d,
        Ok(spec) => {
            let names = spec.processes().into_iter().chain(spec.compositions());
            names.filter_map(|n| spec.assembly(&n).err()).next().expect("an elaboration error")
        }
    };
    let prefix = format!("{}/", dir.path().display());
    d.render(false).replace(&prefix, "")
}

#[test]
fn diagnostic_unknown_process() {
    insta::assert_snapshot!(render_error("unknown_process", "P = (a -> b -> Q).\n"));
}

#[test]
fn diagnostic_bad_range() {
    insta::assert_snapshot!(render_error("bad_range", "const N = 2\nrange R = N..0\nP = (a[i:R] -> P).\n"));
}

#[test]
fn diagnostic_undefined_const() {
    insta::assert_snapshot!(render_error("undefined_const", "P[i:0..2] = (when (i < MAX) up -> P[i+1]).\n"));
}

#[test]
fn diagnostic_unbalanced_parens() {
    insta::assert_snapshot!(render_error("unbalanced_parens", "P = (a -> (b -> P | c -> STOP).\n"));
}

#[test]
fn diagnostic_nondeterministic_property() {
    let src = "property SAFE = (open -> close -> SAFE\n               | open -> open -> SAFE).\n";
    insta::assert_snapshot!(render_error("nondeterministic_property", src));
}

#[test]
fn diagnostic_missing_dot() {
    insta::assert_snapshot!(render_error("missing_dot", "P = (a -> P)\nQ = (b -> Q).\n"));
}

#[test]
fn diagnostic_c_component_without_sources() {
    insta::assert_snapshot!(render_error("c_component", "ENV = (send -> ENV).\n||IPC = (writer || ENV).\n"));
}

#[test]
fn diagnostic_wrong_number_of_indices() {
    insta::assert_snapshot!(render_error("arity", "P = (a -> Q[1][2]), Q[i:0..2] = (b -> P).\n"));
}

#[test]
fn diagnostic_unguarded_recursion() {
    insta::assert_snapshot!(render_error("unguarded", "P = Q,\nQ = P.\n"));
}

#[test]
fn diagnostic_composition_containing_itself() {
    insta::assert_snapshot!(render_error("cycle", "P = (a -> P).\n||A = (P || B).\n||B = (A).\n"));
}

#[test]
fn diagnostic_division_by_zero_in_a_guard() {
    insta::assert_snapshot!(render_error("div_zero", "P[i:0..1] = (when (1 / i > 0) a -> P[1]).\n"));
}

#[test]
fn unterminated_comment_is_reported() {
    assert_eq!(inline_error("P = (a -> P). /* open"), "unterminated comment");
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for src in [
        "||",
        "P = (",
        "P = (a ->",
        "const",
        "range R = 0..",
        "P = (a -> P)/{",
        "||S = (P ||",
        "set S = {a,",
        "&&&",
        "P[",
        "prop X = c: (a",
    ] {
        assert!(spec::parse(src, "inline.lts").is_err(), "{src}");
    }
}

#[test]
fn truncated_models_never_panic() {
    let text = std::fs::read_to_string(specs_dir().join("readers_writers.lts")).expect("readable");
    for (i, _) in text.char_indices().step_by(7) {
        if let Ok(spec) = spec::parse(&text[..i], "inline.lts") {
            for n in spec.processes().into_iter().chain(spec.compositions()) {
                if let Err(d) = spec.assembly(&n) {
                    assert!(!d.message.contains("internal error"), "{}", d.message);
                }
            }
        }
    }
}

// ---- Semantics, one fact each --------------------------------------------------------------

#[test]
fn indexed_action_is_a_dotted_event() {
    let d = process(&inline("P = (a[3] -> b.c[1][2] -> STOP)."), "P");
    assert_eq!(d.alphabet(), ["a.3", "b.c.1.2"]);
}

#[test]
fn bound_index_is_a_choice_over_the_range() {
    let d = process(&inline("range R = 0..2\nP = (in[x:R] -> out[x] -> P)."), "P");
    assert_eq!(initial_events(&d), ["in.0", "in.1", "in.2"]);
    assert_eq!(d.n_states(), 4);
}

#[test]
fn a_bound_value_unused_later_does_not_split_states() {
    let d = process(&inline("P = (in[x:0..9] -> done -> P)."), "P");
    assert_eq!(d.n_states(), 2);
}

#[test]
fn action_set_prefix_is_a_choice() {
    let d = process(&inline("set S = {a, b}\nP = ({x, y.z} -> S -> P)."), "P");
    assert_eq!(initial_events(&d), ["x", "y.z"]);
    assert_eq!(d.alphabet(), ["a", "b", "x", "y.z"]);
}

#[test]
fn guards_select_branches() {
    let d = process(&inline("P = C[0], C[i:0..2] = (when (i < 2) inc -> C[i+1] | when (i > 0) dec -> C[i-1])."), "P");
    assert_eq!((d.n_states(), d.n_transitions()), (3, 4));
}

#[test]
fn out_of_range_index_is_error() {
    let d = process(&inline("P = C[0], C[i:0..1] = (inc -> C[i+1])."), "P");
    let errors = d.states().iter().filter(|s| s.kind == subst::automata::dla::Kind::Error).count();
    assert_eq!((d.n_states(), errors), (3, 1));
}

#[test]
fn stop_is_a_deadlock_and_error_is_pi() {
    use subst::automata::dla::Kind;
    let d = process(&inline("P = (a -> STOP | b -> ERROR)."), "P");
    let errors = d.states().iter().filter(|s| s.kind == Kind::Error).count();
    let deadlocks = d.states().iter().filter(|s| s.kind != Kind::Error && s.out.is_empty()).count();
    assert_eq!((d.n_states(), errors, deadlocks), (3, 1, 1));
}

#[test]
fn if_then_else_chooses_the_process() {
    let d = process(&inline("P(T=1) = if (T) then (a -> STOP) else (b -> STOP)."), "P");
    assert_eq!(initial_events(&d), ["a"]);
}

#[test]
fn multiple_indices_make_a_grid() {
    let src = "P = Q[0][0], Q[i:0..1][j:0..2] = (when (i < 1) x -> Q[i+1][j] | when (j < 2) y -> Q[i][j+1]).";
    let d = process(&inline(src), "P");
    assert_eq!((d.n_states(), d.n_transitions()), (6, 7));
}

#[test]
fn alphabet_extension_adds_events_without_transitions() {
    let d = process(&inline("P = (a -> P) + {b, c}."), "P");
    assert_eq!(d.alphabet(), ["a", "b", "c"]);
    assert_eq!(d.n_transitions(), 1);
}

#[test]
fn hiding_a_prefix_hides_its_extensions() {
    let d = process(&inline("P = (a.x -> a.y -> b -> P) \\ {a}."), "P");
    assert_eq!(d.alphabet(), ["b"]);
    assert!(d.has_tau());
}

#[test]
fn interface_hides_everything_else() {
    let d = process(&inline("P = (a -> b -> c.d -> P) @ {a, c}."), "P");
    assert_eq!(d.alphabet(), ["a", "c.d"]);
}

#[test]
fn relabelling_renames_prefixes() {
    let d = process(&inline("P = (req.1 -> req.2 -> done -> P) / {call/req, finish/done}."), "P");
    assert_eq!(d.alphabet(), ["call.1", "call.2", "finish"]);
}

#[test]
fn relabelling_with_a_bound_index() {
    let d = process(&inline("P = (out[0] -> out[1] -> P) / {link[i:0..1]/out[i]}."), "P");
    assert_eq!(d.alphabet(), ["link.0", "link.1"]);
}

#[test]
fn relabelling_to_a_set_duplicates_transitions() {
    let d = process(&inline("P = (a -> P) / {{x, y}/a}."), "P");
    assert_eq!(initial_events(&d), ["x", "y"]);
}

#[test]
fn process_labelling_prefixes_every_event() {
    let a = assembly(&inline("P = (a -> b -> P).\n||S = (left:P || right:P)."), "S");
    assert_eq!(a.parts[0].automaton.alphabet(), ["left.a", "left.b"]);
    assert_eq!(a.parts[1].name, "right:P");
}

#[test]
fn labelling_with_a_range_makes_instances() {
    let a = assembly(&inline("P = (a -> P).\n||S = (p[1..3]:P)."), "S");
    let names: Vec<&str> = a.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["p.1:P", "p.2:P", "p.3:P"]);
}

#[test]
fn sharing_gives_each_event_every_prefix() {
    let a = assembly(&inline("R = (get -> put -> R).\n||S = ({a, b}::R)."), "S");
    assert_eq!(a.parts[0].automaton.alphabet(), ["a.get", "a.put", "b.get", "b.put"]);
}

#[test]
fn forall_repeats_its_item() {
    let a = assembly(&inline("P[i:0..3] = (tick[i] -> P[i]).\n||S = (forall [i:0..3] P[i])."), "S");
    assert_eq!(a.parts.len(), 4);
    assert_eq!(a.parts[2].automaton.alphabet(), ["tick.2"]);
}

#[test]
fn composite_relabelling_connects_the_parts() {
    // Magee & Kramer's CLIENT_SERVER: the relabelling applies before composing, so call and
    // reply synchronise and the composite has four states.
    let src = "CLIENT = (call -> wait -> continue -> CLIENT).\nSERVER = (request -> service -> reply -> SERVER).\n\
               ||CLIENT_SERVER = (CLIENT || SERVER)/{call/request, reply/wait}.";
    let d = process(&inline(src), "CLIENT_SERVER");
    assert_eq!((d.n_states(), d.n_transitions()), (4, 4));
}

#[test]
fn composite_hiding_applies_after_composing() {
    let spec = inline("P = (a -> b -> P).\nQ = (b -> c -> Q).\n||S = (P || Q) \\ {b}.");
    let a = assembly(&spec, "S");
    assert!(a.is_hidden("b") && !a.is_hidden("a"));
    assert_eq!(a.parts[0].automaton.alphabet(), ["a", "b"]);
    assert_eq!(process(&spec, "S").alphabet(), ["a", "c"]);
}

#[test]
fn nested_composition_without_hiding_is_flattened() {
    let spec = inline("P = (a -> P).\nQ = (b -> Q).\n||PQ = (P || Q).\n||S = (x:PQ || R).\nR = (c -> R).");
    let names: Vec<String> = assembly(&spec, "S").parts.into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["x:P", "x:Q", "R"]);
}

#[test]
fn nested_composition_with_hiding_is_one_part() {
    let spec = inline("P = (a -> b -> P).\n||H = (P) \\ {b}.\n||S = (H || Q).\nQ = (a -> Q).");
    let a = assembly(&spec, "S");
    assert_eq!(a.parts[0].kind, PartKind::Composite);
    assert_eq!(a.parts[0].automaton.alphabet(), ["a"]);
}

#[test]
fn parameters_take_arguments_in_compositions() {
    let spec = inline("P(N=1) = (a[N] -> P).\n||S(M=2) = (P(M) || P(M + 5)).");
    let a = assembly(&spec, "S");
    assert_eq!(a.parts[1].automaton.alphabet(), ["a.7"]);
    assert_eq!(a.parts[1].name, "P(7)");
}

#[test]
fn local_process_may_share_the_main_name_with_indices() {
    let d = process(&inline("COUNT = COUNT[0], COUNT[i:0..1] = (when (i < 1) inc -> COUNT[i+1])."), "COUNT");
    assert_eq!(d.n_states(), 2);
}

#[test]
fn a_body_may_refer_to_another_process() {
    let d = process(&inline("P = (a -> Q).\nQ = (b -> P)."), "P");
    assert_eq!((d.n_states(), d.alphabet().len()), (2, 2));
}

#[test]
fn property_is_its_safety_lts_when_asked_directly() {
    let spec = inline("property P = (a -> b -> P).");
    assert!(spec.is_property("P"));
    assert_eq!(spec.properties(), ["P"]);
    assert!(!process(&spec, "P").states().iter().any(|s| s.kind == subst::automata::dla::Kind::Error));
}

#[test]
fn property_hidden_into_tau_is_rejected() {
    let spec = inline("property P = (a -> b -> P) \\ {b}.");
    let d = spec.process("P").unwrap_err();
    assert!(d.message.contains("not deterministic"), "{}", d.message);
}

#[test]
fn tau_is_not_an_action_name() {
    let spec = inline("P = (tau -> P).");
    assert!(spec.process("P").unwrap_err().message.contains("reserved"));
}

#[test]
fn comments_of_both_kinds_are_skipped() {
    let d = process(&inline("// a line\nP = /* inline */ (a -> P). /* trailing\n block */"), "P");
    assert_eq!(d.alphabet(), ["a"]);
}

#[test]
fn upper_case_set_name_may_prefix_an_action() {
    let d = process(&inline("set S = {a, b}\nP = (S -> P)."), "P");
    assert_eq!(initial_events(&d), ["a", "b"]);
}

#[test]
fn expressions_follow_c_precedence() {
    let spec = inline("const A = 1 + 2 * 3 - 8 / 4 % 3\nconst B = 1 << 3 >> 1\nconst C = (!(A == 5) || 2 > 3 && 1)\n");
    assert_eq!((spec.constant("A"), spec.constant("B"), spec.constant("C")), (Some(5), Some(4), Some(0)));
}

#[test]
fn a_composition_may_follow_a_constant() {
    let spec = inline("const N = 2\n||S = (P).\nP = (a[N] -> P).");
    assert_eq!(spec.compositions(), ["S"]);
}

#[test]
fn overflow_is_an_error() {
    assert_eq!(inline_error("const N = 9223372036854775807 + 1"), "arithmetic overflow");
}

// ---- C bindings ----------------------------------------------------------------------------

#[test]
fn event_families_and_props_are_kept() {
    let spec = load_model("lock.lts");
    let grant = spec.families().iter().find(|f| f.name == "grant").expect("declared");
    assert_eq!(grant.events(), ["grant.0", "grant.1"]);
    let held = &spec.props()[0];
    assert_eq!((held.name.as_str(), held.component.as_str(), held.expr.as_str()), ("Held", "client", "held != 0"));
    assert_eq!((held.expr_span.line, held.expr_span.col), (24, 22));
}

#[test]
fn c_components_are_names_that_are_not_processes() {
    let spec = load_model("lock.lts");
    assert_eq!(spec.c_components("LOCK").expect("a composition"), ["client", "lock_server"]);
    assert!(spec.c_components("LOCK_MODEL").expect("a composition").is_empty());
}

#[test]
fn prop_expression_keeps_nested_parentheses_and_c_operators() {
    let spec = inline("prop Busy = q: ((count & 3) != 0 && flags[1] == 'x')\nP = (a -> P).");
    assert_eq!(spec.props()[0].expr, "(count & 3) != 0 && flags[1] == 'x'");
}

#[test]
fn a_label_named_prop_is_not_a_declaration() {
    let spec = inline("R = (a -> R).\n||S = (prop:R).");
    assert_eq!(assembly(&spec, "S").parts[0].automaton.alphabet(), ["prop.a"]);
}
