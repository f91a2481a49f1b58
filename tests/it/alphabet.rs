//! Alphabet refinement (Gheorghiu, Giannakopoulou and Păsăreanu, TACAS 2007) in the recursive
//! assume-guarantee rule: the verdict is the monolithic check's, every counterexample is a real
//! trace of the whole assembly, an alphabet smaller than the interface can prove a property,
//! and a counterexample that is spurious for want of an event adds it.

use proptest::prelude::*;
use subst::automata::Dla;
use subst::automata::compose::compose;
use subst::automata::dla::{Builder, StateId};
use subst::automata::safety::{self, Safety, error_automaton};
use subst::check::ag::{DynamicChecker, InterfaceAlphabet, Outcome};
use subst::check::verify::ordered_parts;
use subst::learn::{Algorithm, CexMode};
use subst::spec;

use crate::common;
use common::traces::reaches_error;

const LEARNERS: [Algorithm; 2] = [Algorithm::LStar, Algorithm::LSharp];

/// A checker that learns over refined alphabets and leaves every verdict to the rule.
fn refining(learner: Algorithm) -> DynamicChecker {
    DynamicChecker::new(CexMode::RivestSchapire)
        .with_algorithm(learner)
        .with_alphabet(InterfaceAlphabet::Refine)
        .with_probe(0)
}

/// The parts of `assembly` in `specs/FILE`, in the order of `verify`, and `property`.
fn model(file: &str, assembly: &str, property: &str) -> (Vec<Dla>, Dla) {
    let path = format!("{}/specs/{file}", env!("CARGO_MANIFEST_DIR"));
    let s = spec::load(std::path::Path::new(&path)).unwrap();
    let a = s.assembly(assembly).unwrap();
    let parts = ordered_parts(&a, &[]).unwrap();
    let property = s.process(property).unwrap().relabel(&|e| if a.is_hidden(e) { vec![] } else { vec![e.to_string()] });
    (parts, property)
}

#[test]
fn an_alphabet_smaller_than_the_interface_proves_the_lock_grants() {
    // GRANTED speaks of grant.1 and release; the interface between the client and the server
    // also has request, which the assumption never needs.
    for learner in LEARNERS {
        let (parts, property) = model("lock.lts", "LOCK_MODEL", "GRANTED");
        let (outcome, stats) = refining(learner).run(&parts, Some(&property));
        assert_eq!(outcome, Outcome::Holds, "{learner}");
        let (alphabet, interface) = stats.alphabet_per_level[0];
        assert!(alphabet < interface, "{learner}: {stats:?}");
        assert_eq!(stats.alphabet_refinements, vec![0], "{learner}");
    }
}

#[test]
fn a_counterexample_spurious_for_want_of_an_event_adds_it() {
    // ORDER speaks of input and output only; the assumption about Output must also say when
    // `send` may happen, which only a refinement finds.
    for learner in LEARNERS {
        let (parts, property) = model("paper000.lts", "SYS", "ORDER");
        let (outcome, stats) = refining(learner).run(&parts, Some(&property));
        assert_eq!(outcome, Outcome::Holds, "{learner}");
        assert!(stats.alphabet_refinements[0] > 0, "{learner}: {stats:?}");
        let (alphabet, interface) = stats.alphabet_per_level[0];
        assert_eq!(alphabet, interface, "{learner}: {stats:?}");
    }
}

#[test]
fn the_whole_interface_is_never_refined() {
    let (parts, property) = model("paper000.lts", "SYS", "ORDER");
    let (outcome, stats) = DynamicChecker::new(CexMode::RivestSchapire).with_probe(0).run(&parts, Some(&property));
    assert_eq!(outcome, Outcome::Holds);
    assert_eq!(stats.alphabet_refinements, vec![0]);
}

#[test]
fn a_later_run_starts_from_the_alphabet_the_level_ended_with() {
    // The same level again (as in a CEGAR round that refined only the last component): the
    // level's table is re-used, so the alphabet is not refined again and nothing is asked.
    for learner in LEARNERS {
        let (parts, property) = model("paper000.lts", "SYS", "ORDER");
        let mut checker = refining(learner);
        checker.run(&parts, Some(&property));
        let mut again = parts.clone();
        let last = again.len() - 1;
        again[last] = with_unreachable_state(&parts[last]);
        let (outcome, stats) = checker.run(&again, Some(&property));
        assert_eq!(outcome, Outcome::Holds, "{learner}");
        assert!(!stats.result_reused, "{learner}: the rule ran");
        assert_eq!((stats.alphabet_refinements.as_slice(), stats.membership), (&[0][..], 0), "{learner}: {stats:?}");
    }
}

/// A copy of `d` with one more state, which nothing reaches: another automaton, the same
/// language.
fn with_unreachable_state(d: &Dla) -> Dla {
    let mut b = Builder::new();
    for e in d.alphabet() {
        b.add_event(e);
    }
    for s in d.states() {
        match s.kind {
            subst::automata::dla::Kind::Error => b.add_error_state(),
            subst::automata::dla::Kind::Normal { accepting } => b.add_state(&[], accepting),
        };
    }
    b.add_state(&[], true);
    for (i, s) in d.states().iter().enumerate() {
        for t in &s.out {
            let name =
                if t.event == subst::automata::TAU { subst::automata::dla::TAU_NAME } else { d.event_name(t.event) };
            b.add_transition(StateId(i as u32), name, t.to);
        }
    }
    for &i in d.initial() {
        b.set_initial(i);
    }
    b.build()
}

const EVENTS: [&str; 5] = ["a", "b", "c", "d", "e"];

/// A component over the events whose bits are set in `mask`, with `n` states, the
/// transitions `trans` (those over its events) and possibly an error state.
fn component(n: usize, mask: u8, trans: &[(usize, usize, usize)], error: Option<usize>) -> Dla {
    let mut b = Builder::new();
    let events: Vec<&str> = EVENTS.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, e)| *e).collect();
    for e in &events {
        b.add_event(e);
    }
    let ids: Vec<StateId> =
        (0..n).map(|i| if Some(i) == error { b.add_error_state() } else { b.add_state(&[], true) }).collect();
    for &(f, e, t) in trans {
        if mask & (1 << e) != 0 {
            b.add_transition(ids[f % n], EVENTS[e], ids[t % n]);
        }
    }
    b.set_initial(ids[0]);
    b.build()
}

/// A deterministic property over `a` and `b`: each (state, event) has at most one successor,
/// and state 2 is the error state.
fn property(trans: &[(usize, usize, usize)]) -> Dla {
    let mut b = Builder::new();
    for e in ["a", "b"] {
        b.add_event(e);
    }
    let ids = [b.add_state(&[], true), b.add_state(&[], true), b.add_error_state()];
    let mut seen = std::collections::BTreeSet::new();
    for &(f, e, t) in trans {
        let f = f % 2;
        if seen.insert((f, e)) {
            b.add_transition(ids[f], EVENTS[e], ids[t % 3]);
        }
    }
    b.set_initial(ids[0]);
    b.build()
}

type Trans = Vec<(usize, usize, usize)>;

fn part() -> impl Strategy<Value = (u8, Trans, Option<usize>)> {
    (
        1u8..32,
        proptest::collection::vec((0usize..3, 0usize..5, 0usize..3), 0..9),
        proptest::option::weighted(0.2, 0usize..3),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn refined_alphabets_give_the_verdict_of_mono_and_real_counterexamples(
        parts in proptest::collection::vec(part(), 2..4),
        p in proptest::collection::vec((0usize..2, 0usize..2, 0usize..3), 0..5),
    ) {
        let parts: Vec<Dla> = parts.iter().map(|(mask, t, err)| component(3, *mask, t, *err)).collect();
        let property = property(&p);
        let refs: Vec<&Dla> = parts.iter().collect();
        let holds = matches!(safety::check(&refs, &|_| false, Some(&property)).unwrap(), Safety::Holds { .. });
        let mut all = refs.clone();
        let p_err = error_automaton(&property).unwrap();
        all.push(&p_err);
        let product = compose(&all);
        for learner in LEARNERS {
            let (outcome, _) = refining(learner).run(&parts, Some(&property));
            match &outcome {
                Outcome::Holds => prop_assert!(holds, "{learner}: ag says holds, mono fails"),
                Outcome::Violated(trace) => {
                    prop_assert!(!holds, "{learner}: ag says fails, mono holds");
                    prop_assert!(reaches_error(&product, trace), "{learner}: {trace:?} is no violation");
                }
                Outcome::Stopped => prop_assert!(false, "no deadline was set"),
            }
        }
    }
}
