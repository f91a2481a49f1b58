//! Language inclusion `L(A) ⊆ L(B)` by antichains (De Wulf, Doyen, Henzinger and Raskin,
//! "Antichains: a new algorithm for checking universality of finite automata", CAV 2006), in
//! the forward direction.
//!
//! The search explores pairs `(a, S)`: a state of A and the set of states B can be in after the
//! same trace (τ-closed). A pair is *bad* when `a` accepts and no state of `S` does: its trace
//! is in `L(A) \ L(B)`. A pair `(a, S')` is subsumed by a visited `(a, S)` with `S ⊆ S'`, because
//! every trace that goes wrong from the larger set goes wrong from the smaller one; only the
//! ⊆-minimal sets per state of A (an antichain) are explored. The search is breadth-first in
//! visible letters (τ steps of A cost nothing), so the counterexample is a shortest one:
//! a subsumed pair was reached by a trace no longer than the pair subsuming it.
//!
//! Letters are events with the label of the state they reach (paper 003 Definition 3).
//!
//! Known weakness: the antichain of a state of A is a plain list, so subsumption checks are
//! linear in its length.

use crate::util::HashMap;
use std::collections::VecDeque;

use super::dla::{Dla, StateId, TAU, Trace};

/// The answer of an inclusion check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inclusion {
    /// `L(A) ⊆ L(B)`.
    Included {
        /// Pairs explored.
        pairs: usize,
    },
    /// A shortest trace in `L(A) \ L(B)`.
    NotIncluded {
        /// The trace.
        trace: Trace,
        /// Pairs explored.
        pairs: usize,
    },
}

/// A visible step: an event and the label of the state it reaches.
type Letter = (u32, Vec<u16>);

struct Node {
    a: StateId,
    set: Vec<StateId>,
    /// Visible letters from the start.
    depth: u32,
    parent: Option<(usize, Option<Letter>)>,
}

/// Checks `L(a) ⊆ L(b)`.
pub fn check(a: &Dla, b: &Dla) -> Inclusion {
    // B's view of A's events and propositions.
    let b_event: Vec<Option<u32>> = a.alphabet().iter().map(|e| b.event_index(e)).collect();
    let b_prop: Vec<Option<u16>> =
        a.props().iter().map(|p| b.props().binary_search(p).ok().map(|i| i as u16)).collect();
    let to_b_label = |label: &[u16]| -> Option<Vec<u16>> {
        let mut l: Vec<u16> = label.iter().map(|&p| b_prop[p as usize]).collect::<Option<_>>()?;
        l.sort_unstable();
        Some(l)
    };
    let b_has_tau = b.has_tau();
    let mut nodes: Vec<Node> = Vec::new();
    let mut antichain: HashMap<StateId, Vec<usize>> = HashMap::default();
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut b_init_by_label: HashMap<Vec<u16>, Vec<StateId>> = HashMap::default();
    for &s in b.initial() {
        b_init_by_label.entry(b.state(s).label.clone()).or_default().push(s);
    }
    for &s in a.initial() {
        let set = to_b_label(&a.state(s).label)
            .and_then(|l| b_init_by_label.get(&l).cloned())
            .map(|members| b.tau_closure(&members))
            .unwrap_or_default();
        push(&mut nodes, &mut antichain, &mut queue, Node { a: s, set, depth: 0, parent: None }, false);
    }
    // The simulation costs about one pass over both automata per refinement round; a check that
    // ends quickly (a short counterexample) does without it.
    let mut simulated: Option<Vec<Vec<u64>>> = None;
    let mut simulation_tried = false;
    let mut pairs = 0;
    while let Some(i) = queue.pop_front() {
        pairs += 1;
        if !simulation_tried && pairs > a.n_states() + b.n_states() {
            simulation_tried = true;
            simulated = simulation(a, b, &b_event, &to_b_label);
        }
        let (s, set, depth) = (nodes[i].a, nodes[i].set.clone(), nodes[i].depth);
        // A state of B that simulates `s` accepts every trace `s` accepts from here on.
        if let Some(sim) = &simulated
            && set.iter().any(|&q| sim[s.index()][q.index() / 64] >> (q.index() % 64) & 1 == 1)
        {
            continue;
        }
        if a.is_accepting(s) && !set.iter().any(|&q| b.is_accepting(q)) {
            return Inclusion::NotIncluded { trace: trace_of(a, &nodes, i), pairs };
        }
        for t in &a.state(s).out {
            if a.is_error(t.to) {
                continue;
            }
            if t.event == TAU {
                let node = Node { a: t.to, set: set.clone(), depth, parent: Some((i, None)) };
                push(&mut nodes, &mut antichain, &mut queue, node, true);
                continue;
            }
            let label = &a.state(t.to).label;
            let next = match (b_event[t.event as usize], to_b_label(label)) {
                (Some(be), Some(bl)) => {
                    let mut targets: Vec<StateId> = Vec::new();
                    for &q in &set {
                        let out = &b.state(q).out;
                        let from = out.partition_point(|u| u.event < be);
                        let to = out.partition_point(|u| u.event <= be);
                        targets.extend(out[from..to].iter().map(|u| u.to).filter(|&u| b.state(u).label == bl));
                    }
                    if b_has_tau {
                        b.tau_closure(&targets)
                    } else {
                        targets.sort_unstable();
                        targets.dedup();
                        targets
                    }
                }
                _ => Vec::new(),
            };
            let node = Node { a: t.to, set: next, depth: depth + 1, parent: Some((i, Some((t.event, label.clone())))) };
            push(&mut nodes, &mut antichain, &mut queue, node, false);
        }
    }
    Inclusion::Included { pairs }
}

/// The largest simulation of A's states by B's states (Dill, Hu and Wong-Toi 1991; its use
/// with antichains follows Abdulla, Chen, Holík, Mayr and Vojnar 2010): `a ⪯ b` when they have
/// the same label, `b` accepts if `a` does, and every step of `a` is matched by a step of `b`
/// on the same event to a state with the same label that again simulates. Rows are bit sets
/// over B's states. `None` when either automaton has τ steps or the computation would be too
/// large (the check then runs without it).
fn simulation(
    a: &Dla,
    b: &Dla,
    b_event: &[Option<u32>],
    to_b_label: &dyn Fn(&[u16]) -> Option<Vec<u16>>,
) -> Option<Vec<Vec<u64>>> {
    const BUDGET: usize = 2_000_000_000;
    if a.has_tau() || b.has_tau() || a.n_transitions().saturating_mul(b.n_transitions()) > BUDGET {
        return None;
    }
    let words = b.n_states().div_ceil(64);
    let mut rows: Vec<Vec<u64>> = Vec::with_capacity(a.n_states());
    for (i, sa) in a.states().iter().enumerate() {
        let mut row = vec![0u64; words];
        let label = to_b_label(&sa.label);
        let accepting = a.is_accepting(StateId(i as u32));
        for (j, sb) in b.states().iter().enumerate() {
            let ok = label.as_ref() == Some(&sb.label) && (!accepting || b.is_accepting(StateId(j as u32)));
            if ok {
                row[j / 64] |= 1 << (j % 64);
            }
        }
        rows.push(row);
    }
    // B's transitions by event, for predecessor sets.
    let mut by_event: Vec<Vec<(u32, u32)>> = vec![Vec::new(); b.alphabet().len()];
    for (j, sb) in b.states().iter().enumerate() {
        for t in &sb.out {
            by_event[t.event as usize].push((j as u32, t.to.0));
        }
    }
    let mut pre = vec![0u64; words];
    loop {
        let mut changed = false;
        for (i, sa) in a.states().iter().enumerate() {
            for t in &sa.out {
                if a.is_error(t.to) || rows[i].iter().all(|&w| w == 0) {
                    continue;
                }
                pre.iter_mut().for_each(|w| *w = 0);
                if let Some(e) = b_event[t.event as usize] {
                    let target = &rows[t.to.index()];
                    for &(from, to) in &by_event[e as usize] {
                        if target[to as usize / 64] >> (to % 64) & 1 == 1 {
                            pre[from as usize / 64] |= 1 << (from % 64);
                        }
                    }
                }
                for (w, p) in rows[i].iter_mut().zip(&pre) {
                    let kept = *w & p;
                    changed |= kept != *w;
                    *w = kept;
                }
            }
        }
        if !changed {
            return Some(rows);
        }
    }
}

/// Adds a node unless a known node of the same A state, no deeper, has a subset of its B
/// states; drops known nodes it subsumes in turn. Free (τ) steps go to the front of the queue.
/// Comparing depths keeps counterexamples shortest: τ steps of A can find a shallower node after
/// a deeper one.
fn push(
    nodes: &mut Vec<Node>,
    antichain: &mut HashMap<StateId, Vec<usize>>,
    queue: &mut VecDeque<usize>,
    node: Node,
    free: bool,
) {
    let chain = antichain.entry(node.a).or_default();
    if chain.iter().any(|&j| nodes[j].depth <= node.depth && is_subset(&nodes[j].set, &node.set)) {
        return;
    }
    chain.retain(|&j| !(node.depth <= nodes[j].depth && is_subset(&node.set, &nodes[j].set)));
    nodes.push(node);
    let i = nodes.len() - 1;
    chain.push(i);
    if free {
        queue.push_front(i);
    } else {
        queue.push_back(i);
    }
}

/// Whether sorted `small` ⊆ sorted `big`.
fn is_subset(small: &[StateId], big: &[StateId]) -> bool {
    if small.len() > big.len() {
        return false;
    }
    let mut j = 0;
    for &x in small {
        while j < big.len() && big[j] < x {
            j += 1;
        }
        if j == big.len() || big[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

fn trace_of(a: &Dla, nodes: &[Node], mut i: usize) -> Trace {
    let mut steps = Vec::new();
    loop {
        match &nodes[i].parent {
            Some((p, letter)) => {
                if let Some((e, label)) = letter {
                    steps.push((a.event_name(*e).to_string(), a.label_of(label)));
                }
                i = *p;
            }
            None => {
                steps.reverse();
                return Trace { start: a.label_of(&a.state(nodes[i].a).label), steps };
            }
        }
    }
}
