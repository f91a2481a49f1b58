//! The IR checker: validates a component and reports every problem at once.
//!
//! What it verifies:
//! - `entry`, `exit` and every edge's endpoints are locations of the component;
//! - no edge leaves `exit`, and every location is reachable from `entry` (a location without
//!   outgoing edges is allowed: a run that reaches it is blocked, as after `assume(0)`);
//! - variable names are unique; globals have one normal initial value per element;
//! - every variable reference is in range, scalars are read as scalars and arrays are indexed;
//! - expression types agree: constants are normal for their type, both operands of a binary
//!   operator have one type, comparisons and logical operators yield `i32`, arithmetic yields
//!   the operand type;
//! - an assignment's value has the element type of its target, and whole arrays are never
//!   assigned;
//! - each sending or receiving event names a declared family of the right type, a plain event
//!   names no family, and family ranges are non-empty and inside their type.

use crate::util::HashSet;
use std::fmt;

use super::{BinOp, Component, Event, Expr, ExprKind, IntTy, Lvalue, Stmt, Storage, UnOp, VarTy};

/// One problem the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The index of the offending edge in [`Component::edges`], if an edge is at fault.
    pub edge: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.edge {
            Some(i) => write!(f, "edge {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

struct Checker<'a> {
    comp: &'a Component,
    problems: Vec<Problem>,
    edge: Option<usize>,
}

impl Checker<'_> {
    fn report(&mut self, message: String) {
        self.problems.push(Problem { edge: self.edge, message });
    }

    fn var_ty(&mut self, v: super::VarId) -> Option<VarTy> {
        match self.comp.vars.get(v.index()) {
            Some(d) => Some(d.ty),
            None => {
                self.report(format!("variable {v} does not exist"));
                None
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Const(v) => {
                if e.ty.convert(*v) != *v {
                    self.report(format!("constant {v} is not a value of {}", e.ty));
                }
            }
            ExprKind::Var(v) => match self.var_ty(*v) {
                Some(VarTy::Scalar(t)) if t != e.ty => {
                    self.report(format!("`{}` has type {t}, read as {}", self.comp.var(*v).name, e.ty))
                }
                Some(VarTy::Array(..)) => {
                    self.report(format!("array `{}` is read without an index", self.comp.var(*v).name))
                }
                _ => {}
            },
            ExprKind::Load(v, idx) => {
                self.expr(idx);
                match self.var_ty(*v) {
                    Some(VarTy::Array(t, _)) if t != e.ty => {
                        self.report(format!("`{}` has elements of type {t}, read as {}", self.comp.var(*v).name, e.ty))
                    }
                    Some(VarTy::Scalar(_)) => self.report(format!("scalar `{}` is indexed", self.comp.var(*v).name)),
                    _ => {}
                }
            }
            ExprKind::Unary(op, a) => {
                self.expr(a);
                let want = if *op == UnOp::Not { IntTy::I32 } else { a.ty };
                if e.ty != want {
                    self.report(format!("{op:?} of {} should have type {want}, has {}", a.ty, e.ty));
                }
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a);
                self.expr(b);
                if a.ty != b.ty {
                    self.report(format!("operands of `{}` have types {} and {}", op.symbol(), a.ty, b.ty));
                }
                let want = if op.is_boolean() { IntTy::I32 } else { a.ty };
                if e.ty != want {
                    self.report(format!("`{}` on {} should have type {want}, has {}", op.symbol(), a.ty, e.ty));
                }
                if matches!(op, BinOp::Shl | BinOp::Shr) && a.ty.is_bool() {
                    self.report("shift of a bool".to_string());
                }
            }
            ExprKind::Cast(a) => self.expr(a),
        }
    }

    /// Checks a target and returns the type a value stored into it must have.
    fn lvalue(&mut self, lv: &Lvalue, whole_array_ok: bool) -> Option<IntTy> {
        match lv {
            Lvalue::Var(v) => match self.var_ty(*v)? {
                VarTy::Scalar(t) => Some(t),
                VarTy::Array(t, _) => {
                    if !whole_array_ok {
                        self.report(format!("whole array `{}` is assigned", self.comp.var(*v).name));
                    }
                    Some(t)
                }
            },
            Lvalue::Elem(v, idx) => {
                self.expr(idx);
                match self.var_ty(*v)? {
                    VarTy::Array(t, _) => Some(t),
                    VarTy::Scalar(_) => {
                        self.report(format!("scalar `{}` is indexed", self.comp.var(*v).name));
                        None
                    }
                }
            }
        }
    }

    fn family_ty(&mut self, name: &str) -> Option<IntTy> {
        match self.comp.family(name) {
            Some(f) => Some(f.ty),
            None => {
                self.report(format!("event family `{name}` is not declared"));
                None
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Skip => {}
            Stmt::Assign(lv, e) => {
                self.expr(e);
                if let Some(t) = self.lvalue(lv, false)
                    && t != e.ty
                {
                    self.report(format!("a {} value is assigned to a {t} target", e.ty));
                }
            }
            Stmt::Havoc(lv) => {
                self.lvalue(lv, true);
            }
            Stmt::Assume(e) | Stmt::Check(e, _) => self.expr(e),
            Stmt::Event(Event::Plain(n)) => {
                if self.comp.family(n).is_some() {
                    self.report(format!("`{n}` is a family but is performed without a value"));
                }
            }
            Stmt::Event(Event::Send(n, e)) => {
                self.expr(e);
                if let Some(t) = self.family_ty(n)
                    && t != e.ty
                {
                    self.report(format!("family `{n}` carries {t}, sent a {}", e.ty));
                }
            }
            Stmt::Event(Event::Recv(n, lv)) => {
                let fam = self.family_ty(n);
                if let Some(lv) = lv
                    && let (Some(t), Some(f)) = (self.lvalue(lv, false), fam)
                    && t != f
                {
                    self.report(format!("family `{n}` carries {f}, received into a {t} target"));
                }
            }
        }
    }
}

/// Checks `comp` and returns every problem found; an empty vector means the component is
/// well-formed.
pub fn check(comp: &Component) -> Vec<Problem> {
    let mut ck = Checker { comp, problems: Vec::new(), edge: None };
    let n = comp.n_locs;
    for (what, l) in [("entry", comp.entry), ("exit", comp.exit)] {
        if l.0 >= n {
            ck.report(format!("{what} location {l} does not exist"));
        }
    }
    let mut names = HashSet::default();
    for v in &comp.vars {
        if v.name.is_empty() || !names.insert(v.name.as_str()) {
            ck.report(format!("variable name `{}` is empty or used twice", v.name));
        }
        if let VarTy::Array(_, 0) = v.ty {
            ck.report(format!("array `{}` has no elements", v.name));
        }
        if let Storage::Global { init } = &v.storage {
            if init.len() != v.ty.n_elems() as usize {
                ck.report(format!(
                    "global `{}` has {} initial values for {} elements",
                    v.name,
                    init.len(),
                    v.ty.n_elems()
                ));
            }
            if let Some(bad) = init.iter().find(|&&x| v.ty.elem().convert(x) != x) {
                ck.report(format!("initial value {bad} of `{}` is not a value of {}", v.name, v.ty.elem()));
            }
        }
    }
    let mut fam_names = HashSet::default();
    for f in &comp.families {
        if !fam_names.insert(f.name.as_str()) {
            ck.report(format!("family `{}` declared twice", f.name));
        }
        if let Some((lo, hi)) = f.range
            && (lo > hi || !f.ty.contains(lo) || !f.ty.contains(hi))
        {
            ck.report(format!("family `{}` has range {lo}..{hi}, empty or outside {}", f.name, f.ty));
        }
    }
    for (i, e) in comp.edges.iter().enumerate() {
        ck.edge = Some(i);
        if e.from.0 >= n || e.to.0 >= n {
            ck.report(format!("edge {} -> {} uses a location that does not exist", e.from, e.to));
        }
        if e.from == comp.exit {
            ck.report(format!("edge leaves the exit location {}", comp.exit));
        }
        ck.stmt(&e.stmt);
    }
    ck.edge = None;
    if comp.entry.0 < n && comp.exit.0 < n {
        let succ = comp.successors();
        let mut seen = vec![false; n as usize];
        let mut stack = vec![comp.entry];
        seen[comp.entry.index()] = true;
        while let Some(l) = stack.pop() {
            for &i in &succ[l.index()] {
                let to = comp.edges[i].to;
                if to.0 < n && !seen[to.index()] {
                    seen[to.index()] = true;
                    stack.push(to);
                }
            }
        }
        for l in 0..n {
            let id = super::LocId(l);
            if !seen[l as usize] && id != comp.exit {
                ck.report(format!("location {id} is unreachable from the entry"));
            }
        }
    }
    ck.problems
}
