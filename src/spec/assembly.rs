//! Elaboration of compositions `||S = (P || a:Q || {x,y}::R || forall [i:R] T[i])/{..}\{..}.`
//! into their parts, each a separate automaton, so that a checker can compose them on the fly.
//!
//! It follows FSP as LTSA implements it (Magee & Kramer, ch. 2-3):
//! - `a:P` renames every event `e` of `P` to `a.e`; `a[1..3]:P` makes one instance per value;
//!   `{a,b}::P` renames every `e` to both `a.e` and `b.e`; `forall [i:R]` repeats its item.
//! - A relabelling written after a composition (or a group inside one) applies to each of its
//!   parts *before* they are composed, as in LTSA and Magee & Kramer's `CLIENT_SERVER`
//!   example: `(CLIENT || SERVER)/{call/request}` makes `CLIENT` and `SERVER` synchronise on
//!   `call`. This is what connects differently named events.
//! - Hiding (`\{..}`, `@{..}`) applies to the composed automaton. A nested composition or
//!   group that hides events is composed into a single part; one that hides nothing is
//!   flattened into its parts (labelling and sharing distribute over `||`).
//! - A `property` part is composed as its error automaton `P_err` (paper 000, Section 2), built
//!   after all renaming, and must be deterministic.
//!
//! - A name that is neither a process nor a composition is a C component. Its part is a
//!   *placeholder* (kind [`PartKind::C`]) whose automaton has one transition per event the
//!   component can perform, each into a state of its own, from the initial state. Relabelling
//!   keeps states, so after elaboration the labels into state `i` are what the component's
//!   event `i` has become; [`Part::renaming`] reads this off, and the checker applies it to each
//!   abstract model of the component.
//!
//! Known weaknesses: a nested composition with hiding is built explicitly (no on-the-fly
//! product inside it), so it cannot contain a C component.

use std::fmt;

use super::Spec;
use super::ast::*;
use super::eval::{Env, Hiding, Relabelling};
use super::process;
use crate::automata::Dla;
use crate::automata::compose::compose;
use crate::automata::safety::error_automaton;
use crate::diag::Diagnostic;

/// What a part of an assembly is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// An FSP process (an environment or test model).
    Process,
    /// A safety property, given as its error automaton `P_err`.
    Property,
    /// A nested composition that hides events, composed into one automaton.
    Composite,
    /// A C component: the automaton is a placeholder that records its renaming.
    C,
}

/// One part of an assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// How the spec names it, with labels and values: `phil.2:PHIL`, `SEMAPHORE(1)`.
    pub name: String,
    /// What it is.
    pub kind: PartKind,
    /// Its automaton, with every relabelling applied (`P_err` for a property).
    pub automaton: Dla,
    /// For a C component: the component's own events, which the placeholder was built from.
    pub c_alphabet: Vec<String>,
    /// For an FSP process that owns propositions: [`Part::automaton`] with its states labelled,
    /// to show the labels along a trace ([`Assembly::trace_labels`]); the checks never read it.
    pub labelled: Option<Dla>,
}

impl Part {
    /// For a C component's placeholder: each of the component's own events and the names it
    /// has in the assembly (none when a relabelling dropped it), in the order of the alphabet
    /// the placeholder was built from.
    pub fn renaming(&self) -> Vec<(String, Vec<String>)> {
        let a = &self.automaton;
        let Some(&init) = a.initial().first() else { return Vec::new() };
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        // State k + 1 stands for the k-th event of the component's alphabet.
        for (k, name) in self.c_alphabet.iter().enumerate() {
            let target = crate::automata::dla::StateId(k as u32 + 1);
            let names: Vec<String> = a
                .state(init)
                .out
                .iter()
                .filter(|t| t.to == target)
                .map(|t| a.event_name(t.event).to_string())
                .collect();
            out.push((name.clone(), names));
        }
        out
    }
}

/// A top-level composition as separate parts plus what hides after composing them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembly {
    /// The composition's name.
    pub name: String,
    /// The parts; the composition's relabelling is already applied to each.
    pub parts: Vec<Part>,
    /// The composition's hiding and interface, to apply to the product.
    pub hiding: Hiding,
}

impl Assembly {
    /// Whether the composition hides `event`.
    pub fn is_hidden(&self, event: &str) -> bool {
        self.hiding.is_hidden(event)
    }

    /// The parts' automata, in order.
    pub fn automata(&self) -> Vec<&Dla> {
        self.parts.iter().map(|p| &p.automaton).collect()
    }

    /// The label after every step of `trace` (visible events and letters of this assembly), as
    /// far as the FSP processes that own propositions decide it: the first is the initial
    /// label, then one per event. A proposition is shown where it holds in every state its
    /// owner can be in at that point of the trace (forward and backward); `None` when no FSP
    /// process owns a proposition or the trace is not one of the owners'.
    pub fn trace_labels(&self, trace: &[String]) -> Option<Vec<Vec<String>>> {
        let owners: Vec<&Dla> = self.parts.iter().filter_map(|p| p.labelled.as_ref()).collect();
        if owners.is_empty() {
            return None;
        }
        let mut labels: Vec<std::collections::BTreeSet<String>> = vec![Default::default(); trace.len() + 1];
        for d in owners {
            for (i, l) in owner_trace_labels(d, trace, &|e| self.is_hidden(e))?.into_iter().enumerate() {
                labels[i].extend(l);
            }
        }
        Some(labels.into_iter().map(|l| l.into_iter().collect()).collect())
    }

    /// The composed automaton with the hiding applied.
    pub fn compose(&self) -> Dla {
        let product = compose(&self.automata());
        if self.hiding.is_empty() { product } else { product.hide(&|e| self.hiding.is_hidden(e)) }
    }
}

impl fmt::Display for Assembly {
    /// The parts' names joined with `||`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.parts.iter().map(|p| p.name.as_str()).collect();
        write!(f, "||{} = ({})", self.name, names.join(" || "))
    }
}

/// A part under construction: properties are still plain safety LTSs.
struct Piece {
    name: String,
    kind: PartKind,
    dla: Dla,
    span: Span,
    c_alphabet: Vec<String>,
    /// For an FSP process: its definition (whose propositions label its states).
    def: Option<usize>,
}

/// `a:` or `{a,b}::` with their values.
#[derive(Clone)]
enum Op {
    Label(String),
    Share(Vec<String>),
}

/// The events of a C component, by name, for elaborating assemblies that contain it.
pub type CAlphabets<'a> = &'a dyn Fn(&str) -> Option<Vec<String>>;

/// The assembly of composition `comp` with parameter values `args`; `c` gives the alphabet of
/// each C component it names.
pub fn assembly(spec: &Spec, comp: usize, args: &[i64], c: Option<CAlphabets>) -> Result<Assembly, Diagnostic> {
    let mut stack = Vec::new();
    let (mut pieces, hiding) = Builder { spec, stack: &mut stack, c }.composite(comp, args)?;
    observe(spec, &mut pieces)?;
    let parts = pieces.into_iter().map(|p| finish(spec, p)).collect::<Result<_, _>>()?;
    Ok(Assembly { name: spec.ast.composites[comp].name.text.clone(), parts, hiding })
}

/// A single process as a one-part assembly.
pub fn single(spec: &Spec, def: usize) -> Result<Assembly, Diagnostic> {
    let pd = &spec.ast.processes[def];
    let dla = process::elaborate(spec, def, &[], &[], pd.name().span)?;
    let kind = if pd.property { PartKind::Property } else { PartKind::Process };
    let piece =
        Piece { name: pd.name().text.clone(), kind, dla, span: pd.name().span, c_alphabet: Vec::new(), def: Some(def) };
    Ok(Assembly { name: piece.name.clone(), parts: vec![finish(spec, piece)?], hiding: Hiding::default() })
}

/// The part of a piece: a property becomes its error automaton. The states of an FSP
/// process lose their labels: what the properties observe of them is in the letters
/// ([`observe`]), so the checks read events only.
fn finish(spec: &Spec, p: Piece) -> Result<Part, Diagnostic> {
    let automaton = match p.kind {
        PartKind::Property => error_automaton(&p.dla).map_err(|e| {
            let msg = format!("property `{}` is not deterministic here", p.name);
            spec.ctx().error(p.span, msg, e.to_string())
        })?,
        _ if !p.dla.props().is_empty() => p.dla.unlabelled(),
        _ => p.dla.clone(),
    };
    let labelled = (p.kind == PartKind::Process && !p.dla.props().is_empty()).then_some(p.dla);
    Ok(Part { name: p.name, kind: p.kind, automaton, c_alphabet: p.c_alphabet, labelled })
}

/// The labels of labelled automaton `d` along `trace` (see [`Assembly::trace_labels`]): events
/// outside its alphabet leave it where it is; events the assembly hides are τ for it.
fn owner_trace_labels(d: &Dla, trace: &[String], hidden: &dyn Fn(&str) -> bool) -> Option<Vec<Vec<String>>> {
    use crate::automata::StateId;
    let d = d.hide(hidden);
    let step = |from: &[StateId], e: &str| -> Vec<StateId> {
        match d.event_index(e) {
            None => from.to_vec(),
            Some(ix) => {
                let next: Vec<StateId> =
                    from.iter().flat_map(|&s| d.state(s).out.iter().filter(|t| t.event == ix).map(|t| t.to)).collect();
                d.tau_closure(&next)
            }
        }
    };
    let mut forward = vec![d.tau_closure(d.initial())];
    for e in trace {
        let next = step(forward.last().expect("one set"), e);
        if next.is_empty() {
            return None;
        }
        forward.push(next);
    }
    // Backward: keep the states from which the rest of the trace goes on.
    let mut sets = forward.clone();
    for i in (0..trace.len()).rev() {
        let later = sets[i + 1].clone();
        sets[i].retain(|&s| step(&d.tau_closure(&[s]), &trace[i]).iter().any(|t| later.contains(t)));
    }
    Some(
        sets.iter()
            .map(|set| {
                let mut common: Option<Vec<&str>> = None;
                for &s in set.iter().filter(|&&s| !d.is_error(s)) {
                    let l = d.label_names(s);
                    common = Some(match common {
                        None => l,
                        Some(c) => c.into_iter().filter(|p| l.contains(p)).collect(),
                    });
                }
                common.unwrap_or_default().into_iter().map(str::to_string).collect()
            })
            .collect(),
    )
}

struct Builder<'s, 'k> {
    spec: &'s Spec,
    /// The compositions being elaborated, to reject one that contains itself.
    stack: &'k mut Vec<usize>,
    /// The alphabets of C components, when the caller has the C program.
    c: Option<CAlphabets<'k>>,
}

impl Builder<'_, '_> {
    fn composite(&mut self, comp: usize, args: &[i64]) -> Result<(Vec<Piece>, Hiding), Diagnostic> {
        let cd = &self.spec.ast.composites[comp];
        let ctx = self.spec.ctx();
        if self.stack.contains(&comp) {
            let msg = format!("composition `{}` contains itself", cd.name.text);
            return Err(ctx.error(cd.name.span, msg, "defined in terms of itself"));
        }
        self.stack.push(comp);
        let mut env = Env::default();
        for (i, p) in cd.params.iter().enumerate() {
            let v = match args.get(i) {
                Some(&v) => v,
                None => ctx.eval(&p.default, &env)?,
            };
            env.bind(&p.name.text, v);
        }
        let mut pieces = self.items(&cd.items, &env)?;
        let rel = Relabelling::eval(&ctx, &cd.post.relabel, &env)?;
        relabel_all(&mut pieces, &rel);
        let hiding = Hiding::eval(&ctx, &cd.post, &env)?;
        self.stack.pop();
        Ok((pieces, hiding))
    }

    fn items(&mut self, items: &[Item], env: &Env) -> Result<Vec<Piece>, Diagnostic> {
        let mut out = Vec::new();
        for item in items {
            out.extend(self.item(item, env)?);
        }
        Ok(out)
    }

    fn item(&mut self, item: &Item, env: &Env) -> Result<Vec<Piece>, Diagnostic> {
        let ctx = self.spec.ctx();
        let mut out = Vec::new();
        for (ops, env) in self.prefix_values(&item.prefixes, env)? {
            let mut pieces = match &item.kind {
                ItemKind::Forall(decls, body) => {
                    let mut ps = Vec::new();
                    for env in ctx.index_envs(decls, &env)? {
                        ps.extend(self.item(body, &env)?);
                    }
                    ps
                }
                ItemKind::Group(items) => self.items(items, &env)?,
                ItemKind::Ref { name, indices, args } => self.reference(name, indices, args, &env, item.span)?,
            };
            let rel = Relabelling::eval(&ctx, &item.post.relabel, &env)?;
            relabel_all(&mut pieces, &rel);
            let hiding = Hiding::eval(&ctx, &item.post, &env)?;
            if !hiding.is_empty() {
                pieces = vec![self.hidden_group(pieces, &hiding, item.span, "(..)".to_string())?];
            }
            for op in ops.iter().rev() {
                apply_op(&mut pieces, op);
            }
            out.extend(pieces);
        }
        Ok(out)
    }

    /// Every combination of the values of the prefixes, outermost first, with the bindings
    /// their labels make (`a[i:1..3]:P[i]`).
    fn prefix_values(&self, prefixes: &[ItemPrefix], env: &Env) -> Result<Vec<(Vec<Op>, Env)>, Diagnostic> {
        let ctx = self.spec.ctx();
        let mut acc: Vec<(Vec<Op>, Env)> = vec![(Vec::new(), env.clone())];
        for p in prefixes {
            let mut next = Vec::new();
            for (ops, env) in acc {
                match p {
                    ItemPrefix::Label(l) => {
                        for (name, env) in ctx.expand(l, &env)? {
                            let mut ops = ops.clone();
                            ops.push(Op::Label(name));
                            next.push((ops, env));
                        }
                    }
                    ItemPrefix::Share(l) => {
                        let names = ctx.expand(l, &env)?.into_iter().map(|(n, _)| n).collect();
                        let mut ops = ops.clone();
                        ops.push(Op::Share(names));
                        next.push((ops, env));
                    }
                }
            }
            acc = next;
        }
        Ok(acc)
    }

    fn reference(
        &mut self,
        name: &Name,
        indices: &[Expr],
        args: &[Expr],
        env: &Env,
        span: Span,
    ) -> Result<Vec<Piece>, Diagnostic> {
        let ctx = self.spec.ctx();
        let indices = indices.iter().map(|e| ctx.eval(e, env)).collect::<Result<Vec<_>, _>>()?;
        let args = args.iter().map(|e| ctx.eval(e, env)).collect::<Result<Vec<_>, _>>()?;
        if let Some(&def) = self.spec.process_ix.get(&name.text) {
            let pd = &self.spec.ast.processes[def];
            let dla = process::elaborate(self.spec, def, &args, &indices, name.span)?;
            let kind = if pd.property { PartKind::Property } else { PartKind::Process };
            return Ok(vec![Piece {
                name: instance_name(&name.text, &indices, &args),
                kind,
                dla,
                span,
                c_alphabet: Vec::new(),
                def: Some(def),
            }]);
        }
        if let Some(&comp) = self.spec.composite_ix.get(&name.text) {
            let (pieces, hiding) = self.composite(comp, &args)?;
            if hiding.is_empty() {
                return Ok(pieces);
            }
            return Ok(vec![self.hidden_group(pieces, &hiding, span, instance_name(&name.text, &[], &args))?]);
        }
        if let Some(alphabet) = self.c.and_then(|c| c(&name.text)) {
            if !indices.is_empty() || !args.is_empty() {
                let msg = format!("C component `{}` takes no indices or parameters", name.text);
                return Err(ctx.error(name.span, msg, "a C function is one component"));
            }
            let mut b = crate::automata::dla::Builder::new();
            let root = b.add_state(&[], true);
            for e in &alphabet {
                let s = b.add_state(&[], true);
                b.add_transition(root, e, s);
            }
            b.set_initial(root);
            return Ok(vec![Piece {
                name: name.text.clone(),
                kind: PartKind::C,
                dla: b.build(),
                span,
                c_alphabet: alphabet,
                def: None,
            }]);
        }
        let msg = match self.c {
            None => {
                format!("C component `{}` needs its C sources: give them to `subst verify` with the spec", name.text)
            }
            Some(_) => format!("`{}` is not a process, a composition or a C component of the sources", name.text),
        };
        Err(ctx.error(name.span, msg, "not an FSP process or composition, so a C component"))
    }

    /// Composes `pieces` and hides events of the result: one part.
    fn hidden_group(&self, pieces: Vec<Piece>, hiding: &Hiding, span: Span, name: String) -> Result<Piece, Diagnostic> {
        if let Some(c) = pieces.iter().find(|p| p.kind == PartKind::C) {
            let msg = format!("C component `{}` is inside a composition that hides events", c.name);
            return Err(self.spec.ctx().error(c.span, msg, "hide events at the top level of the assembly instead"));
        }
        if let Some((p, owned)) = pieces.iter().find_map(|p| {
            let owned = observed_fsp_props(self.spec, p);
            (!owned.is_empty()).then_some((p, owned))
        }) {
            let msg = format!(
                "process `{}` owns the proposition {}, which a guard reads, and is inside a composition that hides events",
                p.name,
                owned.join(", ")
            );
            return Err(self
                .spec
                .ctx()
                .error(p.span, msg, "its labels would be lost here")
                .with_note("compose the proposition's owner at the top level of the assembly and hide events there"));
        }
        let parts = pieces.into_iter().map(|p| finish(self.spec, p)).collect::<Result<Vec<_>, _>>()?;
        let automata: Vec<&Dla> = parts.iter().map(|p| &p.automaton).collect();
        let dla = compose(&automata).hide(&|e| hiding.is_hidden(e));
        Ok(Piece { name, kind: PartKind::Composite, dla, span, c_alphabet: Vec::new(), def: None })
    }
}

/// The observed propositions that FSP process piece `p` owns, sorted.
fn observed_fsp_props(spec: &Spec, p: &Piece) -> Vec<String> {
    let Some(def) = p.def.filter(|_| p.kind == PartKind::Process) else { return Vec::new() };
    let name = &spec.ast.processes[def].name().text;
    let obs = spec.observations();
    let mut out: Vec<String> = spec
        .props()
        .iter()
        .filter(|q| q.fsp && &q.component == name && obs.props.contains(&q.name))
        .map(|q| q.name.clone())
        .collect();
    out.sort();
    out
}

/// Puts the observed events of the assembly in their event form (see
/// [`super::Observations`]): a part that performs an observed event `e` performs every `e{X}`
/// for `X` a set of propositions that can hold (those of the components present); a C
/// component that owns propositions keeps, of the letters its models offer, those with such
/// an `X` for an event some part performs (itself, when its own events carry their labels);
/// an FSP process that owns propositions gets the same letters from the labels of its states
/// ([`owner_letters`]).
fn observe(spec: &Spec, pieces: &mut [Piece]) -> Result<(), Diagnostic> {
    let obs = spec.observations();
    if obs.is_empty() {
        return Ok(());
    }
    let owns_c = |piece: &Piece| {
        piece.kind == PartKind::C
            && spec.props().iter().any(|p| !p.fsp && p.component == piece.name && obs.props.contains(&p.name))
    };
    // A proposition has one owner: an FSP process composed twice would label with two states.
    let mut owners: Vec<(usize, &Piece)> = Vec::new();
    for piece in pieces.iter() {
        if observed_fsp_props(spec, piece).is_empty() {
            continue;
        }
        let def = piece.def.expect("an FSP process");
        if let Some((_, first)) = owners.iter().find(|(d, _)| *d == def) {
            let msg = format!(
                "process `{}` owns the proposition {}, which a guard reads, and the assembly composes it twice (`{}` and `{}`)",
                spec.ast.processes[def].name().text,
                observed_fsp_props(spec, piece).join(", "),
                first.name,
                piece.name
            );
            return Err(spec.ctx().error(piece.span, msg, "a second instance").with_note(
                "a proposition has one owner: define one process per instance, each with its own proposition",
            ));
        }
        owners.push((def, piece));
    }
    let present: Vec<String> = obs
        .props
        .iter()
        .filter(|name| {
            spec.props().iter().any(|p| {
                &p.name == *name
                    && pieces.iter().any(|c| {
                        (c.kind == PartKind::C && !p.fsp && c.name == p.component)
                            || (p.fsp && observed_fsp_props(spec, c).contains(&p.name))
                    })
            })
        })
        .cloned()
        .collect();
    let performs = |piece: &Piece, e: &str| piece.dla.event_index(e).is_some();
    // A C component that owns observed propositions may perform an observed plain event
    // itself: its models carry the letters (the event labelled with the state it leaves), and
    // its plain event only says that it performs it ([`crate::abs::labels`]).
    let labels_own = |piece: &Piece, e: &str| {
        piece.dla.alphabet().iter().any(|l| super::Observations::split(l).is_some_and(|(ev, _)| ev == e))
    };
    let mut performed: Vec<&str> = Vec::new();
    let mut own_performed: Vec<(String, String)> = Vec::new();
    for e in &obs.events {
        for piece in pieces.iter().filter(|p| p.kind != PartKind::Property) {
            if performs(piece, e) {
                if owns_c(piece) && labels_own(piece, e) {
                    own_performed.push((piece.name.clone(), e.clone()));
                } else if owns_c(piece) {
                    let read: Vec<&str> = spec
                        .props()
                        .iter()
                        .filter(|p| !p.fsp && p.component == piece.name && obs.props.contains(&p.name))
                        .map(|p| p.name.as_str())
                        .collect();
                    let msg = format!(
                        "C component `{}` performs `{e}`, which a guard over its own propositions ({}) guards",
                        piece.name,
                        read.join(", ")
                    );
                    return Err(spec
                        .ctx()
                        .error(piece.span, msg, "performs an observed event")
                        .with_note("the component performs it as a value of an event family (`e.v`); its own plain events carry its label, its families' values do not yet: guard a plain event"));
                }
                performed.push(e);
            }
        }
    }
    let sets = crate::spec::process::subsets(&present);
    for piece in pieces.iter_mut().filter(|p| p.kind != PartKind::Property) {
        let fsp_owned = observed_fsp_props(spec, piece);
        if !fsp_owned.is_empty() {
            piece.dla = owner_letters(&piece.dla, &fsp_owned, &sets, &obs.events, &performed);
        } else if owns_c(piece) {
            let own: Vec<&str> =
                own_performed.iter().filter(|(p, _)| *p == piece.name).map(|(_, e)| e.as_str()).collect();
            piece.dla = piece.dla.relabel(&|l| match super::Observations::split(l) {
                Some((e, x)) if own.contains(&e) => {
                    if x.iter().all(|p| present.iter().any(|q| q == p)) {
                        vec![l.to_string()]
                    } else {
                        Vec::new()
                    }
                }
                None if own.contains(&l) => Vec::new(),
                Some((e, x)) if obs.events.iter().any(|o| o == e) => {
                    if performed.contains(&e) && x.iter().all(|p| present.iter().any(|q| q == p)) {
                        vec![l.to_string()]
                    } else {
                        Vec::new()
                    }
                }
                _ => vec![l.to_string()],
            });
        } else {
            piece.dla = piece.dla.relabel(&|e| {
                if obs.events.iter().any(|o| o == e) {
                    sets.iter().map(|x| super::Observations::letter(e, x)).collect()
                } else {
                    vec![e.to_string()]
                }
            });
        }
    }
    Ok(())
}

/// The event form of an FSP process that owns the observed propositions `own`: in a state
/// labelled `L`, an observed event `e` it performs becomes the letters `e{X}` (an `X` of
/// `sets`) that agree with `L` on `own`, the label of the state it leaves; an observed event
/// that only others perform (`performed`) becomes a self-loop with those letters. A letter
/// that disagrees with `L` is in the alphabet and refused there, so the event happens only
/// with the owner's label. The states keep their labels until the part is finished.
fn owner_letters(dla: &Dla, own: &[String], sets: &[Vec<String>], observed: &[String], performed: &[&str]) -> Dla {
    let agrees =
        |label: &[&str], x: &[String]| own.iter().all(|p| label.contains(&p.as_str()) == x.iter().any(|q| q == p));
    let loops: Vec<&String> =
        observed.iter().filter(|e| dla.event_index(e).is_none() && performed.contains(&e.as_str())).collect();
    let mut b = crate::automata::Builder::new();
    for e in dla.alphabet() {
        if observed.contains(e) {
            sets.iter().for_each(|x| b.add_event(&super::Observations::letter(e, x)));
        } else {
            b.add_event(e);
        }
    }
    for e in &loops {
        sets.iter().for_each(|x| b.add_event(&super::Observations::letter(e, x)));
    }
    for (i, _) in dla.states().iter().enumerate() {
        let s = crate::automata::StateId(i as u32);
        if dla.is_error(s) {
            b.add_error_state();
        } else {
            b.add_state(&dla.label_names(s), dla.is_accepting(s));
        }
    }
    for &s in dla.initial() {
        b.set_initial(s);
    }
    for (i, state) in dla.states().iter().enumerate() {
        let s = crate::automata::StateId(i as u32);
        if dla.is_error(s) {
            continue;
        }
        let label = dla.label_names(s);
        let mine: Vec<&Vec<String>> = sets.iter().filter(|x| agrees(&label, x)).collect();
        for t in &state.out {
            let name =
                if t.event == crate::automata::TAU { crate::automata::TAU_NAME } else { dla.event_name(t.event) };
            if observed.iter().any(|o| o == name) {
                mine.iter().for_each(|x| b.add_transition(s, &super::Observations::letter(name, x), t.to));
            } else {
                b.add_transition(s, name, t.to);
            }
        }
        for e in &loops {
            mine.iter().for_each(|x| b.add_transition(s, &super::Observations::letter(e, x), s));
        }
    }
    b.build()
}

fn relabel_all(pieces: &mut [Piece], rel: &Relabelling) {
    if rel.is_empty() {
        return;
    }
    for p in pieces {
        p.dla = p.dla.relabel(&|e| rel.apply(e));
    }
}

fn apply_op(pieces: &mut [Piece], op: &Op) {
    for p in pieces {
        match op {
            Op::Label(l) => {
                p.dla = p.dla.relabel(&|e| vec![format!("{l}.{e}")]);
                p.name = format!("{l}:{}", p.name);
            }
            Op::Share(ls) => {
                p.dla = p.dla.relabel(&|e| ls.iter().map(|l| format!("{l}.{e}")).collect());
                p.name = format!("{{{}}}::{}", ls.join(","), p.name);
            }
        }
    }
}

/// `P`, `P[2]`, `BUFF(3)`.
fn instance_name(name: &str, indices: &[i64], args: &[i64]) -> String {
    let mut s = name.to_string();
    for i in indices {
        s.push_str(&format!("[{i}]"));
    }
    if !args.is_empty() {
        let a: Vec<String> = args.iter().map(|v| v.to_string()).collect();
        s.push_str(&format!("({})", a.join(",")));
    }
    s
}
