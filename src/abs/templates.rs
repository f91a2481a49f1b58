//! The second round of candidate invariants: bounds, octagons, congruences and case splits,
//! read off the sampled states at each cut point.
//!
//! [`crate::abs::invariant`] first tries affine equalities and the atoms of the program's
//! conditions. When Houdini's strongest inductive subset of those does not exclude the errors
//! (and k-induction does not help either), this module offers more shapes, all guessed from the
//! same interpreter samples and all pruned by the same Houdini loop and re-checked by the same
//! fresh solver, so that a guess can only cost time, never a wrong "holds":
//!
//! - **intervals** `lo <= x <= hi` with `lo`, `hi` the least and greatest sampled values;
//! - **octagon bounds** `lo <= x - y <= hi` and `lo <= x + y <= hi` (Miné, *The octagon abstract
//!   domain*, HOSC 2006) for pairs of variables of one type, in integer arithmetic: both sides are
//!   widened by two bits, so the bound means what it says even where C's arithmetic wraps;
//! - **congruences** `x ≡ r (mod 2^j)` and `x - y ≡ r (mod 2^j)` for `j` in 1..=2, the low bits of
//!   a variable or of a difference: exact for bit-vectors, since adding and multiplying modulo
//!   2^w keeps the low bits (the power-of-two moduli of Müller-Olm and Seidl's analysis of
//!   modular arithmetic, TOPLAS 2007);
//! - **case splits** `p -> q` and `!p -> q` for a few atoms `p` of the program's conditions that
//!   the samples at a cut point see both ways, where `q` is an interval, octagon bound, congruence
//!   or affine equality of the samples on that side only: a disjunctive invariant such as
//!   "when `y` is even, `x` is even and at most 100; otherwise `x` is at most 99" (SV-COMP's
//!   `loop-acceleration/diamond`), which no conjunction of the other shapes expresses;
//! - **value splits** ([`value_splits`]) `x == c -> lo <= y <= hi` for up to a dozen tests of a
//!   variable against a constant (the states of a state machine), intervals only and only
//!   where the state narrows the samples' range, with an allowance of their own beside the
//!   candidate cap: `ssh-simplified/s3_srvr_1a` needs the bound of its flag in each state and was
//!   left to CEGAR (21 refinements, about 109,000 checks) while the case splits' octagons of the
//!   first atoms filled the candidates; with them, round 2 proves it (1,068 checks).
//!
//! Three more sources of candidates (this module's second half):
//!
//! - **thresholds** ([`thresholds`]): every interval and octagon bound is also offered at the
//!   nearest constant of the program (and its negation, `c - 1`, `c + 1`) beyond the sampled
//!   extreme, widening with thresholds as in Blanchet et al., PLDI 2003. The samples see
//!   `l - k <= 10`; `l - k <= 999999` (from `n < 1000000`) is the inductive one
//!   (`loop-invgen/nest-if3`, `loop-invgen/seq`);
//! - **program terms** ([`program_terms`]): quotients, remainders, masks, shifts and products of
//!   two variables that the program computes become columns of the sampled equalities of
//!   [`super::invariant`], so `k + j == n / 2` is an affine relation; the solver reads the term
//!   exactly ([`crate::smt::division`] for `/` and `%`);
//! - **products** ([`products`]): squares and pairwise products of the variables that vary at a
//!   cut point, for degree-2 relations (`2*x == y*y - y + 2`, `loop-lit/afnp2014`), offered in a
//!   third round of their own (their queries are nonlinear) and only when there are twice as
//!   many samples as columns.
//!
//! The shapes speak only about variables live at the cut point ([`live`]): a dead temporary
//! (the copy of an input, a call's argument) would only cost Houdini queries.
//!
//! **Why these shapes, and not a refinement of CEGAR.** They are guesses checked by the same
//! Houdini loop and fresh solver as the equalities, so they cost no new soundness argument;
//! Newton-style or path-invariant refinement would have to change CEGAR's refinement, which
//! this work did not get to. Measured (`benches/VERIFY.md`, 30 s per run, release builds, one
//! run beside ESBMC): on 35 public SV-COMP tasks and five new examples subst went from 26 to 30
//! of 40 decided; round 2 decided `loop-acceleration/diamond`, `loop-lit/gj2007b`,
//! `loop-invgen/down` and `ssh-simplified/s3_srvr_1a`, none of which the commit before decided.
//! The caps ([`MAX_OCTAGON_VARS`], [`MAX_SPLITS`] and the candidate and pruning counts of
//! [`super::invariant`]) come from `benches/svcomp/nested_const_loops.c`, where 778 uncapped
//! candidates cost 23 s of Houdini queries before CEGAR could start.
//!
//! Known weaknesses:
//! - A threshold is a constant of the program: a bound that is a sum of two constants
//!   (`s + extra <= 1100000`) is not offered.
//! - The bounds are the samples' extremes, so a bound that the short random runs never reach
//!   (a loop that runs to 1000 only when an input keeps it going) is guessed too tight and pruned.
//! - Octagons and splits grow quadratically; they are offered only for at most [`MAX_OCTAGON_VARS`]
//!   variables of a type and [`MAX_SPLITS`] atoms per cut point.
//! - A value split bounds one variable per state; a state machine whose states are told apart
//!   by two variables, or by a range rather than a value, gets no per-state bounds.

use z3::ast::{BV, Bool};

use crate::ir::interp::State;
use crate::ir::{BinOp, Component, Expr, ExprKind, IntTy, Stmt, UnOp, VarId, VarTy};
use crate::smt::{self, Encoder, Sym};

/// The most variables of one type that octagon bounds and congruences of differences are
/// offered for (pairs grow quadratically).
pub const MAX_OCTAGON_VARS: usize = 8;
/// The most condition atoms a cut point's candidates are split on.
pub const MAX_SPLITS: usize = 6;

/// The scalar variables of `comp` that `live` marks (all when it is empty), with their types.
fn scalars(comp: &Component, live: &[bool]) -> Vec<(usize, IntTy)> {
    comp.vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.ty {
            VarTy::Scalar(t) if t.bits > 1 && live.get(i).copied().unwrap_or(true) => Some((i, t)),
            _ => None,
        })
        .collect()
}

fn value(s: &State, i: usize) -> i128 {
    s.get(VarId(i as u32), 0).unwrap_or(0)
}

fn bv(vocab: &[Sym], i: usize) -> Option<&BV> {
    match vocab.get(i) {
        Some(Sym::Bv(b)) => Some(b),
        _ => None,
    }
}

/// `x`, two bits wider, as the integer it stands for.
fn widened(x: &BV, t: IntTy) -> BV {
    if t.signed { x.sign_ext(2) } else { x.zero_ext(2) }
}

fn wide_const(v: i128, bits: u32) -> BV {
    smt::const_bv(v, IntTy { bits: bits as u8, signed: true })
}

/// `lo <= e <= hi` for a term `e` of `bits` bits read as a signed integer, leaving out a side
/// that says nothing (a bound at the type's limit).
fn bounds(e: &BV, lo: i128, hi: i128, floor: i128, ceil: i128, bits: u32) -> Vec<Bool> {
    let mut out = Vec::new();
    if lo > floor {
        out.push(e.bvsge(wide_const(lo, bits)));
    }
    if hi < ceil {
        out.push(e.bvsle(wide_const(hi, bits)));
    }
    out
}

/// Intervals, octagon bounds and congruences that every state of `rows` satisfies, over the
/// variables `live` marks (all when it is empty).
pub fn shapes(comp: &Component, vocab: &[Sym], rows: &[&State], live: &[bool]) -> Vec<Bool> {
    let mut out = Vec::new();
    if rows.is_empty() {
        return out;
    }
    let vars = scalars(comp, live);
    for &(i, t) in &vars {
        let Some(x) = bv(vocab, i) else { continue };
        let vals: Vec<i128> = rows.iter().map(|s| value(s, i)).collect();
        let (lo, hi) = (vals.iter().min().copied().unwrap_or(0), vals.iter().max().copied().unwrap_or(0));
        let w = smt::width(t) + 2;
        out.extend(bounds(&widened(x, t), lo, hi, t.min(), t.max(), w));
        for j in 1..=2u32 {
            let r = vals[0].rem_euclid(1 << j);
            if vals.iter().all(|v| v.rem_euclid(1 << j) == r) {
                out.push(x.extract(j - 1, 0).eq(BV::from_u64(r as u64, j)));
            }
        }
    }
    for (a, &(i, t)) in vars.iter().enumerate() {
        let same: Vec<usize> = vars.iter().filter(|(_, u)| *u == t).map(|&(k, _)| k).collect();
        if same.len() > MAX_OCTAGON_VARS {
            continue;
        }
        for &(k, u) in &vars[a + 1..] {
            if u != t {
                continue;
            }
            let (Some(x), Some(y)) = (bv(vocab, i), bv(vocab, k)) else { continue };
            let w = smt::width(t) + 2;
            let (xe, ye) = (widened(x, t), widened(y, t));
            let diffs: Vec<i128> = rows.iter().map(|s| value(s, i) - value(s, k)).collect();
            let sums: Vec<i128> = rows.iter().map(|s| value(s, i) + value(s, k)).collect();
            let span = |v: &[i128]| (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
            let (dl, dh) = span(&diffs);
            out.extend(bounds(&xe.bvsub(&ye), dl, dh, t.min() - t.max(), t.max() - t.min(), w));
            let (sl, sh) = span(&sums);
            out.extend(bounds(&xe.bvadd(&ye), sl, sh, 2 * t.min(), 2 * t.max(), w));
            let r = diffs[0].rem_euclid(2);
            if dl != dh && diffs.iter().all(|d| d.rem_euclid(2) == r) {
                out.push(x.bvsub(y).extract(0, 0).eq(BV::from_u64(r as u64, 1)));
            }
        }
    }
    out
}

/// The comparisons in the conditions of `comp`'s assumptions and checks: the atoms to split on.
pub fn split_atoms(comp: &Component) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = Vec::new();
    for e in &comp.edges {
        let (Stmt::Assume(c) | Stmt::Check(c, _)) = &e.stmt else { continue };
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            match &x.kind {
                ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => stack.extend([&**a, &**b]),
                ExprKind::Unary(UnOp::Not, a) => stack.push(a),
                // `a < b` and `a >= b` split the samples alike: keep one of them.
                ExprKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne, ..)
                    if !out.iter().any(|o| same_split(o, x)) =>
                {
                    out.push(x);
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether two comparisons compare the same operands (so they split the states alike, or as
/// negations of each other, or nearly so).
fn same_split(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Binary(_, a1, a2), ExprKind::Binary(_, b1, b2)) => (a1 == b1 && a2 == b2) || (a1 == b2 && a2 == b1),
        _ => false,
    }
}

/// The case-split candidates at one cut point: for each atom `p` of `atoms` that `rows` see both
/// true and false (at most [`MAX_SPLITS`] of them), `p -> q` for the shapes and affine
/// equalities `q` of the rows where `p` holds, and `!p -> q` likewise.
pub fn splits(
    comp: &Component,
    enc: &Encoder,
    vocab: &[Sym],
    rows: &[State],
    live: &[bool],
    atoms: &[&Expr],
    equalities: &dyn Fn(&[State]) -> Vec<Bool>,
) -> Vec<Bool> {
    let mut out = Vec::new();
    let mut used = 0;
    for atom in atoms {
        if used >= MAX_SPLITS {
            break;
        }
        let (yes, no): (Vec<&State>, Vec<&State>) = rows.iter().partition(|s| crate::ir::eval::eval(atom, *s) != 0);
        if yes.is_empty() || no.is_empty() {
            continue;
        }
        used += 1;
        let p = enc.cond(atom, vocab);
        for (side, guard) in [(yes, p.clone()), (no, p.not())] {
            let owned: Vec<State> = side.iter().map(|s| (*s).clone()).collect();
            let mut qs = shapes(comp, vocab, &side, live);
            qs.extend(equalities(&owned));
            for q in qs {
                out.push(guard.implies(&q));
            }
        }
    }
    out
}

/// The most state values a cut point's candidates are split on ([`value_splits`]).
pub const MAX_VALUE_SPLITS: usize = 16;

/// The case splits of a state machine: for each atom `x == c` of `atoms` (a variable compared
/// with a constant, as a `switch` on a state variable compiles) that `rows` see both ways, at
/// most [`MAX_VALUE_SPLITS`] of them, `x == c -> lo <= y <= hi` for every live variable `y`
/// whose samples in that state have a narrower range than all samples have (the bound says
/// something only the state knows: `s__state == 8576 -> blastFlag <= 2`,
/// `ssh-simplified/s3_srvr_1a`). Intervals only, so that a dozen states fit where
/// [`splits`]' octagons of a few atoms fill the candidates.
pub fn value_splits(
    comp: &Component,
    enc: &Encoder,
    vocab: &[Sym],
    rows: &[State],
    live: &[bool],
    atoms: &[&Expr],
) -> Vec<Bool> {
    let mut out = Vec::new();
    let vars = scalars(comp, live);
    let span = |states: &[&State], i: usize| {
        let vals = states.iter().map(|s| value(s, i));
        (vals.clone().min().unwrap_or(0), vals.max().unwrap_or(0))
    };
    let all: Vec<&State> = rows.iter().collect();
    let mut used = 0;
    for atom in atoms {
        if used >= MAX_VALUE_SPLITS {
            break;
        }
        let ExprKind::Binary(BinOp::Eq, a, b) = &atom.kind else { continue };
        let is_value_test = matches!(
            (&a.kind, &b.kind),
            (ExprKind::Var(_), ExprKind::Const(_)) | (ExprKind::Const(_), ExprKind::Var(_))
        );
        if !is_value_test {
            continue;
        }
        let yes: Vec<&State> = rows.iter().filter(|s| crate::ir::eval::eval(atom, *s) != 0).collect();
        if yes.is_empty() || yes.len() == rows.len() {
            continue;
        }
        used += 1;
        let p = enc.cond(atom, vocab);
        for &(i, t) in &vars {
            let Some(x) = bv(vocab, i) else { continue };
            let (lo, hi) = span(&yes, i);
            let (all_lo, all_hi) = span(&all, i);
            // A side is offered only where the state narrows the samples' range.
            for q in bounds(&widened(x, t), lo, hi, all_lo, all_hi, smt::width(t) + 2) {
                out.push(p.implies(&q));
            }
        }
    }
    out
}

/// The constants of `comp`'s expressions and their negations, their neighbours (`c - 1`,
/// `c + 1`, for strict and weak comparisons alike) and 0, sorted: the thresholds a sampled bound is widened to.
///
/// Widening with thresholds (Blanchet, Cousot, Cousot, Feret, Mauborgne, Miné, Monniaux,
/// Rival, *A static analyzer for large safety-critical software*, PLDI 2003): a bound that the
/// short sampling runs leave tight (`i <= 11`) is offered as well at the next constant of the
/// program above it (`i <= 999999` from `n < 1000000`), which is often the inductive one.
pub fn thresholds(comp: &Component) -> Vec<i128> {
    let mut out = vec![0i128];
    let mut stack: Vec<&Expr> = Vec::new();
    for e in &comp.edges {
        match &e.stmt {
            Stmt::Assume(c) | Stmt::Check(c, _) => stack.push(c),
            Stmt::Assign(_, v) => stack.push(v),
            _ => {}
        }
    }
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Const(c) => {
                // Small constants are the samples' business already.
                // Both signs: a difference `x - y` is bounded below where `y - x` is above.
                if c.abs() > 1 && c.abs() < (1 << 62) {
                    out.extend([*c - 1, *c, *c + 1, -*c - 1, -*c, -*c + 1]);
                }
            }
            ExprKind::Var(_) => {}
            ExprKind::Load(_, i) | ExprKind::Unary(_, i) | ExprKind::Cast(i) => stack.push(i),
            ExprKind::Binary(_, a, b) => stack.extend([&**a, &**b]),
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The most thresholds kept (the ones of smallest magnitude).
const MAX_THRESHOLDS: usize = 24;

/// The thresholds of `comp`, at most `MAX_THRESHOLDS` of them.
pub fn few_thresholds(comp: &Component) -> Vec<i128> {
    let mut t = thresholds(comp);
    if t.len() > MAX_THRESHOLDS {
        t.sort_by_key(|c| c.abs());
        t.truncate(MAX_THRESHOLDS);
        t.sort_unstable();
    }
    t
}

/// The bounds of `e` at the thresholds next to the sampled extremes: the greatest threshold
/// below `lo` and the least above `hi`, where they say something.
fn widened_bounds(e: &BV, lo: i128, hi: i128, floor: i128, ceil: i128, bits: u32, thresholds: &[i128]) -> Vec<Bool> {
    let below = thresholds.iter().rev().find(|&&t| t < lo).copied();
    let above = thresholds.iter().find(|&&t| t > hi).copied();
    let mut out = Vec::new();
    if let Some(l) = below {
        out.extend(bounds(e, l, ceil, floor, ceil, bits));
    }
    if let Some(h) = above {
        out.extend(bounds(e, floor, h, floor, ceil, bits));
    }
    out
}

/// [`shapes`] with every interval and octagon bound also offered at the thresholds next to it
/// ([`thresholds`]).
pub fn shapes_with_thresholds(
    comp: &Component,
    vocab: &[Sym],
    rows: &[&State],
    live: &[bool],
    thresholds: &[i128],
) -> Vec<Bool> {
    let mut out = shapes(comp, vocab, rows, live);
    if rows.is_empty() || thresholds.is_empty() {
        return out;
    }
    let vars = scalars(comp, live);
    let span = |v: &[i128]| (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
    for &(i, t) in &vars {
        let Some(x) = bv(vocab, i) else { continue };
        let vals: Vec<i128> = rows.iter().map(|s| value(s, i)).collect();
        let (lo, hi) = span(&vals);
        let w = smt::width(t) + 2;
        out.extend(widened_bounds(&widened(x, t), lo, hi, t.min(), t.max(), w, thresholds));
    }
    for (a, &(i, t)) in vars.iter().enumerate() {
        let same = vars.iter().filter(|(_, u)| *u == t).count();
        if same > MAX_OCTAGON_VARS {
            continue;
        }
        for &(k, u) in &vars[a + 1..] {
            if u != t {
                continue;
            }
            let (Some(x), Some(y)) = (bv(vocab, i), bv(vocab, k)) else { continue };
            let w = smt::width(t) + 2;
            let (xe, ye) = (widened(x, t), widened(y, t));
            let diffs: Vec<i128> = rows.iter().map(|s| value(s, i) - value(s, k)).collect();
            let sums: Vec<i128> = rows.iter().map(|s| value(s, i) + value(s, k)).collect();
            let (dl, dh) = span(&diffs);
            out.extend(widened_bounds(&xe.bvsub(&ye), dl, dh, t.min() - t.max(), t.max() - t.min(), w, thresholds));
            let (sl, sh) = span(&sums);
            out.extend(widened_bounds(&xe.bvadd(&ye), sl, sh, 2 * t.min(), 2 * t.max(), w, thresholds));
        }
    }
    out
}

/// The most program terms that become columns of the equalities.
pub const MAX_TERMS: usize = 8;

/// The terms of `comp` that are not linear in its scalar variables: quotients, remainders,
/// products of two variables, shifts and masks (`n / 2`, `i % 2`, `x * y`), over scalar
/// variables only. [`crate::abs::invariant`]'s affine equalities take each as one more column
/// (its value in the sampled states), so that `k + j == n / 2` is an affine relation among
/// `k`, `j` and the term `n / 2`; the solver then reads the term with its exact bit-vector
/// meaning (quotient and remainder with their defining constraints, [`crate::smt::division`]).
pub fn program_terms(comp: &Component) -> Vec<Expr> {
    fn scalar_only(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Var(_) => true,
            ExprKind::Load(..) => false,
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => scalar_only(a),
            ExprKind::Binary(op, a, b) => !op.is_boolean() && scalar_only(a) && scalar_only(b),
        }
    }
    fn has_var(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_) => true,
            ExprKind::Const(_) | ExprKind::Load(..) => false,
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => has_var(a),
            ExprKind::Binary(_, a, b) => has_var(a) || has_var(b),
        }
    }
    let mut out: Vec<Expr> = Vec::new();
    let mut stack: Vec<&Expr> = Vec::new();
    for e in &comp.edges {
        match &e.stmt {
            Stmt::Assume(c) | Stmt::Check(c, _) => stack.push(c),
            Stmt::Assign(_, v) => stack.push(v),
            _ => {}
        }
    }
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Binary(op, a, b) => {
                let nonlinear = match op {
                    BinOp::Div | BinOp::Rem | BinOp::Shr | BinOp::BitAnd => true,
                    BinOp::Mul => has_var(a) && has_var(b),
                    _ => false,
                };
                if nonlinear
                    && x.ty.bits > 1
                    && scalar_only(x)
                    && has_var(x)
                    && !out.contains(x)
                    && out.len() < MAX_TERMS
                {
                    out.push(x.clone());
                }
                stack.extend([&**a, &**b]);
            }
            ExprKind::Load(_, i) | ExprKind::Unary(_, i) | ExprKind::Cast(i) => stack.push(i),
            ExprKind::Const(_) | ExprKind::Var(_) => {}
        }
    }
    out
}

/// The most variables whose products become columns.
const MAX_PRODUCT_VARS: usize = 5;

/// Products `x * y` (and squares) of the scalar variables of one type that vary in `rows`, as
/// terms, when there are enough rows to tell a relation from a coincidence (twice as many rows
/// as columns): the degree-2 relations of a loop that sums a counter (`2*x == y*y - y + 2`).
pub fn products(comp: &Component, rows: &[State], live: &[bool]) -> Vec<Expr> {
    let mut out = Vec::new();
    let vars = scalars(comp, live);
    let mut types: Vec<IntTy> = vars.iter().map(|&(_, t)| t).collect();
    types.sort_by_key(|t| (t.bits, t.signed));
    types.dedup();
    for ty in types {
        let mut varying: Vec<(usize, Vec<i128>)> = Vec::new();
        for &(i, t) in &vars {
            if t != ty {
                continue;
            }
            let col: Vec<i128> = rows.iter().map(|s| value(s, i)).collect();
            if col.iter().all(|&v| v == col[0]) || varying.iter().any(|(_, c)| *c == col) {
                continue;
            }
            varying.push((i, col));
        }
        varying.truncate(MAX_PRODUCT_VARS);
        let n = varying.len();
        let columns = n + n * (n + 1) / 2 + 1;
        if n == 0 || rows.len() < 2 * columns {
            continue;
        }
        let var = |i: usize| Expr { ty, kind: ExprKind::Var(VarId(i as u32)) };
        for a in 0..n {
            for b in a..n {
                out.push(Expr {
                    ty,
                    kind: ExprKind::Binary(BinOp::Mul, Box::new(var(varying[a].0)), Box::new(var(varying[b].0))),
                });
            }
        }
    }
    out
}

/// The variables each location may read before writing them again: `live[loc][var]`, the
/// classic backward data-flow analysis. A variable dead at a cut point (a temporary of a call,
/// a copy of an input) says nothing about what can happen from there, so the shapes of this
/// module leave it out; Houdini would only spend queries dropping its bounds.
pub fn live(comp: &Component) -> Vec<Vec<bool>> {
    fn reads(e: &Expr, out: &mut Vec<usize>) {
        match &e.kind {
            ExprKind::Const(_) => {}
            ExprKind::Var(v) => out.push(v.index()),
            ExprKind::Load(v, i) => {
                out.push(v.index());
                reads(i, out);
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => reads(a, out),
            ExprKind::Binary(_, a, b) => {
                reads(a, out);
                reads(b, out);
            }
        }
    }
    let n_vars = comp.vars.len();
    // Per edge: the variables it reads and the one it overwrites whole (if any).
    let effects: Vec<(Vec<usize>, Option<usize>)> = comp
        .edges
        .iter()
        .map(|e| {
            let mut r = Vec::new();
            let mut kill = None;
            let mut target = |lv: &crate::ir::Lvalue, r: &mut Vec<usize>| match lv {
                crate::ir::Lvalue::Var(v) => kill = Some(v.index()),
                crate::ir::Lvalue::Elem(v, i) => {
                    // One element written: the others live on.
                    r.push(v.index());
                    reads(i, r);
                }
            };
            match &e.stmt {
                Stmt::Skip => {}
                Stmt::Assign(lv, v) => {
                    reads(v, &mut r);
                    target(lv, &mut r);
                }
                Stmt::Havoc(lv) => target(lv, &mut r),
                Stmt::Assume(c) | Stmt::Check(c, _) => reads(c, &mut r),
                Stmt::Event(crate::ir::Event::Send(_, v)) => reads(v, &mut r),
                Stmt::Event(crate::ir::Event::Recv(_, Some(lv))) => target(lv, &mut r),
                Stmt::Event(_) => {}
            }
            (r, kill)
        })
        .collect();
    let mut live = vec![vec![false; n_vars]; comp.n_locs as usize];
    let mut changed = true;
    while changed {
        changed = false;
        for (e, edge) in comp.edges.iter().enumerate().rev() {
            let (from, to) = (edge.from.index(), edge.to.index());
            let (r, kill) = &effects[e];
            let after = live[to].clone();
            for (v, (here, later)) in live[from].iter_mut().zip(after).enumerate() {
                if !*here && (r.contains(&v) || (Some(v) != *kill && later)) {
                    *here = true;
                    changed = true;
                }
            }
        }
    }
    live
}
