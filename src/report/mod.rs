//! Rendering of results. Results are data first ([`crate::check`]); this module turns them into
//! text for a terminal, and ([`check`], [`verdict`]) into JSON and SARIF 2.1.0 documents whose
//! schemas `docs/report.md` gives. Every command that gives a verdict takes `--format`.

pub mod check;
pub mod labels;
pub mod verdict;

use std::fmt::Write;

use crate::check::Verdict;
use crate::check::ag::AgStats;
use crate::check::upgrade::Upgrade;
use crate::check::verify::Verification;

fn verdict_word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails(_) => "fails",
        Verdict::Unknown(_) => "unknown",
    }
}

fn ag_stats_line(s: &AgStats) -> String {
    format!(
        "membership queries {}, candidates {}, checks {}, assumption states {:?}, learning {:.1} ms, checking {:.1} ms, \
         assumption alphabets (of interfaces) {}, alphabet refinements {:?}",
        s.membership,
        s.candidates,
        s.checks,
        s.assumption_states,
        s.learning.as_secs_f64() * 1e3,
        s.checking.as_secs_f64() * 1e3,
        alphabets(&s.alphabet_per_level),
        s.alphabet_refinements,
    )
}

/// How the runs of DynamicCheck were decided and what re-use cost, e.g. `6 runs, 1 decided by
/// the product search, levels learned after the search`.
fn dynamic_runs(c: &crate::check::ag::RunCounts) -> String {
    let mut out = format!("{} run{}", c.runs, if c.runs == 1 { "" } else { "s" });
    if c.decided_by_search > 0 {
        let _ = write!(out, ", {} decided by the product search", c.decided_by_search);
    }
    if c.learned_after_search {
        out.push_str(", levels learned after the search");
    }
    if c.decided_by_suffix_search > 0 {
        let _ = write!(
            out,
            ", {} with a level decided by a search of the changed components ({} states)",
            c.decided_by_suffix_search, c.suffix_states
        );
    }
    if c.from_earlier_levels > 0 {
        let _ = write!(out, ", {} from the earlier run's levels", c.from_earlier_levels);
    }
    if c.over_budget > 0 {
        let _ = write!(
            out,
            ", {} over the re-use budget ({} membership queries given up)",
            c.over_budget, c.abandoned_membership
        );
    }
    if c.outcome_reused > 0 {
        let _ = write!(out, ", {} on unchanged automata (outcome re-used)", c.outcome_reused);
    }
    out
}

/// Per level, the size of the assumption's alphabet and of its interface: `[2/5, 3/3]`.
fn alphabets(per_level: &[(usize, usize)]) -> String {
    let sizes: Vec<String> = per_level.iter().map(|(a, i)| format!("{a}/{i}")).collect();
    format!("[{}]", sizes.join(", "))
}

/// The text report of `subst check` on FSP models.
pub fn upgrade_text(u: &Upgrade, stats: bool) -> String {
    let mut out = format!(
        "{}
",
        u.assembly
    );
    let changed = if u.changed.is_empty() { "none".to_string() } else { u.changed.join(", ") };
    let _ = writeln!(out, "  changed components: {changed}");
    for r in &u.results {
        let _ = writeln!(
            out,
            "  {}: old {}, new {}  (T_orig {:.1} ms, T_ug {:.1} ms)",
            r.property,
            verdict_word(&r.original.verdict),
            verdict_word(&r.upgrade.verdict),
            r.original.time.as_secs_f64() * 1e3,
            r.upgrade.time.as_secs_f64() * 1e3
        );
        if let Verdict::Fails(trace) = &r.upgrade.verdict {
            let _ = writeln!(out, "    trace: {}", labelled_trace(trace, r.upgrade.labels.as_deref()));
        }
        for (which, v) in [("old", &r.original.verdict), ("new", &r.upgrade.verdict)] {
            if let Verdict::Unknown(reason) = v {
                let _ = writeln!(out, "    {which} unknown: {reason}");
            }
        }
        if stats {
            let _ = writeln!(out, "    original: {}", ag_stats_line(&r.original.stats));
            let _ = writeln!(out, "    upgrade:  {}", ag_stats_line(&r.upgrade.stats));
            let s = &r.upgrade.stats;
            let _ = writeln!(
                out,
                "    re-used tables at levels {:?}, re-validated {:?}, re-used results {:?}",
                s.reused, s.revalidated, s.results_reused
            );
            for (which, s) in [("original", &r.original.stats), ("upgrade", &r.upgrade.stats)] {
                let counts = crate::check::ag::RunCounts::of(s);
                let _ = writeln!(out, "    DynamicCheck {which}: {}", dynamic_runs(&counts));
            }
        }
    }
    let _ = writeln!(out, "verdict: {}", verdict_word(&u.verdict()));
    out
}

/// A trace as text: its events, each followed by the label after it in brackets and the
/// initial label first (paper 003, Definition 1), when `labels` has one more entry than the
/// trace has events.
pub fn labelled_trace(trace: &[String], labels: Option<&[Vec<String>]>) -> String {
    match labels {
        Some(labels) if labels.len() == trace.len() + 1 => {
            let mut parts = vec![format!("[{}]", labels[0].join(","))];
            for (e, l) in trace.iter().zip(&labels[1..]) {
                parts.push(e.clone());
                parts.push(format!("[{}]", l.join(",")));
            }
            parts.join(" ")
        }
        _ if trace.is_empty() => "<empty>".to_string(),
        _ => trace.join(" "),
    }
}

/// The text report of `subst verify`.
pub fn verification_text(v: &Verification, stats: bool) -> String {
    let mut out = format!("{} ({})\n", v.assembly, v.file);
    let width = v.results.iter().map(|r| r.property.len()).max().unwrap_or(0);
    for r in &v.results {
        let ms = r.time.as_secs_f64() * 1e3;
        // The compositional engine explores many small products; their sizes are in --stats.
        let states = if r.ag.is_some() { format!("{ms:.1} ms") } else { format!("{} states, {ms:.1} ms", r.states) };
        match &r.verdict {
            Verdict::Holds => {
                let _ = writeln!(out, "  {:width$}  holds     ({states})", r.property);
            }
            Verdict::Fails(trace) => {
                let _ = writeln!(out, "  {:width$}  VIOLATED  ({states})", r.property);
                let _ = writeln!(out, "  {:width$}  trace: {}", "", labelled_trace(trace, r.labels.as_deref()));
            }
            Verdict::Unknown(reason) => {
                let _ = writeln!(out, "  {:width$}  unknown   ({reason})", r.property);
            }
        }
        if stats && let Some(s) = &r.ag {
            let _ = writeln!(out, "  {:width$}  {}", "", ag_stats_line(s));
        }
    }
    let _ = writeln!(out, "verdict: {}", verdict_word(&v.verdict()));
    out
}

/// The text report of `subst verify` on a C program: the verdict, and for a violation the
/// run that reaches it, one line per source statement with the inputs read there.
pub fn program_text(comp: &crate::ir::Component, r: &crate::check::cegar::ProgramResult, stats: bool) -> String {
    use crate::check::cegar::CegarOutcome;
    let mut out = String::new();
    match (&r.outcome, &r.error) {
        (CegarOutcome::Holds, _) => {
            let _ = writeln!(
                out,
                "{}: holds: reach_error() is never called and no undefined behaviour is reachable",
                r.component
            );
        }
        (CegarOutcome::Fails { runs, .. }, Some((kind, replay))) => {
            let _ = writeln!(out, "{}: fails: {}", r.component, kind.describe());
            if let Some(run) = runs.first() {
                out.push_str(&run_lines(comp, &run.witness, "  "));
            }
            if let Some(o) = &replay.last {
                let _ = writeln!(out, "  confirmed by the interpreter: the run ends at {} `{}`", o.span, o.text);
            }
        }
        (CegarOutcome::Unknown(reason), _) => {
            let _ = writeln!(out, "{}: unknown: {reason}", r.component);
        }
        (CegarOutcome::Fails { .. }, None) => {
            let _ = writeln!(out, "{}: unknown: internal error: a counterexample without an error", r.component);
        }
    }
    if stats {
        out.push_str(&cegar_stats_lines(&r.stats));
    }
    out
}

/// A component's run, one line per source statement (consecutive steps of one statement shown
/// once: a step whose source range lies inside the previous one's, or that encloses it, is the
/// same statement), with the inputs read; long runs are cut in the middle. Statements that
/// merely share a line are distinct steps (issue 16, item 9). When the component owns
/// propositions, a statement after which its label changes names the new label.
fn run_lines(comp: &crate::ir::Component, witness: &crate::abs::refine::Witness, indent: &str) -> String {
    let mut out = String::new();
    let inputs = witness.inputs();
    let shown: Vec<String> = inputs.iter().map(i128::to_string).collect();
    let _ =
        writeln!(out, "{indent}inputs, in order: {}", if shown.is_empty() { "none".into() } else { shown.join(", ") });
    let _ = writeln!(out, "{indent}the run:");
    // The label after each step, the initial one first.
    let labels = labels::along_run(comp, witness);
    let label_after = |k: usize| labels.as_ref().and_then(|l| l.get(k + 1));
    // Each shown statement: its range, text, the inputs read there and the label after it.
    type Row<'a> = (&'a crate::ir::SrcSpan, &'a str, Vec<i128>, Option<&'a Vec<String>>);
    let mut rows: Vec<Row> = Vec::new();
    for (k, step) in witness.steps.iter().enumerate() {
        let edge = &comp.edges[step.edge];
        let Some(o) = &edge.origin else {
            if let Some(last) = rows.last_mut() {
                last.3 = label_after(k);
            }
            continue;
        };
        if let Some(last) = rows.last_mut() {
            if within(&o.span, last.0) {
                last.2.extend(step.inputs.iter().copied());
                last.3 = label_after(k);
                continue;
            }
            if within(last.0, &o.span) {
                // The enclosing statement names the step better (`x = f()` rather than `f()`).
                (last.0, last.1) = (&o.span, &o.text);
                last.2.extend(step.inputs.iter().copied());
                last.3 = label_after(k);
                continue;
            }
        }
        rows.push((&o.span, &o.text, step.inputs.clone(), label_after(k)));
    }
    let mut before: Option<&Vec<String>> = labels.as_ref().and_then(|l| l.first());
    let mut lines: Vec<String> = rows
        .iter()
        .map(|(span, text, inputs, label)| {
            let mut note = if inputs.is_empty() {
                String::new()
            } else {
                let v: Vec<String> = inputs.iter().map(i128::to_string).collect();
                format!("    <- input {}", v.join(", "))
            };
            if let Some(l) = label.filter(|l| Some(*l) != before) {
                let _ = write!(note, "    label [{}]", l.join(","));
            }
            before = *label;
            format!("{indent}  {}:{}: {}{}", span.file, span.line, text, note)
        })
        .collect();
    const SHOWN: usize = 40;
    if lines.len() > SHOWN {
        let omitted = lines.len() - SHOWN;
        lines.drain(SHOWN / 2..SHOWN / 2 + omitted);
        lines.insert(SHOWN / 2, format!("{indent}  ... {omitted} more steps ..."));
    }
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    out
}

/// Whether the source range `inner` lies within `outer`.
fn within(inner: &crate::ir::SrcSpan, outer: &crate::ir::SrcSpan) -> bool {
    inner.file == outer.file
        && (inner.line, inner.col) >= (outer.line, outer.col)
        && (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)
}

fn cegar_stats_lines(s: &crate::check::cegar::CegarStats) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "smt calls: {}", s.smt.calls);
    let _ = writeln!(out, "smt cache hits: {}", s.smt.cache_hits);
    let _ = writeln!(out, "predicates: {}", s.predicates);
    let _ = writeln!(out, "refinements: {}", s.refinements);
    let _ = writeln!(out, "abstract states: {}", s.abstract_states);
    if s.membership > 0 || s.candidates > 0 {
        let _ = writeln!(out, "membership queries: {}", s.membership);
        let _ = writeln!(out, "candidate assumptions: {}", s.candidates);
        let _ = writeln!(out, "assumption alphabets (of interfaces): {}", alphabets(&s.alphabet_per_level));
        let _ = writeln!(out, "alphabet refinements: {}", s.alphabet_refinements);
    } else {
        let _ = writeln!(out, "product states: {}", s.product_states);
    }
    if s.dynamic_runs.runs > 0 {
        let _ = writeln!(out, "dynamic check: {}", dynamic_runs(&s.dynamic_runs));
    }
    let _ = writeln!(out, "bounded search depth: {}{}", s.bmc_depth, if s.bmc_complete { " (complete)" } else { "" });
    if s.invariants > 0 {
        let _ = writeln!(out, "proved by invariants at {} cut points", s.invariants);
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    // Only when the abstraction loop ran (a program proved before it has no phases).
    if !(s.abstraction + s.model_check + s.path_checks).is_zero() {
        let _ = writeln!(
            out,
            "time per phase: abstraction {:.1} ms, model check {:.1} ms, path checks {:.1} ms",
            ms(s.abstraction),
            ms(s.model_check),
            ms(s.path_checks)
        );
    }
    let _ = writeln!(out, "time: {:.1} ms", s.time.as_secs_f64() * 1e3);
    out
}

/// The text report of `subst verify` on an assembly with C components.
pub fn assembly_text(r: &crate::check::cegar::AssemblyResult, stats: bool) -> String {
    assembly_text_labelled(r, stats, &[])
}

/// [`assembly_text`] with the label after every step of each failing property's trace
/// (`labels`, one entry per result of `r`; see [`labels::of_assembly`]).
pub fn assembly_text_labelled(
    r: &crate::check::cegar::AssemblyResult,
    stats: bool,
    labels: &[Option<Vec<Vec<String>>>],
) -> String {
    use crate::check::cegar::CegarOutcome;
    let mut out = format!("{}\n", r.assembly);
    for (i, p) in r.results.iter().enumerate() {
        match &p.outcome {
            CegarOutcome::Holds => {
                let _ = writeln!(out, "  {}: holds", p.property);
            }
            CegarOutcome::Fails { trace, runs } => {
                let _ = writeln!(out, "  {}: fails", p.property);
                let _ = writeln!(out, "    trace: {}", labelled_trace(trace, labels.get(i).and_then(|l| l.as_deref())));
                for run in runs {
                    let Some(comp) = r.components.iter().find(|c| c.name == run.component) else { continue };
                    let _ = writeln!(out, "    component {}:", run.component);
                    out.push_str(&run_lines(comp, &run.witness, "      "));
                }
            }
            CegarOutcome::Unknown(reason) => {
                let _ = writeln!(out, "  {}: unknown: {reason}", p.property);
            }
        }
        if stats {
            if !p.order.is_empty() {
                let _ = writeln!(out, "    levels: {}", p.order.join(", "));
            }
            for l in cegar_stats_lines(&p.stats).lines() {
                let _ = writeln!(out, "    {l}");
            }
        }
    }
    out
}
