//! Bit-vector formulas for the IR, and the solver: the only user of `z3`.
//!
//! A component's state is a vector of [`Sym`]s, one per variable: a bit-vector of the variable's
//! width for a scalar, an array from 64-bit indices to elements for an array. [`Encoder::bv`]
//! turns an IR expression over such a state into a formula with exactly the semantics of
//! [`crate::ir::eval`] (SMT-LIB's operators were chosen to agree with it, division by zero
//! included), and [`Encoder::step`] gives an edge's guard and post-state, from which the
//! abstraction builds its queries, the symbolic simulation its path formulas, and the refinement
//! its weakest preconditions. [`Encoder::effect`] gives the same guard and the one variable
//! an edge writes, for callers whose states share what an edge leaves alone (the persistent
//! vectors of `check::bmc` and the block encoding, read through [`Vars`]).
//!
//! Invariants:
//! - Z3's context is thread-local (z3 0.22): every term lives on the thread that made it, and
//!   nothing here is `Send`.
//! - [`Smt::sat`] and the other checks never guess: a solver `unknown` (resource budget, deadline, or an incomplete
//!   theory) is an [`SmtError`], which callers turn into the verdict Unknown, or into
//!   the sound side of an approximation (an absent must-transition), never into "holds".
//! - A check over its budget is asked once more of a one-shot solver given the same assertions
//!   ([`Smt`]'s retry): Z3's incremental mode, which every [`Smt`] is in, skips the
//!   preprocessing that decides some queries (array-heavy bounded searches) at a small fraction
//!   of the cost. Same formula, so the answer is as sound; both attempts count work, not time.
//!   A caller whose queries are large unrollings asked once each (k-induction, the invariant
//!   checks that a proof rests on) sets its [`Smt`] to ask one-shot solvers only
//!   ([`Smt::set_one_shot`]).

pub mod division;

use crate::util::HashMap;
use std::fmt;

use z3::ast::{Array, Ast, BV, Bool, Dynamic};
use z3::{DeclKind, Params, SatResult, Solver, Sort};

use crate::deadline::Deadline;
use crate::ir::{BinOp, Component, Edge, Event, Expr, ExprKind, IntTy, Lvalue, Stmt, UnOp, VarId, VarTy};

/// The width of array indices in formulas: every C index type fits.
pub const INDEX_BITS: u32 = 64;

/// The value of one variable in a formula.
#[derive(Clone, Debug)]
pub enum Sym {
    /// A scalar of the given width.
    Bv(BV),
    /// An array of `n` elements, indexed by 64-bit vectors.
    Arr(Array, u32),
}

impl Sym {
    /// The term as a dynamic AST, for substitution.
    pub fn dynamic(&self) -> Dynamic {
        match self {
            Sym::Bv(b) => Dynamic::from_ast(b),
            Sym::Arr(a, _) => Dynamic::from_ast(a),
        }
    }

    fn same(&self, other: &Sym) -> bool {
        self.dynamic() == other.dynamic()
    }
}

/// A state to read terms from: a slice with one [`Sym`] per variable, or the persistent vector
/// of the bounded search ([`crate::util::pvec::PVec`]), whose steps copy only what they write.
pub trait Vars {
    /// The term of variable `v`.
    fn term(&self, v: VarId) -> &Sym;
}

impl Vars for [Sym] {
    fn term(&self, v: VarId) -> &Sym {
        &self[v.index()]
    }
}

impl<const N: usize> Vars for [Sym; N] {
    fn term(&self, v: VarId) -> &Sym {
        &self[v.index()]
    }
}

impl Vars for Vec<Sym> {
    fn term(&self, v: VarId) -> &Sym {
        &self[v.index()]
    }
}

impl Vars for crate::util::pvec::PVec<Sym> {
    fn term(&self, v: VarId) -> &Sym {
        self.get(v.index())
    }
}

impl<S: Vars + ?Sized> Vars for &S {
    fn term(&self, v: VarId) -> &Sym {
        (**self).term(v)
    }
}

/// A solver answer that is neither sat nor unsat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmtError {
    /// The solver gave up; the reason it gave.
    Unknown(String),
    /// The query used up its resource budget (Z3's `rlimit`, in Z3's units of work).
    Budget(u32),
    /// The run's deadline (`--timeout`) passed before or during the query.
    Deadline,
    /// The caller's limit on solver calls ([`Smt::set_call_limit`]) was reached; the query was
    /// not asked.
    CallLimit(u64),
}

impl fmt::Display for SmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmtError::Unknown(r) => write!(f, "the SMT solver answered unknown ({r})"),
            SmtError::Budget(b) => write!(f, "an SMT query used up its budget of {b} resource units"),
            SmtError::Deadline => f.write_str("the time limit passed during an SMT query"),
            SmtError::CallLimit(n) => write!(f, "the limit of {n} SMT calls was reached"),
        }
    }
}

/// How an edge is taken, for the edges whose effect depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Take {
    /// The ordinary successor; for a `check`, the condition holds.
    Normal,
    /// A `check` whose condition fails: undefined behaviour.
    Fault,
    /// An event carrying this value (sent or received).
    Value(i128),
    /// An event whose value nobody observes: a send is a skip, a receive reads any value of
    /// the family's range (of its type when it has none).
    Silent,
}

/// An edge's effect on a state: `guard` must hold for the edge to be taken, `post` is the state
/// after it, and `fresh` the constants introduced for values chosen by the environment (havoc,
/// received values), implicitly existential.
pub struct Step {
    /// When the edge can be taken.
    pub guard: Bool,
    /// The state after it.
    pub post: Vec<Sym>,
    /// Constants standing for inputs read by the step.
    pub fresh: Vec<Dynamic>,
}

/// An edge's effect as what it writes: [`Step`] without the copy of the state, for callers that
/// keep states that share what an edge leaves alone. Every edge writes at most one variable.
pub struct Effect {
    /// When the edge can be taken.
    pub guard: Bool,
    /// The variable the edge writes and its term after it; `None` when it writes nothing.
    pub write: Option<(VarId, Sym)>,
    /// Constants standing for inputs read by the step.
    pub fresh: Vec<Dynamic>,
}

/// Translates IR expressions and edges of one component into formulas.
pub struct Encoder<'a> {
    comp: &'a Component,
    /// Bumped for every fresh constant, so names stay readable and distinct.
    counter: std::cell::Cell<u64>,
}

impl<'a> Encoder<'a> {
    /// An encoder for `comp`.
    pub fn new(comp: &'a Component) -> Encoder<'a> {
        Encoder { comp, counter: std::cell::Cell::new(0) }
    }

    /// The component encoded.
    pub fn component(&self) -> &'a Component {
        self.comp
    }

    /// Named constants for every variable, `prefix` followed by the variable's name.
    pub fn state(&self, prefix: &str) -> Vec<Sym> {
        self.comp
            .vars
            .iter()
            .map(|v| match v.ty {
                VarTy::Scalar(t) => Sym::Bv(BV::new_const(format!("{prefix}{}", v.name), width(t))),
                VarTy::Array(t, n) => Sym::Arr(
                    Array::new_const(
                        format!("{prefix}{}", v.name),
                        &Sort::bitvector(INDEX_BITS),
                        &Sort::bitvector(width(t)),
                    ),
                    n,
                ),
            })
            .collect()
    }

    /// The initial condition over `st`: globals hold their initial values; locals anything.
    pub fn init(&self, st: &[Sym]) -> Bool {
        let mut parts = Vec::new();
        for (decl, sym) in self.comp.vars.iter().zip(st) {
            let crate::ir::Storage::Global { init } = &decl.storage else { continue };
            let t = decl.ty.elem();
            match sym {
                Sym::Bv(b) => parts.push(b.eq(const_bv(init.first().copied().unwrap_or(0), t))),
                Sym::Arr(a, _) => {
                    for (i, v) in init.iter().enumerate() {
                        let idx = BV::from_u64(i as u64, INDEX_BITS);
                        parts.push(a.select(&idx).as_bv().expect("array of bit-vectors").eq(const_bv(*v, t)));
                    }
                }
            }
        }
        Bool::and(&parts)
    }

    /// The state `values` (from the interpreter) as constant terms, in [`Encoder::state`]'s
    /// order: substituted for a state, it makes a formula over the state true or false.
    pub fn concrete(&self, values: &crate::ir::interp::State) -> Vec<Sym> {
        self.comp
            .vars
            .iter()
            .enumerate()
            .map(|(i, decl)| {
                let t = decl.ty.elem();
                let var = crate::ir::VarId(i as u32);
                match decl.ty {
                    crate::ir::VarTy::Array(_, n) => {
                        let mut a = Array::const_array(&Sort::bitvector(INDEX_BITS), &const_bv(0, t));
                        for k in 0..n {
                            let v = values.get(var, i128::from(k)).unwrap_or(0);
                            a = a.store(&BV::from_u64(u64::from(k), INDEX_BITS), &const_bv(v, t));
                        }
                        Sym::Arr(a, n)
                    }
                    _ => Sym::Bv(const_bv(values.get(var, 0).unwrap_or(0), t)),
                }
            })
            .collect()
    }

    fn fresh_bv(&self, tag: &str, t: IntTy) -> BV {
        let n = self.counter.get();
        self.counter.set(n + 1);
        BV::new_const(format!("{tag}!{n}"), width(t))
    }

    /// `e` as a bit-vector of its type's width, over the state `st`.
    pub fn bv<S: Vars + ?Sized>(&self, e: &Expr, st: &S) -> BV {
        match &e.kind {
            ExprKind::Const(v) => const_bv(*v, e.ty),
            ExprKind::Var(v) => match st.term(*v) {
                Sym::Bv(b) => b.clone(),
                // The checker rejects this; a total encoding reads element 0.
                Sym::Arr(a, _) => a.select(&BV::from_u64(0, INDEX_BITS)).as_bv().expect("bit-vector elements"),
            },
            ExprKind::Load(v, idx) => match st.term(*v) {
                Sym::Arr(a, n) => {
                    let (i, ok) = index(&self.bv(idx, st), idx.ty, *n);
                    let elem = a.select(&i).as_bv().expect("bit-vector elements");
                    ok.ite(&elem, &const_bv(0, e.ty))
                }
                Sym::Bv(b) => b.clone(),
            },
            ExprKind::Unary(op, a) => match op {
                UnOp::Neg => self.bv(a, st).bvneg(),
                UnOp::BitNot => self.bv(a, st).bvnot(),
                UnOp::Not => bool_to_bv(&self.cond(a, st).not(), e.ty),
            },
            ExprKind::Binary(op, a, b) if op.is_boolean() => bool_to_bv(&self.boolean(*op, a, b, st), e.ty),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.bv(a, st), self.bv(b, st));
                let signed = a.ty.signed;
                match op {
                    BinOp::Add => x.bvadd(&y),
                    BinOp::Sub => x.bvsub(&y),
                    BinOp::Mul => x.bvmul(&y),
                    BinOp::Div if signed => x.bvsdiv(&y),
                    BinOp::Div => x.bvudiv(&y),
                    BinOp::Rem if signed => x.bvsrem(&y),
                    BinOp::Rem => x.bvurem(&y),
                    BinOp::Shl => x.bvshl(&y),
                    BinOp::Shr if signed => x.bvashr(&y),
                    BinOp::Shr => x.bvlshr(&y),
                    BinOp::BitAnd => x.bvand(&y),
                    BinOp::BitOr => x.bvor(&y),
                    BinOp::BitXor => x.bvxor(&y),
                    _ => unreachable!("boolean operators are handled above"),
                }
            }
            ExprKind::Cast(a) => convert(&self.bv(a, st), a.ty, e.ty),
        }
    }

    /// `e != 0` as a formula, without going through a 0/1 bit-vector where `e` is a comparison
    /// or a logical operator.
    pub fn cond<S: Vars + ?Sized>(&self, e: &Expr, st: &S) -> Bool {
        match &e.kind {
            ExprKind::Binary(op, a, b) if op.is_boolean() => self.boolean(*op, a, b, st),
            ExprKind::Unary(UnOp::Not, a) => self.cond(a, st).not(),
            ExprKind::Const(v) => Bool::from_bool(*v != 0),
            _ => self.bv(e, st).eq(const_bv(0, e.ty)).not(),
        }
    }

    fn boolean<S: Vars + ?Sized>(&self, op: BinOp, a: &Expr, b: &Expr, st: &S) -> Bool {
        if let BinOp::And | BinOp::Or = op {
            let (x, y) = (self.cond(a, st), self.cond(b, st));
            return if op == BinOp::And { Bool::and(&[x, y]) } else { Bool::or(&[x, y]) };
        }
        let (x, y) = (self.bv(a, st), self.bv(b, st));
        let s = a.ty.signed;
        match op {
            BinOp::Eq => x.eq(&y),
            BinOp::Ne => x.eq(&y).not(),
            BinOp::Lt if s => x.bvslt(&y),
            BinOp::Lt => x.bvult(&y),
            BinOp::Le if s => x.bvsle(&y),
            BinOp::Le => x.bvule(&y),
            BinOp::Gt if s => x.bvsgt(&y),
            BinOp::Gt => x.bvugt(&y),
            BinOp::Ge if s => x.bvsge(&y),
            BinOp::Ge => x.bvuge(&y),
            _ => unreachable!("only comparisons reach here"),
        }
    }

    /// The write of `value` (of the element type of `lv`'s variable) to `lv` in `st`.
    fn assign<S: Vars + ?Sized>(&self, st: &S, lv: &Lvalue, value: BV) -> Option<(VarId, Sym)> {
        match lv {
            Lvalue::Var(v) => Some((*v, Sym::Bv(value))),
            Lvalue::Elem(v, idx) => match st.term(*v) {
                Sym::Arr(a, n) => {
                    let (i, ok) = index(&self.bv(idx, st), idx.ty, *n);
                    Some((*v, Sym::Arr(ok.ite(&a.store(&i, &value), a), *n)))
                }
                Sym::Bv(_) => None,
            },
        }
    }

    /// The effect of `edge` taken as `take` on the state `st`.
    pub fn step(&self, edge: &Edge, take: Take, st: &[Sym]) -> Step {
        let Effect { guard, write, fresh } = self.effect(edge, take, st);
        let mut post = st.to_vec();
        if let Some((v, sym)) = write {
            post[v.index()] = sym;
        }
        Step { guard, post, fresh }
    }

    /// The effect of `edge` taken as `take` on the state `st`, as the one variable it writes:
    /// the same terms as [`Encoder::step`], built in the same order.
    pub fn effect<S: Vars + ?Sized>(&self, edge: &Edge, take: Take, st: &S) -> Effect {
        let keep = |guard: Bool| Effect { guard, write: None, fresh: vec![] };
        match &edge.stmt {
            Stmt::Skip => keep(Bool::from_bool(true)),
            Stmt::Assume(c) => keep(self.cond(c, st)),
            Stmt::Check(c, _) => keep(if take == Take::Fault { self.cond(c, st).not() } else { self.cond(c, st) }),
            Stmt::Assign(lv, e) => {
                let value = self.bv(e, st);
                Effect { guard: Bool::from_bool(true), write: self.assign(st, lv, value), fresh: vec![] }
            }
            Stmt::Havoc(lv) => {
                let v = lv.var();
                let t = self.comp.var(v).ty.elem();
                match (lv, st.term(v)) {
                    (Lvalue::Var(_), Sym::Arr(_, n)) => {
                        let n2 = self.counter.get();
                        self.counter.set(n2 + 1);
                        let a = Array::new_const(
                            format!("in.{}!{n2}", self.comp.var(v).name),
                            &Sort::bitvector(INDEX_BITS),
                            &Sort::bitvector(width(t)),
                        );
                        let write = Some((v, Sym::Arr(a.clone(), *n)));
                        Effect { guard: Bool::from_bool(true), write, fresh: vec![Dynamic::from_ast(&a)] }
                    }
                    _ => {
                        let h = self.fresh_bv(&format!("in.{}", self.comp.var(v).name), t);
                        let write = self.assign(st, lv, h.clone());
                        Effect { guard: Bool::from_bool(true), write, fresh: vec![Dynamic::from_ast(&h)] }
                    }
                }
            }
            Stmt::Event(ev) => match (ev, take) {
                (Event::Plain(_), _) | (Event::Send(..), Take::Silent | Take::Normal) => keep(Bool::from_bool(true)),
                (Event::Send(_, e), Take::Value(v)) => keep(self.bv(e, st).eq(const_bv(v, e.ty))),
                (Event::Recv(name, lv), _) => {
                    let fam = self.comp.family(name);
                    let fty = fam.map_or(IntTy::I32, |f| f.ty);
                    let (value, fresh, guard) = match take {
                        Take::Value(v) => (const_bv(v, fty), vec![], Bool::from_bool(true)),
                        _ => {
                            let h = self.fresh_bv(&format!("in.{name}"), fty);
                            let guard = match fam.and_then(|f| f.range) {
                                Some((lo, hi)) => in_range(&h, fty, lo, hi),
                                None => Bool::from_bool(true),
                            };
                            (h.clone(), vec![Dynamic::from_ast(&h)], guard)
                        }
                    };
                    let write = match lv {
                        Some(lv) => {
                            let t = self.comp.var(lv.var()).ty.elem();
                            self.assign(st, lv, convert(&value, fty, t))
                        }
                        None => None,
                    };
                    Effect { guard, write, fresh }
                }
                (Event::Send(..), Take::Fault) => keep(Bool::from_bool(false)),
            },
        }
    }
}

/// The width of a type in formulas (`_Bool` is one bit).
pub fn width(t: IntTy) -> u32 {
    u32::from(t.bits)
}

/// The constant `v` (normal for `t`) as a bit-vector.
pub fn const_bv(v: i128, t: IntTy) -> BV {
    let bits = t.with_signed(false).wrap(v) as u128;
    if t.bits <= 64 {
        BV::from_u64(bits as u64, width(t))
    } else {
        BV::from_str(width(t), &bits.to_string()).expect("a numeral")
    }
}

/// `lo <= b <= hi` for a value of type `t`.
pub fn in_range(b: &BV, t: IntTy, lo: i128, hi: i128) -> Bool {
    let (l, h) = (const_bv(t.convert(lo), t), const_bv(t.convert(hi), t));
    if t.signed { Bool::and(&[b.bvsge(&l), b.bvsle(&h)]) } else { Bool::and(&[b.bvuge(&l), b.bvule(&h)]) }
}

fn bool_to_bv(b: &Bool, t: IntTy) -> BV {
    b.ite(&const_bv(1, t), &const_bv(0, t))
}

/// C's conversion of a value of type `from` to type `to` ([`IntTy::convert`]).
pub fn convert(b: &BV, from: IntTy, to: IntTy) -> BV {
    if to.is_bool() {
        return bool_to_bv(&b.eq(const_bv(0, from)).not(), to);
    }
    let (f, t) = (width(from), width(to));
    match f.cmp(&t) {
        std::cmp::Ordering::Equal => b.clone(),
        std::cmp::Ordering::Greater => b.extract(t - 1, 0),
        std::cmp::Ordering::Less if from.signed => b.sign_ext(t - f),
        std::cmp::Ordering::Less => b.zero_ext(t - f),
    }
}

/// An index of type `t` as a 64-bit vector, and whether it lies in `0..n`.
fn index(i: &BV, t: IntTy, n: u32) -> (BV, Bool) {
    let wide = convert(i, t, IntTy { bits: INDEX_BITS as u8, signed: t.signed });
    let len = BV::from_u64(u64::from(n), INDEX_BITS);
    let ok = if t.signed {
        Bool::and(&[wide.bvsge(BV::from_u64(0, INDEX_BITS)), wide.bvslt(&len)])
    } else {
        wide.bvult(&len)
    };
    (wide, ok)
}

/// `formula` with the constants of `from` replaced by the terms of `to`.
pub fn substitute(formula: &Bool, from: &[Sym], to: &[Sym]) -> Bool {
    let pairs: Vec<(Dynamic, Dynamic)> =
        from.iter().zip(to).filter(|(a, b)| !a.same(b)).map(|(a, b)| (a.dynamic(), b.dynamic())).collect();
    if pairs.is_empty() {
        return formula.clone();
    }
    let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    formula.substitute(&refs)
}

/// The atomic formulas of `f`: what remains below its Boolean connectives, simplified, without
/// the constants `true` and `false`.
pub fn atoms(f: &Bool) -> Vec<Bool> {
    let mut out: Vec<Bool> = Vec::new();
    let mut stack = vec![Dynamic::from_ast(f)];
    let mut seen = crate::util::HashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        let Some(b) = t.as_bool() else { continue };
        let kind = b.safe_decl().map(|d| d.kind()).ok();
        match kind {
            Some(DeclKind::And | DeclKind::Or | DeclKind::Not | DeclKind::Implies | DeclKind::Xor) => {
                stack.extend(b.children())
            }
            Some(DeclKind::Iff) | Some(DeclKind::Eq) if b.children().first().and_then(|c| c.as_bool()).is_some() => {
                stack.extend(b.children())
            }
            Some(DeclKind::Ite) => {
                let ch = b.children();
                stack.extend(ch)
            }
            Some(DeclKind::True | DeclKind::False) => {}
            _ => {
                if !out.contains(&b) {
                    out.push(b)
                }
            }
        }
    }
    out
}

/// Whether `text` is a single SMT-LIB term: one atom, or one parenthesised expression whose
/// parentheses balance, with no string literal or comment (`"`, `;`) outside a quoted symbol
/// (`|..|`). Such a text put inside `(assert ..)` cannot add commands to the script.
pub fn is_one_term(text: &str) -> bool {
    let (mut depth, mut items, mut quoted, mut in_atom) = (0usize, 0usize, false, false);
    for c in text.chars() {
        if quoted {
            quoted = c != '|';
            continue;
        }
        let atom_char = !(c.is_whitespace() || c == '(' || c == ')');
        if depth == 0 && atom_char && !in_atom {
            items += 1;
        }
        in_atom = atom_char;
        match c {
            '"' | ';' | '\0' => return false,
            '|' => quoted = true,
            '(' => {
                if depth == 0 {
                    items += 1;
                }
                depth += 1;
            }
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0 && !quoted && items == 1
}

/// The assertions of an SMT-LIB script, parsed by Z3; `None` for text Z3 cannot take (a NUL
/// byte). A script with errors yields the assertions before the first error, so callers compare
/// the count with what they expect.
pub fn parse_assertions(script: &str) -> Option<Vec<Bool>> {
    if script.contains('\0') {
        return None;
    }
    let solver = Solver::new();
    solver.from_string(script);
    Some(solver.get_assertions())
}

/// The uninterpreted constants that occur in `t`.
///
/// Only the Boolean declaration kinds (`true` .. `implies`, numbered alike in every Z3) are
/// compared anywhere in subst.
pub fn constants(t: &Dynamic) -> Vec<Dynamic> {
    let mut out = Vec::new();
    let mut stack = vec![t.clone()];
    let mut seen = crate::util::HashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if t.is_app() {
            if t.num_children() == 0 {
                // Not `DeclKind::Uninterpreted`: z3-sys numbers the kinds above the Boolean
                // ones as Z3 4.13 does, and they differ in the 4.8 library linked here.
                // An empty conjunction or disjunction is an application without arguments too.
                let boolean =
                    matches!(t.decl().kind(), DeclKind::True | DeclKind::False | DeclKind::And | DeclKind::Or);
                if t.kind() == z3::AstKind::App && !boolean {
                    out.push(t);
                }
            } else {
                stack.extend(t.children());
            }
        }
    }
    out
}

/// Whether `f` has more than `limit` distinct terms (its size as a shared graph); it looks at
/// no more than `limit + 1` of them.
pub fn terms_beyond(f: &Bool, limit: usize) -> bool {
    term_count(f, limit) > limit
}

/// The number of distinct terms of `f` (its size as a shared graph), or `limit + 1` when it has
/// more: it looks at no more than that many.
pub fn term_count(f: &Bool, limit: usize) -> usize {
    let mut stack = vec![Dynamic::from_ast(f)];
    let mut seen = crate::util::HashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if seen.len() > limit {
            break;
        }
        stack.extend(t.children());
    }
    seen.len()
}

/// Whether evaluation alone shows `f` satisfiable: `f` mentions one or two bit-vector
/// constants (no array, nothing else), and some choice of values for them among 0, 1, the
/// numerals of `f` of their width and those numerals' neighbours makes Z3's simplifier, which
/// evaluates a formula without constants to `true` or `false`, give `true`. That value is a
/// model, so `true` is exact; `false` says nothing (ask the solver). It answers the guards of
/// branches (`r < 2`, `m1 >= 5u32`) when nothing else constrains their variables.
pub fn evidently_sat(f: &Bool) -> bool {
    const MAX_CANDIDATES: usize = 8;
    let whole = Dynamic::from_ast(f);
    let vars: Option<Vec<BV>> = constants(&whole).iter().map(Dynamic::as_bv).collect();
    let Some(vars) = vars.filter(|v| !v.is_empty() && v.len() <= 2) else { return false };
    let mut numerals: Vec<(u32, u64)> = Vec::new();
    let mut stack = vec![whole];
    let mut seen = crate::util::HashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        if t.kind() == z3::AstKind::Numeral {
            if let Some(n) = t.as_bv().and_then(|b| b.as_u64().map(|v| (b.get_size(), v))) {
                numerals.push(n);
            }
        } else if t.is_app() {
            stack.extend(t.children());
        }
    }
    numerals.sort_unstable();
    let candidates: Vec<Vec<BV>> = vars
        .iter()
        .map(|v| {
            let width = v.get_size();
            let mask: u128 = if width >= 64 { u64::MAX as u128 } else { (1u128 << width) - 1 };
            let mut values: Vec<u64> = vec![0, 1];
            for &(w, n) in &numerals {
                if w == width {
                    for d in [n as u128, (n as u128).wrapping_sub(1), n as u128 + 1] {
                        values.push((d & mask) as u64);
                    }
                }
            }
            let mut seen = crate::util::HashSet::default();
            values.retain(|x| seen.insert(*x));
            values.truncate(MAX_CANDIDATES);
            values.into_iter().map(|x| BV::from_u64(x, width)).collect()
        })
        .collect();
    let holds = |values: &[&BV]| {
        let pairs: Vec<(&BV, &BV)> = vars.iter().zip(values.iter().copied()).collect();
        f.substitute(&pairs).simplify().as_bool() == Some(true)
    };
    match candidates.as_slice() {
        [a] => a.iter().any(|x| holds(&[x])),
        [a, b] => a.iter().any(|x| b.iter().any(|y| holds(&[x, y]))),
        _ => false,
    }
}

/// Counts of solver work, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SmtStats {
    /// Satisfiability checks sent to Z3.
    pub calls: u64,
    /// Checks answered from the query cache.
    pub cache_hits: u64,
    /// Checks Z3 answered `unknown`.
    pub unknown: u64,
    /// Checks over budget asked again of a one-shot solver ([`Smt`]'s retry), counted in
    /// `calls` too.
    pub one_shot: u64,
}

/// The resource budget (Z3 `rlimit`) of one query when none is given: about 10 s of Z3's work
/// on the machine it was calibrated on, but the same amount of work on any machine.
pub const DEFAULT_QUERY_BUDGET: u32 = 20_000_000;

/// How close to the deadline queries get Z3's own timeout: a query started earlier is bounded by
/// its budget, which takes well under this on any machine subst was measured on.
const DEADLINE_NEAR: std::time::Duration = std::time::Duration::from_secs(60);
/// How far past the deadline a Z3 timeout set earlier may reach before it is set again.
const DEADLINE_SLACK: std::time::Duration = std::time::Duration::from_millis(250);

/// How often the watchdog interrupts a check that is still running after the deadline (an
/// interrupt that lands while Z3 is between two of its own looks at the flag can be lost).
const WATCHDOG_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// What the watchdog of one thread's Z3 context and that thread's checks share.
#[derive(Default)]
struct Watch {
    state: std::sync::Mutex<WatchState>,
    wake: std::sync::Condvar,
}

#[derive(Default)]
struct WatchState {
    /// A solver check is running on the watched thread.
    in_check: bool,
    /// The watchdog interrupted since the last check ended.
    fired: bool,
    /// The watched run ended: the watchdog returns.
    stop: bool,
}

thread_local! {
    /// The watchdog of this thread's context, while [`with_watchdog`] runs.
    static WATCH: std::cell::RefCell<Option<std::sync::Arc<Watch>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with a watchdog that interrupts this thread's Z3 checks once `deadline` has passed.
///
/// Z3's own `timeout` is a per-check timer, set only near the deadline (setting it costs), and
/// a check may also start just before the deadline with a budget that takes longer; the
/// watchdog stops any check within a few milliseconds of the deadline (measured: 15–45 ms). It
/// interrupts only while a check or a push of an [`Smt`] made with a deadline runs (the [`Smt`]
/// tells it): an interrupt that reaches Z3 outside a check stays pending and makes the next
/// `simplify` fail, which the z3 crate turns into a panic. A check that the watchdog may have
/// interrupted is followed by an empty check, which clears anything left pending.
pub fn with_watchdog<R>(deadline: Deadline, f: impl FnOnce() -> R) -> R {
    let Some(at) = deadline.instant() else { return f() };
    let ctx = z3::Context::thread_local();
    let handle = ctx.handle();
    let watch = std::sync::Arc::new(Watch::default());
    let previous = WATCH.with(|w| w.replace(Some(watch.clone())));
    /// Stops the watchdog also when `f` panics, so that the scope below can end.
    struct Stop<'w>(&'w Watch);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).stop = true;
            self.0.wake.notify_all();
        }
    }
    let result = std::thread::scope(|s| {
        let (watch, handle) = (&*watch, &handle);
        s.spawn(move || {
            let mut st = watch.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            while !st.stop {
                let now = std::time::Instant::now();
                let wait = if now >= at {
                    if st.in_check {
                        handle.interrupt();
                        st.fired = true;
                    }
                    WATCHDOG_EVERY
                } else {
                    at - now
                };
                st = watch.wake.wait_timeout(st, wait).unwrap_or_else(std::sync::PoisonError::into_inner).0;
            }
        });
        let _stop = Stop(watch);
        f()
    });
    WATCH.with(|w| *w.borrow_mut() = previous);
    result
}

/// Tells this thread's watchdog (if any) that a check starts (`true`) or ended (`false`);
/// returns, at the end, whether it interrupted since the start.
fn watch_check(running: bool) -> bool {
    WATCH.with(|w| {
        let w = w.borrow();
        let Some(watch) = w.as_ref() else { return false };
        let mut st = watch.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        st.in_check = running;
        !running && std::mem::take(&mut st.fired)
    })
}

/// Clears an interrupt that may still be pending in this thread's Z3 context: a check, even of
/// nothing, starts by clearing it.
fn clear_interrupt() {
    let _ = Solver::new().check();
}

/// Checks `solver` under this thread's watchdog when there is a deadline; the answer, and Z3's
/// reason when it is `unknown`.
fn check_watched(solver: &Solver, deadline: Deadline) -> (SatResult, Option<String>) {
    // Only solvers with a deadline are watched: they answer nothing more once it passed, so an
    // interrupt never reaches a query whose answer is still used.
    let watched = deadline.instant().is_some();
    if watched {
        watch_check(true);
    }
    let result = solver.check();
    if watched && watch_check(false) {
        clear_interrupt();
    }
    let why = (result == SatResult::Unknown).then(|| solver.get_reason_unknown().unwrap_or_default());
    (result, why)
}

/// An incremental solver with a per-query resource budget and a cache of answers.
///
/// The budget counts Z3's work (its `rlimit` resource units), so whether a query is answered
/// does not depend on the machine's speed or load. The run's [`Deadline`] only ever turns an
/// answer into [`SmtError::Deadline`]: each query gets at most the time left.
pub struct Smt {
    /// Not freed once the deadline has passed (see the `Drop` impl).
    solver: Solver,
    cache: HashMap<Bool, bool>,
    budget: u32,
    deadline: Deadline,
    /// The Z3 timeout of each check, once one is set near the deadline.
    timeout: Option<std::time::Duration>,
    /// Work done so far.
    pub stats: SmtStats,
    /// Divisions as quotients and remainders with their definitions ([`division`]).
    lowering: division::Lowering,
    /// The model of the last check when the one-shot retry answered it.
    one_shot_model: Option<z3::Model>,
    /// No check is sent to Z3 once `stats.calls` reaches this ([`Smt::set_call_limit`]).
    call_limit: Option<u64>,
    /// Whether a check was refused at `call_limit` since it was set.
    refused: bool,
    /// Every check is asked of a one-shot solver ([`Smt::set_one_shot`]).
    one_shot_only: bool,
}

impl Smt {
    /// A solver whose every check gives up after `budget` resource units of Z3's work.
    pub fn new(budget: u32) -> Smt {
        let solver = Solver::new();
        let mut p = Params::new();
        p.set_u32("rlimit", budget);
        solver.set_params(&p);
        Smt {
            solver,
            cache: HashMap::default(),
            budget,
            deadline: Deadline::none(),
            timeout: None,
            stats: SmtStats::default(),
            lowering: division::Lowering::default(),
            one_shot_model: None,
            call_limit: None,
            refused: false,
            one_shot_only: false,
        }
    }

    /// Refuses every later check, with [`SmtError::CallLimit`], once [`SmtStats::calls`] has
    /// reached `limit` (`None`: no limit). A count of work, not a time: a caller that bounds
    /// its work in solver calls (an upgrade's attempt at re-use, [`crate::check::compat`])
    /// stops at the same query on any machine. Answers from the query cache are not calls and
    /// are still given.
    pub fn set_call_limit(&mut self, limit: Option<u64>) {
        self.call_limit = limit;
        self.refused = false;
    }

    /// Whether a check was refused at the call limit since [`Smt::set_call_limit`] set it
    /// (its caller may have given up on the error, e.g. refinement by invariants, which then
    /// refines by weakest preconditions).
    pub fn call_limit_reached(&self) -> bool {
        self.refused
    }

    /// Asks every later check (`on`), or none, of a one-shot solver given everything asserted
    /// at once, with the check's budget, instead of the incremental solver: the same formula,
    /// so the same answer, but Z3 preprocesses a one-shot check (solving equations, simplifying
    /// arrays), which its incremental mode skips. For callers whose queries are large formulas
    /// asked once each, such as k-induction's unrollings, where the state of step `j + 1` is
    /// equated to the post-state of step `j` and solving those equations is most of the work.
    /// A fresh solver costs its set-up, which is more than a small query's check.
    pub fn set_one_shot(&mut self, on: bool) {
        self.one_shot_only = on;
    }

    /// [`Smt::new`], giving each query at most the time left before `deadline`.
    pub fn with_deadline(budget: u32, deadline: Deadline) -> Smt {
        let mut smt = Smt::new(budget);
        smt.deadline = deadline;
        smt
    }

    /// Opens and closes a scope of the solver, counted nowhere: Z3 sets a solver up at its
    /// first scope, which then costs more than a small query.
    pub fn warm_up(&mut self) {
        self.solver.push();
        self.solver.pop(1);
    }

    /// Gives each later check `budget` resource units (Z3's `rlimit`).
    pub fn set_budget(&mut self, budget: u32) {
        if budget != self.budget {
            self.budget = budget;
            self.solver.set_params(&self.params());
        }
    }

    /// The deadline its queries look at.
    pub fn deadline(&self) -> Deadline {
        self.deadline
    }

    /// Whether the conjunction of `facts` is satisfiable.
    pub fn sat(&mut self, facts: &[Bool]) -> Result<bool, SmtError> {
        let key = Bool::and(facts);
        if let Some(&r) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return Ok(r);
        }
        self.scope();
        for f in self.lowering.lower(std::slice::from_ref(&key)) {
            self.solver.assert(&f);
        }
        let r = self.run_check();
        self.solver.pop(1);
        let r = r?;
        self.cache.insert(key, r);
        Ok(r)
    }

    /// Whether `f` holds whenever all of `facts` hold.
    pub fn valid(&mut self, facts: &[Bool], f: &Bool) -> Result<bool, SmtError> {
        let mut all = facts.to_vec();
        all.push(f.not());
        Ok(!self.sat(&all)?)
    }

    /// One check of everything asserted: first by the incremental solver, then, when that runs
    /// out of its budget, once more by a one-shot solver ([`Smt::one_shot`]).
    fn run_check(&mut self) -> Result<bool, SmtError> {
        self.one_shot_model = None;
        if let Some(left) = self.deadline.remaining() {
            if left.is_zero() {
                return Err(SmtError::Deadline);
            }
            // Z3's own timeout costs a timer per check and changing it costs more, so it is set
            // only near the deadline, and again only when a check started now with the one set
            // (Z3's timeout counts from the start of each check) would overrun the deadline.
            // The watchdog ([`with_watchdog`]) is the other guard, for runs that have one.
            let stale = self.timeout.is_none_or(|t| t > left + DEADLINE_SLACK);
            if left <= DEADLINE_NEAR && stale {
                self.timeout = Some(left);
                self.solver.set_params(&self.params());
            }
        }
        if let Some(limit) = self.call_limit
            && self.stats.calls >= limit
        {
            self.refused = true;
            return Err(SmtError::CallLimit(limit));
        }
        self.stats.calls += 1;
        if self.one_shot_only {
            return self.check_fresh(false);
        }
        let (result, why) = check_watched(&self.solver, self.deadline);
        match self.read(result, why) {
            Err(SmtError::Budget(_)) => self.check_fresh(true),
            r => r,
        }
    }

    /// Z3's parameters of each check: the budget, and the timeout once one is set.
    fn params(&self) -> Params {
        let mut p = Params::new();
        p.set_u32("rlimit", self.budget);
        if let Some(t) = self.timeout {
            p.set_u32("timeout", u32::try_from(t.as_millis()).unwrap_or(u32::MAX).max(1));
        }
        p
    }

    /// Asks the same question of a fresh solver, given everything asserted (scopes included) at
    /// once and checked without a push, with a budget of its own.
    ///
    /// Every query of an [`Smt`] runs in a scope of its own, which puts Z3's solver in its
    /// incremental mode for good, and that mode skips the preprocessing (solving equations,
    /// simplifying arrays) that a one-shot check does. On the bounded search of the IPC's
    /// product of versions, one level's query used up 100 M resource units incrementally
    /// without an answer, and 0.46 M as a one-shot check (Z3 4.8.12). The retry asks the
    /// same formula, so its answer is as sound as the first; it only ever costs one more
    /// budget, spent only by queries that were over budget (`retry`). An [`Smt`] set to
    /// [`Smt::set_one_shot`] asks every check here first and only (not `retry`).
    fn check_fresh(&mut self, retry: bool) -> Result<bool, SmtError> {
        let fresh = Solver::new();
        fresh.set_params(&self.params());
        for a in self.solver.get_assertions() {
            fresh.assert(&a);
        }
        if retry {
            self.stats.one_shot += 1;
            self.stats.calls += 1;
        }
        let (result, why) = check_watched(&fresh, self.deadline);
        let r = self.read(result, why);
        if retry {
            tracing::debug!(answer = ?r, "an SMT query over budget, asked again of a one-shot solver");
        }
        if matches!(r, Ok(true)) {
            self.one_shot_model = fresh.get_model();
        }
        r
    }

    /// The answer of a check, with Z3's reason when it was `unknown`.
    fn read(&mut self, result: SatResult, why: Option<String>) -> Result<bool, SmtError> {
        match result {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => {
                self.stats.unknown += 1;
                let why = why.unwrap_or_else(|| "no reason given".into());
                if self.deadline.passed() {
                    Err(SmtError::Deadline)
                } else if why.contains("resource") || why == "canceled" {
                    // Z3 says `canceled` when its resource limit stops a tactic, and nothing
                    // else cancels a check before the deadline (the watchdog only fires after
                    // it).
                    Err(SmtError::Budget(self.budget))
                } else {
                    Err(SmtError::Unknown(why))
                }
            }
        }
    }

    /// The model of the last satisfiable check.
    fn last_model(&mut self) -> Option<z3::Model> {
        self.one_shot_model.take().or_else(|| self.solver.get_model())
    }

    /// Every combination of values of `terms` under `facts`: one row per satisfying
    /// assignment, a Boolean term giving 0 or 1 and a bit-vector term its value in its type.
    pub fn all_sat(&mut self, facts: &[Bool], terms: &[Projected]) -> Result<Vec<Vec<i128>>, SmtError> {
        self.scope();
        for f in self.lowering.lower(facts) {
            self.solver.assert(&f);
        }
        let mut rows = Vec::new();
        let result = loop {
            match self.run_check() {
                Ok(true) => {}
                Ok(false) => break Ok(rows),
                Err(e) => break Err(e),
            }
            if terms.is_empty() {
                // Nothing to read from a model, and fetching one costs: in the IPC's tests, 12,197
                // of 42,294 rows had no term, and Z3 built their models in a third of the time
                // spent in models (benches/TESTS.md).
                rows.push(Vec::new());
                break Ok(rows);
            }
            let Some(model) = self.last_model() else {
                break Err(SmtError::Unknown("no model for a satisfiable query".into()));
            };
            let mut row = Vec::with_capacity(terms.len());
            let mut same = Vec::with_capacity(terms.len());
            for t in terms {
                match t {
                    Projected::Bool(b) => {
                        let v = model.eval(b, true).and_then(|x| x.as_bool()).unwrap_or(false);
                        row.push(i128::from(v));
                        same.push(if v { b.clone() } else { b.not() });
                    }
                    Projected::Value(b, ty) => {
                        let v = model_value(&model, b, *ty);
                        row.push(v);
                        same.push(b.eq(const_bv(v, *ty)));
                    }
                }
            }
            rows.push(row);
            for f in self.lowering.lower(&[Bool::and(&same).not()]) {
                self.solver.assert(&f);
            }
        };
        self.solver.pop(1);
        result
    }

    /// Asserts `f` for good (until a [`Smt::pop`] of an enclosing [`Smt::push`]). Cached
    /// answers of [`Smt::sat`] stay right: it checks in a scope of its own, so only formulas
    /// asserted here could change them, and callers that assert must not mix the two.
    pub fn assert(&mut self, f: &Bool) {
        self.cache.clear();
        for f in self.lowering.lower(std::slice::from_ref(f)) {
            self.solver.assert(&f);
        }
    }

    /// Opens a scope.
    pub fn push(&mut self) {
        self.solver.push();
    }

    /// Opens the scope of one query. Z3 brings every formula asserted since the last query
    /// into its solver at a push (preprocessing included), which after a large assertion (a
    /// level of the bounded search) took seconds; under a deadline the watchdog may interrupt
    /// it as it interrupts a check. An interrupted push leaves the solver incomplete, which is
    /// harmless only because it happens after the deadline, when [`Smt::run_check`] answers
    /// [`SmtError::Deadline`] without asking Z3: so only solvers with a deadline are watched.
    fn scope(&mut self) {
        let watched = self.deadline.instant().is_some();
        if watched {
            watch_check(true);
        }
        self.solver.push();
        if watched && watch_check(false) {
            clear_interrupt();
        }
    }

    /// Closes a scope.
    pub fn pop(&mut self) {
        self.cache.clear();
        self.solver.pop(1);
    }

    /// A model of everything asserted plus `facts`, or `None` when unsatisfiable.
    pub fn model(&mut self, facts: &[Bool]) -> Result<Option<z3::Model>, SmtError> {
        self.scope();
        for f in self.lowering.lower(facts) {
            self.solver.assert(&f);
        }
        let r = self.run_check();
        let m = match r {
            Ok(true) => Ok(self.last_model()),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        self.solver.pop(1);
        m
    }
}

impl Drop for Smt {
    /// Frees the solver, unless the deadline has passed: freeing the solver of a deep bounded
    /// search took 3.6 s after a 5 s `--timeout`, and a run stopped by its deadline is about to
    /// end (the process frees everything at once).
    fn drop(&mut self) {
        if self.deadline.passed() {
            std::mem::forget(std::mem::take(&mut self.cache));
            // An empty solver in its place costs nothing to make or to free.
            std::mem::forget(std::mem::replace(&mut self.solver, Solver::new()));
        }
    }
}

/// A term whose value an all-SAT enumeration reports.
#[derive(Clone, Debug)]
pub enum Projected {
    /// A formula: reported as 0 or 1.
    Bool(Bool),
    /// A bit-vector of the given type: reported as its value.
    Value(BV, IntTy),
}

/// The value of `b` (of type `ty`) in `model`, normal for `ty`.
pub fn model_value(model: &z3::Model, b: &BV, ty: IntTy) -> i128 {
    let bits = model.eval(b, true).and_then(|x| x.as_u64()).unwrap_or(0);
    ty.wrap(i128::from(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_term_accepts_terms_over_any_names_and_rejects_what_could_add_commands() {
        for ok in [
            "x",
            "true",
            "(= lane1_push.v #b1)",
            "(bvule #x00000001 (bvadd n1 n2))",
            "(= |a (b| x)",
            "(= $1 #x00000004)",
        ] {
            assert!(is_one_term(ok), "{ok}");
        }
        for bad in [
            "true) (declare-fun x () Bool) (assert x",
            "(= x y)) (push",
            "(= x y",
            "x y",
            "(= x y) (= y x)",
            "",
            "(= x \"a\")",
            "(= x y) ; comment",
            "(= |x y)",
        ] {
            assert!(!is_one_term(bad), "{bad}");
        }
    }
    #[test]
    fn a_call_limit_refuses_the_checks_past_it_and_still_answers_from_the_cache() {
        let x = BV::new_const("x", 32);
        let (q1, q2) = (x.bvugt(BV::from_u64(3, 32)), x.bvult(BV::from_u64(2, 32)));
        let mut smt = Smt::new(DEFAULT_QUERY_BUDGET);
        smt.set_call_limit(Some(1));
        assert_eq!(smt.sat(std::slice::from_ref(&q1)), Ok(true));
        assert!(!smt.call_limit_reached());
        assert_eq!(smt.sat(std::slice::from_ref(&q2)), Err(SmtError::CallLimit(1)));
        assert!(smt.call_limit_reached());
        assert_eq!(smt.sat(std::slice::from_ref(&q1)), Ok(true), "a cached answer is no call");
        assert_eq!((smt.stats.calls, smt.stats.cache_hits), (1, 1));
        smt.set_call_limit(None);
        assert!(!smt.call_limit_reached());
        assert_eq!(smt.sat(std::slice::from_ref(&q2)), Ok(true));
    }

    #[test]
    fn evidently_sat_finds_values_for_branch_guards_and_claims_nothing_else() {
        let (r, m) = (BV::new_const("r", 32), BV::new_const("m", 32));
        let (two, five) = (BV::from_u64(2, 32), BV::from_u64(5, 32));
        for sat in [r.bvslt(&two), r.bvsge(&two), m.bvuge(&five), m.bvule(BV::from_u64(0, 32)), r.eq(&m)] {
            assert!(evidently_sat(&sat), "{sat}");
        }
        // Unsatisfiable, or satisfiable only by a value that is not tried, or over an array:
        // left to the solver.
        let a = Array::new_const("a", &Sort::bitvector(INDEX_BITS), &Sort::bitvector(32));
        let i = BV::from_u64(0, INDEX_BITS);
        for unknown in [
            m.bvult(BV::from_u64(0, 32)),
            r.eq(&r).not(),
            r.eq(BV::from_u64(1000, 32).bvmul(BV::from_u64(3, 32))),
            a.select(&i).as_bv().expect("a bit-vector").eq(&two),
        ] {
            assert!(!evidently_sat(&unknown), "{unknown}");
        }
    }

    use crate::ir::eval;

    fn enc_const(e: &Expr) -> i128 {
        let comp = Component {
            name: "t".into(),
            vars: vec![],
            families: vec![],
            n_locs: 1,
            entry: crate::ir::LocId(0),
            exit: crate::ir::LocId(0),
            edges: vec![],
        };
        let enc = Encoder::new(&comp);
        let b = enc.bv(e, &[]).simplify();
        e.ty.wrap(i128::from(b.as_u64().expect("a numeral")))
    }

    #[test]
    fn encoding_agrees_with_the_evaluator_on_constants() {
        let tys = [IntTy::I8, IntTy::U8, IntTy::I32, IntTy::U32, IntTy::I64, IntTy::U64];
        let vals = [0i128, 1, -1, 7, -7, 2, 31, 32, 64, i32::MIN as i128, i32::MAX as i128];
        for ty in tys {
            for op in BinOp::ALL {
                for &a in &vals {
                    for &b in &vals {
                        let (a, b) = (Expr::constant(a, ty), Expr::constant(b, ty));
                        let e = Expr {
                            ty: if op.is_boolean() { IntTy::I32 } else { ty },
                            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                        };
                        assert_eq!(enc_const(&e), eval::eval(&e, &eval::NoVars), "{op:?} on {ty}: {e:?}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod term_tests {
    use super::*;

    /// The pigeonhole principle for 12 pigeons and 11 holes, which is unsatisfiable and takes
    /// resolution (so CDCL) exponential time: far more work than any test waits for. (Factoring
    /// products of two primes was not hard enough: Z3 factors two 64-bit primes in 0.6 s.)
    fn hard_query() -> Bool {
        let (pigeons, holes) = (12, 11);
        let p = |i: usize, j: usize| Bool::new_const(format!("p{i}_{j}"));
        let mut clauses = Vec::new();
        for i in 0..pigeons {
            clauses.push(Bool::or(&(0..holes).map(|j| p(i, j)).collect::<Vec<_>>()));
        }
        for j in 0..holes {
            for a in 0..pigeons {
                for b in a + 1..pigeons {
                    clauses.push(Bool::or(&[p(a, j).not(), p(b, j).not()]));
                }
            }
        }
        Bool::and(&clauses)
    }

    #[test]
    fn the_watchdog_stops_a_check_at_the_deadline_and_leaves_no_interrupt_behind() {
        let deadline = Deadline::after(std::time::Duration::from_millis(200));
        let answer = with_watchdog(deadline, || Smt::with_deadline(u32::MAX, deadline).sat(&[hard_query()]));
        assert_eq!(answer, Err(SmtError::Deadline));
        // An interrupt left pending would make this `simplify` fail (a panic in the z3 crate).
        let x = BV::new_const("x", 8);
        assert_eq!(x.bvadd(BV::from_u64(0, 8)).eq(&x).simplify().as_bool(), Some(true));
    }

    /// An array written at `0..n` by a chain of steps, `a(j + 1) == store(a(j), j, x(j))`, and
    /// a read of it that differs from what was written: unsatisfiable. A one-shot check solves
    /// the steps' equations and rewrites every read over the stores away before bit-blasting;
    /// the incremental solver reasons about the chain with the array theory's lemmas.
    fn unrolled_stores(n: u64) -> Vec<Bool> {
        let sort = (Sort::bitvector(INDEX_BITS), Sort::bitvector(32));
        let a = |j: u64| Array::new_const(format!("a{j}"), &sort.0, &sort.1);
        let x = |j: u64| BV::new_const(format!("x{j}"), 32);
        let at = |j: u64| BV::from_u64(j, INDEX_BITS);
        let mut facts: Vec<Bool> = (0..n).map(|j| a(j + 1).eq(a(j).store(&at(j), &x(j)))).collect();
        let differs: Vec<Bool> =
            (0..n).map(|k| a(n).select(&at(k)).as_bv().expect("a bit-vector").eq(x(k)).not()).collect();
        facts.push(Bool::or(&differs));
        facts
    }

    #[test]
    fn a_solver_set_to_one_shot_answers_an_unrolling_in_one_check_that_the_incremental_one_gives_up_on() {
        // 60 stores: the incremental solver runs out of even 1 M units (measured), the one-shot
        // check needs under 10 thousand.
        let budget = 50_000;
        let mut incremental = Smt::new(budget);
        assert_eq!(incremental.sat(&unrolled_stores(60)), Ok(false));
        assert_eq!((incremental.stats.calls, incremental.stats.one_shot), (2, 1), "over budget, then retried");
        let mut one_shot = Smt::new(budget);
        one_shot.set_one_shot(true);
        assert_eq!(one_shot.sat(&unrolled_stores(60)), Ok(false));
        assert_eq!((one_shot.stats.calls, one_shot.stats.one_shot), (1, 0));
        // A satisfiable query's model is the one-shot solver's.
        let y = BV::new_const("y", 8);
        let m = one_shot.model(&[y.bvugt(BV::from_u64(200, 8))]).unwrap().expect("satisfiable");
        assert!(model_value(&m, &y, IntTy::U8) > 200);
        one_shot.set_one_shot(false);
        assert_eq!(one_shot.sat(&[y.eq(BV::from_u64(1, 8))]), Ok(true));
        assert_eq!(one_shot.stats.calls, 3);
    }

    #[test]
    fn an_enumeration_of_no_term_has_one_empty_row_when_satisfiable_and_none_otherwise() {
        // With nothing to read, the enumeration is one check and fetches no model.
        let x = BV::new_const("x", 8);
        let mut smt = Smt::new(DEFAULT_QUERY_BUDGET);
        let calls = smt.stats.calls;
        assert_eq!(smt.all_sat(&[x.bvult(BV::from_u64(3, 8))], &[]).unwrap(), vec![Vec::<i128>::new()]);
        assert_eq!(smt.stats.calls, calls + 1);
        let none = [x.bvult(BV::from_u64(3, 8)), x.bvugt(BV::from_u64(5, 8))];
        assert!(smt.all_sat(&none, &[]).unwrap().is_empty());
        assert_eq!(smt.stats.calls, calls + 2);
    }

    #[test]
    fn constants_are_the_named_leaves() {
        let x = BV::new_const("x", 32);
        let y = BV::new_const("y", 32);
        let f = Bool::and(&[x.bvsle(BV::from_u64(3, 32)), x.bvadd(&y).eq(BV::from_u64(0, 32)), Bool::from_bool(true)]);
        let mut names: Vec<String> = constants(&Dynamic::from_ast(&f)).iter().map(|c| c.to_string()).collect();
        names.sort();
        assert_eq!(names, ["x", "y"]);
        assert_eq!(atoms(&f).len(), 2);
    }

    #[test]
    fn an_empty_conjunction_is_no_constant() {
        // `Bool::and(&[])` is an application of `and` without arguments: it was taken for a
        // constant, and quantifying over it made Z3 fail.
        let x = BV::new_const("x", 8);
        let empty: &[Bool] = &[];
        let f = Bool::and(&[Bool::and(empty), x.eq(BV::from_u64(1, 8))]);
        let names: Vec<String> = constants(&Dynamic::from_ast(&f)).iter().map(|c| c.to_string()).collect();
        assert_eq!(names, ["x"]);
    }
}
