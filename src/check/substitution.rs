//! `subst check OLD NEW` on C: components are matched by name between the two versions, and
//! every component whose code changed is checked for containment ([`super::contain`]).
//! Compatibility of the upgraded assembly joins in a later stage.

use super::Verdict;
use super::contain::{self, ContainOptions, ContainOutcome, Containment};
use crate::automata::Dla;
use crate::diag::Diagnostic;
use crate::front::Program;
use crate::ir::{Component, Event, Stmt};

/// What happened to one component between the versions.
#[derive(Clone, Debug)]
pub enum Change {
    /// Its code is the same (source positions aside).
    Unchanged,
    /// Its code changed; the containment check.
    Changed(Box<Containment>),
    /// Only the old version has it: none of its behaviours remain.
    Removed,
    /// Only the new version has it.
    Added,
}

/// One component of the check.
#[derive(Clone, Debug)]
pub struct ComponentCheck {
    /// Its name.
    pub name: String,
    /// The old version's code, when there is one.
    pub old: Option<Component>,
    /// The new version's code, when there is one.
    pub new: Option<Component>,
    /// What changed, and the result.
    pub change: Change,
    /// Whether the containment verdict was read from the cache.
    pub cached: bool,
}

impl ComponentCheck {
    /// The containment verdict of this component: a removed component loses its behaviours.
    pub fn verdict(&self) -> Verdict {
        match &self.change {
            Change::Unchanged | Change::Added => Verdict::Holds,
            Change::Removed => Verdict::Fails(Vec::new()),
            Change::Changed(c) => match &c.outcome {
                ContainOutcome::Contained => Verdict::Holds,
                ContainOutcome::NotContained { missing, .. } => {
                    Verdict::Fails(missing.first().map(|m| m.trace.clone()).unwrap_or_default())
                }
                ContainOutcome::Unknown(r) => Verdict::Unknown(r.clone()),
            },
        }
    }
}

/// The result of `subst check` on C.
#[derive(Clone, Debug)]
pub struct Substitution {
    /// One entry per component of either version, in the old version's order, then the added.
    pub components: Vec<ComponentCheck>,
    /// Compatibility of the assembly, when the spec has one.
    pub compat: Option<super::compat::Compatibility>,
}

impl Substitution {
    /// Substitutable when every component is contained and the new assembly satisfies every
    /// property checked.
    pub fn verdict(&self) -> Verdict {
        let properties = self.compat.iter().flat_map(|c| &c.results).map(|r| r.upgrade.verdict());
        Verdict::all(self.components.iter().map(ComponentCheck::verdict).chain(properties))
    }
}

fn strip(c: &Component) -> Component {
    let mut c = c.clone();
    for e in &mut c.edges {
        e.origin = None;
    }
    c
}

/// Whether two components have the same code: the IR with source positions left out.
pub fn same_code(a: &Component, b: &Component) -> bool {
    strip(a) == strip(b)
}

/// The code of a component as text, source positions left out: what the cache keys on.
pub fn code_text(c: &Component) -> String {
    crate::ir::text::component(&strip(c))
}

/// Rejects a component with a valued event family that has no range: its values would be
/// unobserved, and containment would compare traces without them.
pub fn require_ranges(comp: &Component) -> Result<(), Diagnostic> {
    if let Some(f) = comp.families.iter().find(|f| f.range.is_none()) {
        let message = format!(
            "the event family `{}` of `{}` carries values but has no range; containment compares values, so declare one in the spec (`event {}[LO..HI]`)",
            f.name, comp.name, f.name
        );
        let site = comp
            .edges
            .iter()
            .find(|e| matches!(&e.stmt, Stmt::Event(ev) if ev.name() == f.name && !matches!(ev, Event::Plain(_))));
        return Err(match site.and_then(|e| e.origin.as_ref()) {
            Some(o) => Diagnostic::at(o.span.clone(), message, "a value of the family"),
            None => Diagnostic::global(message),
        });
    }
    Ok(())
}

/// Checks containment for every component of `old` that `new` changes. `removed`, from the
/// spec, holds behaviours the upgrade drops on purpose.
pub fn check(
    old: &Program,
    new: &Program,
    removed: Option<&Dla>,
    options: &ContainOptions,
) -> Result<Substitution, Diagnostic> {
    check_cached(old, new, removed, options, &crate::cache::Cache::disabled())
}

/// What the cache keeps of a containment check: only "contained", the one verdict that needs
/// no evidence, with the work it took.
#[derive(serde::Serialize, serde::Deserialize)]
struct CachedContainment {
    contained: bool,
    rounds: usize,
    time_ms: f64,
}

/// The cache key of the containment of `old` in `new` (with `removed`): their code without
/// source positions, and the removed process; limits are left out, since they only ever turn a
/// verdict into unknown, which is never stored.
fn containment_key(old: &Component, new: &Component, removed: Option<&Dla>) -> String {
    let removed = removed.map(|d| d.to_string()).unwrap_or_default();
    crate::cache::key(&["contain", &code_text(old), &code_text(new), &removed])
}

/// [`check`] with a cache: a component pair found "contained" there (for the same code, the
/// same removed behaviours and this version of subst) is not checked again; a pair found
/// contained now is stored. Any other verdict is computed every time. A damaged or foreign
/// entry is a miss (see [`crate::cache`]).
pub fn check_cached(
    old: &Program,
    new: &Program,
    removed: Option<&Dla>,
    options: &ContainOptions,
    cache: &crate::cache::Cache,
) -> Result<Substitution, Diagnostic> {
    check_labelled(old, new, removed, options, cache, None)
}

/// [`check_cached`] where the behaviours of a component include the labels of `spec`'s
/// propositions over it: each event carries the label of the state it leads to
/// ([`crate::abs::labels::instrument_props`]).
pub fn check_labelled(
    old: &Program,
    new: &Program,
    removed: Option<&Dla>,
    options: &ContainOptions,
    cache: &crate::cache::Cache,
    spec: Option<&crate::spec::Spec>,
) -> Result<Substitution, Diagnostic> {
    let lower = |program: &Program, name: &str| -> Result<Component, Diagnostic> {
        let mut comp = program.lower(name)?;
        if let Some(spec) = spec {
            crate::abs::labels::instrument_props(spec, program, &mut comp)?;
        }
        Ok(comp)
    };
    let old_names = old.default_components();
    let new_names = new.default_components();
    if old_names.is_empty() && new_names.is_empty() {
        return Err(Diagnostic::global("no component found in either version: define `main` or component functions"));
    }
    let mut components = Vec::new();
    for name in &old_names {
        let o = lower(old, name)?;
        if !new_names.contains(name) {
            components.push(ComponentCheck {
                name: name.clone(),
                old: Some(o),
                new: None,
                change: Change::Removed,
                cached: false,
            });
            continue;
        }
        let n = lower(new, name)?;
        let mut cached = false;
        let change = if same_code(&o, &n) {
            Change::Unchanged
        } else {
            require_ranges(&o)?;
            require_ranges(&n)?;
            let key = containment_key(&o, &n, removed);
            match cache.load::<CachedContainment>("contain", &key) {
                Some(hit) if hit.contained => {
                    tracing::info!(component = %name, rounds = hit.rounds, ms = hit.time_ms, "containment from the cache");
                    cached = true;
                    let stats = contain::ContainStats { rounds: hit.rounds, ..Default::default() };
                    Change::Changed(Box::new(Containment {
                        component: name.clone(),
                        outcome: ContainOutcome::Contained,
                        stats,
                    }))
                }
                _ => {
                    tracing::info!(component = %name, "containment");
                    let result = contain::check(&o, &n, removed, options);
                    if matches!(result.outcome, ContainOutcome::Contained) {
                        let entry = CachedContainment {
                            contained: true,
                            rounds: result.stats.rounds,
                            time_ms: result.stats.time.as_secs_f64() * 1e3,
                        };
                        cache.store("contain", &key, &entry);
                    }
                    Change::Changed(Box::new(result))
                }
            }
        };
        components.push(ComponentCheck { name: name.clone(), old: Some(o), new: Some(n), change, cached });
    }
    for name in new_names.iter().filter(|n| !old_names.contains(n)) {
        let n = lower(new, name)?;
        components.push(ComponentCheck {
            name: name.clone(),
            old: None,
            new: Some(n),
            change: Change::Added,
            cached: false,
        });
    }
    Ok(Substitution { components, compat: None })
}
