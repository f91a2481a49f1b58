//! Parallel composition (paper 003 Definition 5; CSP's `||`): automata synchronise on the events
//! they share and interleave the others; τ never synchronises. A composite state is a tuple of
//! component states, labelled with the union of their labels, accepting when all components
//! are, and an error state when any component is in one.
//!
//! [`Product`] explores the composition on the fly, so checks build only the reachable part
//! they visit; [`compose`] builds the reachable part explicitly, with every error tuple merged
//! into one π. [`RestMemo`] keeps the steps of all parts but one per tuple of their states,
//! for searches of products that differ in that one part (`safety::Search::with_memo`); its
//! key is exactly what the steps depend on: the other parts, the index left out and the
//! product's alphabet (which numbers the events).
//!
//! Known weaknesses: tuples are stored as boxed slices in a hash map; a product with millions of
//! states needs that much memory (no symbolic representation, no partial-order reduction).

use crate::util::HashMap;
use std::collections::VecDeque;
use std::sync::Arc;

use super::dla::{Builder, Dla, PropSet, StateId, TAU};

const ABSENT: u32 = u32::MAX;

/// The on-the-fly product of several automata, with some events of the product hidden.
pub struct Product<'a> {
    parts: Vec<&'a Dla>,
    alphabet: Vec<String>,
    props: Vec<String>,
    /// For each part, global event -> local event index (or `ABSENT`).
    local: Vec<Vec<u32>>,
    /// For each part, local event index -> global event.
    global: Vec<Vec<u32>>,
    /// For each part, local proposition -> global proposition.
    prop_map: Vec<Vec<u16>>,
    hidden: Vec<bool>,
}

/// A state of a [`Product`]: one state per part.
pub type Tuple = Box<[StateId]>;

impl<'a> Product<'a> {
    /// The product of `parts`, nothing hidden.
    pub fn new(parts: Vec<&'a Dla>) -> Product<'a> {
        // Sorted as names, copied once each.
        let mut names: Vec<&str> = parts.iter().flat_map(|p| p.alphabet().iter().map(String::as_str)).collect();
        names.sort_unstable();
        names.dedup();
        let alphabet: Vec<String> = names.into_iter().map(str::to_string).collect();
        let mut props: Vec<String> = parts.iter().flat_map(|p| p.props().iter().cloned()).collect();
        props.sort();
        props.dedup();
        let mut local = Vec::new();
        let mut global = Vec::new();
        let mut prop_map = Vec::new();
        for p in &parts {
            let g: Vec<u32> =
                p.alphabet().iter().map(|e| alphabet.binary_search(e).expect("in the union") as u32).collect();
            let mut l = vec![ABSENT; alphabet.len()];
            for (i, &gi) in g.iter().enumerate() {
                l[gi as usize] = i as u32;
            }
            local.push(l);
            global.push(g);
            prop_map.push(p.props().iter().map(|q| props.binary_search(q).expect("in the union") as u16).collect());
        }
        let hidden = vec![false; alphabet.len()];
        Product { parts, alphabet, props, local, global, prop_map, hidden }
    }

    /// Hides the events for which `hidden` holds: they become τ in [`Product::successors`].
    pub fn hide(mut self, hidden: &dyn Fn(&str) -> bool) -> Product<'a> {
        self.hidden = self.alphabet.iter().map(|e| hidden(e)).collect();
        self
    }

    /// The union of the parts' alphabets (hidden events included).
    pub fn alphabet(&self) -> &[String] {
        &self.alphabet
    }

    /// The union of the parts' propositions.
    pub fn props(&self) -> &[String] {
        &self.props
    }

    /// The number of parts.
    pub fn n_parts(&self) -> usize {
        self.parts.len()
    }

    /// Whether an event of the product is hidden.
    pub fn is_hidden(&self, e: u32) -> bool {
        self.hidden[e as usize]
    }

    /// All combinations of the parts' initial states.
    pub fn initial(&self) -> Vec<Tuple> {
        let choices: Vec<Vec<StateId>> = self.parts.iter().map(|p| p.initial().to_vec()).collect();
        cartesian(&choices)
    }

    /// Whether some part is in its error state.
    pub fn is_error(&self, s: &[StateId]) -> bool {
        s.iter().zip(&self.parts).any(|(&q, p)| p.is_error(q))
    }

    /// Whether every part accepts.
    pub fn is_accepting(&self, s: &[StateId]) -> bool {
        s.iter().zip(&self.parts).all(|(&q, p)| p.is_accepting(q))
    }

    /// The union of the parts' labels, as global proposition indices.
    pub fn label(&self, s: &[StateId]) -> PropSet {
        let mut l: PropSet = Vec::new();
        for (i, (&q, p)) in s.iter().zip(&self.parts).enumerate() {
            l.extend(p.state(q).label.iter().map(|&x| self.prop_map[i][x as usize]));
        }
        l.sort();
        l.dedup();
        l
    }

    /// Appends the successors of `s` to `out` as (global event or [`TAU`], tuple). Hidden
    /// events appear as τ. An error tuple has no successors.
    pub fn successors(&self, s: &[StateId], out: &mut Vec<(u32, Tuple)>) {
        if self.is_error(s) {
            return;
        }
        let mut candidates: Vec<u32> = Vec::new();
        for (i, (&q, p)) in s.iter().zip(&self.parts).enumerate() {
            for t in &p.state(q).out {
                if t.event == TAU {
                    let mut next: Tuple = s.into();
                    next[i] = t.to;
                    out.push((TAU, next));
                } else {
                    candidates.push(self.global[i][t.event as usize]);
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        // Per part, the range of its transitions on the event (none: the part does not take
        // part in it and stays), and which of them the combination being built takes.
        let n = self.parts.len();
        let mut ranges: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut at: Vec<usize> = vec![0; n];
        'events: for g in candidates {
            for (i, (&q, p)) in s.iter().zip(&self.parts).enumerate() {
                let l = self.local[i][g as usize];
                if l == ABSENT {
                    ranges[i] = None;
                    continue;
                }
                let out_q = &p.state(q).out;
                let from = out_q.partition_point(|t| t.event < l);
                let to = out_q.partition_point(|t| t.event <= l);
                if from == to {
                    continue 'events;
                }
                ranges[i] = Some((from, to));
                at[i] = from;
            }
            let e = if self.hidden[g as usize] { TAU } else { g };
            // Every combination of one transition per taking part, the last part's choice
            // varying fastest: the order of [`cartesian`] over the parts' choices.
            loop {
                let next: Tuple = (0..n)
                    .map(|i| match ranges[i] {
                        None => s[i],
                        Some(_) => self.parts[i].state(s[i]).out[at[i]].to,
                    })
                    .collect();
                out.push((e, next));
                let mut i = n;
                loop {
                    if i == 0 {
                        continue 'events;
                    }
                    i -= 1;
                    if let Some((from, to)) = ranges[i] {
                        at[i] += 1;
                        if at[i] < to {
                            break;
                        }
                        at[i] = from;
                    }
                }
            }
        }
    }
}

/// The successors of the product of all parts but one (the *varying* part), kept per tuple of
/// their states (a *rest tuple*), so that searches of products that differ only in the varying
/// part (the CEGAR rounds that refine one component, an upgrade of one component) compute
/// them once ([`crate::automata::safety::Search::with_memo`]).
///
/// What it holds depends on exactly its key: the parts other than the varying one (equal
/// automata), the varying part's index, and the product's alphabet, which numbers the events
/// ([`RestMemo::fits`]). A memo that does not fit is never used.
#[derive(Clone, Debug, Default)]
pub struct RestMemo {
    /// The parts it was made for; the one at `varying` is not part of the key.
    parts: Vec<Arc<Dla>>,
    varying: usize,
    alphabet: Vec<String>,
    /// For each part, global event -> local event index (or `ABSENT`); the varying part's
    /// entry is not used.
    local: Vec<Vec<u32>>,
    /// For each part, local event index -> global event.
    global: Vec<Vec<u32>>,
    /// Per global event, whether a part other than the varying one has it.
    in_rest: Vec<bool>,
    /// The rest tuples, numbered.
    ids: HashMap<Tuple, u32>,
    tuples: Vec<Tuple>,
    /// Per rest tuple: whether a part is in an error state, and its steps once computed.
    error: Vec<bool>,
    steps: Vec<Option<RestSteps>>,
}

/// The steps of a rest tuple: τ steps with the part that takes them (in the order of the
/// parts), and per event that no part of the rest blocks (by global event), the rest tuples
/// reached in the order of [`Product::successors`] (the last part fastest).
#[derive(Clone, Debug, Default)]
pub struct RestSteps {
    /// (part, rest tuple reached).
    pub taus: Vec<(u32, u32)>,
    /// (global event, how many combinations the parts after the varying one give, the range
    /// of `combos`, once [`RestMemo::ensure_combos`] computed it).
    pub events: Vec<(u32, u32, u32, u32)>,
    /// The rest tuples reached on the events.
    pub combos: Vec<u32>,
}

impl RestMemo {
    /// An empty memo for the product of `parts` (with the product's `alphabet`, the sorted
    /// union of the parts' alphabets) that leaves out part `varying`.
    pub fn new(parts: &[Arc<Dla>], varying: usize, alphabet: &[String]) -> RestMemo {
        let mut local = Vec::with_capacity(parts.len());
        let mut global = Vec::with_capacity(parts.len());
        let mut in_rest = vec![false; alphabet.len()];
        for (i, p) in parts.iter().enumerate() {
            let g: Vec<u32> =
                p.alphabet().iter().map(|e| alphabet.binary_search(e).map_or(ABSENT, |g| g as u32)).collect();
            let mut l = vec![ABSENT; alphabet.len()];
            for (li, &gi) in g.iter().enumerate() {
                if gi != ABSENT {
                    l[gi as usize] = li as u32;
                    if i != varying {
                        in_rest[gi as usize] = true;
                    }
                }
            }
            local.push(l);
            global.push(g);
        }
        RestMemo {
            parts: parts.to_vec(),
            varying,
            alphabet: alphabet.to_vec(),
            local,
            global,
            in_rest,
            ..RestMemo::default()
        }
    }

    /// Whether this memo serves the product of `parts` with `alphabet`: the same number of
    /// parts, the same alphabet, and every part but the varying one equal to the memo's.
    pub fn fits(&self, parts: &[Arc<Dla>], alphabet: &[String]) -> bool {
        self.parts.len() == parts.len()
            && self.varying < parts.len()
            && self.alphabet == alphabet
            && self.parts.iter().zip(parts).enumerate().all(|(i, (a, b))| i == self.varying || a == b)
    }

    /// Records `part` as the varying part's last version (not part of the key: the next
    /// search compares its parts with the last ones to choose the part to leave out).
    pub fn set_varying_part(&mut self, part: &Arc<Dla>) {
        if let Some(p) = self.parts.get_mut(self.varying) {
            *p = part.clone();
        }
    }

    /// The index of the part left out.
    pub fn varying(&self) -> usize {
        self.varying
    }

    /// The parts it was made for.
    pub fn parts(&self) -> &[Arc<Dla>] {
        &self.parts
    }

    /// Rest tuples numbered so far.
    pub fn len(&self) -> usize {
        self.tuples.len()
    }

    /// Whether no rest tuple is numbered yet.
    pub fn is_empty(&self) -> bool {
        self.tuples.is_empty()
    }

    /// Per global event, whether a part other than the varying one has it.
    pub fn in_rest(&self, g: u32) -> bool {
        self.in_rest[g as usize]
    }

    /// The number of the rest tuple of the full tuple `full` (its varying part left out).
    pub fn rest_of(&mut self, full: &[StateId]) -> u32 {
        let rest: Tuple = full.iter().enumerate().filter(|&(i, _)| i != self.varying).map(|(_, &q)| q).collect();
        self.intern(rest)
    }

    fn intern(&mut self, rest: Tuple) -> u32 {
        if let Some(&id) = self.ids.get(&rest) {
            return id;
        }
        let id = self.tuples.len() as u32;
        let error = rest.iter().zip(self.rest_parts()).any(|(&q, (_, p))| p.is_error(q));
        self.ids.insert(rest.clone(), id);
        self.tuples.push(rest);
        self.error.push(error);
        self.steps.push(None);
        id
    }

    /// The parts other than the varying one, with their indices.
    fn rest_parts(&self) -> impl Iterator<Item = (usize, &Arc<Dla>)> {
        let varying = self.varying;
        self.parts.iter().enumerate().filter(move |&(i, _)| i != varying)
    }

    /// Whether some part of rest tuple `r` is in an error state.
    pub fn is_error(&self, r: u32) -> bool {
        self.error[r as usize]
    }

    /// The states of rest tuple `r`, in the order of the parts (the varying one left out).
    pub fn tuple(&self, r: u32) -> &[StateId] {
        &self.tuples[r as usize]
    }

    /// Computes the steps of rest tuple `r` unless they are known ([`RestMemo::steps`]).
    pub fn ensure_steps(&mut self, r: u32) {
        if self.steps[r as usize].is_none() {
            let steps = self.compute(r);
            self.steps[r as usize] = Some(steps);
        }
    }

    /// The steps of rest tuple `r`, if [`RestMemo::ensure_steps`] computed them.
    pub fn steps(&self, r: u32) -> Option<&RestSteps> {
        self.steps[r as usize].as_ref()
    }

    fn compute(&mut self, r: u32) -> RestSteps {
        let s = self.tuples[r as usize].clone();
        let parts: Vec<(usize, Arc<Dla>)> = self.rest_parts().map(|(i, p)| (i, p.clone())).collect();
        let mut steps = RestSteps::default();
        let mut candidates: Vec<u32> = Vec::new();
        for (pos, (i, p)) in parts.iter().enumerate() {
            for t in &p.state(s[pos]).out {
                if t.event == TAU {
                    let mut next: Tuple = s.clone();
                    next[pos] = t.to;
                    let id = self.intern(next);
                    steps.taus.push((*i as u32, id));
                } else {
                    candidates.push(self.global[*i][t.event as usize]);
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        // The rest tuples an event reaches are numbered when a search first takes it
        // ([`RestMemo::ensure_combos`]): the varying part blocks many.
        steps.events = candidates
            .into_iter()
            .filter(|&g| self.ranges(&parts, &s, g).is_some())
            .map(|g| (g, 0, NOT_YET, NOT_YET))
            .collect();
        steps
    }

    /// Per part of the rest, its transitions on `g` from its state in `s` (none: it does not
    /// have `g`), or none at all when a part that has `g` cannot take it.
    fn ranges(&self, parts: &[(usize, Arc<Dla>)], s: &[StateId], g: u32) -> Option<Vec<Option<(usize, usize)>>> {
        parts
            .iter()
            .enumerate()
            .map(|(pos, (i, p))| {
                let l = self.local[*i][g as usize];
                if l == ABSENT {
                    return Some(None);
                }
                let out_q = &p.state(s[pos]).out;
                let from = out_q.partition_point(|t| t.event < l);
                let to = out_q.partition_point(|t| t.event <= l);
                (from < to).then_some(Some((from, to)))
            })
            .collect()
    }

    /// Numbers the rest tuples that event `events[e]` of rest tuple `r` reaches, unless they
    /// are numbered, after [`RestMemo::ensure_steps`].
    pub fn ensure_combos(&mut self, r: u32, e: usize) {
        let Some(mut steps) = self.steps[r as usize].take() else { return };
        if let Some(&(g, _, NOT_YET, _)) = steps.events.get(e) {
            let s = self.tuples[r as usize].clone();
            let parts: Vec<(usize, Arc<Dla>)> = self.rest_parts().map(|(i, p)| (i, p.clone())).collect();
            if let Some(ranges) = self.ranges(&parts, &s, g) {
                let suffix: u32 = parts
                    .iter()
                    .zip(&ranges)
                    .filter(|((i, _), _)| *i > self.varying)
                    .map(|(_, range)| range.map_or(1, |(from, to)| (to - from) as u32))
                    .product();
                let start = steps.combos.len() as u32;
                let mut at: Vec<usize> = ranges.iter().map(|range| range.map_or(0, |(from, _)| from)).collect();
                let n = parts.len();
                // Every combination, the last part's choice varying fastest, as in
                // [`Product::successors`].
                'combos: loop {
                    let next: Tuple = (0..n)
                        .map(|pos| match ranges[pos] {
                            None => s[pos],
                            Some(_) => parts[pos].1.state(s[pos]).out[at[pos]].to,
                        })
                        .collect();
                    let id = self.intern(next);
                    steps.combos.push(id);
                    let mut pos = n;
                    loop {
                        if pos == 0 {
                            break 'combos;
                        }
                        pos -= 1;
                        if let Some((from, to)) = ranges[pos] {
                            at[pos] += 1;
                            if at[pos] < to {
                                break;
                            }
                            at[pos] = from;
                        }
                    }
                }
                steps.events[e] = (g, suffix, start, steps.combos.len() as u32);
            }
        }
        self.steps[r as usize] = Some(steps);
    }
}

/// The range of an event's combinations that [`RestMemo::ensure_combos`] has not computed.
const NOT_YET: u32 = u32::MAX;

/// Every way of picking one element from each list.
fn cartesian(choices: &[Vec<StateId>]) -> Vec<Tuple> {
    let mut result: Vec<Vec<StateId>> = vec![Vec::with_capacity(choices.len())];
    for c in choices {
        let mut next = Vec::with_capacity(result.len() * c.len());
        for r in &result {
            for &x in c {
                let mut v = r.clone();
                v.push(x);
                next.push(v);
            }
        }
        result = next;
    }
    result.into_iter().map(Vec::into_boxed_slice).collect()
}

/// The reachable part of the composition of `parts`, built explicitly.
pub fn compose(parts: &[&Dla]) -> Dla {
    explore(&Product::new(parts.to_vec()))
}

/// The reachable part of a product (with its hidden events as τ), built explicitly. All error
/// tuples become one error state.
pub fn explore(product: &Product) -> Dla {
    let mut b = Builder::new();
    for e in product.alphabet().iter().enumerate().filter(|(i, _)| !product.is_hidden(*i as u32)).map(|(_, e)| e) {
        b.add_event(e);
    }
    let mut ids: HashMap<Tuple, StateId> = HashMap::default();
    let mut queue: VecDeque<Tuple> = VecDeque::new();
    let mut error: Option<StateId> = None;
    let mut add = |b: &mut Builder, t: Tuple, queue: &mut VecDeque<Tuple>, ids: &mut HashMap<Tuple, StateId>| {
        if product.is_error(&t) {
            return *error.get_or_insert_with(|| b.add_error_state());
        }
        if let Some(&id) = ids.get(&t) {
            return id;
        }
        let label: Vec<&str> = product.label(&t).iter().map(|&p| product.props()[p as usize].as_str()).collect();
        let id = b.add_state(&label, product.is_accepting(&t));
        ids.insert(t.clone(), id);
        queue.push_back(t);
        id
    };
    for t in product.initial() {
        let id = add(&mut b, t, &mut queue, &mut ids);
        b.set_initial(id);
    }
    let mut succ = Vec::new();
    while let Some(t) = queue.pop_front() {
        let from = ids[&t];
        succ.clear();
        product.successors(&t, &mut succ);
        for (e, next) in succ.drain(..) {
            let to = add(&mut b, next, &mut queue, &mut ids);
            let name = if e == TAU { super::dla::TAU_NAME } else { product.alphabet()[e as usize].as_str() };
            b.add_transition(from, name, to);
        }
    }
    b.build()
}
