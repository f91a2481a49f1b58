//! Learning assumptions: paper 000's example reproduced table by table, and the
//! assume-guarantee engine against the monolithic check.

use subst::automata::Dla;
use subst::check::ag::{AssumptionOracle, DynamicChecker, Outcome};
use subst::learn::{CexMode, Learner};
use subst::spec;

fn paper000() -> spec::Spec {
    spec::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/paper000.lts"))).unwrap()
}

fn interface(m1: &Dla, p: &Dla, m2: &Dla) -> Vec<String> {
    let mut sigma: Vec<String> =
        m1.alphabet().iter().chain(p.alphabet()).filter(|e| m2.alphabet().contains(e)).cloned().collect();
    sigma.sort();
    sigma.dedup();
    sigma
}

#[test]
fn paper000_tables_and_assumptions_for_input_output_order() {
    let s = paper000();
    let (input, output, order) =
        (s.process("INPUT").unwrap(), s.process("OUTPUT").unwrap(), s.process("ORDER").unwrap());
    let sigma = interface(&input, &order, &output);
    assert_eq!(sigma, ["ack", "output", "send"]);
    let mut oracle = AssumptionOracle::new(&input, Some(&order), &sigma);
    let mut learner = Learner::new(sigma.clone(), CexMode::RivestSchapire, true);

    learner.close(&mut oracle);
    insta::assert_snapshot!("paper000_table1", learner.table().to_string());
    let a1 = learner.hypothesis();
    insta::assert_snapshot!("paper000_a1", a1.to_string());

    // Oracle 1 rejects A1 with <input, send, ack, input>, whose projection is <send, ack>.
    let cex = oracle.oracle1(&a1).expect("A1 is too weak");
    assert_eq!(cex, ["send", "ack"]);
    learner.refine(&cex, &mut oracle).unwrap();
    insta::assert_snapshot!("paper000_table2", learner.table().to_string());
    let a2 = learner.hypothesis();
    insta::assert_snapshot!("paper000_a2", a2.to_string());
    assert_eq!(oracle.oracle1(&a2), None, "A2 is strong enough");
}

#[test]
fn paper000_output_prime_ends_with_the_four_state_weakest_assumption() {
    let s = paper000();
    let parts = [s.process("INPUT").unwrap(), s.process("OUTPUT2").unwrap()];
    let order = s.process("ORDER").unwrap();
    let mut checker =
        DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(subst::learn::Algorithm::LStar).with_probe(0);
    let (outcome, stats) = checker.run(&parts, Some(&order));
    assert_eq!(outcome, Outcome::Holds);
    let a = checker.assumptions()[0].expect("an assumption").clone();
    insta::assert_snapshot!("paper000_a4", a.to_string());
    assert_eq!(a.n_states(), 4);
    assert_eq!(a.alphabet(), ["ack", "output", "send"]);
    assert!(stats.candidates >= 4, "A1 .. A4 were conjectured: {stats:?}");
}

#[test]
fn every_counterexample_mode_learns_the_same_weakest_assumption() {
    let s = paper000();
    let parts = [s.process("INPUT").unwrap(), s.process("OUTPUT2").unwrap()];
    let order = s.process("ORDER").unwrap();
    let mut learned = Vec::new();
    for mode in [CexMode::RivestSchapire, CexMode::SuffixSearch, CexMode::AllSuffixes] {
        // The rule is under test: no search of the product decides first.
        let mut checker = DynamicChecker::new(mode).with_algorithm(subst::learn::Algorithm::LStar).with_probe(0);
        let (outcome, _) = checker.run(&parts, Some(&order));
        assert_eq!(outcome, Outcome::Holds, "{mode:?}");
        learned.push(subst::automata::minimize::minimize(checker.assumptions()[0].unwrap()));
    }
    assert_eq!(learned[0], learned[1]);
    assert_eq!(learned[0], learned[2]);
}

#[test]
fn tables_survive_serialisation() {
    let s = paper000();
    let (input, output, order) =
        (s.process("INPUT").unwrap(), s.process("OUTPUT").unwrap(), s.process("ORDER").unwrap());
    let sigma = interface(&input, &order, &output);
    let mut oracle = AssumptionOracle::new(&input, Some(&order), &sigma);
    let mut learner = Learner::new(sigma.clone(), CexMode::RivestSchapire, true);
    learner.close(&mut oracle);
    let json = serde_json::to_string(learner.table()).unwrap();
    let back: subst::learn::Table = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, learner.table());
    assert_eq!(back.format, subst::learn::table::TABLE_FORMAT);
}

mod simulation {
    //! Membership by simulation agrees with the safety check of `A_σ || M || P_err`.
    use proptest::prelude::*;
    use subst::automata::dla::Builder;
    use subst::automata::safety::{self, Safety};
    use subst::check::ag::{AssumptionOracle, linear};
    use subst::learn::Membership;

    const EVENTS: [&str; 4] = ["a", "b", "c", "tau"];

    fn automaton(
        n: usize,
        trans: &[(usize, usize, usize)],
        error: Option<usize>,
        alphabet: &[&str],
    ) -> subst::automata::Dla {
        let mut b = Builder::new();
        for e in alphabet {
            b.add_event(e);
        }
        let ids: Vec<_> =
            (0..n).map(|i| if Some(i) == error { b.add_error_state() } else { b.add_state(&[], true) }).collect();
        for &(f, e, t) in trans {
            if EVENTS[e] == "tau" || alphabet.contains(&EVENTS[e]) {
                b.add_transition(ids[f % n], EVENTS[e], ids[t % n]);
            }
        }
        b.set_initial(ids[0]);
        b.build()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn simulation_equals_product_check(
            m in proptest::collection::vec((0usize..4, 0usize..4, 0usize..4), 0..10),
            err in proptest::option::of(0usize..4),
            p in proptest::collection::vec((0usize..3, 0usize..2, 0usize..3), 0..6),
            word in proptest::collection::vec(0usize..2, 0..5),
        ) {
            // M over {a, b, c}; the interface is {a, b}; the property is over {a, c}.
            let m = automaton(4, &m, err, &["a", "b", "c"]);
            let mut seen = std::collections::HashSet::new();
            let p_trans: Vec<_> = p.into_iter().filter(|&(f, e, _)| seen.insert((f, e))).map(|(f, e, t)| (f, e * 2, t)).collect();
            let prop = automaton(3, &p_trans, None, &["a", "c"]);
            let interface = vec!["a".to_string(), "b".to_string()];
            let word: Vec<String> = word.iter().map(|&i| interface[i].clone()).collect();
            let mut oracle = AssumptionOracle::new(&m, Some(&prop), &interface);
            let by_product = matches!(
                safety::check(&[&linear(&word, &interface), &m], &|_| false, Some(&prop)).unwrap(),
                Safety::Holds { .. }
            );
            prop_assert_eq!(oracle.member(&word), by_product);
        }
    }
}
