//! Static checks of a parsed spec, run once by `spec::parse`, so that a misspelt name is
//! reported even in a branch that elaboration would never reach.
//!
//! What it verifies:
//! - process and composition names are unique, and so are local processes (by name and number
//!   of indices), parameters, event families and propositions;
//! - every identifier in an expression is a variable in scope, a parameter or a constant;
//! - every range and set name is declared;
//! - every process reference inside a process names a local or global process with that many
//!   indices (not a composition);
//! - in a composition, a process or composition gets at most as many indices and arguments as
//!   it declares, a C component gets none, and no composition contains itself.
//!
//! Known weakness: values are not checked here (empty ranges inside processes, division by
//! zero); elaboration reports those where it meets them.

use crate::util::{HashMap, HashSet};

use super::ast::*;
use super::eval::Globals;
use crate::diag::Diagnostic;

/// Checks `ast` against the evaluated declarations `g`.
pub fn check(ast: &SpecAst, g: &Globals, file: &str) -> Result<(), Diagnostic> {
    let ck = Checker { ast, g, file };
    ck.unique_names()?;
    for pd in &ast.processes {
        ck.process(pd)?;
    }
    for cd in &ast.composites {
        ck.composite(cd)?;
    }
    for ev in &ast.events {
        if let Some(r) = &ev.range {
            ck.range(r, &Vec::new())?;
        }
    }
    ck.no_cycles()?;
    ck.props()
}

type Scope = Vec<String>;

struct Checker<'a> {
    ast: &'a SpecAst,
    g: &'a Globals,
    file: &'a str,
}

impl Checker<'_> {
    fn error(&self, span: Span, message: String, label: &str) -> Diagnostic {
        Diagnostic::at(span.to_src(self.file), message, label)
    }

    fn twice(&self, n: &Name, what: &str) -> Diagnostic {
        self.error(n.span, format!("{what} `{}` is declared twice", n.text), "declared again here")
    }

    fn unique_names(&self) -> Result<(), Diagnostic> {
        let mut seen = HashSet::default();
        let procs = self.ast.processes.iter().map(|p| p.name());
        for n in procs.chain(self.ast.composites.iter().map(|c| &c.name)) {
            if !seen.insert(n.text.as_str()) {
                return Err(self.twice(n, "process"));
            }
        }
        let mut fams = HashSet::default();
        for e in &self.ast.events {
            if !fams.insert(e.name.text.as_str()) {
                return Err(self.twice(&e.name, "event family"));
            }
        }
        let mut props = HashSet::default();
        for p in &self.ast.props {
            if !props.insert(p.name.text.as_str()) {
                return Err(self.twice(&p.name, "proposition"));
            }
        }
        Ok(())
    }

    fn params(&self, params: &[Param]) -> Result<Scope, Diagnostic> {
        let mut scope = Scope::new();
        for p in params {
            if scope.contains(&p.name.text) {
                return Err(self.twice(&p.name, "parameter"));
            }
            self.expr(&p.default, &scope)?;
            scope.push(p.name.text.clone());
        }
        Ok(scope)
    }

    /// A `when` guard: in a property it may also read state propositions, which the
    /// property then observes at the events it guards (see [`super::Observations`]).
    fn guard(&self, pd: &ProcessDef, g: &Expr, scope: &Scope) -> Result<(), Diagnostic> {
        if !pd.property {
            return self.expr(g, scope);
        }
        let mut scope = scope.clone();
        for p in &self.ast.props {
            if !scope.contains(&p.name.text) && !self.g.consts.contains_key(&p.name.text) {
                scope.push(p.name.text.clone());
            }
        }
        self.expr(g, &scope)
    }

    fn expr(&self, e: &Expr, scope: &Scope) -> Result<(), Diagnostic> {
        let mut names = Vec::new();
        super::process::expr_vars(e, &mut names);
        for n in names {
            if !scope.contains(&n) && !self.g.consts.contains_key(&n) {
                if let Some(p) = self.ast.props.iter().find(|p| p.name.text == n) {
                    // A proposition is a fact about the assembly's current state: only a
                    // property observes it, and only in a guard, at the event it guards.
                    return Err(self
                        .error(
                            e.span,
                            format!("`{n}` is a state proposition; only a guard of a `property` may read it"),
                            "a state proposition outside a property's guard",
                        )
                        .with_note(format!(
                            "`{n}` is declared at line {}; here only constants, parameters and index variables can be read",
                            p.span.line
                        )));
                }
                return Err(self
                    .error(
                        e.span,
                        format!("undefined constant `{n}`"),
                        "not a constant, parameter or variable in scope",
                    )
                    .with_note(format!("`{n}` is used in this expression")));
            }
        }
        Ok(())
    }

    fn range(&self, r: &RangeSpec, scope: &Scope) -> Result<(), Diagnostic> {
        match r {
            RangeSpec::Named(n) if !self.g.ranges.contains_key(&n.text) => {
                Err(self.error(n.span, format!("undefined range `{}`", n.text), "not a declared range"))
            }
            RangeSpec::Named(_) => Ok(()),
            RangeSpec::Bounds(a, b) => {
                self.expr(a, scope)?;
                self.expr(b, scope)
            }
        }
    }

    fn set(&self, s: &SetExpr, scope: &Scope) -> Result<(), Diagnostic> {
        match s {
            SetExpr::Named(n) if !self.g.sets.contains_key(&n.text) => {
                Err(self.error(n.span, format!("undefined set `{}`", n.text), "not a declared set"))
            }
            SetExpr::Named(_) => Ok(()),
            SetExpr::Elems(labels, _) => labels.iter().try_for_each(|l| self.label(l, scope).map(|_| ())),
        }
    }

    /// Checks a label and returns the scope after it (with its bindings).
    fn label(&self, l: &Label, scope: &Scope) -> Result<Scope, Diagnostic> {
        let mut scope = scope.clone();
        for part in &l.parts {
            match part {
                LabelPart::Name(_) => {}
                LabelPart::Index(Expr { kind: ExprKind::Ident(n), .. })
                    if !scope.contains(n) && self.g.ranges.contains_key(n) => {}
                LabelPart::Index(e) => self.expr(e, &scope)?,
                LabelPart::Bind(v, r) => {
                    self.range(r, &scope)?;
                    scope.push(v.text.clone());
                }
                LabelPart::Range(r) => self.range(r, &scope)?,
                LabelPart::Set(s) => self.set(s, &scope)?,
            }
        }
        Ok(scope)
    }

    fn post(&self, post: &PostOps, scope: &Scope) -> Result<(), Diagnostic> {
        for s in [&post.extend, &post.hide, &post.interface].into_iter().flatten() {
            self.set(s, scope)?;
        }
        for pair in &post.relabel {
            let inner = self.label(&pair.new, scope)?;
            self.label(&pair.old, &inner)?;
        }
        Ok(())
    }

    fn index_decls(&self, decls: &[IndexDecl], scope: &Scope) -> Result<Scope, Diagnostic> {
        let mut scope = scope.clone();
        for d in decls {
            self.range(&d.range, &scope)?;
            scope.push(d.var.text.clone());
        }
        Ok(scope)
    }

    fn process(&self, pd: &ProcessDef) -> Result<(), Diagnostic> {
        let params = self.params(&pd.params)?;
        let mut locals = HashSet::default();
        for l in &pd.locals {
            if !locals.insert((l.name.text.as_str(), l.indices.len())) {
                return Err(self.twice(&l.name, "local process"));
            }
        }
        for l in &pd.locals {
            let scope = self.index_decls(&l.indices, &params)?;
            self.body(pd, l.body, scope)?;
        }
        self.post(&pd.post, &params)
    }

    /// Walks a body with an explicit stack (prefix chains may be long).
    fn body(&self, pd: &ProcessDef, root: TermId, scope: Scope) -> Result<(), Diagnostic> {
        let mut stack = vec![(root, scope)];
        while let Some((t, scope)) = stack.pop() {
            match pd.term(t) {
                Term::Stop(_) | Term::End(_) | Term::Error(_) => {}
                Term::Ref { name, indices } => {
                    indices.iter().try_for_each(|e| self.expr(e, &scope))?;
                    self.process_ref(pd, name, indices.len())?;
                }
                Term::Choice(bs, _) => stack.extend(bs.iter().map(|&b| (b, scope.clone()))),
                Term::Prefix { guard, label, next } => {
                    if let Some(g) = guard {
                        self.guard(pd, g, &scope)?;
                    }
                    stack.push((*next, self.label(label, &scope)?));
                }
                Term::If { cond, then, otherwise } => {
                    self.expr(cond, &scope)?;
                    stack.push((*then, scope.clone()));
                    if let Some(o) = otherwise {
                        stack.push((*o, scope));
                    }
                }
            }
        }
        Ok(())
    }

    fn process_ref(&self, pd: &ProcessDef, name: &Name, arity: usize) -> Result<(), Diagnostic> {
        if pd.local(&name.text, arity).is_some() {
            return Ok(());
        }
        let global = self.ast.processes.iter().find(|p| p.name().text == name.text);
        if let Some(g) = global
            && g.locals[0].indices.len() == arity
        {
            return Ok(());
        }
        if let Some(l) = pd.locals.iter().find(|l| l.name.text == name.text).or(global.map(|g| &g.locals[0])) {
            let msg = format!("`{}` takes {}, given {arity}", name.text, count(l.indices.len(), "index", "indices"));
            return Err(self.error(name.span, msg, "wrong number of indices"));
        }
        if self.ast.composites.iter().any(|c| c.name.text == name.text) {
            let msg = format!("`{}` is a composition; a process body can only refer to processes", name.text);
            return Err(self.error(name.span, msg, "a composition"));
        }
        Err(self.error(name.span, format!("unknown process `{}`", name.text), "not defined in this spec"))
    }

    fn composite(&self, cd: &CompositeDef) -> Result<(), Diagnostic> {
        let scope = self.params(&cd.params)?;
        for item in &cd.items {
            self.item(item, &scope)?;
        }
        self.post(&cd.post, &scope)
    }

    fn item(&self, item: &Item, scope: &Scope) -> Result<(), Diagnostic> {
        let mut scope = scope.clone();
        for p in &item.prefixes {
            match p {
                ItemPrefix::Label(l) => scope = self.label(l, &scope)?,
                ItemPrefix::Share(l) => {
                    self.label(l, &scope)?;
                }
            }
        }
        match &item.kind {
            ItemKind::Forall(decls, body) => {
                let inner = self.index_decls(decls, &scope)?;
                self.item(body, &inner)?;
            }
            ItemKind::Group(items) => items.iter().try_for_each(|i| self.item(i, &scope))?,
            ItemKind::Ref { name, indices, args } => {
                indices.iter().chain(args).try_for_each(|e| self.expr(e, &scope))?;
                self.item_ref(name, indices.len(), args.len())?;
            }
        }
        self.post(&item.post, &scope)
    }

    fn item_ref(&self, name: &Name, n_indices: usize, n_args: usize) -> Result<(), Diagnostic> {
        let (indices, params) = if let Some(p) = self.ast.processes.iter().find(|p| p.name().text == name.text) {
            (p.locals[0].indices.len(), p.params.len())
        } else if let Some(c) = self.ast.composites.iter().find(|c| c.name.text == name.text) {
            (0, c.params.len())
        } else {
            (0, 0)
        };
        if n_indices != 0 && n_indices != indices {
            let msg = format!("`{}` takes {}, given {n_indices}", name.text, count(indices, "index", "indices"));
            return Err(self.error(name.span, msg, "wrong number of indices"));
        }
        if n_args > params {
            let msg = format!("`{}` takes {}, given {n_args}", name.text, count(params, "argument", "arguments"));
            return Err(self.error(name.span, msg, "too many arguments"));
        }
        Ok(())
    }

    /// Checks what the spec alone can say about each `prop`: its name is not a process, and it
    /// reads a C component, not an FSP process, one that a composition names when the spec
    /// has compositions. Whether the component exists and its expression reads only its
    /// globals is checked against the C sources ([`super::Spec::check_props`]).
    fn props(&self) -> Result<(), Diagnostic> {
        let is_fsp = |n: &str| {
            self.ast.processes.iter().any(|p| p.name().text == n)
                || self.ast.composites.iter().any(|c| c.name.text == n)
        };
        let mut named = Vec::new();
        for cd in &self.ast.composites {
            cd.items.iter().for_each(|i| item_refs(i, &mut named));
        }
        for p in &self.ast.props {
            if is_fsp(&p.name.text) {
                return Err(self.error(
                    p.name.span,
                    format!("proposition `{}` has the name of a process", p.name.text),
                    "also a process or composition",
                ));
            }
            let c = &p.component;
            let process = self.ast.processes.iter().find(|pd| pd.name().text == c.text);
            match (process, &p.states) {
                (Some(pd), _) if pd.property => {
                    return Err(self
                        .error(
                            c.span,
                            format!("`{}` is a property; a property cannot own a proposition", c.text),
                            "a property",
                        )
                        .with_note(
                            "a proposition labels the states of a C component or of an FSP process of the assembly",
                        ));
                }
                (Some(pd), Some(states)) => self.prop_states(pd, states)?,
                (Some(_), None) => {
                    return Err(self
                        .error(
                            p.expr_span,
                            format!("`{}` is an FSP process: its proposition names its local processes", c.text),
                            "a C expression",
                        )
                        .with_note(format!(
                            "write the local processes in whose states `{}` holds: `prop {} = {}: {{LOCAL, LOCAL[1..2]}}`",
                            p.name.text, p.name.text, c.text
                        )));
                }
                (None, _) if is_fsp(&c.text) => {
                    return Err(self
                        .error(
                            c.span,
                            format!("`{}` is a composition; a proposition labels the states of one process", c.text),
                            "a composition",
                        )
                        .with_note("name a C component or an FSP process of the composition"));
                }
                (None, Some(_)) => {
                    return Err(self
                        .error(
                            p.expr_span,
                            format!(
                                "`{}` is not an FSP process, so a C component: its proposition is a C expression",
                                c.text
                            ),
                            "a set of local processes",
                        )
                        .with_note(format!(
                            "write a condition over its globals: `prop {} = {}: (expression)`",
                            p.name.text, c.text
                        )));
                }
                (None, None) => {}
            }
            if !self.ast.composites.is_empty() && !named.iter().any(|n| n.text == c.text) {
                let mut comps: Vec<&str> =
                    named.iter().map(|n| n.text.as_str()).filter(|n| !is_fsp(n)).collect::<Vec<_>>();
                comps.sort();
                comps.dedup();
                let known = if comps.is_empty() { "none".to_string() } else { comps.join(", ") };
                return Err(self
                    .error(
                        c.span,
                        format!("unknown component `{}`: no composition of the spec names it", c.text),
                        "not a component of any composition",
                    )
                    .with_note(format!("the C components of the compositions: {known}")));
            }
        }
        Ok(())
    }

    /// The local processes of an FSP proposition: each is a local process of `pd` with its
    /// number of indices (or none: every instance), over constants and `pd`'s parameters.
    fn prop_states(&self, pd: &ProcessDef, states: &[StateRef]) -> Result<(), Diagnostic> {
        let scope: Scope = pd.params.iter().map(|p| p.name.text.clone()).collect();
        for st in states {
            let Some(local) = pd.locals.iter().find(|l| l.name.text == st.name.text) else {
                let names: Vec<&str> = pd.locals.iter().map(|l| l.name.text.as_str()).collect();
                return Err(self
                    .error(
                        st.name.span,
                        format!("`{}` is not a local process of `{}`", st.name.text, pd.name().text),
                        "no such local process",
                    )
                    .with_note(format!("the local processes of `{}`: {}", pd.name().text, names.join(", "))));
            };
            let arity =
                pd.locals.iter().filter(|l| l.name.text == st.name.text).map(|l| l.indices.len()).collect::<Vec<_>>();
            if !st.indices.is_empty() && !arity.contains(&st.indices.len()) {
                let msg = format!(
                    "`{}` takes {}, given {}",
                    st.name.text,
                    count(local.indices.len(), "index", "indices"),
                    st.indices.len()
                );
                return Err(self.error(st.span, msg, "wrong number of indices"));
            }
            for part in &st.indices {
                match part {
                    LabelPart::Index(Expr { kind: ExprKind::Ident(n), .. })
                        if !scope.contains(n) && self.g.ranges.contains_key(n) => {}
                    LabelPart::Index(e) => self.expr(e, &scope)?,
                    LabelPart::Range(r) | LabelPart::Bind(_, r) => self.range(r, &scope)?,
                    LabelPart::Name(_) | LabelPart::Set(_) => {}
                }
            }
        }
        Ok(())
    }

    /// Rejects a composition that contains itself, directly or through others.
    fn no_cycles(&self) -> Result<(), Diagnostic> {
        let index: HashMap<&str, usize> =
            self.ast.composites.iter().enumerate().map(|(i, c)| (c.name.text.as_str(), i)).collect();
        let edges: Vec<Vec<(usize, Span)>> = self
            .ast
            .composites
            .iter()
            .map(|c| {
                let mut refs = Vec::new();
                c.items.iter().for_each(|i| item_refs(i, &mut refs));
                refs.into_iter().filter_map(|n| index.get(n.text.as_str()).map(|&j| (j, n.span))).collect()
            })
            .collect();
        // Colours: 0 unvisited, 1 on the current path, 2 done.
        let mut colour = vec![0u8; edges.len()];
        for start in 0..edges.len() {
            if colour[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            colour[start] = 1;
            while let Some((c, next)) = stack.pop() {
                let Some(&(d, span)) = edges[c].get(next) else {
                    colour[c] = 2;
                    continue;
                };
                stack.push((c, next + 1));
                match colour[d] {
                    1 => {
                        let msg = format!("composition `{}` contains itself", self.ast.composites[d].name.text);
                        return Err(self.error(span, msg, "this reference closes a cycle"));
                    }
                    0 => {
                        colour[d] = 1;
                        stack.push((d, 0));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// `1 index`, `2 indices`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The names an item refers to.
fn item_refs<'a>(item: &'a Item, out: &mut Vec<&'a Name>) {
    match &item.kind {
        ItemKind::Ref { name, .. } => out.push(name),
        ItemKind::Group(items) => items.iter().for_each(|i| item_refs(i, out)),
        ItemKind::Forall(_, body) => item_refs(body, out),
    }
}
