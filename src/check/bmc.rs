//! Bounded search for errors of one component: the bug-finding half of `subst verify` on C.
//!
//! Predicate abstraction needs one refinement per loop iteration to reach an error that only
//! happens after many iterations; a bounded model checker reaches it in one query. [`Bmc`]
//! unrolls the component's control-flow automaton loop by loop, as bounded model checkers of C
//! do: the back edges of a depth-first search from the entry cut the automaton into an acyclic
//! graph, and depth `d` is that graph entered after `d` back edges. Each (depth, location) node
//! has the condition under which the run is there and its symbolic state there; paths that meet
//! within a depth are merged by if-then-else. Terms are simplified as they are built, so a loop
//! counter stays a constant along the unrolling and infeasible nodes vanish before the solver
//! sees them.
//!
//! It only ever reports a path whose nodes the model visits; the caller replays that path by
//! symbolic simulation and in the interpreter before believing it. A bound says nothing about
//! safety, except when the unrolling is complete ([`Bmc::exhausted`]): when no run can take
//! another back edge (every such way simplified to false, or the solver found their disjunction
//! unsatisfiable: [`Bmc::settle_exhausted`], the unwinding assertion of bounded model checkers),
//! the unrolling holds every run, and finding no error in it is a proof, as a bounded model
//! checker's forward condition is.

use std::collections::BTreeMap;

use z3::ast::{Ast, Bool};

use crate::abs::invariant::acyclic_order;
use crate::front::ERROR_EVENT;
use crate::ir::{Component, Event, LocId, Stmt};
use crate::smt::{Encoder, Smt, SmtError, Sym, Take};

/// A way into a node: from a location one level up, by an edge taken some way, under a
/// condition.
struct Into {
    depth: usize,
    from: LocId,
    edge: usize,
    take: Take,
    cond: Bool,
}

/// A node of the unrolling at one depth.
struct Node {
    reach: Bool,
    /// The symbolic state on arrival, until [`Bmc::unroll_level`] builds the node's out-edges
    /// from it (then empty).
    state: Vec<Sym>,
    ways: Vec<Into>,
}

/// An unrolling of one component, deepened on demand.
pub struct Bmc<'a> {
    enc: Encoder<'a>,
    /// The solver; it holds the definitions of the unrolling so far.
    pub smt: Smt,
    levels: Vec<BTreeMap<LocId, Node>>,
    /// Error ways found, not yet ruled out.
    pending: Vec<Into>,
    /// Ways into the next depth, by back edges.
    carry: Vec<(LocId, Into, Vec<Sym>)>,
    /// The locations in a topological order of the graph without back edges.
    order: Vec<LocId>,
    /// Whether each edge is a back edge.
    back: Vec<bool>,
    counter: u64,
    /// Whether the search ran into a solver `unknown` and gave up.
    pub gave_up: bool,
    deadline: crate::deadline::Deadline,
    /// The deadline passed while a level was being built: the last level is partial, so the
    /// unrolling proves nothing and finds nothing more.
    stopped: bool,
}

impl<'a> Bmc<'a> {
    /// An unrolling of depth 0 of `comp`.
    ///
    /// Each query gets `budget` resource units of Z3's work and at most the time left before
    /// `deadline`.
    pub fn new(comp: &'a Component, budget: u32, deadline: crate::deadline::Deadline) -> Bmc<'a> {
        let enc = Encoder::new(comp);
        let state = enc.state("b0.");
        let mut smt = Smt::with_deadline(budget, deadline);
        smt.assert(&enc.init(&state));
        let (order, back) = acyclic_order(comp);
        let mut b = Bmc {
            enc,
            smt,
            levels: Vec::new(),
            pending: Vec::new(),
            carry: Vec::new(),
            order,
            back,
            counter: 0,
            gave_up: false,
            deadline,
            stopped: false,
        };
        b.unroll_level(Some((comp.entry, state)));
        b
    }

    /// Whether the unrolling is complete: no run takes another back edge, so deepening adds
    /// nothing.
    pub fn exhausted(&self) -> bool {
        !self.stopped && self.carry.is_empty()
    }

    /// Whether the unrolling is complete by the solver's account: no run takes another back edge,
    /// though the simplifier did not make every such way false (a loop bounded by an input whose
    /// range an `assume` gives: `n <= 30` and `i < n` at `i == 31` are contradictory, but not
    /// syntactically). One query, for the disjunction of the ways into the next depth; when it
    /// is unsatisfiable they are dropped, and [`Bmc::exhausted`] holds from then on, as a bounded
    /// model checker's unwinding assertion that holds. A solver `unknown`, its budget or the
    /// deadline leave the unrolling as it is and answer `false`.
    pub fn settle_exhausted(&mut self) -> bool {
        if self.stopped || self.carry.is_empty() {
            return self.exhausted();
        }
        let next = Bool::or(&self.carry.iter().map(|(_, way, _)| way.cond.clone()).collect::<Vec<_>>());
        match self.smt.sat(std::slice::from_ref(&next)) {
            Ok(false) => {
                self.smt.assert(&next.not());
                self.carry.clear();
                true
            }
            Ok(true) | Err(_) => false,
        }
    }

    /// The number of loop iterations (back edges) unrolled so far.
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    /// Unrolls `n` more steps and looks for an error taken in them; returns the path to it.
    pub fn deepen(&mut self, n: usize) -> Result<Option<Vec<(usize, Take)>>, SmtError> {
        for _ in 0..n {
            if self.stopped || self.deadline.passed() {
                return Err(SmtError::Deadline);
            }
            if self.carry.is_empty() {
                break;
            }
            self.unroll_level(None);
        }
        if self.stopped {
            return Err(SmtError::Deadline);
        }
        if self.pending.is_empty() {
            return Ok(None);
        }
        let upto = |d: usize| -> Bool {
            let c: Vec<Bool> = self.pending.iter().filter(|w| w.depth <= d).map(|w| w.cond.clone()).collect();
            Bool::or(&c)
        };
        let deepest = self.pending.iter().map(|w| w.depth).max().unwrap_or(0);
        let Some(mut model) = self.smt.model(&[upto(deepest)])? else {
            self.smt.assert(&upto(deepest).not());
            self.pending.clear();
            return Ok(None);
        };
        // The fewest loop iterations that reach an error, so that the reported run is short.
        let shallowest = self.pending.iter().map(|w| w.depth).min().unwrap_or(0);
        let (mut lo, mut hi) = (shallowest, deepest);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.smt.model(&[upto(mid)])? {
                Some(m) => {
                    model = m;
                    hi = mid;
                }
                None => lo = mid + 1,
            }
        }
        // `model` is the last one found, for the bound `hi`.
        let holds = |b: &Bool| model.eval(b, true).and_then(|x| x.as_bool()) == Some(true);
        let Some(way) = self.pending.iter().filter(|w| w.depth <= hi).find(|w| holds(&w.cond)) else {
            return Err(SmtError::Unknown("the model of a bounded path takes no error".into()));
        };
        // Walk back from the error to the root through ways the model takes.
        let mut path = vec![(way.edge, way.take)];
        let (mut at, mut d) = (way.from, way.depth);
        loop {
            let node = &self.levels[d][&at];
            if node.ways.is_empty() {
                break;
            }
            let Some(w) = node.ways.iter().find(|w| holds(&w.cond)) else {
                return Err(SmtError::Unknown("the model of a bounded path is not connected".into()));
            };
            path.push((w.edge, w.take));
            at = w.from;
            d = w.depth;
        }
        path.reverse();
        Ok(Some(path))
    }

    fn name_bool(&mut self, b: Bool) -> Bool {
        if b.is_const() {
            return b;
        }
        self.counter += 1;
        let n = Bool::new_const(format!("r!{}", self.counter));
        self.smt.assert(&n.eq(&b));
        n
    }

    /// Builds the next depth: from the root state at depth 0, else from the back edges taken
    /// at the depth before. Building one level of a large program (terms, `simplify`) can take
    /// seconds, so it looks at the deadline at every location and stops there (and proves nothing after that).
    fn unroll_level(&mut self, root: Option<(LocId, Vec<Sym>)>) {
        let comp = self.enc.component();
        let succ = comp.successors();
        let depth = self.levels.len();
        let mut incoming: BTreeMap<LocId, Vec<(Into, Vec<Sym>)>> = BTreeMap::new();
        for (l, way, post) in std::mem::take(&mut self.carry) {
            incoming.entry(l).or_default().push((way, post));
        }
        let mut built: BTreeMap<LocId, Node> = BTreeMap::new();
        if let Some((l, state)) = &root {
            built.insert(*l, Node { reach: Bool::from_bool(true), state: state.clone(), ways: Vec::new() });
        }
        for &loc in &self.order.clone() {
            if self.deadline.passed() {
                self.stopped = true;
                break;
            }
            if let Some(ins) = incoming.remove(&loc) {
                let node = self.merge(ins);
                built.insert(loc, node);
            }
            let Some(node) = built.get_mut(&loc) else { continue };
            // The state is read only here, to build the node's out-edges: taken, not copied,
            // so that a level keeps its nodes' conditions and ways but not a term per variable
            // per location (straight-line code with many variables kept them all: memory
            // quadratic in its length).
            let (reach, state) = (node.reach.clone(), std::mem::take(&mut node.state));
            for &e in succ.get(loc.index()).map(Vec::as_slice).unwrap_or(&[]) {
                let edge = &comp.edges[e];
                let takes: &[(Take, bool)] = match &edge.stmt {
                    Stmt::Check(..) => &[(Take::Normal, false), (Take::Fault, true)],
                    Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT => &[(Take::Normal, true)],
                    Stmt::Event(_) => &[(Take::Silent, false)],
                    _ => &[(Take::Normal, false)],
                };
                for &(take, error) in takes {
                    let step = self.enc.step(edge, take, &state);
                    let cond = Bool::and(&[reach.clone(), step.guard]).simplify();
                    if cond.as_bool() == Some(false) {
                        continue;
                    }
                    let way = Into { depth, from: loc, edge: e, take, cond };
                    if error {
                        self.pending.push(way);
                    } else if self.back[e] {
                        self.carry.push((edge.to, way, step.post));
                    } else {
                        incoming.entry(edge.to).or_default().push((way, step.post));
                    }
                }
            }
        }
        self.levels.push(built);
    }

    /// The node where the ways `ins` meet.
    fn merge(&mut self, ins: Vec<(Into, Vec<Sym>)>) -> Node {
        let conds: Vec<Bool> = ins.iter().map(|(w, _)| w.cond.clone()).collect();
        let reach = self.name_bool(Bool::or(&conds).simplify());
        let n_vars = ins[0].1.len();
        let mut state = Vec::with_capacity(n_vars);
        for v in 0..n_vars {
            let first = ins[0].1[v].clone();
            if ins.iter().all(|(_, p)| p[v].dynamic() == first.dynamic()) {
                state.push(first);
                continue;
            }
            let mut value = ins[ins.len() - 1].1[v].dynamic();
            for (w, p) in ins[..ins.len() - 1].iter().rev() {
                value = w.cond.ite(&p[v].dynamic(), &value);
            }
            self.counter += 1;
            let named = match &first {
                Sym::Bv(b) => Sym::Bv(z3::ast::BV::new_const(format!("m!{}", self.counter), b.get_size())),
                Sym::Arr(a, n) => Sym::Arr(
                    z3::ast::Array::new_const(
                        format!("m!{}", self.counter),
                        &z3::Sort::bitvector(64),
                        &a.get_sort().array_range().expect("an array sort"),
                    ),
                    *n,
                ),
            };
            self.smt.assert(&named.dynamic().eq(&value));
            state.push(named);
        }
        let ways = ins.into_iter().map(|(w, _)| w).collect();
        Node { reach, state, ways }
    }
}
