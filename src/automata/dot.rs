//! Graphviz DOT output of a DLA: states as circles (double for accepting when the automaton is
//! not a plain LTS, red for π), labels under the state name, one edge per transition with the
//! events of parallel transitions merged.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::dla::{Dla, StateId};

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The automaton as a DOT digraph called `name`.
pub fn to_dot(d: &Dla, name: &str) -> String {
    let mut out = format!("digraph \"{}\" {{\n  rankdir=LR;\n  node [shape=circle];\n", escape(name));
    let lts = d.is_lts();
    for (i, s) in d.states().iter().enumerate() {
        let id = StateId(i as u32);
        let mut text = id.to_string();
        if !s.label.is_empty() {
            let _ = write!(text, "\\n{{{}}}", escape(&d.label_names(id).join(",")));
        }
        if d.is_error(id) {
            text = "π".to_string();
        }
        let mut attrs = vec![format!("label=\"{text}\"")];
        if d.is_error(id) {
            attrs.push("color=red".into());
        } else if !lts && d.is_accepting(id) {
            attrs.push("shape=doublecircle".into());
        }
        let _ = writeln!(out, "  {id} [{}];", attrs.join(", "));
    }
    for (i, &s) in d.initial().iter().enumerate() {
        let _ = writeln!(out, "  start{i} [shape=point];\n  start{i} -> {s};");
    }
    for (i, s) in d.states().iter().enumerate() {
        let mut merged: BTreeMap<StateId, Vec<&str>> = BTreeMap::new();
        for t in &s.out {
            merged.entry(t.to).or_default().push(d.event_name(t.event));
        }
        for (to, events) in merged {
            // One event per line: each escaped, then joined by DOT's line break.
            let events: Vec<String> = events.iter().map(|e| escape(e)).collect();
            let _ = writeln!(out, "  q{i} -> {to} [label=\"{}\"];", events.join("\\n"));
        }
    }
    out.push_str("}\n");
    out
}
