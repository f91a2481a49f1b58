//! The FSP lexer: source text to tokens with spans.
//!
//! It follows the lexical conventions of LTSA's FSP: identifiers, decimal integers, `//` and
//! `/* */` comments, and the operator symbols of the process and expression grammars. Keywords
//! are ordinary identifiers here; the parser decides where a word is a keyword, so that the
//! spec's own extensions (`event`, `prop`) do not take names away from FSP models.
//!
//! Characters that FSP does not use (`&` alone, `^`, `~`, `?`, string and character literals)
//! become [`Tok::Other`] tokens instead of errors: they are legal inside the C expression of a
//! `prop` declaration, which the parser keeps as raw text, and the parser reports them anywhere
//! else.
//!
//! Known weaknesses: integers are decimal only; a non-ASCII letter is not part of an identifier.

use super::ast::Span;
use crate::diag::Diagnostic;

/// A punctuation or operator symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sym {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBrack,
    /// `]`
    RBrack,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `=`
    Eq,
    /// `==`
    EqEq,
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
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `!`
    Bang,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `|`
    Bar,
    /// `->`
    Arrow,
    /// `\`
    Backslash,
    /// `@`
    At,
    /// `;`
    Semi,
}

impl Sym {
    /// The symbol as written.
    pub fn text(self) -> &'static str {
        use Sym::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBrack => "[",
            RBrack => "]",
            LBrace => "{",
            RBrace => "}",
            Comma => ",",
            Dot => ".",
            DotDot => "..",
            Colon => ":",
            ColonColon => "::",
            Eq => "=",
            EqEq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Shl => "<<",
            Shr => ">>",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Bang => "!",
            AndAnd => "&&",
            OrOr => "||",
            Bar => "|",
            Arrow => "->",
            Backslash => "\\",
            At => "@",
            Semi => ";",
        }
    }
}

/// Symbols in the order the lexer tries them: longer ones first.
const SYMBOLS: &[Sym] = {
    use Sym::*;
    &[
        DotDot, ColonColon, EqEq, Ne, Le, Ge, Shl, Shr, AndAnd, OrOr, Arrow, LParen, RParen, LBrack, RBrack, LBrace,
        RBrace, Comma, Dot, Colon, Eq, Lt, Gt, Plus, Minus, Star, Slash, Percent, Bang, Bar, Backslash, At, Semi,
    ]
};

/// A token's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// A non-negative decimal integer.
    Int(i64),
    /// A symbol.
    Sym(Sym),
    /// Anything FSP does not use: a stray character or a quoted literal (kept for C text).
    Other(String),
    /// The end of the input.
    Eof,
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where it is.
    pub span: Span,
}

/// Tokens of `source`; the last one is [`Tok::Eof`].
pub fn lex(source: &str, file: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut lx = Lexer { src: source, pos: 0, line: 1, col: 1, file };
    let mut out = Vec::new();
    loop {
        lx.skip_blanks_and_comments()?;
        let start = lx.mark();
        let Some(c) = lx.peek() else {
            out.push(Token { tok: Tok::Eof, span: lx.span_from(start) });
            return Ok(out);
        };
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            Tok::Ident(lx.take_while(|c| c.is_ascii_alphanumeric() || c == '_').to_string())
        } else if c.is_ascii_digit() {
            lx.int(start)?
        } else if c == '"' || c == '\'' {
            Tok::Other(lx.quoted(c).to_string())
        } else if let Some(sym) = lx.symbol() {
            Tok::Sym(sym)
        } else {
            lx.bump();
            Tok::Other(c.to_string())
        };
        out.push(Token { tok, span: lx.span_from(start) });
    }
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
    col: u32,
    file: &'a str,
}

/// A position in the source: byte offset, line and column.
#[derive(Clone, Copy)]
struct Mark {
    pos: usize,
    line: u32,
    col: u32,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn mark(&self) -> Mark {
        Mark { pos: self.pos, line: self.line, col: self.col }
    }

    fn span_from(&self, m: Mark) -> Span {
        Span { start: m.pos, end: self.pos, line: m.line, col: m.col, end_line: self.line, end_col: self.col }
    }

    fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(&f) {
            self.bump();
        }
        &self.src[start..self.pos]
    }

    fn skip_blanks_and_comments(&mut self) -> Result<(), Diagnostic> {
        loop {
            self.take_while(char::is_whitespace);
            if self.rest().starts_with("//") {
                self.take_while(|c| c != '\n');
            } else if self.rest().starts_with("/*") {
                let start = self.mark();
                self.bump();
                self.bump();
                loop {
                    if self.rest().starts_with("*/") {
                        self.bump();
                        self.bump();
                        break;
                    }
                    if self.bump().is_none() {
                        let mut span = self.span_from(start);
                        span.end_line = span.line;
                        span.end_col = span.col + 2;
                        return Err(Diagnostic::at(
                            span.to_src(self.file),
                            "unterminated comment",
                            "this comment is never closed with `*/`",
                        ));
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn int(&mut self, start: Mark) -> Result<Tok, Diagnostic> {
        let digits = self.take_while(|c| c.is_ascii_digit());
        match digits.parse::<i64>() {
            Ok(v) => Ok(Tok::Int(v)),
            Err(_) => Err(Diagnostic::at(
                self.span_from(start).to_src(self.file),
                "integer literal too large",
                "this does not fit in 64 bits",
            )),
        }
    }

    /// A quoted literal, up to the closing quote or the end of the line.
    fn quoted(&mut self, quote: char) -> &'a str {
        let start = self.pos;
        self.bump();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
            if c == '\\' {
                self.bump();
            } else if c == quote {
                break;
            }
        }
        &self.src[start..self.pos]
    }

    fn symbol(&mut self) -> Option<Sym> {
        let sym = SYMBOLS.iter().copied().find(|s| self.rest().starts_with(s.text()))?;
        for _ in 0..sym.text().len() {
            self.bump();
        }
        Some(sym)
    }
}
