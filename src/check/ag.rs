//! Compositional verification by learned assumptions: the assume-guarantee rule of paper 000
//! (Section 4.2) applied recursively to n components, and DynamicCheck of paper 003 (Fig. 3),
//! which re-uses the tables, assumptions and results of a previous run after an upgrade.
//!
//! For components `M_0 .. M_{n-1}` (in the chosen order) and a property φ, level `i` learns
//! an assumption `A_i` over `Σ_i = (αM_i ∪ αφ_i) ∩ α(M_{i+1} || .. || M_{n-1})` such that
//! `M_i || A_i ⊨ φ_i`, then checks the rest against it: `φ_{i+1} = A_i`. The last component
//! is model checked against `φ_{n-1}`.
//!
//! - Membership (`σ ∈ U_i`): `⟨A_σ⟩ M_i ⟨φ_i⟩`, by a safety check of the linear automaton of σ
//!   with `M_i` ([`AssumptionOracle`]), which remembers where each prefix asked leads, since the
//!   words of an observation table share their prefixes.
//! - Oracle 1 (`GenerateAssumption`): `⟨A⟩ M_i ⟨φ_i⟩`; a violation trace projected on `Σ_i` is a
//!   word of the candidate outside `U_i`.
//! - Oracle 2 is the recursive check of the rest against `A_i`. Its counterexample `ce` is
//!   analysed: if `ce|Σ_i ∈ U_i` the assumption was too strong and `ce|Σ_i` weakens it
//!   (`UpdateAssumption`); otherwise the violation is real and a witness over all components is
//!   built by a safety check of `M_i .. M_{n-1}` constrained to follow `ce`.
//!
//! Re-use (DynamicCheck): each level keeps its component, its property, its table (or tree)
//! and the assumption and result of the last run. A level whose component and property are
//! unchanged starts from its table as it is. Otherwise, by default ([`Reuse::Hints`]), it also
//! starts from its old table as it is, taking the old answers as hints. Oracle 1 and the check
//! of the rest decide whether a candidate built from them is used, so the verdict never rests
//! on a hint. The first counterexample that contradicts a hint re-validates the table against
//! the new language (dynamic L*, Theorem 2). With [`Reuse::Revalidate`] every changed level is
//! re-validated at once, as paper 003 does. A level whose assumption and deeper components are
//! unchanged re-uses the previous result of the deeper check (Fig. 3 lines 4 and 8). Since
//! levels below the first changed component keep their component and property, only
//! assumptions from that index on are looked at again, as Lemma 1 allows.
//!
//! A run whose levels hold answers of an earlier run (an upgrade, a CEGAR round, the cache)
//! first runs Fig. 3 from them, so that the old assumptions are checked against the new
//! components before anything else, within a budget of membership queries ([`REUSE_SHARE`]
//! of what the levels cost to learn). Past the budget, the run goes on as a run without
//! levels would: the search below, then learning (from the levels it has). With the whole
//! budget, the attempt is staged ([`SHORT_ATTEMPT_SHARE`]): a sixteenth of it first (old
//! assumptions that suffice need a few queries), then the search within as many states as
//! the budget has queries (a violation of the product, which is what makes an attempt fail,
//! is mostly a few events deep in an upgrade's CEGAR rounds), then the rest of the budget;
//! the search later goes on where it stopped ([`safety::Search`]). Once re-using the levels
//! ran over the whole budget, the next runs (the next CEGAR rounds, which differ by one
//! refined component) try them with no query at all until a run learns from them within the
//! budget ([`DynamicChecker::renew_reuse`] for a new version). A violation that the old
//! assumptions lead to is reported by the search's shortest trace of the product when the
//! search finds one within its budget, since CEGAR refines the components along it. A run on exactly
//! the automata of the last decided run re-uses its outcome (Fig. 3 line 4 for the whole
//! assembly). For re-use to have assumptions at all where the search decides, a checker
//! [`DynamicChecker::with_learning_after_search`] learns them after the search has proved the
//! property (`subst check` does so for the old version), within a budget of the search's
//! explored states.
//!
//! Within such a run, the first level whose component changed tries its old candidate first;
//! when Oracle 1 rejects it for the new component, the recursive call of Fig. 3 line 7 for the
//! changed suffix (`M_k || .. || M_{n-1} ⊨ A_{k-1}`, whose answer is a counterexample or TRUE)
//! is made by a bounded search of the suffix's product, not by learning
//! (`DynamicChecker::search_suffix`); so is the check from a level above whose old
//! assumption turns out too strong or too coarse for the changed suffix. The levels above keep
//! their components, so their assumptions still discharge premise 1 (Lemma 1), and the callers
//! analyse a violation as Fig. 3 lines 9-15 do. A violation whose trace is as long as one a
//! suffix search found is a shortest one of the product and needs no search of the product.
//!
//! A run copies only the components that changed since the last run: the components are
//! shared (`Arc`) by the run, its levels, an attempt's snapshot and the outcome kept, and each
//! component's [`expose_errors`] is kept, keyed by the component, its index and whether it may
//! fail (the property by itself and the error events it must forbid).
//!
//! What a re-check of unchanged levels costs is kept to what the rule needs (on the IPC's P1
//! after `ipc4`, from 0.5 ms to 0.1 to 0.2 ms, `benches/COMPAT.md`). A level whose component
//! and property are unchanged, over the same alphabet, re-uses its table or tree and its
//! assumption as they are (Fig. 3 line 5): when the deeper check holds with it, the level
//! ends as it was, without copying its learner or building its oracle; a violation goes on
//! as before. A level keeps its interface for components of the same alphabets and a property
//! of the same alphabet (it depends on nothing else), and `P_err` for an equal property. The
//! oracle builds `P_err` and its index maps at its first question. Oracle 1 first asks a
//! check without a trace ([`safety::error_reachable`]: the same product, the same answer),
//! and searches again for the shortest trace only when it fails. None of this changes a
//! question asked or an answer: each shortcut re-uses a result only for exactly what it was
//! computed from.
//!
//! A run may be given a limit of membership queries in all ([`DynamicChecker::set_work_limit`]),
//! past which it stops as at the deadline; `subst check` bounds its attempt at re-use after an
//! upgrade with it (`check::compat`, `REUSE_WORK_SHARE`).
//!
//! Without levels to re-use, a bounded breadth-first search of the product ([`PROBE_STATES`]
//! states in a checker's first run, in later runs [`SEARCH_GROWTH`] times the states of its
//! largest search that decided when that is more; with levels, [`PROBE_STATES`]) looks for a
//! violation. The rule finds a shallow violation only after every level has learned a
//! candidate (`benches/SCALABLE.md`, TURNS). The search only ever returns a real trace of the
//! product, and "holds" only when it has explored every state of the product: then it is
//! the monolithic check itself, and learning would only cost time (in the last
//! CEGAR round on the IPC at sizes 1/1, 0.5 s of learning after the product was explored).
//! A run decided by the search leaves the levels as they were.
//!
//! Learners: L* (tables) or L# ([`DynamicChecker::with_algorithm`]; an observation tree per
//! level). Re-validating an L# tree asks every word of the old tree again of the new level
//! ([`crate::learn::LSharp::replay`]). Both are written to the cache ([`SavedLevel`]).
//!
//! With [`Reuse::Adaptive`], a changed L# level learns afresh with adaptive L# (Kruger, Junges
//! and Rot, FM 2024; [`crate::learn::adaptive`]), its old assumption as the reference model.
//!
//! # Alphabet refinement
//!
//! With [`InterfaceAlphabet::Refine`] (Gheorghiu, Giannakopoulou and Păsăreanu, "Refining
//! interface alphabets for compositional verification", TACAS 2007), level `i` learns its
//! assumption over a part `Σ_A ⊆ Σ_i` of the interface. With a smaller alphabet the rule is
//! still sound, though no longer complete (an assumption that proves the property may need
//! events outside `Σ_A`). The argument, for the premises as this module checks them: let `t`
//! be a trace of `M_i || M_{i+1} || .. || M_{n-1}` that violates `φ_i`. Its projection on the rest is a
//! trace of the rest, so premise 2 (the rest satisfies `A_i`, a property over `Σ_A ⊆
//! α(rest)`) puts `t|Σ_A` in `L(A_i)`. `A_i` and `M_i` synchronise on `Σ_A` only, and every
//! other event of `M_i` is its own move in `A_i || M_i`, so `t` projected on `αM_i ∪ Σ_A` is a
//! trace of `A_i || M_i`; it violates `φ_i` when every event of `φ_i` that the rest performs
//! is in `αM_i ∪ Σ_A` (properties observe the events of the parts, [`safety::check`]). That
//! contradicts premise 1, `⟨A_i⟩ M_i ⟨φ_i⟩`. The condition holds because `Σ_A` starts with
//! every event of `φ_i` in `Σ_i` ([`initial_alphabet`]; the paper starts from the property's
//! alphabet) and only grows. So each premise is checked with the projection the paper
//! prescribes: Oracle 1 composes the candidate over `Σ_A` with `M_i`, membership asks
//! `⟨σ⟩ M_i ⟨φ_i⟩` for `σ ∈ Σ_A*` with `M_i`'s events in `Σ_i \ Σ_A` as its own moves (the
//! oracle closes over them as over internal events), and the next level checks the rest
//! against `A_i` over `Σ_A`.
//!
//! The counterexample `ce` of the rest is analysed as in the paper:
//! 1. `ce|Σ_A ∈ U_i` (`⟨ce|Σ_A⟩ M_i ⟨φ_i⟩`): the assumption is too strong; `ce|Σ_A` refines
//!    the learner.
//! 2. Otherwise, when `Σ_A ≠ Σ_i`, the same question over the whole interface:
//!    `⟨ce|Σ_i⟩ M_i ⟨φ_i⟩`. If it fails, the violation is real, and the witness is a trace of
//!    `M_i || .. || M_{n-1}` constrained to follow `ce`, found by a search of the real
//!    components (so every "fails" is a trace of the whole assembly).
//! 3. Otherwise `ce` is spurious only because the assumption ignores some interface events:
//!    [`widen`] adds the first events where the component's violating trace and `ce` differ
//!    over `Σ_i`, and the level learns again from nothing over the larger alphabet.
//!
//! Each refinement adds an event of the finite `Σ_i`, and with `Σ_A = Σ_i` the analysis is
//! paper 000's, so refinement ends. A level starts from the alphabet it ended with in the
//! previous run (CEGAR rounds, upgrades, the cache), so that its table or tree stays usable
//! and the events it added are not looked for again. Alphabets shrink the levels below too: `φ_{i+1} = A_i` has
//! the alphabet `Σ_A`, so the next interface is `(αM_{i+1} ∪ Σ_A) ∩ α(M_{i+2} || ..)`.
//! A refinement keeps the level's accepted answers (`LevelLearner::widened`): over the
//! wider alphabet the events added are no longer free moves of the component, so a word it
//! accepted stays accepted; rejected answers are dropped (the paper drops all of them).
//! Weaknesses: an assumption that needs most of its interface still re-asks every rejected
//! word and the new letters' extensions per missing event; the paper's other choices of
//! events to add ("backward", all differences) are not implemented.
//!
//! Known weaknesses: a contradicted hint re-validates the whole table or tree, and in CEGAR
//! rounds on the IPC it is contradicted in most rounds. The re-use budget bounds the queries
//! of a failed attempt, not its safety checks (Oracle 1, the last level), and a fallback costs
//! the attempts plus the search (the staged attempts ask at most the budget together, and
//! the search goes on where it stopped). Which round of an upgrade's CEGAR loop the old
//! levels decide is not known in advance: a round whose violation lies deeper than the
//! staged search spends the whole budget on it (P2 `new_assumptions`: its third round, where
//! the first round did before), and its successors then get none. Learning after the search
//! costs the old version's check up
//! to a budget of queries for a re-check that may never come (`verify` does not do it). Assumptions range
//! over events only (the state propositions of paper 003's state/event L* are not yet part of
//! the interface). Counterexample witnesses are found by an explicit search of the constrained
//! product. A search of the product that gives up has cost its whole budget for nothing: on
//! the scalable assembly at N = 8 the rule alone takes 1.3 s and the default engine 3 s
//! (`benches/SCALABLE.md`); the first budget of 50,000 states is what P2 of the IPC at sizes 1/1
//! needs, and later rounds get more only after a search that decided needed more than a quarter of it.
//! When the search gives up, the rule's counterexample is a trace of the product but not a
//! shortest one, and CEGAR may then take another (on the IPC, a costlier) path than mono's.
//! A search of a changed suffix that starts near the top is most of the product and rarely
//! decides within its budget: P2 `ipc2` changes level 1 of 7, and its last round spends one
//! such search (552 states) before the old levels prove it (a search that gave up is not
//! repeated in the run, but not taken up where it stopped either).

use crate::util::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::automata::dla::{Builder, Dla, StateId};
use crate::automata::safety::{self, Safety, Search};
use crate::learn::lstar::LearnError;
use crate::learn::{Algorithm, CexMode, LSharp, Learner, Membership, SavedTree, Stats, Table};

/// The result of a compositional check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The property holds on the composition.
    Holds,
    /// A trace of the composition that violates the property (hidden events included).
    Violated(Vec<String>),
    /// The deadline ([`DynamicChecker::set_deadline`]) passed first. Nothing of the
    /// interrupted levels was kept: the checker holds only what finished.
    Stopped,
}

impl Outcome {
    /// The verdict of this outcome, with the events that `hidden` names left out of traces.
    pub fn into_verdict(self, hidden: &dyn Fn(&str) -> bool) -> super::Verdict {
        match self {
            Outcome::Holds => super::Verdict::Holds,
            Outcome::Violated(t) => super::Verdict::Fails(t.into_iter().filter(|e| !hidden(e)).collect()),
            // The limit itself is known to whoever set the deadline.
            Outcome::Stopped => super::Verdict::Unknown(super::Reason::Timeout(std::time::Duration::ZERO)),
        }
    }
}

/// Work done by one run, summed over levels.
#[derive(Clone, Debug, Default)]
pub struct AgStats {
    /// Membership queries answered by model checking.
    pub membership: usize,
    /// Membership queries per level (the level of component `i` learns `A_i`).
    pub membership_per_level: Vec<usize>,
    /// Candidates produced.
    pub candidates: usize,
    /// Safety checks run (Oracle 1, the last component, witnesses).
    pub checks: usize,
    /// States of each level's final assumption.
    pub assumption_states: Vec<usize>,
    /// Levels whose table was re-validated.
    pub revalidated: Vec<usize>,
    /// Levels whose table was re-used unchanged.
    pub reused: Vec<usize>,
    /// Levels whose deeper result was re-used without checking.
    pub results_reused: Vec<usize>,
    /// Levels whose component or property changed and that started from their old table or
    /// tree as it was, its answers taken as hints ([`Reuse::Hints`]).
    pub hinted: Vec<usize>,
    /// Levels where a hint was contradicted, so that the table or tree was re-validated.
    pub contradicted: Vec<usize>,
    /// Time spent learning (closing tables, candidates, Oracle 1).
    pub learning: Duration,
    /// Time spent in the other checks.
    pub checking: Duration,
    /// Product states explored by the bounded search for a violation before learning
    /// ([`PROBE_STATES`]).
    pub probed: usize,
    /// The state budget of the last search of the product in this run
    /// ([`DynamicChecker::search_budget`]; 0 when the run did not search).
    pub search_budget: usize,
    /// The search explored the whole product without finding a violation, so the property
    /// holds without learning.
    pub decided_by_probe: bool,
    /// The search found a violation of the product before learning.
    pub violated_by_probe: bool,
    /// Per level, the size of the assumption's alphabet and of the level's whole interface,
    /// at the level's last check ([`InterfaceAlphabet`]; equal under `Full`).
    pub alphabet_per_level: Vec<(usize, usize)>,
    /// Per level, how many times a spurious counterexample widened the alphabet.
    pub alphabet_refinements: Vec<usize>,
    /// The components and property were those of the last run that decided, whose outcome
    /// was re-used without any check.
    pub result_reused: bool,
    /// The membership queries that re-using the earlier run's levels was given
    /// ([`REUSE_SHARE`]), when the run started from them: 0 when re-using these levels ran
    /// over the budget in an earlier run ([`DynamicChecker::renew_reuse`]).
    pub reuse_budget: Option<usize>,
    /// Re-use ran over its budget, and the run searched the product before learning on.
    pub fell_back: bool,
    /// The search of the product proved the property, and the levels were learned afterwards
    /// for a later run ([`DynamicChecker::with_learning_after_search`]) within their budget.
    pub learned_after_search: bool,
    /// Membership queries asked by the re-use given up on (included in `membership`; here the
    /// oracle's count, which includes the query that analyses each counterexample).
    pub abandoned_membership: usize,
    /// Product states explored by searches of the changed suffix against the assumption of
    /// the level above it (`DynamicChecker::search_suffix`).
    pub suffix_states: usize,
    /// Searches of the changed suffix that decided the level's check (a violation of the
    /// assumption above, or the whole suffix explored).
    pub suffix_decided: usize,
}

/// What DynamicCheck did over the runs of one check (the rounds of a CEGAR loop, or the one
/// run of an FSP check), for `--stats`: how each run was decided, and what re-use cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// Runs of DynamicCheck.
    pub runs: usize,
    /// Runs decided by the search of the product before learning: it found a violation, or
    /// explored the whole product without one.
    pub decided_by_search: usize,
    /// Runs that started from the levels of an earlier run ([`AgStats::reuse_budget`]).
    pub from_earlier_levels: usize,
    /// Of those, runs whose re-use ran over its budget and fell back ([`AgStats::fell_back`]).
    pub over_budget: usize,
    /// Membership queries given up with them ([`AgStats::abandoned_membership`]).
    pub abandoned_membership: usize,
    /// Runs on the very automata of the last decided run, whose outcome was re-used.
    pub outcome_reused: usize,
    /// Some run's levels were learned after the search proved the property, for a later run.
    pub learned_after_search: bool,
    /// Runs in which a search of the changed suffix decided a level's check instead of
    /// learning ([`AgStats::suffix_decided`]).
    pub decided_by_suffix_search: usize,
    /// Product states those searches explored, over all runs ([`AgStats::suffix_states`]).
    pub suffix_states: usize,
}

impl RunCounts {
    /// Adds one run of DynamicCheck.
    pub fn add(&mut self, s: &AgStats) {
        self.runs += 1;
        self.decided_by_search += usize::from(s.decided_by_probe || s.violated_by_probe);
        self.from_earlier_levels += usize::from(s.reuse_budget.is_some());
        self.over_budget += usize::from(s.fell_back);
        self.abandoned_membership += s.abandoned_membership;
        self.outcome_reused += usize::from(s.result_reused);
        self.learned_after_search |= s.learned_after_search;
        self.decided_by_suffix_search += usize::from(s.suffix_decided > 0);
        self.suffix_states += s.suffix_states;
    }

    /// The counts of one run.
    pub fn of(s: &AgStats) -> RunCounts {
        let mut c = RunCounts::default();
        c.add(s);
        c
    }
}

/// Adds what one learner of level `i` did to `stats`.
fn count_learner(stats: &mut AgStats, i: usize, s: &Stats) {
    stats.membership += s.membership;
    stats.candidates += s.candidates;
    if stats.membership_per_level.len() <= i {
        stats.membership_per_level.resize(i + 1, 0);
    }
    stats.membership_per_level[i] += s.membership;
}

/// What a level remembers from the previous run.
#[derive(Clone, Debug, Default)]
struct Level {
    /// Shared with the run's components, so that keeping it, and a snapshot of the levels
    /// ([`DynamicChecker::attempt`]), copies no automaton.
    component: Option<Arc<Dla>>,
    property: Option<Option<Dla>>,
    table: Option<Arc<Table>>,
    /// The L# learner of the last run, when the checker learns with L#.
    tree: Option<Arc<LSharp>>,
    /// For a table restored from the cache ([`DynamicChecker::restore`]) before the level
    /// runs: the [`level_digest`] of the component and property it was learned for.
    digest: Option<String>,
    /// The table or tree may hold answers that were not asked of `component` and `property`
    /// (hints kept from an earlier level, [`Reuse::Hints`]).
    hints: bool,
    assumption: Option<Dla>,
    /// The deeper result obtained with `assumption`.
    result: Option<Outcome>,
    /// The level's interface as the last run computed it ([`DynamicChecker::interface`]).
    interface: Option<Arc<KeptInterface>>,
    /// A property of the level and its `P_err`, as the level's oracle last used them
    /// ([`DynamicChecker::p_err`]).
    p_err: Option<Arc<(Dla, Arc<Dla>)>>,
}

/// A level's interface `(αM_i ∪ αφ_i) ∩ α(M_{i+1} || ..)` and what it was computed from: the
/// components from the level on (whose alphabets count; held here, so that one compared by
/// identity cannot have been freed and another one taken its place), and the property's
/// alphabet.
#[derive(Debug)]
struct KeptInterface {
    components: Vec<Arc<Dla>>,
    property_alphabet: Vec<String>,
    interface: Vec<String>,
}

/// What the cache keeps of a level: its observation table (L*) or the answers of its
/// observation tree (L#), and the [`level_digest`] of the component and property that the
/// answers are about.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SavedLevel {
    /// The table at the end of the level's last finished run, when it learned with L*.
    pub table: Option<Table>,
    /// The tree's answers at the end of the level's last finished run, when it learned with L#.
    #[serde(default)]
    pub tree: Option<SavedTree>,
    /// The digest of the component and property it was learned for.
    pub digest: String,
}

/// A BLAKE3 digest of a level's component and property: equal digests mean equal automata,
/// so a table learned for one answers for the other.
pub fn level_digest(component: &Dla, property: Option<&Dla>) -> String {
    let mut h = blake3::Hasher::new();
    component.hash_into(&mut h);
    match property {
        Some(p) => {
            h.update(&[1]);
            p.hash_into(&mut h);
        }
        None => {
            h.update(&[0]);
        }
    }
    h.finalize().to_hex().to_string()
}

/// The prefix of the events that stand for reaching a component's error state.
pub const ERROR_EVENT: &str = "__error.";

/// Makes the error states of components visible as events, so that the assume-guarantee rule
/// treats them like any property violation: each error state of component `k` becomes a
/// state whose only step is the event `__error.k` into a dead end, and the property forbids
/// those events. Without this, a later component's own error could not be expressed as a
/// violation of an assumption, and learning would not converge.
///
/// Component `k` gets its event when it has an error state or when `fallible[k]` says it may
/// have one: a refined abstraction loses or gains error states, and an event that comes and
/// goes would change the interfaces, so that no table could be re-used from round to round.
pub fn expose_errors(components: &[Dla], property: Option<&Dla>, fallible: &[bool]) -> (Vec<Dla>, Option<Dla>) {
    let mut out = Vec::with_capacity(components.len());
    let mut forbidden: Vec<String> = Vec::new();
    for (k, c) in components.iter().enumerate() {
        if !exposes(c, fallible.get(k).copied().unwrap_or(false)) {
            out.push(c.clone());
            continue;
        }
        forbidden.push(error_event(k));
        out.push(expose_component(k, c));
    }
    (out, expose_property(property, &forbidden))
}

/// Whether [`expose_errors`] gives component `c` its error event.
fn exposes(c: &Dla, fallible: bool) -> bool {
    fallible || c.states().iter().any(|s| s.kind == crate::automata::dla::Kind::Error)
}

/// The event that stands for component `k` reaching its error state.
fn error_event(k: usize) -> String {
    format!("{ERROR_EVENT}{k}")
}

/// Component `k` with its error states turned into the step `__error.k` ([`expose_errors`]).
fn expose_component(k: usize, c: &Dla) -> Dla {
    c.with_error_step(&error_event(k))
}

/// [`expose_component`] by a [`Builder`], one name at a time: what it must equal.
#[cfg(test)]
fn expose_component_built(k: usize, c: &Dla) -> Dla {
    let event = error_event(k);
    let mut b = Builder::new();
    for e in c.alphabet() {
        b.add_event(e);
    }
    b.add_event(&event);
    for p in c.props() {
        b.add_prop(p);
    }
    for s in c.states() {
        let label = c.label_of(&s.label);
        let label: Vec<&str> = label.iter().map(String::as_str).collect();
        let accepting = !matches!(s.kind, crate::automata::dla::Kind::Normal { accepting: false });
        b.add_state(&label, accepting);
    }
    let dead = b.add_state(&[], true);
    for (i, s) in c.states().iter().enumerate() {
        let from = crate::automata::StateId(i as u32);
        if s.kind == crate::automata::dla::Kind::Error {
            b.add_transition(from, &event, dead);
        }
        for t in &s.out {
            b.add_transition(from, c.event_name(t.event), t.to);
        }
    }
    for &i in c.initial() {
        b.set_initial(i);
    }
    b.build()
}

/// The property of [`expose_errors`]: `property` that also forbids the events `forbidden`.
fn expose_property(property: Option<&Dla>, forbidden: &[String]) -> Option<Dla> {
    if forbidden.is_empty() {
        return property.cloned();
    }
    // A one-state property over the error events that allows none of them.
    let mut b = Builder::new();
    for e in forbidden {
        b.add_event(e);
    }
    let s = b.add_state(&[], true);
    b.set_initial(s);
    let no_errors = b.build();
    let property = match property {
        Some(p) => crate::automata::compose::compose(&[p, &no_errors]),
        None => no_errors,
    };
    Some(property)
}

/// How many product states the bounded search for a violation explores before learning
/// starts (`probe`), in the first run of a checker; later runs may explore more
/// ([`SEARCH_GROWTH`]).
pub const PROBE_STATES: usize = 50_000;

/// While a checker holds no levels to re-use, a search of the product may explore this many
/// times the states of the largest search of the same checker that decided, when that is
/// more than its budget ([`PROBE_STATES`], `--probe-states`). The runs of one checker are the rounds of one CEGAR loop, whose
/// products differ by one refined component, so a product that needed `S` states to decide
/// in one round rarely needs more than a few times `S` in the next. On the IPC at sizes
/// 2/2 the 50,000 states of the first budget ran out in round 20 of P2 (35,906 states in
/// round 19), and from there the rule's counterexamples led CEGAR along a path of 45% more
/// SMT calls than mono's (`benches/IPC_SCALE.md`). A search that gives up costs at most
/// this many times a search that was worth doing, and one that decides is the check the
/// monolithic engine would have made. On the scalable assembly, where the rule wins, the
/// searches that decide need at most 3,022 states (N = 10), so the budget stays 50,000 there.
pub const SEARCH_GROWTH: usize = 4;

/// A breadth-first search of the whole product for a violation, given up once `search` has
/// explored `budget` states in all (a later call may take it up again). The recursive rule
/// finds a violation only at its last level, after every level above has learned a
/// candidate that passes Oracle 1. A violation a few events deep costs mono a few hundred
/// states, and it cost the rule thousands of membership queries (`benches/SCALABLE.md`,
/// TURNS). What the search finds is a shortest trace of the product itself, so it is the
/// witness mono would give. When it explores the whole product within
/// `budget` without finding one, the property holds: that is the monolithic check's answer,
/// from the same product. Only when the budget runs out does the rule run.
fn probe(search: &mut Search, budget: usize, stats: &mut AgStats) -> Option<Outcome> {
    if budget == 0 {
        return None;
    }
    let start = Instant::now();
    let before = search.explored();
    stats.checks += 1;
    let found = search.run(budget);
    stats.checking += start.elapsed();
    tracing::debug!(
        budget,
        before,
        elapsed = ?start.elapsed(),
        states = found.as_ref().map(|f| match f {
            Safety::Violated { states, .. } | Safety::Holds { states } => *states,
        }),
        violated = matches!(found, Some(Safety::Violated { .. })),
        "search of the product"
    );
    stats.probed += search.explored().saturating_sub(before);
    match found {
        Some(Safety::Violated { trace, .. }) => {
            stats.violated_by_probe = true;
            Some(Outcome::Violated(trace))
        }
        Some(Safety::Holds { .. }) => {
            // The whole product was explored: this is the monolithic check's own answer.
            stats.decided_by_probe = true;
            Some(Outcome::Holds)
        }
        None => None,
    }
}

/// The search of the product of `components` against `property`, which has explored nothing yet.
fn product_search<'a>(components: &'a [Arc<Dla>], property: Option<&Dla>) -> Search<'a> {
    let parts: Vec<&Dla> = components.iter().map(|c| &**c).collect();
    Search::new(&parts, &|_| false, property).expect("properties and assumptions are deterministic")
}

/// The linear automaton of a word: it performs the word's events in order over `alphabet`.
pub fn linear(word: &[String], alphabet: &[String]) -> Dla {
    let mut b = Builder::new();
    for e in alphabet {
        b.add_event(e);
    }
    let mut at = b.add_state(&[], true);
    b.set_initial(at);
    for e in word {
        let next = b.add_state(&[], true);
        b.add_transition(at, e, next);
        at = next;
    }
    b.build()
}

/// Membership in the weakest assumption of `component` for `property`: a word over the
/// interface is in it when the component, driven by the word, cannot violate the property.
///
/// Queries are answered by simulation, as paper 000 does: the sets of (component state,
/// `P_err` state) pairs the word can lead to, closed under the component's events outside the
/// interface. This is the safety check of `A_σ || M || P_err` without building the product.
pub struct AssumptionOracle<'a> {
    component: &'a Dla,
    property: Option<&'a Dla>,
    interface: &'a [String],
    /// `P_err` and the index maps, built at the first query or Oracle 1: a level whose
    /// assumption is re-used as it is asks neither, and building them was most of its time.
    prepared: std::cell::OnceCell<Prepared>,
    /// `P_err`, when the caller has it already ([`AssumptionOracle::with_p_err`]).
    given_p_err: Option<Arc<Dla>>,
    /// Queries answered.
    pub queries: usize,
    /// What each word asked so far (and each of its prefixes) leads to: the words of an
    /// observation table share their prefixes, so a query only simulates its new suffix.
    memo: HashMap<Vec<u32>, After>,
    deadline: Option<Instant>,
    /// The membership queries the run may still ask, shared by the oracles of every level
    /// ([`DynamicChecker`] re-using its levels, [`REUSE_SHARE`]).
    budget: Option<Arc<AtomicUsize>>,
    /// The membership queries that the whole check may still ask ([`DynamicChecker::set_work_limit`]).
    work: Option<Arc<WorkLimit>>,
    /// The deadline passed or the budget ran out: every later answer is a placeholder, and
    /// whoever asked must drop what it learned from them.
    expired: bool,
}

type Pair = (StateId, Option<StateId>);

/// What [`AssumptionOracle`] builds before its first answer.
struct Prepared {
    p_err: Option<Arc<Dla>>,
    /// For each component event: whether it is in the interface, and `P_err`'s index for it.
    local: Vec<(bool, Option<u32>)>,
    /// For each interface letter: the component's and `P_err`'s index for it.
    letters: Vec<(Option<u32>, Option<u32>)>,
}

/// Where a word over the interface leads the component and the property.
#[derive(Clone, Debug)]
enum After {
    /// These pairs, closed under the component's moves outside the interface.
    Pairs(Vec<Pair>),
    /// The property is violated: the word is outside the weakest assumption, and so is every
    /// extension of it.
    Violated,
    /// The component cannot follow the word: it is inside, with every extension.
    Blocked,
}

/// The membership queries a check may still ask ([`DynamicChecker::set_work_limit`]), shared by
/// the oracles of every level, and whether one was refused.
#[derive(Debug, Default)]
pub struct WorkLimit {
    left: AtomicUsize,
    reached: std::sync::atomic::AtomicBool,
}

/// The most words [`AssumptionOracle`] remembers; beyond, it forgets them all.
const MEMO_WORDS: usize = 1 << 18;

/// How many membership queries pass between two looks at the clock.
const DEADLINE_EVERY: usize = 256;

/// The deadline passed inside [`DynamicChecker::dynamic_check`].
struct Stopped;

impl<'a> AssumptionOracle<'a> {
    /// The oracle for `U = {σ | ⟨A_σ⟩ component ⟨property⟩}` over `interface`.
    pub fn new(component: &'a Dla, property: Option<&'a Dla>, interface: &'a [String]) -> AssumptionOracle<'a> {
        AssumptionOracle {
            component,
            property,
            interface,
            prepared: std::cell::OnceCell::new(),
            given_p_err: None,
            queries: 0,
            memo: HashMap::default(),
            deadline: None,
            budget: None,
            work: None,
            expired: false,
        }
    }

    /// The oracle uses `p_err` as the error automaton of its property
    /// ([`safety::error_automaton`]), which the caller built for an equal property.
    pub fn with_p_err(mut self, p_err: Option<Arc<Dla>>) -> Self {
        self.given_p_err = p_err;
        self
    }

    /// The oracle answers at most as many queries truthfully as `budget` holds, taking one
    /// from it per query (shared with other oracles); then it expires as at the deadline.
    pub fn with_budget(mut self, budget: Option<Arc<AtomicUsize>>) -> Self {
        self.budget = budget;
        self
    }

    /// The oracle also takes one query per answer from `work`, the queries the whole check may
    /// still ask ([`DynamicChecker::set_work_limit`]), and expires when none is left there.
    pub fn with_work(mut self, work: Option<Arc<WorkLimit>>) -> Self {
        self.work = work;
        self
    }

    /// Takes one query from the budget and the work limit; `true` (and the oracle expires)
    /// when either had none left.
    fn over_budget(&mut self) -> bool {
        let take = |b: &AtomicUsize| b.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1)).is_ok();
        if self.budget.as_ref().is_some_and(|b| !take(b)) {
            self.expired = true;
        } else if let Some(w) = &self.work
            && !take(&w.left)
        {
            w.reached.store(true, Ordering::Relaxed);
            self.expired = true;
        }
        self.expired
    }

    /// The oracle stops answering truthfully after `deadline` (see [`AssumptionOracle::expired`]).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Whether the deadline passed (or the budget ran out) during a query: from then on, every membership query is
    /// answered `true` and Oracle 1 accepts every candidate, so that the learner stops quickly;
    /// nothing learned since may be used.
    pub fn expired(&self) -> bool {
        self.expired
    }

    /// Oracle 1: `⟨candidate⟩ component ⟨property⟩`; on failure, the violating trace projected
    /// on the interface.
    pub fn oracle1(&self, candidate: &Dla) -> Option<Vec<String>> {
        if self.expired {
            return None;
        }
        // Mostly it holds: a check without a trace says so, and a violation is searched again
        // for its shortest trace (the same answer, `safety::error_reachable`).
        let p_err = self.prepared().p_err.as_deref();
        if safety::error_reachable(&[candidate, self.component], p_err) == Some(false) {
            return None;
        }
        match check(&[candidate, self.component], self.property) {
            Safety::Holds { .. } => None,
            Safety::Violated { trace, .. } => Some(project(&trace, self.interface)),
        }
    }

    /// `P_err` and the index maps, built once.
    fn prepared(&self) -> &Prepared {
        self.prepared.get_or_init(|| {
            let p_err = self.given_p_err.clone().or_else(|| {
                self.property.map(|p| {
                    Arc::new(safety::error_automaton(p).expect("properties and assumptions are deterministic"))
                })
            });
            let local = self
                .component
                .alphabet()
                .iter()
                .map(|e| (self.interface.binary_search(e).is_ok(), p_err.as_ref().and_then(|p| p.event_index(e))))
                .collect();
            let letters = self
                .interface
                .iter()
                .map(|e| (self.component.event_index(e), p_err.as_ref().and_then(|p| p.event_index(e))))
                .collect();
            Prepared { p_err, local, letters }
        })
    }

    fn p_step(&self, p: Option<StateId>, event: Option<u32>) -> Option<StateId> {
        match (p, event, &self.prepared().p_err) {
            // P_err is deterministic and complete on its alphabet.
            (Some(q), Some(e), Some(pe)) => pe.state(q).out.iter().find(|t| t.event == e).map(|t| t.to).or(Some(q)),
            (q, _, _) => q,
        }
    }

    fn is_error(&self, (m, p): Pair) -> bool {
        self.component.is_error(m) || matches!((p, &self.prepared().p_err), (Some(q), Some(pe)) if pe.is_error(q))
    }

    /// Closes `set` under the component's moves outside the interface; `false` if an error is
    /// reachable.
    fn close(&self, set: &mut Vec<Pair>) -> bool {
        let local = &self.prepared().local;
        let mut seen: crate::util::HashSet<Pair> = set.iter().copied().collect();
        let mut stack = set.clone();
        while let Some(pair) = stack.pop() {
            if self.is_error(pair) {
                return false;
            }
            for t in &self.component.state(pair.0).out {
                let p = if t.event == crate::automata::TAU {
                    pair.1
                } else {
                    let (in_interface, p_event) = local[t.event as usize];
                    if in_interface {
                        continue;
                    }
                    self.p_step(pair.1, p_event)
                };
                let next = (t.to, p);
                if seen.insert(next) {
                    set.push(next);
                    stack.push(next);
                }
            }
        }
        true
    }
}

impl AssumptionOracle<'_> {
    /// Where the empty word leads.
    fn start(&self) -> After {
        let p0 = self.prepared().p_err.as_ref().map(|p| p.initial()[0]);
        let mut set: Vec<Pair> = self.component.initial().iter().map(|&m| (m, p0)).collect();
        if self.close(&mut set) { After::Pairs(set) } else { After::Violated }
    }

    /// Where the interface letter `ix` leads from `set`.
    fn step(&self, set: &[Pair], ix: usize) -> After {
        let (m_event, p_event) = self.prepared().letters[ix];
        let mut next: Vec<Pair> = Vec::new();
        for &(m, p) in set {
            let p2 = self.p_step(p, p_event);
            match m_event {
                None => next.push((m, p2)),
                Some(e) => next.extend(self.component.state(m).out.iter().filter(|t| t.event == e).map(|t| (t.to, p2))),
            }
        }
        next.sort_unstable();
        next.dedup();
        if next.is_empty() {
            return After::Blocked;
        }
        if self.close(&mut next) { After::Pairs(next) } else { After::Violated }
    }
}

impl Membership for AssumptionOracle<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        self.queries += 1;
        if self.expired {
            return true;
        }
        if self.queries.is_multiple_of(DEADLINE_EVERY) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.expired = true;
            return true;
        }
        if self.over_budget() {
            return true;
        }
        // A letter outside the interface: the component does not constrain it, and the answer
        // is that of the word before it.
        let mut ixs: Vec<u32> = Vec::with_capacity(word.len());
        for letter in word {
            match self.interface.binary_search(letter) {
                Ok(ix) => ixs.push(ix as u32),
                Err(_) => break,
            }
        }
        self.answer(&ixs)
    }

    fn member_indexed(&mut self, alphabet: &[String], word: &[u32]) -> bool {
        if alphabet != self.interface {
            let names: Vec<String> = word.iter().map(|&a| alphabet[a as usize].clone()).collect();
            return self.member(&names);
        }
        self.queries += 1;
        if self.expired {
            return true;
        }
        if self.queries.is_multiple_of(DEADLINE_EVERY) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.expired = true;
            return true;
        }
        if self.over_budget() {
            return true;
        }
        self.answer(word)
    }

    /// The learners' own work between queries (adaptive L#'s matching above all) looks at the
    /// deadline here, so a stop does not wait for the next `DEADLINE_EVERY` queries.
    fn stopped(&mut self) -> bool {
        if !self.expired && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.expired = true;
        }
        self.expired
    }
}

impl AssumptionOracle<'_> {
    /// The answer for a word of interface letters.
    fn answer(&mut self, ixs: &[u32]) -> bool {
        if self.memo.len() > MEMO_WORDS {
            self.memo.clear();
        }
        let known = (0..=ixs.len()).rev().find(|&k| self.memo.contains_key(&ixs[..k]));
        let (mut k, mut at) = match known {
            Some(k) => (k, self.memo[&ixs[..k]].clone()),
            None => {
                let start = self.start();
                self.memo.insert(Vec::new(), start.clone());
                (0, start)
            }
        };
        while k < ixs.len() {
            let After::Pairs(set) = &at else { break };
            at = self.step(set, ixs[k] as usize);
            k += 1;
            self.memo.insert(ixs[..k].to_vec(), at.clone());
        }
        !matches!(at, After::Violated)
    }
}

fn check(parts: &[&Dla], property: Option<&Dla>) -> Safety {
    // Assumptions and properties built here are deterministic by construction.
    safety::check(parts, &|_| false, property).expect("properties and assumptions are deterministic")
}

/// The events of `trace` that are in `alphabet` (sorted).
pub fn project(trace: &[String], alphabet: &[String]) -> Vec<String> {
    trace.iter().filter(|e| alphabet.binary_search(e).is_ok()).cloned().collect()
}

fn union_alphabet(parts: &[Arc<Dla>]) -> Vec<String> {
    let mut all: Vec<String> = parts.iter().flat_map(|p| p.alphabet().iter().cloned()).collect();
    all.sort();
    all.dedup();
    all
}

/// How a level whose component or property changed re-uses its old table or tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reuse {
    /// Every old word is asked again of the new level before learning goes on: L*'s table
    /// re-validation (paper 003, Theorem 2), L#'s replay of its tree.
    Revalidate,
    /// The old answers are taken as they are, as hints. A hypothesis built from them is only
    /// ever used after Oracle 1 has checked it against the new component, and the rest is
    /// checked against it, so the verdict rests on no hint. The first counterexample that
    /// contradicts a hint (the learner finds it is no counterexample to its own answers)
    /// re-validates the whole table or tree, after which every answer is the new level's.
    /// When the old assumption still suffices (paper 003, Section 7: in every upgrade of its
    /// Table 1), no word is asked again.
    #[default]
    Hints,
    /// Adaptive L# (Kruger, Junges and Rot, FM 2024; [`crate::learn::adaptive`]): a changed
    /// level learns afresh, every answer its own, with the level's old assumption as the
    /// reference model that chooses the first words to ask (its state cover and separating
    /// words) and the states to look for. The interface may have changed. An L* level
    /// re-validates its table, as with [`Reuse::Revalidate`].
    Adaptive,
    /// As [`Reuse::Hints`] until a hint is contradicted; then an L# level re-learns with
    /// adaptive L#, the hypothesis of its hinted tree as the reference model (instead of
    /// re-asking its words). An L* level re-validates its table.
    HintsThenAdaptive,
}

/// Which events a level's assumption ranges over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InterfaceAlphabet {
    /// The whole interface `Σ_i` of the level (paper 000): the rule is complete.
    #[default]
    Full,
    /// Alphabet refinement (Gheorghiu, Giannakopoulou and Păsăreanu, TACAS 2007): the
    /// assumption starts over the events of the level's property that are in the interface
    /// ([`initial_alphabet`]) and gains events when a counterexample is spurious only because
    /// of the events it leaves out ([`widen`]). See the module documentation.
    Refine,
}

/// How one attempt at a level ends ([`DynamicChecker::learn_level`]).
// One value per level and attempt: the size of the learner inside is of no consequence.
#[allow(clippy::large_enum_variant)]
enum LevelEnd {
    /// The level's outcome, its learner, its last assumption and the deeper result for it.
    Done { outcome: Outcome, learner: Box<LevelLearner>, assumption: Dla, result: Outcome },
    /// The counterexample was spurious because of the alphabet: add these events. The level's
    /// learner comes along, so that its answers that stay valid over the wider alphabet are
    /// kept ([`LevelLearner::widened`]).
    Widen(Vec<String>, Box<LevelLearner>),
    /// A search of the suffix from this level decided its check instead of learning
    /// (`DynamicChecker::search_suffix`).
    Searched(Outcome),
    /// The level's table or tree and its assumption were re-used as they are (its component
    /// and property unchanged) and the deeper check holds with it: the level keeps what it
    /// had, with this deeper result.
    Kept(Outcome),
}

/// The alphabet a level's assumption starts from under [`InterfaceAlphabet::Refine`]: the
/// events of `property` that are in `interface` (the TACAS 2007 paper starts from the
/// property's alphabet), and the events of `previous` (the alphabet the level ended with in
/// an earlier run) that still are in it. Sorted, as `interface` is.
///
/// Every event of the property that the rest can perform must be in the alphabet: the
/// membership oracle and Oracle 1 read the property as an observer of the component's and
/// the assumption's events, so a property event that neither performs would be taken as
/// impossible, although the rest performs it.
pub fn initial_alphabet(interface: &[String], property: Option<&Dla>, previous: &[String]) -> Vec<String> {
    interface
        .iter()
        .filter(|e| property.is_some_and(|p| p.event_index(e).is_some()) || previous.contains(e))
        .cloned()
        .collect()
}

/// The events to add to a level's `alphabet` after `ce`, a trace of the rest that is spurious
/// only because of the alphabet: `component` violates `property` when the events of `ce` in
/// `alphabet` drive it and its other events are free, but not when every event of
/// `interface` follows `ce`.
///
/// The TACAS 2007 paper compares `ce` with the trace `t'` of the component that violates the
/// property, both projected on the interface. Their projections on `alphabet` agree (`t'`
/// follows `ce|Σ_A`, or a prefix of it), so they differ first at an event outside the
/// alphabet; that event (or both events there) is added, the paper's "forward" choice. The
/// component's projection is never equal to `ce`'s nor a prefix of it (`ce|Σ_I` would then
/// violate the property too); where `ce`'s ends first, the component's next event is outside
/// the alphabet, since `t'` follows `ce|Σ_A`. Should no event be found all the same, every
/// interface event that the alphabet lacks is added, so that refinement always ends.
pub fn widen(
    component: &Dla,
    property: Option<&Dla>,
    interface: &[String],
    alphabet: &[String],
    ce: &[String],
) -> Vec<String> {
    let guide = linear(&project(ce, alphabet), alphabet);
    let own = match check(&[component, &guide], property) {
        Safety::Violated { trace, .. } => project(&trace, interface),
        Safety::Holds { .. } => Vec::new(),
    };
    let theirs = project(ce, interface);
    let outside = |e: &&String| alphabet.binary_search(e).is_err();
    let first = (0..=own.len().max(theirs.len())).find(|&k| own.get(k) != theirs.get(k));
    let mut added: Vec<String> = match first {
        Some(k) => [own.get(k), theirs.get(k)].into_iter().flatten().filter(outside).cloned().collect(),
        None => Vec::new(),
    };
    if added.is_empty() {
        added = interface.iter().filter(outside).cloned().collect();
    }
    added.sort();
    added.dedup();
    added
}

/// The compositional checker; it keeps what it learned so that the next [`DynamicChecker::run`]
/// on an upgraded assembly re-uses it.
#[derive(Clone, Debug)]
pub struct DynamicChecker {
    mode: CexMode,
    algorithm: Algorithm,
    levels: Vec<Level>,
    last: Option<(Arc<Dla>, Option<Dla>, Outcome)>,
    deadline: Option<Instant>,
    /// The state budget of the search for a violation before learning ([`PROBE_STATES`]).
    probe: usize,
    /// The most product states that a search of this checker explored before it decided
    /// (a violation found, or the whole product explored): later searches may explore
    /// [`SEARCH_GROWTH`] times as many ([`DynamicChecker::search_budget`]).
    searched: usize,
    /// How a changed level re-uses its old table or tree.
    reuse: Reuse,
    /// Whether assumptions range over the whole interface or over a refined part of it.
    alphabet: InterfaceAlphabet,
    /// The components, property and outcome of the last run that decided (Fig. 3 line 4 for
    /// the whole assembly: the same automata give the same verdict).
    decided: Option<Decided>,
    /// The most membership queries one run spent on the levels (for restored levels, the
    /// answers they hold): what re-using them may cost before a run gives up on them
    /// ([`REUSE_SHARE`]).
    learned: usize,
    /// While a run re-uses the levels: the membership queries it may still ask.
    budget: Option<Arc<AtomicUsize>>,
    /// The least budget of a run that re-uses the levels ([`MIN_REUSE_BUDGET`]).
    min_budget: usize,
    /// After the search of the product proves the property, learn the assumptions anyway
    /// ([`DynamicChecker::with_learning_after_search`]).
    learn_after_search: bool,
    /// Re-using the levels as they are would run over its budget: an attempt from them did,
    /// or learning from them took more queries than the budget. The next run tries them
    /// with no query at all (the old assumptions as they are), not with the budget.
    reuse_over_budget: bool,
    /// The membership queries the check may still ask in this run
    /// ([`DynamicChecker::set_work_limit`]); none: no limit.
    work: Option<Arc<WorkLimit>>,
    /// While a run re-uses the levels: the first level whose component changed since they
    /// were learned, and the product states its searches of the changed suffix may still
    /// explore (`DynamicChecker::search_suffix`).
    suffix: Option<SuffixSearch>,
    /// The searches of a suffix that gave up in this run: the level, its property and the
    /// states explored. The same search within no more states would give up again.
    suffix_gave_up: Vec<(usize, Option<Dla>, usize)>,
    /// Per component of the last run, what [`expose_errors`] made of it.
    exposed: Vec<ExposedPart>,
    /// The last run's property, the error events it forbids, and what [`expose_errors`]
    /// made of them.
    exposed_property: Option<ExposedProperty>,
}

/// The components, property and outcome of a run that decided.
type Decided = (Vec<Arc<Dla>>, Option<Arc<Dla>>, Outcome);

/// A run's property, the error events it must forbid, and what [`expose_errors`] made of them.
type ExposedProperty = (Option<Dla>, Vec<String>, Option<Arc<Dla>>);

/// A component as a run got it and as [`expose_errors`] made it, keyed by exactly what the
/// result depends on: the component, its index (the entry's place) and `fallible`.
#[derive(Clone, Debug)]
struct ExposedPart {
    input: Arc<Dla>,
    fallible: bool,
    /// Whether it got its error event (else `output` is `input`).
    exposed: bool,
    output: Arc<Dla>,
}

/// A run that starts from the levels of an earlier run (its old assumptions, Fig. 3) may ask
/// `1 / REUSE_SHARE` of the membership queries that learning those levels cost before the
/// search of the product; past that, it searches the product and then goes on learning, as it
/// would have without the attempt, which so costs at most this share of queries more.
pub const REUSE_SHARE: usize = 4;

/// The least budget of a run that re-uses levels ([`REUSE_SHARE`]).
pub const MIN_REUSE_BUDGET: usize = 256;

/// A run that re-uses levels with the whole budget first tries them with `1 /
/// SHORT_ATTEMPT_SHARE` of it, then searches the product within as many states as the budget
/// has queries, and only then tries them with the rest of the budget ([`DynamicChecker::run`]).
/// On the IPC, old assumptions that suffice after an upgrade ask 0 to 4 queries (P1, budget
/// 256), and an attempt that finds the violation of an upgrade's first round 12 (P1 `ipc2`,
/// `ipc4`); one search state costs about as much as one query (`benches/COMPAT.md`).
pub const SHORT_ATTEMPT_SHARE: usize = 16;

/// The search of the changed suffix within a run that re-uses the levels
/// (`DynamicChecker::search_suffix`).
#[derive(Clone, Copy, Debug)]
struct SuffixSearch {
    /// The first level whose component changed since the levels were learned (at least 1:
    /// the search of the whole product covers level 0).
    level: usize,
    /// Product states that one search of a suffix may explore.
    each: usize,
    /// Product states that the run's searches of the suffix may still explore.
    left: usize,
    /// The length of the longest violation that a search of a suffix found in the current
    /// attempt: no violation of the whole product is shorter (`DynamicChecker::search_suffix`).
    shortest_bound: usize,
    /// A search of a suffix decided a level's check in this run.
    decided: bool,
}

/// A run that re-uses levels may search suffixes of the product
/// (`DynamicChecker::search_suffix`) within this many times the states of the staged search
/// of the product (each search within one such share): on the IPC (P2 `new_assumptions`),
/// a round searches the changed writer and then, its old assumption above being too coarse,
/// the suffix from the write-queue on (341 and 323 states in the fifth round, budget 552).
pub const SUFFIX_SEARCHES: usize = 2;

/// How an attempt from the levels ended ([`DynamicChecker::attempt`]).
enum Attempt {
    /// The rule decided (a violation already as the search's shortest trace, when it found one).
    Decided(Outcome),
    /// It ran over its budget: the levels are as they were before it.
    OverBudget,
    /// The deadline passed or the work limit was reached.
    Stopped,
}

impl DynamicChecker {
    /// A checker with nothing learned yet.
    pub fn new(mode: CexMode) -> DynamicChecker {
        DynamicChecker {
            mode,
            algorithm: Algorithm::default(),
            levels: Vec::new(),
            last: None,
            deadline: None,
            probe: PROBE_STATES,
            searched: 0,
            reuse: Reuse::default(),
            alphabet: InterfaceAlphabet::default(),
            decided: None,
            learned: 0,
            budget: None,
            min_budget: MIN_REUSE_BUDGET,
            learn_after_search: false,
            reuse_over_budget: false,
            work: None,
            suffix: None,
            suffix_gave_up: Vec::new(),
            exposed: Vec::new(),
            exposed_property: None,
        }
    }

    /// A checker that starts from `tables` (per level, e.g. from the cache). Nothing else of
    /// the run that learned them is known, so each is re-validated against its level's
    /// component before use (dynamic L*, paper 003 Theorem 2); malformed ones are dropped.
    pub fn seeded(mode: CexMode, tables: Vec<Option<Table>>) -> DynamicChecker {
        let levels = tables
            .into_iter()
            .map(|t| Level { table: t.filter(Table::well_formed).map(Arc::new), ..Level::default() })
            .collect();
        DynamicChecker { levels, ..DynamicChecker::new(mode) }
    }

    /// The checker learns its assumptions with `algorithm` (L# by default). An L* checker
    /// ignores restored trees, an L# checker restored tables.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> DynamicChecker {
        self.algorithm = algorithm;
        self
    }

    /// The search for a violation that precedes learning explores at most `states` product
    /// states (0: none; [`PROBE_STATES`] by default), or more once an earlier search of this
    /// checker decided with more ([`DynamicChecker::search_budget`]).
    pub fn with_probe(mut self, states: usize) -> DynamicChecker {
        self.probe = states;
        self
    }

    /// How a changed level re-uses its old table or tree ([`Reuse::Hints`] by default).
    pub fn with_reuse(mut self, reuse: Reuse) -> DynamicChecker {
        self.reuse = reuse;
        self
    }

    /// The assumptions range over the whole interface of their level, or over a part of it
    /// that alphabet refinement widens ([`InterfaceAlphabet`]; `Full` by default).
    pub fn with_alphabet(mut self, alphabet: InterfaceAlphabet) -> DynamicChecker {
        self.alphabet = alphabet;
        self
    }

    /// A run that re-uses the levels of an earlier run may ask at least `queries` membership
    /// queries before it gives them up ([`MIN_REUSE_BUDGET`] by default; [`REUSE_SHARE`]).
    pub fn with_min_reuse_budget(mut self, queries: usize) -> DynamicChecker {
        self.min_budget = queries;
        self
    }

    /// With `learn`, a run whose search of the product proves the property (which then
    /// learns nothing) learns the assumptions of its levels afterwards, so that a later run
    /// (after an upgrade) can check the old assumptions against the new components instead of
    /// searching the new product (paper 003 re-uses assumptions, and has no such search). The
    /// learning is bounded by the states the search explored, counted in membership queries.
    /// Off by default: it only pays when a later run follows (`subst check`'s old version).
    pub fn with_learning_after_search(mut self, learn: bool) -> DynamicChecker {
        self.learn_after_search = learn;
        self
    }

    /// The next run tries the levels first with the whole budget again, even if re-using
    /// them ran over it in an earlier run. Within one CEGAR loop, a failed attempt is not
    /// repeated from the same levels with the same budget in the next rounds (they differ from
    /// the last round by one refined component, and a failed attempt costs its budget for
    /// nothing): they get none. A new version of the components (`subst check`'s upgrade)
    /// renews it, since its first round is where the old assumptions are meant to be
    /// re-validated and learned on (paper 003 Fig. 3).
    pub fn renew_reuse(mut self) -> DynamicChecker {
        self.reuse_over_budget = false;
        self
    }

    /// The next run may ask at most `queries` membership queries in all (none: no limit), its
    /// attempts from earlier levels and its learning alike. A run that reaches the limit ends
    /// with [`Outcome::Stopped`], keeping only the levels that finished, as at the deadline,
    /// and [`DynamicChecker::work_exhausted`] says so. `subst check` bounds an upgrade's attempt
    /// to re-use the old check this way (`check::compat`), so that an attempt that would cost
    /// more than its share of the old check gives way to a check from nothing.
    pub fn set_work_limit(&mut self, queries: Option<usize>) {
        self.work = queries.map(|q| Arc::new(WorkLimit { left: AtomicUsize::new(q), ..WorkLimit::default() }));
    }

    /// Whether the last run stopped because it reached the limit of
    /// [`DynamicChecker::set_work_limit`].
    pub fn work_exhausted(&self) -> bool {
        self.work.as_ref().is_some_and(|w| w.reached.load(Ordering::Relaxed))
    }

    /// The learner of the assumptions.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Runs end with [`Outcome::Stopped`] once `deadline` has passed (checked between
    /// membership queries and between levels; one safety check is not interrupted).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// A checker that starts from the levels kept by [`DynamicChecker::saved`] (e.g. in the
    /// cache). A level whose component and property have the digest of its saved level uses
    /// the table as it is; the others re-validate it (dynamic L*). Either way, the candidate
    /// goes through Oracle 1 again, so the rule's premise `⟨A_i⟩ M_i ⟨φ_i⟩` is checked in this
    /// run, and a table whose answers turn out wrong is dropped and learned again.
    pub fn restore(mode: CexMode, saved: Vec<Option<SavedLevel>>) -> DynamicChecker {
        let levels = saved
            .into_iter()
            .map(|s| match s {
                Some(s) if s.table.as_ref().is_none_or(Table::well_formed) => Level {
                    table: s.table.map(Arc::new),
                    tree: s.tree.as_ref().and_then(LSharp::from_saved).map(Arc::new),
                    digest: Some(s.digest),
                    hints: true,
                    ..Level::default()
                },
                _ => Level::default(),
            })
            .collect::<Vec<Level>>();
        // What learning them cost is not kept; each answer they hold was one query.
        let learned = levels
            .iter()
            .map(|l| {
                l.table.as_ref().map_or(0, |t| t.answers.len()) + l.tree.as_ref().map_or(0, |t| t.saved().answers.len())
            })
            .sum();
        DynamicChecker { levels, learned, ..DynamicChecker::new(mode) }
    }

    /// What [`DynamicChecker::restore`] needs: per level, its table and the digest of what it
    /// was learned for.
    pub fn saved(&self) -> Vec<Option<SavedLevel>> {
        self.levels
            .iter()
            .map(|l| {
                let table = l.table.as_deref().cloned();
                let tree = l.tree.as_deref().map(LSharp::saved);
                if table.is_none() && tree.is_none() {
                    return None;
                }
                let digest = match (&l.component, &l.property) {
                    (Some(c), Some(p)) => level_digest(c, p.as_ref()),
                    _ => l.digest.clone()?,
                };
                Some(SavedLevel { table, tree, digest })
            })
            .collect()
    }

    /// The learned tables, per level (for inspection and the cache).
    pub fn tables(&self) -> Vec<Option<&Table>> {
        self.levels.iter().map(|l| l.table.as_deref()).collect()
    }

    /// The assumptions of the last run, per level.
    pub fn assumptions(&self) -> Vec<Option<&Dla>> {
        self.levels.iter().map(|l| l.assumption.as_ref()).collect()
    }

    /// Checks `components[0] || .. || components[n-1] ⊨ property` (no property: no component
    /// reaches an error state), re-using the previous run where the components are unchanged.
    pub fn run(&mut self, components: &[Dla], property: Option<&Dla>) -> (Outcome, AgStats) {
        self.run_fallible(components, property, &[])
    }

    /// [`DynamicChecker::run`], where `fallible[k]` says that component `k` may reach an error
    /// state in some refinement of its model even if it has none now (see [`expose_errors`]).
    pub fn run_fallible(
        &mut self,
        components: &[Dla],
        property: Option<&Dla>,
        fallible: &[bool],
    ) -> (Outcome, AgStats) {
        let parts: Vec<&Dla> = components.iter().collect();
        self.run_parts(&parts, property, fallible)
    }

    /// [`DynamicChecker::run_fallible`] on borrowed components. A component equal to the
    /// last run's (with the same `fallible`) is neither copied nor exposed again
    /// ([`expose_errors`]): the CEGAR rounds of one loop, and an upgrade, change a few.
    pub fn run_parts(&mut self, components: &[&Dla], property: Option<&Dla>, fallible: &[bool]) -> (Outcome, AgStats) {
        let (components, property) = self.expose(components, property, fallible);
        let (outcome, stats) = self.run_exposed(&components, property.as_ref());
        let outcome = match outcome {
            Outcome::Violated(t) => Outcome::Violated(t.into_iter().filter(|e| !e.starts_with(ERROR_EVENT)).collect()),
            holds => holds,
        };
        (outcome, stats)
    }

    /// [`expose_errors`] of `components` and `property`, the parts equal to the last run's
    /// (and its property, with the same error events) taken from it.
    fn expose(
        &mut self,
        components: &[&Dla],
        property: Option<&Dla>,
        fallible: &[bool],
    ) -> (Vec<Arc<Dla>>, Option<Arc<Dla>>) {
        self.exposed.truncate(components.len());
        let mut forbidden: Vec<String> = Vec::new();
        let mut out = Vec::with_capacity(components.len());
        for (k, &c) in components.iter().enumerate() {
            let fallible = fallible.get(k).copied().unwrap_or(false);
            let entry = match self.exposed.get(k) {
                Some(e) if e.fallible == fallible && *e.input == *c => e,
                _ => {
                    let input = Arc::new(c.clone());
                    let exposed = exposes(c, fallible);
                    let output = if exposed { Arc::new(expose_component(k, c)) } else { input.clone() };
                    let entry = ExposedPart { input, fallible, exposed, output };
                    if k < self.exposed.len() {
                        self.exposed[k] = entry;
                    } else {
                        self.exposed.push(entry);
                    }
                    &self.exposed[k]
                }
            };
            if entry.exposed {
                forbidden.push(error_event(k));
            }
            out.push(entry.output.clone());
        }
        let property = match &self.exposed_property {
            Some((p, f, exposed)) if p.as_ref() == property && *f == forbidden => exposed.clone(),
            _ => {
                let exposed = expose_property(property, &forbidden).map(Arc::new);
                self.exposed_property = Some((property.cloned(), forbidden, exposed.clone()));
                exposed
            }
        };
        (out, property)
    }

    fn run_exposed(&mut self, components: &[Arc<Dla>], property: Option<&Arc<Dla>>) -> (Outcome, AgStats) {
        let kept = property;
        let property = property.map(|p| &**p);
        let mut stats = AgStats::default();
        if components.len() != self.levels.len() + 1 {
            // A different number of components: nothing to re-use.
            self.levels = vec![Level::default(); components.len().saturating_sub(1)];
            self.last = None;
            self.learned = 0;
            self.reuse_over_budget = false;
        }
        let outcome = if components.is_empty() {
            Outcome::Holds
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Outcome::Stopped
        } else if let Some((_, _, outcome)) =
            self.decided.as_ref().filter(|(c, p, _)| c.as_slice() == components && p.as_ref() == kept)
        {
            stats.result_reused = true;
            outcome.clone()
        } else {
            self.reuse_then_fresh(components, property, &mut stats)
        };
        if outcome != Outcome::Stopped {
            self.decided = Some((components.to_vec(), kept.cloned(), outcome.clone()));
        }
        stats.assumption_states = self.levels.iter().map(|l| l.assumption.as_ref().map_or(0, Dla::n_states)).collect();
        (outcome, stats)
    }

    /// Whether some level holds answers of an earlier run (a table or a tree).
    fn holds_answers(&self) -> bool {
        self.levels.iter().any(|l| l.table.is_some() || l.tree.is_some())
    }

    /// DynamicCheck (Fig. 3) from the levels of the earlier run first, when there are any, with
    /// a budget of membership queries ([`REUSE_SHARE`]): the old assumptions are checked against
    /// the new components before anything else, and relearned only where they fail. When
    /// re-use runs over its budget, the run goes on as it would have without that attempt:
    /// the levels as they were before it, the bounded search of the product ([`probe`]), then
    /// DynamicCheck without a budget.
    ///
    /// With the whole budget, the attempt is staged ([`SHORT_ATTEMPT_SHARE`]): first with a
    /// sixteenth of it, which is all that old assumptions that (nearly) suffice need; then a
    /// search of the product within as many states as the budget has queries, which finds a
    /// shallow violation by a shortest trace (the one [`DynamicChecker::shortest`] would
    /// look for after the rule's) and decides a small product; only then with the rest of the
    /// budget (the two attempts ask at most the budget together). A violation of the product
    /// is what makes an attempt run over its budget (the levels must learn their way to it),
    /// and in the CEGAR rounds of an upgrade most products have one, a few events deep: on
    /// the IPC's `ipc2` (P2), the first round's
    /// attempt spent its 552 queries on a violation that the search finds in 67 states, and
    /// that failure left the last round, where the old levels prove the property with 442
    /// queries, no query at all, so that it searched the whole product (12,652 states, 95%
    /// of the re-check's DynamicCheck; `benches/COMPAT.md`).
    ///
    /// An attempt that would repeat one that ran over its whole budget gets no query: when
    /// re-using these levels ran over the budget in an earlier run (CEGAR rounds of one loop
    /// differ by one refined component), the old assumptions are tried as they are, and the
    /// first membership query ends the attempt. Learning from the levels within the budget, or
    /// a successful attempt, gives the next run the whole budget again. Either way the verdict
    /// comes from the same sound steps (Fig. 3 from the levels, or the search of the whole
    /// product); only what an abandoned attempt may cost changes.
    fn reuse_then_fresh(&mut self, components: &[Arc<Dla>], property: Option<&Dla>, stats: &mut AgStats) -> Outcome {
        let reusing = self.holds_answers();
        let full = (self.learned / REUSE_SHARE).max(self.min_budget);
        // One search of the product, which the run takes up where it stopped.
        let mut search = None;
        self.suffix = if reusing {
            self.first_changed(components).map(|level| SuffixSearch {
                level,
                each: full.min(self.probe),
                left: SUFFIX_SEARCHES * full.min(self.probe),
                shortest_bound: 0,
                decided: false,
            })
        } else {
            None
        };
        let outcome = self.reuse_then_fresh_staged(reusing, full, &mut search, components, property, stats);
        self.suffix = None;
        self.suffix_gave_up.clear();
        if let Some(outcome) = outcome {
            return outcome;
        }
        let search = search.get_or_insert_with(|| product_search(components, property));
        if let Some(outcome) = self.search_within(search, self.search_budget(), stats) {
            return self.after_search(outcome, components, property, stats);
        }
        let before = stats.membership;
        let outcome = self.dynamic_check(0, components, property, stats).unwrap_or(Outcome::Stopped);
        let spent = stats.membership - before;
        self.learned = self.learned.max(spent);
        if reusing && outcome != Outcome::Stopped {
            // What an attempt from these levels would have asked: the next run gives them the
            // whole budget again if it was within it.
            self.reuse_over_budget = spent > full;
        }
        outcome
    }

    /// The first level (at least 1) whose component is not the one its levels were learned
    /// for, when the levels above it are unchanged: where DynamicCheck starts re-checking
    /// (Lemma 1 of paper 003), and where `DynamicChecker::search_suffix` searches. None
    /// when the first component changed (the search of the whole product covers it) or only
    /// the last one (the rule model checks it as it is).
    fn first_changed(&self, components: &[Arc<Dla>]) -> Option<usize> {
        let k = (0..self.levels.len()).find(|&k| self.levels[k].component.as_ref() != Some(&components[k]))?;
        (k > 0).then_some(k)
    }

    /// The staged attempts of [`DynamicChecker::reuse_then_fresh`] from the levels: the run's
    /// outcome when one of them (or the staged search) decided, else `None` with the levels
    /// as they were and `search` the search of the product so far.
    fn reuse_then_fresh_staged<'a>(
        &mut self,
        reusing: bool,
        full: usize,
        search: &mut Option<Search<'a>>,
        components: &'a [Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Option<Outcome> {
        if reusing {
            let mut budget = if self.reuse_over_budget { 0 } else { full };
            stats.reuse_budget = Some(budget);
            if budget > 0 {
                // What the short attempt did to the levels is undone when it gives up; so is
                // what it says about them, except its queries, which the budget counts.
                let lists =
                    [&stats.revalidated, &stats.reused, &stats.hinted, &stats.contradicted, &stats.results_reused]
                        .map(Vec::len);
                let before = stats.abandoned_membership;
                match self.attempt(budget / SHORT_ATTEMPT_SHARE, components, property, stats) {
                    Attempt::Decided(outcome) => return Some(outcome),
                    Attempt::Stopped => return Some(Outcome::Stopped),
                    Attempt::OverBudget => {}
                }
                budget -= stats.abandoned_membership - before;
                let kept = [
                    &mut stats.revalidated,
                    &mut stats.reused,
                    &mut stats.hinted,
                    &mut stats.contradicted,
                    &mut stats.results_reused,
                ];
                for (list, len) in kept.into_iter().zip(lists) {
                    list.truncate(len);
                }
                let search = search.get_or_insert_with(|| product_search(components, property));
                if let Some(outcome) = self.search_within(search, full.min(self.probe), stats) {
                    return Some(self.after_search(outcome, components, property, stats));
                }
            }
            match self.attempt(budget, components, property, stats) {
                Attempt::Decided(outcome) => return Some(outcome),
                Attempt::Stopped => return Some(Outcome::Stopped),
                Attempt::OverBudget => {
                    tracing::debug!(budget, "re-use of the levels over its budget: searching the product");
                    stats.fell_back = true;
                    self.reuse_over_budget = true;
                }
            }
        }
        None
    }

    /// One attempt at Fig. 3 from the levels with at most `budget` membership queries. Past
    /// the budget, the levels are as they were before it, and its queries are counted as
    /// abandoned.
    fn attempt(
        &mut self,
        budget: usize,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Attempt {
        let remaining = Arc::new(AtomicUsize::new(budget));
        self.budget = Some(remaining.clone());
        let before = stats.membership;
        // A level keeps the deeper result it got with the deeper levels as they were: an
        // attempt that stops half-way may have updated some deeper levels and not the
        // level above them, whose result would then seem to be about the new ones.
        let snapshot = (self.levels.clone(), self.last.clone());
        if let Some(s) = &mut self.suffix {
            s.shortest_bound = 0;
        }
        let started = Instant::now();
        let attempt = self.dynamic_check(0, components, property, stats);
        self.budget = None;
        let spent = budget - remaining.load(Ordering::Relaxed);
        tracing::debug!(
            budget,
            spent,
            holds = ?attempt.as_ref().ok().map(|o| *o == Outcome::Holds),
            elapsed = ?started.elapsed(),
            "attempt from the levels"
        );
        match attempt {
            Ok(outcome) => {
                self.learned = self.learned.max(stats.membership - before);
                self.reuse_over_budget = false;
                // A violation as long as one that a search of a suffix found is a shortest one.
                let shortest = match (&outcome, self.suffix) {
                    (Outcome::Violated(t), Some(s)) => t.len() == s.shortest_bound,
                    _ => false,
                };
                Attempt::Decided(if shortest { outcome } else { self.shortest(outcome, components, property, stats) })
            }
            Err(Stopped) if self.deadline.is_some_and(|d| Instant::now() >= d) => Attempt::Stopped,
            Err(Stopped) if self.work_exhausted() => {
                (self.levels, self.last) = snapshot;
                Attempt::Stopped
            }
            Err(Stopped) => {
                stats.abandoned_membership += spent;
                // The levels that finished counted theirs already; the budget counted all.
                stats.membership = before + spent;
                (self.levels, self.last) = snapshot;
                Attempt::OverBudget
            }
        }
    }

    /// What follows a search of the product that decided: after a proof, the levels are
    /// learned for a later run when the checker is asked to ([`DynamicChecker::learn_for_later`]).
    fn after_search(
        &mut self,
        outcome: Outcome,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Outcome {
        if self.learn_after_search && outcome == Outcome::Holds {
            self.learn_for_later(components, property, stats);
        }
        outcome
    }

    /// A violation that the old assumptions led to is a real trace of the product, but one
    /// shaped by them: the rule's witness follows the counterexample of the deeper levels, not
    /// a shortest path. CEGAR refines the components along the trace it gets, and along such
    /// traces the IPC's new ipc-queue cost twice the refinement work of the shortest ones
    /// (`benches/COMPAT.md`). So the bounded search of the product ([`probe`]) looks for a
    /// shortest violation, as a run without levels would have found first; the rule's trace
    /// stays when the search gives up. Either way the outcome is a violation of the product.
    fn shortest(
        &mut self,
        outcome: Outcome,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Outcome {
        if !matches!(outcome, Outcome::Violated(_)) {
            return outcome;
        }
        // The rule decided; the search only gives the trace (not a run decided by the search).
        let decided_by_search = stats.violated_by_probe;
        let found = self.search(components, property, stats);
        stats.violated_by_probe = decided_by_search;
        match found {
            Some(found @ Outcome::Violated(_)) => found,
            _ => outcome,
        }
    }

    /// The state budget of this checker's next search of the product: [`PROBE_STATES`] (or
    /// what [`DynamicChecker::with_probe`] set, 0 for none), or, while the checker holds no
    /// levels to re-use, [`SEARCH_GROWTH`] times the most states that one of its searches
    /// explored before it decided, when that is more. With levels, the rule starts from
    /// their assumptions and is cheaper than a large search: on the IPC upgrade ipc4 (P2),
    /// searches grown to 450,000 states made DynamicCheck take 93 s where the first budget
    /// and the rule from the old levels took 55 s, for the same refinements. Without them,
    /// the rule learns from nothing, which costs more than the search (P2 at 2/2).
    pub fn search_budget(&self) -> usize {
        if self.probe == 0 || self.holds_answers() {
            self.probe
        } else {
            self.probe.max(self.searched.saturating_mul(SEARCH_GROWTH))
        }
    }

    /// The bounded search of the product ([`probe`]) within [`DynamicChecker::search_budget`];
    /// a search that decides raises the budget of the next ones.
    fn search(&mut self, components: &[Arc<Dla>], property: Option<&Dla>, stats: &mut AgStats) -> Option<Outcome> {
        let mut search = product_search(components, property);
        self.search_within(&mut search, self.search_budget(), stats)
    }

    /// `search` of the product ([`probe`]) goes on until it has explored `budget` states in all.
    fn search_within(&mut self, search: &mut Search, budget: usize, stats: &mut AgStats) -> Option<Outcome> {
        stats.search_budget = budget;
        let found = probe(search, budget, stats);
        if found.is_some() {
            self.searched = self.searched.max(search.explored());
        }
        found
    }

    /// After the search of the product proved the property, learns the levels' assumptions
    /// anyway, for a later run to re-use ([`DynamicChecker::with_learning_after_search`]),
    /// within a budget of as many membership queries as the search explored states (at least
    /// the least budget of re-use, [`MIN_REUSE_BUDGET`]). The
    /// verdict stays the search's; learning that runs over its budget (or past the
    /// deadline) leaves no level.
    fn learn_for_later(&mut self, components: &[Arc<Dla>], property: Option<&Dla>, stats: &mut AgStats) {
        let budget = stats.probed.max(self.min_budget);
        let remaining = Arc::new(AtomicUsize::new(budget));
        self.budget = Some(remaining.clone());
        let before = stats.membership;
        let learned = self.dynamic_check(0, components, property, stats);
        self.budget = None;
        stats.learned_after_search = true;
        match learned {
            Ok(Outcome::Holds) => {
                self.learned = stats.membership - before;
                // Levels learned for these very components: worth trying first.
                self.reuse_over_budget = false;
            }
            // The rule is sound, so it cannot find a violation the whole product does not have;
            // should it, its levels are not kept.
            _ => {
                tracing::debug!(budget, "learning after the search gave up: no level kept");
                stats.membership = before + (budget - remaining.load(Ordering::Relaxed));
                stats.learned_after_search = false;
                self.levels = vec![Level::default(); components.len() - 1];
                self.learned = 0;
            }
        }
    }

    /// Fig. 3 for `components[i..]` against `property`. A level is updated only when its
    /// check finishes, so a [`Stopped`] run leaves every level as the last finished run had it.
    fn dynamic_check(
        &mut self,
        i: usize,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Result<Outcome, Stopped> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stopped);
        }
        let m = &components[i];
        if i + 1 == components.len() {
            // Lines 1-4.
            if let Some((c, p, result)) = &self.last
                && c == m
                && p.as_ref() == property
            {
                stats.results_reused.push(i);
                return Ok(result.clone());
            }
            let start = Instant::now();
            stats.checks += 1;
            let result = match check(&[&**m], property) {
                Safety::Holds { .. } => Outcome::Holds,
                Safety::Violated { trace, .. } => Outcome::Violated(trace),
            };
            tracing::trace!(level = i, holds = result == Outcome::Holds, elapsed = ?start.elapsed(), "last level checked");
            stats.checking += start.elapsed();
            self.last = Some((m.clone(), property.cloned(), result.clone()));
            return Ok(result);
        }
        let level_start = Instant::now();
        let interface = self.interface(i, components, property);
        let mut alphabet = match self.alphabet {
            InterfaceAlphabet::Full => interface.clone(),
            InterfaceAlphabet::Refine => {
                // The alphabet the level ended with last time (in a CEGAR round, an upgrade or
                // from the cache), so that what was refined once is not refined again.
                let level = &self.levels[i];
                let previous = match (&level.tree, &level.table) {
                    (Some(tree), _) => tree.alphabet(),
                    (None, Some(table)) => table.alphabet.as_slice(),
                    (None, None) => &[],
                };
                initial_alphabet(&interface, property, previous)
            }
        };
        let mut refinements = 0;
        let mut widened: Option<LevelLearner> = None;
        let (outcome, learner, assumption, result) = loop {
            match self.learn_level(i, components, property, (&interface, &alphabet), widened.take(), stats)? {
                LevelEnd::Done { outcome, learner, assumption, result } => {
                    break (outcome, learner, assumption, result);
                }
                LevelEnd::Searched(outcome) => return Ok(outcome),
                LevelEnd::Kept(result) => {
                    // What the other ends record, for a level that learned nothing.
                    if stats.alphabet_per_level.len() <= i {
                        stats.alphabet_per_level.resize(i + 1, (0, 0));
                        stats.alphabet_refinements.resize(i + 1, 0);
                    }
                    stats.alphabet_per_level[i] = (alphabet.len(), interface.len());
                    count_learner(stats, i, &Stats::default());
                    tracing::debug!(level = i, elapsed = ?level_start.elapsed(), "level kept");
                    let level = &mut self.levels[i];
                    level.component = Some(m.clone());
                    level.digest = None;
                    level.result = (!self.suffix.is_some_and(|s| s.decided)).then_some(result);
                    return Ok(Outcome::Holds);
                }
                LevelEnd::Widen(events, learner) => {
                    tracing::debug!(level = i, added = ?events, "alphabet refinement");
                    alphabet.extend(events);
                    alphabet.sort();
                    alphabet.dedup();
                    refinements += 1;
                    widened = Some(learner.widened(&alphabet, self.mode));
                }
            }
        };
        if stats.alphabet_per_level.len() <= i {
            stats.alphabet_per_level.resize(i + 1, (0, 0));
            stats.alphabet_refinements.resize(i + 1, 0);
        }
        stats.alphabet_per_level[i] = (alphabet.len(), interface.len());
        stats.alphabet_refinements[i] += refinements;
        if learner.contradicted {
            stats.contradicted.push(i);
        }
        let hints = learner.unchecked;
        let learner = learner.learner;
        let learner_stats = learner.stats();
        count_learner(stats, i, &learner_stats);
        tracing::debug!(
            level = i,
            interface = interface.len(),
            alphabet = alphabet.len(),
            assumption_states = assumption.n_states(),
            membership = learner_stats.membership,
            candidates = learner_stats.candidates,
            elapsed = ?level_start.elapsed(),
            "level done"
        );
        let level = &mut self.levels[i];
        level.component = Some(m.clone());
        level.property = Some(property.cloned());
        match learner {
            AnyLearner::Star(l) => {
                level.table = Some(Arc::new(l.table().clone()));
                level.tree = None;
            }
            AnyLearner::Sharp(l) => {
                level.table = None;
                level.tree = Some(Arc::new(l));
            }
        }
        level.digest = None;
        level.hints = hints;
        level.assumption = Some(assumption);
        // A deeper result that a search of a suffix gave is about components that the deeper
        // levels do not record (they learned nothing for them): not kept for a later run.
        level.result = (!self.suffix.is_some_and(|s| s.decided)).then_some(result);
        Ok(outcome)
    }

    /// `P_err` of `property` at level `i` ([`safety::error_automaton`]): the one the level's
    /// oracle used last when the property is equal (a level's property is the assumption of
    /// the level above, unchanged where that level re-used it), else built and kept.
    fn p_err(&mut self, i: usize, property: Option<&Dla>) -> Option<Arc<Dla>> {
        let p = property?;
        if let Some(kept) = &self.levels[i].p_err
            && kept.0 == *p
        {
            return Some(kept.1.clone());
        }
        let p_err = Arc::new(safety::error_automaton(p).expect("properties and assumptions are deterministic"));
        self.levels[i].p_err = Some(Arc::new((p.clone(), p_err.clone())));
        Some(p_err)
    }

    /// The interface of level `i`, `(αM_i ∪ αφ_i) ∩ α(M_{i+1} || ..)` (sorted): the one the
    /// last run computed when the components from `i` on have the same alphabets (the same
    /// automata, which a run shares with the last run where they are unchanged,
    /// [`DynamicChecker::run_parts`], or a new version over the same events) and the property
    /// too, since it depends on nothing else. Otherwise each event of the component and the
    /// property is looked up in the rest's (sorted) alphabets, and kept for the next run.
    fn interface(&mut self, i: usize, components: &[Arc<Dla>], property: Option<&Dla>) -> Vec<String> {
        let property_alphabet = property.map_or(&[][..], |p| p.alphabet());
        if let Some(kept) = &self.levels[i].interface
            && kept.components.len() == components.len() - i
            && kept
                .components
                .iter()
                .zip(&components[i..])
                .all(|(a, b)| Arc::ptr_eq(a, b) || a.alphabet() == b.alphabet())
            && kept.property_alphabet == property_alphabet
        {
            return kept.interface.clone();
        }
        let rest = &components[i + 1..];
        let in_rest = |e: &&String| rest.iter().any(|c| c.event_index(e).is_some());
        let mut interface: Vec<String> =
            components[i].alphabet().iter().chain(property_alphabet).filter(in_rest).cloned().collect();
        interface.sort();
        interface.dedup();
        self.levels[i].interface = Some(Arc::new(KeptInterface {
            components: components[i..].to_vec(),
            property_alphabet: property_alphabet.to_vec(),
            interface: interface.clone(),
        }));
        interface
    }

    /// DynamicCheck of the changed suffix `components[i..]` against `property` (the
    /// assumption of level `i - 1`) by a bounded search of their product, in a run that
    /// re-uses the levels, at the first level whose component changed
    /// (`DynamicChecker::first_changed`). Fig. 3 line 7 asks exactly this of the suffix:
    /// a counterexample to `M_i || .. || M_{n-1} ⊨ A_{i-1}` or TRUE. The levels above keep
    /// their components and properties, so their assumptions still discharge premise 1
    /// (Lemma 1), and the caller analyses a counterexample as Fig. 3 lines 9-15 do (a
    /// membership query, then its witness or an update of `A_{i-1}`). A search that gives
    /// up leaves the level to learn as before. The suffix of an upgrade that changes a late
    /// component is a small part of the product (P2 `new_assumptions`: 46 to 582 states
    /// against 489 to 19,888), and the learning it spares is what fails there: each CEGAR
    /// round but the last has a violation, which the changed level can only reach by
    /// learning its new assumption (`benches/COMPAT.md`).
    ///
    /// A level decided this way learned nothing for its component, so it forgets which
    /// component its table was learned for (its answers become hints): the result that the
    /// level above keeps is about the new suffix, and must not be re-used for the old one.
    fn search_suffix(
        &mut self,
        i: usize,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        stats: &mut AgStats,
    ) -> Option<Outcome> {
        let budget = self.suffix.filter(|s| i <= s.level && s.left > 0).map(|s| s.left.min(s.each))?;
        if self.suffix_gave_up.iter().any(|(l, p, n)| *l == i && p.as_ref() == property && budget <= *n) {
            return None;
        }
        let start = Instant::now();
        let mut search = product_search(&components[i..], property);
        stats.checks += 1;
        let found = search.run(budget);
        let explored = search.explored();
        stats.checking += start.elapsed();
        stats.suffix_states += explored;
        if let Some(s) = &mut self.suffix {
            s.left = s.left.saturating_sub(explored);
        }
        tracing::debug!(
            level = i,
            budget,
            explored,
            violated = matches!(found, Some(Safety::Violated { .. })),
            holds = matches!(found, Some(Safety::Holds { .. })),
            elapsed = ?start.elapsed(),
            "search of the changed suffix"
        );
        let Some(found) = found else {
            self.suffix_gave_up.push((i, property.cloned(), explored));
            return None;
        };
        let outcome = match found {
            Safety::Violated { trace, .. } => {
                if let Some(s) = &mut self.suffix {
                    s.shortest_bound = s.shortest_bound.max(trace.len());
                }
                Outcome::Violated(trace)
            }
            Safety::Holds { .. } => Outcome::Holds,
        };
        stats.suffix_decided += 1;
        if let Some(s) = &mut self.suffix {
            s.decided = true;
        }
        Some(outcome)
    }

    /// Lines 5-15 of Fig. 3 at level `i`, the assumption over `alphabet` (a part of the
    /// level's `interface` that holds every event of the property in it, see
    /// [`initial_alphabet`]). With `widened` (the alphabet was just refined), learning starts
    /// from that learner, which holds the answers of the narrower alphabet that stay valid
    /// ([`LevelLearner::widened`]), and nothing else of the level's earlier runs is used. Ends
    /// with the level's outcome, or with the events that a counterexample, spurious only
    /// because the assumption ignores them, says to add ([`widen`]).
    fn learn_level(
        &mut self,
        i: usize,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        (interface, alphabet): (&[String], &[String]),
        widened: Option<LevelLearner>,
        stats: &mut AgStats,
    ) -> Result<LevelEnd, Stopped> {
        let fresh = widened.is_some();
        let m = &components[i];
        let rest = &components[i + 1..];
        // Line 5: GenerateAssumption, from the previous table when there is one.
        let level = &self.levels[i];
        let same_component = level.component.as_ref() == Some(m);
        let same_property = level.property.as_ref().map(|p| p.as_ref()) == Some(property);
        // A level whose component and property are the ones its table (or tree) and assumption
        // were learned and checked for, over the same alphabet, re-uses both as they are (Fig. 3
        // line 5; below, `known`): its table is closed and its assumption passed Oracle 1 for
        // exactly this component and property, so neither is asked again. Lines 6-8 then need
        // only the deeper result, and when it holds (line 15) the level ends as it was, its
        // learner neither copied nor its oracle built. A violation goes on below, where the
        // learner is built as before.
        let as_is = !fresh
            && same_component
            && same_property
            && match self.algorithm {
                Algorithm::LStar => level.table.as_ref().is_some_and(|t| t.alphabet == alphabet),
                Algorithm::LSharp => level.tree.as_ref().is_some_and(|t| t.alphabet() == alphabet),
            };
        let mut precomputed = None;
        if as_is && let Some(assumption) = level.assumption.clone() {
            let start = Instant::now();
            stats.reused.push(i);
            let result = match &self.levels[i].result {
                Some(r) if self.rest_unchanged(i + 1, rest) => {
                    stats.results_reused.push(i);
                    r.clone()
                }
                _ => self.dynamic_check(i + 1, components, Some(&assumption), stats)?,
            };
            stats.learning += start.elapsed();
            match result {
                Outcome::Holds => return Ok(LevelEnd::Kept(result)),
                Outcome::Stopped => return Err(Stopped),
                violated => precomputed = Some((assumption, violated)),
            }
        }
        let level = &self.levels[i];
        // A restored table learned for this very component and property.
        let same_as_saved =
            level.component.is_none() && level.digest.as_ref().is_some_and(|d| *d == level_digest(m, property));
        let p_err = self.p_err(i, property);
        let level = &self.levels[i];
        let mut oracle = AssumptionOracle::new(m, property, alphabet)
            .with_p_err(p_err.clone())
            .with_deadline(self.deadline)
            .with_budget(self.budget.clone())
            .with_work(self.work.clone());
        let start = Instant::now();
        // A table or tree kept from a level with a different component or property holds hints.
        let mut unchecked = level.hints;
        let hinting = matches!(self.reuse, Reuse::Hints | Reuse::HintsThenAdaptive);
        let learner = match self.algorithm {
            Algorithm::LStar => AnyLearner::Star(match level.table.as_deref().cloned() {
                Some(table) if !fresh && table.alphabet == alphabet => {
                    let mut l = Learner::from_table(table, self.mode, true);
                    if same_component && same_property {
                        // Counted already when the assumption was re-used as it is.
                        if precomputed.is_none() {
                            stats.reused.push(i);
                        }
                    } else if same_as_saved {
                        stats.reused.push(i);
                        unchecked = true;
                    } else if hinting {
                        stats.hinted.push(i);
                        unchecked = true;
                    } else {
                        l.revalidate(&mut oracle);
                        stats.revalidated.push(i);
                        unchecked = false;
                    }
                    l
                }
                other => {
                    if let Some(t) = other {
                        tracing::debug!(level = i, old = ?t.alphabet, new = ?alphabet, "interface changed: table dropped");
                    }
                    unchecked = false;
                    Learner::new(alphabet.to_vec(), self.mode, true)
                }
            }),
            Algorithm::LSharp => AnyLearner::Sharp(match level.tree.as_deref() {
                _ if fresh => {
                    unchecked = false;
                    LSharp::new(alphabet.to_vec(), true)
                }
                // Adaptive L#: the old assumption (or, restored from the cache, a model of what the
                // old tree knows: it was never closed) is the reference model of a fresh learner.
                Some(old)
                    if self.reuse == Reuse::Adaptive
                        && !(same_component && same_property || same_as_saved && old.alphabet() == alphabet) =>
                {
                    let reference = level.assumption.clone().unwrap_or_else(|| old.tree_model());
                    stats.revalidated.push(i);
                    unchecked = false;
                    LSharp::adaptive(alphabet.to_vec(), true, &reference, &mut oracle)
                }
                Some(old) if old.alphabet() == alphabet => {
                    if same_component && same_property || same_as_saved || hinting {
                        if same_component && same_property {
                            if precomputed.is_none() {
                                stats.reused.push(i);
                            }
                        } else if same_as_saved {
                            stats.reused.push(i);
                            unchecked = true;
                        } else {
                            stats.hinted.push(i);
                            unchecked = true;
                        }
                        let mut l = old.clone();
                        l.stats = Stats::default();
                        l
                    } else {
                        stats.revalidated.push(i);
                        unchecked = false;
                        LSharp::replay(old, &mut oracle)
                    }
                }
                _ => {
                    unchecked = false;
                    LSharp::new(alphabet.to_vec(), true)
                }
            }),
        };
        let mut learner = match widened {
            Some(l) => l,
            None => LevelLearner::new(learner, unchecked),
        };
        learner.adaptive_fallback = self.reuse == Reuse::HintsThenAdaptive;
        // An assumption that passed Oracle 1 for this component and property passes it again.
        // Line 5 re-uses the assumption itself when its table was re-used unchanged: the table
        // is closed and its candidate already passed Oracle 1 for this component and property.
        let (as_is_assumption, precomputed_result) = precomputed.unzip();
        let known = as_is_assumption.or_else(|| {
            (!fresh && same_component && same_property && stats.reused.last() == Some(&i))
                .then(|| level.assumption.clone())
                .flatten()
        });
        // At the first changed level, the old candidate first: when it fails Oracle 1 for the
        // new component, a search of the changed suffix before learning.
        let old_candidate = match known {
            None if !fresh && self.suffix.is_some_and(|s| s.level == i && s.left > 0) => {
                learner.learner.close(&mut oracle);
                if oracle.expired() {
                    return Err(Stopped);
                }
                let h = learner.learner.hypothesis();
                stats.checks += 1;
                if oracle.oracle1(&h).is_none() {
                    Some(h)
                } else if let Some(outcome) = self.search_suffix(i, components, property, stats) {
                    return Ok(LevelEnd::Searched(outcome));
                } else {
                    None
                }
            }
            _ => None,
        };
        let mut assumption = match known.or(old_candidate) {
            Some(a) => a,
            None => generate(&mut learner, &mut oracle, stats)?,
        };
        stats.learning += start.elapsed();

        // Lines 6-8: re-use the deeper result when neither the assumption nor the rest changed.
        let mut result = match precomputed_result {
            Some(r) => r,
            None => match (&self.levels[i].assumption, &self.levels[i].result) {
                (Some(a), Some(r)) if *a == assumption && self.rest_unchanged(i + 1, rest) => {
                    stats.results_reused.push(i);
                    r.clone()
                }
                _ => self.dynamic_check(i + 1, components, Some(&assumption), stats)?,
            },
        };
        // Lines 9-15.
        let outcome = loop {
            match &result {
                Outcome::Holds => break Outcome::Holds,
                Outcome::Stopped => return Err(Stopped),
                Outcome::Violated(ce) => {
                    let word = project(ce, alphabet);
                    let start = Instant::now();
                    let inside = oracle.member(&word);
                    if oracle.expired() {
                        return Err(Stopped);
                    }
                    if inside {
                        // The old assumption is too strong for the changed suffix below: a
                        // search of the suffix from here, before learning.
                        if let Some(outcome) = self.search_suffix(i, components, property, stats) {
                            return Ok(LevelEnd::Searched(outcome));
                        }
                        // The assumption was too strong: weaken it with the word and go on.
                        learner.refine(&word, &mut oracle)?;
                        assumption = generate(&mut learner, &mut oracle, stats)?;
                        stats.learning += start.elapsed();
                        result = self.dynamic_check(i + 1, components, Some(&assumption), stats)?;
                        continue;
                    }
                    // `M_i` violates the property on `ce|Σ_A` with the interface events outside
                    // `Σ_A` left free; whether it does when they follow `ce` too is the
                    // question over the whole interface.
                    if alphabet.len() < interface.len() {
                        let mut whole = AssumptionOracle::new(m, property, interface)
                            .with_p_err(p_err.clone())
                            .with_deadline(self.deadline)
                            .with_budget(self.budget.clone())
                            .with_work(self.work.clone());
                        let real = !whole.member(&project(ce, interface));
                        if whole.expired() {
                            return Err(Stopped);
                        }
                        if !real {
                            // The old assumption ignores events that the changed suffix below
                            // makes matter: a search of the suffix from here, before widening.
                            if let Some(outcome) = self.search_suffix(i, components, property, stats) {
                                return Ok(LevelEnd::Searched(outcome));
                            }
                            let events = widen(m, property, interface, alphabet, ce);
                            stats.learning += start.elapsed();
                            count_learner(stats, i, &learner.learner.stats());
                            return Ok(LevelEnd::Widen(events, Box::new(learner)));
                        }
                    }
                    stats.learning += start.elapsed();
                    break Outcome::Violated(self.witness(i, components, property, ce, stats));
                }
            }
        };
        Ok(LevelEnd::Done { outcome, learner: Box::new(learner), assumption, result })
    }

    /// Whether the components from `from` on are the ones the previous run checked.
    fn rest_unchanged(&self, from: usize, rest: &[Arc<Dla>]) -> bool {
        rest.iter().enumerate().all(|(k, c)| {
            let level = from + k;
            if level < self.levels.len() {
                self.levels[level].component.as_ref() == Some(c)
            } else {
                self.last.as_ref().is_some_and(|(last, _, _)| last == c)
            }
        })
    }

    /// A trace of `components[i..]` violating `property`, whose projection on the rest is `ce`.
    fn witness(
        &self,
        i: usize,
        components: &[Arc<Dla>],
        property: Option<&Dla>,
        ce: &[String],
        stats: &mut AgStats,
    ) -> Vec<String> {
        let start = Instant::now();
        let rest_alphabet = union_alphabet(&components[i + 1..]);
        let guide = linear(&project(ce, &rest_alphabet), &rest_alphabet);
        let mut parts: Vec<&Dla> = components[i..].iter().map(|c| &**c).collect();
        parts.push(&guide);
        stats.checks += 1;
        let trace = match check(&parts, property) {
            Safety::Violated { trace, .. } => trace,
            // Cannot happen: M_i violates the property on ce|Σ_i and the rest can perform ce.
            Safety::Holds { .. } => ce.to_vec(),
        };
        stats.checking += start.elapsed();
        trace
    }
}

/// The learner of one level.
// One learner per level: boxing the larger one would save nothing that matters.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum AnyLearner {
    Star(Learner),
    Sharp(LSharp),
}

impl AnyLearner {
    fn close(&mut self, oracle: &mut dyn Membership) {
        match self {
            AnyLearner::Star(l) => l.close(oracle),
            AnyLearner::Sharp(l) => l.close(oracle),
        }
    }

    fn hypothesis(&mut self) -> Dla {
        match self {
            AnyLearner::Star(l) => l.hypothesis(),
            AnyLearner::Sharp(l) => l.hypothesis(),
        }
    }

    fn refine(&mut self, cex: &[String], oracle: &mut dyn Membership) -> Result<(), LearnError> {
        match self {
            AnyLearner::Star(l) => l.refine(cex, oracle),
            AnyLearner::Sharp(l) => l.refine(cex, oracle),
        }
    }

    fn stats(&self) -> Stats {
        match self {
            AnyLearner::Star(l) => l.stats,
            AnyLearner::Sharp(l) => l.stats,
        }
    }

    /// Asks again the words of the tree that were rejected, keeping the accepted ones as
    /// hints ([`LSharp::replay_rejected`]); a table is re-validated whole. Whether every
    /// answer is now the oracle's.
    fn revalidate_rejected(&mut self, oracle: &mut dyn Membership) -> bool {
        match self {
            AnyLearner::Star(l) => {
                l.revalidate(oracle);
                true
            }
            AnyLearner::Sharp(l) => {
                let stats = l.stats;
                *l = LSharp::replay_rejected(l, oracle);
                l.stats.membership += stats.membership;
                l.stats.candidates += stats.candidates;
                l.stats.counterexamples += stats.counterexamples;
                false
            }
        }
    }

    /// An L# learner starts afresh with adaptive L#, the hypothesis of its tree as the
    /// reference; a table is re-validated. Afterwards each answer is the oracle's.
    fn relearn_adaptive(&mut self, oracle: &mut dyn Membership) {
        match self {
            AnyLearner::Star(l) => l.revalidate(oracle),
            AnyLearner::Sharp(l) => {
                let stats = l.stats;
                // Not `hypothesis`: a learner restored from the cache may not be closed.
                let reference = l.tree_model();
                *l = LSharp::adaptive(l.alphabet().to_vec(), l.tree().prefix_closed(), &reference, oracle);
                l.stats.membership += stats.membership;
                l.stats.candidates += stats.candidates;
                l.stats.counterexamples += stats.counterexamples;
            }
        }
    }

    /// Afterwards each answer is the oracle's: a table asks every word again; a tree starts
    /// afresh, since its old words (kept over every earlier round) outnumber what learning
    /// the level from nothing asks (`benches/COMPAT.md`, `--probe-states 0`).
    fn revalidate(&mut self, oracle: &mut dyn Membership) {
        match self {
            AnyLearner::Star(l) => l.revalidate(oracle),
            AnyLearner::Sharp(l) => {
                let stats = l.stats;
                *l = LSharp::new(l.alphabet().to_vec(), true);
                l.stats.membership += stats.membership;
                l.stats.candidates += stats.candidates;
                l.stats.counterexamples += stats.counterexamples;
            }
        }
    }
}

/// A level's learner; whether its table or tree may hold answers that are not this level's
/// (restored from the cache, or kept as hints), and whether one of them was contradicted.
struct LevelLearner {
    learner: AnyLearner,
    unchecked: bool,
    contradicted: bool,
    /// A contradicted hint makes the learner re-learn with adaptive L# ([`Reuse::HintsThenAdaptive`]).
    adaptive_fallback: bool,
}

impl LevelLearner {
    fn new(learner: AnyLearner, unchecked: bool) -> LevelLearner {
        LevelLearner { learner, unchecked, contradicted: false, adaptive_fallback: false }
    }
}

impl LevelLearner {
    /// The learner for the same level over `alphabet`, a widening of this learner's alphabet
    /// ([`widen`]), that knows every word this one accepted and nothing else.
    ///
    /// Why the accepted answers stay valid: `σ ∈ Σ_A*` is in `U_i` over `Σ_A` when `M_i`,
    /// driven by `σ` with its events in `Σ_i \ Σ_A` free, cannot violate the property. Over
    /// `Σ_A' ⊇ Σ_A` the events of `Σ_A' \ Σ_A` are no longer free: the linear assumption of
    /// `σ` never performs them, so `M_i` has fewer runs and no more violations, and `σ` is in
    /// `U_i` over `Σ_A'` too. A rejected word may become accepted, so those answers are left
    /// out. The kept answers are as trustworthy as they were (hints stay hints).
    fn widened(self, alphabet: &[String], mode: CexMode) -> LevelLearner {
        let LevelLearner { learner, unchecked, contradicted, adaptive_fallback } = self;
        let old: &[String] = match &learner {
            AnyLearner::Star(l) => l.alphabet(),
            AnyLearner::Sharp(l) => l.alphabet(),
        };
        // Widening only adds letters, so every old letter has an index in `alphabet`.
        let index: Option<Vec<u32>> = old.iter().map(|e| alphabet.binary_search(e).ok().map(|k| k as u32)).collect();
        let remap = |w: &[u32], index: &[u32]| -> Vec<u32> { w.iter().map(|&a| index[a as usize]).collect() };
        let learner = match (learner, index) {
            (AnyLearner::Star(l), Some(index)) => {
                let mut table = Table::new(alphabet.to_vec());
                table.answers =
                    l.table().answers.iter().filter(|&(_, &b)| b).map(|(w, _)| (remap(w, &index), true)).collect();
                AnyLearner::Star(Learner::from_table(table, mode, true))
            }
            (AnyLearner::Sharp(l), Some(index)) => {
                let saved = l.saved();
                let widened = SavedTree {
                    alphabet: alphabet.to_vec(),
                    prefix_closed: saved.prefix_closed,
                    answers: saved.answers.iter().filter(|(_, b)| *b).map(|(w, _)| (remap(w, &index), true)).collect(),
                    basis: saved.basis.iter().map(|w| remap(w, &index)).collect(),
                };
                AnyLearner::Sharp(
                    LSharp::from_saved(&widened).unwrap_or_else(|| LSharp::new(alphabet.to_vec(), saved.prefix_closed)),
                )
            }
            // Not a widening: nothing carries over.
            (AnyLearner::Star(_), None) => AnyLearner::Star(Learner::new(alphabet.to_vec(), mode, true)),
            (AnyLearner::Sharp(_), None) => AnyLearner::Sharp(LSharp::new(alphabet.to_vec(), true)),
        };
        LevelLearner { learner, unchecked, contradicted, adaptive_fallback }
    }

    /// Refines the learner with `cex`, a word in the symmetric difference of the candidate and
    /// `U_i`. With answers of `U_i` that always succeeds. When an unchecked table or tree fails
    /// (a hint contradicts `cex`), a tree first has its rejected words asked again: a refined
    /// abstraction loses behaviours, so its weakest assumption gains words and accepted
    /// answers stay right. A second contradiction re-validates a table and starts a tree afresh.
    fn refine(&mut self, cex: &[String], oracle: &mut AssumptionOracle) -> Result<(), Stopped> {
        let refined = self.learner.refine(cex, oracle);
        if oracle.expired() {
            return Err(Stopped);
        }
        match refined {
            Ok(()) => Ok(()),
            Err(e) if self.unchecked => {
                tracing::debug!(%e, first = !self.contradicted, "a hint disagrees with its level: re-validating");
                if self.adaptive_fallback {
                    self.learner.relearn_adaptive(oracle);
                    self.unchecked = false;
                } else if self.contradicted {
                    self.learner.revalidate(oracle);
                    self.unchecked = false;
                } else {
                    self.unchecked = !self.learner.revalidate_rejected(oracle);
                }
                self.contradicted = true;
                self.learner.close(oracle);
                if oracle.expired() { Err(Stopped) } else { Ok(()) }
            }
            Err(e) => unreachable!("a counterexample from Oracle 1 or the rest is one for a fresh table: {e}"),
        }
    }
}

/// Closes the table and proposes candidates until Oracle 1 accepts one.
fn generate(learner: &mut LevelLearner, oracle: &mut AssumptionOracle, stats: &mut AgStats) -> Result<Dla, Stopped> {
    learner.learner.close(oracle);
    if oracle.expired() {
        return Err(Stopped);
    }
    loop {
        let h = learner.learner.hypothesis();
        stats.checks += 1;
        let start = Instant::now();
        let verdict = oracle.oracle1(&h);
        tracing::trace!(states = h.n_states(), passed = verdict.is_none(), elapsed = ?start.elapsed(), "oracle 1");
        match verdict {
            None => return Ok(h),
            Some(cex) => {
                learner.refine(&cex, oracle)?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component over `a`, `b`, `c` (`c` internal) that may err after `a a`, and a property
    /// that forbids `b` right after `a`.
    fn example() -> (Dla, Dla) {
        let mut b = Builder::new();
        for e in ["a", "b", "c"] {
            b.add_event(e);
        }
        let s: Vec<StateId> = (0..4).map(|_| b.add_state(&[], true)).collect();
        let err = b.add_error_state();
        b.add_transition(s[0], "a", s[1]);
        b.add_transition(s[0], "b", s[0]);
        b.add_transition(s[1], "a", s[2]);
        b.add_transition(s[1], "b", s[3]);
        b.add_transition(s[1], "c", s[0]);
        b.add_transition(s[2], "c", err);
        b.add_transition(s[3], "a", s[0]);
        b.set_initial(s[0]);
        let component = b.build();
        let mut p = Builder::new();
        for e in ["a", "b"] {
            p.add_event(e);
        }
        let q0 = p.add_state(&[], true);
        let q1 = p.add_state(&[], true);
        let bad = p.add_error_state();
        p.add_transition(q0, "a", q1);
        p.add_transition(q0, "b", q0);
        p.add_transition(q1, "a", q1);
        p.add_transition(q1, "b", bad);
        p.set_initial(q0);
        (component, p.build())
    }

    /// An environment that does the `events` in any order.
    fn looping(events: &[&str]) -> Dla {
        let mut b = Builder::new();
        for e in events {
            b.add_event(e);
        }
        let s = b.add_state(&[], true);
        for e in events {
            b.add_transition(s, e, s);
        }
        b.set_initial(s);
        b.build()
    }

    fn chaos() -> Dla {
        looping(&["a", "b"])
    }

    /// A chain of `events` from `from` in `b`, ending in `to`.
    fn chain(b: &mut Builder, from: StateId, events: &[&str], to: StateId) {
        let mut at = from;
        for (k, e) in events.iter().enumerate() {
            let next = if k + 1 == events.len() { to } else { b.add_state(&[], true) };
            b.add_transition(at, e, next);
            at = next;
        }
    }

    /// A component over `a`, `b` (shared) and `x` (its own) that errs right after `a`, or
    /// after `b b` and five `x`; and the other component, over `a`, `b` and its own `c`: the
    /// old one does one `b` and then `c` forever, the new one `b b`, or `c c c a`.
    fn far_and_near() -> (Dla, Dla, Dla) {
        let mut b = Builder::new();
        for e in ["a", "b", "x"] {
            b.add_event(e);
        }
        let s0 = b.add_state(&[], true);
        let s1 = b.add_state(&[], true);
        let err = b.add_error_state();
        b.add_transition(s0, "a", err);
        b.add_transition(s0, "b", s1);
        chain(&mut b, s1, &["b", "x", "x", "x", "x", "x"], err);
        b.set_initial(s0);
        let errs = b.build();
        let other = |new: bool| {
            let mut b = Builder::new();
            for e in ["a", "b", "c"] {
                b.add_event(e);
            }
            let s0 = b.add_state(&[], true);
            let s1 = b.add_state(&[], true);
            b.add_transition(s0, "b", s1);
            if new {
                let end = b.add_state(&[], true);
                b.add_transition(s1, "b", end);
                chain(&mut b, s0, &["c", "c", "c", "a"], end);
            } else {
                b.add_transition(s1, "c", s1);
            }
            b.set_initial(s0);
            b.build()
        };
        (errs, other(false), other(true))
    }

    #[test]
    fn a_violation_from_the_old_assumptions_is_reported_by_the_search_s_shortest_trace() {
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let (errs, old, new) = far_and_near();
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(algorithm).with_probe(0);
            let (original, _) = checker.run(&[errs.clone(), old], None);
            assert_eq!(original, Outcome::Holds, "{algorithm}");
            // The old assumption (no `a`, no `b b`) is violated by the new component's
            // shortest `b b`, whose witness is 7 events long; the product errs after 4.
            let mut checker = checker.with_probe(PROBE_STATES);
            let (upgraded, stats) = checker.run(&[errs, new], None);
            assert!(stats.reuse_budget.is_some() && !stats.fell_back, "{algorithm}: {stats:?}");
            assert_eq!(upgraded, Outcome::Violated(["c", "c", "c", "a"].map(String::from).to_vec()), "{algorithm}");
        }
    }

    /// A third component that shares no event with the others.
    fn idle() -> Dla {
        looping(&["d"])
    }

    #[test]
    fn a_violation_that_a_search_of_the_changed_components_leads_to_is_reported_by_a_shortest_trace() {
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let (errs, old, new) = far_and_near();
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(algorithm).with_probe(0);
            let (original, _) = checker.run(&[errs.clone(), old, idle()], None);
            assert_eq!(original, Outcome::Holds, "{algorithm}");
            // The search of the new component and `idle` finds `b b` against the old
            // assumption (no `a`, no `b b`); its witness `b b x x x x x` is longer than the
            // two events that bound the product's shortest violation, so the product is searched.
            let mut checker = checker.with_probe(PROBE_STATES);
            let (upgraded, stats) = checker.run(&[errs, new, idle()], None);
            assert_eq!(stats.suffix_decided, 1, "{algorithm}: {stats:?}");
            assert_eq!(upgraded, Outcome::Violated(["c", "c", "c", "a"].map(String::from).to_vec()), "{algorithm}");
        }
    }

    #[test]
    fn a_level_decided_by_a_search_of_the_changed_components_is_not_re_used_for_its_old_component() {
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let (errs, old, new) = far_and_near();
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(algorithm).with_probe(0);
            let (original, _) = checker.run(&[errs.clone(), old.clone(), idle()], None);
            assert_eq!(original, Outcome::Holds, "{algorithm}");
            let mut checker = checker.with_probe(PROBE_STATES);
            let (upgraded, _) = checker.run(&[errs.clone(), new, idle()], None);
            assert!(matches!(upgraded, Outcome::Violated(_)), "{algorithm}");
            // The first level kept the violation it got from the search of the new component;
            // back on the old one, that result is not the old component's.
            let (back, stats) = checker.run(&[errs, old, idle()], None);
            assert_eq!(back, Outcome::Holds, "{algorithm}: {stats:?}");
        }
    }

    /// A component over `x` that goes round `n` states, or (`errs`) errs after `n` events.
    fn steps(n: usize, errs: bool) -> Dla {
        let mut b = Builder::new();
        b.add_event("x");
        let s0 = b.add_state(&[], true);
        let end = if errs { b.add_error_state() } else { s0 };
        let events = vec!["x"; n];
        chain(&mut b, s0, &events, end);
        b.set_initial(s0);
        b.build()
    }

    #[test]
    fn a_search_that_decided_raises_the_budget_of_the_next_runs_searches() {
        let (ring, deep) = ([steps(6, false), looping(&["x"])], [steps(12, true), looping(&["x"])]);
        let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_probe(8);
        // 8 states are too few for the deep violation: alone, the search gives up on it.
        let (outcome, alone) = checker.clone().run(&deep, None);
        assert!(matches!(outcome, Outcome::Violated(_)) && !alone.violated_by_probe, "{alone:?}");
        let (outcome, first) = checker.run(&ring, None);
        assert!(outcome == Outcome::Holds && first.decided_by_probe, "{first:?}");
        assert_eq!(checker.search_budget(), SEARCH_GROWTH * first.probed);
        let (outcome, next) = checker.run(&deep, None);
        assert!(matches!(outcome, Outcome::Violated(_)) && next.violated_by_probe, "{next:?}");
        assert_eq!((next.search_budget, next.membership), (SEARCH_GROWTH * first.probed, 0));
    }

    #[test]
    fn a_checker_with_levels_to_re_use_keeps_the_first_budget() {
        let (ring, deep) = ([steps(6, false), looping(&["x"])], [steps(12, true), looping(&["x"])]);
        let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_probe(8).with_learning_after_search(true);
        let (outcome, first) = checker.run(&ring, None);
        assert!(outcome == Outcome::Holds && first.decided_by_probe && first.learned_after_search, "{first:?}");
        assert_eq!(checker.search_budget(), 8);
        let (outcome, next) = checker.run(&deep, None);
        assert!(matches!(outcome, Outcome::Violated(_)) && !next.violated_by_probe, "{next:?}");
        assert_eq!(next.search_budget, 8);
    }

    /// `example`'s component without its error state (the step into it goes nowhere).
    fn example_without_error() -> Dla {
        let mut b = Builder::new();
        for e in ["a", "b", "c"] {
            b.add_event(e);
        }
        let s: Vec<StateId> = (0..4).map(|_| b.add_state(&[], true)).collect();
        b.add_transition(s[0], "a", s[1]);
        b.add_transition(s[0], "b", s[0]);
        b.add_transition(s[1], "a", s[2]);
        b.add_transition(s[1], "b", s[3]);
        b.add_transition(s[1], "c", s[0]);
        b.add_transition(s[3], "a", s[0]);
        b.set_initial(s[0]);
        b.build()
    }

    #[test]
    fn error_states_exposed_in_an_earlier_run_are_re_used_only_for_the_same_component_flag_and_property() {
        let (errs, _) = example();
        let safe = example_without_error();
        // A property that allows every `b`: only a component's own error violates it.
        let property = only_b();
        // Each run changes one thing the exposure depends on: the component, whether it may
        // fail, the property, and (last) the error events the property must forbid, with the
        // property and the other component as in the run before.
        let runs: [(Dla, Option<&Dla>, Vec<bool>); 6] = [
            (errs.clone(), None, vec![false, false]),
            (safe.clone(), None, vec![false, false]),
            (safe.clone(), None, vec![true, false]),
            (safe.clone(), Some(&property), vec![false, false]),
            (errs.clone(), Some(&property), vec![false, false]),
            (errs, Some(&property), vec![true, false]),
        ];
        for probe in [0, PROBE_STATES] {
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_probe(probe);
            for (k, (component, property, fallible)) in runs.iter().enumerate() {
                let parts = [component.clone(), only_b()];
                let (expected, _) = DynamicChecker::new(CexMode::RivestSchapire)
                    .with_probe(probe)
                    .run_fallible(&parts, *property, fallible);
                let (outcome, _) = checker.run_fallible(&parts, *property, fallible);
                assert_eq!(outcome, expected, "run {k}, probe {probe}");
            }
        }
    }

    /// A component over `a`, `b` that errs on `b` after `a`.
    fn errs_on_b_after_a() -> Dla {
        let mut b = Builder::new();
        let s0 = b.add_state(&[], true);
        let s1 = b.add_state(&[], true);
        let err = b.add_error_state();
        b.add_transition(s0, "a", s1);
        b.add_transition(s1, "b", err);
        b.set_initial(s0);
        b.build()
    }

    /// A component that does `a` forever, with `b` in its alphabet (blocked) when `with_b`.
    fn only_a(with_b: bool) -> Dla {
        let mut b = Builder::new();
        b.add_event("a");
        if with_b {
            b.add_event("b");
        }
        let s = b.add_state(&[], true);
        b.add_transition(s, "a", s);
        b.set_initial(s);
        b.build()
    }

    #[test]
    fn a_kept_interface_is_computed_again_when_a_deeper_alphabet_changed() {
        // With `b` in the rest's alphabet the rest blocks it, and the assumption of level 0
        // (over `a`, `b`) says "no `b` after `a`". Without it, `b` is the first component's own
        // move and it errs; that assumption over the old interface would wrongly hold of the
        // new rest, which never does `b`.
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(algorithm).with_probe(0);
            let (first, _) = checker.run(&[errs_on_b_after_a(), only_a(true)], None);
            assert_eq!(first, Outcome::Holds, "{algorithm}");
            let (second, _) = checker.run(&[errs_on_b_after_a(), only_a(false)], None);
            assert_eq!(second, Outcome::Violated(["a", "b"].map(String::from).to_vec()), "{algorithm}");
        }
    }

    #[test]
    fn a_level_kept_as_it_is_still_checks_the_changed_levels_below() {
        // Levels 0 and 1 keep their components and properties, so they re-use their tables
        // and assumptions as they are; the last component changes to one that performs `b`
        // after `a`, which the assumption above it forbids.
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(algorithm).with_probe(0);
            let old = [errs_on_b_after_a(), looping(&["a"]), only_a(true)];
            let (first, _) = checker.run(&old, None);
            assert_eq!(first, Outcome::Holds, "{algorithm}");
            let new = [errs_on_b_after_a(), looping(&["a"]), chaos()];
            let (second, stats) = checker.run(&new, None);
            assert_eq!(stats.reused, vec![0, 1], "{algorithm}: {stats:?}");
            assert_eq!(second, Outcome::Violated(["a", "b"].map(String::from).to_vec()), "{algorithm}");
        }
    }

    #[test]
    fn the_kept_error_automaton_of_a_level_is_the_one_of_its_current_property() {
        let (_, property) = example();
        let other = only_b();
        let mut checker = DynamicChecker::new(CexMode::RivestSchapire);
        checker.levels = vec![Level::default()];
        let expected = |p: &Dla| safety::error_automaton(p).expect("deterministic");
        for p in [&property, &property, &other, &property] {
            assert_eq!(checker.p_err(0, Some(p)).as_deref(), Some(&expected(p)));
        }
        assert_eq!(checker.p_err(0, None), None);
    }

    #[test]
    fn an_exposed_component_is_the_one_a_builder_gives() {
        // Events before and after `__error.k` in name order, labels, τ, an error state that is
        // not the last, and two initial states.
        let mut b = Builder::new();
        for e in ["B", "b", "__error.1"] {
            b.add_event(e);
        }
        let s0 = b.add_state(&["p"], true);
        let err = b.add_error_state();
        let s2 = b.add_state(&["p", "q"], false);
        b.add_transition(s0, "b", s2);
        b.add_transition(s0, "B", err);
        b.add_transition(s2, "tau", s0);
        b.add_transition(s2, "B", s0);
        b.set_initial(s0);
        b.set_initial(s2);
        let c = b.build();
        let (errs, property) = example();
        for (k, c) in [(0, &c), (1, &c), (7, &c), (2, &errs), (0, &property), (3, &example_without_error())] {
            assert_eq!(expose_component(k, c), expose_component_built(k, c), "component {k}: {c}");
        }
    }

    #[test]
    fn a_stopped_run_keeps_nothing_of_what_it_did_not_finish() {
        let (component, property) = example();
        let parts = [component, chaos()];
        let mut fresh = DynamicChecker::new(CexMode::RivestSchapire).with_probe(0);
        let (expected, _) = fresh.run(&parts, Some(&property));
        assert!(matches!(expected, Outcome::Violated(_)), "{expected:?}");

        let mut checker = DynamicChecker::new(CexMode::RivestSchapire).with_probe(0);
        checker.set_deadline(Some(Instant::now()));
        let (stopped, _) = checker.run(&parts, Some(&property));
        assert_eq!(stopped, Outcome::Stopped);
        assert!(checker.tables().iter().all(Option::is_none));
        checker.set_deadline(None);
        let (outcome, stats) = checker.run(&parts, Some(&property));
        assert_eq!(outcome, expected);
        assert!(stats.reused.is_empty() && stats.revalidated.is_empty(), "{stats:?}");
        assert_eq!(checker.tables(), fresh.tables());
    }

    fn only_b() -> Dla {
        looping(&["b"])
    }

    #[test]
    fn a_restored_level_of_the_same_component_is_used_without_queries() {
        for env in [chaos(), only_b()] {
            let (component, property) = example();
            let parts = [component, env];
            let mut fresh = DynamicChecker::new(CexMode::RivestSchapire).with_probe(0);
            let (expected, _) = fresh.run(&parts, Some(&property));
            let mut restored = DynamicChecker::restore(CexMode::RivestSchapire, fresh.saved()).with_probe(0);
            let (outcome, stats) = restored.run(&parts, Some(&property));
            assert_eq!(outcome, expected);
            assert_eq!((stats.reused.as_slice(), stats.revalidated.len()), (&[0][..], 0), "{stats:?}");
            // The candidate is rebuilt from the closed table and checked by Oracle 1 again.
            assert_eq!(stats.membership, 0, "{stats:?}");
            assert!(stats.checks >= 1, "{stats:?}");
        }
    }

    #[test]
    fn a_restored_table_with_wrong_answers_costs_time_not_the_verdict() {
        for ((env, algorithm), alphabet) in [chaos(), only_b()]
            .into_iter()
            .flat_map(|e| [(e.clone(), Algorithm::LStar), (e, Algorithm::LSharp)])
            .flat_map(|c| [(c.clone(), InterfaceAlphabet::Full), (c, InterfaceAlphabet::Refine)])
        {
            let (component, property) = example();
            let parts = [component, env];
            let mut fresh = DynamicChecker::new(CexMode::RivestSchapire)
                .with_probe(0)
                .with_algorithm(algorithm)
                .with_alphabet(alphabet);
            let (expected, _) = fresh.run(&parts, Some(&property));
            for flip in [true, false] {
                let mut saved = fresh.saved();
                // Every answer wrong, or every answer `inside`.
                let damage = |a: &mut bool| *a = if flip { !*a } else { true };
                for level in saved.iter_mut().flatten() {
                    if let Some(table) = level.table.as_mut() {
                        table.answers.values_mut().for_each(damage);
                    }
                    if let Some(tree) = level.tree.as_mut() {
                        tree.answers.iter_mut().for_each(|(_, a)| damage(a));
                    }
                }
                let mut restored = DynamicChecker::restore(CexMode::RivestSchapire, saved)
                    .with_probe(0)
                    .with_algorithm(algorithm)
                    .with_alphabet(alphabet);
                let (outcome, _) = restored.run(&parts, Some(&property));
                assert_eq!(outcome, expected, "{algorithm} {alphabet:?} flip {flip}");
            }
        }
    }

    #[test]
    fn refined_alphabets_without_a_property_give_the_verdicts_of_the_whole_interface() {
        // Without a property, only the components' own errors are violations; the first
        // alphabet may be empty.
        let (component, _) = example();
        for parts in [vec![chaos(), only_b()], vec![component.clone(), chaos()], vec![chaos(), component]] {
            for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
                let run = |alphabet| {
                    DynamicChecker::new(CexMode::RivestSchapire)
                        .with_probe(0)
                        .with_algorithm(algorithm)
                        .with_alphabet(alphabet)
                        .run(&parts, None)
                        .0
                };
                let full = run(InterfaceAlphabet::Full);
                let refined = run(InterfaceAlphabet::Refine);
                assert_eq!(matches!(refined, Outcome::Holds), matches!(full, Outcome::Holds), "{algorithm}");
            }
        }
    }

    /// A component over `a`, `b`, `c` that errs on `b` after three `a`s; `b` and `c` are
    /// harmless before.
    fn counter() -> Dla {
        let mut b = Builder::new();
        for e in ["a", "b", "c"] {
            b.add_event(e);
        }
        let s: Vec<StateId> = (0..4).map(|_| b.add_state(&[], true)).collect();
        let err = b.add_error_state();
        for k in 0..4 {
            b.add_transition(s[k], "a", s[(k + 1).min(3)]);
            b.add_transition(s[k], "c", s[k]);
            b.add_transition(s[k], "b", if k == 3 { err } else { s[k] });
        }
        b.set_initial(s[0]);
        b.build()
    }

    #[test]
    fn widening_the_alphabet_keeps_the_accepted_answers_and_saves_their_queries() {
        let component = counter();
        let names = |v: &[&str]| v.iter().map(|e| e.to_string()).collect::<Vec<String>>();
        let (narrow, wide) = (names(&["a", "c"]), names(&["a", "b", "c"]));
        for algorithm in [Algorithm::LStar, Algorithm::LSharp] {
            let start = |alphabet: &[String]| match algorithm {
                Algorithm::LStar => AnyLearner::Star(Learner::new(alphabet.to_vec(), CexMode::RivestSchapire, true)),
                _ => AnyLearner::Sharp(LSharp::new(alphabet.to_vec(), true)),
            };
            let mut oracle = AssumptionOracle::new(&component, None, &narrow);
            let mut learner = LevelLearner::new(start(&narrow), false);
            assert!(generate(&mut learner, &mut oracle, &mut AgStats::default()).is_ok());
            // The accepted words over `a c` (indices into `narrow`), prefixes implied for L#.
            let accepted: Vec<Vec<u32>> = match &learner.learner {
                AnyLearner::Star(l) => l.table().answers.iter().filter(|&(_, &b)| b).map(|(w, _)| w.clone()).collect(),
                AnyLearner::Sharp(l) => l.saved().answers.into_iter().filter(|(_, b)| *b).map(|(w, _)| w).collect(),
            };
            assert!(accepted.iter().any(|w| w.len() >= 2), "{algorithm}: {accepted:?}");
            let mut widened = learner.widened(&wide, CexMode::RivestSchapire);
            let mut wide_oracle = AssumptionOracle::new(&component, None, &wide);
            for w in &accepted {
                let word: Vec<String> = w.iter().map(|&a| narrow[a as usize].clone()).collect();
                // Still accepted over the wider alphabet, and known without a query.
                assert!(wide_oracle.member(&word), "{algorithm}: {word:?}");
                let at: Vec<u32> = word.iter().map(|e| wide.binary_search(e).unwrap() as u32).collect();
                let known = match &widened.learner {
                    AnyLearner::Star(l) => l.table().answers.get(&at).copied(),
                    AnyLearner::Sharp(l) => l.tree().walk(crate::learn::tree::ROOT, &at).and_then(|n| l.tree().out(n)),
                };
                assert_eq!(known, Some(true), "{algorithm}: {word:?}");
            }
            let mut fresh = LevelLearner::new(start(&wide), false);
            let a =
                generate(&mut widened, &mut AssumptionOracle::new(&component, None, &wide), &mut AgStats::default());
            let b = generate(&mut fresh, &mut AssumptionOracle::new(&component, None, &wide), &mut AgStats::default());
            assert!(a.is_ok() && b.is_ok());
            let (kept, from_nothing) = (widened.learner.stats().membership, fresh.learner.stats().membership);
            assert!(kept < from_nothing, "{algorithm}: {kept} queries with the kept answers, {from_nothing} without");
        }
    }

    #[test]
    fn an_expired_oracle_says_so_and_accepts_everything() {
        let (component, property) = example();
        let interface = vec!["a".to_string(), "b".to_string()];
        let violating = ["a", "b"].map(String::from);
        let mut oracle =
            AssumptionOracle::new(&component, Some(&property), &interface).with_deadline(Some(Instant::now()));
        let answers: Vec<bool> = (0..DEADLINE_EVERY).map(|_| oracle.member(&violating)).collect();
        assert!(!answers[0], "the word violates the property");
        assert!(oracle.expired());
        assert_eq!(answers.last(), Some(&true));
        assert_eq!(oracle.oracle1(&chaos()), None);
    }

    #[test]
    fn remembered_prefixes_give_the_answers_of_a_fresh_oracle() {
        let (component, property) = example();
        let interface = vec!["a".to_string(), "b".to_string()];
        let mut shared = AssumptionOracle::new(&component, Some(&property), &interface);
        let mut words: Vec<Vec<String>> = vec![Vec::new()];
        for _ in 0..6 {
            let longer: Vec<Vec<String>> =
                words.iter().flat_map(|w| ["a", "b", "z"].map(|l| [w.clone(), vec![l.to_string()]].concat())).collect();
            words.extend(longer);
            words.sort();
            words.dedup();
        }
        let (mut inside, mut outside) = (0, 0);
        // Longest first, so that shorter words are answered from remembered prefixes.
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        for w in &words {
            let fresh = AssumptionOracle::new(&component, Some(&property), &interface).member(w);
            assert_eq!(shared.member(w), fresh, "{w:?}");
            if fresh { inside += 1 } else { outside += 1 }
        }
        assert!(inside > 10 && outside > 10, "{inside} inside, {outside} outside");
    }
}
