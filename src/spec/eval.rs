//! Values of the spec: constants, ranges and sets, integer expressions, and the expansion of
//! action labels into event names.
//!
//! It follows LTSA's conventions: `a[3]` and `a.3` are the event `a.3`, a label with a range or
//! a set stands for every combination (`a[0..1].{x, y}` is four events), and `a[i:R]` binds `i`
//! for the rest of the prefix. Integers are 64-bit; overflow, division by zero and shifts out of
//! range are located errors, never wrap-around.
//!
//! Known weaknesses: constants, ranges and sets must be declared before they are used; a label
//! or range is limited to [`MAX_VALUES`] values so that a typo cannot exhaust memory.

use crate::util::HashMap;

use super::ast::*;
use crate::diag::Diagnostic;

/// The most values a range or a label expansion may have.
pub const MAX_VALUES: usize = 100_000;

/// Variables in scope: index variables, parameters and bound action indices; the innermost
/// binding of a name is the last.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Env {
    vars: Vec<(String, i64)>,
}

impl Env {
    /// The value of a variable.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// A copy with one more binding.
    pub fn with(&self, name: &str, value: i64) -> Env {
        let mut e = self.clone();
        e.vars.push((name.to_string(), value));
        e
    }

    /// Adds a binding.
    pub fn bind(&mut self, name: &str, value: i64) {
        self.vars.push((name.to_string(), value));
    }

    /// The number of bindings.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    /// Whether there are no bindings.
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// `self`'s bindings, then `inner`'s (which shadow them).
    pub fn concat(&self, inner: &Env) -> Env {
        let mut e = self.clone();
        e.vars.extend(inner.vars.iter().cloned());
        e
    }

    /// The bindings after the first `n`.
    pub fn skip(&self, n: usize) -> Env {
        Env { vars: self.vars.iter().skip(n).cloned().collect() }
    }

    /// The innermost bindings of `names`, in that order (names not bound are left out).
    pub fn restrict(&self, names: &[String]) -> Env {
        Env { vars: names.iter().filter_map(|n| self.get(n).map(|v| (n.clone(), v))).collect() }
    }

    /// The values of `names` (absent ones as `None`), for keys.
    pub fn values(&self, names: &[String]) -> Vec<Option<i64>> {
        names.iter().map(|n| self.get(n)).collect()
    }
}

/// The evaluated `const`, `range` and `set` declarations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Globals {
    /// Constants.
    pub consts: HashMap<String, i64>,
    /// Ranges, inclusive.
    pub ranges: HashMap<String, (i64, i64)>,
    /// Sets of events, in the order written.
    pub sets: HashMap<String, Vec<String>>,
}

/// Evaluation in the context of one spec file.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The declarations.
    pub globals: &'a Globals,
    /// The file, for diagnostics.
    pub file: &'a str,
}

type EResult<T> = Result<T, Diagnostic>;

impl Ctx<'_> {
    /// A diagnostic at `span`.
    pub fn error(&self, span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic::at(span.to_src(self.file), message, label)
    }

    /// The value of `e`.
    pub fn eval(&self, e: &Expr, env: &Env) -> EResult<i64> {
        match &e.kind {
            ExprKind::Int(v) => Ok(*v),
            ExprKind::Ident(n) => env.get(n).or_else(|| self.globals.consts.get(n).copied()).ok_or_else(|| {
                self.error(
                    e.span,
                    format!("undefined constant `{n}`"),
                    "not a constant, parameter or variable in scope",
                )
            }),
            ExprKind::Unary(UnOp::Neg, a) => {
                let v = self.eval(a, env)?;
                v.checked_neg().ok_or_else(|| self.overflow(e.span))
            }
            ExprKind::Unary(UnOp::Not, a) => Ok(i64::from(self.eval(a, env)? == 0)),
            ExprKind::Binary(BinOp::And, a, b) => Ok(i64::from(self.eval(a, env)? != 0 && self.eval(b, env)? != 0)),
            ExprKind::Binary(BinOp::Or, a, b) => Ok(i64::from(self.eval(a, env)? != 0 || self.eval(b, env)? != 0)),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a, env)?, self.eval(b, env)?);
                self.binary(*op, x, y, e.span)
            }
        }
    }

    fn overflow(&self, span: Span) -> Diagnostic {
        self.error(span, "arithmetic overflow", "the value does not fit in 64 bits")
    }

    fn binary(&self, op: BinOp, x: i64, y: i64, span: Span) -> EResult<i64> {
        let v = match op {
            BinOp::Eq => Some(i64::from(x == y)),
            BinOp::Ne => Some(i64::from(x != y)),
            BinOp::Lt => Some(i64::from(x < y)),
            BinOp::Le => Some(i64::from(x <= y)),
            BinOp::Gt => Some(i64::from(x > y)),
            BinOp::Ge => Some(i64::from(x >= y)),
            BinOp::Add => x.checked_add(y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            BinOp::Div | BinOp::Rem if y == 0 => {
                return Err(self.error(span, "division by zero", "the divisor is 0 here"));
            }
            BinOp::Div => x.checked_div(y),
            BinOp::Rem => x.checked_rem(y),
            BinOp::Shl | BinOp::Shr if !(0..64).contains(&y) => {
                return Err(self.error(span, format!("shift by {y}"), "shifts must be by 0 to 63"));
            }
            BinOp::Shl => x.checked_mul(1i64 << y),
            BinOp::Shr => Some(x >> y),
            BinOp::And => Some(i64::from(x != 0 && y != 0)),
            BinOp::Or => Some(i64::from(x != 0 || y != 0)),
        };
        v.ok_or_else(|| self.overflow(span))
    }

    /// The bounds of a range, checked to be non-empty and not too large.
    pub fn range(&self, r: &RangeSpec, env: &Env) -> EResult<(i64, i64)> {
        let (lo, hi, span) = match r {
            RangeSpec::Named(n) => {
                let &(lo, hi) = self.globals.ranges.get(&n.text).ok_or_else(|| {
                    self.error(n.span, format!("undefined range `{}`", n.text), "not a declared range")
                })?;
                (lo, hi, n.span)
            }
            RangeSpec::Bounds(a, b) => (self.eval(a, env)?, self.eval(b, env)?, a.span.to(b.span)),
        };
        check_range(lo, hi).map_err(|msg| self.error(span, msg, "this range"))?;
        Ok((lo, hi))
    }

    /// The events of a set.
    pub fn set(&self, s: &SetExpr, env: &Env) -> EResult<Vec<String>> {
        match s {
            SetExpr::Named(n) => self
                .globals
                .sets
                .get(&n.text)
                .cloned()
                .ok_or_else(|| self.error(n.span, format!("undefined set `{}`", n.text), "not a declared set")),
            SetExpr::Elems(labels, _) => {
                let mut out: Vec<String> = Vec::new();
                for l in labels {
                    for (e, _) in self.expand(l, env)? {
                        if !out.contains(&e) {
                            out.push(e);
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// The events a label stands for, each with the environment its bindings give.
    pub fn expand(&self, label: &Label, env: &Env) -> EResult<Vec<(String, Env)>> {
        let mut acc: Vec<(String, Env)> = vec![(String::new(), env.clone())];
        for part in &label.parts {
            let mut next = Vec::new();
            for (prefix, env) in &acc {
                for (piece, env) in self.part_values(part, env)? {
                    let name = if prefix.is_empty() { piece } else { format!("{prefix}.{piece}") };
                    next.push((name, env));
                }
            }
            if next.len() > MAX_VALUES {
                return Err(self.error(
                    label.span,
                    "label stands for too many events",
                    format!("more than {MAX_VALUES}"),
                ));
            }
            acc = next;
        }
        if let Some((bad, _)) = acc.iter().find(|(e, _)| e == crate::automata::TAU_NAME) {
            return Err(self.error(
                label.span,
                format!("`{bad}` is reserved for internal steps"),
                "not an action name",
            ));
        }
        Ok(acc)
    }

    /// The values of one label component.
    fn part_values(&self, part: &LabelPart, env: &Env) -> EResult<Vec<(String, Env)>> {
        match part {
            LabelPart::Name(n) => Ok(vec![(n.clone(), env.clone())]),
            LabelPart::Index(e) => match &e.kind {
                ExprKind::Ident(n) if env.get(n).is_none() && self.globals.ranges.contains_key(n) => {
                    let r = RangeSpec::Named(Name { text: n.clone(), span: e.span });
                    self.part_values(&LabelPart::Range(r), env)
                }
                _ => Ok(vec![(self.eval(e, env)?.to_string(), env.clone())]),
            },
            LabelPart::Bind(var, r) => {
                let (lo, hi) = self.range(r, env)?;
                Ok((lo..=hi).map(|v| (v.to_string(), env.with(&var.text, v))).collect())
            }
            LabelPart::Range(r) => {
                let (lo, hi) = self.range(r, env)?;
                Ok((lo..=hi).map(|v| (v.to_string(), env.clone())).collect())
            }
            LabelPart::Set(s) => Ok(self.set(s, env)?.into_iter().map(|e| (e, env.clone())).collect()),
        }
    }

    /// Every combination of values of `decls`, each as an environment extending `env`.
    pub fn index_envs(&self, decls: &[IndexDecl], env: &Env) -> EResult<Vec<Env>> {
        let mut acc = vec![env.clone()];
        for d in decls {
            let mut next = Vec::new();
            for env in &acc {
                let (lo, hi) = self.range(&d.range, env)?;
                next.extend((lo..=hi).map(|v| env.with(&d.var.text, v)));
            }
            if next.len() > MAX_VALUES {
                return Err(self.error(d.var.span, "too many instances", format!("more than {MAX_VALUES}")));
            }
            acc = next;
        }
        Ok(acc)
    }
}

/// Checks that `lo..hi` is a non-empty range of at most [`MAX_VALUES`] values.
pub fn check_range(lo: i64, hi: i64) -> Result<(), String> {
    if lo > hi {
        return Err(format!("empty range {lo}..{hi}"));
    }
    if (hi as i128 - lo as i128) >= MAX_VALUES as i128 {
        return Err(format!("range {lo}..{hi} has more than {MAX_VALUES} values"));
    }
    Ok(())
}

/// Evaluates the `const`, `range` and `set` declarations in order.
pub fn globals(decls: &[Global], file: &str) -> Result<Globals, Diagnostic> {
    let mut g = Globals::default();
    let env = Env::default();
    for d in decls {
        let (name, taken) = match d {
            Global::Const(n, _) | Global::Range(n, ..) | Global::Set(n, _) => {
                let taken =
                    g.consts.contains_key(&n.text) || g.ranges.contains_key(&n.text) || g.sets.contains_key(&n.text);
                (n, taken)
            }
        };
        if taken {
            return Err(Diagnostic::at(
                name.span.to_src(file),
                format!("`{}` is declared twice", name.text),
                "declared again here",
            ));
        }
        let ctx = Ctx { globals: &g, file };
        match d {
            Global::Const(n, e) => {
                let v = ctx.eval(e, &env)?;
                g.consts.insert(n.text.clone(), v);
            }
            Global::Range(n, lo, hi) => {
                let r = ctx.range(&RangeSpec::Bounds(lo.clone(), hi.clone()), &env)?;
                g.ranges.insert(n.text.clone(), r);
            }
            Global::Set(n, s) => {
                let events = ctx.set(s, &env)?;
                g.sets.insert(n.text.clone(), events);
            }
        }
    }
    Ok(g)
}

/// A relabelling `/{new/old, ...}`: an event whose name starts with `old` (the whole name, or
/// up to a dot) is renamed by replacing that prefix with `new`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relabelling {
    /// `(new, old)` pairs, expanded to single events.
    pub pairs: Vec<(String, String)>,
}

/// Whether `prefix` is `event` or a dot-separated prefix of it.
pub fn has_prefix(event: &str, prefix: &str) -> bool {
    event.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

impl Relabelling {
    /// Whether it renames nothing.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The new names of `event`: the pairs with the longest matching old prefix each give one;
    /// an event no pair matches keeps its name.
    pub fn apply(&self, event: &str) -> Vec<String> {
        let Some(longest) = self.pairs.iter().filter(|(_, old)| has_prefix(event, old)).map(|(_, old)| old.len()).max()
        else {
            return vec![event.to_string()];
        };
        let mut out: Vec<String> = Vec::new();
        for (new, old) in self.pairs.iter().filter(|(_, old)| old.len() == longest && has_prefix(event, old)) {
            let renamed = format!("{new}{}", &event[old.len()..]);
            if !out.contains(&renamed) {
                out.push(renamed);
            }
        }
        out
    }

    /// The pairs of `ops` evaluated in `env`; in a pair, the bindings of the new label are in
    /// scope in the old one (`/{link[i:R]/out[i]}`).
    pub fn eval(ctx: &Ctx, pairs: &[RelabelPair], env: &Env) -> Result<Relabelling, Diagnostic> {
        let mut out = Relabelling::default();
        for p in pairs {
            for (new, env) in ctx.expand(&p.new, env)? {
                for (old, _) in ctx.expand(&p.old, &env)? {
                    out.pairs.push((new.clone(), old));
                }
            }
        }
        Ok(out)
    }
}

/// Hiding `\{..}` and interface `@{..}`: which events become internal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hiding {
    /// Events (and prefixes) to hide.
    pub hide: Vec<String>,
    /// If present, every event outside these (and their extensions) is hidden too.
    pub interface: Option<Vec<String>>,
}

impl Hiding {
    /// Whether nothing is hidden.
    pub fn is_empty(&self) -> bool {
        self.hide.is_empty() && self.interface.is_none()
    }

    /// Whether `event` is hidden.
    pub fn is_hidden(&self, event: &str) -> bool {
        // An observed event's letter (`write{Locked}`) is hidden with its event.
        let event = match super::Observations::split(event) {
            Some((e, _)) => e,
            None => event,
        };
        self.hide.iter().any(|h| has_prefix(event, h))
            || self.interface.as_ref().is_some_and(|keep| !keep.iter().any(|k| has_prefix(event, k)))
    }

    /// The hiding of `ops` evaluated in `env`.
    pub fn eval(ctx: &Ctx, ops: &PostOps, env: &Env) -> Result<Hiding, Diagnostic> {
        let hide = match &ops.hide {
            Some(s) => ctx.set(s, env)?,
            None => Vec::new(),
        };
        let interface = ops.interface.as_ref().map(|s| ctx.set(s, env)).transpose()?;
        Ok(Hiding { hide, interface })
    }
}
