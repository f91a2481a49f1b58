//! The doubly labelled automaton (DLA) of paper 003, Definition 2: states labelled with sets of
//! propositions, transitions labelled with events, initial and accepting states.
//!
//! Invariants:
//! - the alphabet and the propositions are sorted and free of duplicates; transitions refer to
//!   events by their index in the alphabet, or [`TAU`] for an internal step;
//! - each state's transitions are sorted by (event, target) and free of duplicates;
//! - an *error* state (the π of paper 000) is not accepting and has no transitions.
//!
//! The language (Definition 3) is the set of traces `p0 a1 p1 .. an pn` along a path from an
//! initial state to an accepting one, where `pi` is the label of the state reached by `ai`;
//! internal steps are invisible. For the common case of a prefix-closed LTS every non-error
//! state is accepting and no state has a label.

use crate::util::HashMap;
use std::collections::BTreeSet;
use std::fmt;

/// The index of the internal event τ in transitions.
pub const TAU: u32 = u32::MAX;

/// The name of τ in text and FSP.
pub const TAU_NAME: &str = "tau";

/// A state of a DLA; printed `q3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

impl StateId {
    /// The index as a `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "q{}", self.0)
    }
}

/// A set of propositions: sorted indices into [`Dla::props`].
pub type PropSet = Vec<u16>;

/// A transition: an event index (or [`TAU`]) and a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Trans {
    /// Index into [`Dla::alphabet`], or [`TAU`].
    pub event: u32,
    /// The target state.
    pub to: StateId,
}

/// What a state is besides its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An ordinary state.
    Normal {
        /// Whether it is in the accepting set F.
        accepting: bool,
    },
    /// The error state π: reaching it is a violation.
    Error,
}

/// A state: its label, kind and outgoing transitions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The propositions that hold here.
    pub label: PropSet,
    /// Normal or error.
    pub kind: Kind,
    /// Outgoing transitions, sorted.
    pub out: Vec<Trans>,
}

/// A doubly labelled automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dla {
    alphabet: Vec<String>,
    props: Vec<String>,
    states: Vec<State>,
    init: Vec<StateId>,
}

impl Dla {
    /// Feeds the whole automaton into `h`, so that equal automata, and only those (up to a
    /// BLAKE3 collision), give equal digests; lengths prefix every list.
    pub fn hash_into(&self, h: &mut blake3::Hasher) {
        let n = |h: &mut blake3::Hasher, k: usize| {
            h.update(&(k as u64).to_le_bytes());
        };
        for names in [&self.alphabet, &self.props] {
            n(h, names.len());
            for name in names {
                n(h, name.len());
                h.update(name.as_bytes());
            }
        }
        n(h, self.init.len());
        for q in &self.init {
            h.update(&q.0.to_le_bytes());
        }
        n(h, self.states.len());
        for state in &self.states {
            let kind = match state.kind {
                Kind::Normal { accepting: false } => 0u8,
                Kind::Normal { accepting: true } => 1,
                Kind::Error => 2,
            };
            h.update(&[kind]);
            n(h, state.label.len());
            for p in &state.label {
                h.update(&p.to_le_bytes());
            }
            n(h, state.out.len());
            for t in &state.out {
                h.update(&t.event.to_le_bytes());
                h.update(&t.to.0.to_le_bytes());
            }
        }
    }

    /// The alphabet Σ, sorted.
    pub fn alphabet(&self) -> &[String] {
        &self.alphabet
    }

    /// The propositions AP, sorted.
    pub fn props(&self) -> &[String] {
        &self.props
    }

    /// All states.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// One state.
    pub fn state(&self, s: StateId) -> &State {
        &self.states[s.index()]
    }

    /// The number of states.
    pub fn n_states(&self) -> usize {
        self.states.len()
    }

    /// The number of transitions.
    pub fn n_transitions(&self) -> usize {
        self.states.iter().map(|s| s.out.len()).sum()
    }

    /// The initial states.
    pub fn initial(&self) -> &[StateId] {
        &self.init
    }

    /// The index of an event in the alphabet.
    pub fn event_index(&self, name: &str) -> Option<u32> {
        self.alphabet.binary_search_by(|e| e.as_str().cmp(name)).ok().map(|i| i as u32)
    }

    /// The name of an event index (`tau` for [`TAU`]).
    pub fn event_name(&self, e: u32) -> &str {
        if e == TAU { TAU_NAME } else { &self.alphabet[e as usize] }
    }

    /// The union of automata: their disjoint copies side by side, every initial state kept.
    /// Its language is the union of theirs; its alphabet the union of theirs.
    pub fn union(parts: &[&Dla]) -> Dla {
        let mut b = Builder::new();
        for d in parts {
            for e in d.alphabet() {
                b.add_event(e);
            }
            let base = b.n_states() as u32;
            for s in d.states() {
                let names: Vec<&str> = s.label.iter().map(|&p| d.props[p as usize].as_str()).collect();
                match s.kind {
                    Kind::Error => b.add_error_state(),
                    Kind::Normal { accepting } => b.add_state(&names, accepting),
                };
            }
            for (i, s) in d.states().iter().enumerate() {
                for t in &s.out {
                    b.add_transition(StateId(base + i as u32), d.event_name(t.event), StateId(base + t.to.0));
                }
            }
            for &s in d.initial() {
                b.set_initial(StateId(base + s.0));
            }
        }
        b.build()
    }

    /// Whether a state is the error state.
    pub fn is_error(&self, s: StateId) -> bool {
        self.states[s.index()].kind == Kind::Error
    }

    /// Whether a state is accepting.
    pub fn is_accepting(&self, s: StateId) -> bool {
        matches!(self.states[s.index()].kind, Kind::Normal { accepting: true })
    }

    /// The names of a state's propositions.
    pub fn label_names(&self, s: StateId) -> Vec<&str> {
        self.states[s.index()].label.iter().map(|&p| self.props[p as usize].as_str()).collect()
    }

    /// Whether any transition is internal.
    pub fn has_tau(&self) -> bool {
        self.states.iter().any(|s| s.out.iter().any(|t| t.event == TAU))
    }

    /// Whether the automaton is deterministic in the sense of Definition 2: one initial state
    /// per label, no τ, and at most one successor per (event, successor label).
    pub fn is_deterministic(&self) -> bool {
        let mut init_labels = BTreeSet::new();
        if !self.init.iter().all(|s| init_labels.insert(&self.states[s.index()].label)) {
            return false;
        }
        self.states.iter().all(|s| {
            let mut seen = BTreeSet::new();
            s.out.iter().all(|t| t.event != TAU && seen.insert((t.event, &self.states[t.to.index()].label)))
        })
    }

    /// Whether every non-error state is accepting and no state is labelled: a plain LTS, whose
    /// language is prefix-closed.
    pub fn is_lts(&self) -> bool {
        self.states.iter().all(|s| s.label.is_empty() && s.kind != Kind::Normal { accepting: false })
    }

    /// A copy where each event is renamed to the events `rename` gives (none: the transition is
    /// dropped; several: one transition each). τ stays τ. The alphabet becomes the image of the
    /// old alphabet.
    pub fn relabel(&self, rename: &dyn Fn(&str) -> Vec<String>) -> Dla {
        let mut b = Builder::new();
        let images: Vec<Vec<String>> = self.alphabet.iter().map(|e| rename(e)).collect();
        for names in &images {
            for n in names {
                b.add_event(n);
            }
        }
        self.copy_states_into(&mut b);
        for (i, s) in self.states.iter().enumerate() {
            for t in &s.out {
                if t.event == TAU {
                    b.add_transition_ix(StateId(i as u32), TAU_NAME, t.to);
                } else {
                    for n in &images[t.event as usize] {
                        b.add_transition_ix(StateId(i as u32), n, t.to);
                    }
                }
            }
        }
        b.build()
    }

    /// A copy where the events for which `hidden` holds become τ and leave the alphabet.
    pub fn hide(&self, hidden: &dyn Fn(&str) -> bool) -> Dla {
        let mut b = Builder::new();
        for e in self.alphabet.iter().filter(|e| !hidden(e)) {
            b.add_event(e);
        }
        self.copy_states_into(&mut b);
        for (i, s) in self.states.iter().enumerate() {
            for t in &s.out {
                let name = self.event_name(t.event);
                let name = if t.event != TAU && hidden(name) { TAU_NAME } else { name };
                b.add_transition_ix(StateId(i as u32), name, t.to);
            }
        }
        b.build()
    }

    /// A copy whose alphabet also holds `events` (FSP's `+{...}`): the automaton refuses them.
    pub fn extend_alphabet(&self, events: &[String]) -> Dla {
        let mut d = self.relabel(&|e| vec![e.to_string()]);
        let mut all: BTreeSet<String> = d.alphabet.iter().cloned().collect();
        all.extend(events.iter().cloned());
        let all: Vec<String> = all.into_iter().collect();
        let map: Vec<u32> = d.alphabet.iter().map(|e| all.binary_search(e).expect("a superset") as u32).collect();
        for s in &mut d.states {
            for t in &mut s.out {
                if t.event != TAU {
                    t.event = map[t.event as usize];
                }
            }
            s.out.sort();
        }
        d.alphabet = all;
        d
    }

    /// A copy whose error states are ordinary accepting states with one step, on `event`
    /// (added to the alphabet), into a new accepting dead end, the last state: the automaton
    /// that [`Builder`] gives when the states, the step and the transitions are added to it in
    /// this order, made without looking up a name per transition.
    pub fn with_error_step(&self, event: &str) -> Dla {
        let (at, added) = match self.alphabet.binary_search_by(|e| e.as_str().cmp(event)) {
            Ok(at) => (at as u32, 0),
            Err(at) => (at as u32, 1),
        };
        let mut alphabet = self.alphabet.clone();
        if added == 1 {
            alphabet.insert(at as usize, event.to_string());
        }
        let dead = StateId(self.states.len() as u32);
        let mut states: Vec<State> = self
            .states
            .iter()
            .map(|s| match s.kind {
                // Transitions out of an error state were dropped when it was built.
                Kind::Error => State {
                    label: s.label.clone(),
                    kind: Kind::Normal { accepting: true },
                    out: vec![Trans { event: at, to: dead }],
                },
                Kind::Normal { .. } => State {
                    label: s.label.clone(),
                    kind: s.kind,
                    // The events after `event` move up by one, which keeps the order.
                    out: s
                        .out
                        .iter()
                        .map(|t| Trans {
                            event: if t.event != TAU && t.event >= at { t.event + added } else { t.event },
                            to: t.to,
                        })
                        .collect(),
                },
            })
            .collect();
        states.push(State { label: Vec::new(), kind: Kind::Normal { accepting: true }, out: Vec::new() });
        Dla { alphabet, props: self.props.clone(), states, init: self.init.clone() }
    }

    /// A copy without state labels (and without propositions).
    pub fn unlabelled(&self) -> Dla {
        let mut d = self.clone();
        d.props.clear();
        d.states.iter_mut().for_each(|s| s.label.clear());
        d
    }

    fn copy_states_into(&self, b: &mut Builder) {
        for p in &self.props {
            b.add_prop(p);
        }
        for s in &self.states {
            let label: Vec<&str> = s.label.iter().map(|&p| self.props[p as usize].as_str()).collect();
            match s.kind {
                Kind::Normal { accepting } => b.add_state(&label, accepting),
                Kind::Error => b.add_error_state(),
            };
        }
        for &i in &self.init {
            b.set_initial(i);
        }
    }
}

/// Builds a [`Dla`] from names; events and propositions are collected and sorted on
/// [`Builder::build`].
#[derive(Default)]
pub struct Builder {
    events: Vec<String>,
    event_ix: HashMap<String, u32>,
    props: Vec<String>,
    prop_ix: HashMap<String, u16>,
    states: Vec<(Vec<u16>, Kind)>,
    trans: Vec<(StateId, u32, StateId)>,
    init: Vec<StateId>,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    fn event(&mut self, name: &str) -> u32 {
        if name == TAU_NAME {
            return TAU;
        }
        if let Some(&i) = self.event_ix.get(name) {
            return i;
        }
        self.events.push(name.to_string());
        let i = self.events.len() as u32 - 1;
        self.event_ix.insert(name.to_string(), i);
        i
    }

    /// Adds an event to the alphabet (transitions add theirs automatically).
    pub fn add_event(&mut self, name: &str) {
        self.event(name);
    }

    /// Adds a proposition to AP (labels add theirs automatically).
    pub fn add_prop(&mut self, name: &str) -> u16 {
        if let Some(&i) = self.prop_ix.get(name) {
            return i;
        }
        self.props.push(name.to_string());
        let i = (self.props.len() - 1) as u16;
        self.prop_ix.insert(name.to_string(), i);
        i
    }

    /// Adds a normal state with the given propositions.
    pub fn add_state(&mut self, label: &[&str], accepting: bool) -> StateId {
        let mut l: Vec<u16> = label.iter().map(|p| self.add_prop(p)).collect();
        l.sort();
        l.dedup();
        self.states.push((l, Kind::Normal { accepting }));
        StateId(self.states.len() as u32 - 1)
    }

    /// Adds an error state π.
    pub fn add_error_state(&mut self) -> StateId {
        self.states.push((Vec::new(), Kind::Error));
        StateId(self.states.len() as u32 - 1)
    }

    /// The number of states added so far.
    pub fn n_states(&self) -> usize {
        self.states.len()
    }

    /// Adds a transition; the event `tau` is internal.
    pub fn add_transition(&mut self, from: StateId, event: &str, to: StateId) {
        self.add_transition_ix(from, event, to);
    }

    /// Adds a transition on the `event`-th event added ([`Builder::add_event`] or a
    /// transition), without looking its name up; an index not yet added is ignored.
    pub fn add_transition_by_index(&mut self, from: StateId, event: u32, to: StateId) {
        if (event as usize) < self.events.len() {
            self.trans.push((from, event, to));
        }
    }

    fn add_transition_ix(&mut self, from: StateId, event: &str, to: StateId) {
        let e = self.event(event);
        self.trans.push((from, e, to));
    }

    /// Marks a state initial.
    pub fn set_initial(&mut self, s: StateId) {
        if !self.init.contains(&s) {
            self.init.push(s);
        }
    }

    /// The automaton. Transitions out of error states are dropped (π is a trap).
    pub fn build(self) -> Dla {
        let mut order: Vec<u32> = (0..self.events.len() as u32).collect();
        order.sort_by(|&a, &b| self.events[a as usize].cmp(&self.events[b as usize]));
        let mut event_map = vec![0u32; self.events.len()];
        for (new, &old) in order.iter().enumerate() {
            event_map[old as usize] = new as u32;
        }
        let alphabet: Vec<String> = order.iter().map(|&i| self.events[i as usize].clone()).collect();
        let mut porder: Vec<u16> = (0..self.props.len() as u16).collect();
        porder.sort_by(|&a, &b| self.props[a as usize].cmp(&self.props[b as usize]));
        let mut prop_map = vec![0u16; self.props.len()];
        for (new, &old) in porder.iter().enumerate() {
            prop_map[old as usize] = new as u16;
        }
        let props: Vec<String> = porder.iter().map(|&i| self.props[i as usize].clone()).collect();
        let mut states: Vec<State> = self
            .states
            .into_iter()
            .map(|(l, kind)| {
                let mut label: Vec<u16> = l.iter().map(|&p| prop_map[p as usize]).collect();
                label.sort();
                State { label, kind, out: Vec::new() }
            })
            .collect();
        for (from, e, to) in self.trans {
            if states[from.index()].kind == Kind::Error {
                continue;
            }
            let event = if e == TAU { TAU } else { event_map[e as usize] };
            states[from.index()].out.push(Trans { event, to });
        }
        for s in &mut states {
            s.out.sort();
            s.out.dedup();
        }
        let mut init = self.init;
        init.sort();
        Dla { alphabet, props, states, init }
    }
}

impl fmt::Display for Dla {
    /// A line per transition, FSP-like: `q0 -input-> q1`, with labels and marks on states.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let init: Vec<String> = self.init.iter().map(|s| s.to_string()).collect();
        writeln!(f, "states {}  initial {}", self.states.len(), init.join(" "))?;
        writeln!(f, "alphabet {{{}}}", self.alphabet.join(", "))?;
        for (i, s) in self.states.iter().enumerate() {
            let id = StateId(i as u32);
            let mut marks = Vec::new();
            if s.kind == Kind::Error {
                marks.push("error".to_string());
            } else if !self.is_accepting(id) {
                marks.push("rejecting".to_string());
            }
            if !s.label.is_empty() {
                marks.push(format!("[{}]", self.label_names(id).join(", ")));
            }
            if !marks.is_empty() {
                writeln!(f, "{id}: {}", marks.join(" "))?;
            }
            for t in &s.out {
                writeln!(f, "{id} -{}-> {}", self.event_name(t.event), t.to)?;
            }
        }
        Ok(())
    }
}

/// A trace of a DLA (Definition 1): the label of the first state, then each visible event with
/// the label of the state it reaches.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trace {
    /// Propositions true at the start.
    pub start: Vec<String>,
    /// Each event with the propositions true after it.
    pub steps: Vec<(String, Vec<String>)>,
}

impl Trace {
    /// The events alone.
    pub fn events(&self) -> Vec<&str> {
        self.steps.iter().map(|(e, _)| e.as_str()).collect()
    }

    /// A trace of events without propositions.
    pub fn of_events(events: &[&str]) -> Trace {
        Trace { start: Vec::new(), steps: events.iter().map(|e| (e.to_string(), Vec::new())).collect() }
    }
}

impl fmt::Display for Trace {
    /// Events separated by spaces; labels in brackets when any state has one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let labelled = !self.start.is_empty() || self.steps.iter().any(|(_, l)| !l.is_empty());
        let mut parts: Vec<String> = Vec::new();
        if labelled {
            parts.push(format!("[{}]", self.start.join(",")));
        }
        for (e, l) in &self.steps {
            parts.push(e.clone());
            if labelled {
                parts.push(format!("[{}]", l.join(",")));
            }
        }
        if parts.is_empty() { f.write_str("<empty>") } else { f.write_str(&parts.join(" ")) }
    }
}

impl Dla {
    /// The states reachable from `set` by τ steps (including `set`), sorted.
    pub fn tau_closure(&self, set: &[StateId]) -> Vec<StateId> {
        let mut out: Vec<StateId> = set.to_vec();
        let mut stack: Vec<StateId> = set.to_vec();
        let mut seen: crate::util::HashSet<StateId> = set.iter().copied().collect();
        while let Some(s) = stack.pop() {
            for t in &self.states[s.index()].out {
                if t.event == TAU && seen.insert(t.to) {
                    out.push(t.to);
                    stack.push(t.to);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The names of a label.
    pub fn label_of(&self, label: &[u16]) -> Vec<String> {
        label.iter().map(|&p| self.props[p as usize].clone()).collect()
    }

    /// Whether the automaton accepts `trace` (brute force over its states; for tests and
    /// validation, not for speed).
    pub fn accepts(&self, trace: &Trace) -> bool {
        let label_ok =
            |s: StateId, names: &[String]| self.label_names(s) == names.iter().map(String::as_str).collect::<Vec<_>>();
        let start: Vec<StateId> = self.init.iter().copied().filter(|&s| label_ok(s, &trace.start)).collect();
        let mut current = self.tau_closure(&start);
        for (e, l) in &trace.steps {
            let Some(ix) = self.event_index(e) else { return false };
            let next: Vec<StateId> = current
                .iter()
                .flat_map(|&s| self.states[s.index()].out.iter().filter(|t| t.event == ix).map(|t| t.to))
                .filter(|&t| label_ok(t, l))
                .collect();
            current = self.tau_closure(&next);
        }
        current.iter().any(|&s| self.is_accepting(s))
    }
}
