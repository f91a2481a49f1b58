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
//! Known weakness: the search is explicit; its memory grows with the reachable product.

use crate::util::{HashMap, HashSet};
use std::collections::VecDeque;

use super::compose::{Product, Tuple};
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
    dist: Distances,
    queue: VecDeque<Node>,
    done: HashSet<Node>,
    /// The state explored last, when the bound stopped the search before its successors.
    pending: Option<Node>,
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
        let mut dist: Distances = HashMap::default();
        let mut queue: VecDeque<Node> = VecDeque::new();
        let p_init = p_err.as_ref().map(|p| p.initial()[0]);
        for t in product.initial() {
            let n = (t, p_init);
            if dist.insert(n.clone(), (0, None)).is_none() {
                queue.push_back(n);
            }
        }
        Ok(Search {
            product,
            p_err,
            p_local,
            dist,
            queue,
            done: HashSet::default(),
            pending: None,
            succ: Vec::new(),
            answer: None,
        })
    }

    /// Product states explored so far.
    pub fn explored(&self) -> usize {
        self.done.len()
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
        if let Some(node) = self.pending.take() {
            if self.done.len() >= max_states {
                self.pending = Some(node);
                return None;
            }
            self.expand(&node);
        }
        // 0-1 breadth-first search: τ steps cost nothing, so nodes leave the queue in the order of
        // their distance in visible events, and a node is final when it first leaves.
        while let Some(node) = self.queue.pop_front() {
            if !self.done.insert(node.clone()) {
                continue;
            }
            let (tuple, pstate) = &node;
            let in_error =
                self.product.is_error(tuple) || matches!((&self.p_err, pstate), (Some(p), Some(q)) if p.is_error(*q));
            if in_error {
                let trace = trace_to(&self.dist, &node, &self.product);
                return Some(Safety::Violated { trace, states: self.done.len() });
            }
            if self.done.len() >= max_states {
                // Explored but not expanded: the next call expands it first.
                self.pending = Some(node);
                return None;
            }
            self.expand(&node);
        }
        Some(Safety::Holds { states: self.done.len() })
    }

    /// Queues the successors of `node` that this search has not reached as near.
    fn expand(&mut self, node: &Node) {
        let d = self.dist[node].0;
        let (tuple, pstate) = node;
        self.succ.clear();
        self.product.successors(tuple, &mut self.succ);
        for (e, next) in self.succ.drain(..) {
            let p_next = match (pstate, &self.p_err) {
                (Some(q), Some(p)) if e != TAU => match self.p_local[e as usize] {
                    None => Some(*q),
                    // P_err is deterministic and complete on its alphabet.
                    Some(l) => p.state(*q).out.iter().find(|t| t.event == l).map(|t| t.to),
                },
                (q, _) => *q,
            };
            let n = (next, p_next);
            let nd = d + u32::from(e != TAU);
            if self.dist.get(&n).is_some_and(|(old, _)| *old <= nd) {
                continue;
            }
            self.dist.insert(n.clone(), (nd, Some((node.clone(), e))));
            if e == TAU {
                self.queue.push_front(n);
            } else {
                self.queue.push_back(n);
            }
        }
    }
}

type Node = (Tuple, Option<StateId>);

/// For each node reached: its distance in visible events and the step it was reached by.
type Distances = HashMap<Node, (u32, Option<(Node, u32)>)>;

fn trace_to(dist: &Distances, node: &Node, product: &Product) -> Vec<String> {
    let mut events = Vec::new();
    let mut at = node.clone();
    while let Some((_, Some((prev, e)))) = dist.get(&at) {
        if *e != TAU {
            events.push(product.alphabet()[*e as usize].clone());
        }
        at = prev.clone();
    }
    events.reverse();
    events
}
