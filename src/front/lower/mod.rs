//! Lowering of a C component function, with the functions it calls inlined, to the IR.
//!
//! The lowering walks the AST once, keeping a *current location* and appending edges from it.
//! Expressions are lowered to pure IR expressions; their side effects (assignments, `++`, calls,
//! events, input) become edges emitted before the expression is used, in C's left-to-right
//! order. Because C leaves the order of unsequenced operands unspecified, operands whose effects
//! could be told apart by order are rejected (see [`super::effects`]).
//!
//! The lowering is split by concern: [`stmt`] (statements and conditions), [`expr`]
//! (expressions, assignment, increments), [`calls`] (inlining, built-in functions, events) and
//! [`memory`] (structs, pointers and the points-to analysis); this file holds the lowerer's
//! state, locations and edges, scopes, types and globals.
//!
//! Invariants kept while lowering:
//! - every edge carries the span of the C construct it comes from and the stack of inlined calls;
//!   the stack is built once per inlined call (`FrameCtx::stack`, a
//!   [`CallStack`](crate::ir::CallStack) pushed on entry) and shared by the edges of the body,
//!   so origins take memory linear in the number of calls, not edges × depth of inlining;
//! - each C scope sees exactly the names C gives it: a function inlined into a caller sees its
//!   own parameters, locals and its file's globals, never the caller's locals;
//! - after an unconditional jump (`return`, `break`, `goto`, `abort()`) the current location is
//!   a fresh unreachable one; [`finish`] removes what stays unreachable.
//!
//! Known weaknesses:
//! - `sizeof` accepts only type names, variables and array elements;
//! - designated initialisers and multi-dimensional arrays are rejected;
//! - a string literal is accepted only as a truth value ([`stmt`]'s conditions and `!`), where it
//!   is the non-null pointer it decays to; any other use (a `char *`, an index) is rejected;
//! - the side-effect analysis is by name and may reject a correct program that shadows a global.

mod calls;
mod expr;
mod memory;
mod stmt;

use crate::util::{HashMap, HashSet};

use lang_c::ast::{
    BinaryOperator, BlockItem, CallExpression, Constant, Declaration, DeclarationSpecifier, DerivedDeclarator,
    EnumType, Expression, ForInitializer, FunctionDefinition, Initializer, Integer, IntegerBase, IntegerSize, Label,
    Statement, StorageClassSpecifier, TypeName, TypeSpecifier, UnaryOperator,
};
use lang_c::span::{Node, Span};

use super::builtins::{
    ASSUME_FUNCTIONS, ERROR_EVENT, ERROR_FUNCTIONS, EXIT_FUNCTIONS, HEAP_FUNCTIONS, is_unsupported_nondet, nondet_type,
};
use super::ctype::{self, CType, Declared};
use super::effects::{Effects, Summaries};
use super::{DataModel, Program};
use crate::diag::Diagnostic;
use crate::ir::eval::{self, NoVars};
use crate::ir::{
    BinOp, CallStack, Component, Edge, Event, Expr, ExprKind, Family, Fault, Frame, IntTy, LocId, Lvalue, Origin,
    SrcSpan, Stmt, Storage, UnOp, VarDecl, VarId, VarTy,
};
use memory::{Object, Place, PtrVal, Val};

type Result<T> = std::result::Result<T, Diagnostic>;

/// A name in a block scope.
#[derive(Clone, Debug)]
enum Binding {
    Var(VarId),
    Const(i128, IntTy),
    Typedef(CType),
    /// `extern` in a block: the file-scope global of that name.
    Global(String),
    /// A struct or pointer object (integers and integer arrays are `Var`).
    Obj(Place),
    /// A name whose use is unsupported (`argv` of `main`); the string names the construct.
    Unusable(String),
}

/// A name at file scope.
#[derive(Clone, Debug)]
enum FileName<'p> {
    Typedef(CType),
    Const(i128, IntTy),
    /// A global; `external` when only `extern` declarations of it were seen (it is defined in
    /// another file), `internal` when it is `static`.
    Global {
        ty: CType,
        init: Option<&'p Node<Initializer>>,
        span: Span,
        external: bool,
        internal: bool,
        /// Declared `const` (the object itself, not what it points to).
        constant: bool,
    },
    Function(Proto),
}

/// A function's signature as declared.
#[derive(Clone, Debug)]
struct Proto {
    ret: CType,
    /// `None` for an unprototyped `f()` declaration.
    params: Option<Vec<CType>>,
}

#[derive(Default)]
struct FileScope<'p> {
    names: HashMap<String, FileName<'p>>,
    enum_tags: HashMap<String, IntTy>,
    /// The functions this file defines (not only declares).
    defined: HashSet<String>,
    /// Enum constants of a file-scope declaration without declarators that subst could not
    /// read (say, a value outside the range of int): the declaration is only an error if one of
    /// them is used, since headers declare many things subst never uses, and a use reports
    /// the declaration's own error rather than "not declared".
    failed: HashMap<String, Diagnostic>,
}

struct SwitchCtx {
    ty: IntTy,
    cases: Vec<(i128, i128, LocId, Span)>,
    default: Option<LocId>,
}

/// One inlined function activation (the component itself is the first).
struct FrameCtx {
    function: String,
    unit: usize,
    /// The inlined calls up to this frame, its own call last: what the origins of its edges
    /// share (built once per frame, never per edge).
    stack: CallStack,
    ret: Option<Place>,
    ret_loc: LocId,
    scopes: Vec<HashMap<String, Binding>>,
    labels: HashMap<String, (LocId, bool)>,
    gotos: Vec<(String, Span)>,
    breaks: Vec<LocId>,
    continues: Vec<LocId>,
    switches: Vec<SwitchCtx>,
    /// Whether the caller uses the function's result (a `return;` is then an error).
    value_used: bool,
    /// For each open scope (parallel to `scopes`): a number that names it, and the count of IR
    /// variables when it opened (every variable of the scope, and of blocks and calls inside
    /// it, comes later).
    marks: Vec<ScopeMark>,
    /// How many scopes were open at each enclosing loop or switch (`break`) and loop
    /// (`continue`): a jump leaves the scopes above.
    break_depths: Vec<usize>,
    continue_depths: Vec<usize>,
    /// The scopes open at each label already lowered, by their numbers.
    label_scopes: HashMap<String, Vec<u32>>,
    /// `goto`s to labels not yet lowered: the label, the location the jump waits at, and the
    /// scopes open at the `goto`.
    pending_gotos: Vec<(String, LocId, Vec<ScopeMark>)>,
}

/// An open scope: the number that names it and the count of IR variables when it opened.
type ScopeMark = (u32, u32);

/// The lifetime flags of a pass: objects with automatic storage that can end before the
/// component does (locals of blocks and of called functions, parameters), each with a
/// variable that is 1 while a pointer to it may be used (set where its address is taken,
/// cleared where its block or function is left). The flags are numbered after every other
/// variable, from `base`, so that adding them leaves the ids the objects name unchanged.
#[derive(Clone, Debug, Default)]
struct Lifetimes {
    base: u32,
    /// Indices into the objects, in order; the flag of the `i`-th is variable `base + i`.
    objects: Vec<usize>,
}

struct Lowerer<'p> {
    prog: &'p Program,
    model: DataModel,
    files: Vec<Option<FileScope<'p>>>,
    vars: Vec<VarDecl>,
    names: HashSet<String>,
    globals: HashMap<(usize, String), VarId>,
    /// `static` locals by (file, declaration offset): one variable however often inlined.
    statics: HashMap<(usize, usize), VarId>,
    families: Vec<Family>,
    plain_events: Vec<(String, Span, usize)>,
    edges: Vec<Edge>,
    n_locs: u32,
    cur: LocId,
    exit: LocId,
    frames: Vec<FrameCtx>,
    temps: u32,
    summaries: Summaries,
    /// Inside a constant expression: no edges may be emitted and no variables read.
    const_mode: bool,
    /// Globals of struct and pointer types, by (defining file, name).
    global_places: HashMap<(usize, String), Place>,
    /// `static` locals of struct and pointer types, by (file, declaration offset).
    static_places: HashMap<(usize, usize), Place>,
    /// The objects whose address is taken; an object's tag is its index plus 2. A pass starts
    /// with the objects the previous pass found.
    objects: Vec<Object>,
    /// Whether a previous pass fixed the objects (only then is a dereference without candidates
    /// an error).
    pinned: Option<Vec<Object>>,
    /// Dereferences that found no candidate object in this pass.
    unresolved: Vec<Diagnostic>,
    /// Variables of objects declared `const`.
    const_vars: HashSet<VarId>,
    /// Automatic variables whose lifetime ends before the component's (found in this pass).
    bounded: HashSet<VarId>,
    /// The lifetime flags of this pass (from what the previous pass found).
    lifetimes: Lifetimes,
    /// Numbers for scopes.
    n_scopes: u32,
}

/// Lowers the function at `index` of `unit` as a component.
pub(crate) fn lower_component(prog: &Program, unit: usize, index: usize) -> Result<Component> {
    // The points-to analysis needs every object whose address is taken before it can resolve a
    // dereference: lower until a pass finds no object the previous one did not know.
    let mut pinned: Option<Vec<Object>> = None;
    let mut lifetimes = Lifetimes::default();
    for _ in 0..8 {
        let (component, objects, unresolved, next) = lower_pass(prog, unit, index, pinned.clone(), lifetimes)?;
        if pinned.as_ref() == Some(&objects) {
            if let Some(d) = unresolved.into_iter().next() {
                return Err(d);
            }
            return Ok(component);
        }
        pinned = Some(objects);
        lifetimes = next;
    }
    Err(Diagnostic::global("the points-to analysis did not stabilise in 8 passes")
        .with_note("this is a limit of subst; please report the input"))
}

/// One lowering pass, with the objects a previous pass found.
fn lower_pass(
    prog: &Program,
    unit: usize,
    index: usize,
    pinned: Option<Vec<Object>>,
    lifetimes: Lifetimes,
) -> Result<(Component, Vec<Object>, Vec<Diagnostic>, Lifetimes)> {
    let lang_c::ast::ExternalDeclaration::FunctionDefinition(def) = &prog.units[unit].ast.0[index].node else {
        return Err(Diagnostic::global("internal error: component is not a function definition"));
    };
    let name = super::function_name(&def.node).unwrap_or("?").to_string();
    let mut all_globals = HashSet::default();
    for u in &prog.units {
        for d in &u.ast.0 {
            if let lang_c::ast::ExternalDeclaration::Declaration(decl) = &d.node {
                for id in &decl.node.declarators {
                    if let Some(n) = ctype::declarator_name(&id.node.declarator.node) {
                        all_globals.insert(n.to_string());
                    }
                }
            }
        }
    }
    let defs = prog.units.iter().flat_map(|u| {
        u.ast.0.iter().filter_map(|d| match &d.node {
            lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => Some(&f.node),
            _ => None,
        })
    });
    let pointers = super::effects::pointer_names(prog.units.iter().map(|u| &u.ast));
    let summaries = Summaries::new(defs, &all_globals, pointers);
    let mut l = Lowerer {
        prog,
        model: prog.options.data_model,
        files: (0..prog.units.len()).map(|_| None).collect(),
        vars: Vec::new(),
        names: HashSet::default(),
        globals: HashMap::default(),
        statics: HashMap::default(),
        families: Vec::new(),
        plain_events: Vec::new(),
        edges: Vec::new(),
        n_locs: 0,
        cur: LocId(0),
        exit: LocId(0),
        frames: Vec::new(),
        temps: 0,
        summaries,
        const_mode: false,
        global_places: HashMap::default(),
        static_places: HashMap::default(),
        objects: pinned.clone().unwrap_or_default(),
        pinned,
        unresolved: Vec::new(),
        const_vars: HashSet::default(),
        bounded: HashSet::default(),
        lifetimes,
        n_scopes: 0,
    };
    let entry = l.new_loc();
    l.exit = l.new_loc();
    l.cur = entry;
    l.enter_unit(unit)?;
    let f = &def.node;
    let sig = l.with_file_frame(unit, |l| l.function_signature(f))?;
    // `main` may take `argc` (any positive value) and `argv` (rejected where it is used);
    // another component takes no parameters.
    if let Some(p) = sig.1.first()
        && (name != "main" || sig.1.len() > 3)
    {
        return Err(l.unsupported_in(unit, "a component with parameters", p.1));
    }
    match sig.0 {
        CType::Void | CType::Int(_) => {}
        _ => return Err(l.unsupported_in(unit, "a component whose return type is not void or int", def.span)),
    }
    let exit = l.exit;
    l.frames.push(FrameCtx::new(name.clone(), unit, &CallStack::new(), None, None, exit));
    for (i, (t, span, pname)) in sig.1.iter().enumerate() {
        let Some(pname) = pname else { continue };
        match t {
            CType::Int(t) if i == 0 => {
                let v = l.local(pname, VarTy::Scalar(*t));
                l.step(Stmt::Havoc(Lvalue::Var(v)), *span)?;
                l.step(Stmt::Assume(cmp(BinOp::Ge, Expr::var(v, *t), 1)), *span)?;
                l.bind(pname, Binding::Var(v));
            }
            _ => l.bind(pname, Binding::Unusable(format!("`{pname}`, a parameter of `main` other than `argc`"))),
        }
    }
    l.stmt(&f.statement)?;
    l.edge(l.cur, exit, Stmt::Skip, None);
    l.end_frame()?;
    let objects = l.objects.clone();
    let unresolved = std::mem::take(&mut l.unresolved);
    // The flags of the next pass: this pass's variables, then one per object whose lifetime
    // can end early. This pass's own flags come after its variables.
    let base = l.vars.len() as u32;
    let next = Lifetimes {
        base,
        objects: (0..objects.len())
            .filter(|&i| objects[i].first_var().is_some_and(|v| l.bounded.contains(&v)))
            .collect(),
    };
    if !l.lifetimes.objects.is_empty() && l.lifetimes.base != base {
        return Err(Diagnostic::global("internal error: two lowering passes made different variables"));
    }
    for i in 0..l.lifetimes.objects.len() {
        let object = l.objects.get(l.lifetimes.objects[i]).and_then(Object::first_var);
        let name = object.map_or("$live".to_string(), |v| format!("{}$live", l.vars[v.index()].name));
        let v = l.add_var(name, VarTy::Scalar(IntTy::U8), Storage::Global { init: vec![0] });
        if v.0 != base + i as u32 {
            return Err(Diagnostic::global("internal error: lifetime flags out of place"));
        }
    }
    Ok((l.finish(name, entry)?, objects, unresolved, next))
}

impl FrameCtx {
    /// A frame of `function` in `unit` on top of `caller`'s stack; `call`, where it was called,
    /// is `None` for the component and for a file-scope frame, which add no call to the stack.
    fn new(
        function: String,
        unit: usize,
        caller: &CallStack,
        call: Option<SrcSpan>,
        ret: Option<Place>,
        ret_loc: LocId,
    ) -> FrameCtx {
        let stack = match call {
            Some(call) => caller.push(Frame { function: function.clone(), call }),
            None => caller.clone(),
        };
        FrameCtx {
            function,
            unit,
            stack,
            ret,
            ret_loc,
            scopes: vec![HashMap::default()],
            labels: HashMap::default(),
            gotos: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            value_used: false,
            marks: vec![(u32::MAX, 0)],
            break_depths: Vec::new(),
            continue_depths: Vec::new(),
            label_scopes: HashMap::default(),
            pending_gotos: Vec::new(),
        }
    }
}

/// `e` as a condition: comparisons and logical operators as they are, anything else `!= 0`.
fn truth(e: Expr) -> Expr {
    let boolean = match &e.kind {
        ExprKind::Binary(op, ..) => op.is_boolean(),
        ExprKind::Unary(UnOp::Not, _) => true,
        _ => false,
    };
    if boolean {
        e
    } else {
        let zero = Expr::constant(0, e.ty);
        fold(Expr::binary(BinOp::Ne, e, zero))
    }
}

/// The negation of a condition built by [`truth`], with comparisons inverted for readability.
fn negate(e: Expr) -> Expr {
    if let ExprKind::Binary(op, a, b) = &e.kind {
        let inv = match op {
            BinOp::Eq => Some(BinOp::Ne),
            BinOp::Ne => Some(BinOp::Eq),
            BinOp::Lt => Some(BinOp::Ge),
            BinOp::Le => Some(BinOp::Gt),
            BinOp::Gt => Some(BinOp::Le),
            BinOp::Ge => Some(BinOp::Lt),
            _ => None,
        };
        if let Some(inv) = inv {
            return fold(Expr::binary(inv, (**a).clone(), (**b).clone()));
        }
    }
    if let ExprKind::Unary(UnOp::Not, a) = &e.kind {
        return truth((**a).clone());
    }
    fold(Expr::unary(UnOp::Not, e))
}

/// Replaces an operation on constants by its value.
fn fold(e: Expr) -> Expr {
    let all_const = match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => a.as_const().is_some(),
        ExprKind::Binary(_, a, b) => a.as_const().is_some() && b.as_const().is_some(),
        _ => false,
    };
    if all_const { Expr::constant(eval::eval(&e, &NoVars), e.ty) } else { e }
}

fn and(a: Expr, b: Expr) -> Expr {
    match (a.as_const(), b.as_const()) {
        (Some(0), _) | (_, Some(0)) => Expr::constant(0, IntTy::I32),
        (Some(_), _) => b,
        (_, Some(_)) => a,
        _ => Expr::binary(BinOp::And, a, b),
    }
}

fn or(a: Expr, b: Expr) -> Expr {
    match (a.as_const(), b.as_const()) {
        (Some(x), _) | (_, Some(x)) if x != 0 => Expr::constant(1, IntTy::I32),
        (Some(_), _) => b,
        (_, Some(_)) => a,
        _ => Expr::binary(BinOp::Or, a, b),
    }
}

fn cmp(op: BinOp, a: Expr, value: i128) -> Expr {
    let ty = a.ty;
    fold(Expr::binary(op, a, Expr::constant(value, ty)))
}

impl<'p> Lowerer<'p> {
    // ----- locations, edges, origins, diagnostics -----

    fn new_loc(&mut self) -> LocId {
        self.n_locs += 1;
        LocId(self.n_locs - 1)
    }

    fn unit(&self) -> usize {
        self.frames.last().map_or(0, |f| f.unit)
    }

    /// The inlined calls that lead to the current frame.
    fn call_stack(&self) -> &CallStack {
        static EMPTY: CallStack = CallStack::new();
        self.frames.last().map_or(&EMPTY, |f| &f.stack)
    }

    fn src_span_in(&self, unit: usize, span: Span) -> (SrcSpan, String) {
        let u = &self.prog.units[unit];
        if span.is_none() {
            let file = u.path.display().to_string();
            return (SrcSpan { file, line: 1, col: 1, end_line: 1, end_col: 1 }, String::new());
        }
        u.map.borrow_mut().span(span.start, span.end)
    }

    fn src_span(&self, span: Span) -> SrcSpan {
        self.src_span_in(self.unit(), span).0
    }

    fn origin(&self, span: Span) -> Origin {
        let (span, text) = self.src_span_in(self.unit(), span);
        Origin { span, text, stack: self.call_stack().clone() }
    }

    fn edge(&mut self, from: LocId, to: LocId, stmt: Stmt, span: Option<Span>) {
        let origin = span.map(|s| self.origin(s));
        self.edges.push(Edge { from, to, stmt, origin });
    }

    /// Appends an edge from the current location to a new one and moves there.
    fn step(&mut self, stmt: Stmt, span: Span) -> Result<()> {
        if self.const_mode {
            return Err(self.error("not a constant expression", "this needs a run-time step", span));
        }
        let next = self.new_loc();
        self.edge(self.cur, next, stmt, Some(span));
        self.cur = next;
        Ok(())
    }

    /// Jumps from the current location to `to`; what follows is unreachable until a label.
    fn jump(&mut self, to: LocId, span: Span) {
        self.edge(self.cur, to, Stmt::Skip, Some(span));
        self.cur = self.new_loc();
    }

    /// Continues at `to`: an edge from the current location, which becomes `to`.
    fn fall_to(&mut self, to: LocId) {
        self.edge(self.cur, to, Stmt::Skip, None);
        self.cur = to;
    }

    fn unsupported_in(&self, unit: usize, what: &str, span: Span) -> Diagnostic {
        let (s, _) = self.src_span_in(unit, span);
        Diagnostic::at(s, format!("unsupported construct: {what}"), what.to_string())
            .with_note(
                "subst verifies a subset of C: integers, fixed-size arrays, structs, pointers to known objects and non-recursive calls",
            )
    }

    fn unsupported(&self, what: &str, span: Span) -> Diagnostic {
        self.unsupported_in(self.unit(), what, span)
    }

    fn error(&self, message: &str, label: &str, span: Span) -> Diagnostic {
        Diagnostic::at(self.src_span(span), message.to_string(), label.to_string())
    }

    // ----- variables -----

    fn unique_name(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut n = 2;
        while self.names.contains(&name) {
            name = format!("{base}.{n}");
            n += 1;
        }
        self.names.insert(name.clone());
        name
    }

    fn add_var(&mut self, name: String, ty: VarTy, storage: Storage) -> VarId {
        let name = self.unique_name(name);
        self.vars.push(VarDecl { name, ty, storage });
        VarId(self.vars.len() as u32 - 1)
    }

    fn temp(&mut self, ty: IntTy) -> VarId {
        self.temps += 1;
        let name = format!("${}", self.temps);
        self.add_var(name, VarTy::Scalar(ty), Storage::Local)
    }

    fn local(&mut self, cname: &str, ty: VarTy) -> VarId {
        let f = self.frames.last().map_or("", |f| f.function.as_str());
        let name = format!("{f}.{cname}");
        self.add_var(name, ty, Storage::Local)
    }

    fn bind(&mut self, name: &str, b: Binding) {
        // A local of a block inside the component's body, or of a called function (its
        // parameters too), ends before the component does.
        let bounded = self.frames.len() > 1 || self.frames.last().is_some_and(|f| f.scopes.len() > 2);
        if bounded {
            let vars = match &b {
                Binding::Var(v) => vec![*v],
                Binding::Obj(p) => memory::place_vars(p),
                _ => Vec::new(),
            };
            for v in vars {
                if matches!(self.vars[v.index()].storage, Storage::Local) {
                    self.bounded.insert(v);
                }
            }
        }
        if let Some(scope) = self.frames.last_mut().and_then(|f| f.scopes.last_mut()) {
            scope.insert(name.to_string(), b);
        }
    }

    fn push_scope(&mut self) {
        self.n_scopes += 1;
        let mark = (self.n_scopes, self.vars.len() as u32);
        if let Some(f) = self.frames.last_mut() {
            f.scopes.push(HashMap::default());
            f.marks.push(mark);
        }
    }

    /// Closes the innermost scope at the end of its block (`span`): the objects declared in it
    /// end their lifetimes.
    fn pop_scope(&mut self, span: Span) -> Result<()> {
        let mark = self.frames.last_mut().and_then(|f| {
            f.scopes.pop();
            f.marks.pop()
        });
        let brace = Span { start: span.end.saturating_sub(1), end: span.end };
        match mark {
            Some((_, start)) if self.tracks_lifetimes() => self.end_lifetimes(start, brace),
            _ => Ok(()),
        }
    }

    /// Clears the lifetime flags of the objects whose variables were made at or after `start`:
    /// those of the scopes being left (objects of blocks and calls inside them have ended
    /// already, and clearing their flags again changes nothing).
    fn end_lifetimes(&mut self, start: u32, span: Span) -> Result<()> {
        let base = self.lifetimes.base;
        let ended: Vec<VarId> = (self.lifetimes.objects.iter().enumerate())
            .filter(|&(_, &k)| self.objects.get(k).and_then(Object::first_var).is_some_and(|v| v.0 >= start))
            .map(|(i, _)| VarId(base + i as u32))
            .collect();
        for flag in ended {
            self.step(Stmt::Assign(Lvalue::Var(flag), Expr::constant(0, IntTy::U8)), span)?;
        }
        Ok(())
    }

    /// The lifetime flag of the object with index `k`, if its lifetime can end early.
    fn lifetime_flag(&self, k: usize) -> Option<VarId> {
        let i = self.lifetimes.objects.iter().position(|&o| o == k)?;
        Some(VarId(self.lifetimes.base + i as u32))
    }

    /// Whether any object of this pass has a lifetime flag (else no edge is spent on them).
    fn tracks_lifetimes(&self) -> bool {
        !self.lifetimes.objects.is_empty()
    }

    /// Before a jump that leaves the scopes from `depth` on: ends their objects' lifetimes.
    fn leave_scopes(&mut self, depth: usize, span: Span) -> Result<()> {
        if !self.tracks_lifetimes() {
            return Ok(());
        }
        let start = self.frames.last().and_then(|f| f.marks.get(depth)).map(|m| m.1);
        match start {
            Some(start) => self.end_lifetimes(start, span),
            None => Ok(()),
        }
    }

    fn var_ty(&self, v: VarId) -> VarTy {
        self.vars[v.index()].ty
    }

    // ----- file scope -----

    /// Runs `f` in an empty frame of `unit`, so that only file-scope names are visible.
    fn with_file_frame<T>(&mut self, unit: usize, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let exit = self.exit;
        let frame = FrameCtx::new(String::new(), unit, self.call_stack(), None, None, exit);
        self.frames.push(frame);
        let r = f(self);
        self.frames.pop();
        r
    }

    fn file(&self, unit: usize) -> Option<&FileScope<'p>> {
        self.files.get(unit).and_then(Option::as_ref)
    }

    /// Builds the file scope of `unit` on first use: typedefs, enum constants, globals and
    /// function signatures, in declaration order.
    fn enter_unit(&mut self, unit: usize) -> Result<()> {
        if self.files[unit].is_some() {
            return Ok(());
        }
        self.files[unit] = Some(FileScope::default());
        let prog = self.prog;
        self.with_file_frame(unit, |l| {
            for d in &prog.units[unit].ast.0 {
                match &d.node {
                    lang_c::ast::ExternalDeclaration::Declaration(decl) => l.file_declaration(unit, decl)?,
                    lang_c::ast::ExternalDeclaration::FunctionDefinition(f) => {
                        if let Some(name) = super::function_name(&f.node) {
                            if !l.file_mut(unit).defined.insert(name.to_string()) {
                                return Err(l.error(
                                    &format!("redefinition of the function `{name}`"),
                                    "a second definition",
                                    f.node.declarator.span,
                                ));
                            }
                            // A signature we cannot read is only a problem if the function is called.
                            let proto = l.function_signature(&f.node).map_or(
                                Proto { ret: CType::Unsupported("function signature".into(), f.span), params: None },
                                |(ret, params)| Proto { ret, params: Some(params.into_iter().map(|p| p.0).collect()) },
                            );
                            l.file_mut(unit).names.insert(name.to_string(), FileName::Function(proto));
                        }
                    }
                    lang_c::ast::ExternalDeclaration::StaticAssert(sa) => l.static_assert(sa)?,
                }
            }
            Ok(())
        })
    }

    /// Checks `_Static_assert(e, "...")`: gcc rejects a program whose `e` is 0, and so does subst.
    /// A condition subst cannot evaluate (say, over the size of a type of a system header that
    /// it does not support) is left to gcc, as before such assertions were checked.
    fn static_assert(&mut self, sa: &'p Node<lang_c::ast::StaticAssert>) -> Result<()> {
        if let Ok((0, _)) = self.const_value(&sa.node.expression) {
            let message = sa.node.message.node.join("");
            return Err(self.error(&format!("static assertion failed: {message}"), "its condition is 0", sa.span));
        }
        Ok(())
    }

    fn file_mut(&mut self, unit: usize) -> &mut FileScope<'p> {
        self.files[unit].get_or_insert_with(FileScope::default)
    }

    fn file_declaration(&mut self, unit: usize, decl: &'p Node<Declaration>) -> Result<()> {
        let d = &decl.node;
        let typedef = has_storage(&d.specifiers, StorageClassSpecifier::Typedef);
        let is_extern = has_storage(&d.specifiers, StorageClassSpecifier::Extern);
        // Headers declare many things subst never uses; their types are checked on use.
        let base = match self.base_type(&d.specifiers, decl.span) {
            Ok(t) => t,
            Err(e) if typedef || d.declarators.iter().all(|i| is_function_declarator(&i.node.declarator.node)) => {
                for name in enumerator_names(&d.specifiers) {
                    self.file_mut(unit).failed.entry(name.to_string()).or_insert_with(|| e.clone());
                }
                CType::Unsupported("a type subst cannot read".into(), decl.span)
            }
            Err(e) => return Err(e),
        };
        for init in &d.declarators {
            let Some(name) = ctype::declarator_name(&init.node.declarator.node) else { continue };
            let declared =
                match ctype::apply_declarator(base.clone(), &init.node.declarator.node, &mut |e| self.array_size(e)) {
                    Ok(d) => d,
                    Err(e) if typedef => Declared::Object(CType::Unsupported(e.message.clone(), init.span)),
                    Err(e) => return Err(e),
                };
            let entry = match declared {
                Declared::Object(ty) if typedef => FileName::Typedef(ty),
                Declared::Object(ty) => {
                    let (old_init, old_external) = match self.file(unit).and_then(|f| f.names.get(name)) {
                        Some(FileName::Global { init, external, .. }) => (*init, *external),
                        _ => (None, true),
                    };
                    if old_init.is_some() && init.node.initializer.is_some() {
                        return Err(self.error(
                            &format!("redefinition of `{name}`"),
                            "a second initialised definition",
                            init.span,
                        ));
                    }
                    let declares_only = is_extern && init.node.initializer.is_none();
                    if declares_only && self.file(unit).is_some_and(|f| f.names.contains_key(name)) {
                        // A repeated declaration adds nothing to what is known.
                        continue;
                    }
                    FileName::Global {
                        ty,
                        init: init.node.initializer.as_ref().or(old_init),
                        span: init.span,
                        external: declares_only && old_external,
                        internal: has_storage(&d.specifiers, StorageClassSpecifier::Static),
                        constant: is_const_object(&d.specifiers, &init.node.declarator.node),
                    }
                }
                Declared::Function(f) if typedef => {
                    FileName::Typedef(CType::Unsupported("function type".into(), f.span))
                }
                Declared::Function(f) => {
                    let proto = self.prototype(base.clone(), f);
                    if matches!(self.file(unit).and_then(|s| s.names.get(name)), Some(FileName::Function(_)))
                        && proto.params.is_none()
                    {
                        continue;
                    }
                    FileName::Function(proto)
                }
            };
            self.file_mut(unit).names.insert(name.to_string(), entry);
        }
        Ok(())
    }

    /// The signature of a function declarator; parameter types that are not supported are kept
    /// as such, since only a call can make them matter.
    fn prototype(&mut self, ret: CType, f: &'p Node<DerivedDeclarator>) -> Proto {
        match &f.node {
            DerivedDeclarator::Function(fd) => {
                let mut params = Vec::new();
                for p in &fd.node.parameters {
                    let ty =
                        self.param_type(p).map(|(t, _, _)| t).unwrap_or(CType::Unsupported("parameter".into(), p.span));
                    params.push(ty);
                }
                if params.len() == 1 && params[0] == CType::Void {
                    params.clear();
                }
                let unprototyped = fd.node.parameters.is_empty();
                Proto { ret, params: if unprototyped { None } else { Some(params) } }
            }
            _ => Proto { ret, params: None },
        }
    }

    fn param_type(&mut self, p: &'p Node<lang_c::ast::ParameterDeclaration>) -> Result<(CType, Option<&'p str>, Span)> {
        let base = self.base_type(&p.node.specifiers, p.span)?;
        let Some(d) = &p.node.declarator else { return Ok((base, None, p.span)) };
        let name = ctype::declarator_name(&d.node);
        // An array parameter is a pointer in C.
        let parts = ctype::derived_parts(&d.node);
        if parts.iter().any(|q| matches!(q.node, DerivedDeclarator::Array(_))) {
            let only_one = parts.len() == 1;
            let t = match base {
                CType::Int(_) | CType::Struct(_) if only_one => CType::Ptr(Box::new(base)),
                _ => CType::Unsupported("this array parameter".into(), d.span),
            };
            return Ok((t, name, d.span));
        }
        match ctype::apply_declarator(base, &d.node, &mut |e| self.array_size(e))? {
            Declared::Object(t) => Ok((t, name, d.span)),
            Declared::Function(f) => Ok((CType::Unsupported("function parameter".into(), f.span), name, d.span)),
        }
    }

    /// The return type and the named parameters of a function definition.
    #[allow(clippy::type_complexity)]
    fn function_signature(
        &mut self,
        f: &'p FunctionDefinition,
    ) -> Result<(CType, Vec<(CType, Span, Option<&'p str>)>)> {
        let mut ret = self.base_type(&f.specifiers, f.declarator.span)?;
        let parts = ctype::derived_parts(&f.declarator.node);
        // `T *f(...)`: the declarator is the name with a pointer and then the parameter list
        // (a pointer inside parentheses, `T (*f)(...)`, would be a function pointer).
        let d = &f.declarator.node;
        let returns_pointer = matches!(d.kind.node, lang_c::ast::DeclaratorKind::Identifier(_))
            && matches!(d.derived.as_slice(), [p, f] if matches!(p.node, DerivedDeclarator::Pointer(_))
                && matches!(f.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)));
        if returns_pointer && matches!(ret, CType::Int(_) | CType::Struct(_) | CType::Incomplete(_) | CType::Void) {
            ret = CType::Ptr(Box::new(ret));
        } else if parts.iter().any(|p| matches!(p.node, DerivedDeclarator::Pointer(_))) {
            return Err(self.unsupported("a function returning a pointer of this type", f.declarator.span));
        }
        let mut params = Vec::new();
        for p in parts {
            match &p.node {
                DerivedDeclarator::Function(fd) => {
                    for param in &fd.node.parameters {
                        let (t, name, span) = self.param_type(param)?;
                        if t == CType::Void && name.is_none() {
                            continue;
                        }
                        params.push((t, span, name));
                    }
                    if fd.node.ellipsis == lang_c::ast::Ellipsis::Some {
                        return Err(self.unsupported("a variadic function", p.span));
                    }
                }
                DerivedDeclarator::KRFunction(ids) => {
                    for id in ids {
                        // K&R parameters default to int unless declared in the list.
                        let mut ty = CType::Int(IntTy::I32);
                        for decl in &f.declarations {
                            let base = self.base_type(&decl.node.specifiers, decl.span)?;
                            for init in &decl.node.declarators {
                                if ctype::declarator_name(&init.node.declarator.node) != Some(&id.node.name) {
                                    continue;
                                }
                                let d = &init.node.declarator.node;
                                if let Declared::Object(t) =
                                    ctype::apply_declarator(base.clone(), d, &mut |e| self.array_size(e))?
                                {
                                    ty = t;
                                }
                            }
                        }
                        params.push((ty, id.span, Some(id.node.name.as_str())));
                    }
                }
                _ => {}
            }
        }
        Ok((ret, params))
    }

    // ----- types -----

    /// The error for a use of `name`, which no scope declares: the error of the declaration
    /// that failed to define it, if any, else "not declared".
    fn undeclared(&self, name: &str, span: Span) -> Diagnostic {
        match self.file(self.unit()).and_then(|f| f.failed.get(name)) {
            Some(e) => e.clone(),
            None => self.error(&format!("`{name}` is not declared"), "unknown name", span),
        }
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        let frame = self.frames.last()?;
        for scope in frame.scopes.iter().rev() {
            if let Some(b) = scope.get(name) {
                return Some(b.clone());
            }
        }
        match self.file(frame.unit)?.names.get(name)? {
            FileName::Typedef(t) => Some(Binding::Typedef(t.clone())),
            FileName::Const(v, t) => Some(Binding::Const(*v, *t)),
            FileName::Global { .. } => Some(Binding::Global(name.to_string())),
            FileName::Function(_) => None,
        }
    }

    fn base_type(&mut self, specs: &'p [Node<DeclarationSpecifier>], whole: Span) -> Result<CType> {
        let mut other = None;
        for s in ctype::type_specifiers(specs) {
            match &s.node {
                TypeSpecifier::Enum(e) => other = Some(self.enum_type(&e.node, s.span)?),
                TypeSpecifier::TypedefName(id) => other = Some(self.typedef_type(&id.node.name, s.span)?),
                TypeSpecifier::Struct(st) => other = Some(self.struct_type(&st.node, s.span)?),
                _ => {}
            }
        }
        Ok(ctype::keyword_type(ctype::type_specifiers(specs), self.model, other, whole))
    }

    fn type_name(&mut self, t: &'p Node<TypeName>) -> Result<CType> {
        let mut other = None;
        for s in ctype::qualifier_specifiers(&t.node.specifiers) {
            match &s.node {
                TypeSpecifier::Enum(e) => other = Some(self.enum_type(&e.node, s.span)?),
                TypeSpecifier::TypedefName(id) => other = Some(self.typedef_type(&id.node.name, s.span)?),
                TypeSpecifier::Struct(st) => other = Some(self.struct_type(&st.node, s.span)?),
                _ => {}
            }
        }
        let base = ctype::keyword_type(ctype::qualifier_specifiers(&t.node.specifiers), self.model, other, t.span);
        match &t.node.declarator {
            None => Ok(base),
            Some(d) => match ctype::apply_declarator(base, &d.node, &mut |e| self.array_size(e))? {
                Declared::Object(t) => Ok(t),
                Declared::Function(f) => Ok(CType::Unsupported("function type".into(), f.span)),
            },
        }
    }

    fn typedef_type(&mut self, name: &str, span: Span) -> Result<CType> {
        match self.lookup(name) {
            Some(Binding::Typedef(t)) => Ok(t),
            _ => Err(self.error(&format!("unknown type `{name}`"), "not a typedef in scope", span)),
        }
    }

    /// The type of an `enum` specifier; defines its constants in the current scope. Like gcc, an
    /// enum with no negative constant is `unsigned int`, otherwise `int`.
    fn enum_type(&mut self, e: &'p EnumType, span: Span) -> Result<CType> {
        let tag = e.identifier.as_ref().map(|i| i.node.name.clone());
        if e.enumerators.is_empty() {
            let unit = self.unit();
            return match tag.as_ref().and_then(|t| self.file(unit).and_then(|f| f.enum_tags.get(t))) {
                Some(t) => Ok(CType::Int(*t)),
                None => Err(self.error("unknown enum", "this enum is not defined before its use", span)),
            };
        }
        let mut next: i128 = 0;
        let mut any_negative = false;
        for en in &e.enumerators {
            let value = match &en.node.expression {
                Some(x) => self.const_value(x)?.0,
                None => next,
            };
            if !IntTy::I32.contains(value) {
                return Err(self.unsupported("an enum constant outside the range of int", en.span));
            }
            any_negative |= value < 0;
            let name = en.node.identifier.node.name.clone();
            if self.frames.last().is_some_and(|f| f.function.is_empty()) {
                let unit = self.unit();
                self.file_mut(unit).names.insert(name, FileName::Const(value, IntTy::I32));
            } else {
                self.bind(&name, Binding::Const(value, IntTy::I32));
            }
            next = value + 1;
        }
        let ty = if any_negative { IntTy::I32 } else { IntTy::U32 };
        if let Some(tag) = tag {
            let unit = self.unit();
            self.file_mut(unit).enum_tags.insert(tag, ty);
        }
        Ok(CType::Int(ty))
    }

    fn array_size(&mut self, e: &'p Node<Expression>) -> Result<u32> {
        let (v, _) = self.const_value(e)?;
        match u32::try_from(v) {
            Ok(n) if n > 0 && n <= 1 << 20 => Ok(n),
            _ => Err(self.error(&format!("array size {v} is not between 1 and 2^20"), "array size", e.span)),
        }
    }

    /// Evaluates a C constant expression.
    fn const_value(&mut self, e: &'p Node<Expression>) -> Result<(i128, IntTy)> {
        let saved = std::mem::replace(&mut self.const_mode, true);
        let r = self.rvalue(e);
        self.const_mode = saved;
        let v = r?;
        match v.as_const() {
            Some(c) => Ok((c, v.ty)),
            None => Err(self.error("not a constant expression", "must be known at compile time", e.span)),
        }
    }

    // ----- globals -----

    /// The file that defines the global `name` as seen from `unit`: `unit` itself, or for an
    /// `extern` declaration the file with the definition.
    fn defining_unit(&mut self, unit: usize, name: &str, span: Span) -> Result<usize> {
        let Some(FileName::Global { external: true, .. }) = self.file(unit).and_then(|f| f.names.get(name)) else {
            return Ok(unit);
        };
        for other in (0..self.prog.units.len()).filter(|&u| u != unit) {
            self.enter_unit(other)?;
            if let Some(FileName::Global { external: false, internal: false, ty: defined, .. }) =
                self.file(other).and_then(|f| f.names.get(name))
            {
                // C11 6.2.7p2: declarations of one object with incompatible types are undefined
                // behaviour; gcc links them, and the reading file sees the other's bytes in its
                // own type (`extern unsigned char g;` reads the low byte of `int g = 511`).
                let declared = match self.file(unit).and_then(|f| f.names.get(name)) {
                    Some(FileName::Global { ty, .. }) => Some(ty.clone()),
                    _ => None,
                };
                if let Some(declared) = declared
                    && !same_object_type(&declared, defined)
                {
                    let (defined, file) = (defined.describe(), self.prog.units[other].path.display().to_string());
                    return Err(self
                        .error(
                            &format!(
                                "`{name}` is declared `extern` with type {} but defined with type {defined} in {file}",
                                declared.describe()
                            ),
                            "the declaration's type differs from the definition's",
                            span,
                        )
                        .with_note("C leaves the behaviour undefined when two declarations of one object disagree"));
                }
                return Ok(other);
            }
        }
        Err(self.error(
            &format!("`{name}` is declared `extern` but no file defines it"),
            "declared, never defined",
            span,
        ))
    }

    fn global_var(&mut self, name: &str, span: Span) -> Result<VarId> {
        if self.const_mode {
            return Err(self.error("not a constant expression", "reads a variable", span));
        }
        let here = self.unit();
        let unit = self.defining_unit(here, name, span)?;
        if let Some(&v) = self.globals.get(&(unit, name.to_string())) {
            return Ok(v);
        }
        let Some(FileName::Global { ty, init, span: decl_span, .. }) =
            self.file(unit).and_then(|f| f.names.get(name)).cloned()
        else {
            return Err(self.error(&format!("`{name}` is not a variable"), "not declared as a variable", span));
        };
        let vty = match ty {
            CType::Int(t) => VarTy::Scalar(t),
            CType::Array(t, n) => VarTy::Array(t, n),
            CType::Void => return Err(self.error("a variable of type void", "declared here", decl_span)),
            CType::Unsupported(what, at) => return Err(self.unsupported_in(unit, &what, at)),
            other => {
                return Err(self.error(
                    &format!("`{name}` has type {} where an integer is needed", other.describe()),
                    "not an integer",
                    span,
                ));
            }
        };
        let values = self.with_file_frame(unit, |l| l.initial_values(vty, init))?;
        let v = self.add_var(name.to_string(), vty, Storage::Global { init: values });
        self.globals.insert((unit, name.to_string()), v);
        if let Some(FileName::Global { constant: true, .. }) = self.file(unit).and_then(|f| f.names.get(name)) {
            self.const_vars.insert(v);
        }
        Ok(v)
    }

    /// The values of a static initialiser: C's zero where none is given.
    fn initial_values(&mut self, ty: VarTy, init: Option<&'p Node<Initializer>>) -> Result<Vec<i128>> {
        let mut values = vec![0; ty.n_elems() as usize];
        for (i, e) in self.initializer_items(ty, init)? {
            values[i] = ty.elem().convert(self.const_value(e)?.0);
        }
        Ok(values)
    }

    /// The (element index, expression) pairs of an initialiser for a variable of type `ty`.
    fn initializer_items(
        &self,
        ty: VarTy,
        init: Option<&'p Node<Initializer>>,
    ) -> Result<Vec<(usize, &'p Node<Expression>)>> {
        let Some(init) = init else { return Ok(Vec::new()) };
        match (&init.node, ty) {
            (Initializer::Expression(e), VarTy::Scalar(_)) => Ok(vec![(0, e)]),
            (Initializer::Expression(e), VarTy::Array(..)) => {
                Err(self.unsupported("an array initialised from an expression (a string?)", e.span))
            }
            (Initializer::List(items), _) => {
                if items.len() > ty.n_elems() as usize {
                    return Err(self.error("too many initialisers", "more values than elements", init.span));
                }
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if let Some(d) = item.node.designation.first() {
                        return Err(self.unsupported("a designated initialiser", d.span));
                    }
                    match &item.node.initializer.node {
                        Initializer::Expression(e) => out.push((i, &**e)),
                        Initializer::List(_) => {
                            return Err(self.unsupported("a nested initialiser list", item.span));
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    // ----- the end -----

    fn finish(mut self, name: String, entry: LocId) -> Result<Component> {
        if let Some((ev, span, unit)) =
            self.plain_events.iter().find(|(n, ..)| self.families.iter().any(|f| &f.name == n)).cloned()
        {
            return Err(self
                .unsupported_in(unit, &format!("event `{ev}` used both with and without a value"), span)
                .with_note("a family declared in the spec is performed with a value every time"));
        }
        let (n_locs, entry, exit, edges) = simplify(self.n_locs, entry, self.exit, std::mem::take(&mut self.edges));
        Ok(Component { name, vars: self.vars, families: self.families, n_locs, entry, exit, edges })
    }
}

/// Whether an `extern` declaration of type `declared` may name a definition of type `defined`:
/// the same type, or an array of the same elements whose size the declaration leaves out.
fn same_object_type(declared: &CType, defined: &CType) -> bool {
    match (declared, defined) {
        (CType::Unsupported(what, _), CType::Array(t, _)) => *what == ctype::unsized_array(&CType::Int(*t)),
        (CType::Unsupported(what, _), CType::StructArray(s, _)) => {
            *what == ctype::unsized_array(&CType::Struct(s.clone()))
        }
        _ => declared == defined,
    }
}

fn target_of(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => target_of(&b.node.lhs),
        _ => None,
    }
}

/// Whether a declaration declares a `const` object (`const int x`, `int *const p`), as opposed to
/// a pointer to `const`.
fn is_const_object(specs: &[Node<DeclarationSpecifier>], d: &lang_c::ast::Declarator) -> bool {
    let pointer_quals: Vec<&Node<DerivedDeclarator>> =
        ctype::derived_parts(d).into_iter().filter(|p| matches!(p.node, DerivedDeclarator::Pointer(_))).collect();
    match pointer_quals.last() {
        Some(p) => matches!(&p.node, DerivedDeclarator::Pointer(q) if q.iter().any(|q| matches!(&q.node,
            lang_c::ast::PointerQualifier::TypeQualifier(t) if t.node == lang_c::ast::TypeQualifier::Const))),
        None => specs.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == lang_c::ast::TypeQualifier::Const)
        }),
    }
}

fn has_storage(specs: &[Node<DeclarationSpecifier>], class: StorageClassSpecifier) -> bool {
    specs.iter().any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == class))
}

/// The constants that the enum specifiers among `specs` define.
fn enumerator_names(specs: &[Node<DeclarationSpecifier>]) -> impl Iterator<Item = &str> {
    ctype::type_specifiers(specs)
        .filter_map(|s| match &s.node {
            TypeSpecifier::Enum(e) => Some(&e.node.enumerators),
            _ => None,
        })
        .flatten()
        .map(|en| en.node.identifier.node.name.as_str())
}

fn is_function_declarator(d: &lang_c::ast::Declarator) -> bool {
    ctype::derived_parts(d)
        .iter()
        .any(|p| matches!(p.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
}

/// Removes unreachable locations, contracts locations whose only edge is a `skip` into their
/// successor, and numbers the rest in depth-first order from the entry.
fn simplify(n_locs: u32, entry: LocId, exit: LocId, edges: Vec<Edge>) -> (u32, LocId, LocId, Vec<Edge>) {
    let n = n_locs as usize;
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        out[e.from.index()].push(i);
    }
    // A location is an alias of its successor when it has exactly one outgoing edge, a skip.
    let alias = |l: usize| -> Option<usize> {
        match out[l].as_slice() {
            [i] if edges[*i].stmt == Stmt::Skip && edges[*i].to.index() != l => Some(edges[*i].to.index()),
            _ => None,
        }
    };
    let mut rep: Vec<usize> = (0..n).collect();
    for (l, r) in rep.iter_mut().enumerate() {
        let mut seen = vec![l];
        let mut at = l;
        while let Some(next) = alias(at) {
            if seen.contains(&next) {
                // A cycle of skips (`L: goto L;`): keep its first location as a self-loop.
                at = next;
                break;
            }
            seen.push(next);
            at = next;
        }
        *r = at;
    }
    // Keep the exit distinct even if it were an alias (it never has edges, so it is not).
    let resolve = |l: LocId| LocId(rep[l.index()] as u32);
    let entry = resolve(entry);
    let mut kept: Vec<Edge> = Vec::new();
    for (l, r) in rep.iter().enumerate() {
        // Representatives keep their edges, redirected to representatives; members of a skip
        // cycle are their own representatives, so the cycle survives.
        if *r == l {
            for &i in &out[l] {
                let mut e = edges[i].clone();
                e.to = resolve(e.to);
                kept.push(e);
            }
        }
    }
    // Depth-first numbering from the entry; unreachable locations disappear.
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in kept.iter().enumerate() {
        succ[e.from.index()].push(i);
    }
    let mut number = vec![u32::MAX; n];
    let mut next = 0u32;
    let mut stack = vec![entry.index()];
    while let Some(l) = stack.pop() {
        if number[l] != u32::MAX {
            continue;
        }
        number[l] = next;
        next += 1;
        for &i in succ[l].iter().rev() {
            let to = kept[i].to.index();
            if number[to] == u32::MAX {
                stack.push(to);
            }
        }
    }
    if number[exit.index()] == u32::MAX {
        number[exit.index()] = next;
        next += 1;
    }
    let mut result: Vec<Edge> = kept
        .into_iter()
        .filter(|e| number[e.from.index()] != u32::MAX)
        .map(|mut e| {
            e.from = LocId(number[e.from.index()]);
            e.to = LocId(number[e.to.index()]);
            e
        })
        .collect();
    result.sort_by_key(|e| e.from);
    (next, LocId(number[entry.index()]), LocId(number[exit.index()]), result)
}
