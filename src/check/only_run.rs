//! The only run of a component that reads no input, executed by the interpreter.
//!
//! A program that reads no input (no `nondet` call, no uninitialised local, no receive) and
//! makes no choice has exactly one run. Executing it decides `verify` both ways, with no
//! abstraction at all: the run reaches an error (a real bug, whatever its depth: SV-COMP's
//! `loop-acceleration/simple_false-unreach-call1` reaches it after 2^27 iterations, which no
//! unrolling or refinement reaches), or it ends without one (every reachable state was
//! visited), or it comes back to a state it was in at a loop head (Brent's cycle detection,
//! *An improved Monte Carlo factorization algorithm*, BIT 1980: the run repeats forever, and
//! every state it will ever be in has been seen). Only a run longer than the step budget
//! stays undecided.
//!
//! The execution is the interpreter's own semantics ([`crate::ir::interp`]'s `exec`, the
//! function every replay uses, and its rule for enabled edges), without the per-step
//! bookkeeping of [`crate::ir::interp::run`] (a list of enabled edges and the source origin of
//! every step), so that 2^28 steps take seconds rather than minutes.
//!
//! `subst verify` runs a short slice ([`SHORT_STEPS`]) before anything symbolic, then gives the
//! [`Runner`] a turn before each round of CEGAR, with slices that double (2^20, 2^21, ...), and
//! the rest of the budget if CEGAR gives up first: a long safe loop that CEGAR proves in a few
//! rounds (`loop-acceleration/phases_true-unreach-call1`, 2.8 s) is not held up by a run of
//! 2^28 steps, and a deep bug is still found (`simple_false1`: 8.7 s of CPU on this machine,
//! about 20 M steps a second).
//!
//! Known weaknesses:
//! - The budget is a count of steps ([`MAX_STEPS`]); a run longer than that, or a cycle longer
//!   than Brent's method finds within it, stays undecided by this engine.
//! - The witness of a long run keeps its first and last [`KEPT`] steps only, and the text
//!   report's "... N more steps ..." then counts the statements left out of those, not of
//!   the whole run.

use std::collections::VecDeque;

use crate::abs::refine::{Witness, WitnessStep};
use crate::front::ERROR_EVENT;
use crate::ir::interp::{self, Environment, Outcome, State};
use crate::ir::{Component, Fault, IntTy, LocId, Stmt};
use crate::smt::Take;

/// Steps of the only run before it is given up: about 2^30.
pub const MAX_STEPS: u64 = 1 << 30;
/// Steps of the first, short try, before the invariants are looked for.
pub const SHORT_STEPS: u64 = 1 << 16;
/// Steps between two looks at the clock (about a millisecond of the interpreter).
const CLOCK_STEPS: u64 = 1 << 14;
/// Steps kept at each end of a long run's witness.
pub const KEPT: usize = 1000;

/// What the only run shows.
#[derive(Debug)]
pub enum OnlyRun {
    /// The component reads an input or makes a choice: it has more than one run.
    Several,
    /// The run ends, or repeats forever, without an error: no error is reachable.
    Safe {
        /// Steps taken.
        steps: u64,
    },
    /// The run reaches an error: how, a witness (its first and last steps when long) and
    /// the interpreter's run.
    Error(Option<Fault>, Witness, interp::Run),
    /// The run is longer than [`MAX_STEPS`].
    TooLong,
}

/// An environment with no input: it ends the run at the first read, and notes a choice.
struct NoInput {
    chose: bool,
}

impl Environment for NoInput {
    fn nondet(&mut self, _ty: IntTy) -> Option<i128> {
        None
    }

    fn receive(&mut self, _family: &str, _ty: IntTy, _range: Option<(i128, i128)>) -> Option<i128> {
        None
    }

    fn choose(&mut self, _n: usize) -> usize {
        self.chose = true;
        0
    }
}

/// Runs `comp`'s only run for at most `max_steps` steps (see the module doc).
pub fn only_run(comp: &Component, max_steps: u64) -> OnlyRun {
    let mut runner = Runner::new(comp);
    runner.advance(comp, max_steps).unwrap_or(OnlyRun::TooLong)
}

/// The only run, executed a slice at a time (so that other engines can take turns with it).
pub struct Runner {
    succ: Vec<Vec<usize>>,
    is_head: Vec<bool>,
    env: NoInput,
    /// The state, or `None` when the initial state needed an input.
    state: Option<State>,
    at: LocId,
    steps: u64,
    head: Vec<WitnessStep>,
    tail: VecDeque<WitnessStep>,
    events: Vec<crate::ir::interp::TraceEvent>,
    // Brent: the state saved at a loop head, the visits since, and the current power of two.
    saved: Option<(LocId, State)>,
    power: u64,
    lambda: u64,
    /// Whether the run has ended (what it showed was returned by [`Runner::advance`]).
    pub ended: bool,
    /// `--timeout`: a slice looks at the clock every [`CLOCK_STEPS`] steps.
    deadline: crate::deadline::Deadline,
}

impl Runner {
    /// The run of `comp`, not started yet.
    pub fn new(comp: &Component) -> Runner {
        let mut env = NoInput { chose: false };
        let state = State::initial(comp, &mut env);
        let (_, back) = crate::abs::invariant::acyclic_order(comp);
        let mut is_head = vec![false; comp.n_locs as usize];
        for (e, edge) in comp.edges.iter().enumerate() {
            if back[e] {
                is_head[edge.to.index()] = true;
            }
        }
        Runner {
            succ: comp.successors(),
            is_head,
            env,
            state,
            at: comp.entry,
            steps: 0,
            head: Vec::new(),
            tail: VecDeque::new(),
            events: Vec::new(),
            saved: None,
            power: 1,
            lambda: 0,
            ended: false,
            deadline: crate::deadline::Deadline::none(),
        }
    }

    /// The same runner, which stops a slice early (undecided) once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: crate::deadline::Deadline) -> Runner {
        self.deadline = deadline;
        self
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    fn witness(&mut self) -> Witness {
        let mut steps = std::mem::take(&mut self.head);
        steps.extend(std::mem::take(&mut self.tail));
        Witness { steps }
    }

    /// Runs at most `slice` more steps: `None` when the run goes on, else what it shows (after
    /// which the runner has ended).
    pub fn advance(&mut self, comp: &Component, slice: u64) -> Option<OnlyRun> {
        let r = self.advance_(comp, slice);
        if r.is_some() {
            self.ended = true;
        }
        r
    }

    fn advance_(&mut self, comp: &Component, slice: u64) -> Option<OnlyRun> {
        if self.ended {
            return Some(OnlyRun::Several);
        }
        let Some(mut state) = self.state.take() else { return Some(OnlyRun::Several) };
        let stop = self.steps.saturating_add(slice);
        loop {
            let at = self.at;
            if at == comp.exit {
                return Some(OnlyRun::Safe { steps: self.steps });
            }
            if self.steps >= stop || (self.steps.is_multiple_of(CLOCK_STEPS) && self.deadline.passed()) {
                self.state = Some(state);
                return None;
            }
            if self.is_head.get(at.index()).copied().unwrap_or(false) {
                if let Some((l, s)) = &self.saved
                    && *l == at
                    && *s == state
                {
                    return Some(OnlyRun::Safe { steps: self.steps });
                }
                self.lambda += 1;
                if self.lambda == self.power || self.saved.is_none() {
                    self.saved = Some((at, state.clone()));
                    self.power = self.power.saturating_mul(2);
                    self.lambda = 0;
                }
            }
            let out = self.succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
            // The enabled edges, as `interp::enabled` finds them (an assumption whose condition
            // is false is disabled), without collecting them: this loop runs 2^28 times.
            let mut chosen = None;
            for &i in out {
                if let Stmt::Assume(c) = &comp.edges[i].stmt
                    && crate::ir::eval::eval(c, &state) == 0
                {
                    continue;
                }
                if chosen.is_some() {
                    return Some(OnlyRun::Several);
                }
                chosen = Some(i);
            }
            // A run that blocks (an assumption fails) has ended without an error.
            let Some(chosen) = chosen else { return Some(OnlyRun::Safe { steps: self.steps }) };
            let edge = &comp.edges[chosen];
            self.steps += 1;
            let result = interp::exec(comp, edge, &mut state, &mut self.env);
            let take = match result {
                Err(Outcome::Fault(_)) => Take::Fault,
                _ => Take::Normal,
            };
            let step = WitnessStep { edge: chosen, take, inputs: Vec::new() };
            if self.head.len() < KEPT {
                self.head.push(step);
            } else {
                if self.tail.len() == KEPT {
                    self.tail.pop_front();
                }
                self.tail.push_back(step);
            }
            match result {
                Ok(Some(ev)) => {
                    let error = ev.name == ERROR_EVENT;
                    // The events before the error matter to no one here; a bounded number is kept.
                    if self.events.len() < KEPT || error {
                        self.events.push(ev);
                    }
                    if error {
                        let events = std::mem::take(&mut self.events);
                        let run = interp::Run {
                            events,
                            outcome: Outcome::Exited,
                            last: edge.origin.clone(),
                            steps: self.steps,
                        };
                        return Some(OnlyRun::Error(None, self.witness(), run));
                    }
                }
                Ok(None) => {}
                Err(Outcome::Fault(f)) => {
                    let events = std::mem::take(&mut self.events);
                    let run = interp::Run {
                        events,
                        outcome: Outcome::Fault(f),
                        last: edge.origin.clone(),
                        steps: self.steps,
                    };
                    return Some(OnlyRun::Error(Some(f), self.witness(), run));
                }
                // An input read ends the run: the component has more than one. No other way of
                // ending is expected of one step; it leaves the question open all the same.
                Err(_) => return Some(OnlyRun::Several),
            }
            if self.env.chose {
                return Some(OnlyRun::Several);
            }
            self.at = edge.to;
        }
    }
}
