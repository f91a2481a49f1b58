//! `subst verify` on an assembly of FSP processes: the monolithic check of paper 000 Section 2.
//! Each property P is checked as reachability of π in `M || P_err`, with M the on-the-fly
//! product of the assembly's parts ([`crate::automata::safety::check`]); properties that are
//! parts of the assembly (as `P_err`) and `ERROR` states are checked by one more search without
//! an outside property.

use std::time::{Duration, Instant};

use super::Verdict;
use crate::automata::safety::{self, Safety};
use crate::diag::Diagnostic;
use crate::spec::{PartKind, Spec};

/// The result of checking one property.
#[derive(Clone, Debug)]
pub struct PropertyResult {
    /// The property's name, or the names of the properties inside the assembly.
    pub property: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Product states explored.
    pub states: usize,
    /// Time spent.
    pub time: Duration,
}

/// The result of `subst verify` on one assembly.
#[derive(Clone, Debug)]
pub struct Verification {
    /// The spec file.
    pub file: String,
    /// The assembly as the spec writes it, e.g. `||SYS = (INPUT || OUTPUT)`.
    pub assembly: String,
    /// One result per property.
    pub results: Vec<PropertyResult>,
}

impl Verification {
    /// The combined verdict.
    pub fn verdict(&self) -> Verdict {
        Verdict::all(self.results.iter().map(|r| r.verdict.clone()))
    }
}

/// The assembly to use: the named one, or the spec's only composition.
pub fn choose_assembly(spec: &Spec, named: Option<&str>) -> Result<String, Diagnostic> {
    if let Some(n) = named {
        return Ok(n.to_string());
    }
    match spec.compositions().as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Diagnostic::global(format!("{} defines no composition (`||NAME = ...`)", spec.file()))),
        many => {
            Err(Diagnostic::global(format!("{} defines several compositions; name one with --assembly", spec.file()))
                .with_note(format!("compositions: {}", many.join(", "))))
        }
    }
}

/// Checks the assembly `name` of `spec` against `properties` (every property of the spec that
/// is not a part of the assembly when none is named).
pub fn verify(spec: &Spec, name: &str, properties: &[String]) -> Result<Verification, Diagnostic> {
    let c_components = spec.c_components(name)?;
    if !c_components.is_empty() {
        return Err(Diagnostic::global(format!(
            "assembly `{name}` has C components ({}); verifying C needs predicate abstraction, which is not implemented yet",
            c_components.join(", ")
        )));
    }
    let assembly = spec.assembly(name)?;
    let inside: Vec<&str> =
        assembly.parts.iter().filter(|p| p.kind == PartKind::Property).map(|p| p.name.as_str()).collect();
    let chosen: Vec<String> = if properties.is_empty() {
        spec.properties().into_iter().filter(|p| !inside.iter().any(|i| i.ends_with(p.as_str()))).collect()
    } else {
        properties.to_vec()
    };
    let parts = assembly.automata();
    let hidden = |e: &str| assembly.is_hidden(e);
    let mut results = Vec::new();
    let mut run = |label: String, property: Option<&crate::automata::Dla>| -> Result<(), Diagnostic> {
        let start = Instant::now();
        let outcome = safety::check(&parts, &hidden, property)
            .map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?;
        let (verdict, states) = match outcome {
            Safety::Holds { states } => (Verdict::Holds, states),
            Safety::Violated { trace, states } => (Verdict::Fails(trace), states),
        };
        results.push(PropertyResult { property: label, verdict, states, time: start.elapsed() });
        Ok(())
    };
    if !inside.is_empty() || chosen.is_empty() {
        let label = if inside.is_empty() { "no ERROR state".to_string() } else { inside.join(", ") };
        run(label, None)?;
    }
    for p in &chosen {
        if !spec.is_property(p) {
            return Err(Diagnostic::global(format!("`{p}` is not a property of {}", spec.file()))
                .with_note(format!("properties: {}", spec.properties().join(", "))));
        }
        let automaton = spec.process(p)?;
        run(p.clone(), Some(&automaton))?;
    }
    Ok(Verification { file: spec.file().to_string(), assembly: assembly.to_string(), results })
}
