//! `subst show ir|model|assumption|table`: a component's IR and its abstract model, and what a
//! level of a property's compositional check learned (its assumption and its L* observation
//! table), as text and as Graphviz DOT.
//!
//! The abstract model is the may-abstraction (existential) or, with `--must`, the
//! must-abstraction (universal) of [`crate::abs`], at the precision the cache holds for the
//! component's code (what the last `verify` or `check` learned), else with no predicates. A
//! state is named by its location and the valuation of the predicates placed there
//! (`l3 p0 !p1`); the predicates are listed with their SMT-LIB text.
//!
//! Known weakness: the precision is the cached one; `show` does not refine by itself.

use std::fmt::Write;

use crate::abs::{AState, Abstractor, Arg, EventView, Label, Mode, PrecisionText};
use crate::ir::Component;

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The IR of a component as a DOT graph: a node per location, an edge per IR edge labelled
/// with its statement and source line.
pub fn ir_dot(comp: &Component) -> String {
    let mut out = format!("digraph \"{}\" {{\n  node [shape=circle];\n", dot_escape(&comp.name));
    for l in 0..comp.n_locs {
        let shape = if l == comp.entry.0 {
            ", shape=doublecircle"
        } else if l == comp.exit.0 {
            ", shape=box"
        } else {
            ""
        };
        let _ = writeln!(out, "  l{l} [label=\"l{l}\"{shape}];");
    }
    for e in &comp.edges {
        let stmt = crate::ir::text::stmt(comp, &e.stmt);
        let at = e.origin.as_ref().map(|o| format!(" @{}", o.span.line)).unwrap_or_default();
        let _ = writeln!(out, "  l{} -> l{} [label=\"{}{}\"];", e.from.0, e.to.0, dot_escape(&stmt), at);
    }
    out.push_str("}\n");
    out
}

/// A component's abstract model, built at the cached precision when there is one.
pub struct Model {
    /// The graph.
    pub arg: Arg,
    /// The predicates (SMT-LIB) and where each location uses them.
    pub precision: PrecisionText,
    /// Whether the precision came from the cache.
    pub cached: bool,
}

/// Builds the may- or must-model of `comp`.
pub fn model(
    comp: &Component,
    view: EventView,
    mode: Mode,
    cache: &crate::cache::Cache,
) -> Result<Model, crate::diag::Diagnostic> {
    let mut abs = Abstractor::new(comp, view);
    let key = crate::check::compat::predicates_key(comp);
    let cached = cache.load::<PrecisionText>("predicates", &key).is_some_and(|text| abs.load_precision(&text));
    let mut smt = crate::smt::Smt::new(crate::smt::DEFAULT_QUERY_BUDGET);
    let arg = abs.build(&mut smt, mode).map_err(|e| {
        crate::diag::Diagnostic::global(format!("the abstract model of `{}` could not be built: {e:?}", comp.name))
    })?;
    Ok(Model { arg, precision: abs.precision_text(), cached })
}

fn state_name(m: &Model, s: usize) -> String {
    match &m.arg.states[s] {
        AState::Error => "error".to_string(),
        AState::At(loc, val) => {
            let preds = m.precision.at.get(loc.0 as usize).map(Vec::as_slice).unwrap_or_default();
            let mut name = format!("l{}", loc.0);
            for (p, v) in preds.iter().zip(val) {
                let _ = write!(name, " {}p{}", if *v { "" } else { "!" }, p);
            }
            name
        }
    }
}

fn label_text(comp: &Component, l: &Label) -> String {
    match l {
        Label::Tau => "tau".to_string(),
        Label::Event(e) => e.clone(),
        Label::Error(k) => k.event(&comp.name),
    }
}

/// The model as text: the predicates, then one line per abstract edge with its IR statement.
pub fn model_text(comp: &Component, m: &Model, mode: Mode) -> String {
    let kind = if mode == Mode::May { "may" } else { "must" };
    let mut out = format!(
        "{kind}-model of {}: {} states, {} edges\n",
        comp.name,
        m.arg.states.len(),
        m.arg.out.iter().map(Vec::len).sum::<usize>()
    );
    if m.precision.formulas.is_empty() {
        out.push_str("predicates: none\n");
    } else {
        let from = if m.cached { " (from the cache)" } else { "" };
        let _ = writeln!(out, "predicates{from}:");
        for (i, f) in m.precision.formulas.iter().enumerate() {
            let _ = writeln!(out, "  p{i} = {f}");
        }
    }
    let init: Vec<String> = m.arg.initial.iter().map(|&s| format!("[{}]", state_name(m, s))).collect();
    let _ = writeln!(out, "initial: {}", init.join(", "));
    for (s, edges) in m.arg.out.iter().enumerate() {
        for e in edges {
            let stmt = crate::ir::text::stmt(comp, &comp.edges[e.edge].stmt);
            let _ = writeln!(
                out,
                "[{}] -{}-> [{}]  ({stmt})",
                state_name(m, s),
                label_text(comp, &e.label),
                state_name(m, e.to)
            );
        }
    }
    out
}

/// The model as DOT: states named by location and valuation, edges by their label.
pub fn model_dot(comp: &Component, m: &Model, mode: Mode) -> String {
    let kind = if mode == Mode::May { "may" } else { "must" };
    let mut out = format!("digraph \"{} {kind}\" {{\n  node [shape=box];\n", dot_escape(&comp.name));
    for (i, f) in m.precision.formulas.iter().enumerate() {
        let _ = writeln!(out, "  // p{i} = {}", f.replace('\n', " "));
    }
    for s in 0..m.arg.states.len() {
        let style = if m.arg.initial.contains(&s) {
            ", style=bold"
        } else if m.arg.states[s] == AState::Error {
            ", color=red"
        } else {
            ""
        };
        let _ = writeln!(out, "  s{s} [label=\"{}\"{style}];", dot_escape(&state_name(m, s)));
    }
    for (s, edges) in m.arg.out.iter().enumerate() {
        for e in edges {
            let style = if e.label == Label::Tau { ", style=dashed" } else { "" };
            let _ =
                writeln!(out, "  s{s} -> s{} [label=\"{}\"{style}];", e.to, dot_escape(&label_text(comp, &e.label)));
        }
    }
    out.push_str("}\n");
    out
}

/// What level `level` of a compositional check learned: its assumption (`table`: its
/// observation table), as text or DOT. `order` names the parts in the order of the levels:
/// level `i` assumes about parts `i+1..` what part `i` needs (paper 003 Section 5.2).
pub fn level(
    checker: &crate::check::ag::DynamicChecker,
    order: &[String],
    level: usize,
    table: bool,
    dot: bool,
) -> Result<String, crate::diag::Diagnostic> {
    let n = checker.assumptions().len();
    if level >= n {
        return Err(crate::diag::Diagnostic::global(format!(
            "level {level} does not exist: the check has {n} level{} (0..{})",
            if n == 1 { "" } else { "s" },
            n.saturating_sub(1)
        ))
        .with_note(format!("the parts in the order of the levels: {}", order.join(", "))));
    }
    let part = order.get(level).map(String::as_str).unwrap_or("?");
    let rest = order.get(level + 1..).map(|r| r.join(" || ")).unwrap_or_default();
    let title = format!("level {level}: assumption of `{part}` about {rest}");
    let missing = |what: &str| {
        crate::diag::Diagnostic::global(format!("level {level} learned no {what}"))
            .with_note("the check stopped before this level (a violation or a limit at an earlier level)")
    };
    if table {
        let t = checker.tables()[level].ok_or_else(|| missing("table"))?;
        if dot {
            return Ok(table_dot(t, &title));
        }
        return Ok(format!("{title}\n{t}"));
    }
    let a = checker.assumptions()[level].ok_or_else(|| missing("assumption"))?;
    if dot {
        return Ok(crate::automata::dot::to_dot(a, &title));
    }
    Ok(format!("{title}\n{a}"))
}

/// An observation table as a DOT graph of one node whose label is the table (HTML-like), the
/// rows of S·Σ shaded.
fn table_dot(t: &crate::learn::table::Table, title: &str) -> String {
    let html = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let text = t.to_string();
    // The rows of S·Σ (below the text form's line) are shaded.
    let mut rows = String::new();
    let mut extension = false;
    for line in text.lines() {
        if line.starts_with('-') {
            extension = true;
            continue;
        }
        let open = if extension { "<TD BGCOLOR=\"#eeeeee\">" } else { "<TD>" };
        let cells: Vec<String> = line.split('|').map(|c| format!("{open}{}</TD>", html(c.trim()))).collect();
        let _ = write!(rows, "<TR>{}</TR>", cells.join(""));
    }
    format!(
        "digraph \"{}\" {{\n  node [shape=plaintext];\n  table [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\">{rows}</TABLE>>];\n}}\n",
        dot_escape(title)
    )
}
