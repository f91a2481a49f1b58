//! `subst verify` on an assembly of FSP processes, by one of two engines:
//! - `mono`: the monolithic check of paper 000 Section 2; each property P is checked as
//!   reachability of π in `M || P_err`, with M the on-the-fly product of the assembly's parts
//!   ([`crate::automata::safety::check`]);
//! - `ag`: compositional, with learned assumptions ([`super::ag`]).
//!
//! The monolithic product is explored in steps ([`mono_search`]): at most [`MONO_MAX_STATES`]
//! states (a count, so the verdict does not depend on the machine), and `--timeout` is looked at
//! between steps; either limit makes the verdict unknown.
//!
//! Properties that are parts of the assembly (as `P_err`) and `ERROR` states are checked by one
//! more check without an outside property. Events the assembly hides are invisible to an
//! outside property, so they are removed from its alphabet, and from counterexamples.

use std::time::{Duration, Instant};

use super::Verdict;
use super::ag::{AgStats, DynamicChecker, InterfaceAlphabet};
use crate::automata::Dla;
use crate::automata::safety::{self, PropertyError, Safety};
use crate::diag::Diagnostic;
use crate::learn::{Algorithm, CexMode};
use crate::spec::{PartKind, Spec};

/// The most product states a monolithic check explores ([`mono_search`]): beyond it, the
/// verdict is unknown ([`super::Reason::StateLimit`]) rather than the memory of the machine
/// running out (a product of 40 two-state parts has 2^40 states). Six times the largest product
/// the benches explore (846,369 states, `benches/SCALABLE.md`); five million states of 24 parts
/// take about 2 GiB (10 million took 3.8 GiB and 320 s on a loaded 2-core machine).
pub const MONO_MAX_STATES: usize = 5_000_000;

/// States explored between two looks at the deadline in [`mono_search`].
const MONO_STEP: usize = 1 << 14;

/// [`safety::check`] of the product of `parts`, explored in steps of 16,384 states with a
/// look at `deadline` between them, up to `max_states` states (callers give
/// [`MONO_MAX_STATES`]). An answer is
/// [`safety::check`]'s (a search run in steps explores the same states in the same order);
/// `Err` names the limit that stopped it.
pub fn mono_search(
    parts: &[&Dla],
    hidden: &dyn Fn(&str) -> bool,
    property: Option<&Dla>,
    max_states: usize,
    deadline: &crate::deadline::Deadline,
) -> Result<Result<Safety, super::Reason>, PropertyError> {
    let mut search = safety::Search::new(parts, hidden, property)?;
    let mut bound = 0;
    loop {
        bound = (bound + MONO_STEP).min(max_states);
        if let Some(answer) = search.run(bound) {
            return Ok(Ok(answer));
        }
        if bound >= max_states {
            return Ok(Err(super::Reason::StateLimit(max_states)));
        }
        if let Err(reason) = deadline.check() {
            return Ok(Err(reason));
        }
    }
}

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
    /// When it fails and FSP processes own propositions: the label after every step of the
    /// trace, the initial one first ([`crate::spec::Assembly::trace_labels`]).
    pub labels: Option<Vec<Vec<String>>>,
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
/// taken in `order` (names of parts), then by [`part_order`]; its search of the whole product
/// before learning explores at most `probe` states ([`super::ag::PROBE_STATES`] by default),
/// its assumptions range over `alphabet` ([`InterfaceAlphabet`]), and learning stops at
/// `deadline` (the verdict is then unknown; the `mono` engine's product looks at it between
/// steps of its search, [`mono_search`]).
#[allow(clippy::too_many_arguments)]
pub fn verify(
    spec: &Spec,
    name: &str,
    properties: &[String],
    engine: Engine,
    order: &[String],
    cex: CexMode,
    (learner, alphabet): (Algorithm, InterfaceAlphabet),
    probe: usize,
    deadline: crate::deadline::Deadline,
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
    let hidden = |e: &str| assembly.is_hidden(e);
    let mut results = Vec::new();
    let mut run = |label: String, property: Option<&Dla>| -> Result<(), Diagnostic> {
        let start = Instant::now();
        // An outside property cannot see what the assembly hides.
        let property = property.map(|p| p.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] }));
        let parts: Vec<Dla> = part_order(&assembly, order, property.as_ref())?
            .into_iter()
            .map(|i| assembly.parts[i].automaton.clone())
            .collect();
        let (verdict, states, ag) = match engine {
            Engine::Mono => {
                let refs: Vec<&Dla> = parts.iter().collect();
                match mono_search(&refs, &hidden, property.as_ref(), MONO_MAX_STATES, &deadline)
                    .map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?
                {
                    Ok(Safety::Holds { states }) => (Verdict::Holds, states, None),
                    Ok(Safety::Violated { trace, states }) => (Verdict::Fails(trace), states, None),
                    Err(reason) => (Verdict::Unknown(reason), 0, None),
                }
            }
            Engine::Ag => {
                if let Some(p) = &property {
                    safety::error_automaton(p).map_err(|e| Diagnostic::global(format!("property `{label}`: {e}")))?;
                }
                let mut checker =
                    DynamicChecker::new(cex).with_algorithm(learner).with_alphabet(alphabet).with_probe(probe);
                checker.set_deadline(deadline.instant());
                let (outcome, stats) = checker.run(&parts, property.as_ref());
                let verdict = match outcome.into_verdict(&hidden) {
                    Verdict::Unknown(r) => Verdict::Unknown(r.with_limit(&deadline)),
                    v => v,
                };
                (verdict, 0, Some(stats))
            }
        };
        let labels = match &verdict {
            Verdict::Fails(trace) => assembly.trace_labels(trace),
            _ => None,
        };
        results.push(PropertyResult { property: label, verdict, states, time: start.elapsed(), ag, labels });
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

/// Runs the compositional check of `property` on the FSP assembly `name` (parts in the order
/// `order` says) and hands the checker, with the parts in the order of its levels, to
/// `inspect` (`subst show assumption|table`).
pub fn inspect_level(
    spec: &Spec,
    name: &str,
    property: &str,
    order: &[String],
    inspect: &mut dyn FnMut(&str, &[String], &DynamicChecker),
) -> Result<(), Diagnostic> {
    let c_components = spec.c_components(name)?;
    if !c_components.is_empty() {
        return Err(Diagnostic::global(format!(
            "assembly `{name}` has C components ({}); give the C sources with --spec",
            c_components.join(", ")
        )));
    }
    let assembly = spec.assembly(name)?;
    let hidden = |e: &str| assembly.is_hidden(e);
    let p = spec.process(property)?.relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] });
    safety::error_automaton(&p).map_err(|e| Diagnostic::global(format!("property `{property}`: {e}")))?;
    let indices = part_order(&assembly, order, Some(&p))?;
    let parts: Vec<Dla> = indices.iter().map(|&i| assembly.parts[i].automaton.clone()).collect();
    let names: Vec<String> = indices.iter().map(|&i| assembly.parts[i].name.clone()).collect();
    // The views are of L*'s observation table and hypothesis: L# keeps a tree instead. No
    // search of the product first, which would leave the levels without anything learned.
    let mut checker =
        DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(crate::learn::Algorithm::LStar).with_probe(0);
    checker.run(&parts, Some(&p));
    inspect(property, &names, &checker);
    Ok(())
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
/// then the others by [`connected_order`] (the order the benchmarks of the FSP engine use).
pub fn ordered_parts(assembly: &crate::spec::Assembly, order: &[String]) -> Result<Vec<Dla>, Diagnostic> {
    let placed = named_parts(assembly, order)?;
    let automata: Vec<&Dla> = assembly.parts.iter().map(|p| &p.automaton).collect();
    Ok(connected_order(&automata, &placed).into_iter().map(|i| assembly.parts[i].automaton.clone()).collect())
}

/// The order of the levels for checking `property` (`None`: no ERROR state) on `assembly`:
/// the parts named in `order` first, in the order given, then the others by
/// [`interface_order`].
pub fn part_order(
    assembly: &crate::spec::Assembly,
    order: &[String],
    property: Option<&Dla>,
) -> Result<Vec<usize>, Diagnostic> {
    let placed = named_parts(assembly, order)?;
    let automata: Vec<&Dla> = assembly.parts.iter().map(|p| &p.automaton).collect();
    Ok(interface_order(&automata, property, &placed))
}

/// The indices of the parts named in `order`.
fn named_parts(assembly: &crate::spec::Assembly, order: &[String]) -> Result<Vec<usize>, Diagnostic> {
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
    Ok(indices)
}

/// Up to this many parts left to order, [`interface_order`] searches every order.
const EXHAUSTIVE_PARTS: usize = 9;

/// The default order of the levels of the compositional engine for `property`: after the parts
/// already `placed`, the order of the others whose levels have the smallest interfaces in total.
/// Level `i`'s interface is `Σ_i = (αM_i ∪ αφ_i) ∩ α(M_{i+1} || ..)`, with `αφ_0` the property's
/// alphabet and `αφ_{i+1} = Σ_i` (the assumption's); the last part has none. Each letter of an
/// interface multiplies the membership queries of its level, and a small interface lets the
/// parts on each side be closed off early. Up to `EXHAUSTIVE_PARTS` parts every order is
/// searched (branch and bound), beyond that the part with the smallest interface goes next.
/// Ties go to the order that comes first in the composition's order.
///
/// Paper 003 (Section 8) notes that the order has a large effect on the run time and leaves
/// its choice open; on the IPC example, P2 finishes in this order and not in
/// [`connected_order`]'s (`benches/COMPAT.md`).
pub fn interface_order(parts: &[&Dla], property: Option<&Dla>, placed: &[usize]) -> Vec<usize> {
    let mut names: Vec<&str> = parts.iter().flat_map(|p| p.alphabet().iter().map(String::as_str)).collect();
    names.extend(property.map(|p| p.alphabet().iter().map(String::as_str).collect::<Vec<_>>()).unwrap_or_default());
    names.sort_unstable();
    names.dedup();
    let set = |alphabet: &[String]| -> Events {
        let mut s = Events::new(names.len());
        for e in alphabet {
            if let Ok(i) = names.binary_search(&e.as_str()) {
                s.insert(i);
            }
        }
        s
    };
    let alphabets: Vec<Events> = parts.iter().map(|p| set(p.alphabet())).collect();
    let mut search = OrderSearch { alphabets, best: None };
    let mut order: Vec<usize> = placed.to_vec();
    let mut phi = property.map_or_else(|| Events::new(names.len()), |p| set(p.alphabet()));
    let mut cost = 0;
    for k in 0..placed.len() {
        if let Some(sigma) = search.interface(&order[..=k], &phi) {
            cost += sigma.len();
            phi = sigma;
        }
    }
    let left = parts.len() - placed.len();
    if left <= EXHAUSTIVE_PARTS {
        search.exhaustive(&mut order, &phi, cost);
        search.best.map_or(order, |(_, best)| best)
    } else {
        // Greedy, with the number of parts left that have each event kept up to date, so that a
        // candidate's interface costs its alphabet, not the alphabets of every part left (a
        // composition of thousands of parts took hours here).
        let mut ordered = vec![false; parts.len()];
        order.iter().for_each(|&i| ordered[i] = true);
        let mut holders = vec![0u32; names.len()];
        for (i, a) in search.alphabets.iter().enumerate() {
            if !ordered[i] {
                a.each(|e| holders[e] += 1);
            }
        }
        // The interface of part `i` placed next: `(αM_i ∪ φ) ∩ α(parts left but i)`, `None`
        // when `i` is the last part.
        let interface = |i: usize, phi: &Events, holders: &[u32], last: bool| -> Option<Events> {
            let own = &search.alphabets[i];
            let mut sigma = Events::new(names.len());
            own.union(phi).each(|e| {
                if holders[e] > u32::from(own.contains(e)) {
                    sigma.insert(e);
                }
            });
            (!last).then_some(sigma)
        };
        while order.len() < parts.len() {
            let last = order.len() + 1 == parts.len();
            let next = (0..parts.len())
                .filter(|&i| !ordered[i])
                .min_by_key(|&i| (interface(i, &phi, &holders, last).map_or(0, |s| s.len()), i))
                .expect("a part is left");
            if let Some(sigma) = interface(next, &phi, &holders, last) {
                phi = sigma;
            }
            order.push(next);
            ordered[next] = true;
            search.alphabets[next].each(|e| holders[e] -= 1);
        }
        order
    }
}

/// A set of events, by index.
#[derive(Clone)]
struct Events(Vec<u64>);

impl Events {
    fn new(n: usize) -> Events {
        Events(vec![0; n.div_ceil(64)])
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    fn union(&self, other: &Events) -> Events {
        Events(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }

    /// Calls `f` with each event of the set, in increasing order.
    fn each(&self, mut f: impl FnMut(usize)) {
        for (k, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
}

struct OrderSearch {
    alphabets: Vec<Events>,
    /// The smallest total found, and its order.
    best: Option<(usize, Vec<usize>)>,
}

impl OrderSearch {
    /// The interface of the last part of `prefix` with the parts not in it, given `phi`, the
    /// alphabet of its property; `None` when no part is left after it.
    fn interface(&self, prefix: &[usize], phi: &Events) -> Option<Events> {
        let last = *prefix.last()?;
        let mut rest = Events(vec![0; phi.0.len()]);
        let mut any = false;
        for (i, a) in self.alphabets.iter().enumerate() {
            if !prefix.contains(&i) {
                any = true;
                rest.0.iter_mut().zip(&a.0).for_each(|(r, w)| *r |= w);
            }
        }
        any.then(|| {
            let own = &self.alphabets[last].0;
            Events(own.iter().zip(&phi.0).zip(&rest.0).map(|((m, p), r)| (m | p) & r).collect())
        })
    }

    fn exhaustive(&mut self, order: &mut Vec<usize>, phi: &Events, cost: usize) {
        if self.best.as_ref().is_some_and(|(best, _)| cost >= *best) {
            return;
        }
        if order.len() == self.alphabets.len() {
            self.best = Some((cost, order.clone()));
            return;
        }
        for i in 0..self.alphabets.len() {
            if order.contains(&i) {
                continue;
            }
            order.push(i);
            match self.interface(order, phi) {
                Some(sigma) => {
                    let size = sigma.len();
                    self.exhaustive(order, &sigma, cost + size);
                }
                None => self.exhaustive(order, phi, cost),
            }
            order.pop();
        }
    }
}

/// The default component order of the compositional engine: after the parts already `placed`,
/// repeatedly the part that shares the most events with the parts placed so far (ties go to the
/// earlier part of the composition). Neighbours in the communication structure then sit at
/// adjacent levels, which keeps each assumption's interface, and so the assumption, small.
pub fn connected_order(parts: &[&Dla], placed: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = placed.to_vec();
    let mut seen: crate::util::HashSet<&str> =
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::automata::dla::Builder;

    /// A one-state automaton over `events`.
    fn over(events: &[&str]) -> Dla {
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

    /// The total interface size of `order`, computed from sets of names.
    fn cost(parts: &[Dla], property: &[&str], order: &[usize]) -> usize {
        let mut phi: BTreeSet<String> = property.iter().map(|e| e.to_string()).collect();
        let mut total = 0;
        for k in 0..order.len() - 1 {
            let rest: BTreeSet<String> = order[k + 1..].iter().flat_map(|&j| parts[j].alphabet().to_vec()).collect();
            let own: BTreeSet<String> = parts[order[k]].alphabet().iter().cloned().collect();
            phi = own.union(&phi).filter(|e| rest.contains(*e)).cloned().collect();
            total += phi.len();
        }
        total
    }

    fn permutations(items: Vec<usize>) -> Vec<Vec<usize>> {
        if items.len() <= 1 {
            return vec![items];
        }
        let mut all = Vec::new();
        for (k, &first) in items.iter().enumerate() {
            let mut rest = items.clone();
            rest.remove(k);
            for mut p in permutations(rest) {
                p.insert(0, first);
                all.push(p);
            }
        }
        all
    }

    #[test]
    fn the_interface_order_has_the_smallest_total_interface_and_keeps_the_placed_parts_first() {
        // A writer side and a reader side around a queue, as in the IPC example; the property
        // watches the writes into the queue.
        let parts = [
            over(&["lock", "unlock", "put"]),
            over(&["put", "write", "ack"]),
            over(&["lock", "unlock"]),
            over(&["write", "ack", "read", "data"]),
            over(&["read", "data"]),
            over(&["noise"]),
        ];
        let property = over(&["write", "ack"]);
        let refs: Vec<&Dla> = parts.iter().collect();
        for placed in [vec![], vec![2], vec![5, 0]] {
            let order = interface_order(&refs, Some(&property), &placed);
            assert_eq!(order[..placed.len()], placed[..]);
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, (0..parts.len()).collect::<Vec<_>>());
            let rest: Vec<usize> = (0..parts.len()).filter(|i| !placed.contains(i)).collect();
            let best = permutations(rest)
                .into_iter()
                .map(|p| [placed.clone(), p].concat())
                .map(|o| cost(&parts, &["write", "ack"], &o))
                .min()
                .expect("an order");
            assert_eq!(cost(&parts, &["write", "ack"], &order), best, "{placed:?} gives {order:?}");
        }
    }

    /// Two states that `a{i}` and `b{i}` toggle between: `n` of them have 2^n product states.
    fn toggle(i: usize) -> Dla {
        let (a, b) = (format!("a{i}"), format!("b{i}"));
        let mut builder = Builder::new();
        builder.add_event(&a);
        builder.add_event(&b);
        let (s, t) = (builder.add_state(&[], true), builder.add_state(&[], true));
        builder.add_transition(s, &a, t);
        builder.add_transition(t, &b, s);
        builder.set_initial(s);
        builder.build()
    }

    #[test]
    fn a_monolithic_product_beyond_its_state_bound_is_unknown() {
        let parts: Vec<Dla> = (0..20).map(toggle).collect();
        let refs: Vec<&Dla> = parts.iter().collect();
        let none = crate::deadline::Deadline::none();
        let got = mono_search(&refs, &|_| false, None, 50_000, &none).expect("no property");
        assert_eq!(got.err(), Some(super::super::Reason::StateLimit(50_000)));
        let small = mono_search(&refs[..10], &|_| false, None, 50_000, &none).expect("no property");
        assert_eq!(small.ok(), Some(Safety::Holds { states: 1 << 10 }));
    }

    #[test]
    fn a_monolithic_product_stops_at_the_deadline() {
        let parts: Vec<Dla> = (0..40).map(toggle).collect();
        let refs: Vec<&Dla> = parts.iter().collect();
        let passed = crate::deadline::Deadline::after(Duration::ZERO);
        let got = mono_search(&refs, &|_| false, None, MONO_MAX_STATES, &passed).expect("no property");
        assert!(matches!(got, Err(super::super::Reason::Timeout(_))), "{got:?}");
    }

    #[test]
    fn beyond_the_exhaustive_search_the_order_is_still_a_permutation() {
        let parts: Vec<Dla> =
            (0..EXHAUSTIVE_PARTS + 3).map(|i| over(&[&format!("e{i}"), &format!("e{}", i + 1)])).collect();
        let refs: Vec<&Dla> = parts.iter().collect();
        let order = interface_order(&refs, None, &[3]);
        assert_eq!(order[0], 3);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..parts.len()).collect::<Vec<_>>());
    }
}
