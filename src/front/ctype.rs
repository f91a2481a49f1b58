//! C types as the front end sees them, and their resolution from declaration specifiers and
//! declarators.

use lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, FunctionDefinition,
    SpecifierQualifier, TypeSpecifier,
};
use lang_c::span::{Node, Span};

use std::rc::Rc;

use crate::front::DataModel;
use crate::ir::IntTy;

/// A C type of the supported subset, or the reason it is outside it.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// `void`.
    Void,
    /// An integer type.
    Int(IntTy),
    /// A one-dimensional array of integers with a constant size.
    Array(IntTy, u32),
    /// A struct or union whose members are known.
    Struct(Rc<StructDef>),
    /// A one-dimensional array of structs with a constant size.
    StructArray(Rc<StructDef>, u32),
    /// A pointer to objects of the boxed type (`Void` for `void *`).
    Ptr(Box<CType>),
    /// A struct or union named by its tag before its members are known (`struct node *next;`
    /// inside `struct node`); resolved when a pointer to it is dereferenced.
    Incomplete(String),
    /// A type subst does not support; the string names the construct, the span locates it.
    Unsupported(String, Span),
}

/// The members of a struct or union, in declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// `struct tag` or `union tag`, or a name made up for an anonymous one; for messages.
    pub name: String,
    /// Whether it is a union (all members share one place).
    pub union: bool,
    /// Member names and types.
    pub fields: Vec<(String, CType)>,
}

impl StructDef {
    /// The index of the member `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|(n, _)| n == name)
    }
}

impl CType {
    /// A short description for messages.
    pub fn describe(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(t) => t.to_string(),
            CType::Array(t, n) => format!("{t}[{n}]"),
            CType::Struct(s) => s.name.clone(),
            CType::StructArray(s, n) => format!("{}[{n}]", s.name),
            CType::Ptr(t) => format!("{} *", t.describe()),
            CType::Incomplete(t) => t.clone(),
            CType::Unsupported(w, _) => w.clone(),
        }
    }
}

/// The type named by the keyword specifiers (`unsigned`, `long`, `char`, ...) of a declaration.
/// `other` is the type of an `enum` or typedef-name specifier the caller resolved, if any; struct,
/// union and floating specifiers make the type unsupported.
pub fn keyword_type<'a>(
    specs: impl Iterator<Item = &'a Node<TypeSpecifier>>,
    model: DataModel,
    other: Option<CType>,
    whole: Span,
) -> CType {
    let (mut void, mut char, mut short, mut int, mut long, mut signed, mut unsigned, mut bool_) =
        (false, false, false, false, 0, false, false, false);
    let mut other = other;
    for s in specs {
        match &s.node {
            TypeSpecifier::Void => void = true,
            TypeSpecifier::Char => char = true,
            TypeSpecifier::Short => short = true,
            TypeSpecifier::Int => int = true,
            TypeSpecifier::Long => long += 1,
            TypeSpecifier::Signed => signed = true,
            TypeSpecifier::Unsigned => unsigned = true,
            TypeSpecifier::Bool => bool_ = true,
            TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::Complex | TypeSpecifier::TS18661Float(_) => {
                other = Some(CType::Unsupported("floating point".into(), s.span))
            }
            TypeSpecifier::Struct(_) if other.is_some() => {}
            TypeSpecifier::Struct(st) => {
                let what = match st.node.kind.node {
                    lang_c::ast::StructKind::Struct => "struct",
                    lang_c::ast::StructKind::Union => "union",
                };
                other = Some(CType::Unsupported(what.into(), s.span))
            }
            TypeSpecifier::Atomic(_) => other = Some(CType::Unsupported("_Atomic".into(), s.span)),
            TypeSpecifier::TypeOf(_) => other = Some(CType::Unsupported("typeof".into(), s.span)),
            TypeSpecifier::Enum(_) | TypeSpecifier::TypedefName(_) => {}
        }
    }
    if let Some(t) = other {
        return t;
    }
    if void {
        return CType::Void;
    }
    if bool_ {
        return CType::Int(IntTy::BOOL);
    }
    let ty = if char {
        IntTy { bits: 8, signed: !unsigned }
    } else if short {
        IntTy { bits: 16, signed: !unsigned }
    } else if long >= 2 {
        IntTy { bits: 64, signed: !unsigned }
    } else if long == 1 {
        IntTy { bits: model.long_bits(), signed: !unsigned }
    } else if int || signed || unsigned {
        IntTy { bits: 32, signed: !unsigned }
    } else {
        return CType::Unsupported("declaration without a type (implicit int)".into(), whole);
    };
    CType::Int(ty)
}

/// The type specifiers among declaration specifiers.
pub fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> impl Iterator<Item = &Node<TypeSpecifier>> {
    specs.iter().filter_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => Some(t),
        _ => None,
    })
}

/// The type specifiers of a type name.
pub fn qualifier_specifiers(specs: &[Node<SpecifierQualifier>]) -> impl Iterator<Item = &Node<TypeSpecifier>> {
    specs.iter().filter_map(|s| match &s.node {
        SpecifierQualifier::TypeSpecifier(t) => Some(t),
        _ => None,
    })
}

/// The name a declarator declares, looking through parentheses.
pub fn declarator_name(d: &Declarator) -> Option<&str> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(&id.node.name),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

/// The derived parts of a declarator, innermost (closest to the name) first.
pub fn derived_parts(d: &Declarator) -> Vec<&Node<DerivedDeclarator>> {
    let mut parts = match &d.kind.node {
        DeclaratorKind::Declarator(inner) => derived_parts(&inner.node),
        _ => Vec::new(),
    };
    parts.extend(d.derived.iter());
    parts
}

/// What a declarator makes of a base type.
pub enum Declared<'a> {
    /// An object of this type (maybe unsupported).
    Object(CType),
    /// A function; its parameter declarations are inspected by the caller.
    Function(&'a Node<DerivedDeclarator>),
}

/// Applies a declarator's derived parts to `base`. `array_size` evaluates an array bound.
pub fn apply_declarator<'a>(
    base: CType,
    d: &'a Declarator,
    array_size: &mut dyn FnMut(&'a Node<lang_c::ast::Expression>) -> Result<u32, crate::diag::Diagnostic>,
) -> Result<Declared<'a>, crate::diag::Diagnostic> {
    let parts = derived_parts(d);
    let pointers: Vec<_> = parts.iter().filter(|p| matches!(p.node, DerivedDeclarator::Pointer(_))).collect();
    if let Some(p) = pointers.first() {
        let function =
            parts.iter().any(|q| matches!(q.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)));
        let what = if function {
            "function pointer"
        } else if pointers.len() > 1 {
            "a pointer to a pointer"
        } else if parts.iter().any(|q| matches!(q.node, DerivedDeclarator::Array(_))) {
            "an array of pointers or a pointer to an array"
        } else if parts.iter().any(|q| matches!(q.node, DerivedDeclarator::Block(_))) {
            "block pointer"
        } else {
            return Ok(Declared::Object(match base {
                u @ CType::Unsupported(..) => u,
                CType::Array(..) | CType::StructArray(..) => CType::Unsupported("a pointer to an array".into(), p.span),
                CType::Ptr(_) => CType::Unsupported("a pointer to a pointer".into(), p.span),
                base => CType::Ptr(Box::new(base)),
            }));
        };
        return Ok(Declared::Object(CType::Unsupported(what.into(), p.span)));
    }
    if let Some(p) = parts.iter().find(|p| matches!(p.node, DerivedDeclarator::Block(_))) {
        return Ok(Declared::Object(CType::Unsupported("block pointer".into(), p.span)));
    }
    if let Some(f) =
        parts.iter().find(|p| matches!(p.node, DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)))
    {
        return Ok(Declared::Function(f));
    }
    let arrays: Vec<_> = parts.iter().filter(|p| matches!(p.node, DerivedDeclarator::Array(_))).collect();
    match (base, arrays.as_slice()) {
        (base, []) => Ok(Declared::Object(base)),
        (CType::Int(t), [a]) => {
            let DerivedDeclarator::Array(arr) = &a.node else { unreachable!("filtered to arrays") };
            match &arr.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    let n = array_size(e)?;
                    Ok(Declared::Object(CType::Array(t, n)))
                }
                ArraySize::Unknown | ArraySize::VariableUnknown => {
                    Ok(Declared::Object(CType::Unsupported(unsized_array(&CType::Int(t)), a.span)))
                }
            }
        }
        (CType::Struct(sd), [a]) => {
            let DerivedDeclarator::Array(arr) = &a.node else { unreachable!("filtered to arrays") };
            match &arr.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    let n = array_size(e)?;
                    Ok(Declared::Object(CType::StructArray(sd, n)))
                }
                ArraySize::Unknown | ArraySize::VariableUnknown => {
                    Ok(Declared::Object(CType::Unsupported(unsized_array(&CType::Struct(sd)), a.span)))
                }
            }
        }
        (CType::Ptr(_), [a, ..]) => Ok(Declared::Object(CType::Unsupported("an array of pointers".into(), a.span))),
        (CType::Incomplete(t), [a, ..]) => {
            Ok(Declared::Object(CType::Unsupported(format!("an array of the incomplete type `{t}`"), a.span)))
        }
        (CType::Array(..) | CType::StructArray(..), [a, ..]) | (CType::Int(_) | CType::Struct(_), [_, a, ..]) => {
            Ok(Declared::Object(CType::Unsupported("multi-dimensional array".into(), a.span)))
        }
        (CType::Void, [a, ..]) => Ok(Declared::Object(CType::Unsupported("array of void".into(), a.span))),
        (u @ CType::Unsupported(..), _) => Ok(Declared::Object(u)),
    }
}

/// Whether a function definition has the component signature `void f(void)` (or `void f()`).
pub fn is_void_void(f: &FunctionDefinition) -> bool {
    let returns_void = type_specifiers(&f.specifiers).any(|t| matches!(t.node, TypeSpecifier::Void));
    let no_params = derived_parts(&f.declarator.node).iter().any(|p| match &p.node {
        DerivedDeclarator::Function(fd) => {
            fd.node.parameters.is_empty()
                || (fd.node.parameters.len() == 1
                    && fd.node.parameters[0].node.declarator.is_none()
                    && type_specifiers(&fd.node.parameters[0].node.specifiers)
                        .all(|t| matches!(t.node, TypeSpecifier::Void)))
        }
        DerivedDeclarator::KRFunction(ids) => ids.is_empty(),
        _ => false,
    });
    returns_void && no_params
}

/// What an array of `elem` declared without a size is called: an unsupported type for an
/// object, and for an `extern` declaration the type its definition must have elements of.
pub(crate) fn unsized_array(elem: &CType) -> String {
    format!("an array of {} without a size", elem.describe())
}
