//! Parallel composition (paper 003 Definition 5; CSP's `||`): automata synchronise on the events
//! they share and interleave the others; τ never synchronises. A composite state is a tuple of
//! component states, labelled with the union of their labels, accepting when all components
//! are, and an error state when any component is in one.
//!
//! [`Product`] explores the composition on the fly, so checks build only the reachable part
//! they visit; [`compose`] builds the reachable part explicitly, with every error tuple merged
//! into one π.
//!
//! Known weaknesses: tuples are stored as boxed slices in a hash map; a product with millions of
//! states needs that much memory (no symbolic representation, no partial-order reduction).

use crate::util::HashMap;
use std::collections::VecDeque;

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
                if !next_combination(&mut at, &ranges) {
                    continue 'events;
                }
            }
        }
    }
}

/// Steps `at` to the next combination of the parts' transitions on one event, as an odometer
/// whose last digit turns fastest: digit `i` runs over `ranges[i]` (`from..to`, an index range
/// of part `i`'s sorted transitions), and a part with `None` (not in the event's alphabet) keeps
/// its digit. Returns false after the last combination, with every digit back at its `from`.
pub(crate) fn next_combination(at: &mut [usize], ranges: &[Option<(usize, usize)>]) -> bool {
    for i in (0..at.len()).rev() {
        if let Some((from, to)) = ranges[i] {
            at[i] += 1;
            if at[i] < to {
                return true;
            }
            at[i] = from;
        }
    }
    false
}

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
