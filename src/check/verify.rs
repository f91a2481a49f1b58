//! `subst verify` on an assembly of FSP processes, by one of two engines:
//! - `mono`: the monolithic check of paper 000 Section 2; each property P is checked as
//!   reachability of π in `M || P_err`, with M the on-the-fly product of the assembly's parts
//!   ([`crate::automata::safety::check`]);
//! - `ag`: compositional, with learned assumptions ([`super::ag`]).
//!
//! Properties that are parts of the assembly (as `P_err`) and `ERROR` states are checked by one
//! more check without an outside property. Events the assembly hides are invisible to an
//! outside property, so they are removed from its alphabet, and from counterexamples.

use std::time::{Duration, Instant};

use super::Verdict;
use super::ag::{AgStats, DynamicChecker};
use crate::automata::Dla;
use crate::automata::safety::{self, Safety};
use crate::diag::Diagnostic;
use crate::learn::CexMode;
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
    /// The work of the compositional engine, when it ran.
    pub ag: Option<AgStats>,
}

/// How `subst verify` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// Explore the whole product on the fly.
    #[default]
    Mono,
    /// Assume-guarantee reasoning with learned assumptions.
    Ag,
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
/// is not a part of the assembly when none is named). With the `ag` engine, the parts are
/// taken in `order` (names of parts; the composition's order when empty).
pub fn verify(
    spec: &Spec,
    name: &str,
    properties: &[String],
    engine: Engine,
    order: &[String],
    cex: CexMode,
) -> Result<Verification, Diagnostic> {
    let c_components = spec.c_components(name)?;
    if !c_components.is_empty() {
        return Err(Diagnostic::global(format!(
            "assembly `{name}` has C components ({}); give the C sources with the spec: `subst verify FILES.c --spec SPEC.lts`",
            c_components.join(", ")
        )));
    }
    let assembly = spec.assembly(name)?;
    let (inside, chosen) = properties_to_check(spec, &assembly, properties);
    let parts = ordered_parts(&assembly, order)?;
    let hidden = |e: &str| assembly.is_hidden(e);
    let mut results = Vec::new();
    let mut run = |label: String, property: Option<&Dla>| -> Result<(), Diagnostic> {
        let start = Instant::now();
        // An outside property cannot see what the assembly hides.
        let property = property.map(|p| p.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] }));
        let (verdict, states, ag) = match engine {
            Engine::Mono => {
                let refs: Vec<&Dla> = parts.iter().collect();
                match safety::check(&refs, &hidden, property.as_ref())
                    .map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?
                {
                    Safety::Holds { states } => (Verdict::Holds, states, None),
                    Safety::Violated { trace, states } => (Verdict::Fails(trace), states, None),
                }
            }
            Engine::Ag => {
                if let Some(p) = &property {
                    safety::error_automaton(p).map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?;
                }
                let mut checker = DynamicChecker::new(cex);
                let (outcome, stats) = checker.run(&parts, property.as_ref());
                let verdict = outcome.into_verdict(&hidden);
                (verdict, 0, Some(stats))
            }
        };
        results.push(PropertyResult { property: label, verdict, states, time: start.elapsed(), ag });
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

/// The property parts of `assembly` (checked as "no ERROR state"), and the properties to check
/// from outside: `properties`, or when none is named every property of the spec that is not a
/// part.
pub fn properties_to_check<'a>(
    spec: &Spec,
    assembly: &'a crate::spec::Assembly,
    properties: &[String],
) -> (Vec<&'a str>, Vec<String>) {
    let inside: Vec<&str> =
        assembly.parts.iter().filter(|p| p.kind == PartKind::Property).map(|p| p.name.as_str()).collect();
    let chosen: Vec<String> = if properties.is_empty() {
        spec.properties().into_iter().filter(|p| !inside.iter().any(|i| i.ends_with(p.as_str()))).collect()
    } else {
        properties.to_vec()
    };
    (inside, chosen)
}

/// The assembly's automata in the requested order: the named parts first, in the order given,
/// then the others by [`connected_order`].
pub fn ordered_parts(assembly: &crate::spec::Assembly, order: &[String]) -> Result<Vec<Dla>, Diagnostic> {
    Ok(part_order(assembly, order)?.into_iter().map(|i| assembly.parts[i].automaton.clone()).collect())
}

/// The indices of [`ordered_parts`]' order.
pub fn part_order(assembly: &crate::spec::Assembly, order: &[String]) -> Result<Vec<usize>, Diagnostic> {
    let mut indices: Vec<usize> = Vec::new();
    for name in order {
        match assembly.parts.iter().position(|p| &p.name == name) {
            Some(i) if !indices.contains(&i) => indices.push(i),
            Some(_) => {}
            None => {
                let names: Vec<&str> = assembly.parts.iter().map(|p| p.name.as_str()).collect();
                return Err(Diagnostic::global(format!("`{name}` is not a part of {}", assembly.name))
                    .with_note(format!("parts: {}", names.join(", "))));
            }
        }
    }
    let automata: Vec<&Dla> = assembly.parts.iter().map(|p| &p.automaton).collect();
    for i in connected_order(&automata, &indices) {
        if !indices.contains(&i) {
            indices.push(i);
        }
    }
    Ok(indices)
}

/// The default component order of the compositional engine: after the parts already `placed`,
/// repeatedly the part that shares the most events with the parts placed so far (ties go to the
/// earlier part of the composition). Neighbours in the communication structure then sit at
/// adjacent levels, which keeps each assumption's interface, and so the assumption, small.
pub fn connected_order(parts: &[&Dla], placed: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = placed.to_vec();
    let mut seen: std::collections::HashSet<&str> =
        placed.iter().flat_map(|&i| parts[i].alphabet().iter().map(String::as_str)).collect();
    while order.len() < parts.len() {
        let next = (0..parts.len())
            .filter(|i| !order.contains(i))
            .max_by_key(|&i| {
                let shared = parts[i].alphabet().iter().filter(|e| seen.contains(e.as_str())).count();
                (shared, std::cmp::Reverse(i))
            })
            .expect("a part is left");
        seen.extend(parts[next].alphabet().iter().map(String::as_str));
        order.push(next);
    }
    order
}
