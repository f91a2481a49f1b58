//! Division and remainder as a quotient and a remainder with their defining constraints.
//!
//! Z3 bit-blasts `bvsdiv`, `bvudiv`, `bvsrem` and `bvurem` into divider circuits, and a query
//! that combines them with multiplication (`(x / d) * d + x % d == x`, splitting seconds into
//! hours, minutes and seconds) then asks the SAT solver to prove two arithmetic circuits equal,
//! which ran out of its budget on 32 bits. Before a formula reaches the solver, [`Lowering`]
//! replaces every such term by a constant: `x / y` by `q`, `x % y` by `r` (one pair for the same
//! operands), and adds the constraints that define them, as the textbook definition of
//! truncating division states them (C11 6.5.5), in twice the width so that nothing wraps:
//!
//! - signed, `y != 0` and not `MIN / -1`: `x == q*y + r`, `|r| < |y|`, and `r` is `0` or has the
//!   sign of `x`;
//! - unsigned, `y != 0`: `x == q*y + r` and `r < y`;
//! - the other cases have the values SMT-LIB gives them (`x / 0` is `-1` or `1` by the sign of
//!   `x` signed and all ones unsigned, `x % 0` is `x`, `MIN / -1` is `MIN` with remainder `0`),
//!   which are the ones [`crate::ir::eval`] agrees with.
//!
//! These constraints have exactly one solution `(q, r)` for each `(x, y)`, the value of the
//! operators, so the lowered formula has the same models over the original constants, and a
//! model of it evaluates the original terms to the same values: the rewriting is exact, never an
//! approximation. With a constant divisor, `q*y` is a few adders; the product `(x/d)*d` in the
//! program then meets the same adders, where before it met a divider.
//!
//! Z3's own simplifier may turn `bvsdiv` into its internal `bvsdiv_i` (the same operator, used
//! where the divisor is known to be non-zero or guarded by an if-then-else on it); those are
//! lowered alike. Their value at a zero divisor is never selected, so any value there is sound.
//!
//! Only a division by a constant is lowered. A symbolic divisor would cost a multiplier of twice
//! the width, slower than the divider it replaces (the abstraction of
//! `examples-c/short_circuit.c` ran out of its query budget), so it stays Z3's operator, unless
//! it takes few values. A divisor such as `(g & 7) + 1`, or `c ? -((g & 7) + 2) : (g & 7) + 1`
//! (the generator's guard against a zero divisor), takes at most [`SPLIT_VALUES`] values, which a
//! syntactic look at the term finds (`Lowering::values`: constants, `&` with a constant of few
//! one bits, and `+ - * | ^ ~`, negation, extension and if-then-else of such terms). Its
//! division is split by cases, `x % y` becoming `ite(y == v1, x % v1, ... x % vn)`, whose cases
//! divide by constants and are lowered as above. The last case is taken without a test, so the
//! split is exact only because the values found are all the divisor can take; a term the look
//! is unsure of gets no values. It is worth it: on the generator's seed 11 of
//! `tests/it/abstraction.rs` (`g1 % d(g3)` in 64 bits, where bit 3 of the remainder must be
//! proven zero from its bound) three queries took 16 M, 14 M and 13 M of Z3's resource units on
//! the divider, close to the 20 M budget, and take 11 thousand each split.
//!
//! Known weaknesses: a loop that divides by a variable (`divmod_symbolic`) keeps the divider's
//! cost, and so does a divisor of more than [`SPLIT_VALUES`] values or one that the syntactic
//! look cannot bound (a variable assigned a few values on different branches, a division's
//! result); `bvsmod` (not produced by the encoder) is left as it is; divisions under a
//! quantifier are not lowered.

use z3::ast::{Ast, BV, Bool, Dynamic};

use crate::util::HashMap;

/// The operands of a division: signedness, dividend, divisor.
type Key = (bool, Dynamic, Dynamic);

/// The most values a symbolic divisor may take for its division to be split by cases.
pub const SPLIT_VALUES: usize = 16;

/// The quotient and remainder constants of each division seen so far, with their definitions.
#[derive(Default)]
pub struct Lowering {
    pairs: HashMap<Key, (BV, BV, Bool)>,
    /// Terms known to hold no division (memoised across queries).
    clean: crate::util::HashSet<Dynamic>,
    counter: u64,
    /// Each division by a symbolic divisor of few values, as its case split (memoised across
    /// queries; `None`: the divisor may take too many values).
    splits: HashMap<Dynamic, Option<Dynamic>>,
    /// The values a term may take, where they are few ([`values`]; memoised across queries).
    values: HashMap<Dynamic, Option<std::rc::Rc<Vec<u64>>>>,
}

/// What kind of division-like operator `t` applies, if any: (signed, quotient).
fn operator(t: &Dynamic) -> Option<(bool, bool)> {
    if !t.is_app() || t.num_children() != 2 {
        return None;
    }
    // Declaration names, not kinds: z3-sys numbers the non-Boolean kinds as Z3 4.13 does,
    // which differs from the 4.8 library linked here.
    match t.decl().name().as_str() {
        "bvsdiv" | "bvsdiv_i" => Some((true, true)),
        "bvudiv" | "bvudiv_i" => Some((false, true)),
        "bvsrem" | "bvsrem_i" => Some((true, false)),
        "bvurem" | "bvurem_i" => Some((false, false)),
        _ => None,
    }
}

impl Lowering {
    /// The division terms in `roots`, innermost first.
    fn divisions(&mut self, roots: &[Dynamic]) -> Vec<Dynamic> {
        let mut out = Vec::new();
        let mut seen = crate::util::HashSet::default();
        // Post-order: a node is emitted after its children.
        let mut stack: Vec<(Dynamic, bool)> = roots.iter().map(|r| (r.clone(), false)).collect();
        let mut dirty: crate::util::HashSet<Dynamic> = crate::util::HashSet::default();
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                let children = t.children();
                let has = operator(&t).is_some() || children.iter().any(|c| dirty.contains(c));
                if has {
                    dirty.insert(t.clone());
                    if operator(&t).is_some() {
                        out.push(t);
                    }
                } else {
                    self.clean.insert(t);
                }
                continue;
            }
            if self.clean.contains(&t) || !seen.insert(t.clone()) {
                continue;
            }
            if !t.is_app() {
                // A quantifier or a variable: subst makes neither with divisions inside.
                self.clean.insert(t);
                continue;
            }
            stack.push((t.clone(), true));
            for c in t.children() {
                stack.push((c, false));
            }
        }
        out
    }

    /// `facts` with every division replaced by its quotient or remainder constant, followed by
    /// the definitions of those constants. The same formulas when there is no division.
    pub fn lower(&mut self, facts: &[Bool]) -> Vec<Bool> {
        let roots: Vec<Dynamic> = facts.iter().map(|f| Dynamic::from_ast(f)).collect();
        let mut terms = self.divisions(&roots);
        if terms.is_empty() {
            return facts.to_vec();
        }
        let split: Vec<Bool>;
        let mut facts = facts;
        let cases = self.split(&terms);
        if !cases.is_empty() {
            let refs: Vec<(&Dynamic, &Dynamic)> = cases.iter().map(|(a, b)| (a, b)).collect();
            split = facts.iter().map(|f| f.substitute(&refs)).collect();
            facts = &split;
            let roots: Vec<Dynamic> = facts.iter().map(|f| Dynamic::from_ast(f)).collect();
            terms = self.divisions(&roots);
        }
        let mut pairs: Vec<(Dynamic, Dynamic)> = Vec::with_capacity(terms.len());
        let mut defs: Vec<Bool> = Vec::new();
        for t in &terms {
            let Some((signed, quotient)) = operator(t) else { continue };
            let ch = t.children();
            let (Some(x), Some(y)) = (ch[0].as_bv(), ch[1].as_bv()) else { continue };
            // A symbolic divisor keeps Z3's divider: its definition would need a multiplier of
            // twice the width, which made the abstraction's queries of `examples-c/short_circuit.c`
            // run out of their budget where the divider does not.
            if y.as_u64().is_none() {
                continue;
            }
            let key = (signed, ch[0].clone(), ch[1].clone());
            let (q, r, def) = match self.pairs.get(&key) {
                Some(p) => p.clone(),
                None => {
                    self.counter += 1;
                    let w = x.get_size();
                    let q = BV::new_const(format!("div.q!{}", self.counter), w);
                    let r = BV::new_const(format!("div.r!{}", self.counter), w);
                    let def = definition(signed, &x, &y, &q, &r);
                    self.pairs.insert(key, (q.clone(), r.clone(), def.clone()));
                    (q, r, def)
                }
            };
            if !defs.contains(&def) {
                defs.push(def);
            }
            pairs.push((t.clone(), Dynamic::from_ast(if quotient { &q } else { &r })));
        }
        let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(a, b)| (a, b)).collect();
        let mut out: Vec<Bool> = facts.iter().map(|f| f.substitute(&refs)).collect();
        // A definition speaks about the operands, which may hold divisions themselves.
        out.extend(defs.iter().map(|d| d.substitute(&refs)));
        out
    }
}

impl Lowering {
    /// The divisions among `terms` (innermost first) whose divisor is symbolic but takes at
    /// most [`SPLIT_VALUES`] values, each with its case split over those values: `x / y` becomes
    /// `ite(y == v1, x / v1, ite(y == v2, x / v2, ... x / vn))`, the last case taken without a
    /// test since `y` takes no other value. Divisions inside the operands are split in the
    /// replacement too (it is built from the operands with the earlier, inner, splits applied).
    fn split(&mut self, terms: &[Dynamic]) -> Vec<(Dynamic, Dynamic)> {
        let mut out: Vec<(Dynamic, Dynamic)> = Vec::new();
        for t in terms {
            let Some((signed, quotient)) = operator(t) else { continue };
            let ch = t.children();
            if ch[1].as_bv().is_none_or(|y| y.as_u64().is_some()) {
                continue;
            }
            if let Some(done) = self.splits.get(t) {
                if let Some(c) = done {
                    out.push((t.clone(), c.clone()));
                }
                continue;
            }
            let case = self.values(&ch[1]).and_then(|vals| {
                let refs: Vec<(&Dynamic, &Dynamic)> = out.iter().map(|(a, b)| (a, b)).collect();
                let inner = |d: &Dynamic| if refs.is_empty() { d.clone() } else { d.substitute(&refs) };
                let (x, y) = (inner(&ch[0]).as_bv()?, inner(&ch[1]).as_bv()?);
                let w = y.get_size();
                let apply = |v: u64| {
                    let c = BV::from_u64(v, w);
                    match (signed, quotient) {
                        (true, true) => x.bvsdiv(&c),
                        (false, true) => x.bvudiv(&c),
                        (true, false) => x.bvsrem(&c),
                        (false, false) => x.bvurem(&c),
                    }
                };
                let (last, rest) = vals.split_last()?;
                let chain =
                    rest.iter().rev().fold(apply(*last), |acc, &v| y.eq(BV::from_u64(v, w)).ite(&apply(v), &acc));
                Some(Dynamic::from_ast(&chain))
            });
            self.splits.insert(t.clone(), case.clone());
            if let Some(c) = case {
                out.push((t.clone(), c));
            }
        }
        out
    }

    /// Every value the bit-vector term `t` can take, in increasing order, when a syntactic look
    /// at it finds at most [`SPLIT_VALUES`] of them; `None` otherwise (or when unsure). Always a
    /// superset of the values `t` takes under any assignment of its constants: a constant, a
    /// bitwise and with a constant of few one bits (its sub-masks), and the values of `+`, `-`,
    /// `*`, `|`, `^`, `~`, negation, extension and if-then-else over operands of few values.
    fn values(&mut self, t: &Dynamic) -> Option<std::rc::Rc<Vec<u64>>> {
        if let Some(v) = self.values.get(t) {
            return v.clone();
        }
        let v = self.values_of(t).map(std::rc::Rc::new);
        self.values.insert(t.clone(), v.clone());
        v
    }

    fn values_of(&mut self, t: &Dynamic) -> Option<Vec<u64>> {
        let b = t.as_bv()?;
        let w = b.get_size();
        if w > 64 {
            return None;
        }
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        if let Some(v) = b.as_u64() {
            return Some(vec![v]);
        }
        if !t.is_app() {
            return None;
        }
        let ch = t.children();
        let finish = |mut v: Vec<u64>| {
            for x in &mut v {
                *x &= mask;
            }
            v.sort_unstable();
            v.dedup();
            (v.len() <= SPLIT_VALUES).then_some(v)
        };
        let name = t.decl().name();
        match (name.as_str(), ch.len()) {
            ("bvand", _) => {
                // The value has no one bit outside a constant operand's.
                if let Some(c) = ch.iter().filter_map(|c| c.as_bv()?.as_u64()).min_by_key(|c| c.count_ones())
                    && 1usize << c.count_ones() <= SPLIT_VALUES
                {
                    return finish(submasks(c));
                }
                self.fold(&ch, |a, b| a & b).and_then(finish)
            }
            ("bvor", _) => self.fold(&ch, |a, b| a | b).and_then(finish),
            ("bvxor", _) => self.fold(&ch, |a, b| a ^ b).and_then(finish),
            ("bvadd", _) => self.fold(&ch, u64::wrapping_add).and_then(finish),
            ("bvmul", _) => self.fold(&ch, u64::wrapping_mul).and_then(finish),
            ("bvsub", 2) => self.fold(&ch, u64::wrapping_sub).and_then(finish),
            ("bvneg", 1) => finish(self.values(&ch[0])?.iter().map(|v| v.wrapping_neg()).collect()),
            ("bvnot", 1) => finish(self.values(&ch[0])?.iter().map(|v| !v).collect()),
            ("zero_extend", 1) => finish(self.values(&ch[0])?.to_vec()),
            ("sign_extend", 1) => {
                let from = ch[0].as_bv()?.get_size();
                let shift = 64 - from;
                finish(self.values(&ch[0])?.iter().map(|&v| (((v << shift) as i64) >> shift) as u64).collect())
            }
            ("if" | "ite", 3) => {
                let mut v = self.values(&ch[1])?.to_vec();
                v.extend(self.values(&ch[2])?.iter());
                finish(v)
            }
            _ => None,
        }
    }

    /// The values of `op` folded over `operands`, each of few values (combined pairwise, giving
    /// up as soon as a partial result has too many).
    fn fold(&mut self, operands: &[Dynamic], op: impl Fn(u64, u64) -> u64) -> Option<Vec<u64>> {
        let (first, rest) = operands.split_first()?;
        let mut acc = self.values(first)?.to_vec();
        for c in rest {
            let vs = self.values(c)?;
            let mut next: Vec<u64> =
                acc.iter().flat_map(|&a| vs.iter().map(move |&b| (a, b))).map(|(a, b)| op(a, b)).collect();
            next.sort_unstable();
            next.dedup();
            if next.len() > 4 * SPLIT_VALUES {
                return None;
            }
            acc = next;
        }
        Some(acc)
    }
}

/// Every `m` with no one bit outside `c`.
fn submasks(c: u64) -> Vec<u64> {
    let mut out = vec![0];
    let mut m = c;
    while m != 0 {
        out.push(m);
        m = (m - 1) & c;
    }
    out
}

/// The constraints that make `q` and `r` the quotient and remainder of `x` by `y` (of one
/// width), exactly as SMT-LIB's operators define them.
fn definition(signed: bool, x: &BV, y: &BV, q: &BV, r: &BV) -> Bool {
    let w = x.get_size();
    let zero = BV::from_u64(0, w);
    let ones = zero.bvnot();
    let y_zero = y.eq(&zero);
    if !signed {
        let wide = |b: &BV| b.zero_ext(w);
        let normal = Bool::and(&[wide(x).eq(wide(q).bvmul(wide(y)).bvadd(wide(r))), r.bvult(y)]);
        let by_zero = Bool::and(&[q.eq(&ones), r.eq(x)]);
        return y_zero.ite(&by_zero, &normal);
    }
    let wide = |b: &BV| b.sign_ext(w);
    let one = BV::from_u64(1, w);
    let min = one.bvshl(BV::from_u64(u64::from(w - 1), w));
    let abs = |b: &BV| b.bvslt(BV::from_u64(0, 2 * w)).ite(&b.bvneg(), b);
    let (wr, wy) = (wide(r), wide(y));
    let normal = Bool::and(&[
        wide(x).eq(wide(q).bvmul(&wy).bvadd(&wr)),
        abs(&wr).bvslt(abs(&wy)),
        x.bvsge(&zero).implies(r.bvsge(&zero)),
        x.bvslt(&zero).implies(r.bvsle(&zero)),
    ]);
    let by_zero = Bool::and(&[q.eq(x.bvslt(&zero).ite(&one, &ones)), r.eq(x)]);
    let overflow = Bool::and(&[x.eq(&min), y.eq(&ones)]);
    let wraps = Bool::and(&[q.eq(&min), r.eq(&zero)]);
    y_zero.ite(&by_zero, &overflow.ite(&wraps, &normal))
}

#[cfg(test)]
mod tests {
    use super::Lowering;
    use z3::ast::{Ast, BV, Bool, Dynamic};
    use z3::{SatResult, Solver};

    /// For every 4-bit dividend and every constant 4-bit divisor, the lowered `x / y` and `x % y`
    /// equal Z3's operators, and are the only values the lowered formula allows.
    #[test]
    fn lowered_division_agrees_with_the_operators_on_every_4_bit_pair() {
        for signed in [false, true] {
            let x = BV::new_const("x", 4);
            let (qv, rv) = (BV::new_const("qv", 4), BV::new_const("rv", 4));
            for b in 0..16u64 {
                let y = BV::from_u64(b, 4);
                let (q, r) = if signed { (x.bvsdiv(&y), x.bvsrem(&y)) } else { (x.bvudiv(&y), x.bvurem(&y)) };
                let mut low = Lowering::default();
                let facts = low.lower(&[q.eq(&qv), r.eq(&rv)]);
                assert!(facts.len() > 2, "a constant divisor is lowered (signed {signed}, {b})");
                for a in 0..16u64 {
                    let xa = BV::from_u64(a, 4);
                    let expect_q = if signed { xa.bvsdiv(&y) } else { xa.bvudiv(&y) }.simplify();
                    let expect_r = if signed { xa.bvsrem(&y) } else { xa.bvurem(&y) }.simplify();
                    let s = Solver::new();
                    for f in &facts {
                        s.assert(f);
                    }
                    s.assert(x.eq(&xa));
                    // The operators' answer is one, and the only one.
                    s.push();
                    s.assert(Bool::and(&[qv.eq(&expect_q), rv.eq(&expect_r)]));
                    assert_eq!(s.check(), SatResult::Sat, "signed {signed}, {a} and {b}");
                    s.pop(1);
                    s.assert(Bool::or(&[qv.eq(&expect_q).not(), rv.eq(&expect_r).not()]));
                    assert_eq!(s.check(), SatResult::Unsat, "signed {signed}, {a} and {b}");
                }
            }
        }
    }

    /// For every 4-bit dividend and every value of a divisor that is an expression of few
    /// values (`c ? -((z & 3) + 2) : (z & 3) + 1`, eight values, none of them zero, and
    /// `z & 6`, which is zero for some `z`), the split `x / y` and `x % y` equal Z3's operators,
    /// and are the only values the lowered formula allows; nested inside another division's
    /// divisor too.
    #[test]
    fn a_divisor_of_few_values_is_split_exactly_on_every_4_bit_case() {
        let (x, z) = (BV::new_const("x", 4), BV::new_const("z", 4));
        let c = Bool::new_const("c");
        let low3 = z.bvand(BV::from_u64(3, 4));
        let branches = c.ite(&low3.bvadd(BV::from_u64(2, 4)).bvneg(), &low3.bvadd(BV::from_u64(1, 4)));
        let few = [
            branches.clone(),
            z.bvand(BV::from_u64(6, 4)),
            x.bvsrem(&branches).bvand(BV::from_u64(3, 4)).bvadd(BV::from_u64(1, 4)),
        ];
        let (qv, rv) = (BV::new_const("qv", 4), BV::new_const("rv", 4));
        for signed in [false, true] {
            for y in &few {
                let (q, r) = if signed { (x.bvsdiv(y), x.bvsrem(y)) } else { (x.bvudiv(y), x.bvurem(y)) };
                let mut low = Lowering::default();
                let facts = low.lower(&[q.eq(&qv), r.eq(&rv)]);
                let text: String = facts.iter().map(|f| f.to_string()).collect();
                assert!(!text.contains("div ") && !text.contains("rem "), "no divider left: {text}");
                let s = Solver::new();
                for f in &facts {
                    s.assert(f);
                }
                for (a, b, k) in (0..16u64).flat_map(|a| (0..16u64).flat_map(move |b| [(a, b, false), (a, b, true)])) {
                    let (xa, zb, ck) = (BV::from_u64(a, 4), BV::from_u64(b, 4), Bool::from_bool(k));
                    let at = |t: &BV| t.substitute(&[(&x, &xa), (&z, &zb)]).substitute(&[(&c, &ck)]).simplify();
                    let (expect_q, expect_r) = (at(&q), at(&r));
                    s.push();
                    s.assert(Bool::and(&[x.eq(&xa), z.eq(&zb), c.eq(&ck)]));
                    s.push();
                    s.assert(Bool::and(&[qv.eq(&expect_q), rv.eq(&expect_r)]));
                    assert_eq!(s.check(), SatResult::Sat, "signed {signed}, {y}, x {a}, z {b}, c {k}");
                    s.pop(1);
                    s.assert(Bool::or(&[qv.eq(&expect_q).not(), rv.eq(&expect_r).not()]));
                    assert_eq!(s.check(), SatResult::Unsat, "signed {signed}, {y}, x {a}, z {b}, c {k}");
                    s.pop(1);
                }
            }
        }
    }

    /// The values found for a term contain the term's value under every assignment of its
    /// constants (here every one of two 4-bit constants), and are not found when there are more
    /// than [`super::SPLIT_VALUES`].
    #[test]
    fn the_values_of_a_term_contain_every_value_it_takes() {
        let (a, b) = (BV::new_const("a", 4), BV::new_const("b", 4));
        let n = |v: u64| BV::from_u64(v, 4);
        let c = a.bvult(&b);
        let few = [
            a.bvand(n(5)).bvadd(n(3)),
            a.bvand(n(3)).bvmul(b.bvand(n(2))).bvneg(),
            c.ite(&a.bvand(n(1)), &b.bvand(n(8)).bvnot()),
            a.bvand(n(3)).bvor(b.bvand(n(12))),
            a.bvand(n(6)).bvxor(n(9)).bvsub(b.bvand(n(1))),
            a.bvand(n(12)).sign_ext(4),
            a.bvand(n(9)).zero_ext(4).bvadd(BV::from_u64(200, 8)),
        ];
        for t in &few {
            let mut low = Lowering::default();
            let vals = low.values(&Dynamic::from_ast(t)).unwrap_or_else(|| panic!("few values: {t}"));
            for (va, vb) in (0..16u64).flat_map(|va| (0..16u64).map(move |vb| (va, vb))) {
                let v = t.substitute(&[(&a, &n(va)), (&b, &n(vb))]).simplify().as_u64().expect("a numeral");
                assert!(vals.contains(&v), "{t} at a {va}, b {vb} is {v}, not in {vals:?}");
            }
        }
        let mut low = Lowering::default();
        for many in [a.clone(), a.bvadd(&b), a.bvand(n(3)).bvmul(&b), a.bvudiv(n(3))] {
            assert!(low.values(&Dynamic::from_ast(&many)).is_none(), "{many}");
        }
    }

    /// The query of the generator's seed 11 (`tests/it/abstraction.rs`) that used 16 M resource
    /// units: a 64-bit remainder by `(g3 & 7) + 1` has no bit 3 when the dividend is not
    /// negative (beside a remainder by a variable, `v`, which keeps its divider). Split by
    /// cases it is answered within a tenth of that, by an incremental solver (in a scope) as
    /// [`crate::smt::Smt`] asks it first.
    #[test]
    fn a_remainder_by_a_divisor_of_few_values_is_bounded_cheaply() {
        let (g1, g3, v) = (BV::new_const("g1", 32), BV::new_const("g3", 64), BV::new_const("v", 64));
        let n = |k: u64| BV::from_u64(k, 64);
        let bit3 = |d: &BV| g1.zero_ext(32).bvsrem(d).bvand(n(8)).eq(n(0));
        let d = g3.bvand(n(7)).bvadd(n(1));
        let s = Solver::new();
        let mut p = z3::Params::new();
        p.set_u32("rlimit", 1_700_000);
        s.set_params(&p);
        s.push();
        for f in Lowering::default().lower(&[g3.bvand(n(8)).eq(n(0)), bit3(&v), bit3(&d).not()]) {
            s.assert(&f);
        }
        assert_eq!(s.check(), SatResult::Unsat);
    }

    /// A division by a variable reaches the solver as Z3's own operator.
    #[test]
    fn a_symbolic_divisor_is_left_to_the_divider() {
        let (x, y, v) = (BV::new_const("x", 8), BV::new_const("y", 8), BV::new_const("v", 8));
        let fact = x.bvsdiv(&y).eq(&v);
        let mut low = Lowering::default();
        assert_eq!(low.lower(std::slice::from_ref(&fact)), vec![fact]);
    }
}
