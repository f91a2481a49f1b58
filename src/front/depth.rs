//! Depth guards of the front door: every input that nests too deeply ends in a located
//! diagnostic, never in a stack overflow.
//!
//! Two checks run on each file, in this order:
//!
//! 1. [`check_text`] scans the preprocessed text *before* `lang_c` parses it. `lang_c` is a
//!    recursive-descent (PEG) parser: its recursion grows with brackets that are open at once and
//!    with right-recursive chains (prefix operators and casts, `?:` and assignments, `else if`
//!    and statements nested without braces). The scan bounds an over-approximation of that
//!    recursion: open brackets plus, for each open bracket, the length of the current chain.
//!    Flat left-associative chains (`a + b + c ...`) are parsed by `lang_c` in a loop and are not
//!    counted here.
//! 2. [`check_ast`] walks the parsed tree with a depth counter and stops descending past
//!    [`MAX_AST_DEPTH`], so that every later recursive walk (effects, lowering, the IR, the
//!    encoder) only ever sees trees of bounded depth. It catches what the scan lets through,
//!    chiefly long flat chains, which `lang_c` builds as left-deep trees.
//!
//! Known weaknesses: the scan is lexical and approximate; it may count a chain where the parser
//! does not recurse (e.g. `f(x)(y)` counts as a cast), which only matters for inputs near the
//! limits, far beyond hand-written or generated code seen so far. The binary also runs its work
//! on a thread with a large stack (`cli::run_on_big_stack`) as a second guard, never the only one.

use lang_c::ast::{Declarator, Expression, Initializer, Statement, TranslationUnit, TypeName};
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

/// The most brackets (`(`, `[`, `{`) open at once, plus chain links, that the scan accepts.
pub const MAX_TEXT_NESTING: usize = 1000;
/// The deepest syntax tree (counting expressions, statements, declarators, initializers and
/// type names) that the front end accepts.
pub const MAX_AST_DEPTH: usize = 1500;

/// Where the scan found too deep a nesting, and what nests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// Byte offset in the preprocessed text.
    pub offset: usize,
    /// What nests, for the message.
    pub what: &'static str,
}

/// Token classes the scan tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    /// An identifier or keyword.
    Word(&'a str),
    /// A number, string or character literal.
    Literal,
    /// A punctuator.
    Punct(&'a str),
}

const PUNCTS: [&str; 24] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=",
    "-=", "&=", "^=", "|=", "##", "<:",
];

/// Splits preprocessed text into tokens with their offsets; line markers and other `#` lines
/// are skipped.
fn tokens(src: &str) -> Vec<(usize, Tok<'_>)> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80) {
                i += 1;
            }
            // Only whole characters: the text is UTF-8 and `i` stops at an ASCII byte or the end.
            out.push((start, Tok::Word(&src[start..i])));
        } else if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Literal));
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            out.push((start, Tok::Literal));
        } else {
            let p = PUNCTS.iter().find(|p| src[i..].starts_with(**p)).copied();
            let len = p.map_or(1, str::len);
            // `c` is ASCII here (non-ASCII bytes start a word above), so one byte is a character.
            out.push((start, Tok::Punct(p.unwrap_or(&src[i..i + 1]))));
            i += len;
        }
    }
    out
}

fn is_assignment(p: &str) -> bool {
    matches!(p, "=" | "*=" | "/=" | "%=" | "+=" | "-=" | "<<=" | ">>=" | "&=" | "^=" | "|=")
}

/// Whether a token ends an operand, so that an operator after it is binary.
fn ends_operand(t: Option<Tok>) -> bool {
    match t {
        Some(Tok::Word(w)) => !matches!(w, "return" | "case" | "sizeof" | "else" | "do"),
        Some(Tok::Literal) => true,
        Some(Tok::Punct(p)) => matches!(p, ")" | "]" | "}" | "++" | "--"),
        None => false,
    }
}

/// One open bracket of the scan: the chains running inside it.
#[derive(Default)]
struct Level {
    /// Links of the current expression: prefix operators, casts, `?`, assignments.
    expr: usize,
    /// Links of the current statement: `else`, and statements nested without braces.
    stmt: usize,
}

/// Checks that `src`, preprocessed C, does not nest deeper than [`MAX_TEXT_NESTING`].
pub fn check_text(src: &str) -> Result<(), TooDeep> {
    let toks = tokens(src);
    let mut levels = vec![Level::default()];
    // Open brackets beyond the outermost level plus every level's chains.
    let mut total = 0usize;
    let mut prev: Option<Tok> = None;
    for (k, &(offset, tok)) in toks.iter().enumerate() {
        let next = toks.get(k + 1).map(|t| t.1);
        let (mut expr_link, mut stmt_link) = (false, false);
        let (mut expr_reset, mut stmt_reset) = (false, false);
        match tok {
            Tok::Punct("(" | "[" | "{") => {
                levels.push(Level::default());
                total += 1;
                if total > MAX_TEXT_NESTING {
                    return Err(TooDeep { offset, what: "brackets" });
                }
                prev = Some(tok);
                continue;
            }
            Tok::Punct(")" | "]" | "}") => {
                if levels.len() > 1 {
                    let l = levels.pop().expect("more than one level");
                    total -= 1 + l.expr + l.stmt;
                }
                // A closed parenthesis followed by an operand or another prefix looks like a
                // cast, which the parser handles by recursion.
                if tok == Tok::Punct(")")
                    && matches!(
                        next,
                        Some(Tok::Word(_) | Tok::Literal | Tok::Punct("(" | "-" | "+" | "!" | "~" | "*" | "&"))
                    )
                {
                    expr_link = true;
                }
                if tok == Tok::Punct("}") {
                    expr_reset = true;
                    stmt_reset = next != Some(Tok::Word("else"));
                }
            }
            Tok::Punct(";") => {
                expr_reset = true;
                stmt_reset = next != Some(Tok::Word("else"));
            }
            Tok::Punct(",") => expr_reset = true,
            Tok::Punct("?") => expr_link = true,
            Tok::Punct(p) if is_assignment(p) => expr_link = true,
            Tok::Punct("-" | "+" | "!" | "~" | "*" | "&" | "++" | "--") if !ends_operand(prev) => expr_link = true,
            Tok::Word("sizeof") => expr_link = true,
            Tok::Word("else") => stmt_link = true,
            Tok::Word("if" | "while" | "for" | "switch" | "do")
                if matches!(prev, Some(Tok::Punct(")") | Tok::Word("do"))) =>
            {
                stmt_link = true
            }
            _ => {}
        }
        let level = levels.last_mut().expect("the outermost level stays");
        if expr_reset {
            total -= level.expr;
            level.expr = 0;
        }
        if stmt_reset {
            total -= level.stmt;
            level.stmt = 0;
        }
        if expr_link || stmt_link {
            if expr_link {
                level.expr += 1;
            } else {
                level.stmt += 1;
            }
            total += 1;
            if total > MAX_TEXT_NESTING {
                return Err(TooDeep { offset, what: "operators, casts or statements" });
            }
        }
        prev = Some(tok);
    }
    Ok(())
}

/// Where the tree is too deep: the span of the node at the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeTooDeep {
    /// Byte offset in the preprocessed text.
    pub offset: usize,
}

struct DepthWalk {
    depth: usize,
    found: Option<TreeTooDeep>,
}

impl DepthWalk {
    /// Enters a node: false (and the place remembered) when it is one level too many.
    fn enter(&mut self, span: &Span) -> bool {
        if self.found.is_some() {
            return false;
        }
        if self.depth >= MAX_AST_DEPTH {
            self.found = Some(TreeTooDeep { offset: span.start });
            return false;
        }
        self.depth += 1;
        true
    }
}

impl<'ast> Visit<'ast> for DepthWalk {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        if self.enter(span) {
            visit::visit_expression(self, e, span);
            self.depth -= 1;
        }
    }

    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        if self.enter(span) {
            visit::visit_statement(self, s, span);
            self.depth -= 1;
        }
    }

    fn visit_declarator(&mut self, d: &'ast Declarator, span: &'ast Span) {
        if self.enter(span) {
            visit::visit_declarator(self, d, span);
            self.depth -= 1;
        }
    }

    fn visit_initializer(&mut self, i: &'ast Initializer, span: &'ast Span) {
        if self.enter(span) {
            visit::visit_initializer(self, i, span);
            self.depth -= 1;
        }
    }

    fn visit_type_name(&mut self, t: &'ast TypeName, span: &'ast Span) {
        if self.enter(span) {
            visit::visit_type_name(self, t, span);
            self.depth -= 1;
        }
    }
}

/// Checks that no path of `unit`'s syntax tree is deeper than [`MAX_AST_DEPTH`]; the walk
/// itself never recurses deeper than that.
pub fn check_ast(unit: &TranslationUnit) -> Result<(), TreeTooDeep> {
    let mut walk = DepthWalk { depth: 0, found: None };
    walk.visit_translation_unit(unit);
    walk.found.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_passes_the_scan() {
        let src = "int f(int x) { if (x) { return -(x + 1) * 2; } else if (x > 3) x = x ? 1 : 2; return (int)x; }";
        assert_eq!(check_text(src), Ok(()));
    }

    #[test]
    fn nested_parentheses_are_caught_at_the_limit() {
        let src = format!("int x = {}1{};", "(".repeat(3000), ")".repeat(3000));
        let err = check_text(&src).unwrap_err();
        assert_eq!(err.what, "brackets");
        // The assignment is one link, so the bracket that goes over is one before the limit.
        assert_eq!(err.offset, "int x = ".len() + MAX_TEXT_NESTING - 1);
    }

    #[test]
    fn chains_of_prefix_operators_casts_and_conditionals_are_caught() {
        for chain in ["(int)".repeat(3000), "- ".repeat(3000), "x ? 1 : ".repeat(3000), "x = ".repeat(3000)] {
            let src = format!("void f(void) {{ int x; x = {chain} 1; }}");
            assert!(check_text(&src).is_err(), "{}", &chain[..20]);
        }
    }

    #[test]
    fn long_sequences_of_statements_are_not_a_chain() {
        let body = "if (x) x = -x; else x = (int)x;\n".repeat(5000);
        assert_eq!(check_text(&format!("void f(int x) {{ {body} }}")), Ok(()));
    }

    #[test]
    fn else_if_chains_are_counted() {
        let body = "if (x == 1) x = 2; else ".repeat(3000);
        assert!(check_text(&format!("void f(int x) {{ {body} x = 0; }}")).is_err());
    }
}
