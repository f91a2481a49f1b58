//! The only run of a component that reads no input, executed by the interpreter.
//!
//! A program whose run never reads an undefined value (an uninitialised local, or what a
//! `nondet` call returned) before writing it, receives nothing and makes no choice has exactly
//! one run: every value it reads is determined. The runner keeps the cells that a havoc left
//! undefined (`Undefined`), gives them 0, clears a cell when it is written and answers
//! [`OnlyRun::Several`] at the first read of one, so `int a[4];` filled by a loop, or an
//! input that is never used, does not turn the engine off. Executing it decides `verify` both ways, with no
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
//! **Loop acceleration** (the closed form of a loop whose body is a translation, as in
//! Boigelot, *Symbolic methods for exploring infinite state spaces*, PhD thesis, Liège 1998;
//! here for one concrete run and one path at a time). At a loop head, once the witness holds its
//! first [`KEPT`] steps, `accelerate` executes one iteration on a copy of the state and reads
//! its path symbolically: when every assignment on it is a linear term and every branch a
//! comparison of linear terms, and the iteration moves each variable it reads by a constant
//! (`x += 2` until a bound; the copies of a called function's parameters ride along), the values
//! of iteration `j` are linear in `j`. The number of further iterations that keep every branch
//! and keep every intermediate value inside its type (so that no wrap-around happens) is then
//! solved for exactly, and all but the last are skipped. The state reached is the one the
//! interpreter would reach; a wrap-around ends one skip, the interpreter takes that iteration,
//! and the next skip starts after it. `simple_false1` (2^27 iterations) takes 1.5 s instead of
//! 43 s; `functions_false1` (`x = f(x)`) was not decided in 60 s and takes 1.9 s (debug builds,
//! loaded machine). The step budget counts executed steps; skipped ones cost nothing.
//!
//! Undefined cells are part of the state that Brent's method compares (the same values with
//! another cell undefined is another state: reading it would start other runs), and an
//! iteration that reads or writes a variable with an undefined cell is not accelerated.
//!
//! Known weaknesses:
//! - The budget is a count of steps ([`MAX_STEPS`]); a run longer than that, or a cycle longer
//!   than Brent's method finds within it, stays undecided by this engine.
//! - Acceleration takes only loops whose one path moves variables by constants: no loop that
//!   doubles a value, reads an array or performs an event is skipped.
//! - A read of an undefined cell is looked for syntactically in each edge's expressions (an
//!   operand of `&&` or `?:` that is not evaluated counts too, and so does `x - x`): such a
//!   program counts as having several runs, which leaves it to the other engines.
//! - The witness of a long run keeps its first and last [`KEPT`] steps only, and the text
//!   report's "... N more steps ..." then counts the statements left out of those, not of
//!   the whole run.

use std::collections::VecDeque;

use crate::abs::refine::{Witness, WitnessStep};
use crate::front::ERROR_EVENT;
use crate::ir::interp::{self, Environment, Outcome, State};
use crate::ir::{Component, Expr, ExprKind, Fault, IntTy, LocId, Lvalue, Stmt, VarId};
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

/// The cells whose value is undefined: left by a havoc (an uninitialised local, a `nondet`
/// call) and not written since. Their value in the [`State`] is 0, which no read may see.
#[derive(Clone, Debug, Default)]
struct Undefined {
    /// Per variable, a flag per element; empty while every element is defined.
    cells: Vec<Vec<bool>>,
    /// The flags set.
    count: usize,
}

/// The same cells undefined: a variable whose flags were never set equals one whose flags are
/// all clear again.
impl PartialEq for Undefined {
    fn eq(&self, other: &Undefined) -> bool {
        self.count == other.count
            && self.cells.iter().zip(&other.cells).all(|(a, b)| match (a.is_empty(), b.is_empty()) {
                (false, false) => a == b,
                (true, true) => true,
                (true, false) => !b.contains(&true),
                (false, true) => !a.contains(&true),
            })
    }
}

impl Undefined {
    fn new(comp: &Component) -> Undefined {
        Undefined { cells: vec![Vec::new(); comp.vars.len()], count: 0 }
    }

    fn is_set(&self, var: VarId, index: i128) -> bool {
        let flags = &self.cells[var.index()];
        usize::try_from(index).ok().and_then(|i| flags.get(i)).copied().unwrap_or(false)
    }

    /// Whether any element of `var` is undefined.
    fn any(&self, var: VarId) -> bool {
        self.cells.get(var.index()).is_some_and(|f| f.iter().any(|&b| b))
    }

    fn mark(&mut self, comp: &Component, var: VarId, index: i128, undefined: bool) {
        let flags = &mut self.cells[var.index()];
        let Ok(i) = usize::try_from(index) else { return };
        if flags.is_empty() {
            if !undefined {
                return;
            }
            *flags = vec![false; comp.var(var).ty.n_elems() as usize];
        }
        if let Some(flag) = flags.get_mut(i)
            && *flag != undefined
        {
            *flag = undefined;
            if undefined {
                self.count += 1;
            } else {
                self.count -= 1;
            }
        }
    }

    /// Whether evaluating `e` in `state` reads an undefined cell (every operand counts, also
    /// one that `&&` or `?:` would not evaluate).
    fn read_by(&self, e: &Expr, state: &State) -> bool {
        match &e.kind {
            ExprKind::Const(_) => false,
            ExprKind::Var(v) => self.is_set(*v, 0),
            ExprKind::Load(v, idx) => self.read_by(idx, state) || self.is_set(*v, crate::ir::eval::eval(idx, state)),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.read_by(a, state),
            ExprKind::Binary(_, a, b) => self.read_by(a, state) || self.read_by(b, state),
        }
    }

    /// Whether the index of `lv` reads an undefined cell.
    fn read_by_target(&self, lv: &Lvalue, state: &State) -> bool {
        match lv {
            Lvalue::Var(_) => false,
            Lvalue::Elem(_, idx) => self.read_by(idx, state),
        }
    }

    /// Whether `e` names a variable with an undefined element.
    fn named_by(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Const(_) => false,
            ExprKind::Var(v) => self.any(*v),
            ExprKind::Load(v, idx) => self.any(*v) || self.named_by(idx),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.named_by(a),
            ExprKind::Binary(_, a, b) => self.named_by(a) || self.named_by(b),
        }
    }
}

/// The element of `lv` that a store writes in `state` (the whole variable for an array's
/// havoc): the variable and its first and last index.
fn cells_of(comp: &Component, lv: &Lvalue, state: &State) -> (VarId, i128, i128) {
    match lv {
        Lvalue::Var(v) => (*v, 0, i128::from(comp.var(*v).ty.n_elems()) - 1),
        Lvalue::Elem(v, idx) => {
            let i = crate::ir::eval::eval(idx, state);
            (*v, i, i)
        }
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
    /// The cells of `state` that no read may see (see [`Undefined`]).
    undefined: Undefined,
    /// The state, or `None` when the initial state needed an input.
    state: Option<State>,
    at: LocId,
    steps: u64,
    head: Vec<WitnessStep>,
    tail: VecDeque<WitnessStep>,
    events: Vec<crate::ir::interp::TraceEvent>,
    // Brent: the state saved at a loop head, the visits since, and the current power of two.
    saved: Option<(LocId, State, Undefined)>,
    power: u64,
    lambda: u64,
    /// Whether the run has ended (what it showed was returned by [`Runner::advance`]).
    pub ended: bool,
    /// `--timeout`: a slice looks at the clock every [`CLOCK_STEPS`] steps.
    deadline: crate::deadline::Deadline,
    /// Per location: visits so far, and the visit at which loop acceleration is tried next
    /// (doubling after each failure, so that a loop it cannot speed up costs little).
    visits: Vec<u64>,
    next_try: Vec<u64>,
    /// Steps skipped by loop acceleration (`accelerate`), counted in [`Runner::steps`].
    pub accelerated: u64,
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
            undefined: Undefined::new(comp),
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
            visits: vec![0; comp.n_locs as usize],
            next_try: vec![1; comp.n_locs as usize],
            accelerated: 0,
        }
    }

    /// The same runner, which stops a slice early (undecided) once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: crate::deadline::Deadline) -> Runner {
        self.deadline = deadline;
        self
    }

    /// Steps executed so far (the budget counts these; steps skipped by loop acceleration are
    /// part of the run but not of its cost).
    pub fn steps(&self) -> u64 {
        self.executed()
    }

    fn executed(&self) -> u64 {
        self.steps - self.accelerated
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
        // The budget counts the steps executed; skipped ones cost nothing.
        let stop = self.executed().saturating_add(slice);
        loop {
            let at = self.at;
            if at == comp.exit {
                return Some(OnlyRun::Safe { steps: self.steps });
            }
            let executed = self.executed();
            if executed >= stop || (executed.is_multiple_of(CLOCK_STEPS) && self.deadline.passed()) {
                self.state = Some(state);
                return None;
            }
            if self.is_head.get(at.index()).copied().unwrap_or(false) {
                if let Some((l, s, u)) = &self.saved
                    && *l == at
                    && *s == state
                    && *u == self.undefined
                {
                    return Some(OnlyRun::Safe { steps: self.steps });
                }
                self.lambda += 1;
                if self.lambda == self.power || self.saved.is_none() {
                    self.saved = Some((at, state.clone(), self.undefined.clone()));
                    self.power = self.power.saturating_mul(2);
                    self.lambda = 0;
                }
                let i = at.index();
                self.visits[i] += 1;
                // Only once the witness has its first steps: what it shows of the run's start
                // is then real steps, and the "... more steps ..." of a report stands for the
                // skipped ones too.
                if self.head.len() >= KEPT && self.visits[i] >= self.next_try[i] {
                    match accelerate(comp, &self.succ, at, &state, &self.undefined) {
                        Some((next, skipped)) => {
                            state = next;
                            self.steps = self.steps.saturating_add(skipped);
                            self.accelerated = self.accelerated.saturating_add(skipped);
                            // The witness keeps its last steps contiguous: they restart here.
                            self.tail.clear();
                            continue;
                        }
                        None => self.next_try[i] = self.next_try[i].saturating_mul(2),
                    }
                }
            }
            let out = self.succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
            // The enabled edges, as `interp::enabled` finds them (an assumption whose condition
            // is false is disabled), without collecting them: this loop runs 2^28 times.
            let mut chosen = None;
            let undefined = self.undefined.count > 0;
            for &i in out {
                if let Stmt::Assume(c) = &comp.edges[i].stmt {
                    // A branch on an undefined value goes either way.
                    if undefined && self.undefined.read_by(c, &state) {
                        return Some(OnlyRun::Several);
                    }
                    if crate::ir::eval::eval(c, &state) == 0 {
                        continue;
                    }
                }
                if chosen.is_some() {
                    return Some(OnlyRun::Several);
                }
                chosen = Some(i);
            }
            // A run that blocks (an assumption fails) has ended without an error.
            let Some(chosen) = chosen else { return Some(OnlyRun::Safe { steps: self.steps }) };
            let edge = &comp.edges[chosen];
            let mut inputs = Vec::new();
            let result = match &edge.stmt {
                // A havoc leaves its cells undefined (with 0 in the state) instead of asking for
                // input: the run stays the only one until one of them is read.
                Stmt::Havoc(lv) => {
                    if undefined && self.undefined.read_by_target(lv, &state) {
                        return Some(OnlyRun::Several);
                    }
                    let (var, first, last) = cells_of(comp, lv, &state);
                    for i in first..=last {
                        state.set(var, i, 0);
                        self.undefined.mark(comp, var, i, true);
                        inputs.push(0);
                    }
                    Ok(None)
                }
                stmt => {
                    if undefined {
                        let reads = match stmt {
                            Stmt::Assign(lv, e) => {
                                self.undefined.read_by_target(lv, &state) || self.undefined.read_by(e, &state)
                            }
                            Stmt::Check(c, _) => self.undefined.read_by(c, &state),
                            Stmt::Event(crate::ir::Event::Send(_, e)) => self.undefined.read_by(e, &state),
                            _ => false,
                        };
                        if reads {
                            return Some(OnlyRun::Several);
                        }
                        if let Stmt::Assign(lv, _) = stmt {
                            let (var, first, last) = cells_of(comp, lv, &state);
                            for i in first..=last {
                                self.undefined.mark(comp, var, i, false);
                            }
                        }
                    }
                    interp::exec(comp, edge, &mut state, &mut self.env)
                }
            };
            self.steps += 1;
            let take = match result {
                Err(Outcome::Fault(_)) => Take::Fault,
                _ => Take::Normal,
            };
            let step = WitnessStep { edge: chosen, take, inputs };
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

/// A linear function of the values at a loop head: `Σ coeff·var + constant`, exact (i128).
#[derive(Clone, Debug, PartialEq)]
struct Linear {
    coeffs: Vec<(usize, i128)>,
    constant: i128,
}

impl Linear {
    fn var(v: usize) -> Linear {
        Linear { coeffs: vec![(v, 1)], constant: 0 }
    }

    fn constant(c: i128) -> Linear {
        Linear { coeffs: Vec::new(), constant: c }
    }

    fn scaled_add(&self, other: &Linear, k: i128) -> Option<Linear> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(other.constant.checked_mul(k)?)?;
        for &(v, c) in &other.coeffs {
            let c = c.checked_mul(k)?;
            match out.coeffs.iter_mut().find(|(w, _)| *w == v) {
                Some(slot) => slot.1 = slot.1.checked_add(c)?,
                None => out.coeffs.push((v, c)),
            }
        }
        out.coeffs.retain(|&(_, c)| c != 0);
        Some(out)
    }

    /// The value at iteration `j` (0: the head state `s`), each variable moving by `delta`.
    fn at(&self, s: &State, delta: &[i128], j: i128) -> Option<i128> {
        let mut sum = self.constant;
        for &(v, c) in &self.coeffs {
            let x = s.get(crate::ir::VarId(v as u32), 0)?.checked_add(delta[v].checked_mul(j)?)?;
            sum = sum.checked_add(c.checked_mul(x)?)?;
        }
        Some(sum)
    }

    /// Its change from one iteration to the next.
    fn slope(&self, delta: &[i128]) -> Option<i128> {
        self.coeffs.iter().try_fold(0i128, |acc, &(v, c)| acc.checked_add(c.checked_mul(delta[v])?))
    }
}

/// What one iteration of an accelerable loop must keep: `lo <= f <= hi` (a value in the range
/// of its type, or a branch condition), or `f != 0`.
enum Keep {
    Within(Linear, i128, i128),
    NonZero(Linear),
}

/// `e` as a linear function of the head values, given `forms` (each variable's value so far in
/// the iteration), adding to `keep` that every intermediate value stays in its type's range
/// (so that no wrap-around makes the function lie). `None` when `e` is not linear.
fn linear(e: &crate::ir::Expr, forms: &[Linear], keep: &mut Vec<Keep>) -> Option<Linear> {
    use crate::ir::{BinOp, ExprKind, UnOp};
    let f = match &e.kind {
        ExprKind::Const(c) => Linear::constant(*c),
        ExprKind::Var(v) => forms.get(v.index())?.clone(),
        // A conversion is the identity on the values its type holds, which `keep` demands;
        // to `_Bool` it is not (every non-zero value becomes 1).
        ExprKind::Cast(a) if !e.ty.is_bool() => linear(a, forms, keep)?,
        ExprKind::Unary(UnOp::Neg, a) => Linear::constant(0).scaled_add(&linear(a, forms, keep)?, -1)?,
        ExprKind::Binary(BinOp::Add, a, b) => linear(a, forms, keep)?.scaled_add(&linear(b, forms, keep)?, 1)?,
        ExprKind::Binary(BinOp::Sub, a, b) => linear(a, forms, keep)?.scaled_add(&linear(b, forms, keep)?, -1)?,
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (x, y) = (linear(a, forms, keep)?, linear(b, forms, keep)?);
            match (x.coeffs.is_empty(), y.coeffs.is_empty()) {
                (true, _) => Linear::constant(0).scaled_add(&y, x.constant)?,
                (_, true) => Linear::constant(0).scaled_add(&x, y.constant)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    if !e.ty.is_bool() {
        keep.push(Keep::Within(f.clone(), e.ty.min(), e.ty.max()));
    }
    Some(f)
}

/// A branch condition as constraints on linear functions: a comparison of two linear operands
/// (or its negation).
fn condition(c: &crate::ir::Expr, forms: &[Linear], keep: &mut Vec<Keep>) -> Option<()> {
    use crate::ir::{BinOp, ExprKind, UnOp};
    let (op, a, b, negated) = match &c.kind {
        ExprKind::Binary(op, a, b) => (*op, a, b, false),
        ExprKind::Unary(UnOp::Not, inner) => match &inner.kind {
            ExprKind::Binary(op, a, b) => (*op, a, b, true),
            _ => return None,
        },
        _ => return None,
    };
    let d = linear(a, forms, keep)?.scaled_add(&linear(b, forms, keep)?, -1)?;
    let (lo, hi) = (i128::MIN / 4, i128::MAX / 4);
    let op = if negated {
        match op {
            BinOp::Lt => BinOp::Ge,
            BinOp::Le => BinOp::Gt,
            BinOp::Gt => BinOp::Le,
            BinOp::Ge => BinOp::Lt,
            BinOp::Eq => BinOp::Ne,
            BinOp::Ne => BinOp::Eq,
            _ => return None,
        }
    } else {
        op
    };
    keep.push(match op {
        BinOp::Lt => Keep::Within(d, lo, -1),
        BinOp::Le => Keep::Within(d, lo, 0),
        BinOp::Gt => Keep::Within(d, 1, hi),
        BinOp::Ge => Keep::Within(d, 0, hi),
        BinOp::Eq => Keep::Within(d, 0, 0),
        BinOp::Ne => Keep::NonZero(d),
        _ => return None,
    });
    Some(())
}

/// The most edges of one accelerated iteration.
const MAX_ITERATION_EDGES: usize = 64;

/// Loop acceleration for the only run: from the head `head` in state `state`, when one
/// iteration is a path of assignments of linear terms and comparisons of linear terms, that
/// moves every variable it reads by a constant (a counting loop, `x += 2` until a bound), the
/// number of further iterations that take the same path without any value leaving its type
/// is computed exactly, and the state after all but the last of them is returned, with the
/// steps they take. `None` when the loop is not of that kind or fewer than two iterations
/// remain. Exact: every value of the skipped iterations is a linear function of the iteration
/// number within its type's range, so no wrap-around happens, every branch goes the way it
/// went, and the state is the one the interpreter would reach.
fn accelerate(
    comp: &Component,
    succ: &[Vec<usize>],
    head: LocId,
    state: &State,
    undefined: &Undefined,
) -> Option<(State, u64)> {
    // One iteration, executed, to learn its path.
    let mut s = state.clone();
    let mut at = head;
    let mut path = Vec::new();
    let mut env = NoInput { chose: false };
    loop {
        let mut chosen = None;
        for &i in succ.get(at.index())? {
            if let Stmt::Assume(c) = &comp.edges[i].stmt
                && crate::ir::eval::eval(c, &s) == 0
            {
                continue;
            }
            if chosen.is_some() {
                return None;
            }
            chosen = Some(i);
        }
        let e = chosen?;
        match &comp.edges[e].stmt {
            Stmt::Skip => {}
            // An iteration that reads or writes a variable with an undefined element is taken
            // by the interpreter, which decides whether the read sees one.
            Stmt::Assume(c) if !undefined.named_by(c) => {}
            Stmt::Assign(Lvalue::Var(v), x) if !undefined.any(*v) && !undefined.named_by(x) => {}
            _ => return None,
        }
        interp::exec(comp, &comp.edges[e], &mut s, &mut env).ok()?;
        path.push(e);
        at = comp.edges[e].to;
        if at == head {
            break;
        }
        if path.len() >= MAX_ITERATION_EDGES || at == comp.exit {
            return None;
        }
    }
    // The path, symbolically: each variable as a linear function of the head values.
    let n = comp.vars.len();
    let mut forms: Vec<Linear> = (0..n).map(Linear::var).collect();
    let mut keep = Vec::new();
    for &e in &path {
        match &comp.edges[e].stmt {
            Stmt::Assume(c) => condition(c, &forms, &mut keep)?,
            Stmt::Assign(Lvalue::Var(v), x) => {
                if !matches!(comp.vars[v.index()].ty, crate::ir::VarTy::Scalar(_)) {
                    return None;
                }
                let f = linear(x, &forms, &mut keep)?;
                forms[v.index()] = f;
            }
            _ => {}
        }
    }
    // Every variable the iteration reads moves by a constant: its form is itself plus one.
    let mut delta = vec![0i128; n];
    let mut moving = vec![false; n];
    for (v, f) in forms.iter().enumerate() {
        if let [(w, 1)] = f.coeffs.as_slice()
            && *w == v
        {
            delta[v] = f.constant;
            moving[v] = true;
        } else if f.coeffs.is_empty() && state.get(crate::ir::VarId(v as u32), 0) == Some(f.constant) {
            moving[v] = true; // a constant that the head state already holds
        }
    }
    let reads_fixed = |f: &Linear| f.coeffs.iter().all(|&(w, _)| moving[w]);
    if !forms.iter().all(reads_fixed) {
        return None;
    }
    for k in &keep {
        let (Keep::Within(f, ..) | Keep::NonZero(f)) = k;
        if !reads_fixed(f) {
            return None;
        }
    }
    // The iterations j = 0 .. count-1 all keep every constraint.
    let mut count: i128 = 1 << 40;
    for k in &keep {
        let (f, lo, hi, nonzero) = match k {
            Keep::Within(f, lo, hi) => (f, *lo, *hi, false),
            Keep::NonZero(f) => (f, 0, 0, true),
        };
        let a = f.at(state, &delta, 0)?;
        let b = f.slope(&delta)?;
        // Iteration 0 was executed; a constraint it breaks (a value that wrapped around) means
        // the linear view is wrong about it.
        if (nonzero && a == 0) || (!nonzero && (a < lo || a > hi)) {
            return None;
        }
        let limit = if nonzero {
            // Zero at j = -a/b, when that is a later iteration.
            if b != 0 && (-a) % b == 0 && (-a) / b > 0 { (-a) / b } else { count }
        } else if b == 0 {
            count
        } else if b > 0 {
            (hi - a).div_euclid(b) + 1
        } else {
            (a - lo).div_euclid(-b) + 1
        };
        count = count.min(limit);
    }
    // Skip all but the last of them (the interpreter takes that one, and whatever follows).
    let skip = count - 1;
    if skip < 1 {
        return None;
    }
    let mut next = state.clone();
    for (v, f) in forms.iter().enumerate() {
        // The value the iteration `skip - 1` left: the form at that iteration.
        let value = f.at(state, &delta, skip - 1)?;
        let ty = comp.vars[v].ty.elem();
        if value < ty.min() || value > ty.max() {
            return None;
        }
        next.set(crate::ir::VarId(v as u32), 0, value);
    }
    let steps = u64::try_from(skip).ok()?.checked_mul(path.len() as u64)?;
    Some((next, steps))
}
