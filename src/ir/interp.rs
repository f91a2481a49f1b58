//! An interpreter of the IR: runs a component against an environment and records its events.
//!
//! It is the ground truth that abstractions are tested against, and it is tested itself against
//! native runs of the C sources compiled by gcc (`tests/it/gcc_agreement.rs`).
//!
//! The environment supplies every value the component does not compute: results of `nondet_*()`
//! calls, initial values of locals (havoc), values received on event families, and the choice
//! among several enabled edges (never needed for IR from C, whose branches are exclusive).

use std::collections::VecDeque;
use std::fmt;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::eval::{self, Valuation};
use super::{Component, Event, Expr, Fault, IntTy, LocId, Lvalue, Origin, Stmt, Storage, VarId, VarTy};

/// Where the values a component reads from outside come from.
pub trait Environment {
    /// A value for a `nondet_*()` call or an uninitialised variable of type `ty`; `None` when the
    /// environment has no more input.
    fn nondet(&mut self, ty: IntTy) -> Option<i128>;
    /// The value the environment sends on a receiving family; `None` when it has no more input.
    fn receive(&mut self, family: &str, ty: IntTy, range: Option<(i128, i128)>) -> Option<i128>;
    /// Picks one of `n >= 2` enabled edges.
    fn choose(&mut self, n: usize) -> usize;
}

/// Values from a list, used in order for every input; ranges of receiving families are respected
/// by reducing the value into the range.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    values: VecDeque<i128>,
}

impl Scripted {
    /// An environment that hands out `values` in order.
    pub fn new(values: impl IntoIterator<Item = i128>) -> Scripted {
        Scripted { values: values.into_iter().collect() }
    }
}

fn into_range(v: i128, range: Option<(i128, i128)>) -> i128 {
    match range {
        Some((lo, hi)) if v < lo || v > hi => lo + (v - lo).rem_euclid(hi - lo + 1),
        _ => v,
    }
}

impl Environment for Scripted {
    fn nondet(&mut self, ty: IntTy) -> Option<i128> {
        self.values.pop_front().map(|v| ty.convert(v))
    }

    fn receive(&mut self, _family: &str, ty: IntTy, range: Option<(i128, i128)>) -> Option<i128> {
        self.values.pop_front().map(|v| into_range(ty.convert(v), range))
    }

    fn choose(&mut self, _n: usize) -> usize {
        0
    }
}

/// Pseudo-random values from a seed, favouring the boundary values where C's arithmetic is
/// interesting (0, ±1, the type's limits) over uniform ones. The same seed gives the same run.
pub struct Seeded {
    rng: ChaCha8Rng,
}

impl Seeded {
    /// A random environment with a fixed seed.
    pub fn new(seed: u64) -> Seeded {
        Seeded { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    fn value(&mut self, ty: IntTy) -> i128 {
        let v = match self.rng.random_range(0..8) {
            0 => 0,
            1 => 1,
            2 => -1,
            3 => ty.min(),
            4 => ty.max(),
            5 => self.rng.random_range(-16..=16),
            _ => self.rng.random::<u64>() as i128,
        };
        ty.convert(v)
    }
}

impl Environment for Seeded {
    fn nondet(&mut self, ty: IntTy) -> Option<i128> {
        Some(self.value(ty))
    }

    fn receive(&mut self, _family: &str, ty: IntTy, range: Option<(i128, i128)>) -> Option<i128> {
        let v = self.value(ty);
        Some(into_range(v, range))
    }

    fn choose(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }
}

/// Bounds on one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Edges taken before the run stops with [`Outcome::StepLimit`].
    pub max_steps: u64,
    /// Events performed before the run stops with [`Outcome::EventLimit`].
    pub max_events: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_steps: 1_000_000, max_events: 100 }
    }
}

/// One event of a trace: `name` or `name.value`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraceEvent {
    /// The event or family name.
    pub name: String,
    /// The value, for families.
    pub value: Option<i128>,
}

impl fmt::Display for TraceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(v) => write!(f, "{}.{v}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The component reached its exit: it returned, called `abort()` or `exit()`.
    Exited,
    /// Every edge out of the current location is an assume that does not hold.
    Blocked,
    /// A check failed: the C program has undefined behaviour here.
    Fault(Fault),
    /// The environment ran out of input.
    InputExhausted,
    /// [`Limits::max_steps`] edges were taken.
    StepLimit,
    /// [`Limits::max_events`] events were performed.
    EventLimit,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Exited => f.write_str("exit"),
            Outcome::Blocked => f.write_str("blocked"),
            Outcome::Fault(k) => write!(f, "fault({})", k.keyword()),
            Outcome::InputExhausted => f.write_str("eof"),
            Outcome::StepLimit => f.write_str("step-limit"),
            Outcome::EventLimit => f.write_str("limit"),
        }
    }
}

/// The result of one run.
#[derive(Clone, Debug)]
pub struct Run {
    /// Events in the order performed.
    pub events: Vec<TraceEvent>,
    /// Why the run stopped.
    pub outcome: Outcome,
    /// Where it stopped: the last edge taken, or for a fault or block the edge that failed.
    pub last: Option<Origin>,
    /// Edges taken.
    pub steps: u64,
}

/// A valuation of a component's variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    values: Vec<Vec<i128>>,
}

impl State {
    /// The initial state: globals at their initial values, locals at values from `env`.
    /// `None` when the environment runs out of input.
    pub fn initial(comp: &Component, env: &mut dyn Environment) -> Option<State> {
        let mut values = Vec::with_capacity(comp.vars.len());
        for v in &comp.vars {
            values.push(match &v.storage {
                Storage::Global { init } => init.clone(),
                // Locals are havocked where C declares them; until then any value will do, and 0
                // spares the environment's input for the values that matter.
                Storage::Local => vec![0; v.ty.n_elems() as usize],
            });
        }
        let _ = env;
        Some(State { values })
    }

    /// The value of element `index` of `var`.
    pub fn get(&self, var: VarId, index: i128) -> Option<i128> {
        let vals = self.values.get(var.index())?;
        usize::try_from(index).ok().and_then(|i| vals.get(i)).copied()
    }

    /// Every value, variable after variable: a compact key for the state.
    pub fn flat(&self) -> Box<[i128]> {
        self.values.iter().flatten().copied().collect()
    }

    /// Sets element `index` of `var` to `value` (normal for its type); an index outside the
    /// variable changes nothing.
    pub fn set(&mut self, var: VarId, index: i128, value: i128) {
        if let Some(slot) =
            self.values.get_mut(var.index()).and_then(|v| usize::try_from(index).ok().and_then(|i| v.get_mut(i)))
        {
            *slot = value;
        }
    }
}

impl Valuation for State {
    fn read(&self, var: VarId, index: i128) -> Option<i128> {
        self.get(var, index)
    }
}

fn elem_ty(comp: &Component, v: VarId) -> IntTy {
    comp.var(v).ty.elem()
}

/// Writes `value` to `lv`, evaluated in `state`.
fn store(state: &mut State, lv: &Lvalue, value: i128) {
    match lv {
        Lvalue::Var(v) => state.set(*v, 0, value),
        Lvalue::Elem(v, idx) => {
            let i = eval::eval(idx, state);
            state.set(*v, i, value);
        }
    }
}

fn holds(e: &Expr, state: &State) -> bool {
    eval::eval(e, state) != 0
}

/// Runs `comp` from its entry until it exits, blocks, faults, runs out of input or hits a limit.
pub fn run(comp: &Component, env: &mut dyn Environment, limits: Limits) -> Run {
    run_to(comp, env, limits).0
}

/// [`run`], also returning where the run stopped: the location and the state there (the state
/// before the failing edge for a fault or a block). `None` when the initial state was not made.
pub fn run_to(comp: &Component, env: &mut dyn Environment, limits: Limits) -> (Run, Option<(LocId, State)>) {
    let succ = comp.successors();
    let mut events = Vec::new();
    let mut steps = 0u64;
    let mut last: Option<Origin> = None;
    let Some(mut state) = State::initial(comp, env) else {
        return (Run { events, outcome: Outcome::InputExhausted, last, steps }, None);
    };
    let mut at: LocId = comp.entry;
    let outcome = loop {
        if at == comp.exit {
            break Outcome::Exited;
        }
        if steps >= limits.max_steps {
            break Outcome::StepLimit;
        }
        let out = succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
        let enabled = enabled(comp, out, &state);
        let chosen = match enabled.len() {
            0 => {
                let origin = out.first().and_then(|&i| comp.edges[i].origin.clone());
                last = origin.or(last);
                break Outcome::Blocked;
            }
            1 => enabled[0],
            n => enabled[env.choose(n).min(n - 1)],
        };
        let edge = &comp.edges[chosen];
        steps += 1;
        match exec(comp, edge, &mut state, env) {
            Ok(event) => {
                if let Some(ev) = event {
                    events.push(ev);
                    if events.len() >= limits.max_events {
                        last = edge.origin.clone();
                        at = edge.to;
                        break Outcome::EventLimit;
                    }
                }
            }
            Err(outcome) => {
                last = edge.origin.clone();
                break outcome;
            }
        }
        last = edge.origin.clone();
        at = edge.to;
    };
    (Run { events, outcome, last, steps }, Some((at, state)))
}

/// The edges of `out` enabled in `state`: an assume whose condition fails is disabled; a check is
/// always enabled (its failure is a fault, not a block).
pub(crate) fn enabled(comp: &Component, out: &[usize], state: &State) -> Vec<usize> {
    out.iter().copied().filter(|&i| !matches!(&comp.edges[i].stmt, Stmt::Assume(c) if !holds(c, state))).collect()
}

/// Takes one enabled edge: the event it performs, or how the run ends on it.
pub(crate) fn exec(
    comp: &Component,
    edge: &super::Edge,
    state: &mut State,
    env: &mut dyn Environment,
) -> Result<Option<TraceEvent>, Outcome> {
    match &edge.stmt {
        Stmt::Skip | Stmt::Assume(_) => {}
        Stmt::Check(c, fault) => {
            if !holds(c, state) {
                return Err(Outcome::Fault(*fault));
            }
        }
        Stmt::Assign(lv, e) => {
            let v = eval::eval(e, state);
            store(state, lv, v);
        }
        Stmt::Havoc(lv) => {
            let ty = elem_ty(comp, lv.var());
            match (lv, comp.var(lv.var()).ty) {
                (Lvalue::Var(v), VarTy::Array(_, n)) => {
                    for i in 0..n {
                        let x = env.nondet(ty).ok_or(Outcome::InputExhausted)?;
                        state.set(*v, i as i128, x);
                    }
                }
                _ => {
                    let x = env.nondet(ty).ok_or(Outcome::InputExhausted)?;
                    store(state, lv, x);
                }
            }
        }
        Stmt::Event(ev) => {
            let (name, value) = match ev {
                Event::Plain(n) => (n, None),
                Event::Send(n, e) => (n, Some(eval::eval(e, state))),
                Event::Recv(n, lv) => {
                    let fam = comp.family(n);
                    let ty = fam.map_or(IntTy::I32, |f| f.ty);
                    let v = env.receive(n, ty, fam.and_then(|f| f.range)).ok_or(Outcome::InputExhausted)?;
                    if let Some(lv) = lv {
                        store(state, lv, v);
                    }
                    (n, Some(v))
                }
            };
            return Ok(Some(TraceEvent { name: name.clone(), value }));
        }
    }
    Ok(None)
}

/// How a silent continuation ([`continue_silently`]) stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SilentStop {
    /// The next edge performs an event (its index).
    Event(usize),
    /// The next edge reads an input (its index): what follows depends on the value.
    Input(usize),
    /// The component reached its exit.
    Exited,
    /// No edge is enabled.
    Blocked,
    /// A check failed on this edge.
    Fault(usize),
    /// The step limit was reached.
    StepLimit,
}

/// The internal steps a component takes from `(at, state)` before its next event or input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Silent {
    /// The edges taken, in order.
    pub taken: Vec<usize>,
    /// Per edge taken, the assume edges that were disabled beside it (branches not taken).
    pub not_taken: Vec<Vec<usize>>,
    /// Why it stopped.
    pub stop: SilentStop,
}

/// Follows `comp` from `(at, state)` through internal steps (assignments, branches, checks) until
/// the next event or input, the exit, a block, a fault or `max_steps`.
pub fn continue_silently(comp: &Component, at: LocId, state: &State, max_steps: usize) -> Silent {
    let succ = comp.successors();
    let mut state = state.clone();
    let mut at = at;
    let (mut taken, mut not_taken) = (Vec::new(), Vec::new());
    let mut no_input = Scripted::new([]);
    let stop = loop {
        if at == comp.exit {
            break SilentStop::Exited;
        }
        if taken.len() >= max_steps {
            break SilentStop::StepLimit;
        }
        let out = succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
        let enabled = enabled(comp, out, &state);
        let Some(&chosen) = enabled.first() else { break SilentStop::Blocked };
        match &comp.edges[chosen].stmt {
            Stmt::Event(_) => break SilentStop::Event(chosen),
            Stmt::Havoc(_) => break SilentStop::Input(chosen),
            _ => {}
        }
        if exec(comp, &comp.edges[chosen], &mut state, &mut no_input).is_err() {
            break SilentStop::Fault(chosen);
        }
        taken.push(chosen);
        not_taken.push(out.iter().copied().filter(|e| !enabled.contains(e)).collect());
        at = comp.edges[chosen].to;
    };
    Silent { taken, not_taken, stop }
}

/// Runs exactly the edges `path` from the initial state, reading inputs from `env`: the state
/// before the first edge and after each one. `None` when an edge is not enabled, a check fails
/// or the input runs out.
pub fn follow(comp: &Component, path: &[usize], env: &mut dyn Environment) -> Option<Vec<State>> {
    let mut state = State::initial(comp, env)?;
    let mut at = comp.entry;
    let mut states = vec![state.clone()];
    for &e in path {
        let edge = comp.edges.get(e)?;
        if edge.from != at || enabled(comp, &[e], &state).is_empty() {
            return None;
        }
        exec(comp, edge, &mut state, env).ok()?;
        at = edge.to;
        states.push(state.clone());
    }
    Some(states)
}
