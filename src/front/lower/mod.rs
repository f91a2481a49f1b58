//! Lowering of a C component function, with the functions it calls inlined, to the IR.
//!
//! The lowering walks the AST once, keeping a *current location* and appending edges from it.
//! Expressions are lowered to pure IR expressions; their side effects (assignments, `++`, calls,
//! events, input) become edges emitted before the expression is used, in C's left-to-right
//! order. Because C leaves the order of unsequenced operands unspecified, operands whose effects
//! could be told apart by order are rejected (see [`super::effects`]).
//!
//! Invariants kept while lowering:
//! - every edge carries the span of the C construct it comes from and the stack of inlined calls;
//! - each C scope sees exactly the names C gives it: a function inlined into a caller sees its
//!   own parameters, locals and its file's globals, never the caller's locals;
//! - after an unconditional jump (`return`, `break`, `goto`, `abort()`) the current location is
//!   a fresh unreachable one; [`finish`] removes what stays unreachable.
//!
//! Known weaknesses:
//! - `sizeof` accepts only type names, variables and array elements;
//! - designated initialisers and multi-dimensional arrays are rejected;
//! - the side-effect analysis is by name and may reject a correct program that shadows a global.

mod memory;

use std::collections::{HashMap, HashSet};

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
    BinOp, Component, Edge, Event, Expr, ExprKind, Family, Fault, Frame, IntTy, LocId, Lvalue, Origin, SrcSpan, Stmt,
    Storage, UnOp, VarDecl, VarId, VarTy,
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
    /// Where the caller called it; `None` for the component.
    call: Option<SrcSpan>,
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
}

/// Lowers the function at `index` of `unit` as a component.
pub(crate) fn lower_component(prog: &Program, unit: usize, index: usize) -> Result<Component> {
    // The points-to analysis needs every object whose address is taken before it can resolve a
    // dereference: lower until a pass finds no object the previous one did not know.
    let mut pinned: Option<Vec<Object>> = None;
    for _ in 0..8 {
        let (component, objects, unresolved) = lower_pass(prog, unit, index, pinned.clone())?;
        if pinned.as_ref() == Some(&objects) {
            if let Some(d) = unresolved.into_iter().next() {
                return Err(d);
            }
            return Ok(component);
        }
        pinned = Some(objects);
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
) -> Result<(Component, Vec<Object>, Vec<Diagnostic>)> {
    let lang_c::ast::ExternalDeclaration::FunctionDefinition(def) = &prog.units[unit].ast.0[index].node else {
        return Err(Diagnostic::global("internal error: component is not a function definition"));
    };
    let name = super::function_name(&def.node).unwrap_or("?").to_string();
    let mut all_globals = HashSet::new();
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
        names: HashSet::new(),
        globals: HashMap::new(),
        statics: HashMap::new(),
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
        global_places: HashMap::new(),
        static_places: HashMap::new(),
        objects: pinned.clone().unwrap_or_default(),
        pinned,
        unresolved: Vec::new(),
        const_vars: HashSet::new(),
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
    l.frames.push(FrameCtx::new(name.clone(), unit, None, None, exit));
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
    Ok((l.finish(name, entry)?, objects, unresolved))
}

impl FrameCtx {
    fn new(function: String, unit: usize, call: Option<SrcSpan>, ret: Option<Place>, ret_loc: LocId) -> FrameCtx {
        FrameCtx {
            function,
            unit,
            call,
            ret,
            ret_loc,
            scopes: vec![HashMap::new()],
            labels: HashMap::new(),
            gotos: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            value_used: false,
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
        let stack = self
            .frames
            .iter()
            .filter_map(|f| f.call.clone().map(|call| Frame { function: f.function.clone(), call }))
            .collect();
        Origin { span, text, stack }
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
        if let Some(scope) = self.frames.last_mut().and_then(|f| f.scopes.last_mut()) {
            scope.insert(name.to_string(), b);
        }
    }

    fn push_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.scopes.push(HashMap::new());
        }
    }

    fn pop_scope(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.scopes.pop();
        }
    }

    fn var_ty(&self, v: VarId) -> VarTy {
        self.vars[v.index()].ty
    }

    // ----- file scope -----

    /// Runs `f` in an empty frame of `unit`, so that only file-scope names are visible.
    fn with_file_frame<T>(&mut self, unit: usize, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let exit = self.exit;
        self.frames.push(FrameCtx::new(String::new(), unit, None, None, exit));
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
                    lang_c::ast::ExternalDeclaration::StaticAssert(_) => {}
                }
            }
            Ok(())
        })
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
            Err(_) if typedef || d.declarators.iter().all(|i| is_function_declarator(&i.node.declarator.node)) => {
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
            if let Some(FileName::Global { external: false, internal: false, .. }) =
                self.file(other).and_then(|f| f.names.get(name))
            {
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

    // ----- statements -----

    fn stmt(&mut self, s: &'p Node<Statement>) -> Result<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::Statement(st) => self.stmt(st)?,
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                self.pop_scope();
            }
            Statement::Expression(None) => {}
            Statement::Expression(Some(e)) => {
                self.value(e, false)?;
            }
            Statement::If(i) => {
                let (then_loc, else_loc, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.cond(&i.node.condition, then_loc, else_loc)?;
                self.cur = then_loc;
                self.stmt(&i.node.then_statement)?;
                self.fall_to(join);
                self.cur = else_loc;
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.fall_to(join);
            }
            Statement::While(w) => {
                let (head, body, after) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(head);
                self.cond(&w.node.expression, body, after)?;
                self.cur = body;
                self.in_loop(after, head, |l| l.stmt(&w.node.statement))?;
                self.fall_to(head);
                self.cur = after;
            }
            Statement::DoWhile(w) => {
                let (body, test, after) = (self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(body);
                self.in_loop(after, test, |l| l.stmt(&w.node.statement))?;
                self.fall_to(test);
                self.cond(&w.node.expression, body, after)?;
                self.cur = after;
            }
            Statement::For(f) => {
                self.push_scope();
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => {
                        self.value(e, false)?;
                    }
                    ForInitializer::Declaration(d) => self.local_declaration(d)?,
                }
                let (head, body, step, after) = (self.new_loc(), self.new_loc(), self.new_loc(), self.new_loc());
                self.fall_to(head);
                match &f.node.condition {
                    Some(c) => self.cond(c, body, after)?,
                    None => self.fall_to(body),
                }
                self.cur = body;
                self.in_loop(after, step, |l| l.stmt(&f.node.statement))?;
                self.fall_to(step);
                if let Some(e) = &f.node.step {
                    self.value(e, false)?;
                }
                self.fall_to(head);
                self.cur = after;
                self.pop_scope();
            }
            Statement::Switch(sw) => self.switch(sw.node.expression.as_ref(), &sw.node.statement)?,
            Statement::Labeled(l) => self.labeled(&l.node.label, &l.node.statement)?,
            Statement::Goto(id) => {
                let target = self.label_loc(&id.node.name);
                if let Some(f) = self.frames.last_mut() {
                    f.gotos.push((id.node.name.clone(), id.span));
                }
                self.jump(target, s.span);
            }
            Statement::Continue => match self.frames.last().and_then(|f| f.continues.last()).copied() {
                Some(t) => self.jump(t, s.span),
                None => return Err(self.error("`continue` outside a loop", "no enclosing loop", s.span)),
            },
            Statement::Break => match self.frames.last().and_then(|f| f.breaks.last()).copied() {
                Some(t) => self.jump(t, s.span),
                None => return Err(self.error("`break` outside a loop or switch", "nothing to break out of", s.span)),
            },
            Statement::Return(e) => {
                let (ret, ret_loc) = match self.frames.last() {
                    Some(f) => (f.ret.clone(), f.ret_loc),
                    None => (None, self.exit),
                };
                match (e, ret) {
                    (Some(e), Some(Place::Int(lv, ty))) => {
                        let v = self.rvalue(e)?;
                        self.step(Stmt::Assign(lv, v.cast(ty)), s.span)?;
                    }
                    (Some(e), Some(p)) => {
                        let v = self.value_of(e)?;
                        self.store_val(&p, v, s.span)?;
                    }
                    (Some(e), None) => {
                        self.value(e, false)?;
                    }
                    (None, Some(_)) if self.frames.last().is_some_and(|f| f.value_used) => {
                        let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
                        return Err(self.error(
                            &format!("`return` without a value in `{f}`, whose result the caller uses"),
                            "returns no value",
                            s.span,
                        ));
                    }
                    (None, _) => {}
                }
                self.jump(ret_loc, s.span);
            }
            Statement::Asm(_) => return Err(self.unsupported("inline assembly", s.span)),
        }
        Ok(())
    }

    fn in_loop(&mut self, brk: LocId, cont: LocId, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        if let Some(f) = self.frames.last_mut() {
            f.breaks.push(brk);
            f.continues.push(cont);
        }
        let r = body(self);
        if let Some(f) = self.frames.last_mut() {
            f.breaks.pop();
            f.continues.pop();
        }
        r
    }

    fn label_loc(&mut self, name: &str) -> LocId {
        if let Some(&(l, _)) = self.frames.last().and_then(|f| f.labels.get(name)) {
            return l;
        }
        let l = self.new_loc();
        if let Some(f) = self.frames.last_mut() {
            f.labels.insert(name.to_string(), (l, false));
        }
        l
    }

    fn labeled(&mut self, label: &'p Node<Label>, inner: &'p Node<Statement>) -> Result<()> {
        match &label.node {
            Label::Identifier(id) => {
                let l = self.label_loc(&id.node.name);
                let frame = self.frames.last_mut().expect("statements are lowered inside a frame");
                let entry = frame.labels.get_mut(&id.node.name).expect("label_loc made it");
                if entry.1 {
                    return Err(self.error(
                        &format!("label `{}` defined twice", id.node.name),
                        "second definition",
                        id.span,
                    ));
                }
                entry.1 = true;
                self.fall_to(l);
            }
            Label::Case(e) => {
                let (v, _) = self.const_value(e)?;
                self.case(v, v, label.span)?;
            }
            Label::CaseRange(r) => {
                let (lo, _) = self.const_value(&r.node.low)?;
                let (hi, _) = self.const_value(&r.node.high)?;
                self.case(lo, hi, label.span)?;
            }
            Label::Default => {
                let l = self.new_loc();
                let Some(sw) = self.frames.last_mut().and_then(|f| f.switches.last_mut()) else {
                    return Err(self.error("`default` outside a switch", "no enclosing switch", label.span));
                };
                if sw.default.is_some() {
                    return Err(self.error("two `default` labels in one switch", "second default", label.span));
                }
                sw.default = Some(l);
                self.fall_to(l);
            }
        }
        self.stmt(inner)
    }

    fn case(&mut self, lo: i128, hi: i128, span: Span) -> Result<()> {
        let l = self.new_loc();
        let Some(ty) = self.frames.last().and_then(|f| f.switches.last()).map(|s| s.ty) else {
            return Err(self.error("`case` outside a switch", "no enclosing switch", span));
        };
        let (lo, hi) = (ty.convert(lo), ty.convert(hi));
        let sw = self.frames.last_mut().and_then(|f| f.switches.last_mut()).expect("checked above");
        if sw.cases.iter().any(|&(a, b, _, _)| a <= hi && lo <= b) {
            return Err(self.error("duplicate case value", "this value is already a case", span));
        }
        sw.cases.push((lo, hi, l, span));
        self.fall_to(l);
        Ok(())
    }

    fn switch(&mut self, e: &'p Node<Expression>, body: &'p Node<Statement>) -> Result<()> {
        let v = self.rvalue(e)?;
        let v = v.clone().cast(v.ty.promoted());
        let head = self.cur;
        let after = self.new_loc();
        if let Some(f) = self.frames.last_mut() {
            f.switches.push(SwitchCtx { ty: v.ty, cases: Vec::new(), default: None });
            f.breaks.push(after);
        }
        // The body is entered only through its labels.
        self.cur = self.new_loc();
        let r = self.stmt(body);
        let frame = self.frames.last_mut().expect("inside a frame");
        frame.breaks.pop();
        let sw = frame.switches.pop().expect("pushed above");
        r?;
        self.fall_to(after);
        let mut none_matches = Expr::constant(1, IntTy::I32);
        for &(lo, hi, target, span) in &sw.cases {
            let hit = if lo == hi {
                cmp(BinOp::Eq, v.clone(), lo)
            } else {
                and(cmp(BinOp::Ge, v.clone(), lo), cmp(BinOp::Le, v.clone(), hi))
            };
            none_matches = and(none_matches, negate(hit.clone()));
            self.guarded_edge(head, target, hit, span);
        }
        let default = sw.default.unwrap_or(after);
        self.guarded_edge(head, default, none_matches, e.span);
        self.cur = after;
        Ok(())
    }

    /// An edge taken when `cond` holds: a skip when it always holds, nothing when it never does.
    fn guarded_edge(&mut self, from: LocId, to: LocId, cond: Expr, span: Span) {
        match cond.as_const() {
            Some(0) => {}
            Some(_) => self.edge(from, to, Stmt::Skip, Some(span)),
            None => self.edge(from, to, Stmt::Assume(cond), Some(span)),
        }
    }

    fn local_declaration(&mut self, decl: &'p Node<Declaration>) -> Result<()> {
        let d = &decl.node;
        let base = self.base_type(&d.specifiers, decl.span)?;
        let typedef = has_storage(&d.specifiers, StorageClassSpecifier::Typedef);
        let is_static = has_storage(&d.specifiers, StorageClassSpecifier::Static);
        let is_extern = has_storage(&d.specifiers, StorageClassSpecifier::Extern);
        for init in &d.declarators {
            let Some(name) = ctype::declarator_name(&init.node.declarator.node) else { continue };
            let declared =
                ctype::apply_declarator(base.clone(), &init.node.declarator.node, &mut |e| self.array_size(e))?;
            let ty = match declared {
                Declared::Function(_) => continue,
                Declared::Object(t) if typedef => {
                    self.bind(name, Binding::Typedef(t));
                    continue;
                }
                Declared::Object(t) => t,
            };
            if is_extern {
                self.bind(name, Binding::Global(name.to_string()));
                continue;
            }
            let redeclared = self
                .frames
                .last()
                .and_then(|f| f.scopes.last())
                .is_some_and(|scope| matches!(scope.get(name), Some(Binding::Var(_) | Binding::Obj(_))));
            if redeclared {
                return Err(self.error(
                    &format!("redeclaration of `{name}` in the same scope"),
                    "already declared in this block",
                    init.span,
                ));
            }
            let constant = is_const_object(&d.specifiers, &init.node.declarator.node);
            let vty = match ty {
                CType::Int(t) => VarTy::Scalar(t),
                CType::Array(t, n) => VarTy::Array(t, n),
                CType::Void => return Err(self.error("a variable of type void", "declared here", init.span)),
                CType::Unsupported(what, at) => return Err(self.unsupported(&what, at)),
                CType::Incomplete(t) => {
                    return Err(self.unsupported(&format!("a variable of the incomplete type `{t}`"), init.span));
                }
                other => {
                    self.declare_object(name, &other, init.node.initializer.as_ref(), is_static, init.span)?;
                    if constant && let Some(Binding::Obj(p)) = self.lookup(name) {
                        self.const_vars.extend(memory::place_vars(&p));
                    }
                    continue;
                }
            };
            if is_static {
                let unit = self.unit();
                if let Some(&v) = self.statics.get(&(unit, init.span.start)) {
                    self.bind(name, Binding::Var(v));
                    continue;
                }

                let values = self.with_file_frame(unit, |l| l.initial_values(vty, init.node.initializer.as_ref()))?;
                let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
                let v = self.add_var(format!("{f}.{name}"), vty, Storage::Global { init: values });
                self.statics.insert((unit, init.span.start), v);
                if constant {
                    self.const_vars.insert(v);
                }
                self.bind(name, Binding::Var(v));
                continue;
            }
            let v = self.local(name, vty);
            self.bind(name, Binding::Var(v));
            if constant {
                self.const_vars.insert(v);
            }
            match &init.node.initializer {
                None => self.step(Stmt::Havoc(Lvalue::Var(v)), init.span)?,
                Some(i) => {
                    let items = self.initializer_items(vty, Some(i))?;
                    if let VarTy::Array(t, n) = vty {
                        // C zeroes the elements an initialiser list leaves out.
                        let mut values: Vec<Option<&Node<Expression>>> = vec![None; n as usize];
                        for (idx, e) in items {
                            values[idx] = Some(e);
                        }
                        for (idx, e) in values.into_iter().enumerate() {
                            let value = match e {
                                Some(e) => self.rvalue(e)?.cast(t),
                                None => Expr::constant(0, t),
                            };
                            let at = Expr::constant(idx as i128, IntTy::I32);
                            self.step(Stmt::Assign(Lvalue::Elem(v, at), value), init.span)?;
                        }
                    } else {
                        let value = match items.first() {
                            Some((_, e)) => self.rvalue(e)?.cast(vty.elem()),
                            None => Expr::constant(0, vty.elem()),
                        };
                        self.step(Stmt::Assign(Lvalue::Var(v), value), init.span)?;
                    }
                }
            }
        }
        Ok(())
    }

    // ----- conditions -----

    /// Lowers `e` as a branch condition: from the current location to `t` when it holds and to
    /// `f` when it does not, with C's short-circuit evaluation.
    fn cond(&mut self, e: &'p Node<Expression>, t: LocId, f: LocId) -> Result<()> {
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(b.node.operator.node, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) =>
            {
                self.short_circuit(&b.node, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, f, t)
            }
            Expression::Conditional(c) => {
                let (a, b) = (self.new_loc(), self.new_loc());
                self.cond(&c.node.condition, a, b)?;
                self.cur = a;
                self.cond(&c.node.then_expression, t, f)?;
                self.cur = b;
                self.cond(&c.node.else_expression, t, f)
            }
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                self.cond(last, t, f)
            }
            _ => {
                let v = match self.value_of(e)? {
                    Val::Ptr(p) => Self::ptr_truth(&p),
                    other => truth(self.to_int(other, e.span)?),
                };
                let from = self.cur;
                self.guarded_edge(from, t, v.clone(), e.span);
                self.guarded_edge(from, f, negate(v), e.span);
                self.cur = self.new_loc();
                Ok(())
            }
        }
    }

    /// `a && b` or `a || b` as a condition: `b` is evaluated only when C evaluates it.
    fn short_circuit(&mut self, b: &'p lang_c::ast::BinaryOperatorExpression, t: LocId, f: LocId) -> Result<()> {
        let mid = self.new_loc();
        if b.operator.node == BinaryOperator::LogicalAnd {
            self.cond(&b.lhs, mid, f)?;
        } else {
            self.cond(&b.lhs, t, mid)?;
        }
        self.cur = mid;
        self.cond(&b.rhs, t, f)
    }

    // ----- expressions -----

    fn rvalue(&mut self, e: &'p Node<Expression>) -> Result<Expr> {
        let v = self.value_of(e)?;
        self.to_int(v, e.span)
    }

    /// Lowers an expression of any type; `None` for a void one. Integer expressions are
    /// lowered by [`Self::expr`].
    fn value(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Val>> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Binding::Obj(_) | Binding::Global(_)) => {
                    let p = self.place(e)?;
                    return self.read_place(&p, e.span).map(Some);
                }
                Some(Binding::Var(v)) if matches!(self.var_ty(v), VarTy::Array(..)) => {
                    let p = self.place(e)?;
                    return self.read_place(&p, e.span).map(Some);
                }
                _ => {}
            },
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                let inc = match u.node.operator.node {
                    UnaryOperator::Address => {
                        if self.const_mode {
                            return Err(self.error("not a constant expression", "an address", e.span));
                        }
                        if let Expression::Identifier(id) = &operand.node
                            && self.lookup(&id.node.name).is_none()
                        {
                            return Err(self.unsupported("the address of a function (a function pointer)", e.span));
                        }
                        let p = self.place(operand)?;
                        return Ok(Some(Val::Ptr(self.address_of(p, e.span)?)));
                    }
                    UnaryOperator::Indirection => {
                        let p = self.place(e)?;
                        return self.read_place(&p, e.span).map(Some);
                    }
                    UnaryOperator::PostIncrement => Some((BinOp::Add, true)),
                    UnaryOperator::PostDecrement => Some((BinOp::Sub, true)),
                    UnaryOperator::PreIncrement => Some((BinOp::Add, false)),
                    UnaryOperator::PreDecrement => Some((BinOp::Sub, false)),
                    _ => None,
                };
                if let Some((op, post)) = inc {
                    let p = self.place(operand)?;
                    self.check_writable(&p, operand)?;
                    return self.increment_place(p, op, post, e.span, want).map(Some);
                }
            }
            Expression::Member(_) => {
                let p = self.place(e)?;
                return self.read_place(&p, e.span).map(Some);
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let p = self.place(e)?;
                return self.read_place(&p, e.span).map(Some);
            }
            Expression::BinaryOperator(b) => return self.binary_val(&b.node, e.span, want),
            Expression::Cast(c) => {
                let t = self.type_name(&c.node.type_name)?;
                if let CType::Ptr(_) = t {
                    let v = self.value_of(&c.node.expression)?;
                    return Ok(Some(Val::Ptr(self.to_ptr(v, &t, c.span)?)));
                }
            }
            Expression::Call(c) => return self.call_val(&c.node, e.span, want),
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                return self.value(last, want);
            }
            Expression::Conditional(c) if !self.const_mode => return self.conditional(&c.node, e.span),
            _ => {}
        }
        Ok(self.expr(e, want)?.map(Val::Int))
    }

    /// `c ? x : y` of integers, pointers or void: a branch, and the value in a temporary.
    fn conditional(&mut self, c: &'p lang_c::ast::ConditionalExpression, span: Span) -> Result<Option<Val>> {
        let (a, b, join) = (self.new_loc(), self.new_loc(), self.new_loc());
        self.cond(&c.condition, a, b)?;
        self.cur = a;
        let x = self.value(&c.then_expression, true)?;
        let a_end = self.cur;
        self.cur = b;
        let y = self.value(&c.else_expression, true)?;
        let b_end = self.cur;
        let (then_span, else_span) = (Some(c.then_expression.span), Some(c.else_expression.span));
        match (x, y) {
            (Some(Val::Int(x)), Some(Val::Int(y))) => {
                let t = IntTy::common(x.ty, y.ty);
                let tmp = self.temp(t);
                self.edge(a_end, join, Stmt::Assign(Lvalue::Var(tmp), x.cast(t)), then_span);
                self.edge(b_end, join, Stmt::Assign(Lvalue::Var(tmp), y.cast(t)), else_span);
                self.cur = join;
                Ok(Some(Val::Int(Expr::var(tmp, t))))
            }
            (None, None) => {
                self.edge(a_end, join, Stmt::Skip, None);
                self.edge(b_end, join, Stmt::Skip, None);
                self.cur = join;
                Ok(None)
            }
            (Some(x @ (Val::Ptr(_) | Val::Int(_))), Some(y @ (Val::Ptr(_) | Val::Int(_)))) => {
                let pointee = match (&x, &y) {
                    (Val::Ptr(p), _) | (_, Val::Ptr(p)) => p.pointee.clone(),
                    _ => CType::Void,
                };
                let want = CType::Ptr(Box::new(pointee.clone()));
                let px = self.to_ptr(x, &want, c.then_expression.span)?;
                let py = self.to_ptr(y, &want, c.else_expression.span)?;
                let (tag, off) = (self.temp(memory::TAG), self.temp(memory::OFF));
                for (end, p, at) in [(a_end, px, then_span), (b_end, py, else_span)] {
                    let mid = self.new_loc();
                    self.edge(end, mid, Stmt::Assign(Lvalue::Var(tag), p.tag), at);
                    self.edge(mid, join, Stmt::Assign(Lvalue::Var(off), p.off), at);
                }
                self.cur = join;
                Ok(Some(Val::Ptr(PtrVal {
                    pointee,
                    tag: Expr::var(tag, memory::TAG),
                    off: Expr::var(off, memory::OFF),
                })))
            }
            (Some(Val::Struct(_)), _) | (_, Some(Val::Struct(_))) => {
                Err(self.unsupported("a conditional expression choosing between structs", span))
            }
            _ => Err(self.error("one arm of `?:` is void and the other is not", "mixed arms", span)),
        }
    }

    fn check_unsequenced(&self, parts: &[&'p Node<Expression>], span: Span) -> Result<()> {
        let effects: Vec<Effects> = parts.iter().map(|p| self.summaries.of_expr(p)).collect();
        for i in 0..effects.len() {
            for j in i + 1..effects.len() {
                if let Some(why) = effects[i].conflict(&effects[j]) {
                    return Err(self
                        .unsupported("operands whose evaluation order matters", span)
                        .with_note(format!("C leaves the order of these operands unspecified and {why}"))
                        .with_note("split the expression into statements to fix the order"));
                }
            }
        }
        Ok(())
    }

    /// Lowers an expression; `None` for a void one. With `want` false the value is discarded,
    /// which spares temporaries.
    fn expr(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Expr>> {
        let v = match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, e.span)?,
            Expression::Constant(c) => self.constant(&c.node, c.span)?,
            Expression::StringLiteral(_) => return Err(self.unsupported("a string literal", e.span)),
            Expression::Call(_) => return self.int_value(e, want),
            Expression::UnaryOperator(u) => {
                let operand = &u.node.operand;
                match u.node.operator.node {
                    UnaryOperator::PostIncrement
                    | UnaryOperator::PostDecrement
                    | UnaryOperator::PreIncrement
                    | UnaryOperator::PreDecrement
                    | UnaryOperator::Address
                    | UnaryOperator::Indirection => return self.int_value(e, want),
                    UnaryOperator::Plus => {
                        let a = self.rvalue(operand)?;
                        a.clone().cast(a.ty.promoted())
                    }
                    UnaryOperator::Minus => {
                        let a = self.rvalue(operand)?;
                        let a = a.clone().cast(a.ty.promoted());
                        fold(Expr::unary(UnOp::Neg, a))
                    }
                    UnaryOperator::Complement => {
                        let a = self.rvalue(operand)?;
                        let a = a.clone().cast(a.ty.promoted());
                        fold(Expr::unary(UnOp::BitNot, a))
                    }
                    UnaryOperator::Negate => match self.value_of(operand)? {
                        Val::Ptr(p) => negate(Self::ptr_truth(&p)),
                        other => negate(truth(self.to_int(other, operand.span)?)),
                    },
                }
            }
            Expression::Cast(c) => match self.type_name(&c.node.type_name)? {
                CType::Void => {
                    self.value(&c.node.expression, false)?;
                    return Ok(None);
                }
                CType::Int(t) => self.rvalue(&c.node.expression)?.cast(t),
                CType::Unsupported(what, at) => return Err(self.unsupported(&what, at)),
                CType::Ptr(_) => return self.int_value(e, want),
                other => return Err(self.unsupported(&format!("a cast to {}", other.describe()), c.span)),
            },
            Expression::BinaryOperator(_) => return self.int_value(e, want),
            Expression::Conditional(c) => {
                let (a, b, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                if self.const_mode {
                    // A conditional in a constant expression picks an arm statically.
                    let (c0, _) = self.const_value(&c.node.condition)?;
                    let (x, _) = self.const_value(&c.node.then_expression)?;
                    let (y, _) = self.const_value(&c.node.else_expression)?;
                    let tx = self.rvalue(&c.node.then_expression)?.ty;
                    let ty_ = self.rvalue(&c.node.else_expression)?.ty;
                    let t = IntTy::common(tx, ty_);
                    return Ok(Some(Expr::constant(if c0 != 0 { x } else { y }, t)));
                }
                self.cond(&c.node.condition, a, b)?;
                self.cur = a;
                let x = self.expr(&c.node.then_expression, true)?;
                let a_end = self.cur;
                self.cur = b;
                let y = self.expr(&c.node.else_expression, true)?;
                let b_end = self.cur;
                match (x, y) {
                    (Some(x), Some(y)) => {
                        let t = IntTy::common(x.ty, y.ty);
                        let tmp = self.temp(t);
                        self.edge(
                            a_end,
                            join,
                            Stmt::Assign(Lvalue::Var(tmp), x.cast(t)),
                            Some(c.node.then_expression.span),
                        );
                        self.edge(
                            b_end,
                            join,
                            Stmt::Assign(Lvalue::Var(tmp), y.cast(t)),
                            Some(c.node.else_expression.span),
                        );
                        self.cur = join;
                        Expr::var(tmp, t)
                    }
                    (None, None) => {
                        self.edge(a_end, join, Stmt::Skip, None);
                        self.edge(b_end, join, Stmt::Skip, None);
                        self.cur = join;
                        return Ok(None);
                    }
                    _ => return Err(self.error("one arm of `?:` is void and the other is not", "mixed arms", e.span)),
                }
            }
            Expression::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                for i in init {
                    self.value(i, false)?;
                }
                return self.expr(last, want);
            }
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                self.size_expr(&ty, e.span)?
            }
            Expression::SizeOfVal(v) => {
                let ty = self.type_of(&v.node.0)?;
                self.size_expr(&ty, e.span)?
            }
            Expression::Member(_) => return self.int_value(e, want),
            Expression::Statement(st) => return self.statement_expr(st, want),
            Expression::GenericSelection(_) => return Err(self.unsupported("_Generic", e.span)),
            Expression::CompoundLiteral(_) => return Err(self.unsupported("a compound literal", e.span)),
            Expression::AlignOf(_) => return Err(self.unsupported("_Alignof", e.span)),
            Expression::OffsetOf(_) => return Err(self.unsupported("offsetof", e.span)),
            Expression::VaArg(_) => return Err(self.unsupported("va_arg", e.span)),
        };
        Ok(Some(v))
    }

    /// An expression that [`Self::value`] lowers, as an integer.
    fn int_value(&mut self, e: &'p Node<Expression>, want: bool) -> Result<Option<Expr>> {
        match self.value(e, want)? {
            Some(v) => self.to_int(v, e.span).map(Some),
            None => Ok(None),
        }
    }

    fn size_expr(&self, ty: &CType, span: Span) -> Result<Expr> {
        match self.size_align(ty).map(|(s, _)| s) {
            Some(n) => Ok(Expr::constant(n, IntTy { bits: self.model.long_bits(), signed: false })),
            None => Err(self.unsupported("sizeof of this type", span)),
        }
    }

    /// The C type of a `sizeof` operand, which C does not evaluate: arrays by their variable, any
    /// other expression by lowering it and then discarding everything the lowering made.
    fn type_of(&mut self, e: &'p Node<Expression>) -> Result<CType> {
        if let Expression::Identifier(id) = &e.node
            && let Some(Binding::Var(v)) = self.lookup(&id.node.name)
            && let VarTy::Array(t, n) = self.var_ty(v)
        {
            return Ok(CType::Array(t, n));
        }
        let saved =
            (self.vars.len(), self.edges.len(), self.n_locs, self.cur, self.families.len(), self.plain_events.len());
        let saved_mode = std::mem::replace(&mut self.const_mode, false);
        let value = self.expr(e, true);
        self.const_mode = saved_mode;
        for v in self.vars.drain(saved.0..) {
            self.names.remove(&v.name);
        }
        self.globals.retain(|_, v| v.index() < saved.0);
        self.edges.truncate(saved.1);
        (self.n_locs, self.cur) = (saved.2, saved.3);
        self.families.truncate(saved.4);
        self.plain_events.truncate(saved.5);
        match value? {
            Some(v) => Ok(CType::Int(v.ty)),
            None => Err(self.error("sizeof of a void expression", "void", e.span)),
        }
    }

    /// A GNU statement expression `({ ...; e; })`: its value is that of the last statement.
    fn statement_expr(&mut self, s: &'p Node<Statement>, want: bool) -> Result<Option<Expr>> {
        let Statement::Compound(items) = &s.node else {
            return Err(self.unsupported("this statement expression", s.span));
        };
        self.push_scope();
        let mut value = None;
        for (i, item) in items.iter().enumerate() {
            match &item.node {
                BlockItem::Statement(Node { node: Statement::Expression(Some(e)), .. }) if i + 1 == items.len() => {
                    value = self.expr(e, want)?;
                }
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        self.pop_scope();
        Ok(value)
    }

    fn identifier(&mut self, name: &str, span: Span) -> Result<Expr> {
        let v = match self.lookup(name) {
            Some(Binding::Var(v)) => {
                if self.const_mode {
                    return Err(self.error("not a constant expression", "reads a variable", span));
                }
                v
            }
            Some(Binding::Global(g)) => self.global_var(&g, span)?,
            Some(Binding::Const(v, t)) => return Ok(Expr::constant(v, t)),
            Some(Binding::Typedef(_)) => return Err(self.error(&format!("`{name}` is a type"), "not a value", span)),
            Some(Binding::Obj(p)) => {
                let v = self.read_place(&p, span)?;
                return self.to_int(v, span);
            }
            Some(Binding::Unusable(what)) => return Err(self.unsupported(&what, span)),
            None => {
                let unit = self.unit();
                if let Some(FileName::Function(_)) = self.file(unit).and_then(|f| f.names.get(name)) {
                    return Err(self.unsupported("a function used as a value (a function pointer)", span));
                }
                return Err(self.error(&format!("`{name}` is not declared"), "unknown name", span));
            }
        };
        match self.var_ty(v) {
            VarTy::Scalar(t) => Ok(Expr::var(v, t)),
            VarTy::Array(..) => Err(self.unsupported("an array used as a value (a pointer)", span)),
        }
    }

    fn constant(&self, c: &Constant, span: Span) -> Result<Expr> {
        match c {
            Constant::Integer(i) => self.integer(i, span),
            Constant::Float(_) => Err(self.unsupported("floating point", span)),
            Constant::Character(text) => self.character(text, span),
        }
    }

    /// An integer literal with the type C11 6.4.4.1 gives it.
    fn integer(&self, i: &Integer, span: Span) -> Result<Expr> {
        if i.suffix.imaginary {
            return Err(self.unsupported("an imaginary constant", span));
        }
        let digits: &str = &i.number;
        let (radix, digits) = match i.base {
            IntegerBase::Decimal => (10, digits),
            IntegerBase::Octal => (8, digits.strip_prefix('0').filter(|d| !d.is_empty()).unwrap_or(digits)),
            IntegerBase::Hexadecimal => (16, digits.trim_start_matches("0x").trim_start_matches("0X")),
            IntegerBase::Binary => (2, digits.trim_start_matches("0b").trim_start_matches("0B")),
        };
        let Ok(value) = u128::from_str_radix(digits, radix) else {
            return Err(self.error("integer constant too large", "does not fit in 64 bits", span));
        };
        let value = value as i128;
        let long = IntTy { bits: self.model.long_bits(), signed: true };
        let decimal = i.base == IntegerBase::Decimal;
        let mut candidates: Vec<IntTy> = match i.suffix.size {
            IntegerSize::Int => vec![IntTy::I32, IntTy::U32, long, long.with_signed(false), IntTy::I64, IntTy::U64],
            IntegerSize::Long => vec![long, long.with_signed(false), IntTy::I64, IntTy::U64],
            IntegerSize::LongLong => vec![IntTy::I64, IntTy::U64],
        };
        if i.suffix.unsigned {
            candidates.retain(|t| !t.signed);
        } else if decimal {
            candidates.retain(|t| t.signed);
        }
        match candidates.into_iter().find(|t| t.contains(value)) {
            Some(t) => Ok(Expr::constant(value, t)),
            None => Err(self.error("integer constant too large", "no C type holds this value", span)),
        }
    }

    /// A character constant: an `int` holding the (signed) `char` value.
    fn character(&self, text: &str, span: Span) -> Result<Expr> {
        let body = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\''));
        let Some(body) = body else {
            return Err(self.unsupported("a wide or multi-byte character constant", span));
        };
        let bytes = body.as_bytes();
        let value: i128 = match bytes {
            [c] => *c as i128,
            [b'\\', rest @ ..] => match rest {
                [b'n'] => 10,
                [b't'] => 9,
                [b'r'] => 13,
                [b'a'] => 7,
                [b'b'] => 8,
                [b'f'] => 12,
                [b'v'] => 11,
                [b'e'] => 27,
                [b'\\'] => 92,
                [b'\''] => 39,
                [b'"'] => 34,
                [b'?'] => 63,
                [b'x', hex @ ..] => i128::from_str_radix(std::str::from_utf8(hex).unwrap_or("z"), 16)
                    .map_err(|_| self.error("bad escape in character constant", "here", span))?,
                oct if !oct.is_empty() && oct.len() <= 3 && oct.iter().all(|c| (b'0'..=b'7').contains(c)) => {
                    i128::from_str_radix(std::str::from_utf8(oct).unwrap_or("z"), 8)
                        .map_err(|_| self.error("bad escape in character constant", "here", span))?
                }
                _ => return Err(self.error("bad escape in character constant", "here", span)),
            },
            _ => return Err(self.unsupported("a multi-character constant", span)),
        };
        Ok(Expr::constant(IntTy::I8.convert(value), IntTy::I32))
    }

    // ----- lvalues, assignment, increments -----

    fn check(&mut self, cond: Expr, fault: Fault, span: Span) -> Result<()> {
        match cond.as_const() {
            Some(c) if c != 0 => Ok(()),
            _ if self.const_mode => {
                Err(self.error(&format!("{} in a constant expression", fault.describe()), "here", span))
            }
            _ => self.step(Stmt::Check(cond, fault), span),
        }
    }

    fn read(lv: &Lvalue, ty: IntTy) -> Expr {
        match lv {
            Lvalue::Var(v) => Expr::var(*v, ty),
            Lvalue::Elem(v, i) => Expr { ty, kind: ExprKind::Load(*v, Box::new(i.clone())) },
        }
    }

    /// Stores `value` (already of type `ty`) and returns the stored value if wanted. The value
    /// goes through a temporary when the target's index could depend on what is stored.
    fn store(&mut self, lv: Lvalue, ty: IntTy, value: Expr, span: Span, want: bool) -> Result<Expr> {
        if want && matches!(lv, Lvalue::Elem(..)) && value.as_const().is_none() {
            let t = self.temp(ty);
            self.step(Stmt::Assign(Lvalue::Var(t), value), span)?;
            self.step(Stmt::Assign(lv, Expr::var(t, ty)), span)?;
            return Ok(Expr::var(t, ty));
        }
        let result = match &value.kind {
            ExprKind::Const(_) => value.clone(),
            _ => Self::read(&lv, ty),
        };
        self.step(Stmt::Assign(lv, value), span)?;
        Ok(result)
    }

    /// Stores an integer into an integer place (maybe a choice of places behind a pointer).
    fn store_place(&mut self, p: Place, ty: IntTy, value: Expr, span: Span, want: bool) -> Result<Expr> {
        match p {
            Place::Int(lv, _) => self.store(lv, ty, value, span, want),
            p => {
                let value = if value.as_const().is_some() || matches!(value.kind, ExprKind::Var(_)) {
                    value
                } else {
                    let t = self.temp(ty);
                    self.step(Stmt::Assign(Lvalue::Var(t), value), span)?;
                    Expr::var(t, ty)
                };
                self.store_val(&p, Val::Int(value.clone()), span)?;
                Ok(value)
            }
        }
    }

    /// The integer type of a place, or why it has none.
    fn int_place_ty(&self, p: &Place, span: Span) -> Result<IntTy> {
        match memory::place_ty(p) {
            CType::Int(t) => Ok(t),
            CType::Array(..) | CType::StructArray(..) => {
                Err(self.error("an array cannot be assigned as a whole", "array", span))
            }
            other => {
                Err(self.error(&format!("an object of type {} used as an integer", other.describe()), "here", span))
            }
        }
    }

    fn increment_place(&mut self, p: Place, op: BinOp, post: bool, span: Span, want: bool) -> Result<Val> {
        if let CType::Ptr(_) = memory::place_ty(&p) {
            let old = match self.read_place(&p, span)? {
                Val::Ptr(v) => v,
                _ => return Err(self.error("internal error: pointer place", "here", span)),
            };
            let new = self.ptr_offset(old.clone(), Expr::constant(1, IntTy::I32), op);
            let result = if post && want {
                let (tag, off) = (self.temp(memory::TAG), self.temp(memory::OFF));
                self.step(Stmt::Assign(Lvalue::Var(tag), old.tag.clone()), span)?;
                self.step(Stmt::Assign(Lvalue::Var(off), old.off.clone()), span)?;
                PtrVal { tag: Expr::var(tag, memory::TAG), off: Expr::var(off, memory::OFF), ..old }
            } else {
                new.clone()
            };
            self.store_val(&p, Val::Ptr(new), span)?;
            if !post && want {
                return self.read_place(&p, span);
            }
            return Ok(Val::Ptr(result));
        }
        let ty = self.int_place_ty(&p, span)?;
        let old = self.read_int(&p, span)?;
        let one = Expr::constant(1, IntTy::I32);
        let new = self.arith(op, old.clone(), one, span)?.cast(ty);
        if post && want {
            let t = self.temp(ty);
            self.step(Stmt::Assign(Lvalue::Var(t), old), span)?;
            self.store_place(p, ty, new, span, false)?;
            return Ok(Val::Int(Expr::var(t, ty)));
        }
        self.store_place(p, ty, new, span, want).map(Val::Int)
    }

    /// Reads an integer place.
    fn read_int(&mut self, p: &Place, span: Span) -> Result<Expr> {
        let v = self.read_place(p, span)?;
        self.to_int(v, span)
    }

    /// A binary arithmetic or comparison operator with C's conversions and checks.
    fn arith(&mut self, op: BinOp, a: Expr, b: Expr, span: Span) -> Result<Expr> {
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let a = a.clone().cast(a.ty.promoted());
            let b = b.clone().cast(b.ty.promoted());
            let width = a.ty.bits as i128;
            let ok = if b.ty.signed {
                and(cmp(BinOp::Ge, b.clone(), 0), cmp(BinOp::Lt, b.clone(), width))
            } else {
                cmp(BinOp::Lt, b.clone(), width)
            };
            self.check(ok, Fault::ShiftOutOfRange, span)?;
            let ty = a.ty;
            return Ok(fold(Expr::binary(op, a, b.cast(ty))));
        }
        let t = IntTy::common(a.ty, b.ty);
        let (a, b) = (a.cast(t), b.cast(t));
        if matches!(op, BinOp::Div | BinOp::Rem) {
            self.check(cmp(BinOp::Ne, b.clone(), 0), Fault::DivByZero, span)?;
            if t.signed {
                let no_overflow = or(cmp(BinOp::Ne, a.clone(), t.min()), cmp(BinOp::Ne, b.clone(), -1));
                self.check(no_overflow, Fault::DivOverflow, span)?;
            }
        }
        Ok(fold(Expr::binary(op, a, b)))
    }

    fn binary_val(
        &mut self,
        b: &'p lang_c::ast::BinaryOperatorExpression,
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        use BinaryOperator as B;
        let op = match b.operator.node.clone() {
            B::Index => return Err(self.error("internal error: an index lowered as an operator", "here", span)),
            B::LogicalAnd | B::LogicalOr => {
                if self.const_mode {
                    let (x, _) = self.const_value(&b.lhs)?;
                    let short = (b.operator.node == B::LogicalAnd) == (x == 0);
                    let v = if short { (x != 0) as i128 } else { (self.const_value(&b.rhs)?.0 != 0) as i128 };
                    return Ok(Some(Val::Int(Expr::constant(v, IntTy::I32))));
                }
                let (t, f, join) = (self.new_loc(), self.new_loc(), self.new_loc());
                let tmp = self.temp(IntTy::I32);
                self.short_circuit(b, t, f)?;
                self.edge(t, join, Stmt::Assign(Lvalue::Var(tmp), Expr::constant(1, IntTy::I32)), Some(span));
                self.edge(f, join, Stmt::Assign(Lvalue::Var(tmp), Expr::constant(0, IntTy::I32)), Some(span));
                self.cur = join;
                return Ok(Some(Val::Int(Expr::var(tmp, IntTy::I32))));
            }
            B::Assign => {
                self.check_assignment(&b.lhs, &b.rhs, false, span)?;
                let p = self.place(&b.lhs)?;
                self.check_writable(&p, &b.lhs)?;
                if let CType::Int(ty) = memory::place_ty(&p) {
                    let v = self.rvalue(&b.rhs)?.cast(ty);
                    return self.store_place(p, ty, v, span, want).map(|v| Some(Val::Int(v)));
                }
                self.int_place_ty(&p, span).or_else(|e| match memory::place_ty(&p) {
                    CType::Ptr(_) | CType::Struct(_) => Ok(IntTy::I32),
                    _ => Err(e),
                })?;
                let v = self.value_of(&b.rhs)?;
                self.store_val(&p, v, span)?;
                return if want { self.read_place(&p, span).map(Some) } else { Ok(None) };
            }
            B::AssignMultiply => BinOp::Mul,
            B::AssignDivide => BinOp::Div,
            B::AssignModulo => BinOp::Rem,
            B::AssignPlus => BinOp::Add,
            B::AssignMinus => BinOp::Sub,
            B::AssignShiftLeft => BinOp::Shl,
            B::AssignShiftRight => BinOp::Shr,
            B::AssignBitwiseAnd => BinOp::BitAnd,
            B::AssignBitwiseXor => BinOp::BitXor,
            B::AssignBitwiseOr => BinOp::BitOr,
            other => {
                let op = match other {
                    B::Multiply => BinOp::Mul,
                    B::Divide => BinOp::Div,
                    B::Modulo => BinOp::Rem,
                    B::Plus => BinOp::Add,
                    B::Minus => BinOp::Sub,
                    B::ShiftLeft => BinOp::Shl,
                    B::ShiftRight => BinOp::Shr,
                    B::Less => BinOp::Lt,
                    B::Greater => BinOp::Gt,
                    B::LessOrEqual => BinOp::Le,
                    B::GreaterOrEqual => BinOp::Ge,
                    B::Equals => BinOp::Eq,
                    B::NotEquals => BinOp::Ne,
                    B::BitwiseAnd => BinOp::BitAnd,
                    B::BitwiseXor => BinOp::BitXor,
                    _ => BinOp::BitOr,
                };
                self.check_unsequenced(&[&b.lhs, &b.rhs], span)?;
                let x = self.value_of(&b.lhs)?;
                let y = self.value_of(&b.rhs)?;
                return self.operands(op, x, y, span).map(Some);
            }
        };
        // Compound assignment: the target is evaluated once.
        self.check_assignment(&b.lhs, &b.rhs, true, span)?;
        let p = self.place(&b.lhs)?;
        self.check_writable(&p, &b.lhs)?;
        if let CType::Ptr(_) = memory::place_ty(&p) {
            if !matches!(op, BinOp::Add | BinOp::Sub) {
                return Err(self.unsupported("this compound assignment to a pointer", span));
            }
            let old = self.read_place(&p, span)?;
            let y = self.rvalue(&b.rhs)?;
            let Val::Ptr(old) = old else { return Err(self.error("internal error: pointer place", "here", span)) };
            let new = self.ptr_offset(old, y, op);
            self.store_val(&p, Val::Ptr(new), span)?;
            return if want { self.read_place(&p, span).map(Some) } else { Ok(None) };
        }
        let ty = self.int_place_ty(&p, span)?;
        let old = self.read_int(&p, span)?;
        let y = self.rvalue(&b.rhs)?;
        let value = self.arith(op, old, y, span)?.cast(ty);
        self.store_place(p, ty, value, span, want).map(|v| Some(Val::Int(v)))
    }

    /// A binary operator on two values: integers, or pointers with C's pointer arithmetic and
    /// comparisons.
    fn operands(&mut self, op: BinOp, x: Val, y: Val, span: Span) -> Result<Val> {
        match (x, y) {
            (Val::Ptr(p), Val::Ptr(q)) => self.ptr_binary(op, p, q, span).map(Val::Int),
            (Val::Ptr(p), Val::Int(i)) | (Val::Int(i), Val::Ptr(p))
                if matches!(op, BinOp::Eq | BinOp::Ne) && i.as_const() == Some(0) =>
            {
                let null = self.to_ptr(Val::Int(i), &CType::Ptr(Box::new(p.pointee.clone())), span)?;
                self.ptr_binary(op, p, null, span).map(Val::Int)
            }
            (Val::Ptr(p), Val::Int(i)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                Ok(Val::Ptr(self.ptr_offset(p, i, op)))
            }
            (Val::Int(i), Val::Ptr(p)) if op == BinOp::Add => Ok(Val::Ptr(self.ptr_offset(p, i, op))),
            (x, y) => {
                let x = self.to_int(x, span)?;
                let y = self.to_int(y, span)?;
                self.arith(op, x, y, span).map(Val::Int)
            }
        }
    }

    /// Rejects a write to an object declared `const`, as gcc does.
    fn check_writable(&self, p: &Place, target: &'p Node<Expression>) -> Result<()> {
        if memory::place_vars(p).iter().any(|v| self.const_vars.contains(v)) {
            let (span, text) = self.src_span_in(self.unit(), target.span);
            return Err(Diagnostic::at(
                span,
                format!("assignment to `{text}`, which is declared `const`"),
                "read-only".to_string(),
            ));
        }
        Ok(())
    }

    /// What evaluating an assignment target does to find the object (not to read it): its
    /// indices, and the pointers it goes through.
    fn locating_effects(&self, e: &'p Node<Expression>) -> Effects {
        let merge = |mut a: Effects, b: Effects| {
            a.reads.extend(b.reads);
            a.writes.extend(b.writes);
            a.observable |= b.observable;
            a.any |= b.any;
            a
        };
        match &e.node {
            Expression::Identifier(_) => Effects::default(),
            Expression::Member(m) if m.node.operator.node == lang_c::ast::MemberOperator::Direct => {
                self.locating_effects(&m.node.expression)
            }
            Expression::Member(m) => self.summaries.of_expr(&m.node.expression),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.summaries.of_expr(&u.node.operand)
            }
            Expression::BinaryOperator(ix) if ix.node.operator.node == BinaryOperator::Index => {
                let index = self.summaries.of_expr(&ix.node.rhs);
                let base = match &ix.node.lhs.node {
                    Expression::Identifier(id) if self.summaries.is_pointer(&id.node.name) => {
                        self.summaries.of_expr(&ix.node.lhs)
                    }
                    _ => self.locating_effects(&ix.node.lhs),
                };
                merge(index, base)
            }
            _ => self.summaries.of_expr(e),
        }
    }

    /// Rejects `lhs = rhs` when the order of evaluating the two sides could matter.
    fn check_assignment(
        &self,
        lhs: &'p Node<Expression>,
        rhs: &'p Node<Expression>,
        compound: bool,
        span: Span,
    ) -> Result<()> {
        let rhs_eff = self.summaries.of_expr(rhs);
        let lhs_eff = match (&lhs.node, compound) {
            (_, true) => self.summaries.of_expr(lhs),
            (_, false) => self.locating_effects(lhs),
        };
        let mut conflict = lhs_eff.conflict(&rhs_eff);
        // `x = x++`: the right side updates the target without a sequence point.
        let direct = Summaries::default().of_expr(rhs);
        if let Some(target) = target_of(lhs)
            && direct.writes.contains(target)
        {
            conflict = Some(format!("the right side also writes `{target}`"));
        }
        match conflict {
            Some(why) => Err(self
                .unsupported("an assignment whose evaluation order matters", span)
                .with_note(format!("C leaves the order of the two sides unspecified and {why}"))),
            None => Ok(()),
        }
    }

    // ----- calls -----

    fn call_val(&mut self, c: &'p CallExpression, span: Span, want: bool) -> Result<Option<Val>> {
        let Expression::Identifier(id) = &c.callee.node else {
            return Err(self.unsupported("a call through a function pointer", c.callee.span));
        };
        let name = id.node.name.as_str();
        if HEAP_FUNCTIONS.contains(&name) {
            return Err(self
                .unsupported(&format!("heap allocation (`{name}`)"), span)
                .with_note("subst has no heap: objects must be variables whose address the component takes"));
        }
        if let Some(Binding::Var(_) | Binding::Global(_) | Binding::Obj(_)) = self.lookup(name) {
            return Err(self.unsupported("a call through a variable (a function pointer)", c.callee.span));
        }
        if self.const_mode {
            return Err(self.error("not a constant expression", "a call", span));
        }
        let args: Vec<&'p Node<Expression>> = c.arguments.iter().collect();
        if ERROR_FUNCTIONS.contains(&name) {
            // The error event ends the run: what follows cannot change the verdict.
            self.step(Stmt::Event(Event::Plain(ERROR_EVENT.to_string())), span)?;
            let exit = self.exit;
            self.jump(exit, span);
            return Ok(None);
        }
        if EXIT_FUNCTIONS.contains(&name) {
            for a in &args {
                self.expr(a, false)?;
            }
            let exit = self.exit;
            self.jump(exit, span);
            return Ok(None);
        }
        if ASSUME_FUNCTIONS.contains(&name) {
            let [arg] = args.as_slice() else {
                return Err(self.error(&format!("`{name}` takes one argument"), "wrong number of arguments", span));
            };
            let (pass, fail) = (self.new_loc(), self.new_loc());
            self.cond(arg, pass, fail)?;
            // Runs where the assumption fails are cut: no edge leads to `fail`.
            self.edges.retain(|e| e.to != fail);
            self.cur = pass;
            return Ok(None);
        }
        if let Some(ty) = nondet_type(name, self.model) {
            if !args.is_empty() {
                return Err(self.error(&format!("`{name}` takes no arguments"), "wrong number of arguments", span));
            }
            if !want {
                return Ok(None);
            }
            let t = self.temp(ty);
            self.step(Stmt::Havoc(Lvalue::Var(t)), span)?;
            return Ok(Some(Val::Int(Expr::var(t, ty))));
        }
        if is_unsupported_nondet(name) {
            return Err(self.unsupported(&format!("`{name}` (a non-integer input)"), span));
        }
        let unit = self.unit();
        if let Some((u, i)) = self.prog.find_function(unit, name) {
            return self.inline(name, u, i, &args, span, want);
        }
        Ok(self.event_call(name, &args, span, want)?.map(Val::Int))
    }

    fn inline(
        &mut self,
        name: &str,
        unit: usize,
        index: usize,
        args: &[&'p Node<Expression>],
        span: Span,
        want: bool,
    ) -> Result<Option<Val>> {
        if self.frames.iter().any(|f| f.function == name && f.unit == unit) {
            let chain: Vec<&str> = self.frames.iter().map(|f| f.function.as_str()).collect();
            return Err(self
                .unsupported("recursion", span)
                .with_note(format!("call chain: {} -> {name}", chain.join(" -> "))));
        }
        let lang_c::ast::ExternalDeclaration::FunctionDefinition(def) = &self.prog.units[unit].ast.0[index].node else {
            return Err(self.error("internal error: not a function", "here", span));
        };
        let def = &def.node;
        self.enter_unit(unit)?;
        let (ret, params) = self.with_file_frame(unit, |l| l.function_signature(def))?;
        if params.len() != args.len() {
            return Err(self.error(
                &format!("`{name}` takes {} arguments, {} given", params.len(), args.len()),
                "wrong number of arguments",
                span,
            ));
        }
        match &ret {
            CType::Void | CType::Int(_) | CType::Struct(_) | CType::Ptr(_) => {}
            CType::Unsupported(what, at) => return Err(self.unsupported_in(unit, what, *at)),
            other => {
                return Err(self.unsupported_in(
                    unit,
                    &format!("a function returning {}", other.describe()),
                    def.declarator.span,
                ));
            }
        }
        self.check_unsequenced(args, span)?;
        let mut values = Vec::new();
        for (a, (t, pspan, _)) in args.iter().zip(&params) {
            let v = match t {
                CType::Int(t) => Val::Int(self.rvalue(a)?.cast(*t)),
                CType::Ptr(_) => {
                    let v = self.value_of(a)?;
                    Val::Ptr(self.to_ptr(v, t, a.span)?)
                }
                CType::Struct(_) => match self.value_of(a)? {
                    v @ Val::Struct(_) => v,
                    _ => return Err(self.error("a struct parameter needs a struct", "not a struct", a.span)),
                },
                CType::Unsupported(what, at) => return Err(self.unsupported_in(unit, what, *at)),
                _ => return Err(self.unsupported_in(unit, "a parameter of this type", *pspan)),
            };
            values.push((t.clone(), v));
        }
        let ret_loc = self.new_loc();
        let ret = match &ret {
            CType::Void => None,
            CType::Int(t) => Some(Place::Int(Lvalue::Var(self.temp(*t)), *t)),
            other => Some(self.alloc(&format!("{name}$ret"), other, false, span)?),
        };
        // Parameters are assigned at the call, in the caller's file; they are visible only in
        // the callee's scope.
        let mut bindings = Vec::new();
        for ((_, _, pname), (t, value)) in params.iter().zip(values) {
            let Some(pname) = pname else { continue };
            match value {
                Val::Int(value) => {
                    let v = self.add_var(format!("{name}.{pname}"), VarTy::Scalar(value.ty), Storage::Local);
                    self.step(Stmt::Assign(Lvalue::Var(v), value), span)?;
                    bindings.push((*pname, Binding::Var(v)));
                }
                value => {
                    let p = self.alloc(&format!("{name}.{pname}"), &t, false, span)?;
                    self.store_val(&p, value, span)?;
                    bindings.push((*pname, Binding::Obj(p)));
                }
            }
        }
        let call = self.src_span(span);
        let mut frame = FrameCtx::new(name.to_string(), unit, Some(call), ret.clone(), ret_loc);
        frame.value_used = want && ret.is_some();
        self.frames.push(frame);
        for (pname, b) in bindings {
            self.bind(pname, b);
        }
        self.stmt(&def.statement)?;
        if let Some(p) = &ret {
            // Falling off the end of a non-void function leaves the result indeterminate.
            self.havoc_place(p, def.statement.span)?;
        }
        self.fall_to(ret_loc);
        self.end_frame()?;
        self.cur = ret_loc;
        match ret {
            Some(p) if want => self.read_place(&p, span).map(Some),
            _ => Ok(None),
        }
    }

    fn end_frame(&mut self) -> Result<()> {
        let frame = self.frames.last().expect("a frame to end");
        let missing = frame.gotos.iter().find(|(label, _)| !frame.labels.get(label).is_some_and(|l| l.1)).cloned();
        let result = match missing {
            Some((label, span)) => {
                Err(self.error(&format!("label `{label}` is not defined"), "goto to an unknown label", span))
            }
            None => Ok(()),
        };
        self.frames.pop();
        result
    }

    fn family(&mut self, name: &str, ty: IntTy, span: Span) -> Result<()> {
        let range = self.prog.options.families.get(name).copied();
        if let Some((lo, hi)) = range
            && (lo > hi || !ty.contains(lo) || !ty.contains(hi))
        {
            return Err(self.error(
                &format!("the range {lo}..{hi} of event family `{name}` does not fit its C type {ty}"),
                "family used here",
                span,
            ));
        }
        match self.families.iter().find(|f| f.name == name) {
            Some(f) if f.ty != ty => Err(self.error(
                &format!("event family `{name}` is used with types {} and {ty}", f.ty),
                "used with another type here",
                span,
            )),
            Some(_) => Ok(()),
            None => {
                self.families.push(Family { name: name.to_string(), ty, range });
                Ok(())
            }
        }
    }

    fn event_call(
        &mut self,
        name: &str,
        args: &[&'p Node<Expression>],
        span: Span,
        want: bool,
    ) -> Result<Option<Expr>> {
        let unit = self.unit();
        let proto = match self.file(unit).and_then(|f| f.names.get(name)) {
            Some(FileName::Function(p)) => Some(p.clone()),
            _ => None,
        };
        // A call without arguments receives when the spec declares the family or the prototype
        // says the function returns a value, even if the value is then discarded.
        let receives = self.prog.options.families.contains_key(name)
            || matches!(proto.as_ref().map(|p| &p.ret), Some(CType::Int(_)));
        if let Some(ps) = proto.as_ref().and_then(|p| p.params.as_ref())
            && ps.len() != args.len()
        {
            return Err(self.error(
                &format!("`{name}` is declared with {} parameters, {} arguments given", ps.len(), args.len()),
                "wrong number of arguments",
                span,
            ));
        }
        match (args, want) {
            ([], false) if !receives => {
                self.plain_events.push((name.to_string(), span, unit));
                self.step(Stmt::Event(Event::Plain(name.to_string())), span)?;
                Ok(None)
            }
            ([], _) => {
                let ty = match proto.as_ref().map(|p| &p.ret) {
                    None => IntTy::I32,
                    Some(CType::Int(t)) => *t,
                    Some(CType::Void) if !want => IntTy::I32,
                    Some(CType::Void) => {
                        return Err(self.error(
                            &format!("event `{name}` returns void but its value is used"),
                            "used as a value",
                            span,
                        ));
                    }
                    Some(_) => return Err(self.unsupported(&format!("the return type of `{name}`"), span)),
                };
                self.family(name, ty, span)?;
                if !want {
                    self.step(Stmt::Event(Event::Recv(name.to_string(), None)), span)?;
                    return Ok(None);
                }
                let t = self.temp(ty);
                self.step(Stmt::Event(Event::Recv(name.to_string(), Some(Lvalue::Var(t)))), span)?;
                Ok(Some(Expr::var(t, ty)))
            }
            ([arg], false) => {
                let v = match self.value_of(arg)? {
                    Val::Ptr(_) => {
                        return Err(self.unsupported(
                            &format!("a pointer passed to the event `{name}` (it would escape the component)"),
                            arg.span,
                        ));
                    }
                    v => self.to_int(v, arg.span)?,
                };
                let ty = match proto.as_ref().and_then(|p| p.params.as_ref()) {
                    Some(ps) if ps.len() == 1 => match &ps[0] {
                        CType::Int(t) => *t,
                        _ => return Err(self.unsupported(&format!("the parameter type of `{name}`"), span)),
                    },
                    Some(ps) => {
                        return Err(self.error(
                            &format!("`{name}` is declared with {} parameters", ps.len()),
                            "one argument given",
                            span,
                        ));
                    }
                    None => v.ty.promoted(),
                };
                self.family(name, ty, span)?;
                let v = v.cast(ty);
                if let Some((lo, hi)) = self.prog.options.families.get(name).copied() {
                    let ok = and(cmp(BinOp::Ge, v.clone(), lo), cmp(BinOp::Le, v.clone(), hi));
                    self.check(ok, Fault::EventOutOfRange, span)?;
                }
                self.step(Stmt::Event(Event::Send(name.to_string(), v)), span)?;
                Ok(None)
            }
            ([_], true) => Err(self.unsupported("an event with an argument whose result is used", span)),
            _ => Err(self.unsupported("an event call with more than one argument", span)),
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
