//! Safety checks: `M ⊨ P` for a deterministic safety property P (paper 000, Section 2).
//!
//! The property becomes its error automaton `P_err`: every event of P's alphabet that P cannot
//! perform in a state leads to π. `M ⊨ P` fails exactly when some state of `M || P_err` has a
//! component in its error state; [`check`] searches the product on the fly, breadth-first with
//! τ steps free (0-1 BFS), so the counterexample it returns is a shortest one in visible events.
//! Error states of M itself (FSP's `ERROR`) count as violations too.
//!
//! [`Search`] is the same search in steps: bounded by a number of states, then taken up
//! again where it stopped, with the same states in the same order as one search.
//! [`error_reachable`] gives [`check`]'s verdict without a trace, on products small enough to
//! number in a bitmap (Oracle 1 of the assume-guarantee rule).
//!
//! Known weakness: the search is explicit; its memory grows with the reachable product.

use crate::util::HashMap;
use std::collections::VecDeque;

use super::compose::{self, Product, Tuple};
use super::dla::{Builder, Dla, StateId, TAU};

/// Why an automaton cannot serve as a safety property.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PropertyError {
    /// A state has two successors on one event, or a τ step.
    #[error("the property is not deterministic: state {state} has {what}")]
    NotDeterministic {
        /// The state.
        state: StateId,
        /// What makes it nondeterministic.
        what: String,
    },
}

/// `P_err`: the property completed with a single error state π.
pub fn error_automaton(property: &Dla) -> Result<Dla, PropertyError> {
    if property.initial().len() > 1 {
        return Err(PropertyError::NotDeterministic {
            state: property.initial()[1],
            what: "a second initial state".into(),
        });
    }
    let mut b = Builder::new();
    for e in property.alphabet() {
        b.add_event(e);
    }
    for p in property.props() {
        b.add_prop(p);
    }
    for s in property.states() {
        let label: Vec<&str> = s.label.iter().map(|&p| property.props()[p as usize].as_str()).collect();
        match s.kind {
            super::dla::Kind::Error => b.add_error_state(),
            super::dla::Kind::Normal { accepting } => b.add_state(&label, accepting),
        };
    }
    let pi = b.add_error_state();
    for (i, s) in property.states().iter().enumerate() {
        let from = StateId(i as u32);
        if property.is_error(from) {
            continue;
        }
        let mut last: Option<u32> = None;
        for t in &s.out {
            if t.event == TAU {
                return Err(PropertyError::NotDeterministic { state: from, what: "an internal (tau) step".into() });
            }
            if last == Some(t.event) {
                let what = format!("two successors on `{}`", property.event_name(t.event));
                return Err(PropertyError::NotDeterministic { state: from, what });
            }
            last = Some(t.event);
            b.add_transition(from, property.event_name(t.event), t.to);
        }
        for (e, name) in property.alphabet().iter().enumerate() {
            if !s.out.iter().any(|t| t.event == e as u32) {
                b.add_transition(from, name, pi);
            }
        }
    }
    for &i in property.initial() {
        b.set_initial(i);
    }
    // A property without an initial state accepts nothing, not even the empty trace: every
    // run violates it at once.
    if property.initial().is_empty() {
        b.set_initial(pi);
    }
    Ok(b.build())
}

/// The result of a safety check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Safety {
    /// No error state is reachable.
    Holds {
        /// Product states explored.
        states: usize,
    },
    /// An error state is reachable by this trace of visible events, a shortest one.
    Violated {
        /// The events, in order.
        trace: Vec<String>,
        /// Product states explored.
        states: usize,
    },
}

/// Checks that the product of `parts` (with `hidden` events internal) never reaches an error
/// state, and when `property` is given that its visible behaviour satisfies it.
pub fn check(parts: &[&Dla], hidden: &dyn Fn(&str) -> bool, property: Option<&Dla>) -> Result<Safety, PropertyError> {
    Ok(check_bounded(parts, hidden, property, usize::MAX)?.expect("no bound"))
}

/// [`check`] that gives up (`None`) once it has explored `max_states` product states without
/// finding an error; an answer it gives is [`check`]'s.
pub fn check_bounded(
    parts: &[&Dla],
    hidden: &dyn Fn(&str) -> bool,
    property: Option<&Dla>,
    max_states: usize,
) -> Result<Option<Safety>, PropertyError> {
    Ok(Search::new(parts, hidden, property)?.run(max_states))
}

/// The search of [`check`] in steps: [`Search::run`] explores up to a number of states in
/// all and may be called again with a larger number, to go on where it stopped. A search
/// run to `n` states in any number of steps explores the same states in the same order,
/// and gives the same answer, as [`check_bounded`] with `n`.
pub struct Search<'a> {
    product: Product<'a>,
    p_err: Option<Dla>,
    /// The property's view of each product event: its local index, or none.
    p_local: Vec<Option<u32>>,
    /// Each node reached, once, by its number; `ids` numbers them.
    nodes: Vec<Node>,
    ids: HashMap<Node, u32>,
    /// Per node: its distance in visible events, the step it was reached by (the node before
    /// and the event), and whether it was explored.
    dist: Vec<u32>,
    parent: Vec<Option<(u32, u32)>>,
    done: Vec<bool>,
    /// Nodes explored so far.
    explored: usize,
    queue: VecDeque<u32>,
    /// The state explored last, when the bound stopped the search before its successors.
    pending: Option<u32>,
    succ: Vec<(u32, Tuple)>,
    /// The answer, once found.
    answer: Option<Safety>,
}

impl<'a> Search<'a> {
    /// A search of the product of `parts` (with `hidden` events internal) against `property`,
    /// that has explored nothing yet.
    pub fn new(
        parts: &[&'a Dla],
        hidden: &dyn Fn(&str) -> bool,
        property: Option<&Dla>,
    ) -> Result<Search<'a>, PropertyError> {
        let p_err = property.map(error_automaton).transpose()?;
        let product = Product::new(parts.to_vec()).hide(hidden);
        let p_local: Vec<Option<u32>> = product
            .alphabet()
            .iter()
            .enumerate()
            .map(
                |(g, e)| if product.is_hidden(g as u32) { None } else { p_err.as_ref().and_then(|p| p.event_index(e)) },
            )
            .collect();
        let p_init = p_err.as_ref().map(|p| p.initial()[0]);
        let mut search = Search {
            product,
            p_err,
            p_local,
            nodes: Vec::new(),
            ids: HashMap::default(),
            dist: Vec::new(),
            parent: Vec::new(),
            done: Vec::new(),
            explored: 0,
            queue: VecDeque::new(),
            pending: None,
            succ: Vec::new(),
            answer: None,
        };
        for t in search.product.initial() {
            let n = (t, p_init);
            if !search.ids.contains_key(&n) {
                let id = search.add(n, 0, None);
                search.queue.push_back(id);
            }
        }
        Ok(search)
    }

    /// Numbers a node not reached before.
    fn add(&mut self, n: Node, dist: u32, parent: Option<(u32, u32)>) -> u32 {
        let id = self.nodes.len() as u32;
        self.ids.insert(n.clone(), id);
        self.nodes.push(n);
        self.dist.push(dist);
        self.parent.push(parent);
        self.done.push(false);
        id
    }

    /// Product states explored so far.
    pub fn explored(&self) -> usize {
        self.explored
    }

    /// Goes on until the search has explored `max_states` states in all (`None`: no error
    /// among them, and more to explore) or has an answer, which every later call repeats.
    pub fn run(&mut self, max_states: usize) -> Option<Safety> {
        if self.answer.is_none() {
            self.answer = self.explore(max_states);
        }
        self.answer.clone()
    }

    fn explore(&mut self, max_states: usize) -> Option<Safety> {
        if let Some(id) = self.pending.take() {
            if self.explored >= max_states {
                self.pending = Some(id);
                return None;
            }
            self.expand(id);
        }
        // 0-1 breadth-first search: τ steps cost nothing, so nodes leave the queue in the order of
        // their distance in visible events, and a node is final when it first leaves.
        while let Some(id) = self.queue.pop_front() {
            if self.done[id as usize] {
                continue;
            }
            self.done[id as usize] = true;
            self.explored += 1;
            let (tuple, pstate) = &self.nodes[id as usize];
            let in_error =
                self.product.is_error(tuple) || matches!((&self.p_err, pstate), (Some(p), Some(q)) if p.is_error(*q));
            if in_error {
                let trace = self.trace_to(id);
                return Some(Safety::Violated { trace, states: self.explored });
            }
            if self.explored >= max_states {
                // Explored but not expanded: the next call expands it first.
                self.pending = Some(id);
                return None;
            }
            self.expand(id);
        }
        Some(Safety::Holds { states: self.explored })
    }

    /// Queues the successors of node `id` that this search has not reached as near.
    fn expand(&mut self, id: u32) {
        let d = self.dist[id as usize];
        let pstate = self.nodes[id as usize].1;
        self.succ.clear();
        self.product.successors(&self.nodes[id as usize].0, &mut self.succ);
        let mut succ = std::mem::take(&mut self.succ);
        for (e, next) in succ.drain(..) {
            let p_next = match (pstate, &self.p_err) {
                (Some(q), Some(p)) if e != TAU => match self.p_local[e as usize] {
                    None => Some(q),
                    // P_err is deterministic and complete on its alphabet.
                    Some(l) => p.state(q).out.iter().find(|t| t.event == l).map(|t| t.to),
                },
                (q, _) => q,
            };
            let n = (next, p_next);
            let nd = d + u32::from(e != TAU);
            let to = match self.ids.get(&n) {
                Some(&j) if self.dist[j as usize] <= nd => continue,
                Some(&j) => {
                    self.dist[j as usize] = nd;
                    self.parent[j as usize] = Some((id, e));
                    j
                }
                None => self.add(n, nd, Some((id, e))),
            };
            if e == TAU {
                self.queue.push_front(to);
            } else {
                self.queue.push_back(to);
            }
        }
        self.succ = succ;
    }

    /// The visible events of the steps that reached node `id`.
    fn trace_to(&self, id: u32) -> Vec<String> {
        let mut events = Vec::new();
        let mut at = id;
        while let Some((prev, e)) = self.parent[at as usize] {
            if e != TAU {
                events.push(self.product.alphabet()[e as usize].clone());
            }
            at = prev;
        }
        events.reverse();
        events
    }
}

type Node = (Tuple, Option<StateId>);

/// The most product states (with the property's state, or its absence) that
/// [`error_reachable`] numbers in a bitmap; a larger product is left to [`check`].
pub const DENSE_STATES: usize = 1 << 22;

/// Whether [`check`] of `parts` against the property whose error automaton is `p_err`
/// ([`error_automaton`]; none: no property), with no event hidden, finds a violation: `Some(true)`
/// exactly when it returns [`Safety::Violated`], `Some(false)` when it returns [`Safety::Holds`],
/// `None` when the product has more than [`DENSE_STATES`] states to number.
///
/// The answer is the search's because both explore the same product (the steps of
/// [`Product::successors`], the property moved as the search moves it) until a state with a
/// part or `P_err` in an error state, and whether such a state is reachable does not depend on
/// the order of the exploration. Only the trace does, so this check gives none: it numbers
/// each product state densely (mixed radix over the parts' states and `P_err`'s) in a bitmap,
/// explores depth-first, and allocates nothing per state. Oracle 1 of the assume-guarantee
/// rule asks this of a candidate and one component, mostly to hear that it holds
/// (`check::ag`), and a violation is then searched again by [`check`] for its shortest trace.
pub fn error_reachable(parts: &[&Dla], p_err: Option<&Dla>) -> Option<bool> {
    // The product's alphabet: the union of the parts', as [`Product::new`] has it.
    let mut names: Vec<&str> = parts.iter().flat_map(|p| p.alphabet().iter().map(String::as_str)).collect();
    names.sort_unstable();
    names.dedup();
    const ABSENT: u32 = u32::MAX;
    let n = parts.len();
    // Per part: global event -> local index, and local index -> global event.
    let mut local: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut global: Vec<Vec<u32>> = Vec::with_capacity(n);
    for p in parts {
        let g: Vec<u32> =
            p.alphabet().iter().map(|e| names.binary_search(&e.as_str()).expect("in the union") as u32).collect();
        let mut l = vec![ABSENT; names.len()];
        for (i, &gi) in g.iter().enumerate() {
            l[gi as usize] = i as u32;
        }
        local.push(l);
        global.push(g);
    }
    let p_local: Vec<Option<u32>> = names.iter().map(|e| p_err.and_then(|p| p.event_index(e))).collect();
    // Mixed radix: the parts' states, then the property's state (its last digit stands for
    // none: a property without a state there, which the search then never finds in error).
    let p_none = p_err.map_or(0, Dla::n_states);
    let radix: Vec<usize> = parts.iter().map(|p| p.n_states()).collect();
    let total = radix.iter().try_fold(p_none + 1, |acc: usize, &r| acc.checked_mul(r))?;
    if total > DENSE_STATES {
        return None;
    }
    let encode = |tuple: &[u32], p: usize| -> usize {
        tuple.iter().zip(&radix).fold(0usize, |acc, (&s, &r)| acc * r + s as usize) * (p_none + 1) + p
    };
    let mut seen = vec![0u64; total.div_ceil(64)];
    let mut visit = |key: usize| -> bool {
        let (word, bit) = (key / 64, 1u64 << (key % 64));
        let new = seen[word] & bit == 0;
        seen[word] |= bit;
        new
    };
    let mut stack: Vec<usize> = Vec::new();
    let p0 = p_err.map_or(p_none, |p| p.initial().first().map_or(p_none, |q| q.index()));
    // Every combination of the parts' initial states.
    let mut tuple: Vec<u32> = vec![0; n];
    let mut at = vec![0usize; n];
    if parts.iter().all(|p| !p.initial().is_empty()) {
        'init: loop {
            for i in 0..n {
                tuple[i] = parts[i].initial()[at[i]].0;
            }
            let key = encode(&tuple, p0);
            if visit(key) {
                stack.push(key);
            }
            let mut i = n;
            loop {
                if i == 0 {
                    break 'init;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < parts[i].initial().len() {
                    break;
                }
                at[i] = 0;
            }
        }
    }
    let (mut pos, mut end) = (vec![0usize; n], vec![0usize; n]);
    let mut ranges: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut next: Vec<u32> = vec![0; n];
    while let Some(key) = stack.pop() {
        // Decode the key into `tuple` and the property's state.
        let p = key % (p_none + 1);
        let mut rest = key / (p_none + 1);
        for i in (0..n).rev() {
            tuple[i] = (rest % radix[i]) as u32;
            rest /= radix[i];
        }
        let p_state = (p < p_none).then_some(StateId(p as u32));
        if tuple.iter().zip(parts).any(|(&q, part)| part.is_error(StateId(q))) {
            return Some(true);
        }
        if let (Some(q), Some(pe)) = (p_state, p_err)
            && pe.is_error(q)
        {
            return Some(true);
        }
        // τ steps of one part; the property stays. A part's transitions are sorted by event
        // (τ last), and its local order of events is the global one (both alphabets are
        // sorted by name), so the visible events come out of a merge of the parts' lists.
        for (i, part) in parts.iter().enumerate() {
            let out = &part.state(StateId(tuple[i])).out;
            let visible = out.partition_point(|t| t.event != TAU);
            pos[i] = 0;
            end[i] = visible;
            for t in &out[visible..] {
                next.copy_from_slice(&tuple);
                next[i] = t.to.0;
                let k = encode(&next, p);
                if visit(k) {
                    stack.push(k);
                }
            }
        }
        'events: loop {
            // The least event that some part can take next.
            let mut g = ABSENT;
            for i in 0..n {
                if pos[i] < end[i] {
                    let t = parts[i].state(StateId(tuple[i])).out[pos[i]];
                    g = g.min(global[i][t.event as usize]);
                }
            }
            if g == ABSENT {
                break;
            }
            // Per part, its transitions on `g` (none: it does not take part and stays).
            let mut blocked = false;
            for (i, part) in parts.iter().enumerate() {
                let l = local[i][g as usize];
                if l == ABSENT {
                    ranges[i] = None;
                    continue;
                }
                let out = &part.state(StateId(tuple[i])).out;
                let from = pos[i];
                let mut to = from;
                while to < end[i] && out[to].event == l {
                    to += 1;
                }
                pos[i] = to;
                blocked |= from == to;
                ranges[i] = Some((from, to));
                at[i] = from;
            }
            if blocked {
                continue 'events;
            }
            // The property's step on the event, as the search takes it.
            let p_next = match (p_state, p_err) {
                (Some(q), Some(pe)) => match p_local[g as usize] {
                    None => p,
                    Some(l) => pe.state(q).out.iter().find(|t| t.event == l).map_or(p_none, |t| t.to.index()),
                },
                _ => p,
            };
            loop {
                for i in 0..n {
                    next[i] = match ranges[i] {
                        None => tuple[i],
                        Some(_) => parts[i].state(StateId(tuple[i])).out[at[i]].to.0,
                    };
                }
                let k = encode(&next, p_next);
                if visit(k) {
                    stack.push(k);
                }
                if !compose::next_combination(&mut at, &ranges) {
                    continue 'events;
                }
            }
        }
    }
    Some(false)
}
