//! Bit-precise evaluation of IR expressions.
//!
//! The semantics here is the reference for every encoding of the IR: operations wrap to their
//! type, and the cases C leaves undefined take the values SMT-LIB's bit-vector operators give
//! (they are unreachable behind the front end's checks, but an evaluator must be total).

use super::{BinOp, Expr, ExprKind, IntTy, UnOp, VarId};

/// Read access to variable values.
pub trait Valuation {
    /// The value of element `index` of variable `var` (index 0 for a scalar), or `None` when the
    /// index is outside the variable.
    fn read(&self, var: VarId, index: i128) -> Option<i128>;
}

/// No variables at all: for constant expressions.
pub struct NoVars;

impl Valuation for NoVars {
    fn read(&self, _: VarId, _: i128) -> Option<i128> {
        None
    }
}

/// The value of `e` in `vals`. A read of a variable that `vals` does not have yields 0.
pub fn eval(e: &Expr, vals: &dyn Valuation) -> i128 {
    match &e.kind {
        ExprKind::Const(v) => *v,
        ExprKind::Var(v) => vals.read(*v, 0).unwrap_or(0),
        ExprKind::Load(v, idx) => vals.read(*v, eval(idx, vals)).unwrap_or(0),
        ExprKind::Unary(op, a) => unary(*op, a.ty, eval(a, vals)),
        ExprKind::Binary(op, a, b) => binary(*op, a.ty, eval(a, vals), eval(b, vals)),
        ExprKind::Cast(a) => e.ty.convert(eval(a, vals)),
    }
}

/// A unary operation on a normal value of type `ty`.
pub fn unary(op: UnOp, ty: IntTy, a: i128) -> i128 {
    match op {
        UnOp::Neg => ty.wrap(-a),
        UnOp::BitNot => ty.wrap(!a),
        UnOp::Not => (a == 0) as i128,
    }
}

/// The bits of a normal value as an unsigned number of the type's width.
fn unsigned_bits(ty: IntTy, a: i128) -> i128 {
    ty.with_signed(false).wrap(a)
}

/// A binary operation on normal values of type `ty` (the operands' type).
pub fn binary(op: BinOp, ty: IntTy, a: i128, b: i128) -> i128 {
    let width = ty.bits as i128;
    match op {
        BinOp::Add => ty.wrap(a + b),
        BinOp::Sub => ty.wrap(a - b),
        BinOp::Mul => ty.wrap(a.wrapping_mul(b)),
        BinOp::Div => {
            if b == 0 {
                // SMT-LIB: bvudiv by zero is all ones; bvsdiv is -1 for a non-negative dividend
                // and 1 for a negative one.
                if ty.signed { if a < 0 { 1 } else { -1 } } else { ty.max() }
            } else {
                ty.wrap(a / b)
            }
        }
        BinOp::Rem => {
            if b == 0 {
                a
            } else {
                ty.wrap(a % b)
            }
        }
        BinOp::Shl => {
            let count = unsigned_bits(ty, b);
            if count >= width { 0 } else { ty.wrap(a << count) }
        }
        BinOp::Shr => {
            let count = unsigned_bits(ty, b);
            if count >= width { if ty.signed && a < 0 { -1 } else { 0 } } else { ty.wrap(a >> count) }
        }
        BinOp::BitAnd => ty.wrap(a & b),
        BinOp::BitOr => ty.wrap(a | b),
        BinOp::BitXor => ty.wrap(a ^ b),
        // Normal values compare correctly as i128 for both signed and unsigned types.
        BinOp::Eq => (a == b) as i128,
        BinOp::Ne => (a != b) as i128,
        BinOp::Lt => (a < b) as i128,
        BinOp::Le => (a <= b) as i128,
        BinOp::Gt => (a > b) as i128,
        BinOp::Ge => (a >= b) as i128,
        BinOp::And => (a != 0 && b != 0) as i128,
        BinOp::Or => (a != 0 || b != 0) as i128,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_arithmetic_wraps_like_fwrapv() {
        assert_eq!(binary(BinOp::Add, IntTy::I32, i32::MAX as i128, 1), i32::MIN as i128);
        assert_eq!(binary(BinOp::Mul, IntTy::I64, i64::MAX as i128, i64::MAX as i128), 1);
        assert_eq!(binary(BinOp::Div, IntTy::I32, i32::MIN as i128, -1), i32::MIN as i128);
    }

    #[test]
    fn division_truncates_toward_zero() {
        assert_eq!(binary(BinOp::Div, IntTy::I32, -7, 2), -3);
        assert_eq!(binary(BinOp::Rem, IntTy::I32, -7, 2), -1);
        assert_eq!(binary(BinOp::Rem, IntTy::I32, 7, -2), 1);
    }

    #[test]
    fn right_shift_is_arithmetic_for_signed_types() {
        assert_eq!(binary(BinOp::Shr, IntTy::I32, -8, 1), -4);
        assert_eq!(binary(BinOp::Shr, IntTy::U32, IntTy::U32.wrap(-8), 1), 0x7fff_fffc);
        assert_eq!(binary(BinOp::Shl, IntTy::I32, 1, 31), i32::MIN as i128);
    }
}
