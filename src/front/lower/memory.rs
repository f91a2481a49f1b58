//! Structs, unions and pointers, lowered to the IR's integer scalars and arrays.
//!
//! Structs are *flattened*: a struct variable is one IR variable per member (`s.f`, members of
//! members `s.in.g`), an array of structs is one IR array per member (`a.f[i]`), and struct
//! assignment, struct parameters and struct results copy member by member. A union is accepted
//! only when all its members have one type, so that every member is the same IR place; any
//! other union needs a byte-level memory model and is rejected.
//!
//! A pointer is two IR integers: an *object tag* (`p$obj`, `u32`: 0 is `NULL`, 1 an
//! indeterminate pointer, 2.. the objects below) and an *element offset* (`p$off`, `i64`).
//! Objects are the variables (scalars, arrays, structs, arrays of structs) whose address the
//! component takes, numbered in the order the lowering meets them.
//!
//! Points-to analysis: type-based and flow-insensitive over the inlined component (in the spirit
//! of Diwan, McKinley and Moss's type-based alias analysis, 1998). Every function is inlined, so
//! the component is one body; it is lowered twice. The first pass collects every object whose
//! address is taken anywhere; the second resolves each dereference of a pointer to `T` to the
//! finite set of those objects whose elements have type `T`. The tag, a variable of the IR,
//! keeps every run exact: the set only bounds the case split of a dereference, which branches
//! on the tag (one `assume obj == k` edge per candidate) after a `check` edge that the tag is one
//! of the candidates and the offset lies inside it (a null, indeterminate or out-of-object
//! dereference is undefined behaviour, reported like a division by zero). Pointer arithmetic
//! whose result is a value of its own (`p + i`, `p++`, not the index of `p[i]`) is checked the
//! same way against `0..=len`: a pointer beyond one past the end is undefined even unused.
//!
//! Lifetimes: an object with automatic storage that can end before the component does (a local
//! of an inner block or of a called function, a parameter) has a flag, a `u8` global
//! `x$live` set to 1 where its address is taken by name (`&x`, an array decaying) and cleared
//! where its block or its function is left: at the end of the block, at a `break`, `continue`
//! or `goto` that leaves it (a `goto` to a label not lowered yet waits at a location of its own
//! until the label is), and after the call returns. A dereference of the object checks its flag
//! too, so a dangling pointer is an `invalid_pointer` fault (C11 6.2.4p2). A pass gives the
//! flags to the objects the previous pass found, numbered after every other variable, so that
//! the objects' variables keep their ids.
//!
//! Invariants:
//! - both passes create the same variables in the same order: a dereference creates the same
//!   temporaries whatever its candidate set, so the objects of the first pass (which name IR
//!   variables) are valid in the second; the second pass checks that it met the same objects;
//! - a pointer is never converted to or from an integer, and never passed to an event.
//!
//! Known weaknesses:
//! - candidate sets are by type, larger than an Andersen-style analysis would give, so a
//!   dereference has more branches than needed (never fewer);
//! - pointers to pointers, arrays of pointers, function pointers, `?:` between pointers and the
//!   address of a struct nested in an array of structs are rejected;
//! - a lifetime flag belongs to the object of a source location, not to one activation: a
//!   pointer kept from an earlier iteration of a block (or an earlier call from one call site)
//!   is not caught when the new activation takes the address again before the pointer is read
//!   (gcc reuses the slot, but C leaves the read undefined);
//! - signed and unsigned variants of one type are not aliases here (C allows it): a pointer to
//!   `int` into an `unsigned` object is reported as an invalid dereference, never silently read.

use std::rc::Rc;

use lang_c::ast::{Designator, Expression, Initializer, MemberOperator, UnaryOperator};
use lang_c::span::{Node, Span};

use super::{Binding, Lowerer, Result, and, cmp, or};
use crate::front::ctype::{CType, StructDef};
use crate::ir::{BinOp, Expr, ExprKind, Fault, IntTy, Lvalue, Stmt, Storage, VarDecl, VarId, VarTy};

/// The type of a pointer's object tag.
pub(super) const TAG: IntTy = IntTy::U32;
/// The type of a pointer's element offset.
pub(super) const OFF: IntTy = IntTy::I64;
/// The tag of a null pointer.
const NULL_TAG: i128 = 0;
/// The tag of an uninitialised pointer: no object has it.
const INDETERMINATE_TAG: i128 = 1;
/// The tag of the first object.
const FIRST_TAG: i128 = 2;

/// Where a C object lives in the IR.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Place {
    /// An integer: a scalar variable or one array element.
    Int(Lvalue, IntTy),
    /// A pointer: the places of its tag and offset.
    Ptr { pointee: CType, tag: Lvalue, off: Lvalue },
    /// An array of integers (not indexed).
    IntArray(VarId, IntTy, u32),
    /// An array of pointers inside an array of structs: one tag array and one offset array.
    PtrArray { pointee: CType, tag: VarId, off: VarId, len: u32 },
    /// A struct or union: its members' places in order (a union's members share one place).
    Struct(Rc<StructDef>, Vec<Place>),
    /// An array of structs: its members' places, each an array (or a struct of arrays).
    StructArray(Rc<StructDef>, u32, Vec<Place>),
    /// One element of a [`Place::StructArray`], at an index already checked.
    StructElem(Box<Place>, Expr),
    /// One of several places, the first whose guard holds: a dereference of a pointer that may
    /// point to several objects. The guards are pure and exclusive.
    Choice(Vec<(Expr, Place)>),
    /// What a pointer with no candidate object points to, while the objects are not all known
    /// yet (a first lowering pass); reading it gives an arbitrary value, writing does nothing.
    Nowhere(CType),
}

/// A value of any supported type.
#[derive(Clone, Debug)]
pub(super) enum Val {
    /// An integer.
    Int(Expr),
    /// A pointer.
    Ptr(PtrVal),
    /// A struct, by the place that holds it (copied member by member where it is stored).
    Struct(Place),
}

/// A pointer value: pure expressions for its tag and offset.
#[derive(Clone, Debug)]
pub(super) struct PtrVal {
    pub(super) pointee: CType,
    pub(super) tag: Expr,
    pub(super) off: Expr,
}

impl PtrVal {
    fn null(pointee: CType) -> PtrVal {
        PtrVal { pointee, tag: Expr::constant(NULL_TAG, TAG), off: Expr::constant(0, OFF) }
    }
}

/// An object whose address the component takes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Object {
    /// The whole object: a scalar, an array, a struct or an array of structs.
    place: Place,
    /// The type of its elements (the object's own type if it is not an array).
    elem: CType,
    /// Number of elements.
    len: u32,
}

impl Object {
    /// The first IR variable of the object, which identifies it.
    pub(super) fn first_var(&self) -> Option<VarId> {
        first_var(&self.place)
    }
}

/// The type of the values a place holds.
pub(super) fn place_ty(p: &Place) -> CType {
    match p {
        Place::Int(_, t) => CType::Int(*t),
        Place::Ptr { pointee, .. } => CType::Ptr(Box::new(pointee.clone())),
        Place::IntArray(_, t, n) => CType::Array(*t, *n),
        Place::PtrArray { pointee, .. } => CType::Ptr(Box::new(pointee.clone())),
        Place::Struct(sd, _) => CType::Struct(sd.clone()),
        Place::StructArray(sd, n, _) => CType::StructArray(sd.clone(), *n),
        Place::StructElem(arr, _) => match &**arr {
            Place::StructArray(sd, ..) => CType::Struct(sd.clone()),
            _ => CType::Void,
        },
        Place::Choice(alts) => alts.first().map_or(CType::Void, |(_, p)| place_ty(p)),
        Place::Nowhere(t) => t.clone(),
    }
}

/// Element `idx` of a member place of an array of structs.
fn index_leaf(p: &Place, idx: &Expr) -> Place {
    match p {
        Place::IntArray(v, t, _) => Place::Int(Lvalue::Elem(*v, idx.clone()), *t),
        Place::PtrArray { pointee, tag, off, .. } => Place::Ptr {
            pointee: pointee.clone(),
            tag: Lvalue::Elem(*tag, idx.clone()),
            off: Lvalue::Elem(*off, idx.clone()),
        },
        Place::Struct(sd, fs) => Place::Struct(sd.clone(), fs.iter().map(|f| index_leaf(f, idx)).collect()),
        Place::Choice(alts) => Place::Choice(alts.iter().map(|(g, p)| (g.clone(), index_leaf(p, idx))).collect()),
        Place::Nowhere(CType::Array(t, _)) => Place::Nowhere(CType::Int(*t)),
        other => other.clone(),
    }
}

/// A struct's definition and its members' places.
type Members = (Rc<StructDef>, Vec<Place>);

/// The member places of a struct place, or `None` if it is not a struct.
fn members(p: &Place) -> Option<Members> {
    match p {
        Place::Nowhere(CType::Struct(sd)) => {
            Some((sd.clone(), sd.fields.iter().map(|(_, t)| Place::Nowhere(t.clone())).collect()))
        }
        Place::Struct(sd, fs) => Some((sd.clone(), fs.clone())),
        Place::StructElem(arr, idx) => match &**arr {
            Place::StructArray(sd, _, fs) => Some((sd.clone(), fs.iter().map(|f| index_leaf(f, idx)).collect())),
            _ => None,
        },
        Place::Choice(alts) => {
            let per_alt: Vec<(Expr, Members)> =
                alts.iter().map(|(g, p)| members(p).map(|m| (g.clone(), m))).collect::<Option<_>>()?;
            let (sd, first) = per_alt.first().map(|(_, m)| m.clone())?;
            let fields = (0..first.len())
                .map(|i| Place::Choice(per_alt.iter().map(|(g, (_, fs))| (g.clone(), fs[i].clone())).collect()))
                .collect();
            Some((sd, fields))
        }
        _ => None,
    }
}

/// Whether objects with elements of type `elem` may be pointed to by a pointer to `pointee`.
fn compatible(pointee: &CType, elem: &CType) -> bool {
    match (pointee, elem) {
        (CType::Int(a), CType::Int(b)) => a == b,
        (CType::Struct(a), CType::Struct(b)) => a == b,
        (CType::Incomplete(tag), CType::Struct(b)) => *tag == b.name,
        _ => false,
    }
}

/// The first IR variable of a place, which identifies an object together with its type.
fn first_var(p: &Place) -> Option<VarId> {
    match p {
        Place::Int(lv, _) => Some(lv.var()),
        Place::Ptr { tag, .. } => Some(tag.var()),
        Place::IntArray(v, ..) => Some(*v),
        Place::PtrArray { tag, .. } => Some(*tag),
        Place::Struct(_, fs) | Place::StructArray(_, _, fs) => fs.first().and_then(first_var),
        Place::StructElem(arr, _) => first_var(arr),
        Place::Choice(_) | Place::Nowhere(_) => None,
    }
}

impl<'p> Lowerer<'p> {
    // ----- types -----

    /// The struct or union a specifier defines or names; defines its tag in the current scope.
    pub(super) fn struct_type(&mut self, st: &'p lang_c::ast::StructType, span: Span) -> Result<CType> {
        let result = self.struct_type_inner(st, span);
        if let (Err(d), Some(id), Some(_)) = (&result, &st.identifier, &st.declarations) {
            // A header may define structs subst cannot lower; only a use of one is an error.
            let keyword = if st.kind.node == lang_c::ast::StructKind::Union { "union" } else { "struct" };
            let what = d.message.trim_start_matches("unsupported construct: ").to_string();
            self.define_tag(&format!("{keyword} {}", id.node.name), CType::Unsupported(what, span));
        }
        result
    }

    fn struct_type_inner(&mut self, st: &'p lang_c::ast::StructType, span: Span) -> Result<CType> {
        let union = st.kind.node == lang_c::ast::StructKind::Union;
        let keyword = if union { "union" } else { "struct" };
        let tag = st.identifier.as_ref().map(|i| format!("{keyword} {}", i.node.name));
        let Some(decls) = &st.declarations else {
            let Some(tag) = tag else { return Err(self.unsupported("an anonymous struct without members", span)) };
            return Ok(match self.lookup(&tag) {
                Some(Binding::Typedef(t)) => t,
                _ => CType::Incomplete(tag),
            });
        };
        let name = tag.clone().unwrap_or_else(|| format!("{keyword} <anonymous at {}>", self.src_span(span)));
        let mut fields = Vec::new();
        for d in decls {
            let lang_c::ast::StructDeclaration::Field(f) = &d.node else { continue };
            let mut other = None;
            for s in super::ctype::qualifier_specifiers(&f.node.specifiers) {
                match &s.node {
                    lang_c::ast::TypeSpecifier::Enum(e) => other = Some(self.enum_type(&e.node, s.span)?),
                    lang_c::ast::TypeSpecifier::TypedefName(id) => {
                        other = Some(self.typedef_type(&id.node.name, s.span)?)
                    }
                    lang_c::ast::TypeSpecifier::Struct(inner) => other = Some(self.struct_type(&inner.node, s.span)?),
                    _ => {}
                }
            }
            let base = super::ctype::keyword_type(
                super::ctype::qualifier_specifiers(&f.node.specifiers),
                self.model,
                other,
                f.span,
            );
            if f.node.declarators.is_empty() {
                return Err(self.unsupported("an anonymous struct or union member", f.span));
            }
            for sd in &f.node.declarators {
                if let Some(w) = &sd.node.bit_width {
                    return Err(self.unsupported("a bit-field", w.span));
                }
                let Some(decl) = &sd.node.declarator else { continue };
                let fname = super::ctype::declarator_name(&decl.node).unwrap_or("").to_string();
                let ty = match super::ctype::apply_declarator(base.clone(), &decl.node, &mut |e| self.array_size(e))? {
                    super::ctype::Declared::Object(t) => t,
                    super::ctype::Declared::Function(f) => CType::Unsupported("a function member".into(), f.span),
                };
                match &ty {
                    CType::Unsupported(what, at) => return Err(self.unsupported(what, *at)),
                    CType::Void => return Err(self.error("a member of type void", "here", sd.span)),
                    CType::Incomplete(t) => {
                        return Err(self.unsupported(&format!("a member of the incomplete type `{t}`"), sd.span));
                    }
                    _ => {}
                }
                fields.push((fname, ty));
            }
        }
        if fields.is_empty() {
            return Err(self.unsupported("a struct or union without members", span));
        }
        if union && fields.iter().any(|(_, t)| *t != fields[0].1) {
            return Err(self
                .unsupported("a union whose members have different types (it needs a byte-level memory model)", span)
                .with_note("reading one member after writing another needs a byte-level memory model"));
        }
        let ty = CType::Struct(Rc::new(StructDef { name, union, fields }));
        if let Some(tag) = tag {
            self.define_tag(&tag, ty.clone());
        }
        Ok(ty)
    }

    /// Binds a struct tag (`struct q`) in the current scope, or at file scope outside functions.
    fn define_tag(&mut self, tag: &str, ty: CType) {
        if self.frames.last().is_some_and(|f| f.function.is_empty()) {
            let unit = self.unit();
            self.file_mut(unit).names.insert(tag.to_string(), super::FileName::Typedef(ty));
        } else {
            self.bind(tag, Binding::Typedef(ty));
        }
    }

    /// The size and alignment of a type in bytes, as gcc lays it out.
    pub(super) fn size_align(&self, t: &CType) -> Option<(i128, i128)> {
        Some(match t {
            CType::Int(t) => {
                let b = (t.bits as i128 / 8).max(1);
                (b, b)
            }
            CType::Array(t, n) => {
                let b = (t.bits as i128 / 8).max(1);
                (b * *n as i128, b)
            }
            CType::Ptr(_) => {
                let b = self.model.long_bits() as i128 / 8;
                (b, b)
            }
            CType::Struct(sd) => self.struct_layout(sd)?,
            CType::StructArray(sd, n) => {
                let (s, a) = self.struct_layout(sd)?;
                (s * *n as i128, a)
            }
            _ => return None,
        })
    }

    fn struct_layout(&self, sd: &StructDef) -> Option<(i128, i128)> {
        let (mut size, mut align) = (0i128, 1i128);
        for (_, t) in &sd.fields {
            let (s, a) = self.size_align(t)?;
            align = align.max(a);
            if sd.union {
                size = size.max(s);
            } else {
                size = (size + a - 1) / a * a + s;
            }
        }
        Some(((size + align - 1) / align * align, align))
    }

    // ----- allocation -----

    /// Creates the IR variables of an object of type `ty` named `name`: globals (zero) or locals.
    pub(super) fn alloc(&mut self, name: &str, ty: &CType, global: bool, span: Span) -> Result<Place> {
        let leaf = |l: &mut Self, name: String, vty: VarTy| -> VarId {
            let storage =
                if global { Storage::Global { init: vec![0; vty.n_elems() as usize] } } else { Storage::Local };
            l.add_var(name, vty, storage)
        };
        Ok(match ty {
            CType::Int(t) => Place::Int(Lvalue::Var(leaf(self, name.to_string(), VarTy::Scalar(*t))), *t),
            CType::Array(t, n) => Place::IntArray(leaf(self, name.to_string(), VarTy::Array(*t, *n)), *t, *n),
            CType::Ptr(p) => {
                let tag = leaf(self, format!("{name}$obj"), VarTy::Scalar(TAG));
                let off = leaf(self, format!("{name}$off"), VarTy::Scalar(OFF));
                Place::Ptr { pointee: (**p).clone(), tag: Lvalue::Var(tag), off: Lvalue::Var(off) }
            }
            CType::Struct(sd) => {
                let mut fields: Vec<Place> = Vec::new();
                for (i, (f, t)) in sd.fields.iter().enumerate() {
                    if sd.union && i > 0 {
                        fields.push(fields[0].clone());
                        continue;
                    }
                    fields.push(self.alloc(&format!("{name}.{f}"), t, global, span)?);
                }
                Place::Struct(sd.clone(), fields)
            }
            CType::StructArray(sd, n) => {
                let fields = self.alloc_struct_arrays(name, sd, *n, global, span)?;
                Place::StructArray(sd.clone(), *n, fields)
            }
            CType::Void => return Err(self.error("a variable of type void", "declared here", span)),
            CType::Incomplete(t) => return Err(self.unsupported(&format!("a variable of incomplete type `{t}`"), span)),
            CType::Unsupported(what, at) => return Err(self.unsupported(what, *at)),
        })
    }

    /// The member arrays of an array of `n` structs.
    fn alloc_struct_arrays(
        &mut self,
        name: &str,
        sd: &Rc<StructDef>,
        n: u32,
        global: bool,
        span: Span,
    ) -> Result<Vec<Place>> {
        let mut fields: Vec<Place> = Vec::new();
        for (i, (f, t)) in sd.fields.iter().enumerate() {
            if sd.union && i > 0 {
                fields.push(fields[0].clone());
                continue;
            }
            let name = format!("{name}.{f}");
            let storage = |vty: VarTy| {
                if global { Storage::Global { init: vec![0; vty.n_elems() as usize] } } else { Storage::Local }
            };
            let p = match t {
                CType::Int(t) => {
                    let vty = VarTy::Array(*t, n);
                    Place::IntArray(self.add_var(name, vty, storage(vty)), *t, n)
                }
                CType::Ptr(p) => {
                    let vty = VarTy::Array(TAG, n);
                    let tag = self.add_var(format!("{name}$obj"), vty, storage(vty));
                    let vty = VarTy::Array(OFF, n);
                    let off = self.add_var(format!("{name}$off"), vty, storage(vty));
                    Place::PtrArray { pointee: (**p).clone(), tag, off, len: n }
                }
                CType::Struct(inner) => {
                    Place::Struct(inner.clone(), self.alloc_struct_arrays(&name, inner, n, global, span)?)
                }
                _ => {
                    return Err(
                        self.unsupported("an array member in an array of structs (a multi-dimensional array)", span)
                    );
                }
            };
            fields.push(p);
        }
        Ok(fields)
    }

    /// Declares a local or `static` object of a struct or pointer type and initialises it.
    pub(super) fn declare_object(
        &mut self,
        name: &str,
        ty: &CType,
        init: Option<&'p Node<Initializer>>,
        is_static: bool,
        span: Span,
    ) -> Result<()> {
        if is_static {
            let unit = self.unit();
            if let Some(p) = self.static_places.get(&(unit, span.start)).cloned() {
                self.bind(name, Binding::Obj(p));
                return Ok(());
            }
            let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
            let p = self.alloc(&format!("{f}.{name}"), ty, true, span)?;
            self.with_file_frame(unit, |l| l.static_init(&p, init))?;
            self.static_places.insert((unit, span.start), p.clone());
            self.bind(name, Binding::Obj(p));
            return Ok(());
        }
        let f = self.frames.last().map_or(String::new(), |f| f.function.clone());
        let p = self.alloc(&format!("{f}.{name}"), ty, false, span)?;
        self.bind(name, Binding::Obj(p.clone()));
        match init {
            None => self.havoc_place(&p, span),
            Some(i) => {
                let mut items = Vec::new();
                self.init_items(&p, Some(i), &mut items)?;
                for (leaf, e) in items {
                    match e {
                        Some(e) => {
                            let v = self.value_of(e)?;
                            self.store_val(&leaf, v, span)?;
                        }
                        None => self.zero(&leaf, span)?,
                    }
                }
                Ok(())
            }
        }
    }

    /// Gives every integer of a place an arbitrary value; pointers become indeterminate.
    pub(super) fn havoc_place(&mut self, p: &Place, span: Span) -> Result<()> {
        match p {
            Place::Int(lv, _) => self.step(Stmt::Havoc(lv.clone()), span),
            Place::IntArray(v, ..) => self.step(Stmt::Havoc(Lvalue::Var(*v)), span),
            Place::Ptr { .. } => {
                let v = PtrVal {
                    pointee: CType::Void,
                    tag: Expr::constant(INDETERMINATE_TAG, TAG),
                    off: Expr::constant(0, OFF),
                };
                self.store_val(p, Val::Ptr(v), span)
            }
            Place::PtrArray { tag, off, len, .. } => {
                for i in 0..*len {
                    let at = Expr::constant(i as i128, IntTy::I32);
                    self.step(
                        Stmt::Assign(Lvalue::Elem(*tag, at.clone()), Expr::constant(INDETERMINATE_TAG, TAG)),
                        span,
                    )?;
                    self.step(Stmt::Havoc(Lvalue::Elem(*off, at)), span)?;
                }
                Ok(())
            }
            Place::Struct(sd, fs) | Place::StructArray(sd, _, fs) => {
                for f in fs.iter().take(if sd.union { 1 } else { fs.len() }) {
                    self.havoc_place(f, span)?;
                }
                Ok(())
            }
            Place::StructElem(..) | Place::Choice(_) | Place::Nowhere(_) => Ok(()),
        }
    }

    /// Stores C's zero of the place's type.
    fn zero(&mut self, p: &Place, span: Span) -> Result<()> {
        match place_ty(p) {
            CType::Int(t) => self.store_val(p, Val::Int(Expr::constant(0, t)), span),
            CType::Ptr(t) => self.store_val(p, Val::Ptr(PtrVal::null(*t)), span),
            _ => {
                let mut items = Vec::new();
                self.init_items(p, None, &mut items)?;
                for (leaf, _) in items {
                    self.zero(&leaf, span)?;
                }
                Ok(())
            }
        }
    }

    /// The scalar (integer, pointer) or struct leaves of `p` with the initialiser expression of
    /// each (`None`: C's zero), following `init` member by member and element by element.
    fn init_items(
        &self,
        p: &Place,
        init: Option<&'p Node<Initializer>>,
        out: &mut Vec<(Place, Option<&'p Node<Expression>>)>,
    ) -> Result<()> {
        let scalar = matches!(p, Place::Int(..) | Place::Ptr { .. });
        match init.map(|i| &i.node) {
            None if scalar => out.push((p.clone(), None)),
            Some(Initializer::Expression(e)) if scalar || matches!(p, Place::Struct(..)) => {
                out.push((p.clone(), Some(e)))
            }
            Some(Initializer::Expression(e)) => {
                return Err(self.unsupported("an array initialised from an expression (a string?)", e.span));
            }
            Some(Initializer::List(items)) if scalar => match items.as_slice() {
                [one] if one.node.designation.is_empty() => self.init_items(p, Some(&one.node.initializer), out)?,
                _ => {
                    return Err(self.error(
                        "too many initialisers for a scalar",
                        "here",
                        init.map_or(Span::none(), |i| i.span),
                    ));
                }
            },
            _ => {
                // An aggregate: its element places.
                let elems: Vec<Place> = match p {
                    Place::IntArray(v, t, n) => (0..*n)
                        .map(|i| Place::Int(Lvalue::Elem(*v, Expr::constant(i as i128, IntTy::I32)), *t))
                        .collect(),
                    Place::StructArray(_, n, _) => (0..*n)
                        .map(|i| Place::StructElem(Box::new(p.clone()), Expr::constant(i as i128, IntTy::I32)))
                        .collect(),
                    Place::Struct(sd, fs) => fs.iter().take(if sd.union { 1 } else { fs.len() }).cloned().collect(),
                    Place::StructElem(..) => members(p).map(|(_, fs)| fs).unwrap_or_default(),
                    other => {
                        return Err(self.error(
                            &format!("cannot initialise {}", place_ty(other).describe()),
                            "here",
                            Span::none(),
                        ));
                    }
                };
                let mut given: Vec<Option<&'p Node<Initializer>>> = vec![None; elems.len()];
                if let Some(Initializer::List(items)) = init.map(|i| &i.node) {
                    let mut pos = 0usize;
                    for item in items {
                        if let Some(d) = item.node.designation.first() {
                            pos = match (&d.node, p) {
                                (Designator::Member(m), Place::Struct(..) | Place::StructElem(..)) => {
                                    let sd = match p {
                                        Place::Struct(sd, _) => sd.clone(),
                                        _ => members(p).map(|m| m.0).expect("a struct element"),
                                    };
                                    sd.field(&m.node.name).ok_or_else(|| {
                                        self.error(
                                            &format!("no member `{}` in {}", m.node.name, sd.name),
                                            "here",
                                            d.span,
                                        )
                                    })?
                                }
                                (Designator::Index(e), Place::IntArray(..) | Place::StructArray(..)) => {
                                    let (v, _) = self.const_value_ro(e)?;
                                    usize::try_from(v).map_err(|_| self.error("negative index", "here", e.span))?
                                }
                                _ => return Err(self.unsupported("this designated initialiser", d.span)),
                            };
                            if item.node.designation.len() > 1 {
                                return Err(self.unsupported("a nested designator", d.span));
                            }
                        }
                        if pos >= elems.len() {
                            return Err(self.error("too many initialisers", "more values than elements", item.span));
                        }
                        given[pos] = Some(&item.node.initializer);
                        pos += 1;
                    }
                }
                for (e, g) in elems.iter().zip(given) {
                    self.init_items(e, g, out)?;
                }
            }
        }
        Ok(())
    }

    /// A constant expression evaluated without a mutable lowerer (designator indices).
    fn const_value_ro(&self, e: &'p Node<Expression>) -> Result<(i128, IntTy)> {
        match &e.node {
            Expression::Constant(c) => {
                let v = self.constant(&c.node, c.span)?;
                Ok((v.as_const().unwrap_or(0), v.ty))
            }
            _ => Err(self.unsupported("a designator that is not a literal", e.span)),
        }
    }

    /// Writes the static initialiser of a global or `static` object into its variables' initial
    /// values.
    pub(super) fn static_init(&mut self, p: &Place, init: Option<&'p Node<Initializer>>) -> Result<()> {
        if init.is_none() {
            return Ok(());
        }
        let mut items = Vec::new();
        self.init_items(p, init, &mut items)?;
        for (leaf, e) in items {
            let Some(e) = e else { continue };
            match &leaf {
                Place::Int(lv, t) => {
                    let v = t.convert(self.const_value(e)?.0);
                    self.set_init(lv, v, e.span)?;
                }
                Place::Ptr { tag, off, .. } => {
                    let (edges, vars) = (self.edges.len(), self.vars.len());
                    let saved = std::mem::replace(&mut self.const_mode, false);
                    let v = self.value_of(e);
                    self.const_mode = saved;
                    let v = v?;
                    let pv = self.to_ptr(v, &place_ty(&leaf), e.span)?;
                    match (pv.tag.as_const(), pv.off.as_const()) {
                        (Some(t), Some(o)) if self.edges.len() == edges && self.vars.len() == vars => {
                            self.set_init(tag, t, e.span)?;
                            self.set_init(off, o, e.span)?;
                        }
                        _ => return Err(self.error("not a constant address", "must be known at compile time", e.span)),
                    }
                }
                _ => {
                    return Err(
                        self.unsupported("a struct initialised from an expression in a static initialiser", e.span)
                    );
                }
            }
        }
        Ok(())
    }

    fn set_init(&mut self, lv: &Lvalue, value: i128, span: Span) -> Result<()> {
        let idx = match lv {
            Lvalue::Var(_) => 0,
            Lvalue::Elem(_, e) => e.as_const().unwrap_or(-1),
        };
        let VarDecl { storage: Storage::Global { init }, .. } = &mut self.vars[lv.var().index()] else {
            return Err(self.error("internal error: a static initialiser for a local", "here", span));
        };
        match usize::try_from(idx).ok().and_then(|i| init.get_mut(i)) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(self.error("internal error: initialiser index", "here", span)),
        }
    }

    // ----- places -----

    /// The place an lvalue expression designates.
    pub(super) fn place(&mut self, e: &'p Node<Expression>) -> Result<Place> {
        match &e.node {
            Expression::Identifier(id) => {
                let name = &id.node.name;
                match self.lookup(name) {
                    Some(Binding::Var(v)) => Ok(match self.var_ty(v) {
                        VarTy::Scalar(t) => Place::Int(Lvalue::Var(v), t),
                        VarTy::Array(t, n) => Place::IntArray(v, t, n),
                    }),
                    Some(Binding::Obj(p)) => Ok(p),
                    Some(Binding::Unusable(what)) => Err(self.unsupported(&what, e.span)),
                    Some(Binding::Global(g)) => self.global_place(&g, e.span),
                    Some(_) => Err(self.error(&format!("`{name}` is not an object"), "not a variable", e.span)),
                    None => Err(self.undeclared(name, e.span)),
                }
            }
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.place(&m.node.expression)?,
                    MemberOperator::Indirect => {
                        let p = self.value_of(&m.node.expression)?;
                        let p = self.to_ptr(p, &CType::Ptr(Box::new(CType::Void)), m.node.expression.span)?;
                        self.deref(p, &m.node.expression, e.span)?
                    }
                };
                let field = &m.node.identifier.node.name;
                let Some((sd, fs)) = members(&base) else {
                    return Err(self.error(
                        &format!("`.{field}` of a value of type {}", place_ty(&base).describe()),
                        "not a struct or union",
                        e.span,
                    ));
                };
                match sd.field(field) {
                    Some(i) => Ok(fs[i].clone()),
                    None => Err(self.error(&format!("{} has no member `{field}`", sd.name), "no such member", e.span)),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.value_of(&u.node.operand)?;
                let p = self.to_ptr(p, &CType::Ptr(Box::new(CType::Void)), u.node.operand.span)?;
                self.deref(p, &u.node.operand, e.span)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == lang_c::ast::BinaryOperator::Index => {
                let (base, index) = (&b.node.lhs, &b.node.rhs);
                let base_place = match &base.node {
                    Expression::Identifier(_) | Expression::Member(_) => Some(self.place(base)?),
                    Expression::BinaryOperator(x) if x.node.operator.node == lang_c::ast::BinaryOperator::Index => {
                        Some(self.place(base)?)
                    }
                    _ => None,
                };
                match base_place {
                    Some(Place::Ptr { .. }) | None => {
                        self.check_unsequenced(&[base, index], e.span)?;
                        let p = self.value_of(base)?;
                        let p = self.to_ptr(p, &CType::Ptr(Box::new(CType::Void)), base.span)?;
                        let i = self.rvalue(index)?;
                        let moved = self.ptr_offset(p, i, BinOp::Add);
                        self.deref(moved, base, e.span)
                    }
                    Some(arr) => {
                        self.check_unsequenced(&[base, index], e.span)?;
                        let i = self.rvalue(index)?;
                        self.index_place(arr, i, base.span, e.span)
                    }
                }
            }
            _ => Err(self.error("not assignable", "not an lvalue", e.span)),
        }
    }

    /// Element `i` of an array place, after a bounds check.
    fn index_place(&mut self, arr: Place, i: Expr, base_span: Span, span: Span) -> Result<Place> {
        let i = i.clone().cast(i.ty.promoted());
        let len = match &arr {
            Place::IntArray(_, _, n) | Place::StructArray(_, n, _) | Place::PtrArray { len: n, .. } => *n,
            Place::Nowhere(CType::Array(_, n) | CType::StructArray(_, n)) => *n,
            Place::Choice(alts) => match alts.first().map(|(_, p)| p) {
                Some(Place::IntArray(_, _, n) | Place::StructArray(_, n, _)) => *n,
                _ => return Err(self.error("not an array", "indexed here", base_span)),
            },
            _ => return Err(self.error("not an array", "indexed here", base_span)),
        };
        let in_bounds = if i.ty.signed {
            and(cmp(BinOp::Ge, i.clone(), 0), cmp(BinOp::Lt, i.clone(), len as i128))
        } else {
            cmp(BinOp::Lt, i.clone(), len as i128)
        };
        self.check(in_bounds, Fault::IndexOutOfBounds, span)?;
        Ok(Self::at_index(arr, &i))
    }

    fn at_index(arr: Place, i: &Expr) -> Place {
        match arr {
            Place::Nowhere(CType::Array(t, _)) => Place::Nowhere(CType::Int(t)),
            Place::Nowhere(CType::StructArray(sd, _)) => Place::Nowhere(CType::Struct(sd)),
            Place::StructArray(..) => Place::StructElem(Box::new(arr), i.clone()),
            Place::Choice(alts) => Place::Choice(alts.into_iter().map(|(g, p)| (g, Self::at_index(p, i))).collect()),
            other => index_leaf(&other, i),
        }
    }

    /// The global `name` (seen from the current file) as a place.
    pub(super) fn global_place(&mut self, name: &str, span: Span) -> Result<Place> {
        if self.const_mode {
            return Err(self.error("not a constant expression", "reads a variable", span));
        }
        let here = self.unit();
        let unit = self.defining_unit(here, name, span)?;
        if let Some(p) = self.global_places.get(&(unit, name.to_string())) {
            return Ok(p.clone());
        }
        let (ty, init, decl_span) = match self.file(unit).and_then(|f| f.names.get(name)) {
            Some(super::FileName::Global { ty, init, span, .. }) => (ty.clone(), *init, *span),
            _ => return Err(self.error(&format!("`{name}` is not a variable"), "not declared as a variable", span)),
        };
        if let CType::Int(_) | CType::Array(..) = ty {
            let v = self.global_var(name, span)?;
            return Ok(match self.var_ty(v) {
                VarTy::Scalar(t) => Place::Int(Lvalue::Var(v), t),
                VarTy::Array(t, n) => Place::IntArray(v, t, n),
            });
        }
        let p = self.with_file_frame(unit, |l| l.alloc(name, &ty, true, decl_span))?;
        self.global_places.insert((unit, name.to_string()), p.clone());
        if let Some(super::FileName::Global { constant: true, .. }) = self.file(unit).and_then(|f| f.names.get(name)) {
            self.const_vars.extend(place_vars(&p));
        }
        self.with_file_frame(unit, |l| l.static_init(&p, init))?;
        Ok(p)
    }

    // ----- values -----

    /// Reads a place as a value: integers and pointers are read (through a temporary when
    /// the place is a choice), arrays decay to a pointer to their first element, structs stay
    /// places.
    pub(super) fn read_place(&mut self, p: &Place, span: Span) -> Result<Val> {
        Ok(match p {
            Place::Int(lv, t) => Val::Int(Self::read(lv, *t)),
            Place::Ptr { pointee, tag, off } => {
                Val::Ptr(PtrVal { pointee: pointee.clone(), tag: Self::read(tag, TAG), off: Self::read(off, OFF) })
            }
            Place::IntArray(..) | Place::StructArray(..) => Val::Ptr(self.address_of(p.clone(), span)?),
            Place::Struct(..) | Place::StructElem(..) => Val::Struct(p.clone()),
            Place::PtrArray { .. } => return Err(self.unsupported("an array of pointers", span)),
            Place::Nowhere(t) => match t {
                CType::Int(t) => Val::Int(Expr::var(self.temp(*t), *t)),
                CType::Ptr(pointee) => {
                    let (tag, off) = (self.temp(TAG), self.temp(OFF));
                    Val::Ptr(PtrVal {
                        pointee: (**pointee).clone(),
                        tag: Expr::var(tag, TAG),
                        off: Expr::var(off, OFF),
                    })
                }
                CType::Struct(_) => Val::Struct(p.clone()),
                other => {
                    return Err(
                        self.unsupported(&format!("a value of type {} behind a pointer", other.describe()), span)
                    );
                }
            },
            Place::Choice(alts) => match place_ty(p) {
                CType::Int(t) => {
                    Val::Int(Expr::var(self.read_choice(alts, t, |p| int_lv(p).map(|lv| (lv, t)), span)?, t))
                }
                CType::Ptr(pointee) => {
                    let tag = self.read_choice(alts, TAG, |p| ptr_lv(p).map(|(t, _)| (t, TAG)), span)?;
                    let off = self.read_choice(alts, OFF, |p| ptr_lv(p).map(|(_, o)| (o, OFF)), span)?;
                    Val::Ptr(PtrVal { pointee: *pointee, tag: Expr::var(tag, TAG), off: Expr::var(off, OFF) })
                }
                CType::Struct(_) => Val::Struct(p.clone()),
                other => {
                    return Err(
                        self.unsupported(&format!("a value of type {} behind a pointer", other.describe()), span)
                    );
                }
            },
        })
    }

    /// A temporary holding the value of the alternative whose guard holds.
    fn read_choice(
        &mut self,
        alts: &[(Expr, Place)],
        ty: IntTy,
        leaf: impl Fn(&Place) -> Option<(Lvalue, IntTy)>,
        span: Span,
    ) -> Result<VarId> {
        let t = self.temp(ty);
        if self.const_mode {
            return Err(self.error("not a constant expression", "reads memory", span));
        }
        let (from, join) = (self.cur, self.new_loc());
        for (g, p) in alts {
            let Some((lv, lt)) = leaf(p) else { return Err(self.error("internal error: choice leaf", "here", span)) };
            let mid = self.new_loc();
            self.guarded_edge(from, mid, g.clone(), span);
            self.edge(mid, join, Stmt::Assign(Lvalue::Var(t), Self::read(&lv, lt)), Some(span));
        }
        self.cur = join;
        Ok(t)
    }

    /// Stores a value into a place of the same type, converting integers and null pointer
    /// constants as C's assignment does.
    pub(super) fn store_val(&mut self, p: &Place, v: Val, span: Span) -> Result<()> {
        match p {
            Place::Int(lv, t) => {
                let x = self.to_int(v, span)?.cast(*t);
                self.step(Stmt::Assign(lv.clone(), x), span)
            }
            Place::Ptr { tag, off, .. } => {
                let pv = self.to_ptr(v, &place_ty(p), span)?;
                self.step(Stmt::Assign(tag.clone(), pv.tag), span)?;
                self.step(Stmt::Assign(off.clone(), pv.off), span)
            }
            Place::Struct(..) | Place::StructElem(..) => {
                let Val::Struct(src) = v else {
                    return Err(self.error(
                        &format!("assigning a non-struct to {}", place_ty(p).describe()),
                        "here",
                        span,
                    ));
                };
                if place_ty(&src) != place_ty(p) {
                    return Err(self.error(
                        &format!("assigning {} to {}", place_ty(&src).describe(), place_ty(p).describe()),
                        "incompatible struct types",
                        span,
                    ));
                }
                self.copy(p, &src, span)
            }
            Place::Choice(_) | Place::Nowhere(_) => {
                // The value is evaluated once, before the branches.
                let v = match v {
                    Val::Int(x) if x.as_const().is_none() && !is_plain_read(&x) => {
                        let t = self.temp(x.ty);
                        self.step(Stmt::Assign(Lvalue::Var(t), x.clone()), span)?;
                        Val::Int(Expr::var(t, x.ty))
                    }
                    v => v,
                };
                let Place::Choice(alts) = p else { return Ok(()) };
                let (from, join) = (self.cur, self.new_loc());
                for (g, alt) in alts {
                    let mid = self.new_loc();
                    self.guarded_edge(from, mid, g.clone(), span);
                    self.cur = mid;
                    self.store_val(alt, v.clone(), span)?;
                    self.fall_to(join);
                }
                self.cur = join;
                Ok(())
            }
            _ => Err(self.error(
                &format!("an object of type {} cannot be assigned", place_ty(p).describe()),
                "here",
                span,
            )),
        }
    }

    /// Copies a struct member by member.
    fn copy(&mut self, dst: &Place, src: &Place, span: Span) -> Result<()> {
        let (Some((sd, df)), Some((_, sf))) = (members(dst), members(src)) else {
            return Err(self.error("internal error: copy of a non-struct", "here", span));
        };
        let n = if sd.union { 1 } else { df.len() };
        for (d, s) in df.iter().zip(&sf).take(n) {
            match d {
                Place::IntArray(v, t, len) => {
                    if *len > 4096 {
                        return Err(
                            self.unsupported("copying a struct with a member array of more than 4096 elements", span)
                        );
                    }
                    for i in 0..*len {
                        let at = Expr::constant(i as i128, IntTy::I32);
                        let x = self.read_place(&index_leaf(s, &at), span)?;
                        let x = self.to_int(x, span)?;
                        self.step(Stmt::Assign(Lvalue::Elem(*v, at), x.cast(*t)), span)?;
                    }
                }
                _ => {
                    let x = self.read_place(s, span)?;
                    self.store_val(d, x, span)?;
                }
            }
        }
        Ok(())
    }

    /// An integer value, or the located reason why it is not one.
    pub(super) fn to_int(&self, v: Val, span: Span) -> Result<Expr> {
        match v {
            Val::Int(x) => Ok(x),
            Val::Ptr(_) => {
                Err(self.unsupported("a pointer used as an integer (a cast between pointer and integer)", span))
            }
            Val::Struct(p) => {
                Err(self.error(&format!("a {} used as an integer", place_ty(&p).describe()), "here", span))
            }
        }
    }

    /// A pointer value for a target of type `want` (a pointer type); the integer constant 0 is
    /// the null pointer.
    pub(super) fn to_ptr(&self, v: Val, want: &CType, span: Span) -> Result<PtrVal> {
        let want_pointee = match want {
            CType::Ptr(p) => (**p).clone(),
            _ => CType::Void,
        };
        match v {
            Val::Ptr(p) => {
                let ok = matches!(want_pointee, CType::Void)
                    || matches!(p.pointee, CType::Void)
                    || compatible_types(&want_pointee, &p.pointee);
                if !ok {
                    return Err(self.unsupported(
                        &format!("a conversion from {} * to {} *", p.pointee.describe(), want_pointee.describe()),
                        span,
                    ));
                }
                let pointee = if matches!(p.pointee, CType::Void) { want_pointee } else { p.pointee };
                Ok(PtrVal { pointee, ..p })
            }
            Val::Int(x) if x.as_const() == Some(0) => Ok(PtrVal::null(want_pointee)),
            Val::Int(_) => {
                Err(self.unsupported("an integer used as a pointer (a cast between integer and pointer)", span))
            }
            Val::Struct(p) => {
                Err(self.error(&format!("a {} used as a pointer", place_ty(&p).describe()), "here", span))
            }
        }
    }

    /// `&place`: registers the object and gives its tag and the element offset. A place named
    /// in the source (not reached through a pointer) is an object in its lifetime, so its
    /// lifetime flag is set.
    pub(super) fn address_of(&mut self, p: Place, span: Span) -> Result<PtrVal> {
        self.address_of_place(p, span, true)
    }

    fn address_of_place(&mut self, p: Place, span: Span, named: bool) -> Result<PtrVal> {
        let (obj, off, pointee) = match &p {
            Place::Int(Lvalue::Var(_), t) => {
                (Object { place: p.clone(), elem: CType::Int(*t), len: 1 }, Expr::constant(0, OFF), CType::Int(*t))
            }
            Place::Int(Lvalue::Elem(v, i), t) => {
                let n = self.var_ty(*v).n_elems();
                let whole = Place::IntArray(*v, *t, n);
                (Object { place: whole, elem: CType::Int(*t), len: n }, i.clone().cast(OFF), CType::Int(*t))
            }
            Place::IntArray(_, t, n) => {
                (Object { place: p.clone(), elem: CType::Int(*t), len: *n }, Expr::constant(0, OFF), CType::Int(*t))
            }
            Place::Struct(sd, fs)
                if fs.iter().all(|f| !matches!(f, Place::Int(Lvalue::Elem(..), _))) && !has_elem(&p) =>
            {
                (
                    Object { place: p.clone(), elem: CType::Struct(sd.clone()), len: 1 },
                    Expr::constant(0, OFF),
                    CType::Struct(sd.clone()),
                )
            }
            Place::StructArray(sd, n, _) => (
                Object { place: p.clone(), elem: CType::Struct(sd.clone()), len: *n },
                Expr::constant(0, OFF),
                CType::Struct(sd.clone()),
            ),
            Place::StructElem(arr, i) => match &**arr {
                Place::StructArray(sd, n, _) => (
                    Object { place: (**arr).clone(), elem: CType::Struct(sd.clone()), len: *n },
                    i.clone().cast(OFF),
                    CType::Struct(sd.clone()),
                ),
                _ => return Err(self.error("internal error: struct element", "here", span)),
            },
            Place::Ptr { .. } | Place::PtrArray { .. } => {
                return Err(self.unsupported("the address of a pointer (a pointer to a pointer)", span));
            }
            Place::Struct(..) => {
                return Err(self.unsupported("the address of a struct nested in an array of structs", span));
            }
            Place::Nowhere(t) => {
                let (tag, off) = (self.temp(TAG), self.temp(OFF));
                return Ok(PtrVal { pointee: t.clone(), tag: Expr::var(tag, TAG), off: Expr::var(off, OFF) });
            }
            Place::Choice(alts) => {
                // `&*p`, `&p->f`, `&p[i]`: the alternatives' addresses, chosen by the same guards.
                let mut addrs = Vec::new();
                for (g, alt) in alts {
                    addrs.push((g.clone(), self.address_of_place(alt.clone(), span, false)?));
                }
                let pointee = addrs.first().map_or(CType::Void, |(_, a)| a.pointee.clone());
                let tag = self.temp(TAG);
                let off = self.temp(OFF);
                let (from, join) = (self.cur, self.new_loc());
                for (g, a) in addrs {
                    let mid = self.new_loc();
                    self.guarded_edge(from, mid, g, span);
                    let mid2 = self.new_loc();
                    self.edge(mid, mid2, Stmt::Assign(Lvalue::Var(tag), a.tag), Some(span));
                    self.edge(mid2, join, Stmt::Assign(Lvalue::Var(off), a.off), Some(span));
                }
                self.cur = join;
                return Ok(PtrVal { pointee, tag: Expr::var(tag, TAG), off: Expr::var(off, OFF) });
            }
        };
        let tag = self.object_tag(obj, span)?;
        if named && let Some(flag) = self.lifetime_flag((tag - FIRST_TAG) as usize) {
            self.step(Stmt::Assign(Lvalue::Var(flag), Expr::constant(1, IntTy::U8)), span)?;
        }
        Ok(PtrVal { pointee, tag: Expr::constant(tag, TAG), off })
    }

    fn object_tag(&mut self, obj: Object, span: Span) -> Result<i128> {
        let key = |o: &Object| (first_var(&o.place), o.elem.describe(), o.len);
        if let Some(i) = self.objects.iter().position(|o| key(o) == key(&obj)) {
            return Ok(FIRST_TAG + i as i128);
        }
        let _ = span;
        self.objects.push(obj);
        Ok(FIRST_TAG + self.objects.len() as i128 - 1)
    }

    /// `*p`: the places `p` may point to, after a check that it points into one of them.
    pub(super) fn deref(&mut self, p: PtrVal, pointer: &'p Node<Expression>, span: Span) -> Result<Place> {
        let pointee = match &p.pointee {
            CType::Incomplete(tag) => match self.lookup(tag) {
                Some(Binding::Typedef(t)) => t,
                _ => p.pointee.clone(),
            },
            t => t.clone(),
        };
        if matches!(pointee, CType::Void) {
            return Err(self.error("dereferencing a `void *`", "convert it to a typed pointer first", span));
        }
        let objects = self.objects.clone();
        let candidates: Vec<(i128, Object)> = objects
            .into_iter()
            .enumerate()
            .filter(|(_, o)| compatible(&pointee, &o.elem))
            .map(|(i, o)| (FIRST_TAG + i as i128, o))
            .collect();
        if candidates.is_empty() {
            let (s, text) = self.src_span_in(self.unit(), pointer.span);
            self.unresolved.push(
                crate::diag::Diagnostic::at(
                    s,
                    format!("unsupported construct: a pointer whose target is not known (`{text}`)"),
                    format!(
                        "`{text}` points to no object of type {} whose address the component takes",
                        pointee.describe()
                    ),
                )
                .with_note(
                    "subst resolves pointers to the variables whose address (`&x`, an array) the component takes",
                ),
            );
        }
        if candidates.is_empty() {
            if self.pinned.is_some() {
                return Err(self.unresolved.pop().expect("pushed above"));
            }
            self.check(Expr::constant(0, IntTy::I32), Fault::InvalidPointer, span)?;
            return Ok(Place::Nowhere(pointee));
        }
        let mut valid = Expr::constant(0, IntTy::I32);
        let mut alts = Vec::new();
        for (tag, o) in &candidates {
            let is = cmp(BinOp::Eq, p.tag.clone(), *tag);
            let inside = if o.len == 1 {
                cmp(BinOp::Eq, p.off.clone(), 0)
            } else {
                and(cmp(BinOp::Ge, p.off.clone(), 0), cmp(BinOp::Lt, p.off.clone(), o.len as i128))
            };
            // An object whose lifetime has ended (its block or function was left) is no
            // object any more: the pointer dangles.
            let inside = match self.lifetime_flag((*tag - FIRST_TAG) as usize) {
                Some(flag) => and(inside, cmp(BinOp::Eq, Expr::var(flag, IntTy::U8), 1)),
                None => inside,
            };
            valid = or(valid, and(is.clone(), inside));
            let place = match &o.place {
                Place::IntArray(..) | Place::StructArray(..) => Self::at_index(o.place.clone(), &p.off),
                single => single.clone(),
            };
            alts.push((is, place));
        }
        self.check(valid, Fault::InvalidPointer, span)?;
        if alts.len() == 1 {
            alts[0].0 = Expr::constant(1, IntTy::I32);
        }
        Ok(Place::Choice(alts))
    }

    /// `p + i` or `p - i`: the same object, another element.
    pub(super) fn ptr_offset(&self, p: PtrVal, i: Expr, op: BinOp) -> PtrVal {
        let off = super::fold(Expr::binary(op, p.off.clone(), i.cast(OFF)));
        PtrVal { off, ..p }
    }

    /// `p + i` or `p - i` as a value of its own (not an index, which the dereference checks):
    /// C leaves it undefined unless `p` points into an object and the result stays inside it or
    /// one past its end (C11 6.5.6p8), whether or not the result is ever dereferenced.
    pub(super) fn checked_offset(&mut self, p: PtrVal, i: Expr, op: BinOp, span: Span) -> Result<PtrVal> {
        if i.as_const() == Some(0) || matches!(p.pointee, CType::Void) {
            return Ok(self.ptr_offset(p, i, op));
        }
        let pointee = match &p.pointee {
            CType::Incomplete(tag) => match self.lookup(tag) {
                Some(Binding::Typedef(t)) => t,
                _ => p.pointee.clone(),
            },
            t => t.clone(),
        };
        let moved = self.ptr_offset(p, i, op);
        let mut valid = Expr::constant(0, IntTy::I32);
        for (k, o) in self.objects.iter().enumerate() {
            if compatible(&pointee, &o.elem) {
                let is = cmp(BinOp::Eq, moved.tag.clone(), FIRST_TAG + k as i128);
                let inside =
                    and(cmp(BinOp::Ge, moved.off.clone(), 0), cmp(BinOp::Le, moved.off.clone(), o.len as i128));
                valid = or(valid, and(is, inside));
            }
        }
        self.check(valid, Fault::InvalidPointer, span)?;
        Ok(moved)
    }

    /// A comparison or difference of two pointers.
    pub(super) fn ptr_binary(&mut self, op: BinOp, a: PtrVal, b: PtrVal, span: Span) -> Result<Expr> {
        let same = cmp_exprs(BinOp::Eq, a.tag.clone(), b.tag.clone());
        match op {
            BinOp::Eq => Ok(and(same, cmp_exprs(BinOp::Eq, a.off, b.off))),
            BinOp::Ne => Ok(or(super::negate(same), cmp_exprs(BinOp::Ne, a.off, b.off))),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Sub => {
                let both_objects = and(cmp(BinOp::Ge, a.tag.clone(), FIRST_TAG), same);
                self.check(both_objects, Fault::InvalidPointer, span)?;
                if op == BinOp::Sub {
                    let long = IntTy { bits: self.model.long_bits(), signed: true };
                    return Ok(super::fold(Expr::binary(BinOp::Sub, a.off, b.off)).cast(long));
                }
                Ok(cmp_exprs(op, a.off, b.off))
            }
            _ => Err(self.unsupported("this operator on pointers", span)),
        }
    }

    /// Whether a pointer value is non-null, as a condition.
    pub(super) fn ptr_truth(p: &PtrVal) -> Expr {
        cmp(BinOp::Ne, p.tag.clone(), NULL_TAG)
    }

    /// The value of an expression of any supported type.
    pub(super) fn value_of(&mut self, e: &'p Node<Expression>) -> Result<Val> {
        match self.value(e, true)? {
            Some(v) => Ok(v),
            None => Err(self.error("a void value is used", "this has no value", e.span)),
        }
    }
}

fn cmp_exprs(op: BinOp, a: Expr, b: Expr) -> Expr {
    super::fold(Expr::binary(op, a, b))
}

fn is_plain_read(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_))
}

fn int_lv(p: &Place) -> Option<Lvalue> {
    match p {
        Place::Int(lv, _) => Some(lv.clone()),
        _ => None,
    }
}

fn ptr_lv(p: &Place) -> Option<(Lvalue, Lvalue)> {
    match p {
        Place::Ptr { tag, off, .. } => Some((tag.clone(), off.clone())),
        _ => None,
    }
}

/// Whether any leaf of a struct place is an array element (a struct inside an array of structs).
fn has_elem(p: &Place) -> bool {
    match p {
        Place::Int(Lvalue::Elem(..), _) => true,
        Place::Ptr { tag: Lvalue::Elem(..), .. } => true,
        Place::Struct(_, fs) => fs.iter().any(has_elem),
        _ => false,
    }
}

/// The IR variables a place writes (none for a choice behind a pointer).
pub(super) fn place_vars(p: &Place) -> Vec<VarId> {
    match p {
        Place::Int(lv, _) => vec![lv.var()],
        Place::Ptr { tag, off, .. } => vec![tag.var(), off.var()],
        Place::IntArray(v, ..) => vec![*v],
        Place::PtrArray { tag, off, .. } => vec![*tag, *off],
        Place::Struct(_, fs) | Place::StructArray(_, _, fs) => fs.iter().flat_map(place_vars).collect(),
        Place::StructElem(arr, _) => place_vars(arr),
        Place::Choice(_) | Place::Nowhere(_) => Vec::new(),
    }
}

/// Whether pointers to `a` and `b` may be converted into each other without a cast.
fn compatible_types(a: &CType, b: &CType) -> bool {
    match (a, b) {
        (CType::Incomplete(t), CType::Struct(s)) | (CType::Struct(s), CType::Incomplete(t)) => *t == s.name,
        _ => a == b,
    }
}
