//! A parser for the text form written by [`super::text`].
//!
//! The parser resolves names and computes expression types from the declarations, so a parsed
//! component is structurally equal to the one that was printed (the round trip is tested). It
//! stops at the first syntax error; semantic problems (type mismatches, bad locations) are left
//! to [`super::check`], which reports all of them at once.

use thiserror::Error;

use super::{
    BinOp, CallStack, Component, Edge, Event, Expr, ExprKind, Family, Fault, Frame, IntTy, LocId, Lvalue, Origin,
    SrcSpan, Stmt, Storage, UnOp, VarDecl, VarId, VarTy,
};

/// A syntax error in IR text, with its 1-based line and column.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// Line of the error.
    pub line: usize,
    /// Column of the error.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

type Result<T> = std::result::Result<T, ParseError>;

/// The deepest expression the parser accepts: deeper text is an error, not a stack overflow.
pub const MAX_EXPR_DEPTH: usize = 4096;

struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    vars: Vec<VarDecl>,
    /// Expressions open at the cursor.
    depth: usize,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

impl<'a> Cursor<'a> {
    fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        let before = &self.src[..self.pos.min(self.src.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        Err(ParseError { line, col, message: message.into() })
    }

    /// Skips spaces and tabs (not newlines: the format is line-based).
    fn blank(&mut self) {
        while self.pos < self.src.len() && (self.src[self.pos] == b' ' || self.src[self.pos] == b'\t') {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.src.get(self.pos).copied()
    }

    fn at_line_end(&mut self) -> bool {
        matches!(self.peek(), None | Some(b'\n') | Some(b'\r'))
    }

    fn end_line(&mut self) -> Result<()> {
        self.blank();
        match self.src.get(self.pos) {
            None => Ok(()),
            Some(b'\r') | Some(b'\n') => {
                while let Some(b'\r' | b'\n') = self.src.get(self.pos) {
                    self.pos += 1;
                }
                Ok(())
            }
            Some(_) => self.error("expected the end of the line"),
        }
    }

    fn skip_empty_lines(&mut self) {
        loop {
            self.blank();
            match self.src.get(self.pos) {
                Some(b'\n') | Some(b'\r') => self.pos += 1,
                _ => return,
            }
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.blank();
        if self.src[self.pos..].starts_with(tok.as_bytes()) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &str) -> Result<()> {
        if self.eat(tok) { Ok(()) } else { self.error(format!("expected `{tok}`")) }
    }

    fn peek_ident(&mut self) -> Option<&'a str> {
        self.blank();
        let start = self.pos;
        if !self.src.get(start).is_some_and(|&c| is_ident_start(c)) {
            return None;
        }
        let mut end = start;
        while end < self.src.len() && is_ident_char(self.src[end]) {
            end += 1;
        }
        std::str::from_utf8(&self.src[start..end]).ok()
    }

    fn ident(&mut self) -> Result<&'a str> {
        match self.peek_ident() {
            Some(id) => {
                self.pos += id.len();
                Ok(id)
            }
            None => self.error("expected a name"),
        }
    }

    fn keyword(&mut self, kw: &str) -> Result<()> {
        if self.peek_ident() == Some(kw) {
            self.pos += kw.len();
            Ok(())
        } else {
            self.error(format!("expected `{kw}`"))
        }
    }

    /// An integer literal with an optional leading `-` (no space) and an optional type suffix.
    fn int_literal(&mut self) -> Result<(i128, Option<IntTy>)> {
        self.blank();
        let start = self.pos;
        if self.src.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.src.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if digits == self.pos {
            self.pos = start;
            return self.error("expected a number");
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
        let Ok(value) = text.parse::<i128>() else {
            self.pos = start;
            return self.error("number out of range");
        };
        let suffix_start = self.pos;
        while self.src.get(self.pos).is_some_and(|c| c.is_ascii_alphanumeric()) {
            self.pos += 1;
        }
        if suffix_start == self.pos {
            return Ok((value, None));
        }
        let suffix = std::str::from_utf8(&self.src[suffix_start..self.pos]).unwrap_or("");
        match IntTy::from_name(suffix) {
            Some(ty) => Ok((value, Some(ty))),
            None => {
                self.pos = suffix_start;
                self.error(format!("unknown type suffix `{suffix}`"))
            }
        }
    }

    fn u32_literal(&mut self) -> Result<u32> {
        let (v, ty) = self.int_literal()?;
        match (u32::try_from(v), ty) {
            (Ok(v), None) => Ok(v),
            _ => self.error("expected a small non-negative number"),
        }
    }

    fn string(&mut self) -> Result<String> {
        self.blank();
        if self.src.get(self.pos) != Some(&b'"') {
            return self.error("expected a string");
        }
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            match self.src.get(self.pos) {
                None | Some(b'\n') => return self.error("unterminated string"),
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.src.get(self.pos) {
                        Some(b'n') => bytes.push(b'\n'),
                        Some(b't') => bytes.push(b'\t'),
                        Some(b'"') => bytes.push(b'"'),
                        Some(b'\\') => bytes.push(b'\\'),
                        Some(b'u') => {
                            self.pos += 1;
                            self.expect("{")?;
                            let start = self.pos;
                            while self.src.get(self.pos).is_some_and(|c| c.is_ascii_hexdigit()) {
                                self.pos += 1;
                            }
                            let hex = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
                            let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) else {
                                return self.error("bad \\u escape");
                            };
                            if self.src.get(self.pos) != Some(&b'}') {
                                return self.error("expected `}`");
                            }
                            let mut buf = [0u8; 4];
                            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return self.error("unknown escape"),
                    }
                    self.pos += 1;
                }
                Some(&c) => {
                    bytes.push(c);
                    self.pos += 1;
                }
            }
        }
        String::from_utf8(bytes).or_else(|_| self.error("string is not UTF-8"))
    }

    fn loc(&mut self) -> Result<LocId> {
        let id = self.ident()?;
        match id.strip_prefix('l').and_then(|n| n.parse::<u32>().ok()) {
            Some(n) => Ok(LocId(n)),
            None => {
                self.pos -= id.len();
                self.error("expected a location like `l3`")
            }
        }
    }

    fn ty(&mut self) -> Result<IntTy> {
        let name = self.ident()?;
        match IntTy::from_name(name) {
            Some(t) => Ok(t),
            None => {
                self.pos -= name.len();
                self.error(format!("unknown type `{name}`"))
            }
        }
    }

    fn var_ty(&mut self) -> Result<VarTy> {
        if self.eat("[") {
            let t = self.ty()?;
            self.expect(";")?;
            let n = self.u32_literal()?;
            self.expect("]")?;
            Ok(VarTy::Array(t, n))
        } else {
            Ok(VarTy::Scalar(self.ty()?))
        }
    }

    fn var(&mut self) -> Result<(VarId, VarTy)> {
        let start = self.pos;
        let name = self.ident()?;
        match self.vars.iter().position(|v| v.name == name) {
            Some(i) => Ok((VarId(i as u32), self.vars[i].ty)),
            None => {
                self.pos = start;
                self.blank();
                self.error(format!("unknown variable `{name}`"))
            }
        }
    }

    fn expr(&mut self) -> Result<Expr> {
        if self.depth >= MAX_EXPR_DEPTH {
            return self.error(format!("expression nested more than {MAX_EXPR_DEPTH} levels deep"));
        }
        self.depth += 1;
        let e = self.expr_inner();
        self.depth -= 1;
        e
    }

    fn expr_inner(&mut self) -> Result<Expr> {
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                // A cast `(ty)e` or a binary operation `(a op b)`.
                let save = self.pos;
                if let Some(name) = self.peek_ident()
                    && let Some(ty) = IntTy::from_name(name)
                {
                    self.pos += name.len();
                    if self.eat(")") {
                        let inner = self.expr()?;
                        return Ok(Expr { ty, kind: ExprKind::Cast(Box::new(inner)) });
                    }
                    self.pos = save;
                }
                let a = self.expr()?;
                self.blank();
                let Some(op) = BinOp::ALL
                    .iter()
                    .copied()
                    .filter(|op| self.src[self.pos..].starts_with(op.symbol().as_bytes()))
                    .max_by_key(|op| op.symbol().len())
                else {
                    return self.error("expected a binary operator");
                };
                self.pos += op.symbol().len();
                let b = self.expr()?;
                self.expect(")")?;
                let ty = if op.is_boolean() { IntTy::I32 } else { a.ty };
                Ok(Expr { ty, kind: ExprKind::Binary(op, Box::new(a), Box::new(b)) })
            }
            Some(c @ (b'~' | b'!')) | Some(c @ b'-')
                if c != b'-' || !self.src.get(self.pos + 1).is_some_and(|d| d.is_ascii_digit()) =>
            {
                self.pos += 1;
                let op = match c {
                    b'-' => UnOp::Neg,
                    b'~' => UnOp::BitNot,
                    _ => UnOp::Not,
                };
                self.expect("(")?;
                let a = self.expr()?;
                self.expect(")")?;
                let ty = if op == UnOp::Not { IntTy::I32 } else { a.ty };
                Ok(Expr { ty, kind: ExprKind::Unary(op, Box::new(a)) })
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let (v, ty) = self.int_literal()?;
                let ty = ty.unwrap_or(IntTy::I32);
                Ok(Expr { ty, kind: ExprKind::Const(v) })
            }
            Some(c) if is_ident_start(c) => {
                let (id, vty) = self.var()?;
                if self.peek() == Some(b'[') {
                    self.pos += 1;
                    let idx = self.expr()?;
                    self.expect("]")?;
                    Ok(Expr { ty: vty.elem(), kind: ExprKind::Load(id, Box::new(idx)) })
                } else {
                    Ok(Expr { ty: vty.elem(), kind: ExprKind::Var(id) })
                }
            }
            _ => self.error("expected an expression"),
        }
    }

    fn lvalue(&mut self) -> Result<Lvalue> {
        let (id, _) = self.var()?;
        if self.peek() == Some(b'[') {
            self.pos += 1;
            let idx = self.expr()?;
            self.expect("]")?;
            Ok(Lvalue::Elem(id, idx))
        } else {
            Ok(Lvalue::Var(id))
        }
    }

    fn stmt(&mut self) -> Result<Stmt> {
        let word = self.peek_ident();
        // A variable may be called like a keyword; an assignment is recognised by what follows.
        let save = self.pos;
        if let Some(w) = word {
            self.pos += w.len();
            let assignment = matches!(self.peek(), Some(b'=') | Some(b'['));
            self.pos = save;
            if !assignment {
                match w {
                    "skip" => {
                        self.pos += w.len();
                        return Ok(Stmt::Skip);
                    }
                    "havoc" => {
                        self.pos += w.len();
                        return Ok(Stmt::Havoc(self.lvalue()?));
                    }
                    "assume" => {
                        self.pos += w.len();
                        return Ok(Stmt::Assume(self.expr()?));
                    }
                    "check" => {
                        self.pos += w.len();
                        let e = self.expr()?;
                        let kw = self.ident()?;
                        let Some(fault) = Fault::ALL.into_iter().find(|f| f.keyword() == kw) else {
                            self.pos -= kw.len();
                            return self.error(format!("unknown fault `{kw}`"));
                        };
                        return Ok(Stmt::Check(e, fault));
                    }
                    "event" => {
                        self.pos += w.len();
                        let name = self.ident()?.to_string();
                        if self.src.get(self.pos) == Some(&b'!') {
                            self.pos += 1;
                            return Ok(Stmt::Event(Event::Send(name, self.expr()?)));
                        }
                        if self.src.get(self.pos) == Some(&b'?') {
                            self.pos += 1;
                            if self.at_line_end() || self.peek() == Some(b'@') {
                                return Ok(Stmt::Event(Event::Recv(name, None)));
                            }
                            return Ok(Stmt::Event(Event::Recv(name, Some(self.lvalue()?))));
                        }
                        return Ok(Stmt::Event(Event::Plain(name)));
                    }
                    _ => {}
                }
            }
        }
        let lv = self.lvalue()?;
        self.expect("=")?;
        Ok(Stmt::Assign(lv, self.expr()?))
    }

    fn span(&mut self) -> Result<SrcSpan> {
        let file = self.string()?;
        let line = self.u32_literal()?;
        self.expect(":")?;
        let col = self.u32_literal()?;
        self.expect("-")?;
        let end_line = self.u32_literal()?;
        self.expect(":")?;
        let end_col = self.u32_literal()?;
        Ok(SrcSpan { file, line, col, end_line, end_col })
    }

    fn origin(&mut self) -> Result<Origin> {
        let span = self.span()?;
        let text = self.string()?;
        let mut stack = CallStack::new();
        if self.peek_ident() == Some("via") {
            self.pos += 3;
            loop {
                let function = self.ident()?.to_string();
                self.keyword("at")?;
                let call = self.span()?;
                stack = stack.push(Frame { function, call });
                if !self.eat(",") {
                    break;
                }
            }
        }
        Ok(Origin { span, text, stack })
    }
}

/// Parses one component in text form.
pub fn component(text: &str) -> Result<Component> {
    let mut c = Cursor { src: text.as_bytes(), pos: 0, vars: Vec::new(), depth: 0 };
    c.skip_empty_lines();
    c.keyword("component")?;
    let name = c.ident()?.to_string();
    c.end_line()?;
    let mut families = Vec::new();
    let mut entry = None;
    let mut exit = None;
    let mut edges = Vec::new();
    loop {
        c.skip_empty_lines();
        if c.pos >= c.src.len() {
            break;
        }
        match c.peek_ident() {
            Some(kw @ ("global" | "local")) => {
                c.pos += kw.len();
                let start = c.pos;
                let vname = c.ident()?.to_string();
                if c.vars.iter().any(|v| v.name == vname) {
                    c.pos = start;
                    c.blank();
                    return c.error(format!("variable `{vname}` declared twice"));
                }
                c.expect(":")?;
                let ty = c.var_ty()?;
                let storage = if kw == "global" {
                    c.expect("=")?;
                    let mut init = Vec::new();
                    if c.eat("[") {
                        if !c.eat("]") {
                            loop {
                                init.push(c.int_literal()?.0);
                                if c.eat("]") {
                                    break;
                                }
                                c.expect(",")?;
                            }
                        }
                    } else {
                        init.push(c.int_literal()?.0);
                    }
                    Storage::Global { init }
                } else {
                    Storage::Local
                };
                c.vars.push(VarDecl { name: vname, ty, storage });
            }
            Some("family") => {
                c.pos += "family".len();
                let fname = c.ident()?.to_string();
                c.expect(":")?;
                let ty = c.ty()?;
                let range = if c.eat("[") {
                    let lo = c.int_literal()?.0;
                    c.expect("..")?;
                    let hi = c.int_literal()?.0;
                    c.expect("]")?;
                    Some((lo, hi))
                } else {
                    None
                };
                families.push(Family { name: fname, ty, range });
            }
            Some("entry") => {
                c.pos += "entry".len();
                entry = Some(c.loc()?);
            }
            Some("exit") => {
                c.pos += "exit".len();
                exit = Some(c.loc()?);
            }
            Some(_) => {
                let from = c.loc()?;
                c.expect("->")?;
                let to = c.loc()?;
                c.expect(":")?;
                let stmt = c.stmt()?;
                let origin = if c.eat("@") { Some(c.origin()?) } else { None };
                edges.push(Edge { from, to, stmt, origin });
            }
            None => return c.error("expected a declaration or an edge"),
        }
        c.end_line()?;
    }
    let Some(entry) = entry else { return c.error("missing `entry`") };
    let Some(exit) = exit else { return c.error("missing `exit`") };
    let n_locs = edges.iter().flat_map(|e| [e.from.0, e.to.0]).chain([entry.0, exit.0]).max().unwrap_or(0) + 1;
    Ok(Component { name, vars: c.vars, families, n_locs, entry, exit, edges })
}
