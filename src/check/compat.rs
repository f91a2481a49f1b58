//! Compatibility of an upgraded assembly with C components (paper 003 Section 5.3, Fig. 2).
//!
//! Every C component of the assembly is abstracted to its may-model; the models and the FSP
//! parts are checked against the property by DynamicCheck ([`super::ag::DynamicChecker`]). A
//! violation is validated component by component on the C code, as in [`super::cegar`]; a
//! spurious one refines the component that made it so, and the check repeats on the refined
//! models. The same checker serves every round and both versions: the old assembly is checked
//! first (`T_orig`), then the new one (`T_ug`), and DynamicCheck re-uses the tables of every
//! level whose component did not change and re-validates the others (Theorem 2, Lemma 1).
//!
//! Components whose code is the same in both versions also keep their predicates, their
//! answered queries and their last models, so their models, and the levels that hold them, are
//! the same as at the end of the old check, without a solver call. A changed component receives
//! the old version's predicates where the statements around a location are the same, and the
//! answers of the old version's edge queries ([`crate::abs::Abstractor::seed`]): its first
//! model asks the solver only about changed statements and changed predicates. The old check
//! and the upgrade's attempt ask one solver ([`super::cegar::run_checked_in`]).
//!
//! Re-use is an attempt with a limit: the upgrade's loop may do a sixteenth of the work the
//! old check did ([`REUSE_WORK_SHARE`], counted in SMT calls and membership queries, never in
//! time; the abstraction stops at the limit, at a solver call). Past it, the new version is
//! checked from nothing as `subst verify` checks it (the same rounds, predicates,
//! counterexamples and queries), except that its abstractions take the answered edge queries
//! of the attempt and of the old version, keyed by their formulas, so that they ask the solver
//! fewer times for the same graphs: a re-check costs at most a fresh check plus that share of
//! the old one, less what the answers spare. From the cache (the pre-merge case), the old
//! check's last models and its answered edge queries are loaded from `model` entries (kept by
//! the first process per component, under a key of its code, predicates and abstraction
//! settings; [`crate::abs::stored`]), or, where an entry is missing or does not fit, rebuilt
//! from the cached predicates, before the attempt and outside its limit; the new process's
//! solver is set up before that (Z3's first scope, start-up like the front end's, which the
//! in-process re-check finds done). Without the cache they are in memory. Why the limit
//! is needed: the old predicates (adopted by unchanged components, seeded into changed ones)
//! make the first models of the upgrade as large as the old check's last ones, while the
//! changed component is still coarse. On P2 after the IPC's `ipc1`, the product outgrew the
//! search in the upgrade's round 34 (in round 43 of a fresh check, whose models by then had
//! ruled out the new write-queue's spurious behaviours), and learning assumptions of those
//! models did not end in 600 s (`benches/COMPAT.md`).
//!
//! Weaknesses: the limit is looked at between rounds, at every solver call of the
//! abstraction and the path checks and inside DynamicCheck between membership queries; the
//! product searches the attempt does are not counted. An upgrade whose re-use would have cost more than a
//! sixteenth of the old check but less than a fresh one now costs the attempt plus a fresh
//! check (less the carried answers). The share is measured, not derived: on the IPC the
//! re-uses that succeed take at most 3.1% of the old check's work (P2 `ipc2`, 529 of 17,185;
//! P1 `ipc4`, 21 of 698), and the failed attempts of P2 `ipc1` and `ipc4` spent, under a
//! limit of half, their first round's abstraction of the new write-queue with the old
//! predicates (2,000 calls) and ten more rounds that the check from nothing does not use.
//!
//! "Holds" rests on may-models (over-approximations) and the assume-guarantee rule; "fails"
//! comes with one run per C component, replayed by the interpreter.

use std::time::{Duration, Instant};

use super::ag::{DynamicChecker, InterfaceAlphabet, Reuse};
use super::cegar::{CPart, CegarOptions, CegarOutcome, CegarStats, ModelCheck, Slot, model_alphabet, replay_runs};
use super::substitution::same_code;
use crate::abs::{Abstractor, EventView};
use crate::automata::Dla;
use crate::cache::Cache;
use crate::diag::Diagnostic;
use crate::front::Program;
use crate::ir::Component;
use crate::learn::{Algorithm, CexMode};
use crate::smt::Smt;
use crate::spec::{Assembly, PartKind, Spec};

/// One check of one version.
#[derive(Clone, Debug)]
pub struct CompatRun {
    /// How it ended; a failure's trace has the hidden events removed.
    pub outcome: CegarOutcome,
    /// Counts, membership queries included.
    pub stats: CegarStats,
    /// Wall time (of the run that computed it, when it comes from the cache).
    pub time: Duration,
    /// Whether it comes from the cache instead of being computed now.
    pub cached: bool,
    /// An upgrade's attempt at re-using the old check that reached its work limit
    /// ([`REUSE_WORK_SHARE`]), after which the new version was checked from nothing: its
    /// counts (included in `stats` and `time`) and the limit.
    pub abandoned: Option<Abandoned>,
}

/// What an abandoned attempt at re-use cost ([`CompatRun::abandoned`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Abandoned {
    /// Its work limit, in SMT calls and membership queries ([`REUSE_WORK_SHARE`]).
    pub limit: u64,
    /// SMT calls it made.
    pub smt_calls: u64,
    /// Membership queries it asked.
    pub membership: usize,
    /// CEGAR refinements it made.
    pub refinements: usize,
}

/// An upgrade's check first re-uses the old check (its predicates, assumptions and levels)
/// with a limit of `1 / REUSE_WORK_SHARE` of the work the old check cost, counted in SMT calls
/// and membership queries ([`super::cegar::CegarStats::work`]). Past the limit, the new
/// version is checked as `subst verify` checks it from nothing (same rounds, same
/// counterexamples), so that a re-check costs at most a fresh check plus this share of the
/// old one. An attempt is a hint like any other: its verdict, when it has one, is the rule's
/// or the search's on sound models, and past the limit nothing of it is kept but its answered
/// edge queries (answers to identical formulas). A sixteenth: the re-uses that succeed on the
/// IPC take at most 3.1% of the old check's work (half the limit); with a half (before), the
/// failed attempts of P2 `ipc1` and `ipc4` cost 10,000 units, a quarter of a fresh check.
pub const REUSE_WORK_SHARE: u64 = 16;

/// What the cache keeps of a check of one version (kind `compat`).
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedRun {
    verdict: String,
    trace: Vec<String>,
    reason: Option<String>,
    membership: usize,
    candidates: usize,
    refinements: usize,
    /// SMT calls, for the work limit of a later upgrade's re-use ([`REUSE_WORK_SHARE`]); 0 in
    /// entries written before it was kept (no limit then).
    #[serde(default)]
    smt_calls: u64,
    time_ms: f64,
    /// Of which in DynamicCheck.
    #[serde(default)]
    dynamic_ms: f64,
    /// Each level's observation table at the end of the run, with the digest of what it was
    /// learned for.
    levels: Vec<Option<super::ag::SavedLevel>>,
}

impl CachedRun {
    fn of(run: &CompatRun, checker: &DynamicChecker) -> CachedRun {
        let (verdict, trace, reason) = match &run.outcome {
            CegarOutcome::Holds => ("holds", Vec::new(), None),
            CegarOutcome::Fails { trace, .. } => ("fails", trace.clone(), None),
            CegarOutcome::Unknown(r) => ("unknown", Vec::new(), Some(r.to_string())),
        };
        CachedRun {
            verdict: verdict.to_string(),
            trace,
            reason,
            membership: run.stats.membership,
            candidates: run.stats.candidates,
            refinements: run.stats.refinements,
            smt_calls: run.stats.smt.calls,
            time_ms: run.time.as_secs_f64() * 1e3,
            dynamic_ms: run.stats.dynamic.as_secs_f64() * 1e3,
            levels: checker.saved(),
        }
    }

    /// The run it records; `None` when its verdict is not one subst writes.
    fn run(&self) -> Option<CompatRun> {
        let outcome = match self.verdict.as_str() {
            "holds" => CegarOutcome::Holds,
            // The component runs are not kept; a cached failure of the old version is reported
            // by its trace only.
            "fails" => CegarOutcome::Fails { trace: self.trace.clone(), runs: Vec::new() },
            // An undecided run is never reported from the cache: it is computed again.
            _ => return None,
        };
        let stats = CegarStats {
            membership: self.membership,
            candidates: self.candidates,
            refinements: self.refinements,
            smt: crate::smt::SmtStats { calls: self.smt_calls, ..Default::default() },
            dynamic: Duration::try_from_secs_f64(self.dynamic_ms / 1e3).ok()?,
            ..CegarStats::default()
        };
        let time = Duration::try_from_secs_f64(self.time_ms / 1e3).ok()?;
        Some(CompatRun { outcome, stats, time, cached: true, abandoned: None })
    }
}

impl CompatRun {
    /// The verdict of this run.
    pub fn verdict(&self) -> super::Verdict {
        match &self.outcome {
            CegarOutcome::Holds => super::Verdict::Holds,
            CegarOutcome::Fails { trace, .. } => super::Verdict::Fails(trace.clone()),
            CegarOutcome::Unknown(r) => super::Verdict::Unknown(r.clone()),
        }
    }
}

/// Compatibility for one property.
#[derive(Clone, Debug)]
pub struct PropertyCompat {
    /// The property (or "no ERROR state").
    pub property: String,
    /// The parts in the order of the compositional levels (level 0 first), for both checks.
    pub order: Vec<String>,
    /// The check of the old assembly, from nothing learned (`T_orig`).
    pub original: CompatRun,
    /// The check of the new assembly, from what the old check learned (`T_ug`).
    pub upgrade: CompatRun,
}

/// The result of compatibility on an assembly.
#[derive(Clone, Debug)]
pub struct Compatibility {
    /// The composition, as the spec writes it.
    pub assembly: String,
    /// The new version's C components, lowered (for the report's source lines).
    pub components: Vec<Component>,
    /// One result per property.
    pub results: Vec<PropertyCompat>,
}

/// Lowers the C components that `name` in `spec` names; every valued family needs a range.
pub fn lower_parts(spec: &Spec, name: &str, program: &Program) -> Result<Vec<Component>, Diagnostic> {
    let mut components = Vec::new();
    let defined = program.defined_functions();
    for n in spec.c_components(name)? {
        if !defined.contains(&n) {
            // Neither an FSP process nor a C function: most often a misspelt process.
            let msg =
                format!("`{n}` in `{name}` is neither a process of {} nor a function of the C sources", spec.file());
            let d = match spec.span_of_part(name, &n) {
                Some(span) => Diagnostic::at(span, msg, "named here"),
                None => Diagnostic::global(msg),
            };
            return Err(d
                .with_note(format!("processes: {}", list_or_none(&spec.processes())))
                .with_note(format!("C functions: {}", list_or_none(&defined))));
        }
        let mut comp = program.lower(&n)?;
        crate::abs::labels::instrument_for(spec, program, &mut comp)?;
        for e in &comp.edges {
            if let crate::ir::Stmt::Event(crate::ir::Event::Send(f, _) | crate::ir::Event::Recv(f, Some(_))) = &e.stmt
                && comp.family(f).and_then(|x| x.range).is_none()
            {
                let msg = format!("event family `{f}` carries values but {} declares no range for it", spec.file());
                let label = format!("declare it in the spec, e.g. `event {f}[0..3]`");
                return Err(match &e.origin {
                    Some(o) => Diagnostic::at(o.span.clone(), msg, label),
                    None => Diagnostic::global(msg),
                });
            }
        }
        components.push(comp);
    }
    Ok(components)
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() { "none".to_string() } else { names.join(", ") }
}

/// The assembly elaborated with the alphabets of `components`.
fn elaborate(spec: &Spec, name: &str, components: &[Component]) -> Result<Assembly, Diagnostic> {
    let alphabets: Vec<(String, Vec<String>)> =
        components.iter().map(|c| (c.name.clone(), model_alphabet(c))).collect();
    let provider = |n: &str| alphabets.iter().find(|(c, _)| c == n).map(|(_, a)| a.clone());
    spec.assembly_with_c(name, Some(&provider))
}

/// One version of the assembly ready for the loop: its FSP parts, its C parts and their order.
struct Version<'a> {
    assembly: Assembly,
    fsp: Vec<Dla>,
    parts: Vec<CPart<'a>>,
    /// Where each part of the assembly is (FSP or C, and its index there).
    slot_of: Vec<Slot>,
    /// The levels ([`Version::set_order`]).
    order: Vec<Slot>,
}

impl<'a> Version<'a> {
    fn new(spec: &Spec, name: &str, components: &'a [Component]) -> Result<Version<'a>, Diagnostic> {
        let assembly = elaborate(spec, name, components)?;
        let mut fsp = Vec::new();
        let mut parts = Vec::new();
        let mut slot_of = Vec::new();
        for p in &assembly.parts {
            if p.kind == PartKind::C {
                let comp = components.iter().find(|c| c.name == p.name).expect("lowered by lower_parts");
                let mut part = CPart::new(Abstractor::new(comp, EventView::Visible));
                part.renaming = Some(p.renaming().into_iter().collect());
                parts.push(part);
                slot_of.push(Slot::C(parts.len() - 1));
            } else {
                fsp.push(p.automaton.clone());
                slot_of.push(Slot::Fsp(fsp.len() - 1));
            }
        }
        let order = slot_of.clone();
        Ok(Version { assembly, fsp, parts, slot_of, order })
    }

    /// Puts the parts at the levels `indices` (into the assembly's parts).
    fn set_order(&mut self, indices: &[usize]) {
        self.order = indices.iter().map(|&i| self.slot_of[i]).collect();
    }

    /// `property` as the assembly sees it: without the events it hides.
    fn visible(&self, property: Option<&Dla>) -> Option<Dla> {
        let hidden = |e: &str| self.assembly.is_hidden(e);
        property.map(|p| p.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] }))
    }

    /// The order of the levels for `property`: [`super::verify::part_order`].
    fn order_for(&self, order: &[String], property: Option<&Dla>) -> Result<Vec<usize>, Diagnostic> {
        super::verify::part_order(&self.assembly, order, self.visible(property).as_ref())
    }

    /// Checks `property` with `checker` within `work` (SMT calls and membership queries; see
    /// [`ModelCheck::Dynamic`]), asking `smt` (a new solver when `None`), and replays a failure
    /// in the interpreter.
    fn check(
        &mut self,
        components: &[Component],
        property: Option<&Dla>,
        checker: &mut DynamicChecker,
        options: CegarOptions,
        work: Option<u64>,
        smt: Option<&mut Smt>,
    ) -> CompatRun {
        let start = Instant::now();
        let property = self.visible(property);
        let mut mc = ModelCheck::Dynamic { checker, order: &self.order, work };
        let (fsp, parts, property) = (&self.fsp, &mut self.parts, property.as_ref());
        let (mut outcome, stats) = match smt {
            Some(smt) => super::cegar::run_checked_in(fsp, parts, property, options, &mut mc, &mut || None, smt),
            None => super::cegar::run_checked(fsp, parts, property, options, &mut mc, &mut || None),
        };
        if let CegarOutcome::Fails { trace, runs } = &outcome {
            outcome = match replay_runs(components, &self.parts, runs) {
                Ok(()) => CegarOutcome::Fails {
                    trace: trace.iter().filter(|e| !self.assembly.is_hidden(e)).cloned().collect(),
                    runs: runs.clone(),
                },
                Err(why) => CegarOutcome::Unknown(super::Reason::Internal(why)),
            };
        }
        tracing::debug!(
            time = ?start.elapsed(),
            abstraction = ?stats.abstraction,
            model_check = ?stats.model_check,
            path_checks = ?stats.path_checks,
            calls = stats.smt.calls,
            refinements = stats.refinements,
            "checked one version"
        );
        CompatRun { outcome, stats, time: start.elapsed(), cached: false, abandoned: None }
    }
}

/// The work limit of an upgrade's attempt at re-using `original` ([`REUSE_WORK_SHARE`]); none
/// when what the original cost is not known (a cache entry of an earlier subst).
fn reuse_work_limit(original: &CompatRun) -> Option<u64> {
    (original.stats.smt.calls > 0).then(|| (original.stats.work() / REUSE_WORK_SHARE).max(1))
}

/// `fresh`, the check from nothing that followed `attempt`, with the attempt's cost added.
fn after_attempt(attempt: &CompatRun, mut fresh: CompatRun, limit: u64) -> CompatRun {
    let a = &attempt.stats;
    fresh.abandoned =
        Some(Abandoned { limit, smt_calls: a.smt.calls, membership: a.membership, refinements: a.refinements });
    let s = &mut fresh.stats;
    s.membership += a.membership;
    s.candidates += a.candidates;
    s.refinements += a.refinements;
    s.smt.calls += a.smt.calls;
    s.smt.cache_hits += a.smt.cache_hits;
    s.smt.unknown += a.smt.unknown;
    s.smt.one_shot += a.smt.one_shot;
    s.dynamic += a.dynamic;
    s.abstraction += a.abstraction;
    s.model_check += a.model_check;
    s.path_checks += a.path_checks;
    s.time += a.time;
    fresh.time += attempt.time;
    fresh
}

/// How to check compatibility.
#[derive(Clone, Debug)]
pub struct CompatOptions {
    /// Properties to check (all the spec's properties that are not parts when empty).
    pub properties: Vec<String>,
    /// Part names that come first in the compositional order; the rest follow by shared events.
    pub order: Vec<String>,
    /// How L* turns counterexamples into table entries.
    pub cex: CexMode,
    /// The learner of the assumptions.
    pub learner: Algorithm,
    /// How a changed level re-uses what the old version's check learned.
    pub reuse: Reuse,
    /// The state budget of DynamicCheck's search of the whole product before learning
    /// ([`super::ag::PROBE_STATES`] by default; 0: none).
    pub probe: usize,
    /// Whether assumptions range over each level's whole interface or a refined part of it.
    pub alphabet: InterfaceAlphabet,
    /// Limits of each CEGAR loop.
    pub limits: CegarOptions,
    /// Where to find and keep what the checks learned.
    pub cache: Cache,
}

/// The cache key of checking `property` on `components` in the assembly `name` of `spec`, with
/// the parts at the levels `order` (indices into the assembly's parts): tables are per level.
fn cache_key(
    spec: &Spec,
    name: &str,
    property: &str,
    components: &[Component],
    order: &[usize],
    options: &CompatOptions,
) -> String {
    let spec_text =
        crate::diag::read_shown(std::path::Path::new(spec.file())).unwrap_or_else(|| spec.file().to_string());
    let codes: Vec<String> = components.iter().map(super::substitution::code_text).collect();
    let settings =
        format!("{order:?} {:?} {} {} {:?}", options.cex, options.limits.key_text(), options.learner, options.alphabet);
    let mut parts = vec!["compat", spec_text.as_str(), name, property, settings.as_str()];
    parts.extend(codes.iter().map(String::as_str));
    crate::cache::key(&parts)
}

/// The most predicates taken from the cache for one component.
const MAX_CACHED_PREDICATES: usize = 500;
/// The longest predicate taken from the cache, in bytes of SMT-LIB text.
const MAX_PREDICATE_BYTES: usize = 4096;

/// The cache key of a component's predicates (kind `predicates`): its code.
pub(crate) fn predicates_key(comp: &Component) -> String {
    crate::cache::key(&["predicates", &super::substitution::code_text(comp)])
}

/// What the cache keeps of a C component's last model (kind `model`): the graph and the
/// answered queries, under a key of the code, the precision and the abstraction settings
/// ([`model_key`]).
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedModel {
    /// The precision it was built at (which the key covers; compared again when loaded).
    precision: crate::abs::PrecisionText,
    /// The may-graph, in the component's own names.
    arg: crate::abs::stored::ArgText,
    /// Every edge query the abstractor had answered, keyed by its text.
    answers: crate::abs::stored::AnswersText,
}

/// The cache key of a part's model at its current precision: its code (source positions aside),
/// its predicates per location, how it shows events and every setting that can change a graph
/// or its refinement ([`CegarOptions::key_text`]: the block encoding among them); the tool
/// version is in every key. The renaming into the assembly's names is applied after loading.
fn model_key(part: &CPart, limits: &CegarOptions) -> String {
    let comp = part.abs.component();
    let precision = format!("{:?}", part.abs.precision_text());
    let settings = format!("{:?} {}", part.abs.view(), limits.key_text());
    crate::cache::key(&["model", &super::substitution::code_text(comp), &precision, &settings])
}

impl Version<'_> {
    /// Keeps every C component's predicates and last model in the cache, except the models
    /// under the keys `loaded` (read from the cache in this run: the same entry).
    fn store_abstractions(&self, cache: &Cache, limits: &CegarOptions, loaded: &[String]) {
        if !cache.enabled() {
            return;
        }
        for p in &self.parts {
            if !p.abs.precision.is_empty() {
                cache.store("predicates", &predicates_key(p.abs.component()), &p.abs.precision_text());
            }
            if loaded.contains(&model_key(p, limits)) {
                continue;
            }
            if let Some(arg) = p.model_text() {
                let entry = CachedModel { precision: p.abs.precision_text(), arg, answers: p.abs.answers_text() };
                cache.store("model", &model_key(p, limits), &entry);
            }
        }
    }

    /// Gives every C component the last model the cache has for its code at its precision
    /// (after [`Version::load_predicates`]), or else builds it from the predicates; returns
    /// how many were built and the keys of those loaded. A model entry that does not fit the
    /// component is a miss with a warning.
    fn load_models(&mut self, cache: &Cache, limits: &CegarOptions, smt: &mut Smt) -> (usize, Vec<String>) {
        let (mut loaded, mut built) = (Vec::new(), 0);
        for p in &mut self.parts {
            let key = model_key(p, limits);
            let fits = match cache.load::<CachedModel>("model", &key) {
                None => false,
                Some(entry) => {
                    let fits = entry.precision == p.abs.precision_text() && p.load_model(&entry.arg, limits);
                    if !fits {
                        tracing::warn!(component = p.name(), "cached model does not fit the component: ignored");
                    } else if !p.abs.load_answers(&entry.answers) {
                        tracing::warn!(component = p.name(), "cached answers of the model do not fit: ignored");
                    }
                    fits
                }
            };
            if fits {
                loaded.push(key);
                continue;
            }
            built += 1;
            if let Err(e) = p.prepare_model(smt, limits) {
                // Then the upgrade's loop builds the new models without it.
                tracing::debug!(component = p.name(), ?e, "the old model was not rebuilt");
            }
        }
        (built, loaded)
    }

    /// Gives the C components without predicates those the cache has for their code.
    fn load_predicates(&mut self, cache: &Cache) {
        for p in &mut self.parts {
            if !p.abs.precision.is_empty() {
                continue;
            }
            let Some(text) = cache.load::<crate::abs::PrecisionText>("predicates", &predicates_key(p.abs.component()))
            else {
                continue;
            };
            // What an entry may cost: more or longer predicates than refinement makes on the
            // examples by far would make every abstraction slow.
            let n = text.formulas.len();
            let longest = text.formulas.iter().map(String::len).max().unwrap_or(0);
            if n > MAX_CACHED_PREDICATES || longest > MAX_PREDICATE_BYTES {
                tracing::warn!(component = p.name(), n, longest, "cached predicates over the bounds: ignored");
            } else if !p.abs.load_precision(&text) {
                tracing::warn!(component = p.name(), "cached predicates do not fit the component: ignored");
            }
        }
    }
}

/// The properties to check, with their automata: "no ERROR state" first when the assembly
/// contains properties (or none is chosen), then the chosen ones.
fn property_list(
    spec: &Spec,
    assembly: &Assembly,
    properties: &[String],
) -> Result<Vec<(String, Option<Dla>)>, Diagnostic> {
    let (inside, chosen) = super::verify::properties_to_check(spec, assembly, properties);
    let mut labels: Vec<(String, Option<Dla>)> = Vec::new();
    if !inside.is_empty() || chosen.is_empty() {
        labels.push((if inside.is_empty() { "no ERROR state".to_string() } else { inside.join(", ") }, None));
    }
    for p in &chosen {
        if !spec.is_property(p) {
            return Err(Diagnostic::global(format!("`{p}` is not a property of {}", spec.file()))
                .with_note(format!("properties: {}", spec.properties().join(", "))));
        }
        labels.push((p.clone(), Some(spec.process(p)?)));
    }
    Ok(labels)
}

/// `subst verify --engine ag` on C: the assembly `name` of `spec` with the components of
/// `program`, checked compositionally; each property's tables go to the cache, where a later
/// `subst check` with this version as OLD finds them.
pub fn verify(
    spec: &Spec,
    name: &str,
    program: &Program,
    options: &CompatOptions,
) -> Result<super::cegar::AssemblyResult, Diagnostic> {
    verify_inspected(spec, name, program, options, &mut |_, _, _| {})
}

/// [`verify`], handing each property's checker after its run to `inspect`, with the property
/// and the parts in the order of the levels (`subst show assumption|table`).
pub fn verify_inspected(
    spec: &Spec,
    name: &str,
    program: &Program,
    options: &CompatOptions,
    inspect: &mut dyn FnMut(&str, &[String], &DynamicChecker),
) -> Result<super::cegar::AssemblyResult, Diagnostic> {
    let components = lower_parts(spec, name, program)?;
    let mut version = Version::new(spec, name, &components)?;
    let mut results = Vec::new();
    for (label, property) in property_list(spec, &version.assembly, &options.properties)? {
        let indices = version.order_for(&options.order, property.as_ref())?;
        version.set_order(&indices);
        let mut checker = DynamicChecker::new(options.cex)
            .with_algorithm(options.learner)
            .with_alphabet(options.alphabet)
            .with_probe(options.probe);
        let run = version.check(&components, property.as_ref(), &mut checker, options.limits, None, None);
        let key = cache_key(spec, name, &label, &components, &indices, options);
        options.cache.store("compat", &key, &CachedRun::of(&run, &checker));
        version.store_abstractions(&options.cache, &options.limits, &[]);
        let order: Vec<String> = indices.iter().map(|&i| version.assembly.parts[i].name.clone()).collect();
        inspect(&label, &order, &checker);
        results.push(super::cegar::PropertyOutcome { property: label, outcome: run.outcome, stats: run.stats, order });
    }
    Ok(super::cegar::AssemblyResult {
        file: spec.file().to_string(),
        assembly: version.assembly.to_string(),
        components,
        results,
    })
}

/// Checks that the assembly `name` of `spec` satisfies its properties with the components of
/// `new`, re-using the check of the same assembly with the components of `old`.
pub fn check(
    spec: &Spec,
    name: &str,
    old: &Program,
    new: &Program,
    options: &CompatOptions,
) -> Result<Compatibility, Diagnostic> {
    let (properties, order, cex) = (&options.properties, &options.order, options.cex);
    let old_components = lower_parts(spec, name, old)?;
    let new_components = lower_parts(spec, name, new)?;
    let mut old_version = Version::new(spec, name, &old_components)?;
    let mut new_version = Version::new(spec, name, &new_components)?;
    let mut results = Vec::new();
    // One solver for the old check and the upgrade's attempt: a new one's first queries cost
    // a third of a small re-check (`super::cegar::run_checked_in`).
    let mut smt = Smt::with_deadline(options.limits.query_budget, options.limits.deadline);
    for (label, property) in property_list(spec, &new_version.assembly, properties)? {
        // The order of `subst verify` on the new assembly, for both versions, so that each
        // level holds the two versions of one part and a cached `verify` of OLD is re-used.
        let indices = new_version.order_for(order, property.as_ref())?;
        old_version.set_order(&indices);
        new_version.set_order(&indices);
        let old_key = cache_key(spec, name, &label, &old_components, &indices, options);
        let cached = options.cache.load::<CachedRun>("compat", &old_key);
        let decided =
            cached.as_ref().and_then(CachedRun::run).filter(|r| !matches!(r.outcome, CegarOutcome::Unknown(_)));
        let (original, mut checker) = match (decided, cached) {
            (Some(run), Some(entry)) => {
                old_version.load_predicates(&options.cache);
                (
                    run,
                    DynamicChecker::restore(cex, entry.levels)
                        .with_algorithm(options.learner)
                        .with_reuse(options.reuse)
                        .with_alphabet(options.alphabet)
                        .with_probe(options.probe),
                )
            }
            // An undecided run (a limit, often the time limit) is run again, from the tables
            // that it finished.
            (_, cached) => {
                let mut checker = match cached {
                    Some(entry) => {
                        old_version.load_predicates(&options.cache);
                        DynamicChecker::restore(cex, entry.levels)
                            .with_algorithm(options.learner)
                            .with_reuse(options.reuse)
                            .with_alphabet(options.alphabet)
                            .with_probe(options.probe)
                    }
                    None => DynamicChecker::new(cex)
                        .with_algorithm(options.learner)
                        .with_reuse(options.reuse)
                        .with_alphabet(options.alphabet)
                        .with_probe(options.probe),
                };
                // The new version's check follows: when the search of the product proves the
                // property, the old assumptions are learned all the same, so that the upgrade
                // checks them against the new components (paper 003) instead of searching
                // the new product.
                checker = checker.with_learning_after_search(true);
                let run = old_version.check(
                    &old_components,
                    property.as_ref(),
                    &mut checker,
                    options.limits,
                    None,
                    Some(&mut smt),
                );
                options.cache.store("compat", &old_key, &CachedRun::of(&run, &checker));
                old_version.store_abstractions(&options.cache, &options.limits, &[]);
                (run, checker)
            }
        };
        // From the cache, the old check's last models are rebuilt from their predicates
        // before the attempt (without the cache they are in memory), so that the attempt's
        // limit counts the upgrade's own work only: the unchanged components adopt them
        // below, and the changed ones are seeded with their answered queries.
        if original.cached {
            // The old check ran in another process: this process's solver is new, and Z3 sets
            // a solver up at its first scope (10 to 40 ms on the IPC, more than the rest of a
            // re-check), which the in-process re-check finds done by the old check. It is
            // start-up, like the front end's, and not counted in the upgrade's time.
            let t = Instant::now();
            smt.warm_up();
            tracing::debug!(took = ?t.elapsed(), "solver set up");
        }
        let rebuilt = Instant::now();
        let (rebuilt_calls, (built, loaded)) = if original.cached {
            smt.stats = crate::smt::SmtStats::default();
            let models = old_version.load_models(&options.cache, &options.limits, &mut smt);
            (smt.stats, models)
        } else {
            (crate::smt::SmtStats::default(), (0, Vec::new()))
        };
        let rebuilt = rebuilt.elapsed();
        // Components with the same code keep what refinement found for them, and their models
        // (also those that needed no predicate: their models' queries are answered already).
        // Changed ones receive the predicates and the answered queries that still apply.
        for (np, op) in new_version.parts.iter_mut().zip(&old_version.parts) {
            if same_code(np.abs.component(), op.abs.component()) {
                np.adopt(op);
            } else {
                let seeded = np.abs.seed(&op.abs);
                tracing::debug!(component = np.name(), seeded, "seeded with the old version's predicates");
            }
        }
        // The upgrade's first round tries the old assumptions first, whatever the old
        // version's rounds did with them.
        checker = checker.with_learning_after_search(false).renew_reuse();
        let limit = reuse_work_limit(&original);
        let mut upgrade =
            new_version.check(&new_components, property.as_ref(), &mut checker, options.limits, limit, Some(&mut smt));
        if let (true, Some(limit)) = (upgrade.stats.over_work_limit, limit) {
            // The attempt cost its share of the old check: the new version is checked as
            // `subst verify` checks it, from nothing (no predicates, levels or hints of the
            // old version), so that the rest of the re-check is a fresh check's rounds.
            tracing::debug!(limit, work = upgrade.stats.work(), "re-use over its work limit: checking from nothing");
            // Only the answered edge queries of the attempt are kept (its own and the old
            // version's, which the attempt's parts took over): they are keyed by their
            // formulas, so the check from nothing builds the graphs `verify` builds, with
            // fewer solver calls (on the IPC's P2 after `ipc1` and `ipc4`, about 1,850 of
            // 40,000, more than the attempt costs under its limit).
            let attempt = std::mem::replace(&mut new_version, Version::new(spec, name, &new_components)?);
            new_version.set_order(&indices);
            for (fresh, tried) in new_version.parts.iter_mut().zip(attempt.parts) {
                let n = fresh.take_answers_of(tried);
                tracing::debug!(component = fresh.name(), n, "answers of the attempt carried");
            }
            checker = DynamicChecker::new(cex)
                .with_algorithm(options.learner)
                .with_alphabet(options.alphabet)
                .with_probe(options.probe);
            let fresh = new_version.check(&new_components, property.as_ref(), &mut checker, options.limits, None, None);
            upgrade = after_attempt(&upgrade, fresh, limit);
        }
        upgrade.stats.smt.calls += rebuilt_calls.calls;
        upgrade.stats.smt.cache_hits += rebuilt_calls.cache_hits;
        (upgrade.stats.models_loaded, upgrade.stats.models_rebuilt) = (loaded.len(), built);
        upgrade.stats.abstraction += rebuilt;
        upgrade.time += rebuilt;
        // The new version is the old one of the next upgrade (unless it is the same code, whose
        // entry keeps the figures of the check from nothing).
        let new_key = cache_key(spec, name, &label, &new_components, &indices, options);
        if new_key != old_key {
            options.cache.store("compat", &new_key, &CachedRun::of(&upgrade, &checker));
        }
        new_version.store_abstractions(&options.cache, &options.limits, &loaded);
        let order = indices.iter().map(|&i| new_version.assembly.parts[i].name.clone()).collect();
        results.push(PropertyCompat { property: label, order, original, upgrade });
    }
    Ok(Compatibility { assembly: new_version.assembly.to_string(), components: new_components, results })
}
