//! The label after every step of a counterexample of an assembly with C components (paper
//! 003, Definition 1: a trace alternates labels and events), for the reports.
//!
//! - An FSP process that owns propositions: its labelled automaton along the trace
//!   ([`crate::spec::Assembly::trace_labels`]).
//! - A C component that owns propositions: its run, replayed by the interpreter
//!   ([`crate::ir::interp::follow`]); after each of its events, the valuation whose condition
//!   holds in the state the event leads to ([`crate::abs::labels::valuations`]). Its events are
//!   matched, in order, with the trace's events of the same name.
//!
//! A label after an event is the state right after it: the internal steps a C component takes
//! before its next event are not placed among the other components' events, so a guarded
//! event's letter `e{X}` (the label when `e` happens) can differ from the label shown before it.
//! The label after each statement of a component's run ([`along_run`]) shows where it changes:
//! the reports give it with the run's steps (a `label` in JSON, the threadFlowLocation's
//! `state` in SARIF, the statement where it changes in text).
//!
//! Known weakness: when a C component's events cannot be matched with the trace by name (a
//! relabelling renames them, or the assembly hides some), no labels are shown rather than
//! guessed ones.

use crate::abs::refine::Witness;
use crate::check::cegar::{AssemblyResult, CegarOutcome, ComponentRun};
use crate::ir::interp;
use crate::ir::{Component, Stmt};
use crate::spec::{Observations, Spec};

/// Per property result of `r`: the label after every step of its trace when it fails and some
/// component owns propositions, the initial label first.
pub fn of_assembly(spec: &Spec, name: &str, r: &AssemblyResult) -> Vec<Option<Vec<Vec<String>>>> {
    let alphabets = |c: &str| r.components.iter().find(|x| x.name == c).map(crate::check::cegar::model_alphabet);
    let assembly = spec.assembly_with_c(name, Some(&alphabets)).ok();
    r.results
        .iter()
        .map(|p| match &p.outcome {
            CegarOutcome::Fails { trace, runs } => trace_labels(assembly.as_ref(), &r.components, trace, runs),
            _ => None,
        })
        .collect()
}

/// Per property of compatibility `c` (in order): the label after every step of the new
/// assembly's trace when it fails and some component owns propositions.
pub fn of_compat(spec: &Spec, name: &str, c: &crate::check::compat::Compatibility) -> Vec<Option<Vec<Vec<String>>>> {
    let alphabets = |x: &str| c.components.iter().find(|k| k.name == x).map(crate::check::cegar::model_alphabet);
    let assembly = spec.assembly_with_c(name, Some(&alphabets)).ok();
    c.results
        .iter()
        .map(|p| match &p.upgrade.outcome {
            CegarOutcome::Fails { trace, runs } => trace_labels(assembly.as_ref(), &c.components, trace, runs),
            _ => None,
        })
        .collect()
}

fn trace_labels(
    assembly: Option<&crate::spec::Assembly>,
    components: &[Component],
    trace: &[String],
    runs: &[ComponentRun],
) -> Option<Vec<Vec<String>>> {
    let mut labels: Vec<std::collections::BTreeSet<String>> = vec![Default::default(); trace.len() + 1];
    let mut any = false;
    if let Some(fsp) = assembly.and_then(|a| a.trace_labels(trace)) {
        any = true;
        for (i, l) in fsp.into_iter().enumerate() {
            labels[i].extend(l);
        }
    }
    for run in runs {
        let Some(comp) = components.iter().find(|c| c.name == run.component) else { continue };
        if crate::abs::labels::valuations(comp).is_empty() {
            continue;
        }
        any = true;
        for (i, l) in run_labels(comp, run, trace)?.into_iter().enumerate() {
            labels[i].extend(l);
        }
    }
    any.then(|| labels.into_iter().map(|l| l.into_iter().collect()).collect())
}

/// The label of C component `comp`'s state before the first step of `witness` and after each
/// of its steps (one more entry than the witness has steps), from the run replayed by the
/// interpreter: the valuation of the component's propositions whose condition holds there.
/// `None` when the component owns no proposition or the replay fails.
pub fn along_run(comp: &Component, witness: &Witness) -> Option<Vec<Vec<String>>> {
    let vals = crate::abs::labels::valuations(comp);
    if vals.is_empty() {
        return None;
    }
    let path: Vec<usize> = witness.steps.iter().map(|s| s.edge).collect();
    let states = interp::follow(comp, &path, &mut interp::Scripted::new(witness.inputs()))?;
    let label = |state: &interp::State| -> Option<Vec<String>> {
        let (_, _, text) = vals.iter().find(|(e, _, _)| !interp::enabled(comp, &[*e], state).is_empty())?;
        let inner = text.trim_start_matches('{').trim_end_matches('}');
        Some(if inner.is_empty() { Vec::new() } else { inner.split(',').map(str::to_string).collect() })
    };
    states.iter().map(label).collect()
}

/// The labels of C component `comp` along `trace`, from its run.
fn run_labels(comp: &Component, run: &ComponentRun, trace: &[String]) -> Option<Vec<Vec<String>>> {
    let states = along_run(comp, &run.witness)?;
    // The component's events in order, each with the label of the state it leads to.
    let mut events: Vec<(String, Vec<String>)> = Vec::new();
    for (k, s) in run.witness.steps.iter().enumerate() {
        if let Stmt::Event(ev) = &comp.edges[s.edge].stmt {
            let name = match (comp.family(ev.name()).and_then(|f| f.range), s.take) {
                (Some(_), crate::smt::Take::Value(v)) => format!("{}.{v}", ev.name()),
                _ => ev.name().to_string(),
            };
            events.push((name, states[k + 1].clone()));
        }
    }
    let mut current = states[0].clone();
    let mut out = vec![current.clone()];
    let mut next = events.iter().peekable();
    for t in trace {
        let base = Observations::split(t).map_or(t.as_str(), |(e, _)| e);
        if let Some((e, l)) = next.peek()
            && (e == t || e == base)
        {
            current = l.clone();
            next.next();
        }
        out.push(current.clone());
    }
    next.peek().is_none().then_some(out)
}
