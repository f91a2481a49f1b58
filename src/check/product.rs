//! Containment decided on the synchronous product of the two versions, with the engine of
//! `subst verify`: a bounded search, inductive invariants at the cut points of a block encoding
//! (Houdini), and k-induction ([`crate::abs::invariant`], [`super::bmc`]).
//!
//! **Why.** The loop of [`super::contain`] compares finite abstractions over *concrete* events:
//! the may-model of the old version must tell `out.3` after `arg.3` from `out.4` after it, and
//! predicate abstraction learns that one refinement per value (`benches/CONTAIN.md`: `max_const`
//! went from 19 rounds at 16 input values to over 160 at 256). A loop against its closed form
//! (a sum loop against `n*(n-1)/2`) needs, besides, a loop invariant that weakest preconditions
//! never produce. Here the data stay symbolic: one query covers every value.
//!
//! **The product.** One IR component runs the old version; when the old version reaches an
//! event, the new version runs (from where it last stopped) to its next event, and the two are
//! compared: a plain event by name, a sent value by equality, and a received value is chosen
//! once (any value of the family's range) and stored by both. The product calls
//! `reach_error()` (an error of `subst verify`'s property) where the new version does not keep
//! up with the old one:
//!
//! - its next event has another name or value, or it goes wrong there (a check fails, it
//!   calls `reach_error()`);
//! - it stops before one: it returns, or every way on is an `assume` that does not hold;
//! - the old version goes wrong itself (its error events are behaviours; they count as not
//!   kept, which may only cost a proof).
//!
//! **Soundness.** When no error of the product is reachable (re-checked invariants, k-induction,
//! or an unrolling that holds every run), every run of the old version is matched, event by
//! event, by *every* way the new one can go (its own `nondet_*()` values included), as long
//! as the new version cannot loop forever between two events; so the product is only built
//! when every cycle of the new version's control flow passes an event. By induction over an old
//! run, the product follows it, and at each event every path of the new version reaches an
//! event edge (acyclic, never blocked, else an error is reachable) that matches. So every trace
//! of the old version is one of the new: contained. This is a simulation of the old version by
//! the new one, checked as a safety property; it is stronger than trace inclusion (a new version
//! that needs to choose right, early, is not proved contained here and goes to the loop of
//! [`super::contain`]).
//!
//! **Refutation.** An error path of the product is a run of the product, found by the bounded
//! search and simulated; its old part is an old run, replayed by the interpreter
//! ([`Refutation`]), whose trace the new version failed to follow on *one* of its ways. That is
//! a missing behaviour only when no way of the new version performs it: [`performs`] decides
//! that exactly, by a bounded search of the new version restricted to the trace, which is
//! complete since the new version cannot loop between events (else Validation 2 of
//! [`super::contain`] asks the may-model of the new version).
//!
//! **More refutations.** [`Product::excluding`] builds the product in which the old version
//! performs none of some traces (the missing behaviours found so far) nor their extensions: a
//! global `monitor` variable holds the node of a trie of their proper prefixes that the old
//! version's matched events have followed (or a node for none), and before the old version
//! takes an event that completes one (after its prefix, with its name and, for a sent value,
//! its value), an `assume` stops it. A received value counts as any value at that point,
//! as the product reports the error of a receive that the new version does not reach with the
//! range's lowest value. [`decide_excluding`] runs the bounded search alone on it: its errors
//! are refutations whose traces extend none of the excluded ones (checked again on the trace
//! of the replayed old run), and an unrolling that holds every run without an error shows that
//! every trace of the old version that extends none of them is one of the new version.
//!
//! **Candidates.** Besides [`crate::abs::invariant`]'s (affine equalities of samples, atoms of
//! conditions), the product gets polynomial equalities of degree 2 among the variables that
//! vary at a cut point (the null space of the sample matrix extended by the products of pairs:
//! `2*s == i*i - i` for a sum loop, `r == i*b` for multiplication by repeated addition), the
//! same solved for a variable by exact division (`s == (i*i - i) / 2`), and `x >= 0` for the
//! variables that are never negative in the samples. Before those, a round with the shapes and
//! case splits of [`crate::abs::templates`] (`p -> q` on the conditions' comparisons) gives
//! the disjunctive invariant of a loop that runs only for some inputs (`countdown` over a
//! signed range). All are guesses; Houdini keeps the inductive ones and a fresh solver
//! re-checks what a proof rests on.
//!
//! Known weaknesses:
//! - A new version with a loop between two events (its own silent loop) is not handled: its
//!   termination would have to be proved.
//! - Families must be declared alike in both versions (same type and range).
//! - More missing behaviours come from the bounded search of the product without the traces
//!   found ([`decide_excluding`]); its invariants are not tried there (they would have to
//!   relate the monitor to the data), so it proves that none is left only when its unrolling
//!   is complete within 16 iterations (a loop bounded by a received value's range
//!   is, when the solver finds at that depth that no run goes on: [`super::bmc::Bmc::settle_exhausted`]).
//!   After a refutation that the new version performs on another way, its extensions are left
//!   to the loop of [`super::contain`].
//! - The degree-2 candidates cost nonlinear solver queries; they are only tried when the
//!   linear ones do not prove the product. A relation of degree 3 or more is not guessed.
//! - A contained pair whose proof needs an invariant outside the candidates (a disjunction on
//!   something other than a condition's comparison, a bound that no condition names) is left to the loop of [`super::contain`], after up to
//!   `MAX_DEPTH` (16) iterations of the bounded search.
//! - The product has one location per (old location, new resume point) and per (old event edge,
//!   new location): beyond [`MAX_LOCATIONS`] it is not built.

use std::collections::VecDeque;

use z3::ast::{Ast, BV, Bool};

use crate::abs::ErrorKind;
use crate::abs::invariant;
use crate::abs::refine::{Replay, Witness, WitnessStep, simulate};
use crate::deadline::Deadline;
use crate::front::ERROR_EVENT;
use crate::ir::interp;
use crate::ir::{
    BinOp, Component, Edge, Event, Expr, ExprKind, IntTy, LocId, Lvalue, Origin, Stmt, Storage, UnOp, VarDecl, VarId,
    VarTy,
};
use crate::smt::{self, Encoder, Smt, SmtStats, Sym, Take};
use crate::util::HashMap;

/// The most locations a product may have.
pub const MAX_LOCATIONS: usize = 20_000;
/// Loop iterations the bounded search unrolls before the invariants are tried.
const FIRST_DEPTH: usize = 2;
/// Loop iterations the bounded search unrolls at most.
const MAX_DEPTH: usize = 16;
/// Variables of one width that take part in the degree-2 candidates, at most.
const MAX_POLY_VARS: usize = 8;

/// What one edge of the product stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    /// A copy of the old version's edge.
    Old(usize),
    /// The old version takes its event edge; the new version runs to its next event.
    Enter(usize),
    /// A copy of the new version's edge.
    New(usize),
    /// The value both versions receive for the old version's receive edge.
    Pick(usize),
    /// A comparison, a store or the error of a mismatch.
    Glue,
}

/// The product of an old and a new version of one component.
pub struct Product<'a> {
    old: &'a Component,
    /// The product, a component whose errors are the places where the new version does not
    /// keep up with the old one.
    pub comp: Component,
    tags: Vec<Tag>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// The old version at a location, the new one waiting at a location.
    Waiting(LocId, LocId),
    /// The old version about to take an event edge, the new one at a location.
    Catching(usize, LocId),
}

struct Build<'a> {
    old: &'a Component,
    new: &'a Component,
    new_offset: u32,
    received: HashMap<String, VarId>,
    ids: HashMap<Key, LocId>,
    work: VecDeque<(Key, LocId)>,
    n_locs: u32,
    exit: LocId,
    edges: Vec<(Edge, Tag)>,
    /// The traces the product no longer follows, when it continues after some were found.
    monitor: Option<Monitor>,
}

impl Build<'_> {
    fn fresh(&mut self) -> Result<LocId, String> {
        if self.n_locs as usize >= MAX_LOCATIONS {
            return Err(format!("the product has more than {MAX_LOCATIONS} locations"));
        }
        self.n_locs += 1;
        Ok(LocId(self.n_locs - 1))
    }

    fn loc(&mut self, key: Key) -> Result<LocId, String> {
        if let Some(&l) = self.ids.get(&key) {
            return Ok(l);
        }
        let l = self.fresh()?;
        self.ids.insert(key, l);
        self.work.push_back((key, l));
        Ok(l)
    }

    fn add(&mut self, from: LocId, to: LocId, stmt: Stmt, origin: Option<Origin>, tag: Tag) {
        self.edges.push((Edge { from, to, stmt, origin }, tag));
    }

    fn error(&mut self, from: LocId, origin: Option<Origin>) {
        let exit = self.exit;
        self.add(from, exit, Stmt::Event(Event::Plain(ERROR_EVENT.to_string())), origin, Tag::Glue);
    }

    /// The old version at `lo`, the new one waiting at `resume`.
    fn waiting(&mut self, here: LocId, lo: LocId, resume: LocId) -> Result<(), String> {
        for (e, edge) in self.old.edges.iter().enumerate().filter(|(_, x)| x.from == lo) {
            match &edge.stmt {
                Stmt::Event(ev) if !is_error(ev) => {
                    let to = self.loc(Key::Catching(e, resume))?;
                    // An excluded trace ends with this event: the old version does not take it
                    // after that trace's prefix.
                    let from = match self.ends_here(&self.event_label_conds(e, true)) {
                        Some(any) => self.guard(here, any, edge.origin.clone())?,
                        None => here,
                    };
                    self.add(from, to, Stmt::Skip, edge.origin.clone(), Tag::Enter(e));
                }
                stmt => {
                    let to = self.loc(Key::Waiting(edge.to, resume))?;
                    let own_error = match stmt {
                        Stmt::Event(_) => Some(ErrorKind::Reach.event(&self.old.name)),
                        Stmt::Check(_, f) => Some(ErrorKind::Fault(*f).event(&self.old.name)),
                        _ => None,
                    };
                    let ended = own_error.and_then(|label| self.ends_here(&[(label, None)]));
                    match (ended, stmt) {
                        (Some(any), Stmt::Check(c, _)) => {
                            // The old version's own error ends an excluded trace: after its
                            // prefix, only the check's normal way.
                            let from = self.guard(here, any.clone(), edge.origin.clone())?;
                            self.add(from, to, shift_stmt(stmt, 0), edge.origin.clone(), Tag::Old(e));
                            let g = self.fresh()?;
                            self.add(here, g, Stmt::Assume(any), edge.origin.clone(), Tag::Glue);
                            self.add(g, to, Stmt::Assume(shift_expr(c, 0)), edge.origin.clone(), Tag::Old(e));
                        }
                        (Some(any), _) => {
                            let from = self.guard(here, any, edge.origin.clone())?;
                            self.add(from, to, shift_stmt(stmt, 0), edge.origin.clone(), Tag::Old(e));
                        }
                        (None, _) => self.add(here, to, shift_stmt(stmt, 0), edge.origin.clone(), Tag::Old(e)),
                    }
                }
            }
        }
        Ok(())
    }

    /// A fresh location reached from `here` when `blocked` does not hold.
    fn guard(&mut self, here: LocId, blocked: Expr, origin: Option<Origin>) -> Result<LocId, String> {
        let g = self.fresh()?;
        self.add(here, g, Stmt::Assume(Expr::unary(UnOp::Not, blocked)), origin, Tag::Glue);
        Ok(g)
    }

    /// The labels the old version's event edge `eo` may perform, each with the condition on the
    /// product's state under which it does (`None`: always): its name, or its name and value for a
    /// ranged family. `enter`: before the value of a receive is chosen, when every value counts.
    fn event_label_conds(&self, eo: usize, enter: bool) -> Vec<(String, Option<Expr>)> {
        let Some(m) = &self.monitor else { return Vec::new() };
        let Stmt::Event(ev) = &self.old.edges[eo].stmt else { return Vec::new() };
        let name = ev.name();
        let family = self.old.family(name).filter(|f| f.range.is_some());
        let mut out = Vec::new();
        let labels = m.steps.iter().map(|(_, l, _)| l).chain(m.ends.iter().map(|(_, l)| l));
        for label in labels {
            if out.iter().any(|(l, _)| l == label) {
                continue;
            }
            let cond = match (family, ev) {
                (None, _) if label == name => None,
                (None, _) => continue,
                (Some(f), _) => {
                    let value = label.strip_prefix(name).and_then(|r| r.strip_prefix('.'));
                    let Some(v) = value.and_then(|v| v.parse::<i128>().ok()) else { continue };
                    match ev {
                        Event::Send(_, x) => Some(Expr::binary(BinOp::Eq, shift_expr(x, 0), Expr::constant(v, x.ty))),
                        Event::Recv(..) if enter => None,
                        Event::Recv(..) => {
                            let Some(&var) = self.received.get(name) else { continue };
                            Some(Expr::binary(BinOp::Eq, Expr::var(var, f.ty), Expr::constant(v, f.ty)))
                        }
                        Event::Plain(_) => continue,
                    }
                }
            };
            out.push((label.clone(), cond));
        }
        out
    }

    /// The condition under which the old version, about to perform one of `labels` (each under
    /// its condition), completes an excluded trace; `None` when it never does.
    fn ends_here(&self, labels: &[(String, Option<Expr>)]) -> Option<Expr> {
        let m = self.monitor.as_ref()?;
        let mut any: Option<Expr> = None;
        for (node, label) in &m.ends {
            let Some((_, cond)) = labels.iter().find(|(l, _)| l == label) else { continue };
            let c = m.at(*node, cond.clone());
            any = Some(match any {
                None => c,
                Some(a) => Expr::binary(BinOp::Or, a, c),
            });
        }
        any
    }

    /// Edges from `from` to `to` that advance the monitor over the event of the old version's
    /// edge `eo`, just matched by the new version.
    fn advance(&mut self, from: LocId, to: LocId, eo: usize, origin: Option<Origin>) -> Result<(), String> {
        let Some(m) = &self.monitor else { return Ok(()) };
        let (var, dead) = (m.var, m.dead);
        let labels = self.event_label_conds(eo, false);
        let ways: Vec<(Expr, i128)> = m
            .steps
            .iter()
            .filter_map(|(node, label, child)| {
                let (_, cond) = labels.iter().find(|(l, _)| l == label)?;
                Some((m.at(*node, cond.clone()), *child))
            })
            .collect();
        let set = |v: i128| Stmt::Assign(Lvalue::Var(var), Expr::constant(v, IntTy::U32));
        let mut none: Option<Expr> = None;
        for (cond, child) in ways {
            let g = self.fresh()?;
            self.add(from, g, Stmt::Assume(cond.clone()), origin.clone(), Tag::Glue);
            self.add(g, to, set(child), origin.clone(), Tag::Glue);
            none = Some(match none {
                None => cond,
                Some(a) => Expr::binary(BinOp::Or, a, cond),
            });
        }
        match none {
            None => self.add(from, to, set(dead), origin, Tag::Glue),
            Some(any) => {
                let g = self.guard(from, any, origin.clone())?;
                self.add(g, to, set(dead), origin, Tag::Glue);
            }
        }
        Ok(())
    }

    /// The old version about to take event edge `eo`, the new one at `ln`.
    fn catching(&mut self, here: LocId, eo: usize, ln: LocId) -> Result<(), String> {
        let out: Vec<usize> = (0..self.new.edges.len()).filter(|&e| self.new.edges[e].from == ln).collect();
        let origin = self.old.edges[eo].origin.clone();
        if out.is_empty() {
            // The new version has stopped.
            self.error(here, origin.clone());
        } else if out.iter().all(|&e| matches!(self.new.edges[e].stmt, Stmt::Assume(_))) {
            // Blocked when no condition holds.
            let mut any: Option<Expr> = None;
            for &e in &out {
                let Stmt::Assume(c) = &self.new.edges[e].stmt else { continue };
                let c = truth(shift_expr(c, self.new_offset));
                any = Some(match any {
                    None => c,
                    Some(a) => Expr::binary(BinOp::Or, a, c),
                });
            }
            if let Some(any) = any {
                let g = self.fresh()?;
                self.add(here, g, Stmt::Assume(Expr::unary(UnOp::Not, any)), origin.clone(), Tag::Glue);
                self.error(g, origin.clone());
            }
        }
        for en in out {
            let edge = &self.new.edges[en];
            match &edge.stmt {
                Stmt::Event(ev) if is_error(ev) => {
                    let exit = self.exit;
                    self.add(here, exit, edge.stmt.clone(), edge.origin.clone(), Tag::New(en));
                }
                Stmt::Event(_) => self.meet(here, eo, en)?,
                stmt => {
                    let to = self.loc(Key::Catching(eo, edge.to))?;
                    let stmt = shift_stmt(stmt, self.new_offset);
                    self.add(here, to, stmt, edge.origin.clone(), Tag::New(en));
                }
            }
        }
        Ok(())
    }

    /// The old version's event edge `eo` against the new version's event edge `en`.
    fn meet(&mut self, here: LocId, eo: usize, en: usize) -> Result<(), String> {
        let (old_edge, new_edge) = (&self.old.edges[eo], &self.new.edges[en]);
        let origin = new_edge.origin.clone();
        let Stmt::Event(ev1) = &old_edge.stmt else { return Err("not an event edge".into()) };
        let Stmt::Event(ev2) = &new_edge.stmt else { return Err("not an event edge".into()) };
        let mut to = self.loc(Key::Waiting(old_edge.to, new_edge.to))?;
        if self.monitor.is_some() {
            // The event is matched: the monitor follows it on the way to the next one.
            let matched = self.fresh()?;
            self.advance(matched, to, eo, origin.clone())?;
            to = matched;
        }
        match (ev1, ev2) {
            (Event::Plain(a), Event::Plain(b)) if a == b => self.add(here, to, Stmt::Skip, origin, Tag::Glue),
            (Event::Send(a, x1), Event::Send(b, x2)) if a == b => {
                if x1.ty != x2.ty {
                    return Err(format!("the values of `{a}` have different types in the two versions"));
                }
                let (x1, x2) = (shift_expr(x1, 0), shift_expr(x2, self.new_offset));
                let same = Expr::binary(BinOp::Eq, x1.clone(), x2.clone());
                self.add(here, to, Stmt::Assume(same), origin.clone(), Tag::Glue);
                let g = self.fresh()?;
                self.add(here, g, Stmt::Assume(Expr::binary(BinOp::Ne, x1, x2)), origin.clone(), Tag::Glue);
                self.error(g, origin);
            }
            (Event::Recv(a, l1), Event::Recv(b, l2)) if a == b => {
                let Some(&var) = self.received.get(a) else {
                    return Err(format!("the family `{a}` is not declared in both versions"));
                };
                let family = self.old.family(a).ok_or_else(|| format!("no family `{a}`"))?;
                let (ty, range) = (family.ty, family.range);
                let value = Expr::var(var, ty);
                let mut steps = vec![(Stmt::Havoc(Lvalue::Var(var)), Tag::Pick(eo))];
                if let Some((lo, hi)) = range {
                    let low = Expr::binary(BinOp::Le, Expr::constant(lo, ty), value.clone());
                    let high = Expr::binary(BinOp::Le, value.clone(), Expr::constant(hi, ty));
                    steps.push((Stmt::Assume(low), Tag::Glue));
                    steps.push((Stmt::Assume(high), Tag::Glue));
                }
                for (lv, offset, comp) in [(l1, 0, self.old), (l2, self.new_offset, self.new)] {
                    if let Some(lv) = lv {
                        let elem = comp.var(lv.var()).ty.elem();
                        steps.push((Stmt::Assign(shift_lvalue(lv, offset), value.clone().cast(elem)), Tag::Glue));
                    }
                }
                let mut at = here;
                let n = steps.len();
                for (i, (stmt, tag)) in steps.into_iter().enumerate() {
                    let next = if i + 1 == n { to } else { self.fresh()? };
                    self.add(at, next, stmt, origin.clone(), tag);
                    at = next;
                }
            }
            _ => self.error(here, origin),
        }
        Ok(())
    }
}

/// A trie of the traces a product excludes ([`Product::excluding`]), over the product's
/// variable `var`: 0 is the empty prefix, each proper prefix of a trace has a number, and
/// `dead` stands for a run that left every trace.
struct Monitor {
    var: VarId,
    /// (prefix, label, the prefix extended by the label), for the proper prefixes.
    steps: Vec<(i128, String, i128)>,
    /// (prefix, label): the label ends an excluded trace after that prefix.
    ends: Vec<(i128, String)>,
    dead: i128,
}

impl Monitor {
    fn new(var: VarId, traces: &[Vec<String>]) -> Monitor {
        let mut ids: Vec<Vec<String>> = vec![Vec::new()];
        let mut steps = Vec::new();
        let mut ends = Vec::new();
        for t in traces {
            let Some((last, prefix)) = t.split_last() else { continue };
            let mut at = 0i128;
            for i in 0..prefix.len() {
                let p = &t[..=i];
                at = match ids.iter().position(|q| q.as_slice() == p) {
                    Some(k) => k as i128,
                    None => {
                        ids.push(p.to_vec());
                        let k = (ids.len() - 1) as i128;
                        steps.push((at, t[i].clone(), k));
                        k
                    }
                };
            }
            if !ends.contains(&(at, last.clone())) {
                ends.push((at, last.clone()));
            }
        }
        Monitor { var, steps, ends, dead: ids.len() as i128 }
    }

    /// The monitor at prefix `node`, and `cond` if there is one.
    fn at(&self, node: i128, cond: Option<Expr>) -> Expr {
        let here = Expr::binary(BinOp::Eq, Expr::var(self.var, IntTy::U32), Expr::constant(node, IntTy::U32));
        match cond {
            None => here,
            Some(c) => Expr::binary(BinOp::And, here, c),
        }
    }
}

fn is_error(ev: &Event) -> bool {
    matches!(ev, Event::Plain(n) if n == ERROR_EVENT)
}

/// `c` as a truth value of type `int` (non-zero is true).
fn truth(c: Expr) -> Expr {
    let zero = Expr::constant(0, c.ty);
    Expr::binary(BinOp::Ne, c, zero)
}

fn shift_var(v: VarId, offset: u32) -> VarId {
    VarId(v.0 + offset)
}

fn shift_expr(e: &Expr, offset: u32) -> Expr {
    let kind = match &e.kind {
        ExprKind::Const(v) => ExprKind::Const(*v),
        ExprKind::Var(v) => ExprKind::Var(shift_var(*v, offset)),
        ExprKind::Load(v, i) => ExprKind::Load(shift_var(*v, offset), Box::new(shift_expr(i, offset))),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(shift_expr(a, offset))),
        ExprKind::Binary(op, a, b) => {
            ExprKind::Binary(*op, Box::new(shift_expr(a, offset)), Box::new(shift_expr(b, offset)))
        }
        ExprKind::Cast(a) => ExprKind::Cast(Box::new(shift_expr(a, offset))),
    };
    Expr { ty: e.ty, kind }
}

fn shift_lvalue(lv: &Lvalue, offset: u32) -> Lvalue {
    match lv {
        Lvalue::Var(v) => Lvalue::Var(shift_var(*v, offset)),
        Lvalue::Elem(v, i) => Lvalue::Elem(shift_var(*v, offset), shift_expr(i, offset)),
    }
}

fn shift_stmt(stmt: &Stmt, offset: u32) -> Stmt {
    match stmt {
        Stmt::Skip => Stmt::Skip,
        Stmt::Assign(lv, e) => Stmt::Assign(shift_lvalue(lv, offset), shift_expr(e, offset)),
        Stmt::Havoc(lv) => Stmt::Havoc(shift_lvalue(lv, offset)),
        Stmt::Assume(c) => Stmt::Assume(shift_expr(c, offset)),
        Stmt::Check(c, f) => Stmt::Check(shift_expr(c, offset), *f),
        Stmt::Event(Event::Plain(n)) => Stmt::Event(Event::Plain(n.clone())),
        Stmt::Event(Event::Send(n, e)) => Stmt::Event(Event::Send(n.clone(), shift_expr(e, offset))),
        Stmt::Event(Event::Recv(n, lv)) => {
            Stmt::Event(Event::Recv(n.clone(), lv.as_ref().map(|lv| shift_lvalue(lv, offset))))
        }
    }
}

/// Whether `comp` can loop without performing an event: a cycle of edges none of which is an
/// event (an error call ends the run, so it counts as an event here).
pub fn loops_silently(comp: &Component) -> bool {
    let n = comp.n_locs as usize;
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &comp.edges {
        if !matches!(e.stmt, Stmt::Event(_)) && e.from.index() < n && e.to.index() < n {
            succ[e.from.index()].push(e.to.index());
        }
    }
    // Iterative depth-first search: 0 unvisited, 1 on the stack, 2 done.
    let mut mark = vec![0u8; n];
    for root in 0..n {
        if mark[root] != 0 {
            continue;
        }
        mark[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some((l, i)) = stack.pop() {
            if i < succ[l].len() {
                stack.push((l, i + 1));
                let t = succ[l][i];
                match mark[t] {
                    0 => {
                        mark[t] = 1;
                        stack.push((t, 0));
                    }
                    1 => return true,
                    _ => {}
                }
            } else {
                mark[l] = 2;
            }
        }
    }
    false
}

impl<'a> Product<'a> {
    /// The product of `old` and `new`, or why it is not built.
    pub fn new(old: &'a Component, new: &'a Component) -> Result<Product<'a>, String> {
        Product::excluding(old, new, &[])
    }

    /// The product of `old` and `new` in which the old version performs none of the traces
    /// `excluded` (labels as [`Refutation::trace`] has them): a monitor variable follows the
    /// old version's events along a trie of their prefixes, and the old version does not take
    /// the last event of one after its prefix (a received value counts as any value there, as
    /// the error of a receive the new version does not reach is reported with the range's
    /// lowest). So no error of this product has an excluded trace as a prefix, and a run it
    /// cuts off is one whose trace extends an excluded one.
    pub fn excluding(old: &'a Component, new: &'a Component, excluded: &[Vec<String>]) -> Result<Product<'a>, String> {
        for f in &old.families {
            if let Some(g) = new.family(&f.name)
                && (g.ty != f.ty || g.range != f.range)
            {
                return Err(format!("the family `{}` is declared differently in the two versions", f.name));
            }
        }
        if loops_silently(new) {
            return Err("the new version can loop without an event".into());
        }
        let mut vars: Vec<VarDecl> = Vec::new();
        for (prefix, comp) in [("o.", old), ("n.", new)] {
            for v in &comp.vars {
                vars.push(VarDecl { name: format!("{prefix}{}", v.name), ty: v.ty, storage: v.storage.clone() });
            }
        }
        let mut received = HashMap::default();
        for f in &old.families {
            received.insert(f.name.clone(), VarId(vars.len() as u32));
            vars.push(VarDecl { name: format!("recv.{}", f.name), ty: VarTy::Scalar(f.ty), storage: Storage::Local });
        }
        let monitor = (!excluded.is_empty()).then(|| {
            let var = VarId(vars.len() as u32);
            vars.push(VarDecl {
                name: "monitor".into(),
                ty: VarTy::Scalar(IntTy::U32),
                storage: Storage::Global { init: vec![0] },
            });
            Monitor::new(var, excluded)
        });
        let mut b = Build {
            old,
            new,
            new_offset: old.vars.len() as u32,
            received,
            ids: HashMap::default(),
            work: VecDeque::new(),
            n_locs: 0,
            exit: LocId(0),
            edges: Vec::new(),
            monitor,
        };
        b.exit = b.fresh()?;
        let entry = b.loc(Key::Waiting(old.entry, new.entry))?;
        while let Some((key, here)) = b.work.pop_front() {
            match key {
                Key::Waiting(lo, resume) => b.waiting(here, lo, resume)?,
                Key::Catching(eo, ln) => b.catching(here, eo, ln)?,
            }
        }
        let mut edges = std::mem::take(&mut b.edges);
        edges.sort_by_key(|(e, _)| e.from);
        let (edges, tags): (Vec<Edge>, Vec<Tag>) = edges.into_iter().unzip();
        let comp = Component {
            name: old.name.clone(),
            vars,
            families: Vec::new(),
            n_locs: b.n_locs,
            entry,
            exit: b.exit,
            edges,
        };
        Ok(Product { old, comp, tags })
    }

    /// The old version's run and trace along the product's run `run`, which ends in an error:
    /// its events up to the one the new version did not follow (or its own error). `None` when
    /// the interpreter does not replay it with that trace.
    pub fn old_run(&self, run: &Witness) -> Option<Refutation> {
        let old = self.old;
        let mut steps: Vec<WitnessStep> = Vec::new();
        let mut waiting: Option<usize> = None;
        for s in &run.steps {
            match *self.tags.get(s.edge)? {
                Tag::Old(e) => steps.push(WitnessStep { edge: e, take: s.take, inputs: s.inputs.clone() }),
                Tag::Enter(e) => {
                    steps.push(WitnessStep { edge: e, take: Take::Silent, inputs: Vec::new() });
                    waiting = Some(steps.len() - 1);
                }
                Tag::Pick(_) => {
                    let v = *s.inputs.first()?;
                    let at = waiting?;
                    steps[at].take = Take::Value(v);
                    steps[at].inputs = vec![v];
                }
                Tag::New(_) | Tag::Glue => {}
            }
        }
        // A receive that the new version did not reach: any value of the range will do.
        // A send: the value the old version sends, from the interpreter's state.
        let ends_in_fault = steps.last().is_some_and(|s| s.take == Take::Fault);
        let followed = if ends_in_fault { steps.len() - 1 } else { steps.len() };
        for i in 0..followed {
            let Stmt::Event(ev) = &old.edges[steps[i].edge].stmt else { continue };
            let range = old.family(ev.name()).and_then(|f| f.range);
            match (ev, range, steps[i].take) {
                (Event::Recv(..), Some((lo, _)), Take::Silent) => {
                    steps[i].take = Take::Value(lo);
                    steps[i].inputs = vec![lo];
                }
                (Event::Send(_, x), Some(_), _) => {
                    let inputs: Vec<i128> = steps[..i].iter().flat_map(|s| s.inputs.iter().copied()).collect();
                    let edges: Vec<usize> = steps[..i].iter().map(|s| s.edge).collect();
                    let states = interp::follow(old, &edges, &mut interp::Scripted::new(inputs))?;
                    steps[i].take = Take::Value(crate::ir::eval::eval(x, states.last()?));
                }
                _ => {}
            }
        }
        let witness = Witness { steps };
        let trace = labels(old, &witness);
        // The interpreter's run with those inputs must perform that trace.
        let events = trace.len() - usize::from(ends_in_fault);
        let limits = interp::Limits { max_steps: 10_000_000, max_events: events.max(1) };
        let replay = interp::run(old, &mut interp::Scripted::new(witness.inputs()), limits);
        let mut seen = super::cegar::run_labels(old, &replay);
        if events == 0 && !ends_in_fault {
            return None;
        }
        seen.truncate(trace.len());
        (seen == trace).then_some(Refutation { old_run: witness, trace })
    }
}

/// The labels of the old version's model along `run`: its events, then its error if it ends in
/// one.
fn labels(comp: &Component, run: &Witness) -> Vec<String> {
    let mut out = Vec::new();
    for s in &run.steps {
        match (&comp.edges[s.edge].stmt, s.take) {
            (Stmt::Event(ev), _) if is_error(ev) => out.push(ErrorKind::Reach.event(&comp.name)),
            (Stmt::Event(ev), Take::Value(v)) => out.push(format!("{}.{v}", ev.name())),
            (Stmt::Event(ev), _) => out.push(ev.name().to_string()),
            (Stmt::Check(_, f), Take::Fault) => out.push(ErrorKind::Fault(*f).event(&comp.name)),
            _ => {}
        }
    }
    out
}

/// An old run whose trace the new version failed to follow on one of its ways.
#[derive(Clone, Debug)]
pub struct Refutation {
    /// The old version's run, replayed by the interpreter.
    pub old_run: Witness,
    /// Its trace, up to the event the new version did not follow.
    pub trace: Vec<String>,
}

/// How the product was proved safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Proof {
    /// The bounded search unrolled every run.
    Unrolling,
    /// Invariants at the cut points exclude every error.
    Invariants,
    /// k-induction over the blocks, strengthened by the invariants.
    KInduction(usize),
}

impl std::fmt::Display for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Proof::Unrolling => f.write_str("unrolling"),
            Proof::Invariants => f.write_str("invariants"),
            Proof::KInduction(k) => write!(f, "k-induction (k = {k})"),
        }
    }
}

/// What the product decided.
#[derive(Clone, Debug)]
pub enum Decision {
    /// The old version is contained in the new one.
    Contained(Proof),
    /// A candidate missing behaviour (to be confirmed by Validation 2).
    Refuted(Refutation),
    /// Neither, and why.
    Undecided(String),
}

/// Counts for `--stats`.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct ProductStats {
    /// Locations of the product.
    pub locations: usize,
    /// Cut points of its block encoding (when the invariants were tried).
    pub cut_points: usize,
    /// Loop iterations the bounded search unrolled.
    pub depth: usize,
    /// Solver checks.
    pub calls: u64,
    /// Of the bounded search's checks, those over budget that a fresh solver answered
    /// ([`crate::smt::SmtStats::one_shot`]).
    pub one_shot: u64,
}

/// Decides containment of `old` in `new` on their product, when it can: each query has
/// `budget` resource units and at most the time left before `deadline`.
pub fn decide(old: &Component, new: &Component, budget: u32, deadline: Deadline) -> (Decision, ProductStats) {
    decide_on(old, new, &[], budget, deadline)
}

/// [`decide`] on the product that excludes the traces `excluded` and their extensions
/// ([`Product::excluding`]): a refutation's trace extends none of them, and `Contained` means
/// that every trace of `old` that extends none of them is one of `new`. So when each excluded
/// trace is a missing behaviour, every missing behaviour extends one of them. Only the bounded
/// search runs here, to `MAX_DEPTH` (16) loop iterations: invariants would have to relate the
/// monitor to the data, which the candidates seldom do, and each attempt costs as much as the
/// first search's (so `Contained` comes only from an unrolling that holds every run).
pub fn decide_excluding(
    old: &Component,
    new: &Component,
    excluded: &[Vec<String>],
    budget: u32,
    deadline: Deadline,
) -> (Decision, ProductStats) {
    let (decision, stats) = decide_on(old, new, excluded, budget, deadline);
    match decision {
        // The monitor is what keeps them out; a trace that is not kept out is its fault, and
        // not worth a report.
        Decision::Refuted(r) if excluded.iter().any(|t| r.trace.starts_with(t)) => {
            (Decision::Undecided(format!("the product repeated the excluded trace {}", r.trace.join(" "))), stats)
        }
        d => (d, stats),
    }
}

fn decide_on(
    old: &Component,
    new: &Component,
    excluded: &[Vec<String>],
    budget: u32,
    deadline: Deadline,
) -> (Decision, ProductStats) {
    let mut stats = ProductStats::default();
    let product = match Product::excluding(old, new, excluded) {
        Ok(p) => p,
        Err(why) => return (Decision::Undecided(why), stats),
    };
    stats.locations = product.comp.n_locs as usize;
    let comp = &product.comp;
    let mut bmc = super::bmc::Bmc::new(comp, budget, deadline);
    let mut calls = SmtStats::default();
    let search = |bmc: &mut super::bmc::Bmc, upto: usize, calls: &mut SmtStats| -> Option<Decision> {
        // What is unrolled already first, then one more iteration at a time: the shallowest
        // error gives the shortest old run.
        let mut found = bmc.deepen(0);
        while matches!(found, Ok(None)) && bmc.depth() < upto && !bmc.exhausted() {
            found = bmc.deepen(1);
        }
        // At the last bound, ask the solver whether any run goes deeper (a loop bounded by a
        // received value's range); the shallower bound is followed by the invariants instead.
        if matches!(found, Ok(None)) && upto >= MAX_DEPTH {
            bmc.settle_exhausted();
        }
        *calls = bmc.smt.stats;
        match found {
            Ok(Some(path)) => Some(refute(&product, &path, budget, deadline)),
            Ok(None) if bmc.exhausted() => Some(Decision::Contained(Proof::Unrolling)),
            Ok(None) => None,
            Err(e) => Some(Decision::Undecided(format!("the bounded search of the product gave up: {e}"))),
        }
    };
    // With excluded traces, the bounded search alone ([`decide_excluding`]).
    let first_depth = if excluded.is_empty() { FIRST_DEPTH } else { MAX_DEPTH };
    if let Some(d) = search(&mut bmc, first_depth, &mut calls) {
        stats.depth = bmc.depth();
        stats.calls = calls.calls;
        stats.one_shot = calls.one_shot;
        return (d, stats);
    }
    if !excluded.is_empty() {
        stats.depth = bmc.depth();
        stats.calls = calls.calls;
        stats.one_shot = calls.one_shot;
        return (Decision::Undecided(format!("no other error within {MAX_DEPTH} iterations")), stats);
    }
    let (proof, cuts, proof_calls) = prove(comp, budget, deadline);
    stats.cut_points = cuts;
    if let Some(p) = proof {
        stats.depth = bmc.depth();
        stats.calls = calls.calls + proof_calls;
        stats.one_shot = calls.one_shot;
        return (Decision::Contained(p), stats);
    }
    let d = search(&mut bmc, MAX_DEPTH, &mut calls)
        .unwrap_or_else(|| Decision::Undecided(format!("no proof, and no error within {MAX_DEPTH} iterations")));
    stats.depth = bmc.depth();
    stats.calls = calls.calls + proof_calls;
    stats.one_shot = calls.one_shot;
    (d, stats)
}

fn refute(product: &Product, path: &[(usize, Take)], budget: u32, deadline: Deadline) -> Decision {
    let mut smt = Smt::with_deadline(budget, deadline);
    match simulate(&Encoder::new(&product.comp), &mut smt, path) {
        Ok(Replay::Feasible(run)) => match product.old_run(&run) {
            Some(r) => Decision::Refuted(r),
            None => Decision::Undecided("the old run of the product's error did not replay".into()),
        },
        Ok(Replay::Infeasible { .. }) => Decision::Undecided("the product's error path is not a run".into()),
        Err(e) => Decision::Undecided(format!("simulating the product's error path: {e}")),
    }
}

/// Invariants at the cut points of the product, pruned by Houdini and re-checked by a fresh
/// solver; k-induction over them when they are inductive but too weak. First with the
/// candidates of [`invariant`] alone, then, when they do not prove it, with the shapes and case
/// splits of [`crate::abs::templates`] too, then with the polynomial ones instead (their queries
/// are dearer). Returns the proof, the number of cut points and the solver
/// checks made.
fn prove(comp: &Component, budget: u32, deadline: Deadline) -> (Option<Proof>, usize, u64) {
    let enc = Encoder::new(comp);
    let vocab = enc.state("");
    let blocks = invariant::blocks(&enc, &vocab, &|_, _| true, false);
    let n_cuts = blocks.cuts.len();
    let samples = invariant::sample_states(comp, &blocks.cuts);
    let base = invariant::candidate_facts(comp, &enc, &vocab, &blocks.cuts, &samples);
    let mut calls = 0;
    // What a proof rests on is re-checked by a solver of its own, kept for every round: it
    // only answers queries in scopes of their own, so the answers it keeps by formula hold in
    // later rounds, which ask many of the same queries again (k-induction's base cases do not
    // depend on the candidates; in the `it` tests, 44 of the 423 k-induction checks of the
    // products that cost a tenth of a million units or more were asked again).
    let mut fresh = Smt::with_deadline(budget, deadline);
    let arrays = vocab.iter().any(|s| matches!(s, Sym::Arr(..)));
    for round in [Round::Base, Round::Cases, Round::Polynomial] {
        let mut cands = base.clone();
        let mut more = false;
        for (c, rows) in cands.iter_mut().zip(&samples) {
            let extra = match round {
                Round::Base => Vec::new(),
                Round::Cases => case_candidates(comp, &enc, &vocab, rows),
                Round::Polynomial => polynomial_candidates(comp, &vocab, rows),
            };
            for p in extra {
                if c.len() >= MAX_CANDIDATES && round == Round::Cases {
                    break;
                }
                if !c.contains(&p) {
                    c.push(p);
                    more = true;
                }
            }
        }
        if round != Round::Base && !more {
            continue;
        }
        let polynomial = round == Round::Polynomial;
        let mut smt = Smt::with_deadline(budget, deadline);
        // The case splits are many and seldom needed: their pruning is bounded as round 2 of
        // `invariant::prove` is, so that a product they cannot prove (the IPC's queues) reaches
        // the deeper bounded search soon.
        let pruned = match round {
            Round::Cases => invariant::houdini_prune_bounded(&blocks, &vocab, &mut cands, MAX_PRUNES_CASES, &mut smt),
            _ => invariant::houdini_prune(&blocks, &vocab, &mut cands, &mut smt),
        };
        calls += smt.stats.calls;
        if let Err(e) = pruned {
            tracing::debug!(%e, polynomial, "product invariants: Houdini gave up");
            continue;
        }
        tracing::debug!(invariants = ?cands, polynomial, "product invariants");
        let invs: Vec<Bool> = cands.iter().map(|c| Bool::and(c)).collect();
        let before = fresh.stats.calls;
        let mut proof = None;
        if matches!(invariant::check(&blocks, &vocab, &invs, &mut fresh), Ok(true)) {
            proof = Some(Proof::Invariants);
        } else if matches!(invariant::is_inductive(&blocks, &vocab, &invs, &mut fresh), Ok(true)) {
            // Over arrays, each unrolling is asked of a one-shot solver: Z3's incremental mode
            // does not simplify the chains of stores that the steps' equations build, and the
            // product of the IPC's queue versions (ipc3) ran out of its units incrementally on
            // queries that one-shot checks answered, at 0.36 of the work over the whole test.
            // Over bit-vectors alone the incremental solver is the cheaper (the degree-2
            // invariants of `contain::refinements_do_not_grow_with_the_input_range`: 6 times
            // the units one-shot). Measured in benches/TESTS.md (15t11).
            fresh.set_one_shot(arrays);
            let k = invariant::k_induction(&blocks, &vocab, &invs, invariant::PROVE_MAX_K, &mut fresh);
            fresh.set_one_shot(false);
            if let Ok(Some(k)) = k {
                proof = Some(Proof::KInduction(k));
            }
        }
        calls += fresh.stats.calls - before;
        if proof.is_some() {
            return (proof, n_cuts, calls);
        }
    }
    (None, n_cuts, calls)
}

/// The rounds of candidates [`prove`] tries, cheapest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Round {
    /// [`invariant`]'s candidates.
    Base,
    /// With intervals, octagons, congruences and case splits ([`crate::abs::templates`]).
    Cases,
    /// With the degree-2 equalities of [`polynomial_candidates`].
    Polynomial,
}

/// The most candidates per cut point in the round of case splits.
const MAX_CANDIDATES: usize = 240;
/// The most rounds of Houdini's pruning in the round of case splits.
const MAX_PRUNES_CASES: usize = 150;

/// The shapes of [`crate::abs::templates`] that every row satisfies, and case splits `p -> q`
/// on the comparisons of the product's conditions: the disjunctive invariants of a loop that
/// runs only for some inputs (`countdown` over a signed range: `x > 0 -> k >= 0`, `x <= 0 -> k
/// == x`).
fn case_candidates(comp: &Component, enc: &Encoder, vocab: &[Sym], rows: &[interp::State]) -> Vec<Bool> {
    use crate::abs::templates;
    let refs: Vec<&interp::State> = rows.iter().collect();
    // Every variable of the product counts as live: an empty liveness slice means all.
    let mut out = templates::shapes(comp, vocab, &refs, &[]);
    let atoms = templates::split_atoms(comp);
    out.extend(templates::splits(comp, enc, vocab, rows, &[], &atoms, &|r| {
        invariant::sample_equalities(comp, enc, vocab, r)
    }));
    out
}

/// Degree-2 polynomial equalities that every row satisfies, among the scalar variables of one
/// width that vary in `rows` (one of each group of variables equal in every row), solved by
/// exact division where a variable occurs alone; and `x >= 0` for the signed variables never
/// negative in `rows`.
fn polynomial_candidates(comp: &Component, vocab: &[Sym], rows: &[interp::State]) -> Vec<Bool> {
    let mut out = Vec::new();
    if rows.len() < 2 {
        return out;
    }
    let column = |i: usize| -> Vec<i128> { rows.iter().map(|s| s.get(VarId(i as u32), 0).unwrap_or(0)).collect() };
    let scalars: Vec<(usize, IntTy)> = comp
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.ty {
            VarTy::Scalar(t) => Some((i, t)),
            VarTy::Array(..) => None,
        })
        .collect();
    for &(i, t) in &scalars {
        if t.signed && column(i).iter().all(|&v| v >= 0) {
            let Sym::Bv(x) = &vocab[i] else { continue };
            out.push(x.bvsge(BV::from_u64(0, u32::from(t.bits))));
        }
    }
    let mut widths: Vec<IntTy> = scalars.iter().map(|&(_, t)| t).collect();
    widths.sort_by_key(|t| (t.bits, t.signed));
    widths.dedup();
    for ty in widths {
        let mut chosen: Vec<(usize, Vec<i128>)> = Vec::new();
        for &(i, t) in &scalars {
            if t != ty {
                continue;
            }
            let col = column(i);
            if col.iter().all(|&v| v == col[0]) || chosen.iter().any(|(_, c)| *c == col) {
                continue;
            }
            chosen.push((i, col));
            if chosen.len() == MAX_POLY_VARS {
                break;
            }
        }
        if chosen.len() < 2 {
            continue;
        }
        // Columns: the variables, their products (pairs and squares), then the constant 1.
        let n = chosen.len();
        let mut monomials: Vec<(usize, Option<usize>)> = (0..n).map(|a| (a, None)).collect();
        for a in 0..n {
            for b in a..n {
                monomials.push((a, Some(b)));
            }
        }
        let value = |m: &(usize, Option<usize>), r: usize| -> Option<i128> {
            let x = chosen[m.0].1[r];
            match m.1 {
                None => Some(x),
                Some(b) => x.checked_mul(chosen[b].1[r]),
            }
        };
        let mut matrix = Vec::with_capacity(rows.len());
        for r in 0..rows.len() {
            let mut row = Vec::with_capacity(monomials.len() + 1);
            for m in &monomials {
                row.push(match value(m, r) {
                    Some(v) => v,
                    None => return out,
                });
            }
            row.push(1);
            matrix.push(row);
        }
        let Some(basis) = invariant::integer_null_space(matrix, monomials.len() + 1) else { continue };
        let bv = |k: usize| -> Option<BV> {
            match &vocab[chosen[k].0] {
                Sym::Bv(b) => Some(b.clone()),
                Sym::Arr(..) => None,
            }
        };
        let term = |m: &(usize, Option<usize>)| -> Option<BV> {
            let x = bv(m.0)?;
            match m.1 {
                None => Some(x),
                Some(b) => Some(x.bvmul(&bv(b)?)),
            }
        };
        let constant = |c: i128| smt::const_bv(c, IntTy { bits: ty.bits, signed: true });
        for v in basis.into_iter().take(16) {
            // Linear relations are the affine candidates' business.
            if monomials.iter().zip(&v).all(|(m, &c)| c == 0 || m.1.is_none()) {
                continue;
            }
            let sum = |skip: Option<usize>| -> Option<BV> {
                let mut s = constant(v[monomials.len()]);
                for (k, m) in monomials.iter().enumerate() {
                    if v[k] != 0 && Some(k) != skip {
                        s = s.bvadd(term(m)?.bvmul(constant(v[k])));
                    }
                }
                Some(s)
            };
            let Some(all) = sum(None) else { continue };
            out.push(all.eq(constant(0)).simplify());
            // Solved for a variable that occurs alone with a coefficient a: x == -(rest) / a.
            for (k, m) in monomials.iter().enumerate().take(n) {
                let a = v[k];
                if a.abs() < 2 || m.1.is_some() {
                    continue;
                }
                let (Some(rest), Some(x)) = (sum(Some(k)), term(m)) else { continue };
                let (num, den) = if a > 0 { (rest.bvneg(), constant(a)) } else { (rest, constant(-a)) };
                let q = if ty.signed { num.bvsdiv(&den) } else { num.bvudiv(&den) };
                out.push(x.eq(&q).simplify());
            }
        }
    }
    out
}

/// Whether some run of `comp` performs `trace` (labels as its model shows them: `name`,
/// `name.v`, `comp!reach_error`, `comp!<fault>`), decided by a bounded search of `comp`
/// restricted to the trace: one location per (location, events done), event edges kept only
/// where they perform the next label, a call of `reach_error()` once all are done. When `comp`
/// cannot loop without an event, that component has no cycle, its unrolling is complete, and
/// the answer is exact: `Some(false)` means no run performs the trace (Validation 2 without an
/// abstraction, so without enumerating the values of a range). `None` when it cannot say.
/// Also returns the solver checks made.
pub fn performs(comp: &Component, trace: &[String], budget: u32, deadline: Deadline) -> (Option<bool>, u64) {
    if loops_silently(comp) {
        return (None, 0);
    }
    let Some(restricted) = restrict(comp, trace) else { return (None, 0) };
    let mut bmc = super::bmc::Bmc::new(&restricted, budget, deadline);
    let mut found = bmc.deepen(0);
    while matches!(found, Ok(None)) && !bmc.exhausted() && bmc.depth() <= MAX_DEPTH {
        found = bmc.deepen(1);
    }
    if matches!(found, Ok(None)) {
        bmc.settle_exhausted();
    }
    let answer = match found {
        Ok(Some(_)) => Some(true),
        Ok(None) if bmc.exhausted() => Some(false),
        _ => None,
    };
    (answer, bmc.smt.stats.calls)
}

/// [`performs`]'s component: `comp` restricted to performing `trace`, calling `reach_error()`
/// once it has. `None` for a label it cannot read.
fn restrict(comp: &Component, trace: &[String]) -> Option<Component> {
    let n = trace.len();
    let mut ids: HashMap<(LocId, usize), LocId> = HashMap::default();
    let mut work: VecDeque<(LocId, usize, LocId)> = VecDeque::new();
    let mut edges: Vec<Edge> = Vec::new();
    let exit = LocId(0);
    let goal = LocId(1);
    let mut n_locs = 2u32;
    let reach = Stmt::Event(Event::Plain(ERROR_EVENT.to_string()));
    edges.push(Edge { from: goal, to: exit, stmt: reach.clone(), origin: None });
    let mut loc = |l: LocId, j: usize, work: &mut VecDeque<(LocId, usize, LocId)>| -> Option<LocId> {
        if j == n {
            return Some(goal);
        }
        if let Some(&id) = ids.get(&(l, j)) {
            return Some(id);
        }
        if n_locs as usize >= MAX_LOCATIONS {
            return None;
        }
        let id = LocId(n_locs);
        n_locs += 1;
        ids.insert((l, j), id);
        work.push_back((l, j, id));
        Some(id)
    };
    let succ = comp.successors();
    let entry = loc(comp.entry, 0, &mut work)?;
    while let Some((l, j, here)) = work.pop_front() {
        let want = &trace[j];
        for &e in succ.get(l.index()).map(Vec::as_slice).unwrap_or(&[]) {
            let edge = &comp.edges[e];
            let origin = edge.origin.clone();
            let mut add = |stmt: Stmt, to: LocId| edges.push(Edge { from: here, to, stmt, origin: origin.clone() });
            match &edge.stmt {
                Stmt::Event(ev) if is_error(ev) => {
                    if *want == ErrorKind::Reach.event(&comp.name) {
                        add(Stmt::Skip, goal);
                    }
                }
                Stmt::Check(c, f) => {
                    let to = loc(edge.to, j, &mut work)?;
                    add(Stmt::Assume(c.clone()), to);
                    if *want == ErrorKind::Fault(*f).event(&comp.name) {
                        add(Stmt::Assume(Expr::unary(UnOp::Not, c.clone())), goal);
                    }
                }
                Stmt::Event(ev) => {
                    let ranged = comp.family(ev.name()).and_then(|f| f.range).is_some();
                    let value = if ranged {
                        match want.rsplit_once('.') {
                            Some((name, v)) if name == ev.name() => Some(v.parse::<i128>().ok()?),
                            _ => continue,
                        }
                    } else if want == ev.name() {
                        None
                    } else {
                        continue;
                    };
                    let to = loc(edge.to, j + 1, &mut work)?;
                    let stmt = match (ev, value) {
                        (Event::Send(_, x), Some(v)) => {
                            Stmt::Assume(Expr::binary(BinOp::Eq, x.clone(), Expr::constant(v, x.ty)))
                        }
                        (Event::Recv(_, Some(lv)), Some(v)) => {
                            Stmt::Assign(lv.clone(), Expr::constant(v, comp.var(lv.var()).ty.elem()))
                        }
                        (Event::Recv(_, Some(lv)), None) => Stmt::Havoc(lv.clone()),
                        _ => Stmt::Skip,
                    };
                    add(stmt, to);
                }
                stmt => {
                    let to = loc(edge.to, j, &mut work)?;
                    add(stmt.clone(), to);
                }
            }
        }
    }
    edges.sort_by_key(|e| e.from);
    Some(Component {
        name: comp.name.clone(),
        vars: comp.vars.clone(),
        families: Vec::new(),
        n_locs,
        entry,
        exit,
        edges,
    })
}
