//! DynamicCheck (paper 003 Fig. 3) after upgrades: the same verdict as a run from scratch and
//! as the monolithic check, on many generated upgrades of the FSP models; and re-use: the
//! tables of components before the first changed one are not queried again (Lemma 1).

use subst::automata::Dla;
use subst::automata::dla::{Builder, StateId, TAU_NAME};
use subst::automata::safety::{self, Safety};
use subst::check::ag::{DynamicChecker, InterfaceAlphabet, Outcome, Reuse};
use subst::check::verify::ordered_parts;
use subst::learn::{Algorithm, CexMode};

const LEARNERS: [Algorithm; 2] = [Algorithm::LStar, Algorithm::LSharp];
const REUSES: [Reuse; 4] = [Reuse::Revalidate, Reuse::Hints, Reuse::Adaptive, Reuse::HintsThenAdaptive];

fn checker(learner: Algorithm) -> DynamicChecker {
    DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(learner)
}

/// A checker that does not search the product for a violation first, so that every verdict
/// comes from the assume-guarantee rule.
fn learning_only(learner: Algorithm, reuse: Reuse) -> DynamicChecker {
    checker(learner).with_reuse(reuse).with_probe(0)
}
use subst::spec;

const MODELS: &[(&str, &str, &str)] = &[
    ("paper000.lts", "SYS", "ORDER"),
    ("paper000.lts", "BROKEN", "ORDER"),
    ("mutex.lts", "SEMADEMO", "MUTEX"),
    ("buffer.lts", "PRODCONS", "BOUNDED"),
    ("pipeline.lts", "PIPELINE", "ORDERED"),
    ("token_ring.lts", "RING", "ONE_TOKEN"),
    ("carpark.lts", "CARPARK", "CAPACITY"),
    ("readers_writers.lts", "READERS_WRITERS", "SAFE_RW"),
    ("abp.lts", "ABP", "EXACTLY_ONCE"),
    ("lock.lts", "LOCK_MODEL", "GRANTED"),
];

struct Model {
    parts: Vec<Dla>,
    property: Dla,
    hidden: Vec<String>,
}

fn model(file: &str, assembly: &str, property: &str) -> Model {
    let path = format!("{}/specs/{file}", env!("CARGO_MANIFEST_DIR"));
    let s = spec::load(std::path::Path::new(&path)).unwrap();
    let a = s.assembly(assembly).unwrap();
    let parts = ordered_parts(&a, &[]).unwrap();
    let all: Vec<String> = parts.iter().flat_map(|p| p.alphabet().iter().cloned()).collect();
    let hidden: Vec<String> = all.into_iter().filter(|e| a.is_hidden(e)).collect();
    let property = s.process(property).unwrap().relabel(&|e| if a.is_hidden(e) { vec![] } else { vec![e.to_string()] });
    Model { parts, property, hidden }
}

/// A copy of `d` with one transition added (`add`) or removed, chosen by `pick`.
fn mutate(d: &Dla, add: bool, pick: u64) -> Dla {
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
    let all: Vec<(usize, u32, StateId)> =
        d.states().iter().enumerate().flat_map(|(i, s)| s.out.iter().map(move |t| (i, t.event, t.to))).collect();
    let skip = if add || all.is_empty() { usize::MAX } else { (pick % all.len() as u64) as usize };
    for (k, &(from, e, to)) in all.iter().enumerate() {
        if k != skip {
            let name = if e == subst::automata::TAU { TAU_NAME } else { d.event_name(e) };
            b.add_transition(StateId(from as u32), name, to);
        }
    }
    if add && !d.alphabet().is_empty() {
        let n = d.n_states() as u64;
        let from = StateId((pick % n) as u32);
        let to = StateId(((pick / 7) % n) as u32);
        if !d.is_error(from) {
            b.add_transition(from, &d.alphabet()[(pick / 13) as usize % d.alphabet().len()], to);
        }
    }
    for &i in d.initial() {
        b.set_initial(i);
    }
    b.build()
}

fn mono(parts: &[Dla], property: &Dla, hidden: &[String]) -> bool {
    let refs: Vec<&Dla> = parts.iter().collect();
    matches!(safety::check(&refs, &|e| hidden.iter().any(|h| h == e), Some(property)).unwrap(), Safety::Holds { .. })
}

#[test]
fn dynamic_check_agrees_with_scratch_and_mono_on_generated_upgrades() {
    for learner in LEARNERS {
        agrees_with_scratch_and_mono(learner, InterfaceAlphabet::Full);
    }
}

#[test]
fn alphabet_refinement_agrees_with_scratch_and_mono_on_generated_upgrades() {
    for learner in LEARNERS {
        agrees_with_scratch_and_mono(learner, InterfaceAlphabet::Refine);
    }
}

/// One generated upgrade of a model of [`MODELS`]: the parts with part `k` mutated, and the
/// verdict of the monolithic check on them.
struct Upgrade {
    model: usize,
    k: usize,
    parts: Vec<Dla>,
    mono: bool,
}

/// The models of [`MODELS`] and 16 generated upgrades of each, with their monolithic verdicts,
/// made once per test binary: the upgrades and `mono`'s verdicts are the same for every
/// learner, re-use and interface alphabet that the tests below go through.
fn generated_upgrades() -> &'static (Vec<Model>, Vec<Upgrade>) {
    static UPGRADES: std::sync::OnceLock<(Vec<Model>, Vec<Upgrade>)> = std::sync::OnceLock::new();
    UPGRADES.get_or_init(|| {
        let mut seed: u64 = 0x5eed;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let models: Vec<Model> =
            MODELS.iter().map(|&(file, assembly, property)| model(file, assembly, property)).collect();
        let mut upgrades = Vec::new();
        for (i, m) in models.iter().enumerate() {
            for _ in 0..16 {
                let k = (next() % m.parts.len() as u64) as usize;
                let mut parts = m.parts.clone();
                parts[k] = mutate(&m.parts[k], next() % 2 == 0, next());
                let mono = mono(&parts, &m.property, &m.hidden);
                upgrades.push(Upgrade { model: i, k, parts, mono });
            }
        }
        (models, upgrades)
    })
}

/// Every generated upgrade, checked by DynamicCheck from the checker that checked the original
/// assembly (with each re-use of [`REUSES`]) and by a checker from scratch, gets the verdict
/// of the monolithic check. The run from scratch is made once per upgrade: the re-use only
/// matters to a checker that holds the levels of an earlier run (a fresh checker's levels
/// have no table or tree, and its answers are never unchecked hints), so the run from scratch
/// of every re-use is this one.
fn agrees_with_scratch_and_mono(learner: Algorithm, alphabet: InterfaceAlphabet) {
    let (models, upgrades) = generated_upgrades();
    let scratch: Vec<Outcome> = upgrades
        .iter()
        .map(|u| {
            let property = Some(&models[u.model].property);
            learning_only(learner, Reuse::default()).with_alphabet(alphabet).run(&u.parts, property).0
        })
        .collect();
    let holds = |o: &Outcome| matches!(o, Outcome::Holds);
    for reuse in REUSES {
        let mut checked = 0;
        let mut failures = Vec::new();
        for (i, m) in models.iter().enumerate() {
            let (file, assembly, _) = MODELS[i];
            // The check of the original assembly, made once: each upgrade starts from a copy of
            // the checker as that check left it (what a checker that ran it afresh would hold).
            let mut before = learning_only(learner, reuse).with_alphabet(alphabet);
            before.run(&m.parts, Some(&m.property));
            for (u, scratch) in upgrades.iter().zip(&scratch).filter(|(u, _)| u.model == i) {
                let mut dynamic = before.clone();
                let (after_upgrade, _) = dynamic.run(&u.parts, Some(&m.property));
                checked += 1;
                if holds(&after_upgrade) != u.mono || holds(scratch) != u.mono {
                    failures.push(format!(
                        "{learner} {reuse:?} {alphabet:?}: {file} {assembly}: part {} mutated; mono {}, dynamic {after_upgrade:?}, scratch {scratch:?}",
                        u.k, u.mono
                    ));
                }
            }
        }
        assert!(checked >= 150);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn tables_before_the_first_changed_component_are_not_queried_again() {
    for learner in LEARNERS {
        not_queried_again(learner);
    }
}

fn not_queried_again(learner: Algorithm) {
    let m = model("pipeline.lts", "PIPELINE", "ORDERED");
    let n = m.parts.len();
    assert!(n >= 3, "a pipeline with several stages");
    let last = n - 1;
    // Remove one behaviour of the last component: the old assumptions still suffice.
    let mut new_parts = m.parts.clone();
    new_parts[last] = mutate(&m.parts[last], false, 0);
    assert_ne!(new_parts[last], m.parts[last]);
    let mut checker = learning_only(learner, Reuse::Hints);
    let (original, first) = checker.run(&m.parts, Some(&m.property));
    assert_eq!(original, Outcome::Holds);
    assert!(first.membership > 0);
    let (upgraded, second) = checker.run(&new_parts, Some(&m.property));
    assert_eq!(upgraded, Outcome::Holds);
    assert_eq!(second.reused, (0..last).collect::<Vec<_>>(), "every level before the change re-uses its table");
    assert!(second.revalidated.is_empty());
    assert_eq!(second.membership, 0, "no table is queried again: {:?}", second.membership_per_level);
}

#[test]
fn changing_the_first_component_revalidates_its_table() {
    for learner in LEARNERS {
        let m = model("paper000.lts", "SYS", "ORDER");
        let mut new_parts = m.parts.clone();
        new_parts[0] = mutate(&m.parts[0], false, 1);
        let mut checker = learning_only(learner, Reuse::Revalidate);
        checker.run(&m.parts, Some(&m.property));
        let (_, stats) = checker.run(&new_parts, Some(&m.property));
        assert_eq!(stats.revalidated, vec![0], "{learner}");
    }
}

#[test]
fn with_hints_a_changed_component_whose_old_assumption_suffices_asks_nothing_again() {
    for learner in LEARNERS {
        let m = model("paper000.lts", "SYS", "ORDER");
        let mut new_parts = m.parts.clone();
        // One behaviour fewer in the first component: the old assumption still passes Oracle 1.
        new_parts[0] = mutate(&m.parts[0], false, 1);
        let mut checker = learning_only(learner, Reuse::Hints);
        let (original, _) = checker.run(&m.parts, Some(&m.property));
        let (upgraded, stats) = checker.run(&new_parts, Some(&m.property));
        assert_eq!((original, upgraded), (Outcome::Holds, Outcome::Holds), "{learner}");
        assert_eq!((stats.hinted.as_slice(), stats.revalidated.len()), (&[0][..], 0), "{learner}: {stats:?}");
        assert_eq!(stats.membership, 0, "{learner}: {stats:?}");
    }
}

#[test]
fn a_contradicted_hint_re_validates_and_gives_the_verdict_of_mono() {
    // Adding behaviours to a component makes some old answers wrong; the runs that meet one
    // re-validate (or re-learn with adaptive L#), and every run keeps the monolithic verdict.
    for reuse in [Reuse::Hints, Reuse::HintsThenAdaptive] {
        contradicted_hints_keep_the_verdict_of_mono(reuse);
    }
}

fn contradicted_hints_keep_the_verdict_of_mono(reuse: Reuse) {
    let mut contradicted = 0;
    for learner in LEARNERS {
        for &(file, assembly, property) in MODELS {
            let m = model(file, assembly, property);
            // The check of the original assembly, made once: each upgrade starts from a copy
            // of the checker as that check left it (what a checker that ran it afresh holds).
            let mut before = learning_only(learner, reuse);
            before.run(&m.parts, Some(&m.property));
            for (k, part) in m.parts.iter().enumerate() {
                for pick in 0..4u64 {
                    let mut new_parts = m.parts.clone();
                    new_parts[k] = mutate(part, true, pick * 977 + k as u64);
                    let mut checker = before.clone();
                    let (after, stats) = checker.run(&new_parts, Some(&m.property));
                    let expected = mono(&new_parts, &m.property, &m.hidden);
                    assert_eq!(
                        matches!(after, Outcome::Holds),
                        expected,
                        "{learner} {reuse:?} {file} part {k} pick {pick}"
                    );
                    contradicted += stats.contradicted.len();
                }
            }
        }
    }
    assert!(contradicted > 0, "some hint was contradicted");
}

#[test]
fn a_product_within_the_search_budget_holds_without_learning() {
    for learner in LEARNERS {
        let m = model("pipeline.lts", "PIPELINE", "ORDERED");
        let (outcome, stats) = checker(learner).run(&m.parts, Some(&m.property));
        assert_eq!(outcome, Outcome::Holds, "{learner}");
        assert!(stats.decided_by_probe && stats.probed > 0, "{learner}: {stats:?}");
        assert_eq!(stats.membership, 0, "{learner}: {stats:?}");
    }
}

#[test]
fn a_product_beyond_the_search_budget_is_left_to_the_rule() {
    for learner in LEARNERS {
        let m = model("pipeline.lts", "PIPELINE", "ORDERED");
        let (outcome, stats) = checker(learner).with_probe(1).run(&m.parts, Some(&m.property));
        assert_eq!(outcome, Outcome::Holds, "{learner}");
        assert!(!stats.decided_by_probe && stats.membership > 0, "{learner}: {stats:?}");
    }
}

#[test]
fn old_assumptions_are_checked_before_the_search_of_the_product() {
    for learner in LEARNERS {
        let m = model("pipeline.lts", "PIPELINE", "ORDERED");
        let last = m.parts.len() - 1;
        let mut new_parts = m.parts.clone();
        new_parts[last] = mutate(&m.parts[last], false, 0);
        let mut checker = learning_only(learner, Reuse::Hints);
        checker.run(&m.parts, Some(&m.property));
        // The upgrade runs with the search on: the old assumptions suffice, so it never runs.
        let mut checker = checker.with_probe(subst::check::ag::PROBE_STATES);
        let (upgraded, stats) = checker.run(&new_parts, Some(&m.property));
        let (_, scratch) = learning_only(learner, Reuse::Hints).run(&new_parts, Some(&m.property));
        assert_eq!(upgraded, Outcome::Holds, "{learner}");
        assert_eq!((stats.probed, stats.membership, stats.fell_back), (0, 0, false), "{learner}: {stats:?}");
        assert!(stats.reuse_budget.is_some() && scratch.membership > 0, "{learner}: {stats:?} {scratch:?}");
    }
}

#[test]
fn a_run_on_the_automata_of_the_last_decided_run_re_uses_its_outcome() {
    for learner in LEARNERS {
        let m = model("paper000.lts", "BROKEN", "ORDER");
        for mut checker in [checker(learner), learning_only(learner, Reuse::Hints)] {
            let (first, _) = checker.run(&m.parts, Some(&m.property));
            let (again, stats) = checker.run(&m.parts, Some(&m.property));
            assert_eq!(again, first, "{learner}");
            assert!(stats.result_reused, "{learner}: {stats:?}");
            assert_eq!((stats.probed, stats.membership, stats.checks), (0, 0, 0), "{learner}: {stats:?}");
        }
    }
}

#[test]
fn re_use_over_its_budget_gives_up_and_keeps_the_verdict_of_mono() {
    // With no least budget, a quarter of the first run's queries: many upgrades run over it.
    let mut fell_back = 0;
    for learner in LEARNERS {
        for &(file, assembly, property) in MODELS {
            let m = model(file, assembly, property);
            for (k, part) in m.parts.iter().enumerate() {
                let mut new_parts = m.parts.clone();
                new_parts[k] = mutate(part, true, 31 * k as u64 + 7);
                let mut checker = learning_only(learner, Reuse::Hints).with_min_reuse_budget(0);
                checker.run(&m.parts, Some(&m.property));
                let (after, stats) = checker.run(&new_parts, Some(&m.property));
                let expected = mono(&new_parts, &m.property, &m.hidden);
                let what = format!("{learner} {file} part {k}: {stats:?}");
                assert_eq!(matches!(after, Outcome::Holds), expected, "{what}");
                if stats.fell_back {
                    fell_back += 1;
                    // The attempt asked no more than its budget.
                    assert!(stats.abandoned_membership <= stats.reuse_budget.unwrap_or(0), "{what}");
                }
            }
        }
    }
    assert!(fell_back > 0, "some re-use ran over its budget");
}

#[test]
fn assumptions_learned_after_the_search_spare_the_upgrade_its_search() {
    for learner in LEARNERS {
        let m = model("pipeline.lts", "PIPELINE", "ORDERED");
        let last = m.parts.len() - 1;
        let mut new_parts = m.parts.clone();
        new_parts[last] = mutate(&m.parts[last], false, 0);
        let mut upgrades = Vec::new();
        for learn in [true, false] {
            let mut checker = checker(learner).with_learning_after_search(learn).with_min_reuse_budget(10_000);
            let (original, first) = checker.run(&m.parts, Some(&m.property));
            assert_eq!(original, Outcome::Holds, "{learner}");
            assert!(first.decided_by_probe, "{learner}: {first:?}");
            assert_eq!((first.learned_after_search, first.membership > 0), (learn, learn), "{learner}: {first:?}");
            let (upgraded, second) = checker.run(&new_parts, Some(&m.property));
            assert_eq!(upgraded, Outcome::Holds, "{learner}");
            upgrades.push(second);
        }
        // With the old assumptions the upgrade asks nothing and searches nothing; without, it
        // searches the new product.
        let (with, without) = (&upgrades[0], &upgrades[1]);
        assert_eq!((with.membership, with.probed), (0, 0), "{learner}: {with:?}");
        assert!(without.probed > 0 && without.decided_by_probe, "{learner}: {without:?}");
    }
}

/// The upgrades of [`re_use_over_its_budget_gives_up_and_keeps_the_verdict_of_mono`] whose
/// attempt fell back and whose learning from the levels then asked more than the budget too,
/// each followed by a second change of the same part (a next CEGAR round): the checker, the
/// parts of the last run, the property, and the model.
fn over_budget_then_changed_again(learner: Algorithm, mut each: impl FnMut(DynamicChecker, Vec<Dla>, &Model, String)) {
    for &(file, assembly, property) in MODELS {
        let m = model(file, assembly, property);
        for (k, part) in m.parts.iter().enumerate() {
            let mut upgraded = m.parts.clone();
            upgraded[k] = mutate(part, true, 31 * k as u64 + 7);
            let mut checker = learning_only(learner, Reuse::Hints).with_min_reuse_budget(0);
            checker.run(&m.parts, Some(&m.property));
            let (_, stats) = checker.run(&upgraded, Some(&m.property));
            let budget = stats.reuse_budget.unwrap_or(usize::MAX);
            if !stats.fell_back || stats.membership - stats.abandoned_membership <= budget {
                continue;
            }
            let mut next = upgraded.clone();
            next[k] = mutate(&upgraded[k], true, 17 * k as u64 + 3);
            if next == upgraded {
                continue;
            }
            each(checker, next, &m, format!("{learner} {file} part {k}"));
        }
    }
}

#[test]
fn re_use_that_ran_over_its_budget_gets_no_query_next_time() {
    let mut cases = 0;
    for learner in LEARNERS {
        over_budget_then_changed_again(learner, |mut checker, next, m, what| {
            cases += 1;
            let (after, stats) = checker.run(&next, Some(&m.property));
            assert_eq!(matches!(after, Outcome::Holds), mono(&next, &m.property, &m.hidden), "{what}");
            // The old assumptions are tried as they are, without a query.
            assert_eq!((stats.reuse_budget, stats.abandoned_membership), (Some(0), 0), "{what}: {stats:?}");
        });
    }
    assert!(cases > 0, "some re-use ran over its budget twice");
}

#[test]
fn a_renewed_checker_tries_its_levels_first_again() {
    let mut cases = 0;
    for learner in LEARNERS {
        over_budget_then_changed_again(learner, |checker, next, m, what| {
            cases += 1;
            let mut checker = checker.renew_reuse();
            let (after, stats) = checker.run(&next, Some(&m.property));
            assert_eq!(matches!(after, Outcome::Holds), mono(&next, &m.property, &m.hidden), "{what}");
            assert!(stats.reuse_budget.is_some_and(|b| b > 0), "{what}: {stats:?}");
        });
    }
    assert!(cases > 0, "some re-use ran over its budget twice");
}

#[test]
fn a_run_that_reaches_its_work_limit_stops_and_says_so() {
    for learner in LEARNERS {
        for &(file, assembly, property) in MODELS {
            let m = model(file, assembly, property);
            let mut unlimited = learning_only(learner, Reuse::Hints);
            let (expected, all) = unlimited.run(&m.parts, Some(&m.property));
            let what = format!("{learner} {file}: {all:?}");
            if all.membership >= 2 {
                let mut limited = learning_only(learner, Reuse::Hints);
                limited.set_work_limit(Some(1));
                let (outcome, _) = limited.run(&m.parts, Some(&m.property));
                assert_eq!((outcome, limited.work_exhausted()), (Outcome::Stopped, true), "{what}");
            }
            // With room to spare, the limit changes nothing.
            let mut enough = learning_only(learner, Reuse::Hints);
            enough.set_work_limit(Some(2 * all.membership + 100));
            let (outcome, stats) = enough.run(&m.parts, Some(&m.property));
            assert_eq!(
                (outcome, stats.membership, enough.work_exhausted()),
                (expected, all.membership, false),
                "{what}"
            );
        }
    }
}
