//! The spec: an FSP file (the language of LTSA) that declares safety properties, the assembly
//! of components and the binding to C, parsed and elaborated into automata.
//!
//! Pipeline: `lexer` → `parser` (a syntax tree with spans) → static checks (`check`) →
//! on demand, elaboration of a process (`process`) or a composition (`assembly`) into
//! [`Dla`]s. Semantics follow Magee & Kramer, *Concurrency: State Models and Java Programs*,
//! and LTSA; properties and their error automata follow paper 000, Section 2.
//!
//! # The FSP subset
//!
//! - `const N = 3`, `range R = 0..N`, `set S = {a, b.c, d[R]}`;
//! - process definitions with local processes `P = (a -> Q), Q = (b -> P).`, choice `|`, prefix
//!   `->`, guards `when (e)`, `if e then P else Q`, `STOP`, `ERROR`, `END` (as `STOP`),
//!   indexed processes `P[i:R][j:0..N]`, parameters `P(N=3)`, references to local and global
//!   processes with indices;
//! - action labels `a`, `a.b`, `a[e]`, `a[i:R]` (binds `i`), `a[R]`, `a[0..2]`, `{a, b}`,
//!   `[i].a`, set names; `a[3]` is the event `a.3`;
//! - integer expressions with `+ - * / % << >>`, comparisons, `&& || !` and parentheses;
//! - `property P = ...` (deterministic; composed as `P_err`);
//! - `+{..}`, `/{new/old, ..}` (prefix renaming, `/{x[i:R]/y[i]}` too), `\{..}`, `@{..}`;
//! - compositions `||S(N=2) = (P || a:Q || a[1..3]:Q || {a,b}::R || forall [i:R] T[i])/{..}\{..}.`;
//! - C bindings: `event send[0..3]`, `prop Locked = ipcq: (owner != 0)`, and names in a
//!   composition that are not FSP processes, which are C components;
//! - propositions of FSP processes: `prop Locked = LOCK: {HELD}`, `prop Full = BUF: {B[N]}`,
//!   `prop Busy = BUF: {B[1..N]}` hold in the states of the local processes named (every
//!   instance when no index is given), the states inside their bodies included; `STOP` keeps
//!   the label of the local process that ends in it; states of other definitions that the
//!   owner's body refers to have none of its propositions.
//!
//! A `prop` is checked where it is declared (its component is a C component or an FSP process,
//! not a property or composition, that a composition names; an FSP process's local processes
//! and their indices exist) and against the C sources ([`Spec::check_props`]: the function
//! exists, the expression names only its globals). A property's `when` guard may read
//! propositions: the property then observes the labels at the events it guards
//! ([`Observations`]). An FSP owner composed twice in one assembly, or inside a group that
//! hides events, is a located error.
//!
//! Not supported: `progress`, `fluent`, `assert`, `menu`, `animation`, `minimal`,
//! `deterministic`, sequential composition `;`, priorities `<<{..}`/`>>{..}`, `@(set, i)` and
//! `#set` in expressions, labels as expression values, string constants.
//!
//! # Architecture invariants
//!
//! - Every error about the spec is a [`Diagnostic`] located in the spec file; no input makes
//!   this module panic (`parse`, `process` and `assembly` also run under `catch_unwind`).
//! - Elaboration is deterministic: the same spec gives the same automata, state for state.
//!
//! Known weaknesses: the first error stops parsing; compositions are built explicitly by
//! [`Spec::process`] (use [`Spec::assembly`] to compose on the fly).

mod assembly;
mod ast;
mod check;
mod eval;
mod lexer;
mod parser;
mod process;

use crate::util::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

pub use assembly::{Assembly, CAlphabets, Part, PartKind};
pub use eval::{Hiding, Relabelling};

use crate::automata::Dla;
use crate::diag::Diagnostic;
use crate::ir::SrcSpan;
use ast::{ItemKind, SpecAst};
use eval::{Ctx, Globals};

/// An event family of the C binding: `event send[0..3]` stands for `send.0` .. `send.3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventFamily {
    /// The family's name.
    pub name: String,
    /// The inclusive range of values; `None` for a plain event (`event ack`).
    pub range: Option<(i64, i64)>,
    /// The declaration.
    pub span: SrcSpan,
}

impl EventFamily {
    /// The events of the family.
    pub fn events(&self) -> Vec<String> {
        match self.range {
            Some((lo, hi)) => (lo..=hi).map(|v| format!("{}.{v}", self.name)).collect(),
            None => vec![self.name.clone()],
        }
    }
}

/// A state proposition: over a C component's globals, `prop Locked = ipcq: (owner != 0)`, or
/// over the states of an FSP process, `prop Locked = LOCK: {LOCKED}` (it holds in the states of
/// the local processes named, [`PropDecl::fsp`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropDecl {
    /// The proposition.
    pub name: String,
    /// The component whose states it labels: a C component, or an FSP process.
    pub component: String,
    /// Whether the component is an FSP process (the proposition names its local processes).
    pub fsp: bool,
    /// The C expression as written (without the outer parentheses); empty for an FSP process.
    pub expr: String,
    /// Where the C expression is, for diagnostics about it.
    pub expr_span: SrcSpan,
    /// The whole declaration.
    pub span: SrcSpan,
}

/// What the properties observe of state labels (paper 003, Definitions 1-3).
///
/// A guard over propositions, `property SAFE = (when (Locked) write -> SAFE | ..)`, reads the
/// label of the assembly's state at the moment the event it guards happens. The labels reach
/// the checks in pure event form, so that composition, the safety check, learning and
/// inclusion need no change (the state/event to event reduction of Chaki, Clarke, Ouaknine,
/// Sharygina and Sinha, *State/event-based software model checking*, 2004): each observed event
/// `e` becomes the letters `e{X}`, one per set `X` of observed propositions, naming the labels
/// that hold when `e` happens.
/// - A property has `e{X}` wherever its guard holds under `X`.
/// - A part that performs `e` and owns none of the propositions performs every `e{X}`
///   ([`Assembly`] relabels it).
/// - A component that owns propositions offers, in every state, the letters whose `X` agrees
///   with its own label there (a self-loop). A C component's label is decided by the
///   propositions' conditions, which are predicates at every location ([`crate::abs`]); an
///   FSP process's by the local process its state belongs to.
/// - An owner that performs `e` itself performs the letters `e{X}` whose `X` agrees with the
///   label of the state it leaves (its `e` transitions split by label), the other owners'
///   propositions in `X` left free: synchronisation with their self-loops fixes them.
///
/// The parts synchronise on `e{X}`, so it happens exactly when `e` happens and every owner's
/// label agrees with `X`. Only propositions of components in the assembly can hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observations {
    /// The propositions that guards read, sorted.
    pub props: Vec<String>,
    /// The events that guards over propositions guard, sorted.
    pub events: Vec<String>,
}

impl Observations {
    /// The letter of `event` observed with exactly the propositions `label` true: `write{Locked}`.
    pub fn letter(event: &str, label: &[String]) -> String {
        format!("{event}{{{}}}", label.join(","))
    }

    /// The event and the label of a letter, or `None` for an ordinary event.
    pub fn split(letter: &str) -> Option<(&str, Vec<&str>)> {
        let open = letter.find('{')?;
        let inner = letter[open + 1..].strip_suffix('}')?;
        let label = if inner.is_empty() { Vec::new() } else { inner.split(',').collect() };
        Some((&letter[..open], label))
    }

    /// Whether no guard reads a proposition.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Every subset of the observed propositions.
    pub fn subsets(&self) -> Vec<Vec<String>> {
        process::subsets(&self.props)
    }
}

/// The most propositions the guards may read (each doubles the letters of an observed event).
pub const MAX_OBSERVED_PROPS: usize = 6;

/// A component's global variables, or `None` when the sources define no such function
/// (see [`Spec::check_props`]).
pub type GlobalsOf<'a> = dyn FnMut(&str) -> Result<Option<Vec<String>>, Diagnostic> + 'a;

/// A parsed and checked spec.
#[derive(Clone, Debug)]
pub struct Spec {
    file: String,
    ast: SpecAst,
    globals: Globals,
    process_ix: HashMap<String, usize>,
    composite_ix: HashMap<String, usize>,
    families: Vec<EventFamily>,
    props: Vec<PropDecl>,
    observations: Observations,
}

/// Parses and checks `source`; `file` names it in diagnostics (and is read again to show the
/// source line when one is rendered).
pub fn parse(source: &str, file: &str) -> Result<Spec, Diagnostic> {
    guard(|| parse_unguarded(source, file))
}

/// Reads and parses the spec at `path`.
pub fn load(path: &Path) -> Result<Spec, Diagnostic> {
    let unreadable = |e| Diagnostic::global(format!("cannot read spec `{}`: {e}", path.display()));
    let source = crate::diag::read_utf8(path, unreadable).map_err(|d| {
        if d.span.is_some() { d.with_note("subst reads specs as UTF-8; convert the file (e.g. with iconv)") } else { d }
    })?;
    parse(&source, &path.display().to_string())
}

/// Runs `f`, turning a panic into a diagnostic (a last guard; a panic is a bug).
fn guard<T>(f: impl FnOnce() -> Result<T, Diagnostic>) -> Result<T, Diagnostic> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Err(Diagnostic::global("internal error while processing the spec").with_note("this is a bug in subst"))
    })
}

fn parse_unguarded(source: &str, file: &str) -> Result<Spec, Diagnostic> {
    let ast = parser::parse(source, file)?;
    let globals = eval::globals(&ast.globals, file)?;
    check::check(&ast, &globals, file)?;
    let process_ix = ast.processes.iter().enumerate().map(|(i, p)| (p.name().text.clone(), i)).collect();
    let composite_ix = ast.composites.iter().enumerate().map(|(i, c)| (c.name.text.clone(), i)).collect();
    let mut spec = Spec {
        file: file.to_string(),
        ast,
        globals,
        process_ix,
        composite_ix,
        families: Vec::new(),
        props: Vec::new(),
        observations: Observations::default(),
    };
    spec.families = spec.eval_families()?;
    spec.props = spec
        .ast
        .props
        .iter()
        .map(|p| PropDecl {
            name: p.name.text.clone(),
            component: p.component.text.clone(),
            fsp: p.states.is_some(),
            expr: p.expr.clone(),
            expr_span: p.expr_span.to_src(file),
            span: p.span.to_src(file),
        })
        .collect();
    spec.observations = spec.collect_observations()?;
    Ok(spec)
}

impl Spec {
    fn ctx(&self) -> Ctx<'_> {
        Ctx { globals: &self.globals, file: &self.file }
    }

    fn eval_families(&self) -> Result<Vec<EventFamily>, Diagnostic> {
        let ctx = self.ctx();
        let env = eval::Env::default();
        let mut out = Vec::new();
        for ev in &self.ast.events {
            let range = ev.range.as_ref().map(|r| ctx.range(r, &env)).transpose()?;
            out.push(EventFamily { name: ev.name.text.clone(), range, span: ev.span.to_src(&self.file) });
        }
        Ok(out)
    }

    /// The file the spec came from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The names of the process definitions, properties included, in order.
    pub fn processes(&self) -> Vec<String> {
        self.ast.processes.iter().map(|p| p.name().text.clone()).collect()
    }

    /// The names of the `property` processes, in order.
    pub fn properties(&self) -> Vec<String> {
        self.ast.processes.iter().filter(|p| p.property).map(|p| p.name().text.clone()).collect()
    }

    /// The names of the compositions (`||S = ...`), in order.
    pub fn compositions(&self) -> Vec<String> {
        self.ast.composites.iter().map(|c| c.name.text.clone()).collect()
    }

    /// Whether `name` is a `property` process.
    pub fn is_property(&self, name: &str) -> bool {
        self.process_ix.get(name).is_some_and(|&i| self.ast.processes[i].property)
    }

    /// The value of a constant.
    pub fn constant(&self, name: &str) -> Option<i64> {
        self.globals.consts.get(name).copied()
    }

    /// The event families of the C binding.
    pub fn families(&self) -> &[EventFamily] {
        &self.families
    }

    /// The ranges of the event families that declare one, as the front end takes them
    /// ([`crate::front::FrontOptions::families`]).
    pub fn family_ranges(&self) -> std::collections::BTreeMap<String, (i128, i128)> {
        self.families
            .iter()
            .filter_map(|f| f.range.map(|(lo, hi)| (f.name.clone(), (i128::from(lo), i128::from(hi)))))
            .collect()
    }

    /// The state propositions of the C binding.
    pub fn props(&self) -> &[PropDecl] {
        &self.props
    }

    /// What the properties observe of state labels.
    pub fn observations(&self) -> &Observations {
        &self.observations
    }

    /// The observed propositions owned by C component `component`, in order.
    pub fn observed_props_of(&self, component: &str) -> Vec<&PropDecl> {
        let mut out: Vec<&PropDecl> = self
            .props
            .iter()
            .filter(|p| !p.fsp && p.component == component && self.observations.props.contains(&p.name))
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    fn collect_observations(&self) -> Result<Observations, Diagnostic> {
        if self.props.is_empty() {
            return Ok(Observations::default());
        }
        let mut events = std::collections::BTreeSet::new();
        let mut props = std::collections::BTreeSet::new();
        for (def, pd) in self.ast.processes.iter().enumerate() {
            if pd.property {
                process::observed(self, def, &mut events, &mut props)?;
            }
        }
        if props.len() > MAX_OBSERVED_PROPS {
            let p = self.props.iter().find(|p| props.contains(&p.name)).expect("observed");
            return Err(Diagnostic::at(
                p.span.clone(),
                format!(
                    "the properties' guards read {} propositions; at most {MAX_OBSERVED_PROPS} are supported",
                    props.len()
                ),
                "one of them",
            ));
        }
        Ok(Observations { props: props.into_iter().collect(), events: events.into_iter().collect() })
    }

    /// Checks each proposition against the C sources: its component must be a function of
    /// them, and every name in its expression a global variable of that component or one of
    /// the `constants` (enum constants) of the sources. `globals_of` gives a component's
    /// globals, or `None` when the sources define no such function. The first problem is
    /// returned, located in the spec.
    pub fn check_props(&self, globals_of: &mut GlobalsOf<'_>, constants: &[String]) -> Result<(), Diagnostic> {
        for (p, ast) in self.props.iter().zip(&self.ast.props).filter(|(p, _)| !p.fsp) {
            let Some(globals) = globals_of(&p.component)? else {
                return Err(Diagnostic::at(
                    ast.component.span.to_src(&self.file),
                    format!("unknown component `{}`: the C sources define no such function", p.component),
                    "no such C function",
                ));
            };
            for (name, at) in c_identifiers(&p.expr, &p.expr_span) {
                if !globals.contains(&name) && !constants.contains(&name) {
                    let mut d = Diagnostic::at(
                        at,
                        format!("unknown variable `{name}`: not a global variable of `{}`", p.component),
                        "not a global of the component",
                    );
                    if !globals.is_empty() {
                        d = d.with_note(format!("the globals of `{}`: {}", p.component, globals.join(", ")));
                    }
                    return Err(d);
                }
            }
        }
        Ok(())
    }

    /// The automaton of a process (a property as its safety LTS, not `P_err`) or of a
    /// composition (its parts composed, properties as `P_err`, then its hiding applied).
    pub fn process(&self, name: &str) -> Result<Dla, Diagnostic> {
        guard(|| {
            if self.composite_ix.contains_key(name) {
                return Ok(self.assembly(name)?.compose());
            }
            let def = self.process_index(name)?;
            let pd = &self.ast.processes[def];
            process::elaborate(self, def, &[], &[], pd.name().span)
        })
    }

    /// The parts of a composition (or a single process) as separate automata, for composing on
    /// the fly; see [`Assembly`].
    pub fn assembly(&self, name: &str) -> Result<Assembly, Diagnostic> {
        self.assembly_with_c(name, None)
    }

    /// [`Spec::assembly`] for an assembly that may name C components: `c` gives the events
    /// of each (see [`PartKind::C`]).
    pub fn assembly_with_c(&self, name: &str, c: Option<assembly::CAlphabets>) -> Result<Assembly, Diagnostic> {
        guard(|| match self.composite_ix.get(name) {
            Some(&comp) => assembly::assembly(self, comp, &[], c),
            None => assembly::single(self, self.process_index(name)?),
        })
    }

    /// Where a composition (or one nested in it) names `part`: the first item that does.
    pub fn span_of_part(&self, name: &str, part: &str) -> Option<crate::ir::SrcSpan> {
        let &c = self.composite_ix.get(name)?;
        let mut todo = vec![c];
        let mut seen = vec![c];
        while let Some(c) = todo.pop() {
            for item in &self.ast.composites[c].items {
                let mut refs = Vec::new();
                item_names(&item.kind, &mut refs);
                if refs.iter().any(|n| n == part) {
                    return Some(item.span.to_src(self.file()));
                }
                for n in refs {
                    if let Some(&d) = self.composite_ix.get(&n)
                        && !seen.contains(&d)
                    {
                        seen.push(d);
                        todo.push(d);
                    }
                }
            }
        }
        None
    }

    /// The C components a composition names, through nested compositions, without duplicates;
    /// empty for a process.
    pub fn c_components(&self, name: &str) -> Result<Vec<String>, Diagnostic> {
        let Some(&c) = self.composite_ix.get(name) else {
            self.process_index(name)?;
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        let mut todo = vec![c];
        let mut seen = vec![c];
        while let Some(c) = todo.pop() {
            let mut refs = Vec::new();
            self.ast.composites[c].items.iter().for_each(|i| item_names(&i.kind, &mut refs));
            for n in refs {
                if let Some(&d) = self.composite_ix.get(&n) {
                    if !seen.contains(&d) {
                        seen.push(d);
                        todo.push(d);
                    }
                } else if !self.process_ix.contains_key(&n) && !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        Ok(out)
    }

    fn process_index(&self, name: &str) -> Result<usize, Diagnostic> {
        self.process_ix.get(name).copied().ok_or_else(|| {
            let mut known = self.processes();
            known.extend(self.compositions());
            Diagnostic::global(format!("`{name}` is not a process or composition of {}", self.file))
                .with_note(format!("defined: {}", known.join(", ")))
        })
    }
}

/// The identifiers of a C expression written at `at`, each with its own span; numbers and
/// character constants are skipped.
fn c_identifiers(text: &str, at: &SrcSpan) -> Vec<(String, SrcSpan)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (at.line, at.col);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let (start_line, start_col) = (line, col);
        let advance = |c: char, line: &mut u32, col: &mut u32| {
            if c == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
        };
        advance(c, &mut line, &mut col);
        if c.is_ascii_alphabetic() || c == '_' || c.is_ascii_digit() {
            let mut word = c.to_string();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_alphanumeric() || **d == '_') {
                word.push(d);
                chars.next();
                advance(d, &mut line, &mut col);
            }
            if !c.is_ascii_digit() {
                let span =
                    SrcSpan { file: at.file.clone(), line: start_line, col: start_col, end_line: line, end_col: col };
                out.push((word, span));
            }
        } else if c == '\'' {
            while let Some(d) = chars.next() {
                advance(d, &mut line, &mut col);
                if d == '\\' {
                    if let Some(e) = chars.next() {
                        advance(e, &mut line, &mut col);
                    }
                } else if d == '\'' {
                    break;
                }
            }
        }
    }
    out
}

/// The names referred to by an item, in order.
fn item_names(kind: &ItemKind, out: &mut Vec<String>) {
    match kind {
        ItemKind::Ref { name, .. } => out.push(name.text.clone()),
        ItemKind::Group(items) => items.iter().for_each(|i| item_names(&i.kind, out)),
        ItemKind::Forall(_, body) => item_names(&body.kind, out),
    }
}
