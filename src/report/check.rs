//! The report of `subst check` on C: one data type ([`CheckReport`]), three renderings (text
//! with source excerpts, JSON, SARIF 2.1.0). The JSON form is the serialisation of the type and
//! is documented in `docs/report.md`; its `schema` field names its version.

use std::fmt::Write;

use serde::Serialize;
use serde_json::{Value, json};

use crate::abs::ErrorKind;
use crate::abs::refine::{Witness, WitnessStep};
use crate::check::Verdict;
use crate::check::cegar::CegarOutcome;
use crate::check::compat::{CompatRun, Compatibility, PropertyCompat};
use crate::check::contain::{ContainOutcome, Missing};
use crate::check::substitution::{Change, ComponentCheck, Substitution};
use crate::ir::interp::SilentStop;
use crate::ir::{Component, Event, Origin, Stmt};
use crate::smt::Take;

/// The version of the JSON schema.
pub const SCHEMA: &str = "subst-check/1";

/// What the report was asked about.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The old version as given.
    pub old: String,
    /// The new version as given.
    pub new: String,
    /// The `--removed` process.
    pub removed: Option<String>,
}

/// A source range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file as given to subst.
    pub file: String,
    /// First line (from 1).
    pub line: u32,
    /// First column (from 1, in characters).
    pub column: u32,
    /// Last line.
    pub end_line: u32,
    /// Column just past the end.
    pub end_column: u32,
}

impl Location {
    fn of(o: &Origin) -> Location {
        let s = &o.span;
        Location { file: s.file.clone(), line: s.line, column: s.col, end_line: s.end_line, end_column: s.end_col }
    }
}

/// One source statement of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Where.
    pub location: Location,
    /// The C text.
    pub text: String,
    /// The visible event performed here, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// For a branch: the condition that held, in the IR's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Input values read here (nondet calls, received values).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<i128>,
    /// The component's label after this statement: the propositions it owns that hold there
    /// (paper 003, Definition 2), when it owns some ([`super::labels::along_run`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Vec<String>>,
}

/// Where the new version turns away from a missing behaviour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DivergenceReport {
    /// The event the old version performs next and the new one cannot.
    pub expected: String,
    /// The old statement that performs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Location>,
    /// The new version's statement where the behaviour is cut off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Location>,
    /// Its C text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_text: Option<String>,
    /// What happens there: `branch_not_taken` (a branch towards the event whose condition is
    /// false), `other_event` (the new version's next event is another one; the location is its
    /// last branch on the way there, or the event when there is none), `input` (it reads an
    /// input next), `exit`, `blocked`, `fault`, `step_limit`, or `unknown`.
    pub kind: String,
    /// One sentence.
    pub message: String,
}

/// A behaviour of the old version that the new one lacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MissingReport {
    /// Its events.
    pub trace: Vec<String>,
    /// How many of them the new version can perform.
    pub followed: usize,
    /// The old version's run of the whole trace.
    pub old_path: Vec<Step>,
    /// The new version's run of the events it follows, and the internal steps it takes after
    /// them up to the divergence.
    pub new_path: Vec<Step>,
    /// The divergence point.
    pub divergence: DivergenceReport,
}

/// Work done for one component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatsReport {
    /// Inclusion checks.
    pub rounds: usize,
    /// Refinements of the old may-model, the new must-model and the new may-model.
    pub refinements: [usize; 3],
    /// Predicates of the same three models.
    pub predicates: [usize; 3],
    /// States of the last old may-model and new must-model.
    pub abstract_states: [usize; 2],
    /// Whether the new `M'` was the explored concrete state space.
    pub explicit: bool,
    /// Solver checks.
    pub smt_calls: u64,
    /// Checks answered from the cache.
    pub smt_cache_hits: u64,
    /// Wall time in milliseconds.
    pub time_ms: f64,
    /// How the product of the two versions proved containment, when it did (no abstraction
    /// was built then): `unrolling`, `invariants` or `k-induction (k = N)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
}

/// The result for one component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComponentReport {
    /// The component (C function).
    pub name: String,
    /// `unchanged`, `changed`, `removed` or `added`.
    pub change: String,
    /// `contained`, `not_contained` or `unknown`.
    pub containment: String,
    /// Why it is unknown, or why the search for missing behaviours stopped early.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Missing behaviours, shortest first.
    pub missing: Vec<MissingReport>,
    /// Work done (changed components only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<StatsReport>,
    /// The containment verdict was read from the cache (`contained` only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

/// One check of one version of the assembly.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// `holds`, `fails` or `unknown`.
    pub verdict: String,
    /// Why it is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Membership queries of L* (paper 003 Table 1).
    pub membership_queries: usize,
    /// Candidate assumptions.
    pub candidates: usize,
    /// CEGAR refinements.
    pub refinements: usize,
    /// Wall time in milliseconds (of the run that computed it, when cached).
    pub time_ms: f64,
    /// Of which in DynamicCheck, abstraction and refinement aside (what paper 003 times).
    pub dynamic_check_ms: f64,
    /// Whether it was read from the cache instead of computed now.
    pub cached: bool,
    /// The upgrade after an old check read from the cache: the old check's last models loaded
    /// from the cache (absent when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub models_loaded: usize,
    /// The same: the old check's last models built again from their cached predicates
    /// (absent when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub models_rebuilt: usize,
    /// How its runs of DynamicCheck were decided (text report only; none when cached).
    #[serde(skip)]
    pub dynamic_runs: crate::check::ag::RunCounts,
    /// SMT calls (text report only).
    #[serde(skip)]
    pub smt_calls: u64,
    /// The upgrade's attempt at re-use that reached its work limit, before the check from
    /// nothing (text report only; [`crate::check::compat::REUSE_WORK_SHARE`]).
    #[serde(skip)]
    pub abandoned: Option<crate::check::compat::Abandoned>,
}

/// One C component's run along a violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComponentRunReport {
    /// The component.
    pub component: String,
    /// The propositions it owns (each step's `label` is those that hold after it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub propositions: Vec<String>,
    /// Its statements.
    pub path: Vec<Step>,
}

impl ComponentRunReport {
    /// The report of `comp`'s run `witness`.
    pub(crate) fn new(comp: &Component, witness: &Witness) -> ComponentRunReport {
        let propositions = if crate::abs::labels::valuations(comp).is_empty() {
            Vec::new()
        } else {
            crate::abs::labels::props(comp).into_iter().map(|(n, _)| n).collect()
        };
        ComponentRunReport { component: comp.name.clone(), propositions, path: steps(comp, witness) }
    }
}

/// Compatibility for one property.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PropertyReport {
    /// The property.
    pub property: String,
    /// The assembly's parts in the order of the compositional levels.
    pub order: Vec<String>,
    /// The verdict on the new assembly: `holds`, `fails` or `unknown`.
    pub verdict: String,
    /// A violating trace of the new assembly (visible events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<String>>,
    /// The label after every step of the trace, the initial label first
    /// ([`super::labels::of_compat`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<Vec<String>>>,
    /// Each C component's run along it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<ComponentRunReport>,
    /// The check of the old assembly from nothing learned (`T_orig`).
    pub original: RunReport,
    /// The check of the new assembly from what the old check learned (`T_ug`).
    pub upgrade: RunReport,
}

/// The report of `subst check` on C.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// [`SCHEMA`].
    pub schema: String,
    /// subst's version.
    pub tool_version: String,
    /// The old version as given.
    pub old: String,
    /// The new version as given.
    pub new: String,
    /// The `--removed` process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// `substitutable`, `not_substitutable` or `unknown`.
    pub verdict: String,
    /// One entry per component of either version.
    pub components: Vec<ComponentReport>,
    /// The assembly whose properties were checked, when the spec has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assembly: Option<String>,
    /// Compatibility, one entry per property.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<PropertyReport>,
    /// With `--git-base REV`: the revision the old versions come from; their files are named
    /// `REV:path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub git_base: Option<String>,
    /// Where the files of renamed locations can be read (see [`CheckReport::relocate`]).
    #[serde(skip)]
    pub sources: std::collections::BTreeMap<String, std::path::PathBuf>,
}

fn containment_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Holds => "contained",
        Verdict::Fails(_) => "not_contained",
        Verdict::Unknown(_) => "unknown",
    }
}

impl CheckReport {
    /// Sets the label after every step of each property's trace (`labels` in the order of
    /// [`CheckReport::properties`]).
    pub fn set_labels(&mut self, labels: &[Option<Vec<Vec<String>>>]) {
        for (p, l) in self.properties.iter_mut().zip(labels) {
            p.labels = l.clone();
        }
    }

    /// The report of a check.
    pub fn new(result: &Substitution, inputs: &Inputs) -> CheckReport {
        let verdict = match result.verdict() {
            Verdict::Holds => "substitutable",
            Verdict::Fails(_) => "not_substitutable",
            Verdict::Unknown(_) => "unknown",
        };
        CheckReport {
            schema: SCHEMA.to_string(),
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            old: inputs.old.clone(),
            new: inputs.new.clone(),
            removed: inputs.removed.clone(),
            verdict: verdict.to_string(),
            components: result.components.iter().map(component_report).collect(),
            assembly: result.compat.as_ref().map(|c| c.assembly.clone()),
            properties: result.compat.iter().flat_map(|c| c.results.iter().map(|r| property_report(c, r))).collect(),
            git_base: None,
            sources: Default::default(),
        }
    }

    /// Names the files under `dir` (where the old versions were extracted from revision `rev`)
    /// `rev:path`, remembering where they are for the source excerpts.
    pub fn relocate(&mut self, dir: &std::path::Path, rev: &str) {
        let prefix = format!("{}/", dir.display());
        let mut sources = std::mem::take(&mut self.sources);
        let mut fix = |l: &mut Location| {
            if let Some(rest) = l.file.strip_prefix(&prefix) {
                let name = format!("{rev}:{rest}");
                sources.insert(name.clone(), std::path::PathBuf::from(&l.file));
                l.file = name;
            }
        };
        for c in &mut self.components {
            for m in &mut c.missing {
                m.old_path.iter_mut().for_each(|s| fix(&mut s.location));
                m.new_path.iter_mut().for_each(|s| fix(&mut s.location));
                m.divergence.old.iter_mut().for_each(&mut fix);
                m.divergence.new.iter_mut().for_each(&mut fix);
            }
        }
        for p in &mut self.properties {
            for r in &mut p.runs {
                r.path.iter_mut().for_each(|s| fix(&mut s.location));
            }
        }
        self.sources = sources;
        self.git_base = Some(rev.to_string());
    }

    /// The JSON rendering.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

fn component_report(c: &ComponentCheck) -> ComponentReport {
    let verdict = c.verdict();
    let change = match &c.change {
        Change::Unchanged => "unchanged",
        Change::Changed(_) => "changed",
        Change::Removed => "removed",
        Change::Added => "added",
    };
    let mut reason = match &verdict {
        Verdict::Unknown(r) => Some(r.to_string()),
        _ => None,
    };
    if let Change::Removed = c.change {
        reason = Some("the new version has no component of this name".into());
    }
    let (missing, stats) = match (&c.change, &c.old, &c.new) {
        (Change::Changed(ct), Some(old), Some(new)) => {
            let missing = match &ct.outcome {
                ContainOutcome::NotContained { missing, incomplete } => {
                    if let Some(why) = incomplete {
                        reason = Some(format!("the search for more missing behaviours stopped: {why}"));
                    }
                    missing.iter().map(|m| missing_report(old, new, m)).collect()
                }
                _ => Vec::new(),
            };
            let s = &ct.stats;
            let stats = StatsReport {
                rounds: s.rounds,
                refinements: [s.refinements_old, s.refinements_must, s.refinements_new],
                predicates: [s.predicates_old, s.predicates_must, s.predicates_new],
                abstract_states: [s.abstract_states.0, s.abstract_states.1],
                explicit: s.explicit,
                smt_calls: s.smt.calls,
                smt_cache_hits: s.smt.cache_hits,
                time_ms: (s.time.as_secs_f64() * 1e4).round() / 10.0,
                product: s.proof.map(|p| p.to_string()),
            };
            (missing, Some(stats))
        }
        _ => (Vec::new(), None),
    };
    ComponentReport {
        name: c.name.clone(),
        change: change.to_string(),
        containment: containment_word(&verdict).to_string(),
        reason,
        missing,
        stats,
        cached: c.cached,
    }
}

fn run_report(r: &CompatRun) -> RunReport {
    let (verdict, reason) = match &r.outcome {
        CegarOutcome::Holds => ("holds", None),
        CegarOutcome::Fails { .. } => ("fails", None),
        CegarOutcome::Unknown(why) => ("unknown", Some(why.to_string())),
    };
    RunReport {
        verdict: verdict.to_string(),
        reason,
        membership_queries: r.stats.membership,
        candidates: r.stats.candidates,
        refinements: r.stats.refinements,
        time_ms: (r.time.as_secs_f64() * 1e4).round() / 10.0,
        // To the microsecond: a re-check's DynamicCheck can take a tenth of a millisecond.
        dynamic_check_ms: (r.stats.dynamic.as_secs_f64() * 1e6).round() / 1e3,
        cached: r.cached,
        models_loaded: r.stats.models_loaded,
        models_rebuilt: r.stats.models_rebuilt,
        dynamic_runs: r.stats.dynamic_runs,
        smt_calls: r.stats.smt.calls,
        abandoned: r.abandoned,
    }
}

fn property_report(c: &Compatibility, r: &PropertyCompat) -> PropertyReport {
    let (trace, runs) = match &r.upgrade.outcome {
        CegarOutcome::Fails { trace, runs } => {
            let runs = runs
                .iter()
                .filter_map(|run| {
                    let comp = c.components.iter().find(|k| k.name == run.component)?;
                    Some(ComponentRunReport::new(comp, &run.witness))
                })
                .collect();
            (Some(trace.clone()), runs)
        }
        _ => (None, Vec::new()),
    };
    let upgrade = run_report(&r.upgrade);
    PropertyReport {
        property: r.property.clone(),
        order: r.order.clone(),
        verdict: upgrade.verdict.clone(),
        trace,
        labels: None,
        runs,
        original: run_report(&r.original),
        upgrade,
    }
}

/// The visible label of a witness step, as traces name it.
fn step_event(comp: &Component, edge: usize, take: Take) -> Option<String> {
    match (&comp.edges[edge].stmt, take) {
        (Stmt::Event(Event::Plain(n)), _) if n == crate::front::ERROR_EVENT => Some(ErrorKind::Reach.event(&comp.name)),
        (Stmt::Event(ev), Take::Value(v)) => Some(format!("{}.{v}", ev.name())),
        (Stmt::Event(ev), _) => Some(ev.name().to_string()),
        (Stmt::Check(_, f), Take::Fault) => Some(ErrorKind::Fault(*f).event(&comp.name)),
        _ => None,
    }
}

/// The steps of a run that have a source statement; consecutive steps of one statement are
/// merged. Each carries the label after it (after the last step merged into it, and the
/// steps without a statement that follow), when the component owns propositions.
pub(crate) fn steps(comp: &Component, run: &Witness) -> Vec<Step> {
    let labels = super::labels::along_run(comp, run);
    let label_after = |k: usize| labels.as_ref().and_then(|l| l.get(k + 1).cloned());
    let mut out: Vec<Step> = Vec::new();
    for (k, s) in run.steps.iter().enumerate() {
        let edge = &comp.edges[s.edge];
        let Some(o) = &edge.origin else {
            if let Some(last) = out.last_mut() {
                last.label = label_after(k);
            }
            continue;
        };
        // The event into the initial state is no statement of the source.
        if matches!(&edge.stmt, Stmt::Event(Event::Plain(n)) if n == crate::abs::labels::START_EVENT) {
            continue;
        }
        let event = step_event(comp, s.edge, s.take);
        let condition = match &edge.stmt {
            Stmt::Assume(c) => Some(crate::ir::text::expr(comp, c).to_string()),
            _ => None,
        };
        let location = Location::of(o);
        if let Some(last) = out.last_mut()
            && last.location == location
            && (last.event.is_none() || event.is_none())
            && (last.condition.is_none() || condition.is_none())
        {
            last.event = last.event.take().or(event);
            last.condition = last.condition.take().or(condition);
            last.inputs.extend(s.inputs.iter().copied());
            last.label = label_after(k);
            continue;
        }
        out.push(Step {
            location,
            text: o.text.clone(),
            event,
            condition,
            inputs: s.inputs.clone(),
            label: label_after(k),
        });
    }
    out
}

/// After the input read by edge `input`, the first branch (breadth first over internal steps)
/// that decides whether `expected` can come next: its edge leads to where `expected` can happen
/// without another event, and a sibling edge leads to where it cannot.
fn deciding_branch(comp: &Component, input: usize, expected: &str) -> Option<usize> {
    let event = expected.split_once('{').map_or(expected, |(e, _)| e);
    let performs = |s: &Stmt| match s {
        Stmt::Event(ev) => {
            let n = ev.name();
            event == n || event.strip_prefix(n).is_some_and(|r| r.starts_with('.'))
        }
        _ => false,
    };
    let n = comp.n_locs as usize;
    // Per location: whether an edge performing `expected` is reachable by internal steps.
    let mut reach = vec![false; n];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut queue = std::collections::VecDeque::new();
    for e in &comp.edges {
        if performs(&e.stmt) && !reach[e.from.index()] {
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
    let succ = comp.successors();
    let mut seen = vec![false; n];
    let start = comp.edges.get(input)?.to.index();
    seen[start] = true;
    let mut todo = std::collections::VecDeque::from([start]);
    while let Some(l) = todo.pop_front() {
        let out = &succ[l];
        for &d in out {
            let edge = &comp.edges[d];
            if matches!(edge.stmt, Stmt::Assume(_))
                && reach[edge.to.index()]
                && out.iter().any(|&o| o != d && !reach[comp.edges[o].to.index()])
            {
                return Some(d);
            }
        }
        for &d in out {
            let edge = &comp.edges[d];
            if !matches!(edge.stmt, Stmt::Event(_)) && !seen[edge.to.index()] {
                seen[edge.to.index()] = true;
                todo.push_back(edge.to.index());
            }
        }
    }
    None
}

/// A behaviour's element as a trace shows it: the event into the initial state
/// ([`crate::abs::labels::START_EVENT`]) is the initial label alone, `{Locked}` (paper 003,
/// Definition 1: a trace begins with a set of propositions).
fn shown(letter: &str) -> String {
    match letter.strip_prefix(crate::abs::labels::START_EVENT) {
        Some(label) if label.starts_with('{') => label.to_string(),
        _ => letter.to_string(),
    }
}

fn missing_report(old: &Component, new: &Component, m: &Missing) -> MissingReport {
    let d = &m.divergence;
    if let Some(label) = d.expected.strip_prefix(crate::abs::labels::START_EVENT) {
        // The new version starts in a state with another label: the first statement it
        // runs is where the behaviour is lost.
        let first =
            new.edges.iter().find(|e| e.from != new.entry && e.origin.is_some()).and_then(|e| e.origin.as_ref());
        let start = new.edges.iter().find(|e| e.from == new.entry).map(|e| e.to);
        let origin = start
            .and_then(|l| new.edges.iter().find(|e| e.from == l && e.origin.is_some()))
            .and_then(|e| e.origin.as_ref())
            .or(first);
        let old_start = old.edges.iter().find(|e| e.from == old.entry).and_then(|e| e.origin.as_ref());
        return MissingReport {
            trace: m.trace.iter().map(|l| shown(l)).collect(),
            followed: m.followed,
            old_path: steps(old, &m.old_run),
            new_path: Vec::new(),
            divergence: DivergenceReport {
                expected: label.to_string(),
                old: old_start.map(Location::of),
                new: origin.map(Location::of),
                new_text: origin.map(|o| o.text.clone()),
                kind: "label".to_string(),
                message: format!("the new version starts here, not where exactly {label} holds"),
            },
        };
    }
    let old_loc = old.edges.get(d.old_edge).and_then(|e| e.origin.as_ref());
    let at = |e: usize| new.edges.get(e).and_then(|e| e.origin.as_ref());
    let (kind, origin, message) = match (&d.cut, &d.silent) {
        (Some(cut), _) => {
            let cond = match &new.edges[*cut].stmt {
                Stmt::Assume(c) => format!(" (`{}` is false)", crate::ir::text::expr(new, c)),
                _ => String::new(),
            };
            ("branch_not_taken", at(*cut), format!("the branch towards `{}` is not taken here{cond}", d.expected))
        }
        (None, Some(s)) => match s.stop {
            SilentStop::Event(e) => 'ev: {
                let what = match &new.edges[e].stmt {
                    Stmt::Event(ev) => format!("`{}`", ev.name()),
                    _ => "another event".into(),
                };
                // Same family, another value: say which value the new version sends.
                let value = match &new.edges[e].stmt {
                    Stmt::Event(Event::Send(name, value))
                        if d.expected.strip_prefix(name.as_str()).is_some_and(|r| r.starts_with('.')) =>
                    {
                        format!(" with the value `{}`", crate::ir::text::expr(new, value))
                    }
                    _ => String::new(),
                };
                // The same event, into a state with another label (an event of a component
                // with propositions carries the label of the state it leads to).
                if let (Stmt::Event(ev), Some((event, label))) =
                    (&new.edges[e].stmt, crate::spec::Observations::split(&d.expected))
                    && ev.name() == event
                {
                    let message = format!(
                        "`{event}` happens here, but not into a state where exactly {{{}}} holds",
                        label.join(",")
                    );
                    break 'ev ("label", at(e), message);
                }
                let line = at(e).map(|o| format!(" (line {})", o.span.line)).unwrap_or_default();
                // The last decision on the way there is where the new version chose that event.
                let decision = s.taken.iter().zip(&s.not_taken).rev().find(|(_, others)| !others.is_empty());
                match decision {
                    Some((&b, _)) => {
                        let cond = match &new.edges[b].stmt {
                            Stmt::Assume(c) => format!(" (`{}` holds)", crate::ir::text::expr(new, c)),
                            _ => String::new(),
                        };
                        let message = format!(
                            "the new version branches here{cond} towards {what}{line}{value}, not `{}`",
                            d.expected
                        );
                        ("other_event", at(b), message)
                    }
                    None => {
                        ("other_event", at(e), format!("the next event here is {what}{value}, not `{}`", d.expected))
                    }
                }
            }
            SilentStop::Input(e) => match deciding_branch(new, e, &d.expected) {
                // Blame the condition that keeps every value of the input away from the event
                // (no run of the new version performs it: Validation 2 showed it), not the read.
                Some(b) => {
                    // As the source writes it (the IR's text names locals by their function).
                    let cond = match (at(b), &new.edges[b].stmt) {
                        (Some(o), _) => o.text.clone(),
                        (None, Stmt::Assume(c)) => crate::ir::text::expr(new, c).to_string(),
                        _ => String::new(),
                    };
                    let line = at(e).map(|o| format!(" at line {}", o.span.line)).unwrap_or_default();
                    let message = format!(
                        "`{}` needs `{cond}` here, which no value of the input read{line} makes true on this run",
                        d.expected
                    );
                    ("input", at(b), message)
                }
                None => ("input", at(e), format!("an input is read here before `{}` could happen", d.expected)),
            },
            SilentStop::Exited => (
                "exit",
                s.taken.last().and_then(|&e| at(e)),
                format!("the component ends instead of performing `{}`", d.expected),
            ),
            SilentStop::Blocked => ("blocked", s.taken.last().and_then(|&e| at(e)), "the run cannot go on here".into()),
            SilentStop::Fault(e) => ("fault", at(e), "the run has undefined behaviour here".into()),
            SilentStop::StepLimit => ("step_limit", None, "the new version runs on without an event".into()),
        },
        (None, None) => ("unknown", None, format!("the new version cannot perform `{}` next", d.expected)),
    };
    // A divergence at the start of the program has no statement behind it; point at the last
    // statement of the followed prefix instead, when there is one.
    let origin = origin.or_else(|| m.new_run.steps.last().and_then(|s| at(s.edge)));
    MissingReport {
        trace: m.trace.iter().map(|l| shown(l)).collect(),
        followed: m.followed,
        old_path: steps(old, &m.old_run),
        new_path: {
            // The prefix, then the internal steps the new version takes from there.
            let mut run = m.new_run.clone();
            if let Some(s) = &d.silent {
                run.steps.extend(s.taken.iter().map(|&edge| WitnessStep {
                    edge,
                    take: Take::Normal,
                    inputs: Vec::new(),
                }));
            }
            steps(new, &run)
        },
        divergence: DivergenceReport {
            expected: d.expected.clone(),
            old: old_loc.map(Location::of),
            new: origin.map(Location::of),
            new_text: origin.map(|o| o.text.clone()),
            kind: kind.to_string(),
            message,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Text

fn step_line(s: &Step) -> String {
    let mut notes = Vec::new();
    if let Some(e) = &s.event {
        notes.push(format!("event {e}"));
    }
    if let Some(c) = &s.condition {
        notes.push(format!("holds: {c}"));
    }
    if !s.inputs.is_empty() {
        let v: Vec<String> = s.inputs.iter().map(i128::to_string).collect();
        notes.push(format!("input {}", v.join(", ")));
    }
    let notes = if notes.is_empty() { String::new() } else { format!("    [{}]", notes.join("; ")) };
    format!("{}:{}: {}{}", s.location.file, s.location.line, s.text, notes)
}

/// The steps as lines; a step after which the component's label changes (or the first
/// labelled one) names the new label.
fn path_lines(out: &mut String, steps: &[Step], indent: &str) {
    const SHOWN: usize = 40;
    let mut before: Option<&Vec<String>> = None;
    let mut lines: Vec<String> = steps
        .iter()
        .map(|s| {
            let changed = s.label.as_ref().filter(|l| before != Some(*l) && (before.is_some() || !l.is_empty()));
            before = s.label.as_ref();
            match changed {
                Some(l) => format!("{}    label [{}]", step_line(s), l.join(",")),
                None => step_line(s),
            }
        })
        .collect();
    if lines.len() > SHOWN {
        let omitted = lines.len() - SHOWN;
        lines.drain(SHOWN / 2..SHOWN / 2 + omitted);
        lines.insert(SHOWN / 2, format!("... {omitted} more statements ..."));
    }
    if lines.is_empty() {
        let _ = writeln!(out, "{indent}(no statement)");
    }
    for l in lines {
        let _ = writeln!(out, "{indent}{l}");
    }
}

/// The source excerpt of a divergence: the old statement and the new one, labelled, rendered by
/// ariadne from the files; `None` when a file cannot be read.
fn excerpt(
    d: &DivergenceReport,
    color: bool,
    sources: &std::collections::BTreeMap<String, std::path::PathBuf>,
) -> Option<String> {
    use ariadne::{Config, Label, Report, ReportKind};
    let old = d.old.as_ref()?;
    let new = d.new.as_ref()?;
    let read = |l: &Location| -> Option<(String, std::ops::Range<usize>)> {
        let src = crate::diag::read_shown(sources.get(&l.file).map_or(std::path::Path::new(&l.file), |p| p.as_path()))?;
        let start = crate::diag::char_offset(&src, l.line, l.column)?;
        let end = crate::diag::char_offset(&src, l.end_line, l.end_column).unwrap_or(start).max(start + 1);
        Some((src, start..end))
    };
    let (old_src, old_range) = read(old)?;
    let (new_src, new_range) = read(new)?;
    let (old_id, new_id) = (old.file.clone(), new.file.clone());
    let report =
        Report::build(ReportKind::Custom("divergence", ariadne::Color::Yellow), (new_id.clone(), new_range.clone()))
            .with_config(Config::default().with_color(color))
            .with_message(format!("where `{}` is lost", d.expected))
            .with_label(Label::new((old_id.clone(), old_range)).with_message(if d.expected.starts_with('{') {
                format!("old: starts here, where exactly {} holds", d.expected)
            } else {
                format!("old: `{}` happens here", d.expected)
            }))
            .with_label(Label::new((new_id.clone(), new_range)).with_message(format!("new: {}", d.message)))
            .finish();
    let mut out = Vec::new();
    let sources = if old_id == new_id {
        ariadne::sources(vec![(old_id, new_src)])
    } else {
        ariadne::sources(vec![(old_id, old_src), (new_id, new_src)])
    };
    report.write(sources, &mut out).ok()?;
    let text = String::from_utf8_lossy(&out).into_owned();
    // ariadne colours a custom report kind even with colours off.
    Some(if color { text } else { strip_ansi(&text) })
}

/// `text` without ANSI escape sequences (`ESC [ ... letter`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl CheckReport {
    /// The text rendering: per component its verdict; for its first missing behaviour the old
    /// run, the prefix the new version follows and the divergence with source excerpts, and for
    /// the others the trace and the divergence line (JSON and SARIF have every run).
    pub fn text(&self, color: bool, stats: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "subst check {} -> {}", self.old, self.new);
        if let Some(b) = &self.removed {
            let _ = writeln!(out, "behaviours removed on purpose: {b}");
        }
        for c in &self.components {
            let word = match (c.change.as_str(), c.containment.as_str()) {
                ("unchanged", _) => "unchanged".to_string(),
                ("added", _) => "added (nothing to contain)".to_string(),
                ("removed", _) => "removed: NOT CONTAINED".to_string(),
                (_, "contained") if c.cached => "changed, contained (from the cache)".to_string(),
                (_, "contained") => "changed, contained".to_string(),
                (_, "not_contained") => format!(
                    "changed, NOT CONTAINED ({} missing behaviour{})",
                    c.missing.len(),
                    if c.missing.len() == 1 { "" } else { "s" }
                ),
                _ => "changed, UNKNOWN".to_string(),
            };
            let _ = writeln!(out, "component {}: {word}", c.name);
            if let Some(r) = &c.reason {
                let _ = writeln!(out, "  note: {r}");
            }
            for (i, m) in c.missing.iter().enumerate() {
                let _ = writeln!(out, "  missing behaviour {}: {}", i + 1, m.trace.join(" "));
                let followed = if m.followed == 0 {
                    "none of it".to_string()
                } else {
                    format!("`{}`", m.trace[..m.followed].join(" "))
                };
                if m.divergence.expected.starts_with('{') {
                    let _ = writeln!(
                        out,
                        "    the new version does not start where exactly {} holds",
                        m.divergence.expected
                    );
                } else {
                    let _ = writeln!(
                        out,
                        "    the new version can perform {followed}, then not `{}`",
                        m.divergence.expected
                    );
                }
                let at = m.divergence.new.as_ref().map(|l| format!(" at {}:{}", l.file, l.line)).unwrap_or_default();
                if i > 0 {
                    let _ = writeln!(out, "    divergence{at}: {}", m.divergence.message);
                    continue;
                }
                let _ = writeln!(out, "    old run:");
                path_lines(&mut out, &m.old_path, "      ");
                let _ = writeln!(out, "    new run:");
                path_lines(&mut out, &m.new_path, "      ");
                let _ = writeln!(out, "    divergence{at}: {}", m.divergence.message);
                if let Some(x) = excerpt(&m.divergence, color, &self.sources) {
                    for l in x.lines() {
                        let _ = writeln!(out, "    {l}");
                    }
                }
            }
            if c.missing.len() > 1 {
                let _ = writeln!(out, "  (the runs of every missing behaviour: --format json or sarif)");
            }
            if stats && let Some(s) = &c.stats {
                let _ = writeln!(
                    out,
                    "  stats: {} rounds, refinements old/must/new {:?}, predicates {:?}, abstract states {:?}{}, smt calls {} ({} cached), time {:.1} ms",
                    s.rounds,
                    s.refinements,
                    s.predicates,
                    s.abstract_states,
                    if s.explicit { " (M' explored)" } else { "" },
                    s.smt_calls,
                    s.smt_cache_hits,
                    s.time_ms
                );
                if let Some(p) = &s.product {
                    let _ = writeln!(out, "  contained by the product of the versions: {p}");
                }
            }
        }
        if let Some(a) = &self.assembly {
            let _ = writeln!(out, "assembly {a}");
        }
        for p in &self.properties {
            let (o, u) = (&p.original, &p.upgrade);
            let ratio = |u: f64, o: f64| if o > 0.0 { format!(" ({:.1}%)", 100.0 * u / o) } else { String::new() };
            let _ = writeln!(
                out,
                "property {}: old {}{}, new {}",
                p.property,
                o.verdict.to_uppercase(),
                if o.cached { " (cached)" } else { "" },
                u.verdict.to_uppercase()
            );
            if stats {
                let _ = writeln!(out, "  levels: {}", p.order.join(", "));
                let _ = writeln!(
                    out,
                    "  stats: membership queries old {}, new {}; refinements old {}, new {}; smt calls old {}, new {}",
                    o.membership_queries, u.membership_queries, o.refinements, u.refinements, o.smt_calls, u.smt_calls
                );
                if u.models_loaded + u.models_rebuilt > 0 {
                    let _ = writeln!(
                        out,
                        "  old models from the cache: {} loaded, {} rebuilt from their predicates",
                        u.models_loaded, u.models_rebuilt
                    );
                }
                if let Some(a) = &u.abandoned {
                    let _ = writeln!(
                        out,
                        "  re-use of the old check reached its work limit ({} smt calls and membership queries): \
                         {} smt calls, {} membership queries, {} refinements, then checked from nothing (counted in new)",
                        a.limit, a.smt_calls, a.membership, a.refinements
                    );
                }
                let _ = writeln!(
                    out,
                    "  time: T_orig {:.1} ms, T_ug {:.1} ms{}; in DynamicCheck {:.1} ms, {:.1} ms{}",
                    o.time_ms,
                    u.time_ms,
                    ratio(u.time_ms, o.time_ms),
                    o.dynamic_check_ms,
                    u.dynamic_check_ms,
                    ratio(u.dynamic_check_ms, o.dynamic_check_ms)
                );
                for (which, r) in [("old", o), ("new", u)] {
                    if r.dynamic_runs.runs > 0 {
                        let _ = writeln!(out, "  DynamicCheck {which}: {}", super::dynamic_runs(&r.dynamic_runs));
                    }
                }
            }
            for r in [o, u] {
                if let Some(why) = &r.reason {
                    let _ = writeln!(out, "  note: {why}");
                }
            }
            if let Some(t) = &p.trace {
                let _ = writeln!(out, "  trace: {}", super::labelled_trace(t, p.labels.as_deref()));
                for run in &p.runs {
                    let _ = writeln!(out, "  component {}:", run.component);
                    path_lines(&mut out, &run.path, "    ");
                }
            }
        }
        let contained = self.components.iter().all(|c| c.containment == "contained");
        let properties_hold = self.properties.iter().all(|p| p.verdict == "holds");
        let verdict = match self.verdict.as_str() {
            "substitutable" if self.properties.is_empty() => "every old behaviour is kept (contained)".to_string(),
            "substitutable" if self.components.is_empty() => {
                "every property holds on the upgraded assembly (containment not checked)".to_string()
            }
            "substitutable" => "substitutable: every old behaviour is kept and every property holds".to_string(),
            "not_substitutable" if self.properties.is_empty() => {
                "NOT CONTAINED: the new version lacks behaviours of the old one".to_string()
            }
            "not_substitutable" => {
                let mut why = Vec::new();
                if !contained {
                    why.push("the new version lacks behaviours of the old one");
                }
                if !properties_hold && self.properties.iter().any(|p| p.verdict == "fails") {
                    why.push("a property fails on the upgraded assembly");
                }
                format!("NOT SUBSTITUTABLE: {}", why.join("; "))
            }
            _ => "UNKNOWN: a limit was reached before a decision".to_string(),
        };
        let _ = writeln!(out, "verdict: {verdict}");
        out
    }
}

// ---------------------------------------------------------------------------------------------
// SARIF

/// The SARIF URI of a file: a file of an old version from git (`REV:path`) is named by its path,
/// since a URI cannot carry the revision (the message says "old").
fn sarif_uri(file: &str) -> &str {
    match file.split_once(':') {
        Some((rev, path)) if !rev.is_empty() && !path.starts_with('/') && !path.starts_with('\\') => path,
        _ => file,
    }
}

pub(crate) fn sarif_location(l: &Location, message: Option<&str>) -> Value {
    let mut v = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": sarif_uri(&l.file) },
            "region": {
                "startLine": l.line,
                "startColumn": l.column,
                "endLine": l.end_line,
                "endColumn": l.end_column.max(1),
            }
        }
    });
    if let Some(m) = message {
        v["message"] = json!({ "text": m });
    }
    v
}

/// The SARIF code flows of the components' runs along a violation, one thread flow a
/// component; none when no run has a step.
pub(crate) fn code_flows(runs: &[ComponentRunReport]) -> Option<Value> {
    let flows: Vec<Value> = runs
        .iter()
        .filter(|run| !run.path.is_empty())
        .map(|run| {
            let locations: Vec<Value> = run
                .path
                .iter()
                .map(|s| {
                    let text = match &s.event {
                        Some(e) => format!("{}: {} (event {e})", run.component, s.text),
                        None => format!("{}: {}", run.component, s.text),
                    };
                    let mut at = json!({ "location": sarif_location(&s.location, Some(&text)) });
                    if let Some(state) = sarif_state(&run.propositions, s.label.as_deref()) {
                        at["state"] = state;
                    }
                    at
                })
                .collect();
            json!({ "message": { "text": format!("component {}", run.component) }, "locations": locations })
        })
        .collect();
    (!flows.is_empty()).then(|| json!([{ "threadFlows": flows }]))
}

/// A threadFlowLocation's `state` (SARIF 2.1.0, 3.38.9: names with multiformatMessageString
/// values): each proposition the component owns, `true` or `false` after the step.
pub(crate) fn sarif_state(propositions: &[String], label: Option<&[String]>) -> Option<Value> {
    let label = label?;
    let state: serde_json::Map<String, Value> = propositions
        .iter()
        .map(|p| (p.clone(), json!({ "text": if label.contains(p) { "true" } else { "false" } })))
        .collect();
    (!state.is_empty()).then_some(Value::Object(state))
}

pub(crate) fn file_location(file: &str) -> Value {
    json!({ "physicalLocation": { "artifactLocation": { "uri": file } } })
}

const RULES: [(&str, &str); 5] = [
    ("subst/missing-behaviour", "The new version of a component lacks a behaviour of the old version."),
    ("subst/component-removed", "A component of the old version is missing from the new version."),
    ("subst/containment-unknown", "Containment of a changed component could not be decided."),
    ("subst/property-violated", "The upgraded assembly violates a safety property."),
    ("subst/property-unknown", "A property of the upgraded assembly could not be decided."),
];

impl CheckReport {
    /// The SARIF 2.1.0 rendering: one result per missing behaviour, with the old run as a code
    /// flow and the new version's divergence as the location and a related location.
    pub fn sarif(&self) -> String {
        let mut results = Vec::new();
        let rule = |i: usize| json!({ "ruleId": RULES[i].0, "ruleIndex": i });
        for c in &self.components {
            if c.change == "removed" {
                let mut r = rule(1);
                r["level"] = json!("error");
                r["message"] = json!({ "text": format!("component `{}` is missing from the new version", c.name) });
                r["locations"] = json!([file_location(&self.new)]);
                results.push(r);
                continue;
            }
            if c.containment == "unknown" {
                let mut r = rule(2);
                r["level"] = json!("warning");
                let why = c.reason.clone().unwrap_or_default();
                r["message"] = json!({ "text": format!("containment of `{}` is unknown: {why}", c.name) });
                r["locations"] = json!([file_location(&self.new)]);
                results.push(r);
            }
            for m in &c.missing {
                let mut r = rule(0);
                r["level"] = json!("error");
                r["message"] = json!({ "text": format!(
                    "`{}` of the old version is missing in the new one: after `{}` it cannot perform `{}`; {}",
                    c.name,
                    m.trace[..m.followed].join(" "),
                    m.divergence.expected,
                    m.divergence.message
                )});
                let primary = match &m.divergence.new {
                    Some(l) => sarif_location(l, Some(&m.divergence.message)),
                    None => file_location(&self.new),
                };
                r["locations"] = json!([primary]);
                let flow: Vec<Value> = m
                    .old_path
                    .iter()
                    .map(|s| {
                        let text = match &s.event {
                            Some(e) => format!("old: {} (event {e})", s.text),
                            None => format!("old: {}", s.text),
                        };
                        json!({ "location": sarif_location(&s.location, Some(&text)) })
                    })
                    .collect();
                if !flow.is_empty() {
                    r["codeFlows"] = json!([{
                        "message": { "text": format!("the old version's run of {}", m.trace.join(" ")) },
                        "threadFlows": [{ "locations": flow }]
                    }]);
                }
                let mut related = Vec::new();
                if let Some(l) = &m.divergence.new {
                    let mut loc = sarif_location(l, Some(&format!("new: {}", m.divergence.message)));
                    loc["id"] = json!(0);
                    related.push(loc);
                }
                if let Some(l) = &m.divergence.old {
                    let mut loc = sarif_location(l, Some(&format!("old: `{}` happens here", m.divergence.expected)));
                    loc["id"] = json!(1);
                    related.push(loc);
                }
                if !related.is_empty() {
                    r["relatedLocations"] = json!(related);
                }
                r["properties"] = json!({ "component": c.name, "trace": m.trace });
                results.push(r);
            }
        }
        for p in &self.properties {
            if let Some(r) = property_result(p, &self.new) {
                results.push(r);
            }
        }
        let rules: Vec<Value> =
            RULES.iter().map(|(id, text)| json!({ "id": id, "shortDescription": { "text": text } })).collect();
        let doc = json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": {
                    "name": "subst",
                    "version": self.tool_version,
                    "rules": rules,
                }},
                "results": results,
            }]
        });
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }
}

/// The SARIF result of a property that fails or is unknown on the new assembly.
fn property_result(p: &PropertyReport, new: &str) -> Option<Value> {
    let rule = |i: usize| json!({ "ruleId": RULES[i].0, "ruleIndex": i });
    match p.verdict.as_str() {
        "fails" => {
            let mut r = rule(3);
            r["level"] = json!("error");
            let trace = p.trace.clone().unwrap_or_default();
            let shown = if trace.is_empty() { "<empty trace>".to_string() } else { trace.join(" ") };
            r["message"] =
                json!({ "text": format!("property `{}` fails on the upgraded assembly: {shown}", p.property) });
            let last = p.runs.iter().find_map(|run| run.path.last());
            r["locations"] = json!([match last {
                Some(s) => sarif_location(&s.location, None),
                None => file_location(new),
            }]);
            if let Some(flows) = code_flows(&p.runs) {
                r["codeFlows"] = flows;
            }
            r["properties"] = json!({ "property": p.property, "trace": trace });
            if let Some(labels) = &p.labels {
                r["properties"]["labels"] = json!(labels);
            }
            Some(r)
        }
        "unknown" => {
            let mut r = rule(4);
            r["level"] = json!("warning");
            let why = p.upgrade.reason.clone().unwrap_or_default();
            r["message"] = json!({ "text": format!("property `{}` is unknown: {why}", p.property) });
            r["locations"] = json!([file_location(new)]);
            Some(r)
        }
        _ => None,
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
