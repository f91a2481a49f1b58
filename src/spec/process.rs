//! Elaboration of an FSP process definition into an LTS (a [`Dla`] whose states are all
//! accepting and unlabelled), breadth-first from the initial state.
//!
//! A state is a point of the body — a choice or a prefix, identified by its [`TermId`] — with
//! the values of the variables that the rest of the body still reads (its free variables).
//! Keying states on the free variables only means that `in[x:V] -> out -> P` has one state after
//! `in.x` rather than one per `x`, as LTSA builds it. Process references, `if` and indices are
//! resolved on the way to a state, so they never become states themselves.
//!
//! Semantics, following LTSA:
//! - `STOP` (and `END`) is one deadlocked state; `ERROR` is the error state π.
//! - A local process referenced with an index outside its declared range is `ERROR` (LTSA's
//!   treatment of `SEMA[v+1]` beyond the range: overflow is a violation, not a typo).
//! - The alphabet is the set of events on the transitions built, plus `+{..}`; then the
//!   relabelling, then the hiding and the interface apply.
//! - A `property` must be deterministic: two transitions on one event to different states, or
//!   a τ after hiding, is a located error.
//!
//! Known weaknesses: a guarded-out branch contributes no events to the alphabet (as in LTSA,
//! but unlike a purely syntactic alphabet); the state count is limited to [`MAX_STATES`].

use crate::util::HashMap;
use std::collections::VecDeque;

use super::Spec;
use super::ast::*;
use super::eval::{Ctx, Env, Hiding, Relabelling};
use crate::automata::{Builder, Dla, StateId};
use crate::diag::Diagnostic;

/// The most states one process may have.
pub const MAX_STATES: usize = 1_000_000;

/// The longest chain of process references without an action in between.
const MAX_REF_CHAIN: u32 = 1_000;

/// Elaborates process definition `def` with parameter values `args` (defaults for the missing
/// ones) starting at index values `indices` (the lowest values when empty). `at` locates
/// errors about the instantiation itself.
pub fn elaborate(spec: &Spec, def: usize, args: &[i64], indices: &[i64], at: Span) -> Result<Dla, Diagnostic> {
    let mut el = Elaborator::new(spec);
    el.observe = Observe::Letters(spec.observations.clone());
    el.owner = Some(def);
    run(&mut el, def, args, indices, at)
}

/// The events that guards over propositions guard in property `def` (elaborated with its
/// defaults), added to `events`, and the propositions those guards read, added to `props`.
pub fn observed(
    spec: &Spec,
    def: usize,
    events: &mut std::collections::BTreeSet<String>,
    props: &mut std::collections::BTreeSet<String>,
) -> Result<(), Diagnostic> {
    let mut el = Elaborator::new(spec);
    el.observe = Observe::Collect(Default::default(), Default::default());
    let pd = &spec.ast.processes[def];
    run(&mut el, def, &[], &[], pd.name().span)?;
    if let Observe::Collect(e, p) = el.observe {
        events.extend(e);
        props.extend(p);
    }
    Ok(())
}

fn run(el: &mut Elaborator, def: usize, args: &[i64], indices: &[i64], at: Span) -> Result<Dla, Diagnostic> {
    let spec = el.spec;
    el.params.insert(def, el.param_env(def, args)?);
    let pd = &spec.ast.processes[def];
    let main = &pd.locals[0];
    let env = el.start_env(def, &main.indices, indices, at)?;
    let start = Local {
        def,
        local: 0,
        values: env
            .values(&main.indices.iter().map(|d| d.var.text.clone()).collect::<Vec<_>>())
            .into_iter()
            .flatten()
            .collect(),
    };
    let init = el.resolve(def, main.body, env, start, 0)?;
    let s0 = el.state(init)?;
    el.builder.set_initial(s0);
    while let Some((from, node)) = el.queue.pop_front() {
        el.successors(from, &node)?;
        if el.builder.n_states() > MAX_STATES {
            let n = &pd.name();
            return Err(el.ctx.error(
                n.span,
                format!("process `{}` has too many states", n.text),
                format!("more than {MAX_STATES}"),
            ));
        }
    }
    let mut dla = std::mem::take(&mut el.builder).build();
    if let Observe::Letters(obs) = &el.observe
        && !el.observed.is_empty()
    {
        let all: Vec<String> = el
            .observed
            .iter()
            .flat_map(|e| obs.subsets().into_iter().map(move |x| super::Observations::letter(e, &x)))
            .collect();
        dla = dla.extend_alphabet(&all);
    }
    el.post_ops(def, dla)
}

/// A point of a body with the variables it reads (parameters are kept apart, per definition),
/// and the local process instance whose body it is in.
#[derive(Clone, Debug)]
struct Node {
    def: usize,
    term: TermId,
    env: Env,
    local: Local,
}

/// An instance of a local process: `FULL[2]` of definition `def`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Local {
    def: usize,
    local: usize,
    values: Vec<i64>,
}

/// Where a process reference or `if` leads; `STOP` keeps the local process it ends.
enum Target {
    Stop(Local),
    Error,
    Node(Node),
}

/// A state: its point and values, and the mask of the owned propositions that hold in it (states
/// that differ only in their label stay apart).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Stop(u32),
    Error,
    Node(usize, TermId, Vec<Option<i64>>, u32),
}

struct Elaborator<'s> {
    spec: &'s Spec,
    ctx: Ctx<'s>,
    builder: Builder,
    ids: HashMap<Key, StateId>,
    queue: VecDeque<(StateId, Node)>,
    /// Parameter values of each definition met so far.
    params: HashMap<usize, Env>,
    /// Free variables of each term of each definition met, sorted.
    free: HashMap<usize, Vec<Vec<String>>>,
    /// For properties: the target and label of each (state, event) seen.
    moves: HashMap<(StateId, String), (StateId, Span)>,
    /// What a property does with guards over state propositions.
    observe: Observe,
    /// The observed events a property has met (its alphabet holds all their letters).
    observed: std::collections::BTreeSet<String>,
    /// The definition whose propositions label the states (`prop P = PROC: {..}`).
    owner: Option<usize>,
}

/// How a property's guards over state propositions are elaborated.
enum Observe {
    /// Each observed event `e` becomes the letters `e{X}`, one per set `X` of the observed
    /// propositions under which its guard holds (every `X` where it has no guard).
    Letters(super::Observations),
    /// A first pass: the events guarded by a guard over propositions, and those propositions,
    /// are collected; a guard over propositions holds when it holds for some of their values.
    Collect(std::collections::BTreeSet<String>, std::collections::BTreeSet<String>),
}

impl<'s> Elaborator<'s> {
    fn new(spec: &'s Spec) -> Elaborator<'s> {
        Elaborator {
            spec,
            ctx: spec.ctx(),
            builder: Builder::new(),
            ids: HashMap::default(),
            queue: VecDeque::new(),
            params: HashMap::default(),
            free: HashMap::default(),
            moves: HashMap::default(),
            observe: Observe::Letters(super::Observations::default()),
            observed: Default::default(),
            owner: None,
        }
    }

    /// The propositions of the owner that hold in the states of `at` (sorted), as names and
    /// as a mask over the owner's propositions in declaration order.
    fn label(&mut self, at: &Local) -> Result<(Vec<String>, u32), Diagnostic> {
        let Some(owner) = self.owner.filter(|&o| o == at.def) else { return Ok((Vec::new(), 0)) };
        let spec = self.spec;
        let name = &self.def(owner).name().text;
        let local = &self.def(owner).locals[at.local];
        let params = self.params_of(owner)?;
        let (mut names, mut mask) = (Vec::new(), 0u32);
        let owned =
            spec.ast.props.iter().filter(|p| &p.component.text == name).filter_map(|p| Some((p, p.states.as_ref()?)));
        for (i, (p, states)) in owned.enumerate() {
            let mut holds = false;
            for st in states.iter().filter(|st| st.name.text == local.name.text) {
                if !st.indices.is_empty() && st.indices.len() != at.values.len() {
                    continue;
                }
                let mut all = true;
                for (part, &v) in st.indices.iter().zip(&at.values) {
                    let ok = match part {
                        LabelPart::Index(Expr { kind: ExprKind::Ident(n), span })
                            if params.get(n).is_none() && spec.globals.ranges.contains_key(n) =>
                        {
                            let (lo, hi) =
                                self.ctx.range(&RangeSpec::Named(Name { text: n.clone(), span: *span }), &params)?;
                            (lo..=hi).contains(&v)
                        }
                        LabelPart::Index(e) => self.ctx.eval(e, &params)? == v,
                        LabelPart::Range(r) | LabelPart::Bind(_, r) => {
                            let (lo, hi) = self.ctx.range(r, &params)?;
                            (lo..=hi).contains(&v)
                        }
                        LabelPart::Name(_) | LabelPart::Set(_) => false,
                    };
                    all &= ok;
                }
                holds |= all;
            }
            if holds {
                names.push(p.name.text.clone());
                mask |= 1 << i.min(31);
            }
        }
        names.sort();
        Ok((names, mask))
    }

    fn def(&self, def: usize) -> &'s ProcessDef {
        &self.spec.ast.processes[def]
    }

    /// Parameter bindings: `args` in order, defaults for the rest.
    fn param_env(&self, def: usize, args: &[i64]) -> Result<Env, Diagnostic> {
        let mut env = Env::default();
        for (i, p) in self.def(def).params.iter().enumerate() {
            let v = match args.get(i) {
                Some(&v) => v,
                None => self.ctx.eval(&p.default, &env)?,
            };
            env.bind(&p.name.text, v);
        }
        Ok(env)
    }

    fn params_of(&mut self, def: usize) -> Result<Env, Diagnostic> {
        if let Some(p) = self.params.get(&def) {
            return Ok(p.clone());
        }
        let p = self.param_env(def, &[])?;
        self.params.insert(def, p.clone());
        Ok(p)
    }

    /// The bindings of the main process's indices: `given`, or the lowest values.
    fn start_env(&mut self, def: usize, decls: &[IndexDecl], given: &[i64], at: Span) -> Result<Env, Diagnostic> {
        let params = self.params_of(def)?;
        let mut env = Env::default();
        for (i, d) in decls.iter().enumerate() {
            let (lo, hi) = self.ctx.range(&d.range, &params.concat(&env))?;
            let v = given.get(i).copied().unwrap_or(lo);
            if !(lo..=hi).contains(&v) {
                let msg = format!("index {v} of `{}` is outside {lo}..{hi}", self.def(def).name().text);
                return Err(self.ctx.error(at, msg, "out of range"));
            }
            env.bind(&d.var.text, v);
        }
        Ok(env)
    }

    /// Follows references and `if`s from `term` to a state (a loop, not recursion: a chain of
    /// references may be long).
    fn resolve(
        &mut self,
        mut def: usize,
        mut term: TermId,
        mut env: Env,
        mut local: Local,
        mut depth: u32,
    ) -> Result<Target, Diagnostic> {
        let mut seen: Vec<(usize, TermId, Env)> = Vec::new();
        loop {
            let pd = self.def(def);
            match pd.term(term) {
                Term::Stop(_) | Term::End(_) => return Ok(Target::Stop(local)),
                Term::Error(_) => return Ok(Target::Error),
                Term::If { cond, then, otherwise } => {
                    let full = self.params_of(def)?.concat(&env);
                    term = match (self.ctx.eval(cond, &full)? != 0, otherwise) {
                        (true, _) => *then,
                        (false, Some(o)) => *o,
                        (false, None) => return Ok(Target::Stop(local)),
                    };
                }
                Term::Ref { name, indices } => {
                    depth += 1;
                    let here = (def, term, env.clone());
                    if depth > MAX_REF_CHAIN || seen.contains(&here) {
                        let msg =
                            format!("unguarded recursion: `{}` leads back to itself without an action", name.text);
                        return Err(self.ctx.error(
                            name.span,
                            msg,
                            "a process must perform an action before recurring",
                        ));
                    }
                    seen.push(here);
                    let full = self.params_of(def)?.concat(&env);
                    let values = indices.iter().map(|e| self.ctx.eval(e, &full)).collect::<Result<Vec<_>, _>>()?;
                    match self.resolve_ref(def, name, &values)? {
                        Some((d, l, t, e)) => {
                            (def, term, env) = (d, t, e);
                            local = Local { def: d, local: l, values };
                        }
                        None => return Ok(Target::Error),
                    }
                }
                Term::Choice(..) | Term::Prefix { .. } => {
                    let free = self.free_vars(def, term);
                    return Ok(Target::Node(Node { def, term, env: env.restrict(&free), local }));
                }
            }
        }
    }

    /// The definition, local process, body and index bindings a reference leads to; `None`
    /// when an index is outside its range (the reference is `ERROR`).
    fn resolve_ref(
        &mut self,
        def: usize,
        name: &Name,
        values: &[i64],
    ) -> Result<Option<(usize, usize, TermId, Env)>, Diagnostic> {
        let (tdef, local) = match self.def(def).local(&name.text, values.len()) {
            Some(l) => (def, l),
            None => match self.spec.process_ix.get(&name.text) {
                Some(&g) if self.def(g).locals[0].indices.len() == values.len() => (g, 0),
                _ => {
                    let msg = format!("unknown process `{}` with {} indices", name.text, values.len());
                    return Err(self.ctx.error(name.span, msg, "no such process"));
                }
            },
        };
        let params = self.params_of(tdef)?;
        let ld = &self.def(tdef).locals[local];
        let mut env = Env::default();
        for (d, &v) in ld.indices.iter().zip(values) {
            let (lo, hi) = self.ctx.range(&d.range, &params.concat(&env))?;
            if !(lo..=hi).contains(&v) {
                return Ok(None);
            }
            env.bind(&d.var.text, v);
        }
        Ok(Some((tdef, local, ld.body, env)))
    }

    /// The variables `term` reads that are bound outside it, sorted (constants included; they
    /// are simply absent from environments).
    fn free_vars(&mut self, def: usize, term: TermId) -> Vec<String> {
        let pd = self.def(def);
        let all = self.free.entry(def).or_insert_with(|| all_free_vars(pd));
        all.get(term.0 as usize).cloned().unwrap_or_default()
    }

    fn state(&mut self, target: Target) -> Result<StateId, Diagnostic> {
        let (key, node, label) = match target {
            Target::Stop(at) => {
                let (label, mask) = self.label(&at)?;
                (Key::Stop(mask), None, label)
            }
            Target::Error => (Key::Error, None, Vec::new()),
            Target::Node(n) => {
                let (label, mask) = self.label(&n.local)?;
                let free = self.free_vars(n.def, n.term);
                (Key::Node(n.def, n.term, n.env.values(&free), mask), Some(n), label)
            }
        };
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = match key {
            Key::Error => self.builder.add_error_state(),
            _ => {
                let label: Vec<&str> = label.iter().map(String::as_str).collect();
                self.builder.add_state(&label, true)
            }
        };
        self.ids.insert(key, id);
        if let Some(n) = node {
            self.queue.push_back((id, n));
        }
        Ok(id)
    }

    fn successors(&mut self, from: StateId, node: &Node) -> Result<(), Diagnostic> {
        let branches = match self.def(node.def).term(node.term) {
            Term::Choice(bs, _) => bs.clone(),
            _ => vec![node.term],
        };
        for b in branches {
            self.prefix(from, node.def, b, &node.env, &node.local)?;
        }
        Ok(())
    }

    /// The transitions of one `when g a -> next` branch.
    fn prefix(&mut self, from: StateId, def: usize, term: TermId, env: &Env, local: &Local) -> Result<(), Diagnostic> {
        let pd = self.def(def);
        let Term::Prefix { guard, label, next } = pd.term(term) else {
            return Ok(());
        };
        let params = self.params_of(def)?;
        let full = params.concat(env);
        // The propositions the guard reads (only a property's guard may read any).
        let mut read = Vec::new();
        if let Some(g) = guard
            && pd.property
        {
            expr_vars(g, &mut read);
            read.retain(|n| full.get(n).is_none() && self.spec.props.iter().any(|p| &p.name == n));
            read.sort();
            read.dedup();
        }
        // The sets of propositions under which the guard holds: `[[]]` (one empty set) for a
        // guard over no proposition that holds.
        let sets: Vec<Vec<String>> = match (&self.observe, guard) {
            (Observe::Collect(..), Some(g)) if !read.is_empty() => {
                subsets(&read).into_iter().filter(|x| self.holds(g, &full, &read, x).unwrap_or(false)).collect()
            }
            (Observe::Letters(obs), Some(g)) if !read.is_empty() => {
                let mut sets = Vec::new();
                for x in subsets(&obs.props) {
                    if self.holds(g, &full, &obs.props, &x)? {
                        sets.push(x);
                    }
                }
                sets
            }
            (_, Some(g)) if self.ctx.eval(g, &full)? == 0 => return Ok(()),
            _ => vec![Vec::new()],
        };
        if sets.is_empty() {
            // The guard holds under no label; the property still has the event's letters in
            // its alphabet, so that it refuses them here.
            if let Observe::Letters(obs) = &self.observe
                && pd.property
            {
                let obs = obs.clone();
                for (event, _) in self.ctx.expand(label, &full)? {
                    if obs.events.contains(&event) {
                        self.observed.insert(event);
                    }
                }
            }
            return Ok(());
        }
        for (event, bound) in self.ctx.expand(label, &full)? {
            let target = self.resolve(def, *next, bound.skip(params.len()), local.clone(), 0)?;
            let to = self.state(target)?;
            let letters: Vec<String> = match &mut self.observe {
                Observe::Collect(events, props) => {
                    if !read.is_empty() {
                        events.insert(event.clone());
                        props.extend(read.iter().cloned());
                    }
                    vec![event]
                }
                Observe::Letters(obs) if pd.property && obs.events.contains(&event) => {
                    self.observed.insert(event.clone());
                    let sets = if read.is_empty() { subsets(&obs.props) } else { sets.clone() };
                    sets.iter().map(|x| super::Observations::letter(&event, x)).collect()
                }
                Observe::Letters(_) => vec![event],
            };
            for letter in letters {
                if pd.property {
                    self.check_deterministic(def, from, &letter, to, label.span)?;
                }
                self.builder.add_transition(from, &letter, to);
            }
        }
        Ok(())
    }

    /// Whether guard `g` holds when exactly the propositions `x` of `props` are true.
    fn holds(&self, g: &Expr, full: &Env, props: &[String], x: &[String]) -> Result<bool, Diagnostic> {
        let mut env = full.clone();
        for p in props {
            env.bind(p, i64::from(x.contains(p)));
        }
        Ok(self.ctx.eval(g, &env)? != 0)
    }

    fn check_deterministic(
        &mut self,
        def: usize,
        from: StateId,
        event: &str,
        to: StateId,
        span: Span,
    ) -> Result<(), Diagnostic> {
        match self.moves.get(&(from, event.to_string())) {
            Some(&(other, first)) if other != to => {
                let name = &self.def(def).name().text;
                let msg = format!("property `{name}` is not deterministic: `{event}` leads to two different states");
                let note = format!("the other `{event}` is at line {}, column {}", first.line, first.col);
                Err(self.ctx.error(span, msg, "a second transition on this event").with_note(note))
            }
            Some(_) => Ok(()),
            None => {
                self.moves.insert((from, event.to_string()), (to, span));
                Ok(())
            }
        }
    }

    /// `+{..}`, then `/{..}`, then `\{..}` and `@{..}`.
    fn post_ops(&mut self, def: usize, mut dla: Dla) -> Result<Dla, Diagnostic> {
        let pd = self.def(def);
        let env = self.params_of(def)?;
        if let Some(s) = &pd.post.extend {
            dla = dla.extend_alphabet(&self.ctx.set(s, &env)?);
        }
        if !pd.post.relabel.is_empty() {
            let rel = Relabelling::eval(&self.ctx, &pd.post.relabel, &env)?;
            dla = dla.relabel(&|e| rel.apply(e));
        }
        let hiding = Hiding::eval(&self.ctx, &pd.post, &env)?;
        if !hiding.is_empty() {
            dla = dla.hide(&|e| hiding.is_hidden(e));
        }
        if pd.property && !dla.is_deterministic() {
            let n = pd.name();
            let msg = format!("property `{}` is not deterministic after its relabelling or hiding", n.text);
            return Err(self.ctx.error(n.span, msg, "this property"));
        }
        Ok(dla)
    }
}

/// Every subset of `names` (sorted as `names` is), the empty set first.
pub fn subsets(names: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::with_capacity(1 << names.len().min(16));
    for mask in 0u32..(1u32 << names.len().min(16)) {
        out.push(names.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, n)| n.clone()).collect());
    }
    out
}

/// The free variables of every term of a definition, sorted. The parser pushes a term after
/// its sub-terms, so one pass in arena order sees every sub-term first (no recursion, however
/// long a prefix chain is).
fn all_free_vars(pd: &ProcessDef) -> Vec<Vec<String>> {
    let mut all: Vec<Vec<String>> = Vec::with_capacity(pd.terms.len());
    for term in &pd.terms {
        let sub = |t: &TermId| all.get(t.0 as usize).cloned().unwrap_or_default();
        let mut out = Vec::new();
        match term {
            Term::Stop(_) | Term::End(_) | Term::Error(_) => {}
            Term::Ref { indices, .. } => indices.iter().for_each(|e| expr_vars(e, &mut out)),
            Term::Choice(bs, _) => bs.iter().for_each(|b| out.extend(sub(b))),
            Term::Prefix { guard, label, next } => {
                if let Some(g) = guard {
                    expr_vars(g, &mut out);
                }
                out.extend(label_free_vars(label, sub(next)));
            }
            Term::If { cond, then, otherwise } => {
                expr_vars(cond, &mut out);
                out.extend(sub(then));
                out.extend(otherwise.iter().flat_map(sub));
            }
        }
        out.sort();
        out.dedup();
        all.push(out);
    }
    all
}

/// The free variables of `label` followed by something with free variables `rest`: bindings
/// in the label capture the variables after them.
fn label_free_vars(label: &Label, mut rest: Vec<String>) -> Vec<String> {
    for part in label.parts.iter().rev() {
        match part {
            LabelPart::Name(_) => {}
            LabelPart::Index(e) => expr_vars(e, &mut rest),
            LabelPart::Bind(v, r) => {
                rest.retain(|n| *n != v.text);
                range_vars(r, &mut rest);
            }
            LabelPart::Range(r) => range_vars(r, &mut rest),
            LabelPart::Set(s) => set_vars(s, &mut rest),
        }
    }
    rest
}

fn range_vars(r: &RangeSpec, out: &mut Vec<String>) {
    if let RangeSpec::Bounds(a, b) = r {
        expr_vars(a, out);
        expr_vars(b, out);
    }
}

fn set_vars(s: &SetExpr, out: &mut Vec<String>) {
    if let SetExpr::Elems(labels, _) = s {
        for l in labels {
            out.extend(label_free_vars(l, Vec::new()));
        }
    }
}

/// The identifiers an expression reads.
pub fn expr_vars(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Int(_) => {}
        ExprKind::Ident(n) => out.push(n.clone()),
        ExprKind::Unary(_, a) => expr_vars(a, out),
        ExprKind::Binary(_, a, b) => {
            expr_vars(a, out);
            expr_vars(b, out);
        }
    }
}
