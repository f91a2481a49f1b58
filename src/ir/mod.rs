//! The program IR: one control-flow automaton per component.
//!
//! A [`Component`] is a set of locations joined by [`Edge`]s, each labelled with one [`Stmt`] and
//! the [`Origin`] in the C source it was lowered from. The front end produces it; every later
//! phase (abstraction, simulation, the interpreter) reads it. An origin's stack of inlined calls
//! is a [`CallStack`], a persistent list shared by the edges of one inlined body.
//!
//! Architecture invariants:
//! - Expressions ([`Expr`]) are pure and total. Everything C leaves undefined (division by zero,
//!   out-of-range shifts and indices, `INT_MIN / -1`, an event value outside its family's range,
//!   a dereference of a null or out-of-object pointer)
//!   is guarded by an explicit [`Stmt::Check`] edge placed before the expression is evaluated, so
//!   an encoding of expressions never needs to model undefined behaviour.
//! - Every value is an integer: the front end lowers structs to one variable per member and a
//!   pointer to two integers (an object tag and an element offset), so no later phase needs a
//!   memory model.
//! - Types are explicit: both operands of a binary operator have the same type, and every C
//!   integer promotion or conversion is a [`ExprKind::Cast`] node. Comparisons and logical
//!   operators yield `i32`, as in C.
//! - Side effects are statements: assignments, havoc (input), events. C's short-circuit operators
//!   and `?:` in the source are lowered to branches, never to expressions.
//! - The [`Component::exit`] location has no outgoing edges; reaching it means the component has
//!   terminated (returned, `abort()`ed or `exit()`ed) and performs no further events.
//!
//! The text form is written by [`text`] and read back by [`parse`]; [`check`] validates a
//! component and reports every problem at once; [`interp`] runs one.

pub mod check;
pub mod eval;
pub mod interp;
pub mod parse;
mod stack;
pub mod text;
mod types;

pub use stack::CallStack;
pub use types::{IntTy, VarTy};

use std::fmt;

macro_rules! typed_index {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing vectors.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

typed_index!(
    /// A location (program point) of a component; printed `l3`.
    LocId,
    "l"
);
typed_index!(
    /// A variable of a component, an index into [`Component::vars`]; printed by its name.
    VarId,
    "v"
);

/// Whether a variable is a C global (initialised when the component starts) or a local.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// A global or `static` variable; `init` holds one value per element, C's zero by default.
    Global {
        /// Initial values, `ty.n_elems()` of them, each normal for the element type.
        init: Vec<i128>,
    },
    /// A local variable or a temporary: its value is arbitrary until assigned.
    Local,
}

/// A variable of a component.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// Unique name within the component. C names are kept for globals; locals are prefixed by
    /// their function (`f.x`), temporaries start with `$`.
    pub name: String,
    /// Scalar or array type.
    pub ty: VarTy,
    /// Global (with initial values) or local.
    pub storage: Storage,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Two's complement negation, wrapping.
    Neg,
    /// Bitwise complement.
    BitNot,
    /// Logical not: 1 if the operand is 0, else 0; yields `i32`.
    Not,
}

/// Binary operators. Operands always have the same type; signedness of the operand type selects
/// signed or unsigned division, remainder, right shift and comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Division truncating toward zero; SMT-LIB `bvsdiv`/`bvudiv` on a zero divisor.
    Div,
    /// Remainder with the sign of the dividend; SMT-LIB `bvsrem`/`bvurem` on a zero divisor.
    Rem,
    /// Left shift; a count of the width or more gives 0.
    Shl,
    /// Right shift, arithmetic for signed types; a count of the width or more gives 0 or -1.
    Shr,
    /// Bitwise and.
    BitAnd,
    /// Bitwise or.
    BitOr,
    /// Bitwise exclusive or.
    BitXor,
    /// `==`, yields `i32`.
    Eq,
    /// `!=`, yields `i32`.
    Ne,
    /// `<`, yields `i32`.
    Lt,
    /// `<=`, yields `i32`.
    Le,
    /// `>`, yields `i32`.
    Gt,
    /// `>=`, yields `i32`.
    Ge,
    /// Logical and of two pure operands, yields `i32` (only in checks the front end builds).
    And,
    /// Logical or of two pure operands, yields `i32`.
    Or,
}

impl BinOp {
    /// Whether the operator yields `i32` 0/1 rather than a value of its operand type.
    pub fn is_boolean(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::And | BinOp::Or)
    }

    /// The operator's symbol in the text form.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// All binary operators.
    pub const ALL: [BinOp; 18] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
    ];
}

/// A pure, total, typed expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    /// The type of the expression's value.
    pub ty: IntTy,
    /// What the expression computes.
    pub kind: ExprKind,
}

/// The forms of [`Expr`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// A constant, normal for the expression's type.
    Const(i128),
    /// The value of a scalar variable.
    Var(VarId),
    /// An element of an array variable; an index outside the array reads 0 (the front end guards
    /// every C index with a bounds check first).
    Load(VarId, Box<Expr>),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation on operands of one type.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to the expression's type ([`IntTy::convert`]).
    Cast(Box<Expr>),
}

impl Expr {
    /// A constant of type `ty`, wrapped into the type.
    pub fn constant(value: i128, ty: IntTy) -> Expr {
        Expr { ty, kind: ExprKind::Const(ty.convert(value)) }
    }

    /// A scalar variable read.
    pub fn var(id: VarId, ty: IntTy) -> Expr {
        Expr { ty, kind: ExprKind::Var(id) }
    }

    /// `self` converted to `ty`; no node when the type is already `ty`.
    pub fn cast(self, ty: IntTy) -> Expr {
        if self.ty == ty {
            return self;
        }
        match self.kind {
            ExprKind::Const(v) => Expr::constant(v, ty),
            kind => Expr { ty, kind: ExprKind::Cast(Box::new(Expr { ty: self.ty, kind })) },
        }
    }

    /// A binary operation; both operands must already have the same type.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        debug_assert_eq!(a.ty, b.ty, "operands of {op:?} differ in type");
        let ty = if op.is_boolean() { IntTy::I32 } else { a.ty };
        Expr { ty, kind: ExprKind::Binary(op, Box::new(a), Box::new(b)) }
    }

    /// A unary operation.
    pub fn unary(op: UnOp, a: Expr) -> Expr {
        let ty = if op == UnOp::Not { IntTy::I32 } else { a.ty };
        Expr { ty, kind: ExprKind::Unary(op, Box::new(a)) }
    }

    /// The constant value, if this is a constant.
    pub fn as_const(&self) -> Option<i128> {
        match self.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }
}

/// The target of an assignment or havoc.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lvalue {
    /// A whole variable (all elements, for an array in a havoc).
    Var(VarId),
    /// One element of an array.
    Elem(VarId, Expr),
}

impl Lvalue {
    /// The variable written.
    pub fn var(&self) -> VarId {
        match self {
            Lvalue::Var(v) | Lvalue::Elem(v, _) => *v,
        }
    }
}

/// Undefined behaviours that a [`Stmt::Check`] guards against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// `x / 0` or `x % 0`.
    DivByZero,
    /// `MIN / -1` or `MIN % -1` for a signed type (traps on x86 even with `-fwrapv`).
    DivOverflow,
    /// A shift count negative or not less than the width of the promoted left operand.
    ShiftOutOfRange,
    /// An array index outside the array.
    IndexOutOfBounds,
    /// A value sent on an event family outside the family's declared range.
    EventOutOfRange,
    /// A dereference of a null or indeterminate pointer or outside the object it points into,
    /// or a comparison or subtraction of pointers into different objects.
    InvalidPointer,
}

impl Fault {
    /// All faults, for the text parser.
    pub const ALL: [Fault; 6] = [
        Fault::DivByZero,
        Fault::DivOverflow,
        Fault::ShiftOutOfRange,
        Fault::IndexOutOfBounds,
        Fault::EventOutOfRange,
        Fault::InvalidPointer,
    ];

    /// The fault's keyword in the text form.
    pub fn keyword(self) -> &'static str {
        match self {
            Fault::DivByZero => "div_by_zero",
            Fault::DivOverflow => "div_overflow",
            Fault::ShiftOutOfRange => "shift_out_of_range",
            Fault::IndexOutOfBounds => "index_out_of_bounds",
            Fault::EventOutOfRange => "event_out_of_range",
            Fault::InvalidPointer => "invalid_pointer",
        }
    }

    /// A sentence for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Fault::DivByZero => "division by zero",
            Fault::DivOverflow => "signed division overflow (MIN / -1)",
            Fault::ShiftOutOfRange => "shift count out of range",
            Fault::IndexOutOfBounds => "array index out of bounds",
            Fault::EventOutOfRange => "event value outside the family's range",
            Fault::InvalidPointer => "invalid pointer (null, indeterminate, or outside its object)",
        }
    }
}

/// An event performed by a component: a call to a function the sources do not define.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `name();`: the event `name`.
    Plain(String),
    /// `name(e);`: the event `name.v` where `v` is the value of `e` (CSP's `name!e`).
    Send(String, Expr),
    /// `x = name();`: the environment picks `v`, the event is `name.v` and `x` receives `v`
    /// (CSP's `name?x`). `None` when the value is discarded.
    Recv(String, Option<Lvalue>),
}

impl Event {
    /// The event's (family) name.
    pub fn name(&self) -> &str {
        match self {
            Event::Plain(n) | Event::Send(n, _) | Event::Recv(n, _) => n,
        }
    }
}

/// The statement on an edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// Does nothing.
    Skip,
    /// Stores the value of the expression, which has the element type of the target.
    Assign(Lvalue, Expr),
    /// Gives the target an arbitrary value: input from `nondet_*()` or an uninitialised local.
    Havoc(Lvalue),
    /// Passable only when the expression is non-zero (branch conditions, `assume`).
    Assume(Expr),
    /// Passable when the expression is non-zero; otherwise the run has undefined behaviour.
    Check(Expr, Fault),
    /// Performs an event.
    Event(Event),
}

/// A position range in an original (not preprocessed) source file; lines and columns from 1,
/// columns in characters, the end exclusive.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SrcSpan {
    /// The file as the user named it (or as `#include` found it).
    pub file: String,
    /// First line.
    pub line: u32,
    /// First column.
    pub col: u32,
    /// Last line.
    pub end_line: u32,
    /// Column just past the end.
    pub end_col: u32,
}

impl fmt::Display for SrcSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One inlined call on the way to a statement: the called function and where it was called.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The function called.
    pub function: String,
    /// The call expression.
    pub call: SrcSpan,
}

/// Where an edge comes from in the C source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The span of the C construct.
    pub span: SrcSpan,
    /// Its text, with runs of white space made single spaces.
    pub text: String,
    /// The inlined calls that lead to it, outermost first; empty in the component's own body.
    /// Shared by the edges of one inlined body ([`CallStack`]).
    pub stack: CallStack,
}

/// A transition of the control-flow automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Source location.
    pub from: LocId,
    /// Target location.
    pub to: LocId,
    /// What the step does.
    pub stmt: Stmt,
    /// Where it comes from; `None` only for hand-written IR.
    pub origin: Option<Origin>,
}

/// A declared event family: the events `name.v` for `v` in the range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Family {
    /// The family's name.
    pub name: String,
    /// The C type of the values it carries.
    pub ty: IntTy,
    /// The inclusive range of values from the spec, or `None` when no spec declared one.
    pub range: Option<(i128, i128)>,
}

/// A component: a C function lowered to a control-flow automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Component {
    /// The C function's name.
    pub name: String,
    /// Variables; [`VarId`] indexes this.
    pub vars: Vec<VarDecl>,
    /// Event families used with values.
    pub families: Vec<Family>,
    /// Number of locations; locations are `l0 .. l{n_locs-1}`.
    pub n_locs: u32,
    /// Where the component starts.
    pub entry: LocId,
    /// Where it ends; no edge leaves it.
    pub exit: LocId,
    /// The transitions, sorted by source location, then in the order the front end made them.
    pub edges: Vec<Edge>,
}

impl Component {
    /// The declaration of a variable.
    pub fn var(&self, id: VarId) -> &VarDecl {
        &self.vars[id.index()]
    }

    /// Looks a variable up by name.
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name).map(|i| VarId(i as u32))
    }

    /// Looks a family up by name.
    pub fn family(&self, name: &str) -> Option<&Family> {
        self.families.iter().find(|f| f.name == name)
    }

    /// For each location, the indices in [`Component::edges`] of its outgoing edges.
    pub fn successors(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.n_locs as usize];
        for (i, e) in self.edges.iter().enumerate() {
            if let Some(v) = out.get_mut(e.from.index()) {
                v.push(i);
            }
        }
        out
    }

    /// The names of all events and event families the component can perform, sorted.
    pub fn alphabet(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .edges
            .iter()
            .filter_map(|e| match &e.stmt {
                Stmt::Event(ev) => Some(ev.name().to_string()),
                _ => None,
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }
}
