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
//! Known weaknesses:
//! - The budget is a count of steps ([`MAX_STEPS`]); a program without input whose run is
//!   longer, or whose cycle is longer than the budget allows Brent's method to find, costs
//!   that many steps before the other engines start.
//! - The witness of a long run keeps its first and last [`KEPT`] steps only.

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
    let succ = comp.successors();
    let mut env = NoInput { chose: false };
    let Some(mut state) = State::initial(comp, &mut env) else { return OnlyRun::Several };
    let is_head = {
        let (_, back) = crate::abs::invariant::acyclic_order(comp);
        let mut h = vec![false; comp.n_locs as usize];
        for (e, edge) in comp.edges.iter().enumerate() {
            if back[e] {
                h[edge.to.index()] = true;
            }
        }
        h
    };
    let mut head: Vec<WitnessStep> = Vec::new();
    let mut tail: VecDeque<WitnessStep> = VecDeque::new();
    // Brent: the state saved at a loop head, the visits since, and the current power of two.
    let mut saved: Option<(LocId, State)> = None;
    let (mut power, mut lambda) = (1u64, 0u64);
    let mut at = comp.entry;
    let mut steps = 0u64;
    let mut events = Vec::new();
    let finish = |head: Vec<WitnessStep>, tail: VecDeque<WitnessStep>| {
        let mut steps = head;
        steps.extend(tail);
        Witness { steps }
    };
    loop {
        if at == comp.exit {
            return OnlyRun::Safe { steps };
        }
        if steps >= max_steps {
            return OnlyRun::TooLong;
        }
        if is_head.get(at.index()).copied().unwrap_or(false) {
            if let Some((l, s)) = &saved
                && *l == at
                && *s == state
            {
                return OnlyRun::Safe { steps };
            }
            lambda += 1;
            if lambda == power || saved.is_none() {
                saved = Some((at, state.clone()));
                power = power.saturating_mul(2);
                lambda = 0;
            }
        }
        let out = succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
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
                return OnlyRun::Several;
            }
            chosen = Some(i);
        }
        // A run that blocks (an assumption fails) has ended without an error.
        let Some(chosen) = chosen else { return OnlyRun::Safe { steps } };
        let edge = &comp.edges[chosen];
        steps += 1;
        let result = interp::exec(comp, edge, &mut state, &mut env);
        let take = match result {
            Err(Outcome::Fault(_)) => Take::Fault,
            _ => Take::Normal,
        };
        let step = WitnessStep { edge: chosen, take, inputs: Vec::new() };
        if head.len() < KEPT {
            head.push(step);
        } else {
            if tail.len() == KEPT {
                tail.pop_front();
            }
            tail.push_back(step);
        }
        match result {
            Ok(Some(ev)) => {
                let error = ev.name == ERROR_EVENT;
                // The events before the error matter to no one here; a bounded number is kept.
                if events.len() < KEPT || error {
                    events.push(ev);
                }
                if error {
                    let run = interp::Run { events, outcome: Outcome::Exited, last: edge.origin.clone(), steps };
                    return OnlyRun::Error(None, finish(head, tail), run);
                }
            }
            Ok(None) => {}
            Err(Outcome::Fault(f)) => {
                let run = interp::Run { events, outcome: Outcome::Fault(f), last: edge.origin.clone(), steps };
                return OnlyRun::Error(Some(f), finish(head, tail), run);
            }
            // An input read ends the run: the component has more than one. No other way of
            // ending is expected of one step; it leaves the question open all the same.
            Err(_) => return OnlyRun::Several,
        }
        if env.chose {
            return OnlyRun::Several;
        }
        at = edge.to;
    }
}
