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
//! `examples-c/short_circuit.c` ran out of its query budget), so it stays Z3's operator.
//!
//! Known weaknesses: a loop that divides by a variable (`divmod_symbolic`) keeps the divider's
//! cost; `bvsmod` (not produced by the encoder) is left as it is.

use z3::ast::{Ast, BV, Bool, Dynamic};

use crate::util::HashMap;

/// The operands of a division: signedness, dividend, divisor.
type Key = (bool, Dynamic, Dynamic);

/// The quotient and remainder constants of each division seen so far, with their definitions.
#[derive(Default)]
pub struct Lowering {
    pairs: HashMap<Key, (BV, BV, Bool)>,
    /// Terms known to hold no division (memoised across queries).
    clean: crate::util::HashSet<Dynamic>,
    counter: u64,
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
        let terms = self.divisions(&roots);
        if terms.is_empty() {
            return facts.to_vec();
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
    use z3::ast::{Ast, BV, Bool};
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

    /// A division by a variable reaches the solver as Z3's own operator.
    #[test]
    fn a_symbolic_divisor_is_left_to_the_divider() {
        let (x, y, v) = (BV::new_const("x", 8), BV::new_const("y", 8), BV::new_const("v", 8));
        let fact = x.bvsdiv(&y).eq(&v);
        let mut low = Lowering::default();
        assert_eq!(low.lower(std::slice::from_ref(&fact)), vec![fact]);
    }
}
