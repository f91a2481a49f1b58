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
//!
//! [`Search::with_memo`] is the same search again, over the product as (tuple of all parts but
//! one, the varying part): the steps of the other parts come from a [`RestMemo`] that the
//! caller keeps from search to search (CEGAR refines one component per round; an upgrade
//! changes one), so a search of a product whose other parts were searched before computes
//! only the varying part's steps and numbers nodes by three integers. The successors come in
//! [`Product::successors`]'s order, so the states, their order and the traces are those of
//! [`Search::new`] (a property test compares them at every bound). When no single part
//! changed since the last search, the search is [`Search::new`]'s.
//!
//! Known weaknesses: the search is explicit; its memory grows with the reachable product. A
//! memo keeps the steps of every tuple of the other parts that a search reached, also those
//! that the varying part blocks, and only for one choice of the varying part: a round that
//! changes another part starts an empty one.

use crate::util::HashMap;
use std::collections::VecDeque;
use std::sync::Arc;

use super::compose::{Product, RestMemo, Tuple};
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
    /// With a memo: the nodes numbered by (rest tuple, varying state, property state or
    /// `u32::MAX`), and the successors of the node being expanded as (event, rest tuple,
    /// varying state).
    fids: HashMap<[u32; 3], u32>,
    fsucc: Vec<(u32, u32, StateId)>,
    /// The answer, once found.
    answer: Option<Safety>,
    /// With a memo of the other parts ([`Search::with_memo`]): tuples are `[rest tuple, state
    /// of the varying part]`.
    factored: Option<Factored<'a>>,
    /// A search made [`Search::with_memo`] without a memo to use: the parts, for the next
    /// search to compare with.
    record: Option<RestMemo>,
}

/// A search's view of the product as (rest tuple, varying part) ([`RestMemo`]).
struct Factored<'a> {
    memo: RestMemo,
    varying: &'a Dla,
    k: u32,
    /// The varying part's local event -> global event.
    global: Vec<u32>,
    /// Per global event, whether the varying part has it.
    has: Vec<bool>,
    /// The varying part's event transitions of the state being expanded: (global event, range
    /// of its transitions), by global event.
    ranges: Vec<(u32, usize, usize)>,
}

impl<'a> Search<'a> {
    /// A search of the product of `parts` (with `hidden` events internal) against `property`,
    /// that has explored nothing yet.
    pub fn new(
        parts: &[&'a Dla],
        hidden: &dyn Fn(&str) -> bool,
        property: Option<&Dla>,
    ) -> Result<Search<'a>, PropertyError> {
        Search::build(parts, hidden, property, None)
    }

    /// [`Search::new`] over `parts` that takes the steps of every part but one from `memo`
    /// (kept from an earlier search: CEGAR rounds and upgrades change one part at a time) and
    /// adds those it computes to it; [`Search::into_memo`] gives it back for the next search.
    /// A memo that does not fit these parts ([`RestMemo::fits`]) is replaced by an empty one
    /// that leaves out the one part that differs from the last search's; when none or several
    /// differ, the search is [`Search::new`]'s and the memo only records the parts. Either way
    /// the search explores the same states in the same order, and gives the same answers, as
    /// [`Search::new`].
    pub fn with_memo(
        parts: &'a [Arc<Dla>],
        hidden: &dyn Fn(&str) -> bool,
        property: Option<&Dla>,
        memo: Option<RestMemo>,
    ) -> Result<Search<'a>, PropertyError> {
        let refs: Vec<&'a Dla> = parts.iter().map(|p| &**p).collect();
        let alphabet = Product::new(refs.clone()).alphabet().to_vec();
        let (memo, record) = match memo {
            Some(mut m) if m.fits(parts, &alphabet) => {
                m.set_varying_part(&parts[m.varying()]);
                (Some(m), None)
            }
            old => {
                let differ: Vec<usize> = match &old {
                    Some(m) if m.parts().len() == parts.len() => {
                        (0..parts.len()).filter(|&i| m.parts()[i] != parts[i]).collect()
                    }
                    _ => Vec::new(),
                };
                match differ[..] {
                    [one] => (Some(RestMemo::new(parts, one, &alphabet)), None),
                    // Which part will change next is not known: a plain search, and a memo of
                    // the parts for the next search to compare with.
                    _ => (None, Some(RestMemo::new(parts, usize::MAX, &alphabet))),
                }
            }
        };
        let mut search = Search::build(&refs, hidden, property, memo)?;
        search.record = record;
        Ok(search)
    }

    /// The memo of a search made [`Search::with_memo`].
    pub fn memo(&self) -> Option<&RestMemo> {
        self.factored.as_ref().map(|f| &f.memo).or(self.record.as_ref())
    }

    /// The memo of a search made [`Search::with_memo`], with what it added.
    pub fn into_memo(self) -> Option<RestMemo> {
        self.factored.map(|f| f.memo).or(self.record)
    }

    fn build(
        parts: &[&'a Dla],
        hidden: &dyn Fn(&str) -> bool,
        property: Option<&Dla>,
        memo: Option<RestMemo>,
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
        let factored = memo.filter(|m| m.varying() < parts.len()).map(|memo| {
            let k = memo.varying();
            let varying = parts[k];
            let global: Vec<u32> = varying
                .alphabet()
                .iter()
                .map(|e| product.alphabet().binary_search(e).expect("in the union") as u32)
                .collect();
            let mut has = vec![false; product.alphabet().len()];
            for &g in &global {
                has[g as usize] = true;
            }
            Factored { memo, varying, k: k as u32, global, has, ranges: Vec::new() }
        });
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
            fids: HashMap::default(),
            fsucc: Vec::new(),
            answer: None,
            factored,
            record: None,
        };
        for t in search.product.initial() {
            let t = match &mut search.factored {
                Some(f) => {
                    let r = f.memo.rest_of(&t);
                    Box::new([StateId(r), t[f.k as usize]]) as Tuple
                }
                None => t,
            };
            let n = (t, p_init);
            if search.lookup(&n).is_none() {
                let id = search.add(n, 0, None);
                search.queue.push_back(id);
            }
        }
        Ok(search)
    }

    /// The number of a node reached before.
    fn lookup(&self, n: &Node) -> Option<u32> {
        match self.factored {
            Some(_) => self.fids.get(&key(n.0[0].0, n.0[1], n.1)).copied(),
            None => self.ids.get(n).copied(),
        }
    }

    /// Numbers a node not reached before.
    fn add(&mut self, n: Node, dist: u32, parent: Option<(u32, u32)>) -> u32 {
        let id = self.nodes.len() as u32;
        match self.factored {
            Some(_) => {
                self.fids.insert(key(n.0[0].0, n.0[1], n.1), id);
            }
            None => {
                self.ids.insert(n.clone(), id);
            }
        }
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
                self.is_error(tuple) || matches!((&self.p_err, pstate), (Some(p), Some(q)) if p.is_error(*q));
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
        if let Some(f) = &mut self.factored {
            let t = &self.nodes[id as usize].0;
            self.fsucc.clear();
            f.successors(&self.product, t[0].0, t[1], &mut self.fsucc);
            let mut succ = std::mem::take(&mut self.fsucc);
            for (e, r, w) in succ.drain(..) {
                let p_next = self.p_step(pstate, e);
                let found = self.fids.get(&key(r, w, p_next)).copied();
                self.reach(id, e, d + u32::from(e != TAU), found, || (Box::new([StateId(r), w]), p_next));
            }
            self.fsucc = succ;
            return;
        }
        self.succ.clear();
        self.product.successors(&self.nodes[id as usize].0, &mut self.succ);
        let mut succ = std::mem::take(&mut self.succ);
        for (e, next) in succ.drain(..) {
            let n = (next, self.p_step(pstate, e));
            let found = self.ids.get(&n).copied();
            self.reach(id, e, d + u32::from(e != TAU), found, || n);
        }
        self.succ = succ;
    }

    /// The property's state after event `e` (or τ) from `pstate`.
    fn p_step(&self, pstate: Option<StateId>, e: u32) -> Option<StateId> {
        match (pstate, &self.p_err) {
            (Some(q), Some(p)) if e != TAU => match self.p_local[e as usize] {
                None => Some(q),
                // P_err is deterministic and complete on its alphabet.
                Some(l) => p.state(q).out.iter().find(|t| t.event == l).map(|t| t.to),
            },
            (q, _) => q,
        }
    }

    /// The step from node `from` on `e` to a node at distance `nd`, numbered `found` if it
    /// was reached before: queued unless it was reached as near.
    fn reach(&mut self, from: u32, e: u32, nd: u32, found: Option<u32>, node: impl FnOnce() -> Node) {
        let to = match found {
            Some(j) if self.dist[j as usize] <= nd => return,
            Some(j) => {
                self.dist[j as usize] = nd;
                self.parent[j as usize] = Some((from, e));
                j
            }
            None => self.add(node(), nd, Some((from, e))),
        };
        if e == TAU {
            self.queue.push_front(to);
        } else {
            self.queue.push_back(to);
        }
    }

    /// Whether some part is in an error state.
    fn is_error(&self, tuple: &[StateId]) -> bool {
        match &self.factored {
            Some(f) => f.memo.is_error(tuple[0].0) || f.varying.is_error(tuple[1]),
            None => self.product.is_error(tuple),
        }
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

/// The number of a node of a search with a memo: rest tuple, varying state, property state.
fn key(r: u32, w: StateId, p: Option<StateId>) -> [u32; 3] {
    [r, w.0, p.map_or(u32::MAX, |q| q.0)]
}

impl Factored<'_> {
    /// [`Product::successors`] of (rest tuple `r`, varying state `w`), in the same order, as
    /// (event or τ, rest tuple, varying state).
    fn successors(&mut self, product: &Product, r: u32, w: StateId, out: &mut Vec<(u32, u32, StateId)>) {
        if self.memo.is_error(r) || self.varying.is_error(w) {
            return;
        }
        let k = self.k;
        self.ranges.clear();
        let out_w = &self.varying.state(w).out;
        let mut at = 0;
        while at < out_w.len() {
            let l = out_w[at].event;
            let to = at + out_w[at..].partition_point(|t| t.event == l);
            if l != TAU {
                self.ranges.push((self.global[l as usize], at, to));
            }
            at = to;
        }
        self.ranges.sort_unstable();
        self.memo.ensure_steps(r);
        // The rest's events that the varying part does not block: those it does not have, and
        // those it can take.
        let n_events = self.memo.steps(r).map_or(0, |s| s.events.len());
        for e in 0..n_events {
            let g = self.memo.steps(r).map_or(0, |s| s.events[e].0);
            if !self.has[g as usize] || self.ranges.binary_search_by(|&(h, _, _)| h.cmp(&g)).is_ok() {
                self.memo.ensure_combos(r, e);
            }
        }
        let memo = &self.memo;
        let Some(steps) = memo.steps(r) else { return };
        // τ steps in the order of the parts.
        for &(_, next) in steps.taus.iter().filter(|&&(i, _)| i < k) {
            out.push((TAU, next, w));
        }
        for t in out_w.iter().filter(|t| t.event == TAU) {
            out.push((TAU, r, t.to));
        }
        for &(_, next) in steps.taus.iter().filter(|&&(i, _)| i > k) {
            out.push((TAU, next, w));
        }
        // The events, in order: those of the rest with the varying part when it has them,
        // and those of the varying part alone when no other part has them.
        let (mut a, mut b) = (0, 0);
        let hide = |g: u32| if product.is_hidden(g) { TAU } else { g };
        loop {
            let rest = steps.events.get(a).copied();
            let own = self.ranges.get(b).copied();
            match (rest, own) {
                (None, None) => break,
                (Some((g, suffix, from, to)), Some((h, wf, wt))) if g == h => {
                    a += 1;
                    b += 1;
                    let combos = &steps.combos[from as usize..to as usize];
                    // Per choice of the parts before the varying one, its choices, then those
                    // of the parts after it.
                    for after in combos.chunks(suffix as usize) {
                        for t in &out_w[wf..wt] {
                            for &c in after {
                                out.push((hide(g), c, t.to));
                            }
                        }
                    }
                }
                (Some((g, _, from, to)), own) if own.is_none_or(|(h, _, _)| g < h) => {
                    a += 1;
                    // The varying part blocks an event of its alphabet it cannot perform.
                    if !self.has[g as usize] {
                        for &c in &steps.combos[from as usize..to as usize] {
                            out.push((hide(g), c, w));
                        }
                    }
                }
                (_, Some((h, wf, wt))) => {
                    b += 1;
                    // A part of the rest that has the event and cannot perform it blocks it.
                    if !memo.in_rest(h) {
                        for t in &out_w[wf..wt] {
                            out.push((hide(h), r, t.to));
                        }
                    }
                }
                (Some(_), None) => unreachable!("handled above"),
            }
        }
    }
}
