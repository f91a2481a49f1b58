//! The condition of a state proposition (`prop Locked = ipcq: (owner != 0)`) as an IR
//! expression over a lowered component's globals.
//!
//! The spec writes the condition in C; it is parsed here with `lang_c`'s expression parser and
//! converted with C's usual arithmetic conversions. Only pure expressions are accepted:
//! integer and character-free constants, the component's scalar globals, enum constants of
//! the sources, and the unary, binary and logical operators. Anything else is a located error
//! in the spec.
//!
//! Known weaknesses: enum constants whose value is an expression other than an integer literal
//! are rejected; an array element only at a constant index; struct fields and `?:` are not
//! accepted in a proposition.

use lang_c::ast::{BinaryOperator, Constant, Expression, IntegerBase, UnaryOperator};
use lang_c::span::Node;

use super::Program;
use crate::diag::Diagnostic;
use crate::ir::SrcSpan;
use crate::ir::{BinOp, Component, Expr, IntTy, Storage, UnOp, VarTy};

impl Program {
    /// The condition `text` (written at `at` in the spec) over the globals of `comp`, as an
    /// `int` expression that is 1 where the proposition holds and 0 elsewhere.
    pub fn prop_condition(&self, comp: &Component, text: &str, at: &SrcSpan) -> Result<Expr, Diagnostic> {
        // Nesting is bounded before the (recursive) parser and conversion see the text.
        let mut depth = 0usize;
        for c in text.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > 64 {
                return Err(Diagnostic::at(
                    at.clone(),
                    "the condition is nested too deeply",
                    "more than 64 parentheses",
                ));
            }
        }
        if text.len() > 4096 {
            return Err(Diagnostic::at(at.clone(), "the condition is too long", "more than 4096 bytes"));
        }
        let not_c = |why: String| {
            Diagnostic::at(at.clone(), format!("the condition is not a C expression: {why}"), "not a C expression")
        };
        // The parser takes translation units: the condition becomes an initialiser.
        let source = format!("{PREFIX}{text});");
        let config = lang_c::driver::Config::default();
        let parsed = std::panic::catch_unwind(|| lang_c::driver::parse_preprocessed(&config, source))
            .map_err(|_| not_c("the C parser failed".into()))?
            .map_err(|e| not_c(format!("{e}")))?;
        let expr = match parsed.unit.0.as_slice() {
            [d] => match &d.node {
                lang_c::ast::ExternalDeclaration::Declaration(decl) => match decl.node.declarators.as_slice() {
                    [id] => match id.node.initializer.as_ref().map(|i| &i.node) {
                        Some(lang_c::ast::Initializer::Expression(e)) => Some(e),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(expr) = expr else { return Err(not_c("it is not one expression".into())) };
        let conv = Conv { prog: self, comp, at, text };
        Ok(truth(conv.expr(expr)?))
    }

    /// The value of an enum constant declared at file scope, when its value is a literal or
    /// implicit.
    fn enum_value(&self, name: &str) -> Option<i128> {
        use lang_c::ast::{DeclarationSpecifier, ExternalDeclaration, TypeSpecifier};
        for unit in &self.units {
            for d in &unit.ast.0 {
                let ExternalDeclaration::Declaration(decl) = &d.node else { continue };
                for spec in &decl.node.specifiers {
                    let DeclarationSpecifier::TypeSpecifier(t) = &spec.node else { continue };
                    let TypeSpecifier::Enum(e) = &t.node else { continue };
                    let mut next = 0i128;
                    for en in &e.node.enumerators {
                        let value = match &en.node.expression {
                            None => next,
                            Some(x) => match &x.node {
                                Expression::Constant(c) => match &c.node {
                                    Constant::Integer(i) => integer(i)?,
                                    _ => return None,
                                },
                                _ => return None,
                            },
                        };
                        if en.node.identifier.node.name == name {
                            return Some(value);
                        }
                        next = value + 1;
                    }
                }
            }
        }
        None
    }
}

/// What the condition is wrapped in for the parser; spans are shifted back by its length.
const PREFIX: &str = "int __subst_prop = (";

struct Conv<'a> {
    prog: &'a Program,
    comp: &'a Component,
    at: &'a SrcSpan,
    text: &'a str,
}

fn integer(i: &lang_c::ast::Integer) -> Option<i128> {
    let digits: &str = &i.number;
    let (radix, digits) = match i.base {
        IntegerBase::Decimal => (10, digits),
        IntegerBase::Octal => (8, digits.strip_prefix('0').filter(|d| !d.is_empty()).unwrap_or(digits)),
        IntegerBase::Hexadecimal => (16, digits.trim_start_matches("0x").trim_start_matches("0X")),
        IntegerBase::Binary => (2, digits.trim_start_matches("0b").trim_start_matches("0B")),
    };
    i64::from_str_radix(digits, radix).ok().map(i128::from)
}

/// `e != 0` unless `e` is already 0 or 1.
fn truth(e: Expr) -> Expr {
    let boolean = match &e.kind {
        crate::ir::ExprKind::Binary(op, ..) => op.is_boolean(),
        crate::ir::ExprKind::Unary(UnOp::Not, _) => true,
        _ => false,
    };
    if boolean {
        e
    } else {
        let zero = Expr::constant(0, e.ty);
        Expr::binary(BinOp::Ne, e, zero)
    }
}

impl Conv<'_> {
    /// The span of a node of the parsed text, in the spec file (the text is on one line when
    /// the node is; otherwise the whole condition).
    fn span(&self, start: usize, end: usize) -> SrcSpan {
        let (start, end) = (start.saturating_sub(PREFIX.len()), end.saturating_sub(PREFIX.len()));
        let before = &self.text[..start.min(self.text.len())];
        let lines = before.matches('\n').count() as u32;
        let col = match before.rfind('\n') {
            Some(nl) => (before.len() - nl) as u32,
            None => self.at.col + before.chars().count() as u32,
        };
        let len = self.text[start.min(self.text.len())..end.min(self.text.len())].chars().count() as u32;
        SrcSpan {
            file: self.at.file.clone(),
            line: self.at.line + lines,
            col,
            end_line: self.at.line + lines,
            end_col: col + len,
        }
    }

    fn unsupported(&self, what: &str, start: usize, end: usize) -> Diagnostic {
        Diagnostic::at(self.span(start, end), format!("{what} is not supported in a proposition"), "not supported here")
            .with_note("a proposition reads the component's scalar globals and constants with C's operators")
    }

    fn expr(&self, e: &Node<Expression>) -> Result<Expr, Diagnostic> {
        let (start, end) = (e.span.start, e.span.end);
        match &e.node {
            Expression::Identifier(id) => {
                let name = &id.node.name;
                if let Some(v) = self.comp.var_by_name(name) {
                    let decl = self.comp.var(v);
                    return match (&decl.storage, decl.ty) {
                        (Storage::Global { .. }, VarTy::Scalar(t)) => Ok(Expr::var(v, t)),
                        (Storage::Global { .. }, VarTy::Array(..)) => Err(self.unsupported("an array", start, end)),
                        _ => Err(self.unsupported("a local variable", start, end)),
                    };
                }
                match self.prog.enum_value(name) {
                    Some(v) => Ok(Expr::constant(v, IntTy::I32)),
                    None => Err(Diagnostic::at(
                        self.span(start, end),
                        format!("unknown variable `{name}`: not a global variable of `{}`", self.comp.name),
                        "not a global of the component",
                    )),
                }
            }
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => match integer(i) {
                    Some(v) if IntTy::I32.contains(v) => Ok(Expr::constant(v, IntTy::I32)),
                    Some(v) => Ok(Expr::constant(v, IntTy::I64)),
                    None => Err(self.unsupported("this constant", start, end)),
                },
                _ => Err(self.unsupported("a non-integer constant", start, end)),
            },
            Expression::UnaryOperator(u) => {
                let a = self.expr(&u.node.operand)?;
                let a = a.clone().cast(a.ty.promoted());
                match u.node.operator.node {
                    UnaryOperator::Plus => Ok(a),
                    UnaryOperator::Minus => Ok(Expr::unary(UnOp::Neg, a)),
                    UnaryOperator::Complement => Ok(Expr::unary(UnOp::BitNot, a)),
                    UnaryOperator::Negate => Ok(Expr::unary(UnOp::Not, a)),
                    _ => Err(self.unsupported("this operator", start, end)),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                // An element of a global array at a constant index inside it.
                let array = match &b.node.lhs.node {
                    Expression::Identifier(id) => self.comp.var_by_name(&id.node.name),
                    _ => None,
                };
                let index = self.expr(&b.node.rhs)?.as_const();
                match (array.map(|v| (v, self.comp.var(v))), index) {
                    (Some((v, decl)), Some(i)) if matches!(decl.storage, Storage::Global { .. }) => match decl.ty {
                        VarTy::Array(t, n) if (0..i128::from(n)).contains(&i) => Ok(Expr {
                            ty: t,
                            kind: crate::ir::ExprKind::Load(v, Box::new(Expr::constant(i, IntTy::I64))),
                        }),
                        _ => Err(self.unsupported("an index outside the array", start, end)),
                    },
                    _ => {
                        Err(self.unsupported("an element other than a global array's at a constant index", start, end))
                    }
                }
            }
            Expression::BinaryOperator(b) => {
                let x = self.expr(&b.node.lhs)?;
                let y = self.expr(&b.node.rhs)?;
                let op = match b.node.operator.node {
                    BinaryOperator::Multiply => BinOp::Mul,
                    BinaryOperator::Divide => BinOp::Div,
                    BinaryOperator::Modulo => BinOp::Rem,
                    BinaryOperator::Plus => BinOp::Add,
                    BinaryOperator::Minus => BinOp::Sub,
                    BinaryOperator::ShiftLeft => BinOp::Shl,
                    BinaryOperator::ShiftRight => BinOp::Shr,
                    BinaryOperator::Less => BinOp::Lt,
                    BinaryOperator::Greater => BinOp::Gt,
                    BinaryOperator::LessOrEqual => BinOp::Le,
                    BinaryOperator::GreaterOrEqual => BinOp::Ge,
                    BinaryOperator::Equals => BinOp::Eq,
                    BinaryOperator::NotEquals => BinOp::Ne,
                    BinaryOperator::BitwiseAnd => BinOp::BitAnd,
                    BinaryOperator::BitwiseXor => BinOp::BitXor,
                    BinaryOperator::BitwiseOr => BinOp::BitOr,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr => {
                        let op =
                            if b.node.operator.node == BinaryOperator::LogicalAnd { BinOp::And } else { BinOp::Or };
                        return Ok(Expr::binary(op, truth(x), truth(y)));
                    }
                    _ => return Err(self.unsupported("this operator", start, end)),
                };
                if matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shl | BinOp::Shr) {
                    // Division by zero and over-wide shifts are undefined in C; a proposition
                    // is evaluated in every state, so it must be total.
                    return Err(self.unsupported("division, remainder or a shift", start, end));
                }
                let ty = IntTy::common(x.ty, y.ty);
                Ok(Expr::binary(op, x.cast(ty), y.cast(ty)))
            }
            _ => Err(self.unsupported("this kind of expression", start, end)),
        }
    }
}
