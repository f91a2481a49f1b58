//! Inputs of the soundness tests of the abstraction: predicates to seed a may-model with, and
//! input lists for the interpreter's runs that the may-model must contain.

use subst::abs::Abstractor;
use subst::ir::Stmt;

/// Predicates for the soundness check: the atoms of up to `max` branch conditions, at every
/// location.
pub fn seed_predicates(abs: &mut Abstractor, max: usize) {
    let comp = abs.component();
    let mut conds = Vec::new();
    for e in &comp.edges {
        if let Stmt::Assume(c) = &e.stmt {
            let f = abs.enc.cond(c, &abs.vocab);
            for a in subst::smt::atoms(&f) {
                if !conds.contains(&a) && conds.len() < max {
                    conds.push(a);
                }
            }
        }
    }
    for l in 0..comp.n_locs {
        for c in &conds {
            abs.precision.add(subst::ir::LocId(l), c.clone());
        }
    }
}

/// Six lists of 30 inputs from `seed` (xorshift): the extremes of the integer types, small
/// values and arbitrary 32-bit ones, a third each.
pub fn input_lists(seed: u64) -> Vec<Vec<i128>> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let extremes = [0i128, 1, -1, 2147483647, -2147483648, 4294967295, 255, -128, 7, -7, 3, 2];
    (0..6)
        .map(|_| {
            (0..30)
                .map(|_| {
                    let r = next();
                    match r % 3 {
                        0 => extremes[(r >> 8) as usize % extremes.len()],
                        1 => (r >> 8) as i64 as i128 % 10,
                        _ => (r >> 3) as i32 as i128,
                    }
                })
                .collect()
        })
        .collect()
}
