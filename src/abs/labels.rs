//! State labels in a component's models (paper 003, Definition 2), in the event form that the
//! checks read (see [`crate::spec::Observations`]).
//!
//! [`instrument`] adds to a lowered component, beside its code, small *gadgets* that no run
//! of the component reaches:
//! - per proposition, a self-loop `assume(cond)` marked `@prop Name`: it hands the
//!   proposition's condition to the abstraction, which makes it a predicate at every location,
//!   so that every abstract state, may or must, decides the proposition; a label is never
//!   guessed;
//! - per valuation `v` of the propositions, an edge `assume(cond_v)` marked `@label` into a
//!   location from which one event edge per observation letter of `v` leads back.
//!
//! [`crate::abs::Abstractor::build`] then gives every abstract state a self-loop for each
//! letter of the valuation its predicates decide, taken along the gadget's event edge.
//! Symbolic simulation ([`crate::abs::refine::simulate`]) adds the gadget's condition at
//! that point of the path, so a concrete run confirms the label as well as the steps, and
//! leaves gadget steps out of the witness, which the interpreter then replays as it is.
//!
//! For containment ([`instrument_props`], no letters), a first event [`START_EVENT`] leads into
//! the entry, so that a behaviour begins with the initial label, and every event carries
//! instead the label of the state it leads to: [`crate::abs::Arg::to_behaviours`] names it `e{A,B}`, every labelled
//! state has a τ self-loop along its valuation's `assume(cond_v)` edge, and
//! [`crate::abs::Arg::find_path`] takes that self-loop after each such event, so a path's
//! simulation confirms the labels too. The explicit under-approximation
//! ([`crate::abs::explicit`]) labels its concrete states by evaluating the same conditions.
//!
//! Invariants: gadgets have no edge from the component's code, so the interpreter, gcc
//! agreement and every analysis from the entry location never see them (the IR checker's rule
//! that every location is reachable holds of the lowered code, before instrumentation); gadget
//! steps never reach a witness; a component without propositions is unchanged.
//! `tests/it/contract.rs` checks that the may-model, the must-model and the explicit model of a
//! labelled component agree on the labels of its events.
//!
//! Known weaknesses: the predicates of the propositions sit at every location, which can
//! double the abstract states per proposition; a component performs an event that a guard over
//! its own propositions observes only when the event is plain (its edges are then split by
//! its label, `label_own_events`, the other owners' propositions left to synchronisation); an
//! observed event of a family (`send.v`) is refused by the assembly.

use crate::ir::{CallStack, Component, Edge, Event, Expr, LocId, Origin, SrcSpan, Stmt};

/// The mark of a proposition's edge (the origin text starts with it).
pub const PROP_MARK: &str = "@prop ";
/// The mark of a label gadget's condition edge.
pub const LABEL_MARK: &str = "@label ";
/// The mark of a component whose events carry the labels they lead to ([`instrument_props`]).
pub const BEHAVIOURS_MARK: &str = "@behaviours";
/// The event that opens every behaviour of a component instrumented for containment: it leads
/// into the initial state, so it carries the initial label (`@start{Locked}`), which a trace
/// begins with (paper 003, Definition 1). No C function can have this name.
pub const START_EVENT: &str = "@start";

/// A proposition of a component, with its condition over the component's globals.
#[derive(Clone, Debug)]
pub struct PropCond {
    /// The proposition's name.
    pub name: String,
    /// Its condition, 0 or 1.
    pub cond: Expr,
    /// Its declaration in the spec.
    pub span: SrcSpan,
}

/// The valuation `mask` of `props` (bit `i`: whether `props[i]` holds): the names that hold,
/// and the condition that exactly they hold.
fn valuation(props: &[PropCond], mask: u32) -> (Vec<String>, Expr) {
    let holds = props.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, p)| p.name.clone()).collect();
    let cond = props
        .iter()
        .enumerate()
        .map(
            |(i, p)| {
                if mask & (1 << i) != 0 { p.cond.clone() } else { Expr::unary(crate::ir::UnOp::Not, p.cond.clone()) }
            },
        )
        .reduce(|a, b| Expr::binary(crate::ir::BinOp::And, a, b))
        .expect("at least one proposition");
    (holds, cond)
}

/// Adds the gadgets of `props` to `comp`; `letters(v)` gives the observation letters of the
/// valuation in which exactly the propositions `v` hold.
pub fn instrument(comp: &mut Component, props: &[PropCond], letters: &dyn Fn(&[String]) -> Vec<String>) {
    if props.is_empty() {
        return;
    }
    let origin = |span: &SrcSpan, text: String| Some(Origin { span: span.clone(), text, stack: CallStack::new() });
    let new_loc = |comp: &mut Component| {
        comp.n_locs += 1;
        LocId(comp.n_locs - 1)
    };
    for p in props {
        let d = new_loc(comp);
        let stmt = Stmt::Assume(p.cond.clone());
        comp.edges.push(Edge { from: d, to: d, stmt, origin: origin(&p.span, format!("{PROP_MARK}{}", p.name)) });
    }
    for mask in 0u32..(1u32 << props.len().min(16)) {
        let (holds, cond) = valuation(props, mask);
        let to_send = letters(&holds);
        let (a, b) = (new_loc(comp), new_loc(comp));
        let text = format!("{LABEL_MARK}{{{}}}", holds.join(","));
        comp.edges.push(Edge { from: a, to: b, stmt: Stmt::Assume(cond), origin: origin(&props[0].span, text) });
        for l in to_send {
            let stmt = Stmt::Event(Event::Plain(l.clone()));
            comp.edges.push(Edge { from: b, to: a, stmt, origin: origin(&props[0].span, l) });
        }
    }
}

fn marked<'c>(e: &'c Edge, mark: &str) -> Option<&'c str> {
    e.origin.as_ref().and_then(|o| o.text.strip_prefix(mark))
}

/// The propositions of an instrumented component: name and condition, in order.
pub fn props(comp: &Component) -> Vec<(String, Expr)> {
    comp.edges
        .iter()
        .filter_map(|e| match (&e.stmt, marked(e, PROP_MARK)) {
            (Stmt::Assume(c), Some(name)) => Some((name.to_string(), c.clone())),
            _ => None,
        })
        .collect()
}

/// A letter of a gadget: the event edge, the letter, and the propositions that hold for it.
#[derive(Clone, Debug)]
pub struct Letter {
    /// The gadget's event edge (an index into [`Component::edges`]).
    pub edge: usize,
    /// The letter.
    pub name: String,
    /// Per proposition of [`props`], whether it holds.
    pub label: Vec<bool>,
}

/// The letters of an instrumented component's gadgets.
pub fn letters(comp: &Component) -> Vec<Letter> {
    if !instrumented(comp) {
        return Vec::new();
    }
    let names: Vec<String> = props(comp).into_iter().map(|(n, _)| n).collect();
    let mut out = Vec::new();
    for (i, e) in comp.edges.iter().enumerate() {
        let Stmt::Event(Event::Plain(name)) = &e.stmt else { continue };
        let Some(set) = comp.edges.iter().find_map(|g| if g.to == e.from { marked(g, LABEL_MARK) } else { None })
        else {
            continue;
        };
        let inner = set.trim_start_matches('{').trim_end_matches('}');
        let holds: Vec<&str> = if inner.is_empty() { Vec::new() } else { inner.split(',').collect() };
        let label = names.iter().map(|n| holds.contains(&n.as_str())).collect();
        out.push(Letter { edge: i, name: name.clone(), label });
    }
    out
}

/// When edge `e` is a gadget's event edge: the condition of its label.
pub fn gadget_condition(comp: &Component, e: usize) -> Option<&Expr> {
    let edge = comp.edges.get(e)?;
    if !matches!(edge.stmt, Stmt::Event(_)) {
        return None;
    }
    comp.edges.iter().find_map(|g| match (&g.stmt, marked(g, LABEL_MARK)) {
        (Stmt::Assume(c), Some(_)) if g.to == edge.from => Some(c),
        _ => None,
    })
}

/// Instruments `comp` with the propositions that `spec`'s properties observe of it, and the
/// letters of every observed event ([`crate::spec::Observations`]): the valuation `v` of its
/// own propositions offers `e{X}` for every observed event `e` and every set `X` of observed
/// propositions that agrees with `v` on them (the assembly keeps those that can happen).
pub fn instrument_for(
    spec: &crate::spec::Spec,
    program: &crate::front::Program,
    comp: &mut Component,
) -> Result<(), crate::diag::Diagnostic> {
    let own = spec.observed_props_of(&comp.name);
    if own.is_empty() {
        return Ok(());
    }
    let mut props = Vec::new();
    for p in &own {
        let cond = program.prop_condition(comp, &p.expr, &p.expr_span)?;
        props.push(PropCond { name: p.name.clone(), cond, span: p.span.clone() });
    }
    let obs = spec.observations();
    let own_names: Vec<&str> = own.iter().map(|p| p.name.as_str()).collect();
    // Observed events the component performs itself carry the label of the state they leave
    // ([`label_own_events`]): its own propositions as that state decides them, the others'
    // free, so that synchronisation with their owners' self-loops fixes them. It offers no
    // self-loop for them (the event happens only with it).
    let mut own_events: Vec<String> = comp
        .edges
        .iter()
        .filter_map(|e| match &e.stmt {
            Stmt::Event(Event::Plain(n)) if obs.events.contains(n) => Some(n.clone()),
            _ => None,
        })
        .collect();
    own_events.sort();
    own_events.dedup();
    // Every observed event the component performs in any form (a family's values included):
    // it offers no self-loop for them, so that the assembly sees it perform the plain event
    // without letters, and refuses it, unless its own events were labelled here.
    let performed: Vec<String> = obs
        .events
        .iter()
        .filter(|e| {
            comp.edges.iter().any(|edge| match &edge.stmt {
                Stmt::Event(ev) => {
                    let n = ev.name();
                    *e == n || e.strip_prefix(n).is_some_and(|r| r.starts_with('.'))
                }
                _ => false,
            })
        })
        .cloned()
        .collect();
    // The sets of observed propositions that agree with `holds` on the component's own.
    let agreeing = |holds: &[String]| -> Vec<Vec<String>> {
        obs.subsets()
            .into_iter()
            .filter(|x| own_names.iter().all(|n| x.iter().any(|p| p == n) == holds.iter().any(|p| p == n)))
            .collect()
    };
    if !own_events.is_empty() {
        let own_letters = |e: &str, holds: &[String]| {
            agreeing(holds).iter().map(|x| crate::spec::Observations::letter(e, x)).collect::<Vec<_>>()
        };
        label_own_events(comp, &props, &own_events, &own_letters);
    }
    own_events = performed;
    let letters = |holds: &[String]| {
        let mut out = Vec::new();
        for x in agreeing(holds) {
            let offered = obs.events.iter().filter(|e| !own_events.contains(e));
            out.extend(offered.map(|e| crate::spec::Observations::letter(e, &x)));
        }
        out
    };
    instrument(comp, &props, &letters);
    Ok(())
}

/// Each edge of `comp` that performs one of `events` (plain events) becomes a branch on the
/// valuation of `props` followed by the event's letters for that valuation (`letters(e, v)`):
/// `l -e-> t` becomes `l -assume(cond_v)-> m_v -e{X}-> t` for each letter `e{X}` that agrees
/// with `v`. The conditions are exclusive and exhaustive; when the component owns every
/// observed proposition there is one letter per valuation and the component stays
/// deterministic, otherwise the choice among the letters is the other owners' labels, which
/// synchronisation decides. The interpreter, the abstraction and symbolic simulation treat the
/// label like any branch. A dead edge still performs the plain `e`, so that the component's
/// alphabet tells the assembly it performs `e` itself.
fn label_own_events(
    comp: &mut Component,
    props: &[PropCond],
    events: &[String],
    letters: &dyn Fn(&str, &[String]) -> Vec<String>,
) {
    let old = std::mem::take(&mut comp.edges);
    let mut dead: Vec<Edge> = Vec::new();
    for edge in old {
        let Stmt::Event(Event::Plain(n)) = &edge.stmt else {
            comp.edges.push(edge);
            continue;
        };
        if !events.contains(n) {
            comp.edges.push(edge);
            continue;
        }
        for mask in 0u32..(1u32 << props.len().min(16)) {
            let (holds, cond) = valuation(props, mask);
            comp.n_locs += 1;
            let m = LocId(comp.n_locs - 1);
            comp.edges.push(Edge { from: edge.from, to: m, stmt: Stmt::Assume(cond), origin: edge.origin.clone() });
            for letter in letters(n, &holds) {
                comp.edges.push(Edge {
                    from: m,
                    to: edge.to,
                    stmt: Stmt::Event(Event::Plain(letter)),
                    origin: edge.origin.clone(),
                });
            }
        }
        if !dead.iter().any(|d| matches!(&d.stmt, Stmt::Event(Event::Plain(x)) if x == n)) {
            dead.push(Edge { from: LocId(0), to: LocId(0), stmt: edge.stmt.clone(), origin: edge.origin.clone() });
        }
    }
    for mut d in dead {
        comp.n_locs += 1;
        let l = LocId(comp.n_locs - 1);
        d.from = l;
        d.to = l;
        comp.edges.push(d);
    }
    // The IR keeps edges sorted by source location.
    comp.edges.sort_by_key(|e| e.from);
}

/// Whether edge `e` belongs to a gadget (no run of the component takes it).
pub fn is_gadget(comp: &Component, e: usize) -> bool {
    comp.edges.get(e).is_some_and(|edge| {
        marked(edge, PROP_MARK).is_some()
            || marked(edge, LABEL_MARK).is_some()
            || marked(edge, BEHAVIOURS_MARK).is_some()
            || gadget_condition(comp, e).is_some()
    })
}

/// The valuations of an instrumented component's propositions: per valuation, its
/// `assume(cond_v)` edge, whether each proposition of [`props`] holds, and its text `{A,B}`.
pub fn valuations(comp: &Component) -> Vec<(usize, Vec<bool>, String)> {
    if !instrumented(comp) {
        return Vec::new();
    }
    let names: Vec<String> = props(comp).into_iter().map(|(n, _)| n).collect();
    comp.edges
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let text = marked(e, LABEL_MARK)?;
            let inner = text.trim_start_matches('{').trim_end_matches('}');
            let holds: Vec<&str> = if inner.is_empty() { Vec::new() } else { inner.split(',').collect() };
            Some((i, names.iter().map(|n| holds.contains(&n.as_str())).collect(), text.to_string()))
        })
        .collect()
}

/// Whether the component's every event carries the label of the state it leads to (as
/// containment compares behaviours): [`instrument_props`] marked it so.
pub fn labels_events(comp: &Component) -> bool {
    comp.edges.iter().any(|e| marked(e, BEHAVIOURS_MARK).is_some())
}

/// Instruments `comp` with every proposition that `spec` declares over it, for containment:
/// a behaviour then includes, with each event, the label of the state the event leads to.
pub fn instrument_props(
    spec: &crate::spec::Spec,
    program: &crate::front::Program,
    comp: &mut Component,
) -> Result<(), crate::diag::Diagnostic> {
    let mut own: Vec<&crate::spec::PropDecl> = spec.props().iter().filter(|p| p.component == comp.name).collect();
    own.sort_by(|a, b| a.name.cmp(&b.name));
    let mut props = Vec::new();
    for p in own.iter().take(crate::spec::MAX_OBSERVED_PROPS) {
        let cond = program.prop_condition(comp, &p.expr, &p.expr_span)?;
        props.push(PropCond { name: p.name.clone(), cond, span: p.span.clone() });
    }
    if props.is_empty() {
        return Ok(());
    }
    instrument(comp, &props, &|_| Vec::new());
    // Every behaviour opens with the initial label: a first event into the entry location.
    comp.n_locs += 1;
    let start = LocId(comp.n_locs - 1);
    let first = comp.edges.iter().find(|e| e.from == comp.entry).and_then(|e| e.origin.as_ref());
    let span = first.map_or_else(|| props[0].span.clone(), |o| o.span.clone());
    let origin = Some(Origin { span, text: format!("start of `{}`", comp.name), stack: CallStack::new() });
    let stmt = Stmt::Event(Event::Plain(START_EVENT.to_string()));
    comp.edges.push(Edge { from: start, to: comp.entry, stmt, origin });
    comp.entry = start;
    // The mark of this form: a dead edge that does nothing.
    comp.n_locs += 1;
    let l = LocId(comp.n_locs - 1);
    let origin =
        Some(Origin { span: props[0].span.clone(), text: BEHAVIOURS_MARK.to_string(), stack: CallStack::new() });
    comp.edges.push(Edge { from: l, to: l, stmt: Stmt::Skip, origin });
    Ok(())
}

/// Whether the component has gadgets (it was instrumented with propositions).
pub fn instrumented(comp: &Component) -> bool {
    comp.edges.iter().any(|e| marked(e, PROP_MARK).is_some())
}

/// The letters (events `e{A,B}`) the component's edges perform: its own labelled events and
/// its gadgets' letters.
pub fn letter_names(comp: &Component) -> Vec<String> {
    let mut out: Vec<String> = comp
        .edges
        .iter()
        .filter_map(|e| match &e.stmt {
            Stmt::Event(Event::Plain(n)) if crate::spec::Observations::split(n).is_some() => Some(n.clone()),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}
