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
//! A symbolic state is a persistent vector ([`PVec`]): an edge writes at most one variable, so
//! a step copies a path of the vector's tree, not a term per variable, and a merge compares
//! only the parts of the ways' states that differ. Straight-line code of `n` statements over
//! `n` variables costs `O(n log n)` state entries, not `n²` ([`Bmc::state_work`] counts them).
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
use crate::smt::{Effect, Encoder, Smt, SmtError, Sym, Take};
use crate::util::pvec::PVec;

/// A symbolic state: a term per variable, in [`Encoder::state`]'s order.
type State = PVec<Sym>;

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
    state: Option<State>,
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
    carry: Vec<(LocId, Into, State)>,
    /// The locations in a topological order of the graph without back edges.
    order: Vec<LocId>,
    /// Whether each edge is a back edge.
    back: Vec<bool>,
    counter: u64,
    /// State entries copied, compared or written so far ([`Bmc::state_work`]).
    state_work: u64,
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
        // The merges take the first way whose condition holds: the ways must be exclusive.
        debug_assert!(
            crate::abs::invariant::branches_only_by_assumptions(comp),
            "a location of {} branches other than by assumptions",
            comp.name
        );
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
            state_work: 0,
            gave_up: false,
            deadline,
            stopped: false,
        };
        b.unroll_level(Some((comp.entry, PVec::from_vec(state))));
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

    /// Whether error ways of the unrolling so far wait for an answer: the last query about
    /// them ended without one (over its budget), so [`Bmc::deepen`] asks again even when the
    /// unrolling is complete and adds no depth.
    pub fn undecided(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The work done on symbolic states so far: entries (terms, or children of the persistent
    /// vectors' nodes) copied on a write, written, and compared when ways merge. It grows with
    /// what the edges write, not with the number of variables per step.
    pub fn state_work(&self) -> u64 {
        self.state_work
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
    fn unroll_level(&mut self, root: Option<(LocId, State)>) {
        let comp = self.enc.component();
        let succ = comp.successors();
        let depth = self.levels.len();
        let mut incoming: BTreeMap<LocId, Vec<(Into, State)>> = BTreeMap::new();
        for (l, way, post) in std::mem::take(&mut self.carry) {
            incoming.entry(l).or_default().push((way, post));
        }
        let mut built: BTreeMap<LocId, Node> = BTreeMap::new();
        if let Some((l, state)) = root {
            built.insert(l, Node { reach: Bool::from_bool(true), state: Some(state), ways: Vec::new() });
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
            // The state is read only here, to build the node's out-edges: taken, so that a level
            // keeps its nodes' conditions and ways but not their states (straight-line code
            // with many variables kept them all: memory quadratic in its length). Each post
            // state shares with it all but what its edge writes.
            let (reach, Some(state)) = (node.reach.clone(), node.state.take()) else { continue };
            let mut outs: Vec<(usize, Take, bool)> = Vec::new();
            for &e in succ.get(loc.index()).map(Vec::as_slice).unwrap_or(&[]) {
                let takes: &[(Take, bool)] = match &comp.edges[e].stmt {
                    Stmt::Check(..) => &[(Take::Normal, false), (Take::Fault, true)],
                    Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT => &[(Take::Normal, true)],
                    Stmt::Event(_) => &[(Take::Silent, false)],
                    _ => &[(Take::Normal, false)],
                };
                outs.extend(takes.iter().map(|&(take, error)| (e, take, error)));
            }
            // The last way out gets the state itself, so that a location with one way out
            // (straight-line code) writes in place and copies nothing.
            let mut state = Some(state);
            for (k, &(e, take, error)) in outs.iter().enumerate() {
                let edge = &comp.edges[e];
                let Some(pre) = state.as_ref() else { break };
                let Effect { guard, write, .. } = self.enc.effect(edge, take, pre);
                let cond = Bool::and(&[reach.clone(), guard]).simplify();
                if cond.as_bool() == Some(false) {
                    continue;
                }
                let way = Into { depth, from: loc, edge: e, take, cond };
                if error {
                    self.pending.push(way);
                    continue;
                }
                let mut post = if k + 1 < outs.len() {
                    pre.clone()
                } else if let Some(last) = state.take() {
                    last
                } else {
                    break;
                };
                if let Some((v, sym)) = write {
                    self.state_work += 1 + post.set(v.index(), sym) as u64;
                }
                if self.back[e] {
                    self.carry.push((edge.to, way, post));
                } else {
                    incoming.entry(edge.to).or_default().push((way, post));
                }
            }
        }
        self.levels.push(built);
    }

    /// The node where the ways `ins` meet: a variable on whose term the ways disagree gets a
    /// named if-then-else of their terms, every other one keeps the common term.
    fn merge(&mut self, ins: Vec<(Into, State)>) -> Node {
        let conds: Vec<Bool> = ins.iter().map(|(w, _)| w.cond.clone()).collect();
        let reach = self.name_bool(Bool::or(&conds).simplify());
        // The variables on which some way differs from the first, in increasing order (the
        // order in which the merged terms are named). The diff skips what the states share.
        let mut differ = Vec::new();
        for (_, p) in &ins[1..] {
            self.state_work += p.diff(&ins[0].1, |a, b| a.dynamic() == b.dynamic(), &mut differ) as u64;
        }
        differ.sort_unstable();
        differ.dedup();
        let mut state = ins[0].1.clone();
        for &v in &differ {
            let first = ins[0].1.get(v).clone();
            let mut value = ins[ins.len() - 1].1.get(v).dynamic();
            for (w, p) in ins[..ins.len() - 1].iter().rev() {
                value = w.cond.ite(&p.get(v).dynamic(), &value);
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
            self.state_work += 1 + state.set(v, named) as u64;
        }
        let ways = ins.into_iter().map(|(w, _)| w).collect();
        Node { reach, state: Some(state), ways }
    }
}

#[cfg(test)]
mod tests {
    use super::Bmc;

    /// `main` with `n` locals in straight-line code, `x{i} = x{i-1} + 1`, then an error when the
    /// last is not `n - 1` more than the first (never), as IR text.
    fn straight_line(n: usize) -> crate::ir::Component {
        let mut t = String::from("component main\n");
        for i in 0..n {
            t += &format!("  local x{i}: i32\n");
        }
        t += &format!("  entry l0\n  exit l{}\n", n + 1);
        t += "  l0 -> l1: havoc x0\n";
        for i in 1..n {
            t += &format!("  l{i} -> l{}: x{i} = (x{} + 1)\n", i + 1, i - 1);
        }
        let last = n - 1;
        t += &format!("  l{n} -> l{}: assume ((x{last} - x0) != {last})\n", n + 2);
        t += &format!("  l{n} -> l{}: assume ((x{last} - x0) == {last})\n", n + 1);
        t += &format!("  l{} -> l{}: event reach_error\n", n + 2, n + 1);
        crate::ir::parse::component(&t).expect("the IR text parses")
    }

    /// `main` with `n` branches in a row, each writing one of `n` locals on one side, as IR text:
    /// every merge meets two states that differ in one variable.
    fn diamonds(n: usize) -> crate::ir::Component {
        let mut t = String::from("component main\n  local c: i32\n");
        for i in 0..n {
            t += &format!("  local x{i}: i32\n");
        }
        t += &format!("  entry l0\n  exit l{}\n", 2 * n + 1);
        t += "  l0 -> l1: havoc c\n";
        for i in 0..n {
            let (at, side, next) = (2 * i + 1, 2 * i + 2, 2 * i + 3);
            t += &format!("  l{at} -> l{side}: assume (c > {i})\n");
            t += &format!("  l{at} -> l{next}: assume (c <= {i})\n");
            t += &format!("  l{side} -> l{next}: x{i} = {i}\n");
        }
        crate::ir::parse::component(&t).expect("the IR text parses")
    }

    fn work(comp: &crate::ir::Component) -> u64 {
        let mut bmc = Bmc::new(comp, 1_000_000, crate::deadline::Deadline::none());
        assert!(matches!(bmc.deepen(1), Ok(None)), "no error is reachable");
        assert!(bmc.exhausted(), "loop-free code is unrolled completely");
        bmc.state_work()
    }

    #[test]
    fn state_work_on_straight_line_code_grows_linearly_with_its_length() {
        // With a plain vector per state every statement copied all n terms: n² entries,
        // 64 times as many at 8n as at n. A persistent vector copies a path per write.
        let sizes = [250, 500, 1000, 2000];
        let w: Vec<u64> = sizes.iter().map(|&n| work(&straight_line(n))).collect();
        for (&n, &w) in sizes.iter().zip(&w) {
            assert!(w <= 64 * n as u64, "{w} entries of state work for {n} statements");
        }
        assert!(w[3] <= 10 * w[0], "{w:?}: 8 times the statements, more than 10 times the work");
    }

    #[test]
    fn state_work_on_a_row_of_branches_grows_linearly_with_its_length() {
        // Each merge compares the two ways' states where they do not share nodes, not every
        // variable: a plain vector compared all n terms at each of n merges.
        let sizes = [250, 500, 1000, 2000];
        let w: Vec<u64> = sizes.iter().map(|&n| work(&diamonds(n))).collect();
        for (&n, &w) in sizes.iter().zip(&w) {
            assert!(w <= 128 * n as u64, "{w} entries of state work for {n} branches");
        }
        assert!(w[3] <= 10 * w[0], "{w:?}: 8 times the branches, more than 10 times the work");
    }
}
