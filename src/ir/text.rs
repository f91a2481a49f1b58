//! The text form of the IR, as `subst show ir` prints it and [`super::parse`] reads it.
//!
//! ```text
//! component comp
//!   global g: i32 = 0
//!   global buf: [u8; 4] = [1, 2, 0, 0]
//!   local comp.x: i32
//!   family out: i32 [0..3]
//!   entry l0
//!   exit l3
//!   l0 -> l1: comp.x = (g + 1)  @ "a.c" 4:3-4:14 "int x = g + 1;"
//!   l1 -> l2: event out!comp.x  @ "a.c" 5:3-5:9 "out(x)" via f at "a.c" 9:3-9:6
//! ```
//!
//! Expressions are fully parenthesised: `(a + b)`, `-(a)`, `(u8)e`; constants carry a type
//! suffix unless they are `i32` (`7`, `7u32`, `-1i8`). Operator signedness comes from the operand
//! types, which are known from the declarations.

use std::fmt::{self, Write};

use super::{Component, Edge, Event, Expr, ExprKind, Lvalue, Origin, SrcSpan, Stmt, Storage, UnOp};

/// Writes a string literal with `"` and `\` escaped and control characters as `\n`, `\t`, `\u{..}`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Displays an expression with variable names from a component.
pub struct ExprText<'a> {
    comp: &'a Component,
    expr: &'a Expr,
}

/// Displays `e` as the text form writes it.
pub fn expr<'a>(comp: &'a Component, e: &'a Expr) -> ExprText<'a> {
    ExprText { comp, expr: e }
}

fn var_name(comp: &Component, v: super::VarId) -> &str {
    comp.vars.get(v.index()).map_or("<bad-var>", |d| d.name.as_str())
}

impl fmt::Display for ExprText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sub = |e| ExprText { comp: self.comp, expr: e };
        let e = self.expr;
        match &e.kind {
            ExprKind::Const(v) => {
                if e.ty == super::IntTy::I32 {
                    write!(f, "{v}")
                } else {
                    write!(f, "{v}{}", e.ty)
                }
            }
            ExprKind::Var(v) => f.write_str(var_name(self.comp, *v)),
            ExprKind::Load(v, i) => write!(f, "{}[{}]", var_name(self.comp, *v), sub(i)),
            ExprKind::Unary(op, a) => {
                let s = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                write!(f, "{s}({})", sub(a))
            }
            ExprKind::Binary(op, a, b) => write!(f, "({} {} {})", sub(a), op.symbol(), sub(b)),
            ExprKind::Cast(a) => write!(f, "({}){}", e.ty, sub(a)),
        }
    }
}

fn lvalue(comp: &Component, lv: &Lvalue) -> String {
    match lv {
        Lvalue::Var(v) => var_name(comp, *v).to_string(),
        Lvalue::Elem(v, i) => format!("{}[{}]", var_name(comp, *v), expr(comp, i)),
    }
}

/// The text of one statement.
pub fn stmt(comp: &Component, s: &Stmt) -> String {
    match s {
        Stmt::Skip => "skip".to_string(),
        Stmt::Assign(lv, e) => format!("{} = {}", lvalue(comp, lv), expr(comp, e)),
        Stmt::Havoc(lv) => format!("havoc {}", lvalue(comp, lv)),
        Stmt::Assume(e) => format!("assume {}", expr(comp, e)),
        Stmt::Check(e, fault) => format!("check {} {}", expr(comp, e), fault.keyword()),
        Stmt::Event(Event::Plain(n)) => format!("event {n}"),
        Stmt::Event(Event::Send(n, e)) => format!("event {n}!{}", expr(comp, e)),
        Stmt::Event(Event::Recv(n, None)) => format!("event {n}?"),
        Stmt::Event(Event::Recv(n, Some(lv))) => format!("event {n}?{}", lvalue(comp, lv)),
    }
}

fn span(s: &SrcSpan) -> String {
    format!("{} {}:{}-{}:{}", quote(&s.file), s.line, s.col, s.end_line, s.end_col)
}

/// The text of an origin, starting with `@`.
pub fn origin(o: &Origin) -> String {
    let mut out = format!("@ {} {}", span(&o.span), quote(&o.text));
    for (i, frame) in o.stack.frames().into_iter().enumerate() {
        out.push_str(if i == 0 { " via " } else { ", " });
        let _ = write!(out, "{} at {}", frame.function, span(&frame.call));
    }
    out
}

/// The text of one edge, without indentation or newline.
pub fn edge(comp: &Component, e: &Edge) -> String {
    let mut out = format!("{} -> {}: {}", e.from, e.to, stmt(comp, &e.stmt));
    if let Some(o) = &e.origin {
        out.push_str("  ");
        out.push_str(&origin(o));
    }
    out
}

/// The whole component in text form, one declaration or edge per line.
pub fn component(comp: &Component) -> String {
    let mut out = format!("component {}\n", comp.name);
    for v in &comp.vars {
        match &v.storage {
            Storage::Global { init } => {
                let _ = write!(out, "  global {}: {} = ", v.name, v.ty);
                if let super::VarTy::Array(..) = v.ty {
                    let items: Vec<String> = init.iter().map(|x| x.to_string()).collect();
                    let _ = writeln!(out, "[{}]", items.join(", "));
                } else {
                    let _ = writeln!(out, "{}", init.first().copied().unwrap_or(0));
                }
            }
            Storage::Local => {
                let _ = writeln!(out, "  local {}: {}", v.name, v.ty);
            }
        }
    }
    for fam in &comp.families {
        let _ = write!(out, "  family {}: {}", fam.name, fam.ty);
        if let Some((lo, hi)) = fam.range {
            let _ = write!(out, " [{lo}..{hi}]");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "  entry {}", comp.entry);
    let _ = writeln!(out, "  exit {}", comp.exit);
    for e in &comp.edges {
        let _ = writeln!(out, "  {}", edge(comp, e));
    }
    out
}
