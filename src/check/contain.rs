//! Containment: does the new version of a component still have every behaviour of the old one?
//! (paper 003 Section 4, Fig. 1, and the feedback of Section 6).
//!
//! `M` is the may-abstraction of the old version (it has every behaviour of the old code, and
//! maybe more); `M'` is the must-abstraction of the new one (every behaviour it has, the new
//! code has). Behaviours are traces of visible events, error events included (`comp!kind`: a
//! component that could go wrong and no longer can has lost a behaviour). The loop:
//!
//! 1. **Verification**: `L(M) ⊆ L(M') ∪ L(B) ∪ X`, where `B` is the process of behaviours the
//!    upgrade removes on purpose (`--removed`) and `X` the missing behaviours found so far with
//!    all their extensions. Included: the old component is contained in the new one.
//! 2. **Validation 1**: the counterexample `CE` is simulated on the old code along its path in
//!    `M`. Infeasible: `M` is refined and the loop restarts. Both may-abstractions (`M`
//!    and the one of the new version below) are simulated and refined through one seam,
//!    [`check_path`], which also takes their block-encoded form (`--blocks loop`,
//!    [`crate::abs::blocks`]); `M'` stays edge by edge either way.
//! 3. **Validation 2**: is `CE` impossible for the new code? The paper computes, by symbolic
//!    simulation of `CE` on the new code, the set of states that can perform it, and asks
//!    whether it is empty. Where the new version cannot loop between events, that simulation
//!    is finite and done exactly ([`product::performs`]: a complete search of the new version
//!    restricted to `CE`); empty means `CE` is a *missing behaviour*. Otherwise (or when a run
//!    exists) it is a safety question answered by CEGAR on a may-abstraction of the new code:
//!    no path for `CE` in it means no run of the new code performs `CE`; a path that
//!    simulates concretely is a run of the new code, and `M'` is refined so that it gains the
//!    run ([`refine_must`]); a spurious path refines that may-abstraction. The must-model
//!    `M'` is not what decides here, and must not be: `CE` is the counterexample of `L(M) ⊆
//!    L(M')`, so `M'` never has it; it is what Validation 2 refines.
//!
//! **The product first.** Before any abstraction (and when no behaviours are removed on
//! purpose), [`super::product`] builds the synchronous product of the two versions and runs
//! the engine of `subst verify` on it: a bounded search, invariants at the cut points of a
//! block encoding pruned by Houdini and re-checked, k-induction. No reachable error there is
//! a simulation of the old version by the new one, so "contained" without a refinement; an
//! error is an old run (replayed by the interpreter) that Validation 2 below confirms as a
//! missing behaviour. Data stay symbolic, so neither costs a refinement per value of a range,
//! and a loop against its closed form is decided by a loop invariant (`examples-c/contain/
//! sum_loop`, `mul_loop`, `countdown`). When the product does not decide, the loop below runs
//! as it always did.
//!
//! **More missing behaviours from the product.** After the product found a missing behaviour,
//! its bounded search runs again on the product that excludes the traces found so far and all
//! their extensions ([`product::decide_excluding`]: a monitor over the trie of those traces
//! stops the old version before it completes one), and each error it finds is validated as the
//! first one was (Validation 2, then the feedback); this repeats until `max_missing` are found,
//! or that search finds no error within its bound, or `PERFORMED_SKIPS` (4) of its errors were
//! runs that the new version follows on another way (those are excluded too, and only their
//! extensions go unsearched). The work is that of at most `max_missing + PERFORMED_SKIPS`
//! bounded searches of `MAX_DEPTH` (16) loop iterations, with the solver's work budget per
//! query. Two reported behaviours are *distinct* when neither trace is a prefix of the other;
//! each is a shortest missing trace (the new version performs all of it but its last event,
//! since the product followed it there), so a trace with a longer suffix is never reported
//! beside it. A received value in the last event counts as any value: whether a version can
//! receive an event does not depend on the value, so `p r.0` and `p r.1` (a receive `r` lost
//! after the same trace `p`) are one behaviour, reported with the range's lowest value. The list is in
//! the order found: fewest loop iterations of the product first. When the product without
//! the traces found has no error in an unrolling that holds every run, every missing
//! behaviour extends a reported one, and the check ends there. Otherwise the loop below looks
//! for more with `MORE_AFTER_PRODUCT` (16) refinements, and not at all when the old version
//! computes by a loop without events (there it would learn one value per refinement); the
//! report's note says why the product found no more.
//!
//! **`M'` explicitly.** While the new version's concrete state space, explored by the
//! interpreter with every value of each ranged received family and a set of sample values for
//! `nondet_*()` results, stays under `EXPLICIT_STATES` (2,000,000) states, that exploration
//! ([`crate::abs::explicit`]) is `M'`: it is an under-approximation as the must-abstraction is,
//! and for protocol components, whose inputs are ranged events, it is exact, where the
//! must-abstraction learns data values one refinement at a time. A run found by Validation 2
//! that it lacks adds its inputs to the samples; beyond the limit, or when a run's inputs were
//! all sampled already, the must-abstraction takes over.
//!
//! Up to `max_missing` distinct missing behaviours are collected: each one found joins `X`,
//! so the next counterexample is not one of its extensions. For each one the feedback is the
//! old run of the whole trace, the longest prefix the new code can follow and its run, and the
//! divergence point: where the new code, continued from the end of that prefix, turns away
//! from the event the old one performs next.
//!
//! Soundness: "contained" rests on `M ⊇ old` and `M' ⊆ new` (both checked against the
//! interpreter by `tests/it/abstraction.rs`, for both kinds of `M'`), or on the product's proof
//! (see [`super::product`]); a missing behaviour rests on a replayed old run and
//! on the may-abstraction of the new code having no path for it. Limits and solver `unknown`s
//! end the loop with Unknown; when missing behaviours were already found the verdict is "not
//! contained" all the same.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::Reason;
use super::cegar::CegarOptions;
use super::product::{self, Decision, ProductStats, Proof};
use crate::abs::blocks::{PathCheck, check_path};
use crate::abs::explicit::{Explicit, Stop};
use crate::abs::refine::{Replay, Witness, refine_must, simulate};
use crate::abs::{AbsError, Abstractor, Arg, ErrorKind, EventView, Mode};
use crate::automata::Dla;
use crate::automata::dla::Builder;
use crate::automata::inclusion::{self, Inclusion};
use crate::front::ERROR_EVENT;
use crate::ir::interp::{self, Silent};
use crate::ir::{Component, Event, Stmt};
use crate::smt::{Smt, SmtStats, Take};

/// The most concrete states the explicit `M'` may have before the must-abstraction replaces it.
const EXPLICIT_STATES: usize = 2_000_000;
/// How many backward passes one refinement of the must-model makes at most.
const MUST_PASSES: usize = 8;
/// Refinements the abstraction loop may spend looking for more missing behaviours after the
/// product found the first one: a work budget, so that `--max-missing` above 1 costs little
/// more where the abstraction would learn values one at a time.
const MORE_AFTER_PRODUCT: usize = 16;
/// Errors of the product without the traces found so far that the new version follows on
/// another way, after which the product is searched no more ([`Loop::more_from_product`]).
const PERFORMED_SKIPS: usize = 4;
/// Internal steps the divergence search follows the new code for.
const SILENT_STEPS: usize = 100_000;

/// Limits of the containment loop.
#[derive(Clone, Copy, Debug)]
pub struct ContainOptions {
    /// Refinements (of any of the three models), time and solver limits.
    pub limits: CegarOptions,
    /// Missing behaviours to collect before stopping.
    pub max_missing: usize,
    /// Whether the product of the two versions is tried before the abstraction loop (`false`
    /// measures the loop alone: `--no-product`).
    pub product: bool,
}

impl Default for ContainOptions {
    fn default() -> ContainOptions {
        ContainOptions { limits: CegarOptions::default(), max_missing: 5, product: true }
    }
}

/// Where the new code turns away from a missing behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The event the old code performs next and the new one cannot.
    pub expected: String,
    /// The old code's edge that performs it.
    pub old_edge: usize,
    /// The new code's internal steps from the end of the prefix it follows.
    pub silent: Option<Silent>,
    /// The branch of the new code, on those steps, that was not taken and from which the
    /// expected event is reachable without another event: where the behaviour is cut off.
    pub cut: Option<usize>,
}

/// A behaviour of the old version that the new one does not have.
#[derive(Clone, Debug)]
pub struct Missing {
    /// Its events.
    pub trace: Vec<String>,
    /// The old code's run of the whole trace.
    pub old_run: Witness,
    /// How many events of the trace the new code can perform (at least this many).
    pub followed: usize,
    /// The new code's run of those events.
    pub new_run: Witness,
    /// Where it diverges.
    pub divergence: Divergence,
}

/// How the check ended.
#[derive(Clone, Debug)]
pub enum ContainOutcome {
    /// Every behaviour of the old version is one of the new version (or removed on purpose).
    Contained,
    /// Some are missing; `incomplete` says why the search for more stopped early, if it did.
    NotContained {
        /// The missing behaviours found.
        missing: Vec<Missing>,
        /// Why fewer than all were looked for, when a limit stopped the search.
        incomplete: Option<Reason>,
    },
    /// Undecided, and why.
    Unknown(Reason),
}

/// Counts for `--stats`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ContainStats {
    /// Inclusion checks `L(M) ⊆ L(M')`.
    pub rounds: usize,
    /// Refinements of the old version's may-model (Validation 1).
    pub refinements_old: usize,
    /// Refinements of the new version's must-model (Validation 2 found a real run).
    pub refinements_must: usize,
    /// Refinements of the new version's may-model (Validation 2 found a spurious path).
    pub refinements_new: usize,
    /// Predicates of the old version.
    pub predicates_old: usize,
    /// Predicates of the new version's must-model.
    pub predicates_must: usize,
    /// Predicates of the new version's may-model.
    pub predicates_new: usize,
    /// States of the last abstract models (old may, new must).
    pub abstract_states: (usize, usize),
    /// Whether the last `M'` was the explicit-state under-approximation
    /// ([`crate::abs::explicit`]) rather than the must-abstraction.
    pub explicit: bool,
    /// Solver work.
    pub smt: SmtStats,
    /// Wall time.
    pub time: Duration,
    /// The product of the two versions ([`super::product`]), when it was built.
    pub product: Option<ProductStats>,
    /// How the product proved containment, when it did (then no abstraction was built).
    pub proof: Option<Proof>,
}

impl ContainStats {
    /// All refinements.
    pub fn refinements(&self) -> usize {
        self.refinements_old + self.refinements_must + self.refinements_new
    }
}

/// The containment check of one component.
#[derive(Clone, Debug)]
pub struct Containment {
    /// The component.
    pub component: String,
    /// Its outcome.
    pub outcome: ContainOutcome,
    /// Counts.
    pub stats: ContainStats,
}

/// Checks that every behaviour of `old` is one of `new` or of `removed`. Both must be versions of
/// the same component with ranges for every valued family (see [`crate::abs::EventView`]).
pub fn check(old: &Component, new: &Component, removed: Option<&Dla>, options: &ContainOptions) -> Containment {
    let start = Instant::now();
    let mut run = Loop {
        old,
        new,
        options,
        smt: Smt::with_deadline(options.limits.query_budget, options.limits.deadline),
        m: Abstractor::new(old, EventView::Visible),
        must: Abstractor::new(new, EventView::Visible),
        may_new: Abstractor::new(new, EventView::Visible),
        explicit: Some(
            Explicit::new(new, EXPLICIT_STATES).with_bounds(options.limits.explicit_memory, options.limits.deadline),
        ),
        explicit_arg: None,
        memory_bound: None,
        stats: ContainStats::default(),
        missing: Vec::new(),
        more_until: None,
        product_stop: None,
        labelled: crate::abs::labels::labels_events(old) || crate::abs::labels::labels_events(new),
        exact_calls: 0,
    };
    for abs in [&mut run.m, &mut run.must, &mut run.may_new] {
        abs.generalise = options.limits.generalise;
        // The must-abstraction ignores it: it stays edge by edge ([`crate::abs::blocks`]).
        abs.blocks = options.limits.blocks;
    }
    let result = run.run(removed);
    let memory_bound = run.memory_bound;
    let outcome = match result.map_err(|r| {
        let r = match memory_bound {
            Some(bytes) => {
                Reason::MemoryLimit { what: format!("the new version of `{}`", new.name), bytes, then: Box::new(r) }
            }
            None => r,
        };
        r.with_limit(&options.limits.deadline)
    }) {
        Ok(()) if run.missing.is_empty() => ContainOutcome::Contained,
        Ok(()) => ContainOutcome::NotContained { missing: std::mem::take(&mut run.missing), incomplete: None },
        Err(why) if run.missing.is_empty() => ContainOutcome::Unknown(why),
        Err(why) => ContainOutcome::NotContained { missing: std::mem::take(&mut run.missing), incomplete: Some(why) },
    };
    let mut stats = run.stats;
    stats.smt = run.smt.stats;
    stats.smt.calls += stats.product.map_or(0, |p| p.calls) + run.exact_calls;
    stats.predicates_old = run.m.precision.len();
    stats.predicates_must = run.must.precision.len();
    stats.predicates_new = run.may_new.precision.len();
    stats.time = start.elapsed();
    Containment { component: old.name.clone(), outcome, stats }
}

struct Loop<'a> {
    old: &'a Component,
    new: &'a Component,
    options: &'a ContainOptions,
    smt: Smt,
    /// The may-model of the old version, `M`.
    m: Abstractor<'a>,
    /// The must-model of the new version, `M'`.
    must: Abstractor<'a>,
    /// The may-model of the new version, for Validation 2.
    may_new: Abstractor<'a>,
    /// The explicit-state `M'`, used instead of `must` until it has too many states.
    explicit: Option<Explicit<'a>>,
    /// Its graph and automaton for the current samples.
    explicit_arg: Option<Rc<(Arg, Dla)>>,
    /// The memory bound (bytes) the explicit `M'` reached, if it did: an undecided answer
    /// names it ([`Reason::MemoryLimit`]).
    memory_bound: Option<usize>,
    stats: ContainStats,
    missing: Vec<Missing>,
    /// The refinements the loop may make before it stops looking for more missing behaviours
    /// (after the product found one); `None`: only the limit of the options.
    more_until: Option<usize>,
    /// Why the product of the versions, after it found missing behaviours, searched no further
    /// ([`Loop::more_from_product`]).
    product_stop: Option<String>,
    /// Whether events carry state labels (the product and its exact search compare events
    /// only).
    labelled: bool,
    /// Solver checks of Validation 2's exact search ([`product::performs`]).
    exact_calls: u64,
}

/// What Validation 2 decided.
enum Absent {
    /// No run of the new code performs the trace.
    Yes,
    /// One does; the must-model was refined to show it.
    No,
}

impl<'a> Loop<'a> {
    /// Runs until included, `max_missing` behaviours are found, or a limit (the error).
    fn run(&mut self, removed: Option<&Dla>) -> Result<(), Reason> {
        let name = self.old.name.clone();
        // The product knows nothing of behaviours removed on purpose, nor of state labels (it
        // compares events, not the labels a behaviour carries with them).
        if removed.is_none() && !self.labelled && self.options.product && self.product()? {
            return Ok(());
        }
        loop {
            self.limits()?;
            let arg_old = build(&mut self.m, &mut self.smt, Mode::May)?;
            let under = self.under()?;
            let (arg_must, m2) = (&under.0, &under.1);
            self.stats.abstract_states = (arg_old.states.len(), arg_must.states.len());
            let m = arg_old.to_behaviours(&name);
            let x = excluded(&self.missing, m.alphabet());
            let mut allowed: Vec<&Dla> = vec![m2, &x];
            allowed.extend(removed);
            self.stats.rounds += 1;
            let trace = match inclusion::check(&m, &Dla::union(&allowed)) {
                Inclusion::Included { .. } => return Ok(()),
                Inclusion::NotIncluded { trace, .. } => trace,
            };
            let events: Vec<String> = trace.events().iter().map(|e| e.to_string()).collect();
            tracing::debug!(?events, rounds = self.stats.rounds, "containment counterexample");
            // Validation 1: a real behaviour of the old version?
            let path = arg_path(&arg_old, &name, &events).ok_or_else(|| {
                Reason::Internal(format!("the old version's model has no path for {}", events.join(" ")))
            })?;
            let old_run = match check_path(&mut self.m, &mut self.smt, &arg_old, &path)
                .map_err(|e| Reason::solver("simulating or refining the old version", e))?
            {
                PathCheck::Feasible { witness, .. } => witness,
                PathCheck::Spurious { added } => {
                    self.stats.refinements_old += 1;
                    if added == 0 {
                        return Err(Reason::NoNewPredicate(format!("the old version of `{name}`")));
                    }
                    continue;
                }
            };
            // Validation 2: impossible for the new version?
            match self.absent(&events, true)? {
                Absent::No => continue,
                Absent::Yes => {
                    let missing = self.feedback(events, old_run, arg_must)?;
                    self.missing.push(missing);
                    if self.missing.len() >= self.options.max_missing {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Containment on the product of the two versions ([`super::product`]): `true` when that
    /// decided (contained, or the missing behaviours wanted are found). A refutation is a
    /// missing behaviour only when Validation 2 finds no way of the new version to perform it.
    fn product(&mut self) -> Result<bool, Reason> {
        let limits = &self.options.limits;
        let (decision, stats) = product::decide(self.old, self.new, limits.query_budget, limits.deadline);
        self.stats.product = Some(stats);
        match decision {
            Decision::Contained(proof) => {
                tracing::debug!(?proof, ?stats, "contained: the product is safe");
                self.stats.proof = Some(proof);
                Ok(true)
            }
            Decision::Refuted(r) => {
                tracing::debug!(trace = ?r.trace, ?stats, "the product's error: an old run the new version may not follow");
                if !self.confirm(r)? {
                    // The new version follows it on another way: the loop below decides.
                    return Ok(false);
                }
                if self.missing.len() >= self.options.max_missing {
                    return Ok(true);
                }
                let Some(why) = self.more_from_product()? else { return Ok(true) };
                if product::loops_silently(self.old) {
                    // Where the old version computes by a loop, the abstraction learns
                    // one value per refinement, each dearer than the last.
                    return Err(Reason::NotChecked(format!(
                        "the product of the versions found no more ({why}), and the old version loops without events, where the abstraction learns values one at a time: it did not look for more"
                    )));
                }
                self.product_stop = Some(why);
                self.more_until = Some(self.stats.refinements() + MORE_AFTER_PRODUCT);
                Ok(false)
            }
            Decision::Undecided(why) => {
                tracing::debug!(why, ?stats, "the product did not decide");
                Ok(false)
            }
        }
    }

    /// Validation 2 of a refutation of the product, and its feedback when it is a missing
    /// behaviour: `true` when it is one (then it is in `self.missing`).
    fn confirm(&mut self, r: product::Refutation) -> Result<bool, Reason> {
        let limits = &self.options.limits;
        // Exactly where the new version cannot loop between events; else on its may-model.
        let (performs, calls) = product::performs(self.new, &r.trace, limits.query_budget, limits.deadline);
        if let Some(p) = &mut self.stats.product {
            p.calls += calls;
        }
        let absent = match performs {
            Some(true) => Absent::No,
            Some(false) => Absent::Yes,
            None => self.absent(&r.trace, false)?,
        };
        match absent {
            Absent::Yes => {
                // The old run's inputs are the likeliest ones of a new run of its prefix.
                if let Some(x) = &mut self.explicit
                    && x.learn(&r.old_run) > 0
                {
                    self.explicit_arg = None;
                }
                let under = self.under()?;
                let missing = self.feedback(r.trace, r.old_run, &under.0)?;
                self.missing.push(missing);
                Ok(true)
            }
            Absent::No => Ok(false),
        }
    }

    /// After the product found a missing behaviour: searches the product again, without the
    /// traces found so far and their extensions ([`product::decide_excluding`]), until
    /// `max_missing` are found, or the product has no other error, or its bounded search finds
    /// none, or `PERFORMED_SKIPS` of its errors were runs that the new version follows on
    /// another way. `Ok(None)` when the search is over: enough were found, or every missing
    /// behaviour extends one found (every excluded trace was a missing behaviour and the
    /// product without them has no error in an unrolling that holds every run); else why the
    /// product searched no further.
    fn more_from_product(&mut self) -> Result<Option<String>, Reason> {
        let mut excluded: Vec<Vec<String>> = self.missing.iter().map(|m| m.trace.clone()).collect();
        let mut performed = 0;
        loop {
            let limits = &self.options.limits;
            limits.deadline.check()?;
            let (decision, stats) =
                product::decide_excluding(self.old, self.new, &excluded, limits.query_budget, limits.deadline);
            if let Some(p) = &mut self.stats.product {
                p.calls += stats.calls;
                p.one_shot += stats.one_shot;
            }
            let r = match decision {
                Decision::Refuted(r) => {
                    tracing::debug!(trace = ?r.trace, ?stats, "the product's error without the traces found");
                    r
                }
                Decision::Contained(proof) if performed == 0 => {
                    tracing::debug!(?proof, ?excluded, "the product without the traces found is safe");
                    return Ok(None);
                }
                Decision::Contained(_) => {
                    return Ok(Some(format!(
                        "no other error, but {performed} of its errors were behaviours of the new version, whose extensions it did not search"
                    )));
                }
                Decision::Undecided(why) => {
                    tracing::debug!(why, ?excluded, "the product without the traces found did not decide");
                    return Ok(Some(why));
                }
            };
            let trace = r.trace.clone();
            if self.confirm(r)? {
                if self.missing.len() >= self.options.max_missing {
                    return Ok(None);
                }
            } else {
                performed += 1;
                if performed >= PERFORMED_SKIPS {
                    return Ok(Some(format!("{performed} of its errors were behaviours of the new version")));
                }
            }
            excluded.push(trace);
        }
    }

    /// `M'`: the explicit under-approximation while it stays small, else the must-abstraction.
    fn under(&mut self) -> Result<Rc<(Arg, Dla)>, Reason> {
        if let Some(x) = &self.explicit {
            if let Some(built) = &self.explicit_arg {
                return Ok(built.clone());
            }
            match x.build() {
                Ok(arg) => {
                    tracing::debug!(states = arg.states.len(), samples = x.samples().len(), "explicit M'");
                    self.stats.explicit = true;
                    let dla = arg.to_behaviours(&self.new.name);
                    let built = Rc::new((arg, dla));
                    self.explicit_arg = Some(built.clone());
                    return Ok(built);
                }
                Err(Stop::TooManyStates(n)) => {
                    tracing::debug!(states = n, "explicit M' too large: using the must-abstraction");
                    self.explicit = None;
                }
                Err(Stop::Memory(bytes)) => {
                    tracing::info!(bytes, "explicit M' reached its memory bound: using the must-abstraction");
                    self.explicit = None;
                    self.memory_bound = Some(self.options.limits.explicit_memory);
                }
                Err(Stop::Deadline) => {
                    return Err(self.options.limits.deadline.check().err().unwrap_or(Reason::Timeout(Duration::ZERO)));
                }
            }
        }
        self.stats.explicit = false;
        let arg = build(&mut self.must, &mut self.smt, Mode::Must)?;
        let dla = arg.to_behaviours(&self.new.name);
        Ok(Rc::new((arg, dla)))
    }

    fn limits(&self) -> Result<(), Reason> {
        let limits = &self.options.limits;
        limits.deadline.check()?;
        if self.stats.refinements() >= limits.max_refinements {
            return Err(Reason::RefinementLimit(limits.max_refinements));
        }
        if let Some(until) = self.more_until
            && self.stats.refinements() >= until
        {
            let why = self.product_stop.as_deref().unwrap_or("its search stopped");
            return Err(Reason::NotChecked(format!(
                "the product of the versions found no more ({why}), and the abstraction looked for more for {MORE_AFTER_PRODUCT} refinements"
            )));
        }
        Ok(())
    }

    /// Validation 2: is `events` a behaviour of the new code? Paper 003 asks symbolic
    /// simulation of the trace on the new code for the set of states that can perform it.
    /// Where the new version cannot loop between events that is exact and finite: a complete
    /// search of the new version restricted to the trace ([`product::performs`]); no run means
    /// a missing behaviour at once. Otherwise, and to find the run that the must-model has to
    /// gain when there is one, CEGAR on the new version's may-model: no path there means no
    /// run (it over-approximates the new code), and a path that simulates concretely is a run.
    /// The must-model cannot answer this question: `CE` is the counterexample of `L(M) ⊆
    /// L(M')`, so it is never in `M'`; `M'` is only what Validation 2 refines. `exact`: try the
    /// exact search first (not when the caller has just tried it).
    fn absent(&mut self, events: &[String], exact: bool) -> Result<Absent, Reason> {
        let name = self.new.name.clone();
        if exact && !self.labelled {
            let limits = &self.options.limits;
            let (performs, calls) = product::performs(self.new, events, limits.query_budget, limits.deadline);
            self.exact_calls += calls;
            if performs == Some(false) {
                tracing::debug!(?events, "Validation 2: no run of the new version performs the trace (exact search)");
                return Ok(Absent::Yes);
            }
        }
        loop {
            self.limits()?;
            let arg = build(&mut self.may_new, &mut self.smt, Mode::May)?;
            let Some(path) = arg_path(&arg, &name, events) else { return Ok(Absent::Yes) };
            match check_path(&mut self.may_new, &mut self.smt, &arg, &path)
                .map_err(|e| Reason::solver("simulating or refining the new version", e))?
            {
                PathCheck::Feasible { witness: w, .. } => {
                    if let Some(x) = &mut self.explicit {
                        // The explicit M' lacks the run: its inputs were not among the samples.
                        let added = x.learn(&w);
                        self.stats.refinements_must += 1;
                        tracing::debug!(added, ?events, "explicit M' gains the inputs of a run of the new version");
                        self.explicit_arg = None;
                        if added > 0 {
                            return Ok(Absent::No);
                        }
                        tracing::debug!("the run's inputs were all sampled: using the must-abstraction");
                        self.explicit = None;
                    }
                    let added = refine_must(&mut self.must, &mut self.smt, &w, MUST_PASSES)
                        .map_err(|e| Reason::solver("refining the new version's must-model", e))?;
                    self.stats.refinements_must += 1;
                    tracing::debug!(added, ?events, "must-model gains a run of the new version");
                    if added == 0 {
                        return Err(Reason::NoNewPredicate(format!("the must-abstraction of `{name}`")));
                    }
                    return Ok(Absent::No);
                }
                PathCheck::Spurious { added } => {
                    self.stats.refinements_new += 1;
                    if added == 0 {
                        return Err(Reason::NoNewPredicate(format!("the new version of `{name}`")));
                    }
                }
            }
        }
    }

    /// The feedback of paper 003 Section 6 for a missing behaviour.
    fn feedback(&mut self, trace: Vec<String>, old_run: Witness, arg_must: &Arg) -> Result<Missing, Reason> {
        let name = self.new.name.clone();
        // The longest proper prefix the must-model shows: each is a run of the new code.
        let mut followed = trace.len() - 1;
        let new_run = loop {
            if let Some(path) = find(arg_must, &name, &trace[..followed]) {
                match simulate(&self.must.enc, &mut self.smt, &path) {
                    Ok(Replay::Feasible(w)) => break w,
                    Ok(Replay::Infeasible { .. }) => {
                        return Err(Reason::Internal("a path of the must-abstraction is not a run".into()));
                    }
                    Err(e) => return Err(Reason::solver("simulating the new version", e)),
                }
            }
            if followed == 0 {
                break Witness { steps: Vec::new() };
            }
            followed -= 1;
        };
        let expected = trace[followed].clone();
        let old_edge = old_run_edge(&old_run, followed, self.old, &expected);
        let silent = continue_new(self.new, &new_run, followed);
        let cut = silent.as_ref().and_then(|s| cut_off(self.new, s, &expected));
        let divergence = Divergence { expected, old_edge, silent, cut };
        Ok(Missing { trace, old_run, followed, new_run, divergence })
    }
}

fn build(abs: &mut Abstractor, smt: &mut Smt, mode: Mode) -> Result<Arg, Reason> {
    let name = abs.component().name.clone();
    let which = if mode == Mode::May { "may" } else { "must" };
    abs.build(smt, mode).map_err(|e| match e {
        AbsError::Smt(e) => Reason::solver(format!("abstracting `{name}` ({which})"), e),
        AbsError::TooManyStates(n) => Reason::AbstractionLimit(format!("`{name}` ({which})"), n),
    })
}

/// A path of `arg` performing `events`, as (state, index into its `out`).
fn arg_path(arg: &Arg, name: &str, events: &[String]) -> Option<Vec<(usize, usize)>> {
    let wanted: Vec<Vec<String>> = events.iter().map(|e| vec![e.clone()]).collect();
    arg.find_path(name, &wanted)
}

/// A path of `arg` performing `events`, as IR edges and how each is taken.
fn find(arg: &Arg, name: &str, events: &[String]) -> Option<Vec<(usize, Take)>> {
    let wanted: Vec<Vec<String>> = events.iter().map(|e| vec![e.clone()]).collect();
    let path = arg.find_path(name, &wanted)?;
    Some(
        path.iter()
            .map(|&(s, k)| {
                let a = &arg.out[s][k];
                (a.edge, a.take)
            })
            .collect(),
    )
}

/// The missing traces and all their extensions, over `alphabet`: no later counterexample is
/// one of them.
fn excluded(missing: &[Missing], alphabet: &[String]) -> Dla {
    let mut b = Builder::new();
    for e in alphabet {
        b.add_event(e);
    }
    let root = b.add_state(&[], true);
    b.set_initial(root);
    for m in missing {
        let mut at = root;
        for e in &m.trace {
            let next = b.add_state(&[], true);
            b.add_transition(at, e, next);
            at = next;
        }
        for e in alphabet {
            b.add_transition(at, e, at);
        }
    }
    b.build()
}

/// Whether edge `e` of `comp` performs the visible event `label` (as [`Arg::to_behaviours`]
/// names it).
fn performs(comp: &Component, e: usize, label: &str) -> bool {
    // An event that carries its target's label (`release{Locked}`) is the event `release`.
    let label = label.split_once('{').map_or(label, |(event, _)| event);
    let family = |name: &str| {
        label == name
            || label.strip_prefix(name).and_then(|r| r.strip_prefix('.')).is_some_and(|v| v.parse::<i128>().is_ok())
    };
    match &comp.edges[e].stmt {
        Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT => label == ErrorKind::Reach.event(&comp.name),
        Stmt::Event(ev) => family(ev.name()),
        Stmt::Check(_, f) => label == ErrorKind::Fault(*f).event(&comp.name),
        _ => false,
    }
}

/// The old run's edge that performs event number `index` (from 0) of its trace.
fn old_run_edge(run: &Witness, index: usize, comp: &Component, label: &str) -> usize {
    let mut seen = 0;
    for s in &run.steps {
        let visible = match &comp.edges[s.edge].stmt {
            Stmt::Event(_) => true,
            Stmt::Check(..) => s.take == Take::Fault,
            _ => false,
        };
        if visible {
            if seen == index && performs(comp, s.edge, label) {
                return s.edge;
            }
            seen += 1;
        }
    }
    run.steps.last().map_or(0, |s| s.edge)
}

/// Replays the new code's run of its first `followed` events in the interpreter and follows it
/// further through internal steps. `None` when the replay does not end where expected.
fn continue_new(comp: &Component, run: &Witness, followed: usize) -> Option<Silent> {
    let (at, state) = if followed == 0 {
        (comp.entry, interp::State::initial(comp, &mut interp::Scripted::new([]))?)
    } else {
        let limits = interp::Limits { max_steps: 10_000_000, max_events: followed };
        let (replay, end) = interp::run_to(comp, &mut interp::Scripted::new(run.inputs()), limits);
        if replay.outcome != interp::Outcome::EventLimit {
            return None;
        }
        end?
    };
    Some(interp::continue_silently(comp, at, &state, SILENT_STEPS))
}

/// On the internal steps `silent`, the first branch not taken from which an edge performing
/// `label` is reachable without another event, while the branch taken cannot reach one.
fn cut_off(comp: &Component, silent: &Silent, label: &str) -> Option<usize> {
    let reach = reaches(comp, label);
    silent.taken.iter().zip(&silent.not_taken).find_map(|(&taken, others)| {
        if reach[comp.edges[taken].to.index()] {
            return None;
        }
        others.iter().copied().find(|&d| reach[comp.edges[d].to.index()])
    })
}

/// Per location, whether an edge performing `label` can be taken from it after internal steps
/// only.
fn reaches(comp: &Component, label: &str) -> Vec<bool> {
    let n = comp.n_locs as usize;
    let mut reach = vec![false; n];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut queue = VecDeque::new();
    for (i, e) in comp.edges.iter().enumerate() {
        if performs(comp, i, label) && !reach[e.from.index()] {
            reach[e.from.index()] = true;
            queue.push_back(e.from.index());
        }
        if !matches!(e.stmt, Stmt::Event(_)) {
            preds[e.to.index()].push(e.from.index());
        }
    }
    while let Some(l) = queue.pop_front() {
        for &p in &preds[l] {
            if !reach[p] {
                reach[p] = true;
                queue.push_back(p);
            }
        }
    }
    reach
}
