//! The functions the front end gives a meaning of its own instead of treating them as events.
//!
//! Invariant: a name here has its meaning only while the sources do not define a function of
//! that name; a definition is inlined like any other (as gcc would link it), except for the
//! error functions, whose call is the property whatever their body does.

use crate::front::DataModel;
use crate::ir::IntTy;

/// The name every error call (`reach_error`, `__VERIFIER_error`, `__assert_fail`, ...) performs
/// as an event; the no-spec property of `subst verify` is that it never happens.
pub const ERROR_EVENT: &str = "reach_error";

/// Calls that signal a property violation in SV-COMP style programs. Their arguments (often
/// string literals) are ignored and never evaluated; after the event the component ends.
pub const ERROR_FUNCTIONS: &[&str] =
    &["reach_error", "__VERIFIER_error", "__assert_fail", "__assert_perror_fail", "__assert"];

/// Functions that end the component.
pub const EXIT_FUNCTIONS: &[&str] = &["abort", "exit", "_exit", "_Exit"];

/// `assume(c)`: runs where `c` is false are cut.
pub const ASSUME_FUNCTIONS: &[&str] = &["assume", "__VERIFIER_assume"];

/// Functions that allocate or free memory; subst has no heap.
pub const HEAP_FUNCTIONS: &[&str] = &["malloc", "calloc", "realloc", "free", "alloca", "__builtin_alloca"];

/// The suffixes of `nondet_*` / `__VERIFIER_nondet_*` and the C type each returns, by name.
pub const NONDET_SUFFIXES: &[(&str, &str)] = &[
    ("int", "int"),
    ("uint", "unsigned int"),
    ("unsigned", "unsigned int"),
    ("char", "char"),
    ("uchar", "unsigned char"),
    ("short", "short"),
    ("ushort", "unsigned short"),
    ("long", "long"),
    ("ulong", "unsigned long"),
    ("longlong", "long long"),
    ("ulonglong", "unsigned long long"),
    ("bool", "_Bool"),
    ("_Bool", "_Bool"),
    ("size_t", "unsigned long"),
];

/// The IR type of a C integer type name as used in [`NONDET_SUFFIXES`].
pub fn c_type_by_name(name: &str, model: DataModel) -> Option<IntTy> {
    let long = model.long_bits();
    Some(match name {
        "int" => IntTy::I32,
        "unsigned int" => IntTy::U32,
        "char" => IntTy::I8,
        "unsigned char" => IntTy::U8,
        "short" => IntTy::I16,
        "unsigned short" => IntTy::U16,
        "long" => IntTy { bits: long, signed: true },
        "unsigned long" => IntTy { bits: long, signed: false },
        "long long" => IntTy::I64,
        "unsigned long long" => IntTy::U64,
        "_Bool" => IntTy::BOOL,
        _ => return None,
    })
}

/// If `name` is a nondet function, the C name of the type it returns (`unsigned int`).
pub fn nondet_c_name(name: &str) -> Option<&'static str> {
    let suffix = name.strip_prefix("__VERIFIER_nondet_").or_else(|| name.strip_prefix("nondet_"))?;
    NONDET_SUFFIXES.iter().find(|(s, _)| *s == suffix).map(|(_, c)| *c)
}

/// If `name` is a nondet function, the type it returns.
pub fn nondet_type(name: &str, model: DataModel) -> Option<IntTy> {
    c_type_by_name(nondet_c_name(name)?, model)
}

/// Whether `name` looks like a nondet function of a type subst does not support.
pub fn is_unsupported_nondet(name: &str) -> bool {
    (name.starts_with("__VERIFIER_nondet_") || name.starts_with("nondet_"))
        && nondet_type(name, DataModel::Lp64).is_none()
}
