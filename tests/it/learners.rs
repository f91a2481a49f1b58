//! Every learner learns its target: on random DFAs and random prefix-closed DFAs, L*, L# and
//! adaptive L# return an automaton whose language is the target's, checked by the inclusion
//! code in both directions (which is also the teacher's equivalence oracle), from scratch and
//! from what they learned for a perturbed target.

use proptest::prelude::*;
use subst::automata::dla::{Builder, Dla, Trace};
use subst::automata::inclusion::{self, Inclusion};
use subst::learn::lstar::{self, CexMode, Membership, Stats, Teacher};
use subst::learn::{LSharp, Separation, adaptive, lsharp};

const LETTERS: [&str; 3] = ["a", "b", "c"];

/// A random DFA with `accepting.len()` states over the first `k` letters: `next[q][a]` is the
/// successor, `None` a missing transition (the word is rejected).
#[derive(Clone, Debug)]
struct Shape {
    k: usize,
    accepting: Vec<bool>,
    next: Vec<Vec<Option<usize>>>,
}

fn shape(prefix_closed: bool) -> impl Strategy<Value = Shape> {
    (1usize..=10, 1usize..=3).prop_flat_map(move |(n, k)| {
        (
            proptest::collection::vec(any::<bool>(), n),
            proptest::collection::vec(proptest::collection::vec(proptest::option::weighted(0.8, 0..n), k), n),
        )
            .prop_map(move |(accepting, next)| Shape {
                k,
                accepting: if prefix_closed { vec![true; accepting.len()] } else { accepting },
                next,
            })
    })
}

fn build(s: &Shape) -> Dla {
    let mut b = Builder::new();
    for e in &LETTERS[..s.k] {
        b.add_event(e);
    }
    let ids: Vec<_> = s.accepting.iter().map(|&acc| b.add_state(&[], acc)).collect();
    for (q, row) in s.next.iter().enumerate() {
        for (a, to) in row.iter().enumerate() {
            if let Some(to) = to {
                b.add_transition(ids[q], LETTERS[a], ids[*to]);
            }
        }
    }
    b.set_initial(ids[0]);
    b.build()
}

struct DlaTeacher<'a> {
    target: &'a Dla,
}

impl Membership for DlaTeacher<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        let events: Vec<&str> = word.iter().map(String::as_str).collect();
        self.target.accepts(&Trace::of_events(&events))
    }
}

impl Teacher for DlaTeacher<'_> {
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>> {
        difference(self.target, hypothesis)
    }
}

/// [`DlaTeacher`] answering every prefix of a word in one run (an output query), as the
/// bench's DFA teacher does; counts its runs and their letters.
struct PrefixTeacher<'a> {
    target: &'a Dla,
    runs: usize,
    letters: usize,
}

impl Membership for PrefixTeacher<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        self.runs += 1;
        self.letters += word.len();
        DlaTeacher { target: self.target }.member(word)
    }

    fn member_prefixes_indexed(&mut self, alphabet: &[String], word: &[u32]) -> Vec<bool> {
        self.runs += 1;
        self.letters += word.len();
        let names: Vec<String> = word.iter().map(|&a| alphabet[a as usize].clone()).collect();
        (0..=names.len()).map(|i| DlaTeacher { target: self.target }.member(&names[..i])).collect()
    }

    fn answers_prefixes(&self) -> bool {
        true
    }

    fn member_adaptive_indexed(
        &mut self,
        alphabet: &[String],
        word: &[u32],
        next: &mut dyn FnMut(bool) -> Option<u32>,
    ) -> Vec<bool> {
        self.runs += 1;
        let mut names: Vec<String> = word.iter().map(|&a| alphabet[a as usize].clone()).collect();
        let mut answers: Vec<bool> =
            (0..=names.len()).map(|i| DlaTeacher { target: self.target }.member(&names[..i])).collect();
        while let Some(a) = next(*answers.last().expect("the empty word's answer")) {
            names.push(alphabet[a as usize].clone());
            answers.push(DlaTeacher { target: self.target }.member(&names));
        }
        self.letters += names.len();
        answers
    }

    fn answers_adaptively(&self) -> bool {
        true
    }
}

impl Teacher for PrefixTeacher<'_> {
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>> {
        difference(self.target, hypothesis)
    }
}

/// Learns with L# and a [`PrefixTeacher`]; the learner's counts must be the teacher's.
fn lsharp_with_prefixes(
    s: &Shape,
    target: &Dla,
    prefix_closed: bool,
    separation: Separation,
) -> Result<(Dla, Stats), lstar::LearnError> {
    let mut teacher = PrefixTeacher { target, runs: 0, letters: 0 };
    let learned = lsharp::learn_with(alphabet(s), &mut teacher, prefix_closed, separation);
    if let Ok((_, stats)) = &learned {
        assert_eq!(
            (stats.membership, stats.symbols),
            (teacher.runs, teacher.letters),
            "the learner counts the teacher's runs"
        );
    }
    learned
}

/// A word in the symmetric difference, by the inclusion check both ways.
fn difference(a: &Dla, b: &Dla) -> Option<Vec<String>> {
    for (x, y) in [(a, b), (b, a)] {
        if let Inclusion::NotIncluded { trace, .. } = inclusion::check(x, y) {
            return Some(trace.events().into_iter().map(String::from).collect());
        }
    }
    None
}

fn alphabet(s: &Shape) -> Vec<String> {
    LETTERS[..s.k].iter().map(|l| l.to_string()).collect()
}

/// The learned automaton has the target's language and no more states than the target (plus
/// the rejecting sink, which a learner keeps for a target that is not prefix-closed).
fn check_learned(
    target: &Dla,
    prefix_closed: bool,
    learned: Result<(Dla, Stats), lstar::LearnError>,
) -> Result<(), TestCaseError> {
    let (h, _) = learned.map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(difference(target, &h), None);
    let bound = target.n_states() + usize::from(!prefix_closed);
    prop_assert!(h.n_states() <= bound, "{} states for a target of {}", h.n_states(), target.n_states());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn lstar_learns_random_dfas(s in shape(false)) {
        let target = build(&s);
        check_learned(&target, false, lstar::learn(alphabet(&s), &mut DlaTeacher { target: &target }, CexMode::RivestSchapire, false))?;
    }

    #[test]
    fn lstar_learns_random_prefix_closed_dfas(s in shape(true)) {
        let target = build(&s);
        check_learned(&target, true, lstar::learn(alphabet(&s), &mut DlaTeacher { target: &target }, CexMode::RivestSchapire, true))?;
    }

    #[test]
    fn lsharp_learns_random_dfas(s in shape(false)) {
        let target = build(&s);
        check_learned(&target, false, lsharp::learn(alphabet(&s), &mut DlaTeacher { target: &target }, false))?;
    }

    #[test]
    fn lsharp_learns_random_prefix_closed_dfas(s in shape(true)) {
        let target = build(&s);
        check_learned(&target, true, lsharp::learn(alphabet(&s), &mut DlaTeacher { target: &target }, true))?;
    }

    #[test]
    fn lsharp_with_the_ads_rule_learns_random_dfas(s in shape(false)) {
        let target = build(&s);
        check_learned(&target, false, lsharp::learn_with(alphabet(&s), &mut DlaTeacher { target: &target }, false, Separation::Ads))?;
    }

    #[test]
    fn lsharp_with_the_ads_rule_learns_random_prefix_closed_dfas(s in shape(true)) {
        let target = build(&s);
        check_learned(&target, true, lsharp::learn_with(alphabet(&s), &mut DlaTeacher { target: &target }, true, Separation::Ads))?;
    }

    #[test]
    fn lsharp_with_prefix_queries_learns_random_dfas(s in shape(false)) {
        let target = build(&s);
        check_learned(&target, false, lsharp_with_prefixes(&s, &target, false, Separation::Witness))?;
    }

    #[test]
    fn lsharp_with_prefix_queries_learns_random_prefix_closed_dfas(s in shape(true)) {
        let target = build(&s);
        check_learned(&target, true, lsharp_with_prefixes(&s, &target, true, Separation::Witness))?;
    }

    #[test]
    fn lsharp_with_prefix_queries_and_the_ads_rule_learns_random_dfas(s in shape(false)) {
        let target = build(&s);
        check_learned(&target, false, lsharp_with_prefixes(&s, &target, false, Separation::Ads))?;
    }

    #[test]
    fn lsharp_with_prefix_queries_and_the_ads_rule_learns_random_prefix_closed_dfas(s in shape(true)) {
        let target = build(&s);
        check_learned(&target, true, lsharp_with_prefixes(&s, &target, true, Separation::Ads))?;
    }

    /// Adaptive L# with a reference that has nothing to do with the target (another random
    /// DFA, over letters the target may not have): the reference costs queries, not the result.
    #[test]
    fn adaptive_lsharp_learns_random_dfas_with_an_unrelated_reference(
        prefix_closed in any::<bool>(),
        s in shape(false),
        r in shape(false),
    ) {
        let s = if prefix_closed { Shape { accepting: vec![true; s.accepting.len()], ..s } } else { s };
        let (target, reference) = (build(&s), build(&r));
        let learned = adaptive::learn(alphabet(&s), &mut DlaTeacher { target: &target }, prefix_closed, &reference);
        check_learned(&target, prefix_closed, learned)?;
    }
}

/// L# refuses a word that is no counterexample, and one with a letter outside its alphabet.
#[test]
fn lsharp_refuses_words_that_are_not_counterexamples() {
    let s = Shape { k: 2, accepting: vec![true, false], next: vec![vec![Some(1), Some(0)], vec![Some(1), Some(1)]] };
    let target = build(&s);
    let mut teacher = DlaTeacher { target: &target };
    let mut l = LSharp::new(alphabet(&s), false);
    l.close(&mut teacher);
    let h = l.hypothesis();
    assert_eq!(difference(&target, &h), None);
    let word: Vec<String> = vec!["a".into(), "b".into()];
    assert!(matches!(l.refine(&word, &mut teacher), Err(lstar::LearnError::NotACounterexample(_))));
    assert!(matches!(l.refine(&["z".to_string()], &mut teacher), Err(lstar::LearnError::UnknownLetter(_))));
}

/// `s` with the transition of state `q` on letter `a` redirected to `to` (or removed).
fn perturbed(s: &Shape, q: usize, a: usize, to: Option<usize>) -> Shape {
    let mut t = s.clone();
    let n = t.accepting.len();
    t.next[q % n][a % t.k] = to.map(|x| x % n);
    t
}

/// Refines a learner with a counterexample.
type Refine<'a> = dyn FnMut(&[String], &mut DlaTeacher) -> Result<(), lstar::LearnError> + 'a;

/// Runs hypotheses and counterexamples to the end.
fn finish(
    teacher: &mut DlaTeacher,
    hypothesis: &mut dyn FnMut() -> Dla,
    refine: &mut Refine,
) -> Result<Dla, TestCaseError> {
    loop {
        let h = hypothesis();
        match teacher.candidate(&h) {
            None => return Ok(h),
            Some(cex) => refine(&cex, teacher).map_err(|e| TestCaseError::fail(e.to_string()))?,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Adaptive learning: a learner that learned one target, re-used for a perturbed one
    /// (L#'s replay of its old basis, L*'s table re-validation), learns the new target.
    #[test]
    fn every_learner_relearns_a_perturbed_target(
        prefix_closed in any::<bool>(),
        s in shape(false),
        q in 0usize..10,
        a in 0usize..3,
        to in proptest::option::of(0usize..10),
    ) {
        let s = if prefix_closed { Shape { accepting: vec![true; s.accepting.len()], ..s } } else { s };
        let (old, new) = (build(&s), build(&perturbed(&s, q, a, to)));
        let (mut old_teacher, mut new_teacher) = (DlaTeacher { target: &old }, DlaTeacher { target: &new });

        let mut sharp = LSharp::new(alphabet(&s), prefix_closed);
        sharp.close(&mut old_teacher);
        let cell = std::cell::RefCell::new(sharp);
        finish(&mut old_teacher, &mut || cell.borrow_mut().hypothesis(), &mut |c, t| cell.borrow_mut().refine(c, t))?;
        let mut again = LSharp::replay(&cell.borrow(), &mut new_teacher);
        again.close(&mut new_teacher);
        let cell = std::cell::RefCell::new(again);
        let h = finish(&mut new_teacher, &mut || cell.borrow_mut().hypothesis(), &mut |c, t| cell.borrow_mut().refine(c, t))?;
        prop_assert_eq!(difference(&new, &h), None);

        // Adaptive L#, with the old hypothesis as its reference model.
        let old_hypothesis = lsharp::learn(alphabet(&s), &mut old_teacher, prefix_closed).map_err(|e| TestCaseError::fail(e.to_string()))?.0;
        let learned = adaptive::learn(alphabet(&s), &mut new_teacher, prefix_closed, &old_hypothesis);
        check_learned(&new, prefix_closed, learned)?;

        let mut star = lstar::Learner::new(alphabet(&s), CexMode::RivestSchapire, prefix_closed);
        star.close(&mut old_teacher);
        let cell = std::cell::RefCell::new(star);
        finish(&mut old_teacher, &mut || cell.borrow_mut().hypothesis(), &mut |c, t| cell.borrow_mut().refine(c, t))?;
        cell.borrow_mut().revalidate(&mut new_teacher);
        cell.borrow_mut().close(&mut new_teacher);
        let h = finish(&mut new_teacher, &mut || cell.borrow_mut().hypothesis(), &mut |c, t| cell.borrow_mut().refine(c, t))?;
        prop_assert_eq!(difference(&new, &h), None);
    }
}

/// A teacher that stops its learner ([`Membership::stopped`]) once it has answered `limit`
/// membership queries, as DynamicCheck's oracle does at the run's deadline, and counts what
/// it is asked after that.
struct StoppingTeacher<'a> {
    inner: DlaTeacher<'a>,
    limit: usize,
    asked: usize,
    asked_after_stop: usize,
    candidates_after_stop: usize,
}

impl Membership for StoppingTeacher<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        if self.asked >= self.limit {
            self.asked_after_stop += 1;
        }
        self.asked += 1;
        self.inner.member(word)
    }

    fn stopped(&mut self) -> bool {
        self.asked >= self.limit
    }
}

impl Teacher for StoppingTeacher<'_> {
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>> {
        if self.asked >= self.limit {
            self.candidates_after_stop += 1;
        }
        self.inner.candidate(hypothesis)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A learner whose teacher stops it (the deadline passed) returns `Stopped` without a
    /// hypothesis, and asks at most one step's queries after the stop (one letter after each
    /// basis node, or one separating word against each), however much learning was left.
    #[test]
    fn a_stopped_learner_ends_with_stopped_and_asks_no_more(
        prefix_closed in any::<bool>(),
        s in shape(false),
        r in shape(false),
        limit in 0usize..40,
    ) {
        let s = if prefix_closed { Shape { accepting: vec![true; s.accepting.len()], ..s } } else { s };
        let (target, reference) = (build(&s), build(&r));
        // One step's queries: each letter after, and two separating words against, each of
        // at most 11 basis nodes.
        let step = 3 * s.k * 11 + 2;
        for learner in ["lstar", "lsharp", "adaptive"] {
            let mut t = StoppingTeacher {
                inner: DlaTeacher { target: &target },
                limit,
                asked: 0,
                asked_after_stop: 0,
                candidates_after_stop: 0,
            };
            let learned = match learner {
                "lstar" => lstar::learn(alphabet(&s), &mut t, CexMode::RivestSchapire, prefix_closed),
                "lsharp" => lsharp::learn(alphabet(&s), &mut t, prefix_closed),
                _ => adaptive::learn(alphabet(&s), &mut t, prefix_closed, &reference),
            };
            match learned {
                Ok((h, _)) => prop_assert_eq!(difference(&target, &h), None, "{}", learner),
                Err(e) => prop_assert_eq!(e, lstar::LearnError::Stopped, "{}", learner),
            }
            prop_assert_eq!(t.candidates_after_stop, 0, "{}", learner);
            prop_assert!(t.asked_after_stop <= step, "{}: {} queries after the stop", learner, t.asked_after_stop);
        }
    }
}
