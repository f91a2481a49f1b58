//! The syntax tree of an FSP spec, with a span on everything a diagnostic may point at.
//!
//! Process bodies are stored in an arena per process definition ([`ProcessDef::terms`]), so that
//! elaboration can name a point of a body by its [`TermId`] when it builds states.
//!
//! Known weakness: the tree is shaped for elaboration, not for printing; there is no pretty
//! printer back to FSP.

use crate::ir::SrcSpan;

/// A region of the source: byte offsets for slicing, 1-based lines and character columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset just past the end.
    pub end: usize,
    /// First line.
    pub line: u32,
    /// First column.
    pub col: u32,
    /// Last line.
    pub end_line: u32,
    /// Column just past the end.
    pub end_col: u32,
}

impl Span {
    /// The span from the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span { end: other.end, end_line: other.end_line, end_col: other.end_col, ..self }
    }

    /// The span in the form diagnostics use.
    pub fn to_src(self, file: &str) -> SrcSpan {
        SrcSpan {
            file: file.to_string(),
            line: self.line,
            col: self.col,
            end_line: self.end_line,
            end_col: self.end_col,
        }
    }
}

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `!e`
    Not,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

/// An integer expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// The forms of [`Expr`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A literal.
    Int(i64),
    /// A variable, parameter or constant.
    Ident(String),
    /// A unary operation.
    Unary(UnOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// A range of integers: a declared name or `lo..hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeSpec {
    /// A `range` declared by name.
    Named(Name),
    /// Inclusive bounds.
    Bounds(Expr, Expr),
}

/// A set of action labels: a declared name or `{label, ...}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetExpr {
    /// A `set` declared by name.
    Named(Name),
    /// The union of the labels' expansions.
    Elems(Vec<Label>, Span),
}

/// One component of an action label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelPart {
    /// A word: `send`.
    Name(String),
    /// `[e]`, or `.3`; `[R]` for a declared range `R` is a range.
    Index(Expr),
    /// `[i:R]`: every value of the range, binding `i` for what follows.
    Bind(Name, RangeSpec),
    /// `[lo..hi]`: every value of the range.
    Range(RangeSpec),
    /// `{a, b}` or a set name: every element.
    Set(SetExpr),
}

/// An action label, standing for one or more events: `a`, `a.b`, `a[i]`, `a[i:R].{x, y}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The components; the event joins their values with dots.
    pub parts: Vec<LabelPart>,
    /// Where.
    pub span: Span,
}

/// `new/old` in a relabelling; either side may stand for several events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelPair {
    /// The new label.
    pub new: Label,
    /// The old label (also a prefix of the events it renames).
    pub old: Label,
}

/// What may follow a process or composition: `+{..}`, `/{..}`, `\{..}`, `@{..}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostOps {
    /// Alphabet extension.
    pub extend: Option<SetExpr>,
    /// Relabelling.
    pub relabel: Vec<RelabelPair>,
    /// Hiding.
    pub hide: Option<SetExpr>,
    /// Interface: everything else is hidden.
    pub interface: Option<SetExpr>,
}

impl PostOps {
    /// Whether nothing is hidden.
    pub fn hides_nothing(&self) -> bool {
        self.hide.is_none() && self.interface.is_none()
    }
}

/// `i:R` in an index declaration or `forall`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDecl {
    /// The variable.
    pub var: Name,
    /// Its range.
    pub range: RangeSpec,
}

/// A declared parameter with its default value: `N=3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name.
    pub name: Name,
    /// The default.
    pub default: Expr,
}

/// Index of a [`Term`] in [`ProcessDef::terms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// A piece of a process body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `STOP`: no further events.
    Stop(Span),
    /// `END`: successful termination; treated as `STOP`.
    End(Span),
    /// `ERROR`: the error state π.
    Error(Span),
    /// A local or global process, with index values.
    Ref {
        /// The process.
        name: Name,
        /// `[e]` indices.
        indices: Vec<Expr>,
    },
    /// `(p1 | p2 | ...)`; each branch is a [`Term::Prefix`].
    Choice(Vec<TermId>, Span),
    /// `when (g) label -> next`.
    Prefix {
        /// The guard.
        guard: Option<Expr>,
        /// The action.
        label: Label,
        /// What follows.
        next: TermId,
    },
    /// `if c then p else q`; without `else`, `STOP`.
    If {
        /// The condition.
        cond: Expr,
        /// When it holds.
        then: TermId,
        /// When it does not.
        otherwise: Option<TermId>,
    },
}

/// One `NAME[i:R]... = body` of a process definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalDef {
    /// Its name.
    pub name: Name,
    /// Its index variables.
    pub indices: Vec<IndexDecl>,
    /// Its body.
    pub body: TermId,
}

/// A process definition: the main process and its local processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessDef {
    /// Whether it is a `property`.
    pub property: bool,
    /// Parameters with defaults.
    pub params: Vec<Param>,
    /// The main process (first) and the local ones.
    pub locals: Vec<LocalDef>,
    /// Alphabet extension, relabelling, hiding.
    pub post: PostOps,
    /// The arena of body terms.
    pub terms: Vec<Term>,
}

impl ProcessDef {
    /// The process's name.
    pub fn name(&self) -> &Name {
        &self.locals[0].name
    }

    /// A term of the arena.
    pub fn term(&self, id: TermId) -> &Term {
        &self.terms[id.0 as usize]
    }

    /// The local definition with this name and number of indices.
    pub fn local(&self, name: &str, arity: usize) -> Option<usize> {
        self.locals.iter().position(|l| l.name.text == name && l.indices.len() == arity)
    }
}

/// `label:` or `{set}::` before a composition item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemPrefix {
    /// `a:P` — every event `e` of `P` becomes `a.e` (one instance per label value).
    Label(Label),
    /// `{a, b}::P` — every event `e` becomes both `a.e` and `b.e`.
    Share(Label),
}

/// What a composition item is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A process, composition or C component, with indices and arguments.
    Ref {
        /// The name.
        name: Name,
        /// `[e]` indices.
        indices: Vec<Expr>,
        /// `(e, ...)` arguments.
        args: Vec<Expr>,
    },
    /// `(A || B || ...)`.
    Group(Vec<Item>),
    /// `forall [i:R] item`.
    Forall(Vec<IndexDecl>, Box<Item>),
}

/// One item of a parallel composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Labels and sharing, outermost first.
    pub prefixes: Vec<ItemPrefix>,
    /// The item itself.
    pub kind: ItemKind,
    /// Relabelling and hiding written after it.
    pub post: PostOps,
    /// Where.
    pub span: Span,
}

/// `||NAME(params) = (items)/{..}\{..}.`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompositeDef {
    /// The name.
    pub name: Name,
    /// Parameters with defaults.
    pub params: Vec<Param>,
    /// The parallel items.
    pub items: Vec<Item>,
    /// Relabelling (applied to every item) and hiding (applied to the composite).
    pub post: PostOps,
}

/// `const N = e`, `range R = lo..hi` or `set S = {..}`, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Global {
    /// A constant.
    Const(Name, Expr),
    /// A range.
    Range(Name, Expr, Expr),
    /// A set of events.
    Set(Name, SetExpr),
}

/// `event name[range]`: an event family of the C binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventDecl {
    /// The family.
    pub name: Name,
    /// Its values, if any.
    pub range: Option<RangeSpec>,
    /// The whole declaration.
    pub span: Span,
}

/// `prop Name = component: (c-expression)`, or `prop Name = PROCESS: {LOCAL, LOCAL[1..2]}` for
/// an FSP process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropDeclAst {
    /// The proposition.
    pub name: Name,
    /// The component whose states it labels.
    pub component: Name,
    /// The C expression, as written, without the outer parentheses (empty for an FSP owner).
    pub expr: String,
    /// Where the expression (or the set of states) is.
    pub expr_span: Span,
    /// For an FSP owner: the local processes in whose states the proposition holds.
    pub states: Option<Vec<StateRef>>,
    /// The whole declaration.
    pub span: Span,
}

/// A local process of an FSP proposition's owner, `LOCKED` or `FULL[N]` or `BUSY[1..2]`: the
/// proposition holds in the states of its instances (all of them without indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateRef {
    /// The local process.
    pub name: Name,
    /// Per index: one value (`Index`) or a range (`Range`, `Bind`).
    pub indices: Vec<LabelPart>,
    /// Where.
    pub span: Span,
}

/// A parsed spec file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecAst {
    /// Constants, ranges and sets, in order.
    pub globals: Vec<Global>,
    /// Process definitions.
    pub processes: Vec<ProcessDef>,
    /// Compositions.
    pub composites: Vec<CompositeDef>,
    /// Event families.
    pub events: Vec<EventDecl>,
    /// State propositions.
    pub props: Vec<PropDeclAst>,
}
