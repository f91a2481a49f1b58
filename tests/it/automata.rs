//! The automata algebra against brute force on small random automata: languages are compared on
//! every trace up to a length bound, by simulating the automata trace by trace.

use std::collections::BTreeSet;

use proptest::prelude::*;
use subst::automata::compose::compose;
use subst::automata::determinize::determinize;
use subst::automata::dla::{Builder, Dla, StateId, Trace};
use subst::automata::inclusion::{self, Inclusion};
use subst::automata::minimize::minimize;
use subst::automata::safety::{self, Safety};

const EVENTS: [&str; 3] = ["a", "b", "c"];
const BOUND: usize = 5;

/// A random automaton: states with an optional proposition `p` and an accepting flag, some
/// transitions (τ among them when `tau`), one or two initial states.
#[derive(Clone, Debug)]
struct Shape {
    states: Vec<(bool, bool)>,
    trans: Vec<(usize, usize, usize)>,
    init: Vec<usize>,
}

fn shape(max_states: usize, tau: bool, labels: bool, all_accepting: bool) -> impl Strategy<Value = Shape> {
    let n_events: usize = if tau { 4 } else { 3 };
    (1..=max_states).prop_flat_map(move |n| {
        (
            proptest::collection::vec((any::<bool>(), any::<bool>()), n),
            proptest::collection::vec((0..n, 0..n_events, 0..n), 0..3 * n),
            proptest::collection::vec(0..n, 1..=2),
        )
            .prop_map(move |(states, trans, init)| Shape {
                states: states.into_iter().map(|(l, a)| (l && labels, a || all_accepting)).collect(),
                trans,
                init,
            })
    })
}

fn build(s: &Shape, alphabet: &[&str]) -> Dla {
    let mut b = Builder::new();
    for e in alphabet {
        b.add_event(e);
    }
    let ids: Vec<_> = s.states.iter().map(|&(p, acc)| b.add_state(if p { &["p"] } else { &[] }, acc)).collect();
    for &(from, e, to) in &s.trans {
        let name = if e == 3 { "tau" } else { EVENTS[e] };
        if name == "tau" || alphabet.contains(&name) {
            b.add_transition(ids[from], name, ids[to]);
        }
    }
    for &i in &s.init {
        b.set_initial(ids[i]);
    }
    b.build()
}

/// [`build`], with an error state that the steps `errors` (from a state, on an event of
/// `events`) lead to.
fn with_errors(s: &Shape, events: &[&str], errors: &[(usize, usize)]) -> Dla {
    let mut b = Builder::new();
    for e in events {
        b.add_event(e);
    }
    let ids: Vec<_> = s.states.iter().map(|&(p, acc)| b.add_state(if p { &["p"] } else { &[] }, acc)).collect();
    let err = b.add_error_state();
    for &(from, e, to) in &s.trans {
        let name = if e == 3 { "tau" } else { EVENTS[e] };
        if name == "tau" || events.contains(&name) {
            b.add_transition(ids[from], name, ids[to]);
        }
    }
    for &(from, e) in errors {
        if from < ids.len() && events.contains(&EVENTS[e]) {
            b.add_transition(ids[from], EVENTS[e], err);
        }
    }
    for &i in &s.init {
        b.set_initial(ids[i]);
    }
    b.build()
}

/// Every trace over `events` (and the labels {} and {p} when `labels`), up to `BOUND` steps.
fn all_traces(events: &[&str], labels: bool) -> Vec<Trace> {
    let label_options = label_options(labels);
    let mut out: Vec<Trace> = label_options.iter().map(|l| Trace { start: l.clone(), steps: vec![] }).collect();
    let mut frontier = out.clone();
    for _ in 0..BOUND {
        let mut next = Vec::new();
        for t in &frontier {
            for e in events {
                for l in &label_options {
                    let mut u = t.clone();
                    u.steps.push((e.to_string(), l.clone()));
                    next.push(u);
                }
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

fn label_options(labels: bool) -> Vec<Vec<String>> {
    if labels { vec![vec![], vec!["p".into()]] } else { vec![vec![]] }
}

/// The accepted traces up to `BOUND` steps, by simulating sets of states down the tree of
/// traces (a branch ends when no state is left).
fn language(d: &Dla, labels: bool) -> BTreeSet<String> {
    fn walk(d: &Dla, set: Vec<StateId>, trace: &mut Trace, labels: &[Vec<String>], out: &mut BTreeSet<String>) {
        if set.iter().any(|&s| d.is_accepting(s)) {
            out.insert(trace.to_string());
        }
        if trace.steps.len() == BOUND {
            return;
        }
        for e in EVENTS {
            let Some(ix) = d.event_index(e) else { continue };
            for l in labels {
                let next: Vec<StateId> = set
                    .iter()
                    .flat_map(|&s| d.state(s).out.iter().filter(|t| t.event == ix).map(|t| t.to))
                    .filter(|&t| d.label_of(&d.state(t).label) == *l)
                    .collect();
                if next.is_empty() {
                    continue;
                }
                trace.steps.push((e.to_string(), l.clone()));
                walk(d, d.tau_closure(&next), trace, labels, out);
                trace.steps.pop();
            }
        }
    }
    let options = label_options(labels);
    let mut out = BTreeSet::new();
    for l in &options {
        let start: Vec<StateId> =
            d.initial().iter().copied().filter(|&s| d.label_of(&d.state(s).label) == *l).collect();
        let mut trace = Trace { start: l.clone(), steps: vec![] };
        walk(d, d.tau_closure(&start), &mut trace, &options, &mut out);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn determinised_is_deterministic_and_equivalent(s in shape(5, true, true, false)) {
        let d = build(&s, &EVENTS);
        let det = determinize(&d);
        prop_assert!(det.is_deterministic());
        prop_assert_eq!(language(&d, true), language(&det, true));
    }

    #[test]
    fn minimised_is_equivalent_and_no_larger(s in shape(5, true, true, false)) {
        let d = build(&s, &EVENTS);
        let min = minimize(&d);
        prop_assert_eq!(language(&d, true), language(&min, true));
        prop_assert!(min.n_states() <= determinize(&d).n_states());
        prop_assert_eq!(minimize(&min).n_states(), min.n_states());
    }

    #[test]
    fn composition_is_the_interleaving_definition(
        s1 in shape(4, false, false, true),
        s2 in shape(4, false, false, true),
    ) {
        // Prefix-closed LTSs over {a, b} and {b, c}: they synchronise on b.
        let d1 = build(&s1, &["a", "b"]);
        let d2 = build(&s2, &["b", "c"]);
        let product = compose(&[&d1, &d2]);
        for t in all_traces(&EVENTS, false) {
            let project = |keep: &[&str]| {
                let events: Vec<&str> = t.events().into_iter().filter(|e| keep.contains(e)).collect();
                Trace::of_events(&events)
            };
            let expected = d1.accepts(&project(&["a", "b"])) && d2.accepts(&project(&["b", "c"]));
            prop_assert_eq!(product.accepts(&t), expected, "trace {}", t);
        }
    }

    #[test]
    fn inclusion_agrees_with_brute_force(s1 in shape(4, true, true, false), s2 in shape(4, true, true, false)) {
        let a = build(&s1, &EVENTS);
        let b = build(&s2, &EVENTS);
        let (la, lb) = (language(&a, true), language(&b, true));
        let difference: Vec<&String> = la.difference(&lb).collect();
        match inclusion::check(&a, &b) {
            Inclusion::Included { .. } => prop_assert!(difference.is_empty(), "missed {}", difference[0]),
            Inclusion::NotIncluded { trace, .. } => {
                prop_assert!(a.accepts(&trace) && !b.accepts(&trace), "bad counterexample {}", trace);
                // Trace text has one word per event plus one per label.
                let words = |t: &str| t.split(' ').filter(|w| !w.starts_with('[') && *w != "<empty>").count();
                if let Some(shortest) = difference.iter().map(|t| words(t)).min() {
                    prop_assert_eq!(trace.steps.len(), shortest);
                }
            }
        }
    }

    #[test]
    fn safety_counterexamples_are_real_and_shortest(m in shape(4, true, false, true), p in shape(3, false, false, true)) {
        let m = build(&m, &EVENTS);
        // A deterministic property over {a, b}: keep the first transition per (state, event).
        let mut seen = BTreeSet::new();
        let det = Shape {
            trans: p.trans.iter().copied().filter(|&(f, e, _)| e < 2 && seen.insert((f, e))).collect(),
            init: vec![p.init[0]],
            ..p
        };
        let prop = build(&det, &["a", "b"]);
        let violates = |t: &Trace| {
            let seen: Vec<&str> = t.events().into_iter().filter(|e| *e != "c").collect();
            m.accepts(t) && !prop.accepts(&Trace::of_events(&seen))
        };
        let traces = all_traces(&EVENTS, false);
        let shortest = traces.iter().filter(|t| violates(t)).map(|t| t.steps.len()).min();
        match safety::check(&[&m], &|_| false, Some(&prop)).expect("the property is deterministic") {
            Safety::Holds { .. } => prop_assert!(shortest.is_none()),
            Safety::Violated { trace, .. } => {
                let names: Vec<&str> = trace.iter().map(String::as_str).collect();
                let t = Trace::of_events(&names);
                prop_assert!(violates(&t), "not a violation: {}", t);
                if let Some(n) = shortest {
                    prop_assert_eq!(trace.len(), n);
                }
            }
        }
    }

    #[test]
    fn error_reachable_gives_the_verdict_of_the_search(
        m in shape(5, true, true, false),
        n in shape(4, true, false, true),
        p in shape(3, false, false, true),
        errors in proptest::collection::vec((0usize..5, 0usize..3), 0..3),
        with_property in any::<bool>(),
    ) {
        // Two parts that synchronise on `a`, each with τ steps and (the first) error states
        // reached by some steps, against a deterministic property over {a, b} or none.
        let m = with_errors(&m, &EVENTS, &errors);
        let n = build(&n, &["a", "c"]);
        let mut seen = BTreeSet::new();
        let det = Shape {
            trans: p.trans.iter().copied().filter(|&(f, e, _)| e < 2 && seen.insert((f, e))).collect(),
            init: vec![p.init[0]],
            ..p
        };
        let prop = build(&det, &["a", "b"]);
        let prop = with_property.then_some(&prop);
        let p_err = prop.map(|p| safety::error_automaton(p).expect("the property is deterministic"));
        let search = safety::check(&[&m, &n], &|_| false, prop).expect("the property is deterministic");
        prop_assert_eq!(
            safety::error_reachable(&[&m, &n], p_err.as_ref()),
            Some(matches!(search, Safety::Violated { .. }))
        );
    }

    #[test]
    fn a_search_in_steps_gives_the_answer_of_one_search(
        m in shape(5, true, false, true),
        n in shape(4, true, false, true),
        p in shape(3, false, false, true),
        steps in proptest::collection::vec(0usize..6, 1..4),
    ) {
        let (m, n) = (build(&m, &EVENTS), build(&n, &["a", "c"]));
        let mut seen = BTreeSet::new();
        let det = Shape {
            trans: p.trans.iter().copied().filter(|&(f, e, _)| e < 2 && seen.insert((f, e))).collect(),
            init: vec![p.init[0]],
            ..p
        };
        let prop = build(&det, &["a", "b"]);
        let whole = safety::check(&[&m, &n], &|_| false, Some(&prop)).expect("the property is deterministic");
        let mut search = safety::Search::new(&[&m, &n], &|_| false, Some(&prop)).expect("the property is deterministic");
        let mut bound = 0;
        for step in steps {
            bound += step;
            let answer = search.run(bound);
            prop_assert_eq!(&answer, &safety::check_bounded(&[&m, &n], &|_| false, Some(&prop), bound).expect("deterministic"));
            if answer.is_none() {
                prop_assert_eq!(search.explored(), bound.max(1));
            }
        }
        prop_assert_eq!(search.run(usize::MAX), Some(whole));
    }
}
