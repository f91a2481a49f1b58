//! An explicit-state under-approximation of a component, for the `M'` of containment.
//!
//! The interpreter is run from the initial state along every enabled edge, breadth first, and
//! every concrete state `(location, valuation)` it reaches becomes a state of the graph. Values
//! from outside are enumerated: a received value of a ranged family takes every value of its
//! range (when the range is small, else the sample values in it and its bounds), and a
//! `nondet_*()` result or uninitialised local takes each of a set of *sample values*. Every path
//! of the graph is therefore a run of the component, so its traces are a subset of the
//! component's: an under-approximation, like the must-abstraction of paper 003 Section 4, and
//! usable in its place in the check `L(M) ⊆ L(M') ∪ ...`.
//!
//! It is exact when the component reads no `nondet_*()` value that matters beyond the samples,
//! which is the common case for protocol components whose inputs are ranged events; a run that
//! Validation 2 finds and the graph lacks has inputs outside the samples, and adding them
//! ([`Explicit::learn`]) is the refinement. The exploration gives up beyond a number of states or
//! about [`DEFAULT_MEMORY`] bytes of graph, and containment then falls back to the
//! must-abstraction; it stops at the run's deadline (`--timeout`).
//!
//! The graph is an [`Arg`] whose states stand for concrete states (their [`AState`] carries the
//! location only), so the containment loop treats it like an abstract graph: events, error
//! events and τ steps are labelled the same way.

use crate::util::HashMap;
use std::collections::{BTreeSet, VecDeque};

use super::{AEdge, AState, Arg, ErrorKind, Label};
use crate::abs::refine::Witness;
use crate::deadline::Deadline;
use crate::front::ERROR_EVENT;
use crate::ir::interp::{self, Scripted, State};
use crate::ir::{Component, Event, LocId, Stmt, VarTy};
use crate::smt::Take;

/// Ranges up to this many values are enumerated completely.
const FULL_RANGE: i128 = 256;

/// The explorer of one component and its sample values.
pub struct Explicit<'a> {
    comp: &'a Component,
    samples: BTreeSet<i128>,
    limit: usize,
    memory: usize,
    deadline: Deadline,
}

/// Why the exploration stopped before the graph was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It reached this many states, over the limit.
    TooManyStates(usize),
    /// Its graph reached about this many bytes, over the memory bound.
    Memory(usize),
    /// The run's deadline passed.
    Deadline,
}

/// The memory bound of one exploration when none is given: 1 GiB.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// States explored between two looks at the clock.
const CLOCK_EVERY: usize = 1024;

impl<'a> Explicit<'a> {
    /// An explorer of `comp` with the sample values 0 and 1, stopping beyond `limit` states.
    pub fn new(comp: &'a Component, limit: usize) -> Explicit<'a> {
        Explicit { comp, samples: BTreeSet::from([0, 1]), limit, memory: DEFAULT_MEMORY, deadline: Deadline::none() }
    }

    /// The same explorer, stopping when its graph takes about `memory` bytes or at `deadline`.
    pub fn with_bounds(mut self, memory: usize, deadline: Deadline) -> Explicit<'a> {
        self.memory = memory;
        self.deadline = deadline;
        self
    }

    /// Adds the inputs of `run`, a run of the component, to the samples; how many were new.
    pub fn learn(&mut self, run: &Witness) -> usize {
        run.inputs().into_iter().filter(|&v| self.samples.insert(v)).count()
    }

    /// The sample values.
    pub fn samples(&self) -> &BTreeSet<i128> {
        &self.samples
    }

    /// The values a receive on a family with `range` is explored with.
    fn received(&self, range: Option<(i128, i128)>) -> Vec<i128> {
        match range {
            Some((lo, hi)) if hi - lo < FULL_RANGE => (lo..=hi).collect(),
            Some((lo, hi)) => {
                let mut v: BTreeSet<i128> = self.samples.iter().copied().filter(|x| (lo..=hi).contains(x)).collect();
                v.extend([lo, hi]);
                v.into_iter().collect()
            }
            None => self.samples.iter().copied().collect(),
        }
    }

    /// Explores the component.
    pub fn build(&self) -> Result<Arg, Stop> {
        let comp = self.comp;
        let succ = comp.successors();
        let mut g = Graph { keep: !super::labels::props(comp).is_empty(), ..Graph::default() };
        let init = State::initial(comp, &mut Scripted::new([])).expect("initial states need no input");
        let root = g.state(comp.entry, init);
        while let Some((s, at, state)) = g.work.pop_front() {
            if g.states.len() > self.limit {
                return Err(Stop::TooManyStates(g.states.len()));
            }
            if g.bytes > self.memory {
                return Err(Stop::Memory(g.bytes));
            }
            if s % CLOCK_EVERY == 0 && self.deadline.passed() {
                // The run ends: freeing millions of states (and the allocator's work after it)
                // took over a second past the deadline, so the graph is left to the process's
                // exit.
                std::mem::forget(g);
                return Err(Stop::Deadline);
            }
            for &e in succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]) {
                if interp::enabled(comp, &[e], &state).is_empty() {
                    continue;
                }
                for (take, label, next) in self.step(e, &state) {
                    let to = match next {
                        Some(st) => g.state(comp.edges[e].to, st),
                        None => g.error(),
                    };
                    g.out[s].push(AEdge { edge: e, take, label, to, block: None });
                    g.bytes += std::mem::size_of::<AEdge>();
                }
            }
        }
        // The label of each concrete state: the valuation whose condition it satisfies.
        let vals = super::labels::valuations(comp);
        let label_of = |i: usize| {
            let state = g.concrete.get(i)?.as_ref()?;
            vals.iter().position(|(e, _, _)| !interp::enabled(comp, &[*e], state).is_empty()).map(|v| v as u32)
        };
        let (labels, label_texts, labelled_events) =
            super::label_states(comp, &g.states, &mut g.out, &|i, _| label_of(i));
        let letters = super::labels::letter_names(comp);
        Ok(Arg { states: g.states, out: g.out, initial: vec![root], labels, label_texts, labelled_events, letters })
    }

    /// The ways edge `e` can be taken from `state`: how, its label, and the state after it
    /// (`None`: the error state).
    fn step(&self, e: usize, state: &State) -> Vec<(Take, Label, Option<State>)> {
        let comp = self.comp;
        let edge = &comp.edges[e];
        let run = |inputs: Vec<i128>| {
            let mut next = state.clone();
            let r = interp::exec(comp, edge, &mut next, &mut Scripted::new(inputs));
            (r, next)
        };
        let range_of = |n: &str| comp.family(n).and_then(|f| f.range);
        match &edge.stmt {
            Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT => {
                vec![(Take::Normal, Label::Error(ErrorKind::Reach), None)]
            }
            Stmt::Check(_, fault) => match run(Vec::new()) {
                (Ok(_), next) => vec![(Take::Normal, Label::Tau, Some(next))],
                (Err(_), _) => vec![(Take::Fault, Label::Error(ErrorKind::Fault(*fault)), None)],
            },
            Stmt::Havoc(lv) => {
                let var = comp.var(lv.var());
                let n = match (lv, var.ty) {
                    (crate::ir::Lvalue::Var(_), VarTy::Array(_, n)) => n as usize,
                    _ => 1,
                };
                let ty = var.ty.elem();
                let values: BTreeSet<i128> = self.samples.iter().map(|&v| ty.convert(v)).collect();
                values
                    .into_iter()
                    .filter_map(|v| match run(vec![v; n]) {
                        (Ok(_), next) => Some((Take::Normal, Label::Tau, Some(next))),
                        _ => None,
                    })
                    .collect()
            }
            Stmt::Event(Event::Send(n, _)) => match (run(Vec::new()), range_of(n)) {
                ((Ok(Some(ev)), next), Some((lo, hi))) => match ev.value {
                    // A value outside the family's range is no event of the alphabet; the
                    // abstractions block it the same way.
                    Some(v) if (lo..=hi).contains(&v) => {
                        vec![(Take::Value(v), Label::Event(format!("{n}.{v}")), Some(next))]
                    }
                    _ => Vec::new(),
                },
                ((Ok(_), next), None) => vec![(Take::Silent, Label::Event(n.clone()), Some(next))],
                _ => Vec::new(),
            },
            Stmt::Event(Event::Recv(n, _)) => {
                let range = range_of(n);
                self.received(range)
                    .into_iter()
                    .filter_map(|v| match (run(vec![v]), range) {
                        ((Ok(Some(ev)), next), Some(_)) => {
                            let v = ev.value?;
                            Some((Take::Value(v), Label::Event(format!("{n}.{v}")), Some(next)))
                        }
                        ((Ok(_), next), None) => Some((Take::Silent, Label::Event(n.clone()), Some(next))),
                        _ => None,
                    })
                    .collect()
            }
            Stmt::Event(Event::Plain(n)) => match run(Vec::new()) {
                (Ok(_), next) => vec![(Take::Silent, Label::Event(n.clone()), Some(next))],
                _ => Vec::new(),
            },
            Stmt::Skip | Stmt::Assume(_) | Stmt::Assign(..) => match run(Vec::new()) {
                (Ok(_), next) => vec![(Take::Normal, Label::Tau, Some(next))],
                (Err(_), _) => Vec::new(),
            },
        }
    }
}

/// The graph under construction.
#[derive(Default)]
struct Graph {
    states: Vec<AState>,
    out: Vec<Vec<AEdge>>,
    /// The state of each concrete state met, keyed by its location and values.
    ids: HashMap<(LocId, Box<[i128]>), usize>,
    error: Option<usize>,
    /// States to expand.
    work: VecDeque<(usize, LocId, State)>,
    /// An estimate of the memory the graph takes, in bytes.
    bytes: usize,
    /// Each state's concrete state, kept only when the component has propositions.
    concrete: Vec<Option<State>>,
    /// Whether to keep them.
    keep: bool,
}

impl Graph {
    fn state(&mut self, at: LocId, state: State) -> usize {
        let key = (at, state.flat());
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        // The key, the queued state (about as large) and the bookkeeping of both.
        self.bytes += 2 * key.1.len() * std::mem::size_of::<i128>() + 160;
        let id = self.states.len();
        self.states.push(AState::At(at, Vec::new()));
        self.out.push(Vec::new());
        self.concrete.push(self.keep.then(|| state.clone()));
        self.work.push_back((id, at, state));
        self.ids.insert(key, id);
        id
    }

    fn error(&mut self) -> usize {
        if let Some(id) = self.error {
            return id;
        }
        let id = self.states.len();
        self.states.push(AState::Error);
        self.out.push(Vec::new());
        self.concrete.push(None);
        self.error = Some(id);
        id
    }
}
