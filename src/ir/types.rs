//! Integer types and bit-precise values of the IR.
//!
//! Every value of the IR is an integer of a fixed width and signedness, stored in an `i128` in
//! its *normal form*: wrapped to the width, then sign-extended when the type is signed and
//! zero-extended when it is not. All arithmetic in [`crate::ir::eval`] keeps values normal, so two
//! values of one type are equal exactly when their bit patterns are.

use std::fmt;

/// A C integer type as the IR sees it: a width in bits and a signedness.
///
/// `_Bool` is the one-bit unsigned type; converting to it is `!= 0`, not truncation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntTy {
    /// Width in bits: 1 (`_Bool`), 8, 16, 32 or 64.
    pub bits: u8,
    /// Whether the type is signed (two's complement).
    pub signed: bool,
}

impl IntTy {
    /// `_Bool`.
    pub const BOOL: IntTy = IntTy { bits: 1, signed: false };
    /// `signed char` (and plain `char` with gcc on x86).
    pub const I8: IntTy = IntTy { bits: 8, signed: true };
    /// `unsigned char`.
    pub const U8: IntTy = IntTy { bits: 8, signed: false };
    /// `short`.
    pub const I16: IntTy = IntTy { bits: 16, signed: true };
    /// `unsigned short`.
    pub const U16: IntTy = IntTy { bits: 16, signed: false };
    /// `int`, also the type of comparisons and logical operators.
    pub const I32: IntTy = IntTy { bits: 32, signed: true };
    /// `unsigned int`.
    pub const U32: IntTy = IntTy { bits: 32, signed: false };
    /// `long` under LP64, `long long`.
    pub const I64: IntTy = IntTy { bits: 64, signed: true };
    /// `unsigned long` under LP64, `unsigned long long`.
    pub const U64: IntTy = IntTy { bits: 64, signed: false };

    /// All types the IR knows, in the order of their text names.
    pub const ALL: [IntTy; 9] =
        [IntTy::BOOL, IntTy::I8, IntTy::U8, IntTy::I16, IntTy::U16, IntTy::I32, IntTy::U32, IntTy::I64, IntTy::U64];

    /// Whether this is `_Bool`.
    pub fn is_bool(self) -> bool {
        self.bits == 1
    }

    /// The smallest value of the type.
    pub fn min(self) -> i128 {
        if self.signed { -(1i128 << (self.bits - 1)) } else { 0 }
    }

    /// The largest value of the type.
    pub fn max(self) -> i128 {
        if self.signed { (1i128 << (self.bits - 1)) - 1 } else { (1i128 << self.bits) - 1 }
    }

    /// Whether `v` is a value of this type without wrapping.
    pub fn contains(self, v: i128) -> bool {
        self.min() <= v && v <= self.max()
    }

    /// Wraps `v` modulo 2^bits into the type's normal form. For `_Bool` this is truncation to the
    /// lowest bit; C's conversion to `_Bool` is [`IntTy::convert`].
    pub fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        let r = v.rem_euclid(m);
        if self.signed && r > self.max() { r - m } else { r }
    }

    /// C's conversion of a value to this type (C11 6.3.1.2 and 6.3.1.3, with gcc's modulo
    /// behaviour for out-of-range conversions to signed types).
    pub fn convert(self, v: i128) -> i128 {
        if self.is_bool() { (v != 0) as i128 } else { self.wrap(v) }
    }

    /// The type with the same width and the other signedness (not for `_Bool`).
    pub fn with_signed(self, signed: bool) -> IntTy {
        IntTy { bits: self.bits, signed }
    }

    /// The text name of the type, e.g. `i32`, `u8`, `bool`.
    pub fn name(self) -> &'static str {
        match (self.bits, self.signed) {
            (1, _) => "bool",
            (8, true) => "i8",
            (8, false) => "u8",
            (16, true) => "i16",
            (16, false) => "u16",
            (32, true) => "i32",
            (32, false) => "u32",
            (64, true) => "i64",
            _ => "u64",
        }
    }

    /// Parses a text name written by [`IntTy::name`].
    pub fn from_name(name: &str) -> Option<IntTy> {
        IntTy::ALL.into_iter().find(|t| t.name() == name)
    }

    /// C's integer promotion (C11 6.3.1.1): every type narrower than `int` becomes `int`.
    pub fn promoted(self) -> IntTy {
        if self.bits < 32 { IntTy::I32 } else { self }
    }

    /// C's usual arithmetic conversions (C11 6.3.1.8) on two promoted types. Ranks follow widths,
    /// which is exact for every data model the front end offers: when widths are equal and
    /// signedness differs, the result is the unsigned type of that width.
    pub fn common(a: IntTy, b: IntTy) -> IntTy {
        let (a, b) = (a.promoted(), b.promoted());
        if a == b {
            a
        } else if a.bits == b.bits {
            a.with_signed(false)
        } else if a.bits > b.bits {
            a
        } else {
            b
        }
    }
}

impl fmt::Display for IntTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of a variable: a scalar or a fixed-size array of scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarTy {
    /// One integer.
    Scalar(IntTy),
    /// `len` integers of one type, indexed from zero.
    Array(IntTy, u32),
}

impl VarTy {
    /// The type of the variable's elements (the variable's own type for a scalar).
    pub fn elem(self) -> IntTy {
        match self {
            VarTy::Scalar(t) | VarTy::Array(t, _) => t,
        }
    }

    /// The number of integers the variable holds.
    pub fn n_elems(self) -> u32 {
        match self {
            VarTy::Scalar(_) => 1,
            VarTy::Array(_, n) => n,
        }
    }
}

impl fmt::Display for VarTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VarTy::Scalar(t) => write!(f, "{t}"),
            VarTy::Array(t, n) => write!(f, "[{t}; {n}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_normalises_to_the_type() {
        assert_eq!(IntTy::I8.wrap(128), -128);
        assert_eq!(IntTy::U8.wrap(-1), 255);
        assert_eq!(IntTy::I32.wrap(1 << 31), i32::MIN as i128);
        assert_eq!(IntTy::U64.wrap(-1), u64::MAX as i128);
        assert_eq!(IntTy::BOOL.convert(2), 1);
        assert_eq!(IntTy::BOOL.wrap(2), 0);
    }

    #[test]
    fn usual_arithmetic_conversions_follow_c11() {
        assert_eq!(IntTy::common(IntTy::I8, IntTy::U16), IntTy::I32);
        assert_eq!(IntTy::common(IntTy::I32, IntTy::U32), IntTy::U32);
        assert_eq!(IntTy::common(IntTy::U32, IntTy::I64), IntTy::I64);
        assert_eq!(IntTy::common(IntTy::I64, IntTy::U64), IntTy::U64);
        assert_eq!(IntTy::common(IntTy::BOOL, IntTy::BOOL), IntTy::I32);
    }
}
