//! The FSP parser: tokens to a [`SpecAst`], by recursive descent.
//!
//! It follows the grammar of FSP as LTSA's manual and Magee & Kramer's book (2nd ed., Appendix A
//! and B) describe it, for the subset in `mod.rs`, plus the two C-binding declarations
//! `event name[lo..hi]` and `prop Name = component: (C expression)`.
//!
//! Decisions where FSP's grammar is loose:
//! - In a prefix, an upper-case name followed by `->` (after any `[..]`) is a set of actions;
//!   otherwise it is a process.
//! - In a composition, a label is recognised by the `:` or `::` that follows it; any other name
//!   is a process, a composition or a C component (decided later, by name).
//! - `||` ends the expression of a top-level `const` or `range` unless it is parenthesised, so
//!   that a composition may follow on the next line.
//!
//! Known weaknesses: the first error stops the parse (no recovery); nesting deeper than
//! [`MAX_DEPTH`] is rejected rather than parsed, where the label and share prefixes of a
//! composition's item (`a:b::P`) count as levels, like the operators of a chain.

use super::ast::*;
use super::lexer::{Sym, Tok, Token, lex};
use crate::diag::Diagnostic;

/// The deepest nesting of parentheses, brackets and prefixes (of actions, and the labels of
/// composition items) the parser accepts.
pub const MAX_DEPTH: u32 = 200;

/// Words that cannot name a process, an action or a constant.
const KEYWORDS: &[&str] =
    &["const", "range", "set", "property", "progress", "when", "if", "then", "else", "forall", "STOP", "ERROR", "END"];

/// Parses a spec.
pub fn parse(source: &str, file: &str) -> Result<SpecAst, Diagnostic> {
    let toks = lex(source, file)?;
    let mut p = Parser { toks, pos: 0, file, src: source, depth: 0, terms: Vec::new() };
    p.spec()
}

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    file: &'a str,
    src: &'a str,
    depth: u32,
    /// The term arena of the process definition being parsed.
    terms: Vec<Term>,
}

type PResult<T> = Result<T, Diagnostic>;

/// How a token reads in a message.
fn describe(tok: &Tok) -> String {
    match tok {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Int(v) => format!("`{v}`"),
        Tok::Sym(s) => format!("`{}`", s.text()),
        Tok::Other(s) => format!("`{s}`"),
        Tok::Eof => "the end of the file".to_string(),
    }
}

fn is_upper(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

impl<'a> Parser<'a> {
    // ---- Token helpers -------------------------------------------------------------------

    fn tok(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn tok_at(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.toks.len() - 1);
        &self.toks[i].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Span {
        let s = self.span();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        s
    }

    fn is_sym(&self, s: Sym) -> bool {
        *self.tok() == Tok::Sym(s)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.tok(), Tok::Ident(s) if s == w)
    }

    fn eat_sym(&mut self, s: Sym) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }

    fn error_here(&self, message: String, label: &str) -> Diagnostic {
        Diagnostic::at(self.span().to_src(self.file), message, label)
    }

    fn expect_sym(&mut self, s: Sym, context: &str) -> PResult<Span> {
        if self.is_sym(s) {
            return Ok(self.bump());
        }
        let found = describe(self.tok());
        Err(self.error_here(
            format!("expected `{}` {context}, found {found}", s.text()),
            &format!("expected `{}`", s.text()),
        ))
    }

    fn expect_word(&mut self, w: &str, context: &str) -> PResult<Span> {
        if self.is_word(w) {
            return Ok(self.bump());
        }
        let found = describe(self.tok());
        Err(self.error_here(format!("expected `{w}` {context}, found {found}"), &format!("expected `{w}`")))
    }

    /// The `.` that ends a definition; a missing one is reported after the last token.
    fn expect_end(&mut self, what: &str) -> PResult<()> {
        if self.eat_sym(Sym::Dot) {
            return Ok(());
        }
        let found = describe(self.tok());
        let prev = self.prev_span();
        let at = Span { start: prev.end, line: prev.end_line, col: prev.end_col, ..prev };
        let at = Span { end_col: at.col + 1, ..at };
        let msg = format!("expected `.` to end {what}, found {found}");
        Err(Diagnostic::at(at.to_src(self.file), msg, "expected `.` here"))
    }

    /// A name that is not a keyword.
    fn name(&mut self, what: &str) -> PResult<Name> {
        match self.tok().clone() {
            Tok::Ident(s) if !KEYWORDS.contains(&s.as_str()) => Ok(Name { text: s, span: self.bump() }),
            Tok::Ident(s) => Err(self.error_here(format!("`{s}` is a keyword, expected {what}"), "a keyword")),
            t => Err(self.error_here(format!("expected {what}, found {}", describe(&t)), &format!("expected {what}"))),
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here("the spec is nested too deeply".to_string(), "nesting limit reached here"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- Declarations --------------------------------------------------------------------

    fn spec(&mut self) -> PResult<SpecAst> {
        let mut ast = SpecAst::default();
        loop {
            match self.tok().clone() {
                Tok::Eof => return Ok(ast),
                Tok::Sym(Sym::OrOr) => ast.composites.push(self.composite()?),
                Tok::Ident(w) => self.declaration(&w, &mut ast)?,
                t => {
                    let msg = format!("expected a declaration, found {}", describe(&t));
                    return Err(self.error_here(msg, "expected `const`, `range`, `set`, a process or `||`"));
                }
            }
        }
    }

    fn declaration(&mut self, word: &str, ast: &mut SpecAst) -> PResult<()> {
        let next_is_name = matches!(self.tok_at(1), Tok::Ident(_));
        match word {
            "const" => {
                self.bump();
                let name = self.name("a constant name")?;
                self.expect_sym(Sym::Eq, "after the constant's name")?;
                let e = self.expr_top()?;
                ast.globals.push(Global::Const(name, e));
            }
            "range" => {
                self.bump();
                let name = self.name("a range name")?;
                self.expect_sym(Sym::Eq, "after the range's name")?;
                let lo = self.expr_top()?;
                self.expect_sym(Sym::DotDot, "between the bounds of the range")?;
                let hi = self.expr_top()?;
                ast.globals.push(Global::Range(name, lo, hi));
            }
            "set" => {
                self.bump();
                let name = self.name("a set name")?;
                self.expect_sym(Sym::Eq, "after the set's name")?;
                let s = self.set_expr()?;
                ast.globals.push(Global::Set(name, s));
            }
            "property" => {
                self.bump();
                ast.processes.push(self.process_def(true)?);
            }
            "event" if next_is_name => ast.events.push(self.event_decl()?),
            "prop" if next_is_name && *self.tok_at(2) == Tok::Sym(Sym::Eq) => ast.props.push(self.prop_decl()?),
            "progress" | "fluent" | "assert" | "menu" | "animation" | "minimal" | "deterministic" => {
                return Err(self.error_here(format!("`{word}` is not supported by subst"), "unsupported FSP construct"));
            }
            _ => ast.processes.push(self.process_def(false)?),
        }
        Ok(())
    }

    fn event_decl(&mut self) -> PResult<EventDecl> {
        let start = self.bump();
        let name = self.name("an event family name")?;
        let range = if self.eat_sym(Sym::LBrack) {
            let r = self.range_spec()?;
            self.expect_sym(Sym::RBrack, "after the family's range")?;
            Some(r)
        } else {
            None
        };
        Ok(EventDecl { name, range, span: start.to(self.prev_span()) })
    }

    fn prop_decl(&mut self) -> PResult<PropDeclAst> {
        let start = self.bump();
        let name = self.name("a proposition name")?;
        self.expect_sym(Sym::Eq, "after the proposition's name")?;
        let component = self.name("the C component the proposition reads")?;
        self.expect_sym(Sym::Colon, "after the component's name")?;
        if self.is_sym(Sym::LBrace) {
            return self.prop_states(start, name, component);
        }
        let open =
            self.expect_sym(Sym::LParen, "before the C expression (or `{` before the states of an FSP process)")?;
        let first = self.span();
        let mut level = 1;
        while level > 0 {
            match self.tok() {
                Tok::Sym(Sym::LParen) => level += 1,
                Tok::Sym(Sym::RParen) => level -= 1,
                Tok::Eof => {
                    return Err(Diagnostic::at(open.to_src(self.file), "unbalanced parentheses", "never closed"));
                }
                _ => {}
            }
            self.bump();
        }
        let close = self.prev_span();
        if first == close {
            return Err(Diagnostic::at(
                open.to(close).to_src(self.file),
                "empty C expression",
                "expected an expression",
            ));
        }
        let last = self.toks[self.pos - 2].span;
        let expr = self.src[first.start..last.end].to_string();
        self.eat_sym(Sym::Dot);
        Ok(PropDeclAst { name, component, expr, expr_span: first.to(last), states: None, span: start.to(close) })
    }

    /// `{LOCAL, LOCAL[e], LOCAL[a..b], LOCAL[R]}` after `prop Name = PROCESS:`.
    fn prop_states(&mut self, start: Span, name: Name, component: Name) -> PResult<PropDeclAst> {
        let open = self.bump();
        let mut states = Vec::new();
        if !self.is_sym(Sym::RBrace) {
            loop {
                let local = self.name("a local process of the proposition's process")?;
                let mut indices = Vec::new();
                while self.eat_sym(Sym::LBrack) {
                    indices.push(self.bracket_part()?);
                }
                states.push(StateRef { span: local.span.to(self.prev_span()), name: local, indices });
                if !self.eat_sym(Sym::Comma) {
                    break;
                }
            }
        }
        let close = self.expect_sym(Sym::RBrace, "to close the set of local processes")?;
        self.eat_sym(Sym::Dot);
        Ok(PropDeclAst {
            name,
            component,
            expr: String::new(),
            expr_span: open.to(close),
            states: Some(states),
            span: start.to(close),
        })
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        if !self.eat_sym(Sym::LParen) {
            return Ok(params);
        }
        loop {
            let name = self.name("a parameter name")?;
            self.expect_sym(Sym::Eq, "after the parameter (parameters need a default: `N=3`)")?;
            let default = self.expr()?;
            params.push(Param { name, default });
            if !self.eat_sym(Sym::Comma) {
                break;
            }
        }
        self.expect_sym(Sym::RParen, "after the parameters")?;
        Ok(params)
    }

    fn index_decls(&mut self) -> PResult<Vec<IndexDecl>> {
        let mut out = Vec::new();
        while self.eat_sym(Sym::LBrack) {
            let var = self.name("an index variable")?;
            self.expect_sym(Sym::Colon, "after the index variable (write `[i:R]`)")?;
            let range = self.range_spec()?;
            self.expect_sym(Sym::RBrack, "after the index range")?;
            out.push(IndexDecl { var, range });
        }
        Ok(out)
    }

    // ---- Processes -----------------------------------------------------------------------

    fn process_def(&mut self, property: bool) -> PResult<ProcessDef> {
        self.terms.clear();
        let name = self.name("a process name")?;
        let params = self.params()?;
        let indices = self.index_decls()?;
        self.expect_sym(Sym::Eq, &format!("after `{}`", name.text))?;
        let body = self.local_process()?;
        let mut locals = vec![LocalDef { name, indices, body }];
        while self.eat_sym(Sym::Comma) {
            let name = self.name("a local process name")?;
            let indices = self.index_decls()?;
            self.expect_sym(Sym::Eq, &format!("after `{}`", name.text))?;
            let body = self.local_process()?;
            locals.push(LocalDef { name, indices, body });
        }
        let post = self.post_ops(true)?;
        self.expect_end(&format!("the definition of `{}`", locals[0].name.text))?;
        Ok(ProcessDef { property, params, locals, post, terms: std::mem::take(&mut self.terms) })
    }

    fn push(&mut self, t: Term) -> TermId {
        self.terms.push(t);
        TermId(self.terms.len() as u32 - 1)
    }

    fn local_process(&mut self) -> PResult<TermId> {
        self.enter()?;
        let t = self.local_process_inner();
        self.leave();
        t
    }

    fn local_process_inner(&mut self) -> PResult<TermId> {
        match self.tok().clone() {
            Tok::Ident(w) if w == "STOP" => Ok(self.push_bumped(Term::Stop)),
            Tok::Ident(w) if w == "ERROR" => Ok(self.push_bumped(Term::Error)),
            Tok::Ident(w) if w == "END" => Ok(self.push_bumped(Term::End)),
            Tok::Ident(w) if w == "if" => self.if_term(),
            Tok::Sym(Sym::LParen) => {
                let open = self.bump();
                if self.starts_label() || self.is_word("when") {
                    return self.choice(open);
                }
                let t = self.local_process()?;
                self.expect_sym(Sym::RParen, "to close the process")?;
                Ok(t)
            }
            Tok::Ident(_) => {
                let name = self.name("a process")?;
                let indices = self.index_exprs()?;
                Ok(self.push(Term::Ref { name, indices }))
            }
            t => {
                let msg = format!("expected a process, found {}", describe(&t));
                Err(self.error_here(msg, "expected `(`, `STOP`, `ERROR` or a process name"))
            }
        }
    }

    fn push_bumped(&mut self, make: fn(Span) -> Term) -> TermId {
        let s = self.bump();
        self.push(make(s))
    }

    fn if_term(&mut self) -> PResult<TermId> {
        self.bump();
        let cond = self.expr()?;
        self.expect_word("then", "after the condition of `if`")?;
        let then = self.local_process()?;
        let otherwise = if self.is_word("else") {
            self.bump();
            Some(self.local_process()?)
        } else {
            None
        };
        Ok(self.push(Term::If { cond, then, otherwise }))
    }

    fn index_exprs(&mut self) -> PResult<Vec<Expr>> {
        let mut out = Vec::new();
        while self.eat_sym(Sym::LBrack) {
            out.push(self.expr()?);
            self.expect_sym(Sym::RBrack, "after the index")?;
        }
        Ok(out)
    }

    fn choice(&mut self, open: Span) -> PResult<TermId> {
        let mut branches = vec![self.prefix()?];
        while self.eat_sym(Sym::Bar) {
            branches.push(self.prefix()?);
        }
        if !self.is_sym(Sym::RParen) {
            let found = describe(self.tok());
            let msg = format!("expected `|` or `)` after a choice branch, found {found}");
            return Err(self.error_here(msg, "expected `)`").with_note(format!(
                "the parenthesis opened at line {}, column {} is not closed",
                open.line, open.col
            )));
        }
        let close = self.bump();
        if branches.len() == 1 {
            return Ok(branches[0]);
        }
        Ok(self.push(Term::Choice(branches, open.to(close))))
    }

    /// `[when g] a -> b -> ... -> P`.
    fn prefix(&mut self) -> PResult<TermId> {
        let guard = if self.is_word("when") {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        let mut labels = Vec::new();
        loop {
            if !self.starts_label() {
                let found = describe(self.tok());
                return Err(self.error_here(format!("expected an action, found {found}"), "expected an action"));
            }
            labels.push(self.label()?);
            self.expect_sym(Sym::Arrow, "after the action")?;
            if !self.starts_label() {
                break;
            }
        }
        let mut next = self.local_process()?;
        for (i, label) in labels.into_iter().enumerate().rev() {
            let guard = if i == 0 { guard.clone() } else { None };
            next = self.push(Term::Prefix { guard, label, next });
        }
        Ok(next)
    }

    /// Whether an action label starts here (see the module doc for upper-case names).
    fn starts_label(&self) -> bool {
        match self.tok() {
            Tok::Sym(Sym::LBrace | Sym::LBrack) => true,
            Tok::Ident(w) if KEYWORDS.contains(&w.as_str()) => false,
            Tok::Ident(w) if !is_upper(w) => true,
            Tok::Ident(_) => {
                self.after_brackets(self.pos + 1).is_some_and(|i| self.toks[i].tok == Tok::Sym(Sym::Arrow))
            }
            _ => false,
        }
    }

    /// The index of the first token after the balanced `[..]` groups that start at `i`.
    fn after_brackets(&self, mut i: usize) -> Option<usize> {
        while self.toks.get(i)?.tok == Tok::Sym(Sym::LBrack) {
            i = self.after_group(i)?;
        }
        Some(i)
    }

    /// The index just after the balanced group opened at `i`.
    fn after_group(&self, mut i: usize) -> Option<usize> {
        let mut level = 0i32;
        loop {
            match &self.toks.get(i)?.tok {
                Tok::Sym(Sym::LBrack | Sym::LBrace | Sym::LParen) => level += 1,
                Tok::Sym(Sym::RBrack | Sym::RBrace | Sym::RParen) => level -= 1,
                Tok::Eof => return None,
                _ => {}
            }
            i += 1;
            if level <= 0 {
                return Some(i);
            }
        }
    }

    // ---- Labels and sets -----------------------------------------------------------------

    fn label(&mut self) -> PResult<Label> {
        self.enter()?;
        let l = self.label_inner();
        self.leave();
        l
    }

    fn label_inner(&mut self) -> PResult<Label> {
        let start = self.span();
        let mut parts = vec![self.label_first_part()?];
        loop {
            if self.is_sym(Sym::LBrack) {
                self.bump();
                parts.push(self.bracket_part()?);
            } else if self.is_sym(Sym::Dot)
                && matches!(self.tok_at(1), Tok::Ident(_) | Tok::Int(_) | Tok::Sym(Sym::LBrace))
            {
                self.bump();
                parts.push(self.label_dot_part()?);
            } else {
                break;
            }
        }
        Ok(Label { parts, span: start.to(self.prev_span()) })
    }

    fn label_first_part(&mut self) -> PResult<LabelPart> {
        match self.tok().clone() {
            Tok::Sym(Sym::LBrack) => {
                self.bump();
                self.bracket_part()
            }
            Tok::Sym(Sym::LBrace) => Ok(LabelPart::Set(self.set_expr()?)),
            Tok::Ident(w) if is_upper(&w) && !KEYWORDS.contains(&w.as_str()) => {
                Ok(LabelPart::Set(SetExpr::Named(self.name("a set")?)))
            }
            Tok::Ident(_) => Ok(LabelPart::Name(self.name("an action")?.text)),
            t => Err(self.error_here(format!("expected an action, found {}", describe(&t)), "expected an action")),
        }
    }

    fn label_dot_part(&mut self) -> PResult<LabelPart> {
        match self.tok().clone() {
            Tok::Int(v) => {
                let span = self.bump();
                Ok(LabelPart::Index(Expr { kind: ExprKind::Int(v), span }))
            }
            Tok::Sym(Sym::LBrace) => Ok(LabelPart::Set(self.set_expr()?)),
            Tok::Ident(w) if is_upper(&w) && !KEYWORDS.contains(&w.as_str()) => {
                Ok(LabelPart::Set(SetExpr::Named(self.name("a set")?)))
            }
            _ => Ok(LabelPart::Name(self.name("an action")?.text)),
        }
    }

    /// After `[`: `[e]`, `[i:R]`, `[lo..hi]` or `[R]`.
    fn bracket_part(&mut self) -> PResult<LabelPart> {
        let part = if matches!(self.tok(), Tok::Ident(_)) && *self.tok_at(1) == Tok::Sym(Sym::Colon) {
            let var = self.name("an index variable")?;
            self.bump();
            LabelPart::Bind(var, self.range_spec()?)
        } else {
            let e = self.expr()?;
            if self.eat_sym(Sym::DotDot) {
                LabelPart::Range(RangeSpec::Bounds(e, self.expr()?))
            } else {
                LabelPart::Index(e)
            }
        };
        self.expect_sym(Sym::RBrack, "after the index")?;
        Ok(part)
    }

    fn range_spec(&mut self) -> PResult<RangeSpec> {
        let lo = self.expr()?;
        if self.eat_sym(Sym::DotDot) {
            return Ok(RangeSpec::Bounds(lo, self.expr()?));
        }
        match lo.kind {
            ExprKind::Ident(text) => Ok(RangeSpec::Named(Name { text, span: lo.span })),
            _ => Err(Diagnostic::at(lo.span.to_src(self.file), "expected a range", "write `lo..hi` or a range name")),
        }
    }

    fn set_expr(&mut self) -> PResult<SetExpr> {
        if !self.is_sym(Sym::LBrace) {
            return match self.tok().clone() {
                Tok::Ident(w) if is_upper(&w) => Ok(SetExpr::Named(self.name("a set")?)),
                t => {
                    Err(self
                        .error_here(format!("expected a set, found {}", describe(&t)), "expected `{` or a set name"))
                }
            };
        }
        let open = self.bump();
        let mut elems = Vec::new();
        if !self.is_sym(Sym::RBrace) {
            loop {
                elems.push(self.label()?);
                if !self.eat_sym(Sym::Comma) {
                    break;
                }
            }
        }
        let close = self.expect_sym(Sym::RBrace, "to close the set")?;
        Ok(SetExpr::Elems(elems, open.to(close)))
    }

    /// `+{..}`, `/{..}`, `\{..}`, `@{..}` in any order, each at most once.
    fn post_ops(&mut self, allow_extend: bool) -> PResult<PostOps> {
        let mut ops = PostOps::default();
        loop {
            let span = self.span();
            let repeated = |ok: bool| {
                if ok {
                    Ok(())
                } else {
                    Err(Diagnostic::at(span.to_src(self.file), "operator given twice", "repeated here"))
                }
            };
            if allow_extend && self.is_sym(Sym::Plus) {
                repeated(ops.extend.is_none())?;
                self.bump();
                ops.extend = Some(self.set_expr()?);
            } else if self.is_sym(Sym::Slash) {
                repeated(ops.relabel.is_empty())?;
                self.bump();
                ops.relabel = self.relabel()?;
            } else if self.is_sym(Sym::Backslash) {
                repeated(ops.hide.is_none())?;
                self.bump();
                ops.hide = Some(self.set_expr()?);
            } else if self.is_sym(Sym::At) {
                repeated(ops.interface.is_none())?;
                self.bump();
                ops.interface = Some(self.set_expr()?);
            } else {
                return Ok(ops);
            }
        }
    }

    fn relabel(&mut self) -> PResult<Vec<RelabelPair>> {
        self.expect_sym(Sym::LBrace, "to open the relabelling")?;
        let mut pairs = Vec::new();
        loop {
            let new = self.label()?;
            self.expect_sym(Sym::Slash, "between the new and the old label (write `new/old`)")?;
            let old = self.label()?;
            pairs.push(RelabelPair { new, old });
            if !self.eat_sym(Sym::Comma) {
                break;
            }
        }
        self.expect_sym(Sym::RBrace, "to close the relabelling")?;
        Ok(pairs)
    }

    // ---- Compositions --------------------------------------------------------------------

    fn composite(&mut self) -> PResult<CompositeDef> {
        self.bump();
        let name = self.name("a composition name")?;
        let params = self.params()?;
        self.expect_sym(Sym::Eq, &format!("after `||{}`", name.text))?;
        let mut items = vec![self.item()?];
        while self.eat_sym(Sym::OrOr) {
            items.push(self.item()?);
        }
        let mut post = self.post_ops(false)?;
        self.expect_end(&format!("the composition `{}`", name.text))?;
        hoist_single_group(&mut items, &mut post);
        Ok(CompositeDef { name, params, items, post })
    }

    fn item(&mut self) -> PResult<Item> {
        self.enter()?;
        let i = self.item_inner();
        self.leave();
        i
    }

    fn item_inner(&mut self) -> PResult<Item> {
        let start = self.span();
        if self.is_word("forall") {
            self.bump();
            let decls = self.index_decls()?;
            if decls.is_empty() {
                return Err(self.error_here("expected `[i:R]` after `forall`".to_string(), "expected `[`"));
            }
            let body = self.item()?;
            let span = start.to(self.prev_span());
            return Ok(Item {
                prefixes: Vec::new(),
                kind: ItemKind::Forall(decls, Box::new(body)),
                post: PostOps::default(),
                span,
            });
        }
        let mut prefixes = Vec::new();
        // Each prefix counts as a level of nesting, as if it were `x:(P)`: every prefix of the
        // path from the composition to a process renames all of that process's events, so the
        // work of assembly grows with the square of their number.
        let outer = self.depth;
        while self.item_prefix_follows() {
            self.enter()?;
            let l = self.label()?;
            if self.eat_sym(Sym::ColonColon) {
                prefixes.push(ItemPrefix::Share(l));
            } else {
                self.expect_sym(Sym::Colon, "after the label")?;
                prefixes.push(ItemPrefix::Label(l));
            }
        }
        let kind = if prefixes.is_empty() || !self.is_word("forall") {
            self.item_primary()?
        } else {
            ItemKind::Group(vec![self.item()?])
        };
        let post = self.post_ops(false)?;
        self.depth = outer;
        Ok(Item { prefixes, kind, post, span: start.to(self.prev_span()) })
    }

    fn item_primary(&mut self) -> PResult<ItemKind> {
        if self.eat_sym(Sym::LParen) {
            let mut items = vec![self.item()?];
            while self.eat_sym(Sym::OrOr) {
                items.push(self.item()?);
            }
            self.expect_sym(Sym::RParen, "to close the parallel composition")?;
            return Ok(ItemKind::Group(items));
        }
        if !matches!(self.tok(), Tok::Ident(_)) {
            let found = describe(self.tok());
            return Err(self.error_here(format!("expected a process or component, found {found}"), "expected a name"));
        }
        let name = self.name("a process or component")?;
        let indices = self.index_exprs()?;
        let mut args = Vec::new();
        if self.eat_sym(Sym::LParen) {
            loop {
                args.push(self.expr()?);
                if !self.eat_sym(Sym::Comma) {
                    break;
                }
            }
            self.expect_sym(Sym::RParen, "after the arguments")?;
        }
        Ok(ItemKind::Ref { name, indices, args })
    }

    /// Whether a `label:` or `set::` prefix starts here: a label-shaped run of tokens followed
    /// by `:` or `::`.
    fn item_prefix_follows(&self) -> bool {
        let mut i = self.pos;
        let mut any = false;
        loop {
            match &self.toks[i].tok {
                Tok::Ident(w) if w != "forall" => i += 1,
                Tok::Int(_) | Tok::Sym(Sym::Dot) => i += 1,
                Tok::Sym(Sym::LBrack | Sym::LBrace) => match self.after_group(i) {
                    Some(j) => i = j,
                    None => return false,
                },
                Tok::Sym(Sym::Colon | Sym::ColonColon) => return any,
                _ => return false,
            }
            any = true;
        }
    }

    // ---- Expressions ---------------------------------------------------------------------

    /// An expression where `||` may not appear outside parentheses (top-level declarations).
    fn expr_top(&mut self) -> PResult<Expr> {
        self.binary(1)
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.binary(0)
    }

    /// Precedence climbing over the levels of [`LEVELS`], starting at `level`.
    fn binary(&mut self, level: usize) -> PResult<Expr> {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        // Each operator of a chain counts as a level of nesting, so that the tree's height,
        // which evaluation recurses over, stays below the limit.
        let outer = self.depth;
        while let Some(op) = LEVELS[level].iter().find(|(s, _)| self.is_sym(*s)).map(|(_, op)| *op) {
            self.enter()?;
            self.bump();
            let rhs = self.binary(level + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        }
        self.depth = outer;
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let e = self.unary_inner();
        self.leave();
        e
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        let op = match self.tok() {
            Tok::Sym(Sym::Minus) => Some(UnOp::Neg),
            Tok::Sym(Sym::Bang) => Some(UnOp::Not),
            Tok::Sym(Sym::Plus) => {
                self.bump();
                return self.unary();
            }
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), span });
        }
        match self.tok().clone() {
            Tok::Int(v) => Ok(Expr { kind: ExprKind::Int(v), span: self.bump() }),
            Tok::Ident(_) => {
                let n = self.name("a value")?;
                Ok(Expr { kind: ExprKind::Ident(n.text), span: n.span })
            }
            Tok::Sym(Sym::LParen) => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(Sym::RParen, "to close the expression")?;
                Ok(e)
            }
            t => Err(self.error_here(format!("expected an expression, found {}", describe(&t)), "expected a value")),
        }
    }
}

/// Binary operators by precedence, loosest first.
const LEVELS: &[&[(Sym, BinOp)]] = &[
    &[(Sym::OrOr, BinOp::Or)],
    &[(Sym::AndAnd, BinOp::And)],
    &[(Sym::EqEq, BinOp::Eq), (Sym::Ne, BinOp::Ne)],
    &[(Sym::Lt, BinOp::Lt), (Sym::Le, BinOp::Le), (Sym::Gt, BinOp::Gt), (Sym::Ge, BinOp::Ge)],
    &[(Sym::Shl, BinOp::Shl), (Sym::Shr, BinOp::Shr)],
    &[(Sym::Plus, BinOp::Add), (Sym::Minus, BinOp::Sub)],
    &[(Sym::Star, BinOp::Mul), (Sym::Slash, BinOp::Div), (Sym::Percent, BinOp::Rem)],
];

/// `||S = (P || Q)/{..}\{..}.` parses as one group item with its own operators; the group's
/// items become the composition's, and its operators the composition's, which means the same.
fn hoist_single_group(items: &mut Vec<Item>, post: &mut PostOps) {
    let [item] = items.as_slice() else { return };
    let hoistable = item.prefixes.is_empty()
        && matches!(item.kind, ItemKind::Group(_))
        && item.post.extend.is_none()
        && (post.relabel.is_empty() || item.post.relabel.is_empty())
        && (post.hides_nothing() || item.post.hides_nothing());
    if !hoistable {
        return;
    }
    let Some(item) = items.pop() else { return };
    let ItemKind::Group(inner) = item.kind else { return };
    *items = inner;
    let PostOps { relabel, hide, interface, .. } = item.post;
    if !relabel.is_empty() {
        post.relabel = relabel;
    }
    if hide.is_some() {
        post.hide = hide;
    }
    if interface.is_some() {
        post.interface = interface;
    }
}
