//! Verification of assemblies with C components: predicate abstraction refined by
//! counterexamples (CEGAR).
//!
//! Each C component is abstracted to its may-model ([`crate::abs`]); the models are composed
//! with the FSP parts and the property and checked for safety. A violation is a trace of events;
//! each C component's share of it (the events in its alphabet) is found as a path of its
//! abstract graph and simulated on the concrete component. When every component's share is a
//! concrete run, the trace is real (components share no memory, so their runs combine). When
//! one is not, that component's precision is refined by the infeasible prefix
//! ([`crate::abs::refine::refine`]: the inductive invariant at a cut point of the path when it
//! rules the path out, else weakest preconditions) and the loop starts over. Simulation and
//! refinement go through [`crate::abs::blocks::check_path`], which also handles the paths of
//! block-encoded models ([`CegarOptions::blocks`], `--blocks loop`). Refinement that adds no predicate, the iteration limit and solver `unknown`s
//! end the loop with Unknown, never with "holds". A part whose precision did not change since
//! its last model keeps that model (the same predicates build the same graph from the
//! abstractor's cache); `--stats`' abstraction time and `RUST_LOG=subst::check::cegar=debug`'s
//! per-component lines (states, SMT calls, answers carried over, time) count only the rebuilt
//! ones.

use std::time::{Duration, Instant};

use crate::abs::blocks::{PathCheck, check_path};
use crate::abs::refine::{Replay, Witness, simulate};
use crate::abs::{AbsError, Abstractor, Arg, Mode};
use crate::automata::Dla;
use crate::automata::safety::{self, Safety};
use crate::deadline::Deadline;
use crate::smt::{DEFAULT_QUERY_BUDGET, Smt, SmtStats};

use super::Reason;

/// Limits of the loop.
#[derive(Clone, Copy, Debug)]
pub struct CegarOptions {
    /// Refinement rounds before giving up.
    pub max_refinements: usize,
    /// Budget of one solver query, in Z3 resource units (`rlimit`): work, not time, so that
    /// the answer does not depend on the machine's speed or load.
    pub query_budget: u32,
    /// The run's deadline (`--timeout`): it only ever turns an answer into Unknown.
    pub deadline: Deadline,
    /// The memory bound of an explicit exploration, in bytes (containment's `M'`).
    pub explicit_memory: usize,
    /// Whether refinement may add the invariant at a cut point of a spurious path
    /// ([`crate::abs::refine`]); `false`: weakest preconditions only.
    pub generalise: bool,
    /// Where the may-abstractions compute abstract states: at every location, or at loop
    /// heads, event points and the entry only ([`crate::abs::blocks`]).
    pub blocks: crate::abs::blocks::Blocks,
}

impl CegarOptions {
    /// The settings that can change an answer, as text for cache keys: every field but the
    /// deadline. A deadline only ever turns an answer into Unknown, and an undecided run is
    /// never taken from the cache, so runs with and without `--timeout` share their entries.
    pub fn key_text(&self) -> String {
        let CegarOptions { max_refinements, query_budget, deadline: _, explicit_memory, generalise, blocks } = self;
        format!("{max_refinements} {query_budget} {explicit_memory} {generalise} {blocks:?}")
    }
}

impl Default for CegarOptions {
    fn default() -> CegarOptions {
        CegarOptions {
            max_refinements: 200,
            query_budget: DEFAULT_QUERY_BUDGET,
            deadline: Deadline::none(),
            explicit_memory: crate::abs::explicit::DEFAULT_MEMORY,
            generalise: true,
            blocks: crate::abs::blocks::Blocks::Single,
        }
    }
}

/// A C component in the loop.
pub struct CPart<'a> {
    /// The abstraction and its precision.
    pub abs: Abstractor<'a>,
    /// The names the component's own events have in the assembly (from
    /// [`crate::spec::Part::renaming`]); `None` keeps them.
    pub renaming: Option<crate::util::HashMap<String, Vec<String>>>,
    arg: Option<Arg>,
    /// The model built from `arg`, in the assembly's names, with what it was built at: the
    /// number of (location, predicate) pairs and the block encoding. Predicates are only ever
    /// added, and every query of a build is answered from the abstractor's cache the next
    /// time, so a precision with as many pairs builds the same graph: the loop re-uses it.
    model: Option<(usize, crate::abs::blocks::Blocks, Dla)>,
}

impl<'a> CPart<'a> {
    /// Takes the answered edge queries of `other`, a part of the same component that is
    /// dropped next, and nothing else ([`crate::abs::Abstractor::take_answers_of`]): this
    /// part builds the graphs it would build without them, asking the solver less. Returns the
    /// number of answers it now has.
    pub fn take_answers_of(&mut self, other: CPart<'a>) -> usize {
        self.abs.take_answers_of(other.abs)
    }

    /// A part with no predicates yet.
    pub fn new(abs: Abstractor<'a>) -> CPart<'a> {
        CPart { abs, renaming: None, arg: None, model: None }
    }

    /// Takes over the abstraction of `other`, a part with the same code (source positions
    /// aside) and the same place in the assembly: its predicates, answered queries and last
    /// model ([`crate::abs::Abstractor::adopt`]).
    pub fn adopt(&mut self, other: &CPart) {
        self.abs.adopt(&other.abs);
        if self.renaming == other.renaming {
            self.arg = other.arg.clone();
            self.model = other.model.clone();
        }
    }

    /// Whether the last model was built at the current precision and block encoding.
    /// Predicates are only ever added, and every query of a build is answered from the
    /// abstractor's cache the next time, so such a model is the one a new build would give.
    fn model_is_current(&self) -> bool {
        matches!((&self.arg, &self.model), (Some(_), Some((placed, blocks, _)))
            if *placed == self.abs.precision.placed() && *blocks == self.abs.blocks)
    }

    /// Builds the may-model at the current precision: the abstraction, and its automaton in
    /// the assembly's names over the component's whole alphabet.
    fn build_model(&mut self, smt: &mut Smt) -> Result<(), AbsError> {
        let arg = self.abs.build(smt, Mode::May)?;
        // The model's alphabet is the component's whole alphabet, not only the events its
        // reached states perform: an event it can never perform is one it refuses, never
        // one another part may perform alone (that made a wrong "fails").
        let alphabet = model_alphabet(self.abs.component());
        let model = self.rename(arg.to_dla(self.name()).extend_alphabet(&alphabet));
        self.model = Some((self.abs.precision.placed(), self.abs.blocks, model));
        self.arg = Some(arg);
        Ok(())
    }

    /// Builds the model of the current predicates with `options`' abstraction settings, as
    /// the loop's first round would, unless the part has it already (`subst check` rebuilds
    /// the old check's last models from cached predicates before the upgrade's attempt,
    /// [`super::compat`]).
    pub fn prepare_model(&mut self, smt: &mut Smt, options: &CegarOptions) -> Result<(), AbsError> {
        self.abs.generalise = options.generalise;
        self.abs.blocks = options.blocks;
        if self.model_is_current() { Ok(()) } else { self.build_model(smt) }
    }

    /// The last model as the cache keeps it ([`crate::abs::stored`]), when it was built at
    /// the current precision and block encoding.
    pub fn model_text(&self) -> Option<crate::abs::stored::ArgText> {
        if !self.model_is_current() {
            return None;
        }
        self.arg.as_ref()?.to_text()
    }

    /// Takes the model of `text` (from the cache, for this code at the current precision and
    /// `options`' abstraction settings) as the last model, as [`CPart::prepare_model`] would
    /// build it; `false`, with nothing changed but the settings, when it does not fit the
    /// component and the precision ([`crate::abs::Abstractor::arg_from_text`]).
    pub fn load_model(&mut self, text: &crate::abs::stored::ArgText, options: &CegarOptions) -> bool {
        self.abs.generalise = options.generalise;
        self.abs.blocks = options.blocks;
        let Some(arg) = self.abs.arg_from_text(text) else { return false };
        let alphabet = model_alphabet(self.abs.component());
        let model = self.rename(arg.to_dla(self.name()).extend_alphabet(&alphabet));
        self.model = Some((self.abs.precision.placed(), self.abs.blocks, model));
        self.arg = Some(arg);
        true
    }

    /// The model in the assembly's names.
    fn rename(&self, own: Dla) -> Dla {
        match &self.renaming {
            None => own,
            Some(map) => own.relabel(&|e| map.get(e).cloned().unwrap_or_else(|| vec![e.to_string()])),
        }
    }

    /// The component's own events that an assembly event can be.
    fn own_names(&self, event: &str) -> Vec<String> {
        match &self.renaming {
            None => vec![event.to_string()],
            Some(map) => {
                let mut v: Vec<String> =
                    map.iter().filter(|(_, names)| names.iter().any(|n| n == event)).map(|(o, _)| o.clone()).collect();
                v.sort();
                v
            }
        }
    }

    /// The component's name.
    pub fn name(&self) -> &str {
        &self.abs.component().name
    }
}

/// A concrete run of one component along a counterexample.
#[derive(Clone, Debug)]
pub struct ComponentRun {
    /// The component.
    pub component: String,
    /// The run.
    pub witness: Witness,
}

/// How the loop ended.
#[derive(Clone, Debug)]
pub enum CegarOutcome {
    /// The property holds of the concrete assembly.
    Holds,
    /// A real violation: the events of the whole assembly, and each C component's run.
    Fails {
        /// The trace, error events included.
        trace: Vec<String>,
        /// One run per C component.
        runs: Vec<ComponentRun>,
    },
    /// Undecided, and why.
    Unknown(Reason),
}

/// How the loop model checks the abstract assembly.
pub enum ModelCheck<'c> {
    /// The monolithic product of every part.
    Mono,
    /// DynamicCheck (paper 003 Fig. 3) over the parts in `order`; `checker` keeps its tables
    /// from one round (and one version of the assembly) to the next.
    Dynamic {
        /// The compositional checker.
        checker: &'c mut super::ag::DynamicChecker,
        /// The parts in the order of the assume-guarantee levels.
        order: &'c [Slot],
        /// The most work the loop may do, in SMT calls and membership queries together: past
        /// it, the loop ends Unknown with [`CegarStats::over_work_limit`] set (looked at before
        /// each round's abstraction and model check, at each solver call of the abstraction
        /// and the path checks ([`Smt::set_call_limit`]), and by DynamicCheck between
        /// membership queries, so the loop never does more). `subst check` bounds an
        /// upgrade's attempt at re-use with it ([`super::compat`]).
        work: Option<u64>,
    },
}

/// A part of the assembly in the compositional order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The FSP part with this index.
    Fsp(usize),
    /// The C part with this index.
    C(usize),
}

/// Counts for `--stats`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CegarStats {
    /// Refinement rounds.
    pub refinements: usize,
    /// Distinct predicates over all components at the end.
    pub predicates: usize,
    /// Abstract states of the last models, over all components.
    pub abstract_states: usize,
    /// Product states explored by the last safety check.
    pub product_states: usize,
    /// Solver work.
    pub smt: SmtStats,
    /// Wall time.
    pub time: Duration,
    /// Depth of the bounded search for errors that ran beside the loop (loop iterations).
    pub bmc_depth: usize,
    /// Cut points whose invariants (from Spacer, re-checked) proved the program; 0 when no
    /// such proof was found.
    pub invariants: usize,
    /// Whether that search unrolled every loop completely (no run iterates further), which
    /// makes it a proof when it found no error.
    pub bmc_complete: bool,
    /// With [`ModelCheck::Dynamic`]: membership queries of L* over all rounds.
    pub membership: usize,
    /// With [`ModelCheck::Dynamic`]: candidate assumptions over all rounds.
    pub candidates: usize,
    /// With [`ModelCheck::Dynamic`]: time spent in DynamicCheck over all rounds (what paper
    /// 003 Table 1 times), without abstraction, refinement and validation.
    pub dynamic: Duration,
    /// Time spent building the may-abstractions of the components, over all rounds (the
    /// work both engines share; which predicates refinement finds decides it).
    #[serde(skip)]
    pub abstraction: Duration,
    /// Time spent model checking the abstract assembly, over all rounds: the product search
    /// (`mono`) or DynamicCheck (`ag`, the same as [`CegarStats::dynamic`]).
    #[serde(skip)]
    pub model_check: Duration,
    /// Time spent checking abstract counterexamples on the components (symbolic simulation
    /// and refinement), over all rounds.
    #[serde(skip)]
    pub path_checks: Duration,
    /// With [`ModelCheck::Dynamic`]: per level of the last round, the size of the assumption's
    /// alphabet and of the level's interface ([`super::ag::InterfaceAlphabet`]).
    #[serde(skip)]
    pub alphabet_per_level: Vec<(usize, usize)>,
    /// With [`ModelCheck::Dynamic`]: alphabet refinements over all rounds and levels.
    #[serde(skip)]
    pub alphabet_refinements: usize,
    /// With [`ModelCheck::Dynamic`]: how its runs were decided and what re-use cost.
    #[serde(skip)]
    pub dynamic_runs: super::ag::RunCounts,
    /// With [`ModelCheck::Dynamic`] and a work limit: the loop reached it and gave up.
    #[serde(skip)]
    pub over_work_limit: bool,
    /// `subst check` from the cache: the old check's last models loaded from it
    /// ([`super::compat`]).
    #[serde(skip)]
    pub models_loaded: usize,
    /// `subst check` from the cache: the old check's last models built again from their
    /// predicates (no model in the cache, or one that did not fit).
    #[serde(skip)]
    pub models_rebuilt: usize,
}

impl CegarStats {
    /// The work the loop did that a work limit counts ([`ModelCheck::Dynamic`]): SMT calls
    /// and membership queries.
    pub fn work(&self) -> u64 {
        self.smt.calls + self.membership as u64
    }
}

/// Loop iterations the bounded search reaches at its first turn (before the second round of
/// invariants); later it doubles its depth each time, by at most [`BMC_MAX_CHUNK`].
const BMC_CHUNK: usize = 20;
/// The budget of one query of the bounded search, in Z3 resource units (about 2 s of Z3's work
/// where it was calibrated): it only looks for bugs, so it stops where its queries get hard and
/// leaves the rest to CEGAR. A count of work, not a time, so that how deep the search gets, and
/// so the verdict, does not depend on the machine's load.
const BMC_QUERY_BUDGET: u32 = 4_000_000;
/// The share of [`BMC_QUERY_BUDGET`] that a query of the bounded search gets in its turns
/// between the rounds of invariants.
const BMC_EARLY_SHARE: u32 = 8;
/// The most loop iterations the bounded search adds at a time.
const BMC_MAX_CHUNK: usize = 320;
/// The deepest the bounded search goes.
const BMC_MAX_DEPTH: usize = 4000;

/// The error event a bounded path ends with.
fn error_event_of(comp: &crate::ir::Component, path: &[(usize, crate::smt::Take)]) -> String {
    use crate::abs::ErrorKind;
    match path.last().map(|&(e, _)| &comp.edges[e].stmt) {
        Some(crate::ir::Stmt::Check(_, f)) => ErrorKind::Fault(*f).event(&comp.name),
        _ => ErrorKind::Reach.event(&comp.name),
    }
}

/// Runs CEGAR on the assembly of `fsp` parts and `c` parts against `property` (`None`: no
/// error state may be reached).
pub fn run(fsp: &[Dla], c: &mut [CPart], property: Option<&Dla>, options: CegarOptions) -> (CegarOutcome, CegarStats) {
    run_with(fsp, c, property, options, &mut || None)
}

/// [`run`], calling `between` before each round; when it returns an outcome, the loop ends
/// with it (the bounded search of [`verify_program`] uses this to report a bug it found).
pub fn run_with(
    fsp: &[Dla],
    c: &mut [CPart],
    property: Option<&Dla>,
    options: CegarOptions,
    between: &mut dyn FnMut() -> Option<CegarOutcome>,
) -> (CegarOutcome, CegarStats) {
    run_checked(fsp, c, property, options, &mut ModelCheck::Mono, between)
}

/// [`run_with`], model checking each round's abstract assembly as `check` says.
pub fn run_checked(
    fsp: &[Dla],
    c: &mut [CPart],
    property: Option<&Dla>,
    options: CegarOptions,
    check: &mut ModelCheck,
    between: &mut dyn FnMut() -> Option<CegarOutcome>,
) -> (CegarOutcome, CegarStats) {
    let mut smt = Smt::with_deadline(options.query_budget, options.deadline);
    run_checked_in(fsp, c, property, options, check, between, &mut smt)
}

/// [`run_checked`] with the caller's solver, whose counts start again from zero. A solver
/// that has answered queries before answers the next ones as soundly as a new one (each query
/// is asked in a scope of its own; an answer kept in its cache is for the identical formula),
/// and spares the cost of a new solver's first queries: about 5 ms of the 17 ms that the
/// IPC's P1 re-check after `ipc2` took in a quiet run ([`super::compat::check`] shares one
/// between the old check and the upgrade's). The models it picks, so the counts, may differ
/// from a new solver's.
pub fn run_checked_in(
    fsp: &[Dla],
    c: &mut [CPart],
    property: Option<&Dla>,
    options: CegarOptions,
    check: &mut ModelCheck,
    between: &mut dyn FnMut() -> Option<CegarOutcome>,
    smt: &mut Smt,
) -> (CegarOutcome, CegarStats) {
    let start = Instant::now();
    smt.stats = crate::smt::SmtStats::default();
    let mut stats = CegarStats::default();
    for part in c.iter_mut() {
        part.abs.generalise = options.generalise;
        part.abs.blocks = options.blocks;
    }
    let outcome = loop_(fsp, c, property, options, check, smt, &mut stats, between);
    stats.smt = smt.stats;
    stats.predicates = c.iter().map(|p| p.abs.precision.len()).sum();
    stats.time = start.elapsed();
    (outcome, stats)
}

/// Why a loop that reached its work limit ([`ModelCheck::Dynamic`]) did not decide.
const WORK_LIMIT: &str = "the work limit of the loop was reached";

/// With a work limit that the loop has reached: the Unknown it ends with.
fn over_work(check: &ModelCheck, smt: &Smt, stats: &mut CegarStats) -> Option<CegarOutcome> {
    let ModelCheck::Dynamic { work: Some(max), .. } = check else { return None };
    if smt.stats.calls + (stats.membership as u64) < *max {
        return None;
    }
    stats.over_work_limit = true;
    Some(CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string())))
}

#[allow(clippy::too_many_arguments)]
fn loop_(
    fsp: &[Dla],
    c: &mut [CPart],
    property: Option<&Dla>,
    options: CegarOptions,
    check: &mut ModelCheck,
    smt: &mut Smt,
    stats: &mut CegarStats,
    between: &mut dyn FnMut() -> Option<CegarOutcome>,
) -> CegarOutcome {
    // What the rule's runs need of the property and of the components' code, which no
    // refinement changes: found once, outside the clock of DynamicCheck (`stats.dynamic`).
    let property_error = match check {
        ModelCheck::Dynamic { .. } => property.and_then(|p| safety::error_automaton(p).err()),
        ModelCheck::Mono => None,
    };
    let fallible: Vec<bool> = match check {
        ModelCheck::Dynamic { order, .. } => order
            .iter()
            .map(|s| match *s {
                Slot::Fsp(_) => false,
                Slot::C(j) => may_fail(c[j].abs.component()),
            })
            .collect(),
        ModelCheck::Mono => Vec::new(),
    };
    loop {
        if let Some(found) = between() {
            return found;
        }
        if let Err(r) = options.deadline.check() {
            return CegarOutcome::Unknown(r);
        }
        if let Some(limit) = over_work(check, smt, stats) {
            return limit;
        }
        let mut models = Vec::with_capacity(c.len());
        stats.abstract_states = 0;
        let round = Instant::now();
        // Under a work limit, the abstraction stops at it: a round's abstraction past the
        // limit would be thrown away with the rest of the attempt (on the IPC's P2 after
        // `ipc4`, the last round of the attempt asked 2,603 calls over it).
        arm_call_limit(check, smt, stats);
        for part in c.iter_mut() {
            if let (Some(arg), Some((_, _, model))) = (&part.arg, &part.model)
                && part.model_is_current()
            {
                stats.abstract_states += arg.states.len();
                models.push(model.clone());
                continue;
            }
            let (started, calls, carried) = (Instant::now(), smt.stats.calls, part.abs.stats.carried_edges);
            let built = part.build_model(smt);
            if built.is_err() {
                smt.set_call_limit(None);
            }
            match built {
                Ok(()) => {}
                Err(AbsError::Smt(crate::smt::SmtError::CallLimit(_))) => {
                    stats.abstraction += round.elapsed();
                    stats.over_work_limit = true;
                    return CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string()));
                }
                Err(AbsError::Smt(e)) => {
                    return CegarOutcome::Unknown(
                        Reason::solver(format!("abstracting `{}`", part.name()), e).with_limit(&options.deadline),
                    );
                }
                Err(AbsError::TooManyStates(n)) => {
                    return CegarOutcome::Unknown(Reason::AbstractionLimit(format!("`{}`", part.name()), n));
                }
            }
            let (Some(arg), Some((_, _, model))) = (&part.arg, &part.model) else {
                return CegarOutcome::Unknown(Reason::Internal(format!(
                    "no model of `{}` after its build",
                    part.name()
                )));
            };
            stats.abstract_states += arg.states.len();
            models.push(model.clone());
            tracing::debug!(
                component = part.name(),
                states = arg.states.len(),
                calls = smt.stats.calls - calls,
                carried = part.abs.stats.carried_edges - carried,
                took = ?started.elapsed(),
                "abstracted"
            );
        }
        let refused = smt.call_limit_reached();
        smt.set_call_limit(None);
        let abstracted = round.elapsed();
        stats.abstraction += abstracted;
        if refused {
            // A query refused at the limit whose error the abstraction did not pass on.
            stats.over_work_limit = true;
            return CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string()));
        }
        let trace = match check {
            ModelCheck::Mono => {
                let mut parts: Vec<&Dla> = fsp.iter().collect();
                parts.extend(models.iter());
                let checked = super::verify::mono_search(
                    &parts,
                    &|_| false,
                    property,
                    super::verify::MONO_MAX_STATES,
                    &options.deadline,
                );
                stats.model_check += round.elapsed() - abstracted;
                match checked {
                    Ok(Ok(Safety::Holds { states })) => {
                        stats.product_states = states;
                        return CegarOutcome::Holds;
                    }
                    Ok(Ok(Safety::Violated { trace, states })) => {
                        stats.product_states = states;
                        trace
                    }
                    Ok(Err(reason)) => return CegarOutcome::Unknown(reason),
                    Err(e) => return CegarOutcome::Unknown(Reason::Property(e.to_string())),
                }
            }
            ModelCheck::Dynamic { checker, order, work } => {
                // The abstraction may have used up the rest of the work.
                let left = match *work {
                    Some(max) => match max.checked_sub(smt.stats.calls + stats.membership as u64) {
                        Some(left) if left > 0 => Some(usize::try_from(left).unwrap_or(usize::MAX)),
                        _ => {
                            stats.over_work_limit = true;
                            return CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string()));
                        }
                    },
                    None => None,
                };
                if let Some(e) = &property_error {
                    return CegarOutcome::Unknown(Reason::Property(e.to_string()));
                }
                let parts: Vec<&Dla> = order
                    .iter()
                    .map(|s| match *s {
                        Slot::Fsp(i) => &fsp[i],
                        Slot::C(j) => &models[j],
                    })
                    .collect();
                checker.set_deadline(options.deadline.instant());
                if work.is_some() {
                    checker.set_work_limit(left);
                }
                let (outcome, mut ag) = checker.run_parts(&parts, property, &fallible);
                let exhausted = outcome == super::ag::Outcome::Stopped && checker.work_exhausted();
                if let (true, Some(left)) = (exhausted, left) {
                    // Every query the limit allowed was asked, finished levels or not.
                    ag.membership = left;
                }
                tracing::debug!(
                    ?abstracted,
                    checked = ?(round.elapsed() - abstracted),
                    membership = ag.membership,
                    per_level = ?ag.membership_per_level,
                    revalidated = ?ag.revalidated,
                    reused = ?ag.reused,
                    "dynamic check"
                );
                stats.dynamic += round.elapsed() - abstracted;
                stats.model_check += round.elapsed() - abstracted;
                stats.membership += ag.membership;
                stats.candidates += ag.candidates;
                stats.alphabet_per_level = ag.alphabet_per_level.clone();
                stats.alphabet_refinements += ag.alphabet_refinements.iter().sum::<usize>();
                stats.dynamic_runs.add(&ag);
                match outcome {
                    super::ag::Outcome::Holds => return CegarOutcome::Holds,
                    super::ag::Outcome::Violated(trace) => trace,
                    super::ag::Outcome::Stopped if exhausted => {
                        stats.over_work_limit = true;
                        return CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string()));
                    }
                    super::ag::Outcome::Stopped => {
                        return CegarOutcome::Unknown(Reason::Timeout(options.deadline.limit().unwrap_or_default()));
                    }
                }
            }
        };
        tracing::debug!(
            ?trace,
            refinements = stats.refinements,
            states = stats.abstract_states,
            placed = c.iter().map(|p| p.abs.precision.placed()).sum::<usize>(),
            calls = smt.stats.calls,
            "abstract counterexample"
        );
        let paths = Instant::now();
        let mut runs = Vec::new();
        let mut spurious = false;
        let mut added = 0;
        // The path checks stop at the work limit too (Houdini's invariants at the first
        // refinement of a component can cost more than the limit). A refinement that gave up
        // at it, or a path not decided, makes the round end over the limit, never Unknown for
        // another reason or "no new predicate".
        arm_call_limit(check, smt, stats);
        let checked = check_paths(c, &models, &trace, smt, &mut runs, &mut spurious, &mut added);
        let refused = smt.call_limit_reached();
        smt.set_call_limit(None);
        stats.path_checks += paths.elapsed();
        if refused {
            stats.over_work_limit = true;
            return CegarOutcome::Unknown(Reason::NotChecked(WORK_LIMIT.to_string()));
        }
        if let Err(why) = checked {
            return CegarOutcome::Unknown(why.with_limit(&options.deadline));
        }
        if !spurious {
            return CegarOutcome::Fails { trace, runs };
        }
        stats.refinements += 1;
        if added == 0 {
            let names: Vec<String> = c.iter().map(|p| format!("`{}`", p.name())).collect();
            return CegarOutcome::Unknown(Reason::NoNewPredicate(names.join(", ")));
        }
        if stats.refinements >= options.max_refinements {
            return CegarOutcome::Unknown(Reason::RefinementLimit(options.max_refinements));
        }
    }
}

/// With a work limit ([`ModelCheck::Dynamic`]): the solver refuses calls past what is left of
/// it after the membership queries asked so far ([`Smt::set_call_limit`]).
fn arm_call_limit(check: &ModelCheck, smt: &mut Smt, stats: &CegarStats) {
    if let ModelCheck::Dynamic { work: Some(max), .. } = check {
        smt.set_call_limit(Some(max.saturating_sub(stats.membership as u64)));
    }
}

/// Checks each component's share of the abstract counterexample `trace` on its C code:
/// a feasible one's run goes to `runs`, a spurious one refines its component (`spurious`
/// set, the predicates added counted in `added`).
fn check_paths(
    c: &mut [CPart],
    models: &[Dla],
    trace: &[String],
    smt: &mut Smt,
    runs: &mut Vec<ComponentRun>,
    spurious: &mut bool,
    added: &mut usize,
) -> Result<(), Reason> {
    for (part, model) in c.iter_mut().zip(models) {
        let share: Vec<Vec<String>> =
            trace.iter().filter(|e| model.event_index(e).is_some()).map(|e| part.own_names(e)).collect();
        let arg = part.arg.as_ref().expect("built above");
        let Some(path) = arg.find_path(part.name(), &share) else {
            return Err(Reason::Internal(format!(
                "the model of `{}` cannot replay its share of the counterexample",
                part.name()
            )));
        };
        match check_path(&mut part.abs, smt, arg, &path) {
            Ok(PathCheck::Feasible { witness, .. }) => {
                runs.push(ComponentRun { component: part.name().to_string(), witness })
            }
            Ok(PathCheck::Spurious { added: n }) => {
                *spurious = true;
                *added += n;
            }
            Err(e) => return Err(Reason::solver(format!("simulating or refining `{}`", part.name()), e)),
        }
    }
    Ok(())
}

/// The result of `subst verify` on a C program with no spec.
#[derive(Clone, Debug)]
pub struct ProgramResult {
    /// The component checked.
    pub component: String,
    /// How the loop ended.
    pub outcome: CegarOutcome,
    /// When it fails: the error, and the run replayed by the interpreter.
    pub error: Option<(crate::abs::ErrorKind, crate::ir::interp::Run)>,
    /// Counts.
    pub stats: CegarStats,
}

impl ProgramResult {
    /// The verdict.
    pub fn verdict(&self) -> super::Verdict {
        match &self.outcome {
            CegarOutcome::Holds => super::Verdict::Holds,
            CegarOutcome::Fails { trace, .. } => super::Verdict::Fails(trace.clone()),
            CegarOutcome::Unknown(r) => super::Verdict::Unknown(r.clone()),
        }
    }
}

/// Checks that `comp` never calls `reach_error()` (or another error function) and never has
/// undefined behaviour: the SV-COMP `unreach-call` property, with every event internal. A
/// counterexample is replayed by the interpreter before it is reported; one that does not
/// replay makes the verdict Unknown.
pub fn verify_program(comp: &crate::ir::Component, options: CegarOptions) -> ProgramResult {
    use crate::abs::{ErrorKind, EventView};
    use crate::ir::interp;
    let mut parts = [CPart::new(Abstractor::new(comp, EventView::Hidden))];
    let bmc_budget = options.query_budget.min(BMC_QUERY_BUDGET);
    let mut bmc = super::bmc::Bmc::new(comp, bmc_budget, options.deadline);
    let mut bmc_stats = crate::smt::SmtStats::default();
    // The bounded search deepens at turns 0, 1, 2, 4, 8, ... (turns 0 and 1 come before the
    // second and third rounds of invariants, the rest before CEGAR's rounds): a schedule fixed
    // by counts, so that which engine finds a bug (and so the report) does not depend on the
    // machine's speed.
    let mut round = 0usize;
    // Invariants at the cut points of the block encoding, from samples and the program's
    // conditions, kept when inductive: when they exclude every error (re-checked by a solver
    // of their own) that is the proof. (Seeding CEGAR with the conjuncts of a failed attempt
    // was measured and dropped: no program needed fewer refinements, and the abstractions
    // grew, e.g. benches/svcomp/traffic_lights.c from 462 to 577 states.)
    let started = Instant::now();
    // A program without input has one run: a short try decides the short ones before
    // anything symbolic starts; the rest of it takes turns with CEGAR and the bounded search
    // (slices that double from round to round), so that neither starves the other: a deep bug
    // (`simple_false1`, 2^27 iterations) needs the run, a long safe loop (`phases_true1`) a
    // proof.
    use super::only_run::{MAX_STEPS, OnlyRun, Runner, SHORT_STEPS};
    let decide = |outcome: OnlyRun| -> Option<ProgramResult> {
        let stats = CegarStats { time: started.elapsed(), ..CegarStats::default() };
        match outcome {
            OnlyRun::Safe { .. } => {
                Some(ProgramResult { component: comp.name.clone(), outcome: CegarOutcome::Holds, error: None, stats })
            }
            OnlyRun::Error(fault, witness, run) => {
                let kind = match fault {
                    Some(f) => ErrorKind::Fault(f),
                    None => ErrorKind::Reach,
                };
                let outcome = CegarOutcome::Fails {
                    trace: vec![kind.event(&comp.name)],
                    runs: vec![ComponentRun { component: comp.name.clone(), witness }],
                };
                Some(ProgramResult { component: comp.name.clone(), outcome, error: Some((kind, run)), stats })
            }
            OnlyRun::Several | OnlyRun::TooLong => None,
        }
    };
    let mut runner = Runner::new(comp).with_deadline(options.deadline);
    let short = runner.advance(comp, SHORT_STEPS);
    tracing::info!(outcome = ?short.as_ref().map(std::mem::discriminant), "the only run, short");
    if let Some(decided) = short.and_then(&decide) {
        return decided;
    }
    // What the only run decided while CEGAR ran: reported as it is, since it is the
    // interpreter's own execution.
    let only_decided: std::cell::RefCell<Option<ProgramResult>> = std::cell::RefCell::new(None);
    let mut only_round = 0u32;
    let mut only_turn = |runner: &mut Runner| -> Option<CegarOutcome> {
        if runner.ended || runner.steps() >= MAX_STEPS {
            return None;
        }
        let slice = (1u64 << (20 + only_round.min(10))).min(MAX_STEPS - runner.steps());
        only_round += 1;
        let decided = runner.advance(comp, slice).and_then(&decide)?;
        let outcome = decided.outcome.clone();
        *only_decided.borrow_mut() = Some(decided);
        Some(outcome)
    };
    let mut between = || {
        if let Some(decided) = only_turn(&mut runner) {
            return Some(decided);
        }
        let due = round == 0 || round.is_power_of_two();
        // The turns before the second and third rounds of invariants are cheap: a query that
        // needs more than a share of the budget ends the turn, and the later turns, with the
        // whole budget, ask again (a safe program that the next round proves does not pay for
        // a hard query of the unrolling: `examples-c/cegar/retry_connection.c`).
        let early = round < 2;
        round += 1;
        // A complete unrolling adds no depth, but its error ways may still wait for an answer:
        // an early turn whose query ran over its share of the budget at the last depth (a loop
        // whose error needs all of its 50 iterations ends the unrolling at depth 51 in the
        // second early turn) is asked again with the whole budget.
        let settled = bmc.exhausted() && !bmc.undecided();
        if !due || bmc.gave_up || bmc.depth() >= BMC_MAX_DEPTH || (round > 1 && settled) {
            return None;
        }
        bmc.smt.set_budget(if early { bmc_budget / BMC_EARLY_SHARE } else { bmc_budget });
        // Before the first round, small steps (2, 4, 8, ... iterations) find shallow bugs
        // with small queries; later the depth doubles at each turn.
        let mut found = bmc.deepen(bmc.depth().clamp(1, BMC_MAX_CHUNK));
        while round == 1 && matches!(found, Ok(None)) && bmc.depth() < BMC_CHUNK && !bmc.exhausted() {
            found = bmc.deepen(bmc.depth().clamp(1, BMC_MAX_CHUNK));
        }
        // No error within the bound: does any run go deeper? (A loop bounded by an assumed input
        // range does not, though no way into the next depth simplified to false.)
        if matches!(found, Ok(None)) {
            bmc.settle_exhausted();
        }
        bmc_stats = bmc.smt.stats;
        match found {
            Ok(Some(path)) => {
                let mut smt = Smt::with_deadline(options.query_budget, options.deadline);
                match simulate(&crate::smt::Encoder::new(comp), &mut smt, &path) {
                    Ok(Replay::Feasible(witness)) => Some(CegarOutcome::Fails {
                        trace: vec![error_event_of(comp, &path)],
                        runs: vec![ComponentRun { component: comp.name.clone(), witness }],
                    }),
                    _ => {
                        bmc.gave_up = true;
                        None
                    }
                }
            }
            // Every run is in the unrolling and none reaches an error: a proof, as a bounded
            // model checker's forward condition is.
            Ok(None) if bmc.exhausted() => Some(CegarOutcome::Holds),
            Ok(None) => None,
            Err(e @ (crate::smt::SmtError::Budget(_) | crate::smt::SmtError::Unknown(_))) if early => {
                tracing::info!(%e, depth = bmc.depth(), "bounded search ends its early turn");
                None
            }
            Err(e) => {
                tracing::info!(%e, depth = bmc.depth(), "bounded search gives up");
                bmc.gave_up = true;
                None
            }
        }
    };
    // The bounded search takes its first turns between the rounds of invariants: small steps
    // (2, 4, 8, ... iterations) before round 2, one doubling before round 3, so that a shallow
    // bug does not wait for the expensive rounds (`loop-lit/gcnr2008`: 1.2 s, then 11.4 s once
    // round 2 grew). The turns are counted like CEGAR's rounds: the same schedule on any machine.
    // (The invariants are tried with k-induction strengthened by them when they are too weak
    // alone.)
    let mut found_between: Option<CegarOutcome> = None;
    let attempt = crate::abs::invariant::prove_between(comp, options.query_budget, &options.deadline, &mut |_| {
        found_between = between();
        found_between.is_some()
    });
    tracing::info!(proved = attempt.proved, why_not = ?attempt.why_not, invariants = ?attempt.invariants, "invariants");
    if attempt.proved {
        let stats = CegarStats {
            invariants: attempt.invariants.len(),
            smt: crate::smt::SmtStats { calls: attempt.calls, ..Default::default() },
            time: started.elapsed(),
            ..CegarStats::default()
        };
        return ProgramResult { component: comp.name.clone(), outcome: CegarOutcome::Holds, error: None, stats };
    }
    let (mut outcome, mut stats) = match found_between {
        Some(found) => (found, CegarStats::default()),
        None => run_with(&[], &mut parts, None, options, &mut between),
    };
    if let Some(mut decided) = only_decided.borrow_mut().take() {
        decided.stats = stats;
        decided.stats.time = started.elapsed();
        return decided;
    }
    // CEGAR gave up first: the only run, when there is one, has the rest of its budget.
    if matches!(outcome, CegarOutcome::Unknown(_))
        && !runner.ended
        && let Some(mut decided) = runner.advance(comp, MAX_STEPS.saturating_sub(runner.steps())).and_then(&decide)
    {
        decided.stats = stats;
        decided.stats.time = started.elapsed();
        return decided;
    }
    stats.smt.calls += attempt.calls;
    stats.time = started.elapsed();
    stats.bmc_depth = bmc.depth();
    stats.bmc_complete = bmc.exhausted();
    stats.smt.calls += bmc_stats.calls;
    stats.smt.cache_hits += bmc_stats.cache_hits;
    stats.smt.unknown += bmc_stats.unknown;
    let mut error = None;
    if let CegarOutcome::Fails { trace, runs } = &outcome {
        let kind = trace.last().and_then(|e| {
            let fault = crate::ir::Fault::ALL.into_iter().find(|f| ErrorKind::Fault(*f).event(&comp.name) == *e);
            match fault {
                Some(f) => Some(ErrorKind::Fault(f)),
                None if ErrorKind::Reach.event(&comp.name) == *e => Some(ErrorKind::Reach),
                None => None,
            }
        });
        let inputs = runs.first().map(|r| r.witness.inputs()).unwrap_or_default();
        let limits = interp::Limits { max_steps: 10_000_000, max_events: usize::MAX };
        let replay = interp::run(comp, &mut interp::Scripted::new(inputs), limits);
        let confirmed = match kind {
            Some(ErrorKind::Reach) => replay.events.iter().any(|e| e.name == crate::front::ERROR_EVENT),
            Some(ErrorKind::Fault(f)) => replay.outcome == interp::Outcome::Fault(f),
            None => false,
        };
        match (confirmed, kind) {
            (true, Some(k)) => error = Some((k, replay)),
            _ => {
                outcome = CegarOutcome::Unknown(Reason::Internal(format!(
                    "the counterexample {trace:?} did not replay in the interpreter (it ended: {})",
                    replay.outcome
                )))
            }
        }
    }
    ProgramResult { component: comp.name.clone(), outcome, error, stats }
}

/// The labels of a component's model that an interpreter run performs: its events (with
/// their values for a family with a range), then its error event if it ends in one.
pub fn run_labels(comp: &crate::ir::Component, run: &crate::ir::interp::Run) -> Vec<String> {
    use crate::abs::ErrorKind;
    let mut out = Vec::new();
    for ev in &run.events {
        if ev.name == crate::front::ERROR_EVENT {
            out.push(ErrorKind::Reach.event(&comp.name));
            return out;
        }
        let ranged = comp.family(&ev.name).and_then(|f| f.range).is_some();
        out.push(match (ranged, ev.value) {
            (true, Some(v)) => format!("{}.{v}", ev.name),
            _ => ev.name.clone(),
        });
    }
    if let crate::ir::interp::Outcome::Fault(f) = run.outcome {
        out.push(ErrorKind::Fault(f).event(&comp.name));
    }
    out
}

/// Every label the model of `comp` can show (events with all values of their range, and its
/// error events), for elaborating an assembly that names it.
pub fn model_alphabet(comp: &crate::ir::Component) -> Vec<String> {
    use crate::abs::ErrorKind;
    let mut out = Vec::new();
    for name in comp.alphabet() {
        if name == crate::front::ERROR_EVENT {
            continue;
        }
        match comp.family(&name).and_then(|f| f.range) {
            Some((lo, hi)) => out.extend((lo..=hi).map(|v| format!("{name}.{v}"))),
            None => out.push(name),
        }
    }
    out.push(ErrorKind::Reach.event(&comp.name));
    out.extend(crate::ir::Fault::ALL.iter().map(|f| ErrorKind::Fault(*f).event(&comp.name)));
    out
}

/// Whether some abstraction of `comp` may have an error state: it calls `reach_error()` or
/// checks for undefined behaviour somewhere.
fn may_fail(comp: &crate::ir::Component) -> bool {
    use crate::ir::{Event, Stmt};
    comp.edges.iter().any(|e| match &e.stmt {
        Stmt::Check(..) => true,
        Stmt::Event(Event::Plain(n)) => n == crate::front::ERROR_EVENT,
        _ => false,
    })
}

/// The result for one property of an assembly with C components.
#[derive(Clone, Debug)]
pub struct PropertyOutcome {
    /// The property (or "no ERROR state").
    pub property: String,
    /// How CEGAR ended; a failure's trace has the hidden events removed.
    pub outcome: CegarOutcome,
    /// Counts.
    pub stats: CegarStats,
    /// With the compositional engine: the parts in the order of its levels (level 0 first).
    pub order: Vec<String>,
}

/// The result of `subst verify` on an assembly with C components.
#[derive(Clone, Debug)]
pub struct AssemblyResult {
    /// The spec file.
    pub file: String,
    /// The composition.
    pub assembly: String,
    /// The C components, lowered.
    pub components: Vec<crate::ir::Component>,
    /// One result per property.
    pub results: Vec<PropertyOutcome>,
}

impl AssemblyResult {
    /// The combined verdict.
    pub fn verdict(&self) -> super::Verdict {
        super::Verdict::all(self.results.iter().map(|r| match &r.outcome {
            CegarOutcome::Holds => super::Verdict::Holds,
            CegarOutcome::Fails { trace, .. } => super::Verdict::Fails(trace.clone()),
            CegarOutcome::Unknown(reason) => super::Verdict::Unknown(reason.clone()),
        }))
    }
}

/// Verifies the assembly `name` of `spec`, whose C components are lowered from `program`,
/// against `properties` (all the spec's properties that are not parts when empty), by CEGAR
/// on the monolithic product. Each counterexample is replayed component by component in the
/// interpreter before it is reported.
pub fn verify_assembly(
    spec: &crate::spec::Spec,
    name: &str,
    program: &crate::front::Program,
    properties: &[String],
    options: CegarOptions,
) -> Result<AssemblyResult, crate::diag::Diagnostic> {
    use crate::abs::EventView;
    use crate::diag::Diagnostic;
    use crate::spec::PartKind;
    let components = super::compat::lower_parts(spec, name, program)?;
    let alphabets: Vec<(String, Vec<String>)> =
        components.iter().map(|c| (c.name.clone(), model_alphabet(c))).collect();
    let provider = |n: &str| alphabets.iter().find(|(c, _)| c == n).map(|(_, a)| a.clone());
    let assembly = spec.assembly_with_c(name, Some(&provider))?;
    let fsp: Vec<Dla> = assembly.parts.iter().filter(|p| p.kind != PartKind::C).map(|p| p.automaton.clone()).collect();
    let mut parts: Vec<CPart> = Vec::new();
    for p in assembly.parts.iter().filter(|p| p.kind == PartKind::C) {
        let comp = components.iter().find(|c| c.name == p.name).expect("lowered above");
        let mut part = CPart::new(Abstractor::new(comp, EventView::Visible));
        part.renaming = Some(p.renaming().into_iter().collect());
        parts.push(part);
    }
    let (inside, chosen) = super::verify::properties_to_check(spec, &assembly, properties);
    let hidden = |e: &str| assembly.is_hidden(e);
    let mut results = Vec::new();
    let mut check = |label: String, property: Option<Dla>, parts: &mut [CPart]| {
        let property = property.map(|p| p.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] }));
        let (mut outcome, stats) = run(&fsp, parts, property.as_ref(), options);
        if let CegarOutcome::Fails { trace, runs } = &outcome {
            match replay_runs(&components, parts, runs) {
                Ok(()) => {
                    let visible = trace.iter().filter(|e| !hidden(e)).cloned().collect();
                    outcome = CegarOutcome::Fails { trace: visible, runs: runs.clone() };
                }
                Err(why) => outcome = CegarOutcome::Unknown(Reason::Internal(why)),
            }
        }
        results.push(PropertyOutcome { property: label, outcome, stats, order: Vec::new() });
    };
    if !inside.is_empty() || chosen.is_empty() {
        let label = if inside.is_empty() { "no ERROR state".to_string() } else { inside.join(", ") };
        check(label, None, &mut parts);
    }
    for p in &chosen {
        if !spec.is_property(p) {
            return Err(Diagnostic::global(format!("`{p}` is not a property of {}", spec.file()))
                .with_note(format!("properties: {}", spec.properties().join(", "))));
        }
        check(p.clone(), Some(spec.process(p)?), &mut parts);
    }
    Ok(AssemblyResult { file: spec.file().to_string(), assembly: assembly.to_string(), components, results })
}

/// Replays each component's run in the interpreter and checks that it performs the labels of
/// its path.
pub(crate) fn replay_runs(
    components: &[crate::ir::Component],
    parts: &[CPart],
    runs: &[ComponentRun],
) -> Result<(), String> {
    use crate::ir::interp;
    for (part, run) in parts.iter().zip(runs) {
        let comp = components.iter().find(|c| c.name == part.name()).ok_or("a run of an unknown component")?;
        let expected: Vec<String> = {
            // The labels along the witness path, as the model shows them.
            let mut labels = Vec::new();
            for s in &run.witness.steps {
                let edge = &comp.edges[s.edge];
                match (&edge.stmt, s.take) {
                    (crate::ir::Stmt::Check(_, f), crate::smt::Take::Fault) => {
                        labels.push(crate::abs::ErrorKind::Fault(*f).event(&comp.name))
                    }
                    (crate::ir::Stmt::Event(crate::ir::Event::Plain(n)), _) if n == crate::front::ERROR_EVENT => {
                        labels.push(crate::abs::ErrorKind::Reach.event(&comp.name))
                    }
                    (crate::ir::Stmt::Event(ev), take) => {
                        let ranged = comp.family(ev.name()).and_then(|f| f.range).is_some();
                        labels.push(match (ranged, take) {
                            (true, crate::smt::Take::Value(v)) => format!("{}.{v}", ev.name()),
                            _ => ev.name().to_string(),
                        })
                    }
                    _ => {}
                }
            }
            labels
        };
        let limits = interp::Limits { max_steps: 10_000_000, max_events: expected.len() + 1 };
        let replay = interp::run(comp, &mut interp::Scripted::new(run.witness.inputs()), limits);
        let got = run_labels(comp, &replay);
        if !got.starts_with(&expected) {
            return Err(format!(
                "the run of `{}` did not replay in the interpreter: expected {expected:?}, got {got:?}",
                comp.name
            ));
        }
    }
    Ok(())
}
