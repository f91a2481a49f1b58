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
    let mut checker = DynamicChecker::new(CexMode::RivestSchapire);
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
        let mut checker = DynamicChecker::new(mode);
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
