//! `subst check OLD NEW` on FSP models: compatibility of an upgraded assembly by DynamicCheck
//! (paper 003 Section 5.3, Fig. 3). Parts with the same name in OLD and NEW are versions of one
//! component. The check of OLD runs first and keeps its tables, assumptions and results; the
//! check of NEW then re-uses them, re-validating only what the upgrade changed.

use std::time::{Duration, Instant};

use super::Verdict;
use super::ag::{AgStats, DynamicChecker, InterfaceAlphabet, Reuse};
use super::verify::part_order;
use crate::automata::Dla;
use crate::automata::safety;
use crate::deadline::Deadline;
use crate::diag::Diagnostic;
use crate::learn::{Algorithm, CexMode};
use crate::spec::Spec;

/// One run of DynamicCheck.
#[derive(Clone, Debug)]
pub struct Run {
    /// Its verdict.
    pub verdict: Verdict,
    /// Its work.
    pub stats: AgStats,
    /// Its time.
    pub time: Duration,
    /// When it fails and FSP processes own propositions: the label after every step of the
    /// trace, the initial one first ([`crate::spec::Assembly::trace_labels`]).
    pub labels: Option<Vec<Vec<String>>>,
}

/// The compatibility of the upgrade for one property.
#[derive(Clone, Debug)]
pub struct PropertyUpgrade {
    /// The property.
    pub property: String,
    /// The check of the old assembly (`T_orig` of paper 003 Table 1).
    pub original: Run,
    /// The check of the new assembly from the old run's tables (`T_ug`).
    pub upgrade: Run,
}

/// The result of `subst check` on FSP models.
#[derive(Clone, Debug)]
pub struct Upgrade {
    /// The assembly.
    pub assembly: String,
    /// Parts whose automaton differs between OLD and NEW.
    pub changed: Vec<String>,
    /// One result per property.
    pub results: Vec<PropertyUpgrade>,
}

impl Upgrade {
    /// The verdict on the new assembly: it holds when every property holds.
    pub fn verdict(&self) -> Verdict {
        Verdict::all(self.results.iter().map(|r| r.upgrade.verdict.clone()))
    }
}

fn run(
    checker: &mut DynamicChecker,
    parts: &[Dla],
    property: Option<&Dla>,
    hidden: &dyn Fn(&str) -> bool,
    deadline: &Deadline,
) -> Run {
    let start = Instant::now();
    let (outcome, stats) = checker.run(parts, property);
    let verdict = match outcome.into_verdict(hidden) {
        Verdict::Unknown(r) => Verdict::Unknown(r.with_limit(deadline)),
        v => v,
    };
    Run { verdict, stats, time: start.elapsed(), labels: None }
}

/// Checks that the assembly `name` of `new` satisfies its properties, re-using the check of
/// the same assembly in `old`. The search of the whole product before learning explores at
/// most `probe` states ([`super::ag::PROBE_STATES`] by default), a changed level re-uses its
/// old table or tree as `reuse` says, the assumptions range over `alphabet`; both checks stop
/// at `deadline` (their verdicts then unknown).
#[allow(clippy::too_many_arguments)]
pub fn check_upgrade(
    old: &Spec,
    new: &Spec,
    name: &str,
    properties: &[String],
    order: &[String],
    cex: CexMode,
    (learner, alphabet): (Algorithm, InterfaceAlphabet),
    probe: usize,
    reuse: Reuse,
    deadline: Deadline,
) -> Result<Upgrade, Diagnostic> {
    for (spec, which) in [(old, "old"), (new, "new")] {
        let c = spec.c_components(name)?;
        if !c.is_empty() {
            return Err(Diagnostic::global(format!(
                "the {which} assembly `{name}` has C components ({}); compatibility of C assemblies is not implemented yet (containment is: `subst check OLD.c NEW.c`)",
                c.join(", ")
            )));
        }
    }
    let (old_asm, new_asm) = (old.assembly(name)?, new.assembly(name)?);
    let old_names: Vec<&str> = old_asm.parts.iter().map(|p| p.name.as_str()).collect();
    let new_names: Vec<&str> = new_asm.parts.iter().map(|p| p.name.as_str()).collect();
    if old_names != new_names {
        return Err(Diagnostic::global(format!("the parts of `{name}` differ between the two versions"))
            .with_note(format!("old: {}", old_names.join(", ")))
            .with_note(format!("new: {}", new_names.join(", ")))
            .with_note("a component may change, but the assembly must keep its parts"));
    }
    let changed: Vec<String> = old_asm
        .parts
        .iter()
        .zip(&new_asm.parts)
        .filter(|(a, b)| a.automaton != b.automaton)
        .map(|(a, _)| a.name.clone())
        .collect();
    let chosen: Vec<String> = if properties.is_empty() { new.properties() } else { properties.to_vec() };
    let mut results = Vec::new();
    let mut labels: Vec<(String, Option<String>)> = chosen.iter().map(|p| (p.clone(), Some(p.clone()))).collect();
    if labels.is_empty() {
        labels.push(("no ERROR state".into(), None));
    }
    for (label, property) in labels {
        let load = |spec: &Spec, asm: &crate::spec::Assembly| -> Result<Option<Dla>, Diagnostic> {
            let Some(p) = &property else { return Ok(None) };
            if !spec.is_property(p) {
                return Err(Diagnostic::global(format!("`{p}` is not a property of {}", spec.file())));
            }
            let hidden = |e: &str| asm.is_hidden(e);
            let p = spec.process(p)?.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] });
            safety::error_automaton(&p).map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?;
            Ok(Some(p))
        };
        let (old_p, new_p) = (load(old, &old_asm)?, load(new, &new_asm)?);
        // One order for both versions (the old one's), so that each level holds the two
        // versions of one component.
        let indices = part_order(&old_asm, order, old_p.as_ref())?;
        let old_parts: Vec<Dla> = indices.iter().map(|&i| old_asm.parts[i].automaton.clone()).collect();
        let new_parts: Vec<Dla> = indices.iter().map(|&i| new_asm.parts[i].automaton.clone()).collect();
        let mut checker = DynamicChecker::new(cex)
            .with_algorithm(learner)
            .with_alphabet(alphabet)
            .with_probe(probe)
            .with_reuse(reuse);
        checker.set_deadline(deadline.instant());
        let mut original = run(&mut checker, &old_parts, old_p.as_ref(), &|e| old_asm.is_hidden(e), &deadline);
        let mut upgrade = run(&mut checker, &new_parts, new_p.as_ref(), &|e| new_asm.is_hidden(e), &deadline);
        for (r, asm) in [(&mut original, &old_asm), (&mut upgrade, &new_asm)] {
            if let Verdict::Fails(trace) = &r.verdict {
                r.labels = asm.trace_labels(trace);
            }
        }
        results.push(PropertyUpgrade { property: label, original, upgrade });
    }
    Ok(Upgrade { assembly: new_asm.to_string(), changed, results })
}
