//! Predicate abstraction of one component: may (existential) and must (universal) models.
//!
//! A [`Precision`] holds predicates (formulas over the component's variables) per location.
//! An abstract state is a location and a valuation of that location's predicates. The abstract
//! reachability graph ([`Arg`]) is explored from the initial abstract states only:
//!
//! - **may** (paper 003 Section 4, existential abstraction): an edge from `(l1, V1)` leads to
//!   `(l2, V2)` iff `γ(V1) ∧ guard ∧ γ(V2)[post]` is satisfiable. All successors of one edge are
//!   found by one all-SAT enumeration over the target's predicates (blocking clauses), so an
//!   edge costs one solver call per successor plus one.
//! - **must** (universal): a may-successor is kept iff every concrete state of `γ(V1)` has a
//!   successor in `γ(V2)`: `γ(V1) ⇒ ∃inputs. guard ∧ γ(V2)[post]`, exact for havoc (the input is
//!   quantified) and for assume (the condition must hold on all of `γ(V1)`). A solver `unknown`
//!   drops the transition, which keeps the model an under-approximation.
//!
//! With [`blocks::Blocks::Loop`] (`--blocks loop`), the may graph has states only at loop
//! heads, event points and the entry, and one transition per block of loop-free code between
//! them ([`blocks`]: large-block encoding); the must graph stays edge by edge.
//!
//! Internal steps (assignments, branches, unobserved events) are τ edges of the graph;
//! [`Arg::to_dla`] collapses them so that the component's automaton has only events, plus one
//! error event per kind of error (`main!reach_error`, `main!div_by_zero`, ...) leading to its
//! error state.
//!
//! Invariants:
//! - Soundness of may: every run of the interpreter maps to a path of the may graph (the
//!   predicates only decide *how many* abstract states there are, never *whether* a concrete
//!   step is represented). `tests/it/abstraction.rs` checks this on the examples and on generated
//!   programs.
//! - Soundness of must: every path of the must graph from an initial state is concretely
//!   feasible; the same test replays them by symbolic simulation.
//! - Results of edge queries are cached by (edge, source cube, target predicates, mode), and
//!   those of block queries by (block exit, source cube, target predicates), so a refinement
//!   only pays for the locations whose predicates changed.
//! - Edge queries are also cached by what they ask (`EdgeQuery`): the literals of the source
//!   cube that the query depends on (in may mode, those that share constants with the step or
//!   the target's predicates; the cube of a state is satisfiable, so the others change no
//!   answer, `Abstractor::relevant`) and the target's predicates as formulas, and the
//!   statement as its guard and the new values of the variables it writes (inputs renamed by
//!   their place). The successors are a function
//!   of that key alone, so an answer is re-used for any edge, in any version of the component,
//!   whose query has the same key: [`Abstractor::seed`] hands an upgraded component the old
//!   version's answers, and only its changed statements, or statements whose predicates
//!   changed, go to the solver (`tests/abstraction.rs` compares such graphs with graphs built
//!   afresh). The key is built in subst's own run from the component's code; nothing from the
//!   cache folder reaches it. The initial states' valuations are cached by the initial
//!   condition and the entry's predicates the same way.
//!
//! Weaknesses: the keys by formula exist for edges only; the block encoding's queries
//! (`--blocks loop`) are cached by the places of predicates and do not carry over to a new
//! version. Variables are matched by name and sort, so a renamed variable makes every query
//! that mentions it new (its predicates carry over where the statements around a location read
//! the same up to the renaming, [`Abstractor::seed`]).

pub mod blocks;
pub mod explicit;
pub mod invariant;
pub mod labels;
pub mod refine;
pub mod stored;
pub mod templates;

use crate::util::HashMap;
use std::collections::VecDeque;

use z3::ast::{Ast, Bool, Dynamic};

use crate::automata::dla::{Builder, Dla, TAU_NAME};
use crate::front::ERROR_EVENT;
use crate::ir::{Component, Event, Fault, IntTy, LocId, Stmt};
use crate::smt::{self, Encoder, Projected, Smt, SmtError, Sym, Take};

/// An index into [`Precision`]'s predicate table.
pub type PredId = u32;

/// Predicates per location.
#[derive(Clone)]
pub struct Precision {
    table: Vec<Bool>,
    index: HashMap<Bool, PredId>,
    at: Vec<Vec<PredId>>,
    /// The constants each predicate mentions.
    mentions: Vec<Vec<Dynamic>>,
}

impl Precision {
    /// No predicates at any of `n_locs` locations.
    pub fn new(n_locs: u32) -> Precision {
        Precision {
            table: Vec::new(),
            index: HashMap::default(),
            at: vec![Vec::new(); n_locs as usize],
            mentions: Vec::new(),
        }
    }

    /// The index of `p` in the table, added at the end when it is not there yet.
    fn intern(&mut self, p: Bool) -> PredId {
        match self.index.get(&p) {
            Some(&id) => id,
            None => {
                let id = self.table.len() as PredId;
                self.mentions.push(smt::constants(&Dynamic::from_ast(&p)));
                self.table.push(p.clone());
                self.index.insert(p, id);
                id
            }
        }
    }

    /// Adds `p` at `loc`; whether it is new there.
    pub fn add(&mut self, loc: LocId, p: Bool) -> bool {
        let id = self.intern(p);
        let Some(list) = self.at.get_mut(loc.index()) else { return false };
        if list.contains(&id) {
            return false;
        }
        list.push(id);
        list.sort_unstable();
        true
    }

    /// The predicates at `loc`.
    pub fn at(&self, loc: LocId) -> &[PredId] {
        self.at.get(loc.index()).map(Vec::as_slice).unwrap_or(&[])
    }

    /// A predicate's formula.
    pub fn formula(&self, id: PredId) -> &Bool {
        &self.table[id as usize]
    }

    /// Number of distinct predicates.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there are no predicates.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Number of (location, predicate) pairs.
    pub fn placed(&self) -> usize {
        self.at.iter().map(Vec::len).sum()
    }
}

/// Per location, the texts of the statements leaving it and of those entering it (each sorted):
/// what identifies a location across versions of a component.
fn signatures(comp: &Component) -> Vec<(Vec<String>, Vec<String>)> {
    let mut sigs = vec![(Vec::new(), Vec::new()); comp.n_locs as usize];
    for e in &comp.edges {
        let text = crate::ir::text::stmt(comp, &e.stmt);
        if let Some(s) = sigs.get_mut(e.from.index()) {
            s.0.push(text.clone());
        }
        if let Some(s) = sigs.get_mut(e.to.index()) {
            s.1.push(text);
        }
    }
    for s in &mut sigs {
        s.0.sort();
        s.1.sort();
    }
    sigs
}

/// A location's signature up to a renaming of variables: the statements leaving it and those
/// entering it ([`signatures`]) with every variable written as its number of first appearance
/// and its type (`#0:Scalar(U32)`), and the variables in that order. Two locations with the same
/// shape read the same once the one's variables are renamed to the other's, one for one and
/// type for type. Statements are ordered by their text with the variables blanked, then by
/// their own text, so a location whose statements differ only in variables that also order
/// them differently may not match: a missed hint, never a wrong one.
struct Shape {
    key: ShapeKey,
    vars: Vec<crate::ir::VarId>,
}

/// The texts of a [`Shape`]: the statements leaving a location, and those entering it.
type ShapeKey = (Vec<String>, Vec<String>);

/// A statement's text as pieces: verbatim text, and the variables it names.
enum Piece {
    Text(String),
    Var(crate::ir::VarId),
}

/// The pieces of `text`: each maximal run of identifier characters (`[A-Za-z0-9_.$]`, as the
/// IR's variable names are written, `f.x` and `$1` included) that names a variable of `comp`
/// is that variable; the rest is text.
fn pieces(names: &HashMap<&str, crate::ir::VarId>, text: &str) -> Vec<Piece> {
    let ident = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$');
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if ident(c) {
            rest.find(|c| !ident(c)).unwrap_or(rest.len())
        } else {
            rest.find(ident).unwrap_or(rest.len())
        };
        let (run, after) = rest.split_at(len);
        match names.get(run) {
            Some(&v) if ident(c) => out.push(Piece::Var(v)),
            _ => out.push(Piece::Text(run.to_string())),
        }
        rest = after;
    }
    out
}

/// Per location, its [`Shape`].
fn shapes(comp: &Component) -> Vec<Shape> {
    let names: HashMap<&str, crate::ir::VarId> =
        comp.vars.iter().enumerate().map(|(i, v)| (v.name.as_str(), crate::ir::VarId(i as u32))).collect();
    let texts: Vec<String> = comp.edges.iter().map(|e| crate::ir::text::stmt(comp, &e.stmt)).collect();
    let split: Vec<Vec<Piece>> = texts.iter().map(|t| pieces(&names, t)).collect();
    let blank = |e: usize| -> String {
        split[e]
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Var(v) => format!("#{:?}", comp.var(*v).ty),
            })
            .collect()
    };
    let blanks: Vec<String> = (0..comp.edges.len()).map(blank).collect();
    let mut around = vec![(Vec::new(), Vec::new()); comp.n_locs as usize];
    for (i, e) in comp.edges.iter().enumerate() {
        if let Some(s) = around.get_mut(e.from.index()) {
            s.0.push(i);
        }
        if let Some(s) = around.get_mut(e.to.index()) {
            s.1.push(i);
        }
    }
    around
        .into_iter()
        .map(|(mut outgoing, mut incoming)| {
            for list in [&mut outgoing, &mut incoming] {
                list.sort_by(|&a, &b| (&blanks[a], &texts[a]).cmp(&(&blanks[b], &texts[b])));
            }
            let mut vars: Vec<crate::ir::VarId> = Vec::new();
            let mut write = |e: usize| -> String {
                split[e]
                    .iter()
                    .map(|p| match p {
                        Piece::Text(t) => t.clone(),
                        Piece::Var(v) => {
                            let k = vars.iter().position(|w| w == v).unwrap_or_else(|| {
                                vars.push(*v);
                                vars.len() - 1
                            });
                            format!("#{k}:{:?}", comp.var(*v).ty)
                        }
                    })
                    .collect()
            };
            let outgoing: Vec<String> = outgoing.into_iter().map(&mut write).collect();
            let incoming: Vec<String> = incoming.into_iter().map(&mut write).collect();
            Shape { key: (outgoing, incoming), vars }
        })
        .collect()
}

/// Which abstraction to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Existential: over-approximates the component's behaviours.
    May,
    /// Universal: under-approximates them.
    Must,
}

/// Which events the model shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventView {
    /// None: every event is internal (the no-spec `reach_error` property).
    Hidden,
    /// All: `name` for a plain event, `name.v` for a family with a declared range, `name`
    /// alone (the value unobserved) for a family without one.
    Visible,
}

/// What makes a component go wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A call to `reach_error()` or another SV-COMP error function.
    Reach,
    /// Undefined behaviour.
    Fault(Fault),
}

impl ErrorKind {
    /// The event name in the component's automaton: `comp!reach_error`, `comp!div_by_zero`.
    pub fn event(self, component: &str) -> String {
        match self {
            ErrorKind::Reach => format!("{component}!{ERROR_EVENT}"),
            ErrorKind::Fault(f) => format!("{component}!{}", f.keyword()),
        }
    }

    /// A phrase for reports.
    pub fn describe(self) -> String {
        match self {
            ErrorKind::Reach => "reach_error() is called".to_string(),
            ErrorKind::Fault(f) => f.describe().to_string(),
        }
    }
}

/// The label of an abstract edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// An internal step.
    Tau,
    /// A visible event.
    Event(String),
    /// An error.
    Error(ErrorKind),
}

/// A precision as the cache keeps it: the predicates in the order of their indices (SMT-LIB
/// terms) and the indices placed at each location.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PrecisionText {
    /// Each predicate, as Z3 prints it.
    pub formulas: Vec<String>,
    /// Per location, the indices of its predicates.
    pub at: Vec<Vec<PredId>>,
}

/// A state of the abstract reachability graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AState {
    /// A location and the values of its predicates (in [`Precision::at`] order).
    At(LocId, Vec<bool>),
    /// The error state.
    Error,
}

/// An edge of the abstract reachability graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AEdge {
    /// The IR edge (index into [`Component::edges`]).
    pub edge: usize,
    /// How it is taken.
    pub take: Take,
    /// Its label.
    pub label: Label,
    /// The target state.
    pub to: usize,
    /// The block exit ([`blocks::Plan::exit`]) when the edge stands for a whole block of
    /// the block encoding, whose last IR edge is `edge`; `None` for one IR edge.
    pub block: Option<u32>,
}

/// An abstract reachability graph.
#[derive(Clone, Debug)]
pub struct Arg {
    /// The states; [`AState::Error`] at most once.
    pub states: Vec<AState>,
    /// Outgoing edges per state.
    pub out: Vec<Vec<AEdge>>,
    /// The initial states.
    pub initial: Vec<usize>,
    /// Per state, its label ([`labels`]) as an index into [`Arg::label_texts`]; empty when
    /// the component has no propositions.
    pub labels: Vec<Option<u32>>,
    /// Per valuation of the propositions: its `assume(cond_v)` edge and its text `{A,B}`.
    pub label_texts: Vec<(usize, String)>,
    /// Whether every event carries the label of the state it leads to ([`labels::labels_events`]).
    pub labelled_events: bool,
    /// Letters of observed events the component can perform ([`labels`]): in the automaton's
    /// alphabet even where no reached state performs them, so that no other part performs them
    /// alone.
    pub letters: Vec<String>,
}

/// The labels of `states` by `label_of` (the index of a valuation of [`labels::valuations`]),
/// with a τ self-loop along the valuation's `assume(cond_v)` edge on each labelled state, so
/// that a path can check its label there ([`Arg::find_path`]).
fn label_states(
    comp: &Component,
    states: &[AState],
    out: &mut [Vec<AEdge>],
    label_of: &dyn Fn(usize, &AState) -> Option<u32>,
) -> (Vec<Option<u32>>, Vec<(usize, String)>, bool) {
    let vals = labels::valuations(comp);
    if vals.is_empty() {
        return (Vec::new(), Vec::new(), false);
    }
    let texts: Vec<(usize, String)> = vals.iter().map(|(e, _, t)| (*e, t.clone())).collect();
    let mut per_state = Vec::with_capacity(states.len());
    for (i, s) in states.iter().enumerate() {
        let l = label_of(i, s);
        if let Some(v) = l {
            out[i].push(AEdge { edge: texts[v as usize].0, take: Take::Normal, label: Label::Tau, to: i, block: None });
        }
        per_state.push(l);
    }
    (per_state, texts, labels::labels_events(comp))
}

/// Counts for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AbsStats {
    /// Abstract states in the last graph built.
    pub states: usize,
    /// Edge successor computations answered by the cache.
    pub cached_edges: u64,
    /// Edge successor computations done with the solver.
    pub computed_edges: u64,
    /// Of the cached ones, those answered by an identical query (`EdgeQuery`) of another
    /// edge, or of an earlier version of the component ([`Abstractor::seed`]).
    pub carried_edges: u64,
    /// Must-transitions dropped because the solver answered unknown.
    pub must_unknown: u64,
    /// Refinements answered by inductive invariants at a cut point ([`refine::refine`]).
    pub generalised: u64,
    /// Runs of Houdini for refinement: at most one per abstractor, at the first refinement
    /// whose path can run from some state at its latest cut point ([`refine::refine`]).
    pub invariant_runs: u64,
}

type CacheKey = (usize, Vec<(PredId, bool)>, Vec<PredId>, Mode, bool);

/// A block exit, the source cube and the target's predicates ([`blocks`]).
type BlockKey = (u32, Vec<(PredId, bool)>, Vec<PredId>);

/// An edge query of the may- or must-abstraction as the solver sees it: the source cube (in
/// may mode only its literals that the answer depends on, [`Abstractor::relevant`]) and
/// the target's predicates as formulas (each list in an order of their own, not the
/// precision's), and the statement as its effect on the variables it writes (inputs named by
/// their place). Its answer is a function of these alone, so a query with the same key has the
/// same successors in any version of the component: the predicates and variables are the same
/// terms (named by name and sort), and so is what the statement does with them. A key from an
/// earlier version of the component is as good as one from this one; nothing outside subst's
/// own run writes it.
#[derive(Clone, PartialEq, Eq, Hash)]
struct EdgeQuery {
    mode: Mode,
    visible: bool,
    /// A `check` statement: its failure leads to the error state.
    check: bool,
    take: Take,
    source: Vec<(Bool, bool)>,
    targets: Vec<Bool>,
    guard: Dynamic,
    /// Each written variable and its new value.
    writes: Vec<(Dynamic, Dynamic)>,
    /// An event whose values are events of their own: the value, its type and range.
    value: Option<(EventValue, Dynamic, IntTy, i128, i128)>,
}

/// An initial-state query: the initial condition and the entry's predicates (in the precision's
/// order).
type InitialQuery = (Bool, Vec<Bool>);

/// A successor as [`EdgeQuery`] keeps it: how the edge is taken, and the values of the
/// target's predicates in the query's order (`None`: the error state).
type Successor = (Take, Option<Vec<bool>>);

/// Which way an event's value goes ([`EdgeQuery`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum EventValue {
    Sent,
    Received,
}

/// The abstraction of one component: its encoder, precision and edge cache.
pub struct Abstractor<'a> {
    /// The component's formulas.
    pub enc: Encoder<'a>,
    /// The current-state constants predicates are written over.
    pub vocab: Vec<Sym>,
    /// Predicates per location.
    pub precision: Precision,
    view: EventView,
    cache: HashMap<CacheKey, Vec<(Take, AState)>>,
    /// The same results keyed by the query's formulas ([`EdgeQuery`]) instead of the places
    /// of predicates: what an earlier version of the component asked carries over to this one
    /// ([`Abstractor::seed`]) wherever a statement and the predicates around it are the same.
    /// Each answer keeps the key of the statement it was asked for ([`stored::statement_key`]),
    /// by which the cache keys it.
    by_query: HashMap<EdgeQuery, (Vec<Successor>, stored::IrKey)>,
    /// The valuations of the entry's predicates in the initial states, by the initial
    /// condition and those predicates (formulas, in the precision's order), each with the key
    /// of the initial condition ([`stored::globals_key`]).
    initial_rows: HashMap<InitialQuery, (Vec<Vec<i128>>, stored::IrKey)>,
    /// Work counts.
    pub stats: AbsStats,
    /// The component's propositions, as predicates ([`labels`]).
    props: Vec<Bool>,
    /// The letters its states offer by their label ([`labels`]).
    letters: Vec<labels::Letter>,
    /// Houdini's invariants at the cut points of the block encoding, computed at the first
    /// refinement ([`refine::refine`]).
    invariants: Option<refine::CutInvariants>,
    /// Whether [`refine::refine`] may refine by an invariant at a cut point (else weakest
    /// preconditions only).
    pub generalise: bool,
    /// Where the may-abstraction computes abstract states ([`blocks`]).
    pub blocks: blocks::Blocks,
    /// Whether a may-query keeps only the literals of the source cube that it depends on
    /// (`true`, the default; `false` asks with the whole cube, for tests that compare the two:
    /// the graphs are the same).
    pub slice_cubes: bool,
    /// The abstraction points and blocks, made at first use.
    plan: Option<blocks::Plan>,
    /// Results of block successor computations (may only).
    block_cache: HashMap<BlockKey, Vec<(Take, AState)>>,
    /// Answered edge queries from the cache, keyed by the digest of their text
    /// ([`stored::query_digest`]), successors in the order of the target predicates' texts:
    /// asked where a query misses `by_query`.
    stored: HashMap<stored::Digest, Vec<Successor>>,
    /// Initial states' valuations from the cache, keyed the same way ([`stored::initial_digest`]).
    stored_rows: HashMap<stored::Digest, Vec<Vec<i128>>>,
    /// Texts of predicates for those digests, made once per term.
    texts: stored::TermTexts,
    /// Per edge, the key of its statement ([`stored::statement_key`]), made at first use.
    stmt_keys: Vec<Option<stored::IrKey>>,
}

/// A limit on abstract states per graph.
pub const MAX_STATES: usize = 200_000;

/// Why an abstraction could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbsError {
    /// The solver gave up on a query that decides a may-transition.
    Smt(SmtError),
    /// More than [`MAX_STATES`] abstract states.
    TooManyStates(usize),
}

impl From<SmtError> for AbsError {
    fn from(e: SmtError) -> AbsError {
        AbsError::Smt(e)
    }
}

impl<'a> Abstractor<'a> {
    /// An abstractor of `comp` with no predicates.
    pub fn new(comp: &'a Component, view: EventView) -> Abstractor<'a> {
        let enc = Encoder::new(comp);
        let vocab = enc.state("");
        let props = labels::props(comp).iter().map(|(_, c)| enc.cond(c, &vocab)).collect();
        let letters = if view == EventView::Visible { labels::letters(comp) } else { Vec::new() };
        let mut texts = stored::TermTexts::default();
        texts.declare(comp, &vocab);
        Abstractor {
            enc,
            vocab,
            precision: Precision::new(comp.n_locs),
            view,
            cache: HashMap::default(),
            by_query: HashMap::default(),
            initial_rows: HashMap::default(),
            stats: AbsStats::default(),
            props,
            letters,
            invariants: None,
            generalise: true,
            blocks: blocks::Blocks::Single,
            slice_cubes: true,
            plan: None,
            block_cache: HashMap::default(),
            stored: HashMap::default(),
            stored_rows: HashMap::default(),
            texts,
            stmt_keys: vec![None; comp.edges.len()],
        }
    }

    /// The label of an abstract state: per proposition, whether it holds, as the state's
    /// predicates decide it; `None` for the error state (or a proposition whose predicate is
    /// missing at the location, which [`Abstractor::build`] never leaves).
    pub fn state_label(&self, state: &AState) -> Option<Vec<bool>> {
        let AState::At(loc, val) = state else { return None };
        self.props
            .iter()
            .map(|p| {
                let id = *self.precision.index.get(p)?;
                let i = self.precision.at(*loc).iter().position(|&q| q == id)?;
                val.get(i).copied()
            })
            .collect()
    }

    /// The names of the component's propositions, in the order of [`Abstractor::state_label`].
    pub fn prop_names(&self) -> Vec<String> {
        labels::props(self.component()).into_iter().map(|(n, _)| n).collect()
    }

    /// The component.
    pub fn component(&self) -> &'a Component {
        self.enc.component()
    }

    /// Takes over the predicates and the edge cache of `other`, an abstractor of a component
    /// with the same code (source positions aside): the graphs it builds are then those of
    /// `other`, without asking the solver again. What this abstractor had is dropped, since the
    /// cache's keys name predicates by their place in the precision.
    pub fn adopt(&mut self, other: &Abstractor) {
        self.precision = other.precision.clone();
        self.cache = other.cache.clone();
        self.by_query = other.by_query.clone();
        self.initial_rows = other.initial_rows.clone();
        self.block_cache = other.block_cache.clone();
        self.stored = other.stored.clone();
        self.stored_rows = other.stored_rows.clone();
        self.texts.extend(&other.texts);
    }

    /// Takes the answered edge queries of `other`, an abstractor of the same component or of
    /// an earlier version of it, and none of its predicates: the queries are keyed by their
    /// formulas (`EdgeQuery`), so an answer is only ever used for the identical query, whose
    /// successors it is. The graphs this abstractor builds are then the ones it would build
    /// without them, with fewer solver calls. Returns the number of answers added.
    pub fn take_answers(&mut self, other: &Abstractor) -> usize {
        let before = self.by_query.len();
        for (q, answer) in &other.by_query {
            self.by_query.entry(q.clone()).or_insert_with(|| answer.clone());
        }
        for (q, rows) in &other.initial_rows {
            self.initial_rows.entry(q.clone()).or_insert_with(|| rows.clone());
        }
        for (d, found) in &other.stored {
            self.stored.entry(*d).or_insert_with(|| found.clone());
        }
        for (d, rows) in &other.stored_rows {
            self.stored_rows.entry(*d).or_insert_with(|| rows.clone());
        }
        if !other.stored.is_empty() {
            self.texts.extend(&other.texts);
        }
        self.by_query.len() - before
    }

    /// [`Abstractor::take_answers`] from an abstractor that is dropped next: its answers are
    /// moved, not copied, where this one has none yet.
    pub fn take_answers_of(&mut self, mut other: Abstractor) -> usize {
        if self.by_query.is_empty()
            && self.initial_rows.is_empty()
            && self.stored.is_empty()
            && self.stored_rows.is_empty()
        {
            self.by_query = std::mem::take(&mut other.by_query);
            self.initial_rows = std::mem::take(&mut other.initial_rows);
            self.stored = std::mem::take(&mut other.stored);
            self.stored_rows = std::mem::take(&mut other.stored_rows);
            self.texts.extend(&other.texts);
            return self.by_query.len();
        }
        self.take_answers(&other)
    }

    /// The predicates per location in SMT-LIB form, for the cache: each as it was read from
    /// the cache ([`Abstractor::load_precision`]), else as Z3 prints it.
    pub fn precision_text(&self) -> PrecisionText {
        PrecisionText {
            formulas: self
                .precision
                .table
                .iter()
                .map(|p| self.texts.text_of(p).map_or_else(|| p.to_string(), str::to_string))
                .collect(),
            at: self.precision.at.clone(),
        }
    }

    /// Adds the predicates of [`Abstractor::precision_text`] (from the cache, so possibly
    /// damaged): `false`, with nothing added, unless every one parses as a formula over this
    /// component's variables and there is one list per location. Predicates only set the
    /// precision, so whatever they say cannot make a model unsound.
    pub fn load_precision(&mut self, text: &PrecisionText) -> bool {
        let n = text.formulas.len();
        if text.at.len() != self.component().n_locs as usize || text.at.iter().flatten().any(|&p| p as usize >= n) {
            return false;
        }
        let decls: Vec<String> = self.vocab.iter().map(|s| s.dynamic().decl().to_string()).collect();
        let known: crate::util::HashSet<Dynamic> = self.vocab.iter().map(Sym::dynamic).collect();
        let flat: Vec<&String> = text.formulas.iter().collect();
        // Each text goes into `(assert ..)`: it must be one term, so that it cannot close the
        // assertion and add commands of its own.
        if !flat.iter().all(|t| smt::is_one_term(t)) {
            return false;
        }
        let mut script = decls.join("\n");
        for t in &flat {
            script.push_str(&format!("\n(assert {t})"));
        }
        let Some(parsed) = smt::parse_assertions(&script) else { return false };
        if parsed.len() != flat.len()
            || parsed.iter().any(|p| smt::constants(&Dynamic::from_ast(p)).iter().any(|c| !known.contains(c)))
        {
            return false;
        }
        // In the table's order, so that the predicates keep their indices, and the models their
        // states: a model rebuilt from the cache is the one the cached tables were learned for.
        if parsed.iter().collect::<crate::util::HashSet<_>>().len() != n {
            return false;
        }
        for (p, t) in parsed.into_iter().zip(&text.formulas) {
            // The text each was read from is its text for the keys of stored answers
            // ([`stored`]): printing it again would cost more than the rest of a re-check.
            self.texts.know(&p, t);
            self.precision.intern(p);
        }
        for (l, list) in text.at.iter().enumerate() {
            for &p in list {
                let formula = self.precision.table[p as usize].clone();
                self.precision.add(LocId(l as u32), formula);
            }
        }
        true
    }

    /// Seeds this abstractor with the predicates of `other`, an abstractor of an earlier
    /// version of the same component, where the code is the same: a location here receives
    /// the predicates of the locations of `other` whose outgoing and incoming statements read
    /// the same, as far as they are written over variables this version has with the same
    /// type. (Matching on outgoing statements alone was tried: it placed predicates at more
    /// locations and made refinement slower overall.) Predicates only decide how many abstract
    /// states there are, so any seed keeps the may-model sound; a good one spares the
    /// refinements that found them. A location that no location of `other` matches so receives
    /// the predicates of those that match it up to a renaming of variables, renamed
    /// (`Abstractor::seed_renamed`). Returns the number of (location, predicate) pairs added.
    pub fn seed(&mut self, other: &Abstractor) -> usize {
        let (old, new) = (other.component(), self.component());
        let mut by_both: HashMap<(Vec<String>, Vec<String>), Vec<LocId>> = HashMap::default();
        for (l, sig) in signatures(old).into_iter().enumerate() {
            by_both.entry(sig).or_default().push(LocId(l as u32));
        }
        let known: crate::util::HashSet<Dynamic> = self.vocab.iter().map(Sym::dynamic).collect();
        let usable = |id: PredId| other.precision.mentions[id as usize].iter().all(|c| known.contains(c));
        // The old version's edge queries answer the same queries here: they are keyed by
        // their formulas, which name variables by name and type.
        self.take_answers(other);
        let mut added = 0;
        let mut unmatched = Vec::new();
        for (l, sig) in signatures(new).into_iter().enumerate() {
            let Some(from) = by_both.get(&sig) else {
                unmatched.push(l);
                continue;
            };
            for &from in from {
                for &id in other.precision.at(from) {
                    if usable(id) && self.precision.add(LocId(l as u32), other.precision.formula(id).clone()) {
                        added += 1;
                    }
                }
            }
        }
        added + self.seed_renamed(other, &unmatched)
    }

    /// The second part of [`Abstractor::seed`]: a location `l` in `unmatched` (no location of
    /// `other` reads the same) receives the predicates of the locations of `other` whose
    /// statements read the same up to a renaming of variables ([`Shape`]), renamed the same
    /// way: where the upgrade renamed `n` to `m1` and `m2`, a predicate `5 <= n` found before
    /// the old `check (n < 5)` is placed as `5 <= m1` and `5 <= m2` before the new checks. A
    /// predicate is carried when each variable it mentions is renamed at that location, or is
    /// not renamed, exists here with the same type and is no renamed variable's new name. Like
    /// every seed, a hint: it decides how many abstract states there are, never whether a
    /// concrete step is represented. Returns the number of (location, predicate) pairs added.
    fn seed_renamed(&mut self, other: &Abstractor, unmatched: &[usize]) -> usize {
        if unmatched.is_empty() || other.precision.placed() == 0 {
            return 0;
        }
        let mut by_shape: HashMap<ShapeKey, Vec<(LocId, Vec<crate::ir::VarId>)>> = HashMap::default();
        for (l, shape) in shapes(other.component()).into_iter().enumerate() {
            if !other.precision.at(LocId(l as u32)).is_empty() {
                by_shape.entry(shape.key).or_default().push((LocId(l as u32), shape.vars));
            }
        }
        if by_shape.is_empty() {
            return 0;
        }
        let known: crate::util::HashSet<Dynamic> = self.vocab.iter().map(Sym::dynamic).collect();
        let here = shapes(self.component());
        let mut added = 0;
        for &l in unmatched {
            let shape = &here[l];
            for (from, old_vars) in by_shape.get(&shape.key).into_iter().flatten() {
                let renamed: Vec<Sym> = old_vars.iter().map(|v| other.vocab[v.index()].clone()).collect();
                let to: Vec<Sym> = shape.vars.iter().map(|v| self.vocab[v.index()].clone()).collect();
                let domain: crate::util::HashSet<Dynamic> = renamed.iter().map(Sym::dynamic).collect();
                let image: crate::util::HashSet<Dynamic> = to.iter().map(Sym::dynamic).collect();
                for &id in other.precision.at(*from) {
                    let carried = other.precision.mentions[id as usize]
                        .iter()
                        .all(|c| domain.contains(c) || (known.contains(c) && !image.contains(c)));
                    if !carried {
                        continue;
                    }
                    let p = smt::substitute(other.precision.formula(id), &renamed, &to);
                    if self.precision.add(LocId(l as u32), p) {
                        added += 1;
                    }
                }
            }
        }
        added
    }

    /// How events are shown.
    pub fn view(&self) -> EventView {
        self.view
    }

    /// `γ(V)` at `loc` over the vocabulary.
    pub fn gamma(&self, loc: LocId, val: &[bool]) -> Bool {
        let lits: Vec<Bool> = self
            .precision
            .at(loc)
            .iter()
            .zip(val)
            .map(|(&p, &v)| if v { self.precision.formula(p).clone() } else { self.precision.formula(p).not() })
            .collect();
        Bool::and(&lits)
    }

    fn targets(&self, loc: LocId, post: &[Sym]) -> Vec<Projected> {
        self.precision
            .at(loc)
            .iter()
            .map(|&p| Projected::Bool(smt::substitute(self.precision.formula(p), &self.vocab, post)))
            .collect()
    }

    /// The label an event edge shows, and how it is enumerated: `Some((family type, range))`
    /// when each value is its own event.
    fn event_label(&self, ev: &Event) -> (String, Option<(IntTy, i128, i128)>) {
        let comp = self.component();
        match ev {
            Event::Plain(n) => (n.clone(), None),
            Event::Send(n, _) | Event::Recv(n, _) => match comp.family(n) {
                Some(f) => match f.range {
                    Some((lo, hi)) => (n.clone(), Some((f.ty, lo, hi))),
                    None => (n.clone(), None),
                },
                None => (n.clone(), None),
            },
        }
    }

    /// Builds the abstract reachability graph of `mode` from the initial states.
    pub fn build(&mut self, smt: &mut Smt, mode: Mode) -> Result<Arg, AbsError> {
        let comp = self.component();
        // Every abstract state decides every proposition: its condition is a predicate
        // everywhere (the gadgets' locations included; nothing reaches them).
        for p in self.props.clone() {
            for l in 0..comp.n_locs {
                self.precision.add(LocId(l), p.clone());
            }
        }
        let succ = comp.successors();
        let mut states: Vec<AState> = Vec::new();
        let mut ids: HashMap<AState, usize> = HashMap::default();
        let mut out: Vec<Vec<AEdge>> = Vec::new();
        let mut queue = VecDeque::new();
        let mut intern =
            |s: AState, states: &mut Vec<AState>, out: &mut Vec<Vec<AEdge>>, queue: &mut VecDeque<usize>| {
                *ids.entry(s.clone()).or_insert_with(|| {
                    states.push(s);
                    out.push(Vec::new());
                    queue.push_back(states.len() - 1);
                    states.len() - 1
                })
            };
        let init = self.enc.init(&self.vocab);
        let entry: Vec<Bool> =
            self.precision.at(comp.entry).iter().map(|&p| self.precision.formula(p).clone()).collect();
        let key = (init, entry);
        if !self.initial_rows.contains_key(&key) {
            let globals: stored::IrKey = stored::globals_key(comp).into();
            let from_cache = match self.stored_rows.is_empty() {
                true => None,
                false => self
                    .stored_rows
                    .get(&stored::initial_digest(&globals, &key.1, &mut self.texts))
                    .filter(|rows| rows.iter().all(|r| r.len() == key.1.len()))
                    .cloned(),
            };
            let rows = match from_cache {
                Some(rows) => rows,
                None => smt.all_sat(std::slice::from_ref(&key.0), &self.targets(comp.entry, &self.vocab))?,
            };
            self.initial_rows.insert(key.clone(), (rows, globals));
        }
        let mut rows = self.initial_rows[&key].0.clone();
        // In a fixed order, as the successors ([`Abstractor::compute`]): states are numbered in
        // the order they are found, and the solver's order of models varies with its history.
        rows.sort();
        let mut initial = Vec::new();
        for r in rows {
            let s = AState::At(comp.entry, r.iter().map(|&v| v != 0).collect());
            initial.push(intern(s, &mut states, &mut out, &mut queue));
        }
        while let Some(i) = queue.pop_front() {
            if states.len() > MAX_STATES {
                return Err(AbsError::TooManyStates(MAX_STATES));
            }
            let AState::At(loc, val) = states[i].clone() else { continue };
            let blocked = mode == Mode::May && self.blocks == blocks::Blocks::Loop;
            for &e in succ.get(loc.index()).map(Vec::as_slice).unwrap_or(&[]) {
                // With blocks, only the visible events leave a point edge by edge.
                if blocked && !self.plan().is_single(e) {
                    continue;
                }
                for (take, target, label) in self.edge_successors(smt, mode, e, loc, &val)? {
                    let to = intern(target, &mut states, &mut out, &mut queue);
                    out[i].push(AEdge { edge: e, take, label, to, block: None });
                }
            }
            if blocked {
                let exits = self.plan().exits_at(loc).to_vec();
                for x in exits {
                    let edge = self.plan().exit(x).edge;
                    for (take, target) in self.block_successors(smt, x, loc, &val)? {
                        let label = self.label(edge, take, &target);
                        let to = intern(target, &mut states, &mut out, &mut queue);
                        out[i].push(AEdge { edge, take, label, to, block: Some(x) });
                    }
                }
            }
        }
        // The letters each state offers by its label: self-loops along the gadget's event edge.
        if !self.letters.is_empty() {
            for (i, s) in states.iter().enumerate() {
                let Some(label) = self.state_label(s) else { continue };
                for l in self.letters.iter().filter(|l| l.label == label) {
                    let label = Label::Event(l.name.clone());
                    out[i].push(AEdge { edge: l.edge, take: Take::Silent, label, to: i, block: None });
                }
            }
        }
        let vals = labels::valuations(comp);
        let (labels, label_texts, labelled_events) = label_states(comp, &states, &mut out, &|_, s| {
            let label = self.state_label(s)?;
            vals.iter().position(|(_, v, _)| *v == label).map(|i| i as u32)
        });
        self.stats.states = states.len();
        let letters = labels::letter_names(comp);
        Ok(Arg { states, out, initial, labels, label_texts, labelled_events, letters })
    }

    fn edge_successors(
        &mut self,
        smt: &mut Smt,
        mode: Mode,
        e: usize,
        loc: LocId,
        val: &[bool],
    ) -> Result<Vec<(Take, AState, Label)>, AbsError> {
        let comp = self.component();
        let edge = &comp.edges[e];
        let cube: Vec<(PredId, bool)> = self.precision.at(loc).iter().copied().zip(val.iter().copied()).collect();
        let key: CacheKey = (e, cube, self.precision.at(edge.to).to_vec(), mode, self.view == EventView::Visible);
        let found = match self.cache.get(&key) {
            Some(found) => {
                self.stats.cached_edges += 1;
                found.clone()
            }
            None => {
                let found = self.compute(smt, mode, e, loc, val)?;
                self.cache.insert(key, found.clone());
                found
            }
        };
        Ok(found.into_iter().map(|(take, target)| (take, target.clone(), self.label(e, take, &target))).collect())
    }

    fn label(&self, e: usize, take: Take, target: &AState) -> Label {
        let edge = &self.component().edges[e];
        match (&edge.stmt, target) {
            (Stmt::Check(_, f), AState::Error) => Label::Error(ErrorKind::Fault(*f)),
            (Stmt::Event(_), AState::Error) => Label::Error(ErrorKind::Reach),
            (Stmt::Event(ev), _) if self.view == EventView::Visible => {
                let (name, family) = self.event_label(ev);
                match (family, take) {
                    (Some(_), Take::Value(v)) => Label::Event(format!("{name}.{v}")),
                    _ => Label::Event(name),
                }
            }
            _ => Label::Tau,
        }
    }

    /// The successors of one edge from `(loc, val)`, as (how taken, target) pairs: from the
    /// results of an identical query ([`EdgeQuery`]) when there is one, else from the solver.
    fn compute(
        &mut self,
        smt: &mut Smt,
        mode: Mode,
        e: usize,
        loc: LocId,
        val: &[bool],
    ) -> Result<Vec<(Take, AState)>, AbsError> {
        let comp = self.component();
        let edge = &comp.edges[e];
        if matches!(&edge.stmt, Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT) {
            self.stats.computed_edges += 1;
            return Ok(vec![(Take::Normal, AState::Error)]);
        }
        // The value an event carries, when each value is its own event.
        let valued = match &edge.stmt {
            Stmt::Event(ev) if self.view == EventView::Visible => self.event_label(ev).1,
            _ => None,
        };
        let take = match (&edge.stmt, valued) {
            (Stmt::Event(_), None) => Take::Silent,
            (Stmt::Event(Event::Send(..)), Some(_)) => Take::Normal,
            (Stmt::Event(Event::Recv(..)), Some(_)) => Take::Silent,
            _ => Take::Normal,
        };
        let step = self.enc.step(edge, take, &self.vocab);
        let keep = self.relevant(mode, e, loc, &step);
        let (query, order) = self.query(mode, e, loc, val, &keep, take, valued, &step);
        if !self.by_query.contains_key(&query) && !self.stored.is_empty() {
            // An answer from the cache, for a query of the same key.
            let stmt = self.statement_key(e);
            let found = stored::query_digest(&query, &stmt, &mut self.texts)
                .and_then(|(d, perm)| stored::from_text_order(self.stored.get(&d)?, &perm));
            if let Some(found) = found {
                self.by_query.insert(query.clone(), (found, stmt));
            }
        }
        if let Some((found, _)) = self.by_query.get(&query) {
            self.stats.cached_edges += 1;
            self.stats.carried_edges += 1;
            let mut found: Vec<(Take, AState)> = found
                .iter()
                .map(|(t, target)| {
                    let state = match target {
                        None => AState::Error,
                        // Back from the query's order of the target's predicates to the
                        // precision's.
                        Some(sorted) => {
                            let mut v = vec![false; sorted.len()];
                            for (k, &i) in order.iter().enumerate() {
                                v[i] = sorted[k];
                            }
                            AState::At(edge.to, v)
                        }
                    };
                    (*t, state)
                })
                .collect();
            found.sort();
            return Ok(found);
        }
        self.stats.computed_edges += 1;
        let found = self.solve(smt, mode, e, loc, val, &keep, valued, take, step)?;
        let stored = found
            .iter()
            .map(|(t, target)| match target {
                AState::Error => (*t, None),
                AState::At(_, v) => (*t, Some(order.iter().map(|&i| v[i]).collect())),
            })
            .collect();
        let stmt = self.statement_key(e);
        self.by_query.insert(query, (stored, stmt));
        Ok(found)
    }

    /// The key of edge `e`'s statement ([`stored::statement_key`]), made once per edge.
    fn statement_key(&mut self, e: usize) -> stored::IrKey {
        let comp = self.component();
        self.stmt_keys[e].get_or_insert_with(|| stored::statement_key(comp, &comp.edges[e].stmt).into()).clone()
    }

    /// Which literals of the source cube `(loc, ·)` a query of edge `e` depends on: in may
    /// mode, those whose predicates share a constant, directly or through other such literals,
    /// with the step (its guard, the new values and the written variables, an event's value) or
    /// with the target's predicates; in must mode, all. The source state exists, so its cube
    /// is satisfiable, and the literals left out speak of other constants: they change neither
    /// whether the step can be taken nor the target's values, so the may-successors are those
    /// of the cube without them, which is what [`EdgeQuery`] then keys and the solver is asked.
    /// A cube that differs only in such literals (another state at the location, or a version
    /// with other predicates there) is answered by the same query.
    fn relevant(&self, mode: Mode, e: usize, loc: LocId, step: &smt::Step) -> Vec<bool> {
        let source = self.precision.at(loc);
        if mode == Mode::Must || !self.slice_cubes {
            return vec![true; source.len()];
        }
        let edge = &self.component().edges[e];
        let mut seen: crate::util::HashSet<Dynamic> =
            smt::constants(&Dynamic::from_ast(&step.guard)).into_iter().collect();
        for (a, b) in self.vocab.iter().zip(&step.post) {
            let (a, b) = (a.dynamic(), b.dynamic());
            if a != b {
                seen.extend(smt::constants(&b));
                seen.insert(a);
            }
        }
        for &p in self.precision.at(edge.to) {
            seen.extend(self.precision.mentions[p as usize].iter().cloned());
        }
        match &edge.stmt {
            Stmt::Event(Event::Send(_, x)) => {
                seen.extend(smt::constants(&Dynamic::from_ast(&self.enc.bv(x, &self.vocab))));
            }
            Stmt::Check(c, _) => seen.extend(smt::constants(&Dynamic::from_ast(&self.enc.cond(c, &self.vocab)))),
            _ => {}
        }
        let mut keep = vec![false; source.len()];
        loop {
            let mut grew = false;
            for (i, &p) in source.iter().enumerate() {
                let mentions = &self.precision.mentions[p as usize];
                if !keep[i] && mentions.iter().any(|c| seen.contains(c)) {
                    keep[i] = true;
                    grew = true;
                    seen.extend(mentions.iter().cloned());
                }
            }
            if !grew {
                return keep;
            }
        }
    }

    /// The query of edge `e` from `(loc, val)` as formulas ([`EdgeQuery`]), with the source's
    /// literals that `keep` marks ([`Abstractor::relevant`]), and the order of the target's
    /// predicates in it (the `k`-th is the precision's `order[k]`-th there).
    #[allow(clippy::too_many_arguments)]
    fn query(
        &self,
        mode: Mode,
        e: usize,
        loc: LocId,
        val: &[bool],
        keep: &[bool],
        take: Take,
        valued: Option<(IntTy, i128, i128)>,
        step: &smt::Step,
    ) -> (EdgeQuery, Vec<usize>) {
        let edge = &self.component().edges[e];
        let by_hash = std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default();
        let hash = |b: &Bool| std::hash::BuildHasher::hash_one(&by_hash, b);
        // Inputs are named by a counter; the query names them by their place.
        let canonical: Vec<(Dynamic, Dynamic)> = step
            .fresh
            .iter()
            .enumerate()
            .map(|(i, f)| (f.clone(), Dynamic::new_const(format!("input!{i}"), &f.get_sort())))
            .collect();
        let pairs: Vec<(&Dynamic, &Dynamic)> = canonical.iter().map(|(a, b)| (a, b)).collect();
        let rename = |d: &Dynamic| if pairs.is_empty() { d.clone() } else { d.substitute(&pairs) };
        let mut source: Vec<(Bool, bool)> = self.kept_literals(loc, val, keep).map(|(b, v)| (b.clone(), v)).collect();
        source.sort_by_key(|(b, v)| (hash(b), *v));
        let at_target = self.precision.at(edge.to);
        let mut order: Vec<usize> = (0..at_target.len()).collect();
        order.sort_by_key(|&i| hash(self.precision.formula(at_target[i])));
        let targets = order.iter().map(|&i| self.precision.formula(at_target[i]).clone()).collect();
        let mut writes: Vec<(Dynamic, Dynamic)> = self
            .vocab
            .iter()
            .zip(&step.post)
            .filter(|(a, b)| a.dynamic() != b.dynamic())
            .map(|(a, b)| (a.dynamic(), rename(&b.dynamic())))
            .collect();
        writes.sort_by_key(|(a, _)| std::hash::BuildHasher::hash_one(&by_hash, a));
        let value = match (&edge.stmt, valued) {
            (Stmt::Event(Event::Send(_, x)), Some((_, lo, hi))) => {
                Some((EventValue::Sent, Dynamic::from_ast(&self.enc.bv(x, &self.vocab)), x.ty, lo, hi))
            }
            (Stmt::Event(Event::Recv(..)), Some((ty, lo, hi))) => {
                Some((EventValue::Received, rename(&step.fresh[0]), ty, lo, hi))
            }
            _ => None,
        };
        let query = EdgeQuery {
            mode,
            visible: self.view == EventView::Visible,
            check: matches!(edge.stmt, Stmt::Check(..)),
            take,
            source,
            targets,
            guard: rename(&Dynamic::from_ast(&step.guard)),
            writes,
            value,
        };
        (query, order)
    }

    /// The predicates at `loc` that `keep` marks, with their values in the cube `val`.
    fn kept_literals<'s>(
        &'s self,
        loc: LocId,
        val: &'s [bool],
        keep: &'s [bool],
    ) -> impl Iterator<Item = (&'s Bool, bool)> + 's {
        self.precision
            .at(loc)
            .iter()
            .zip(val)
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|((&p, &v), _)| (self.precision.formula(p), v))
    }

    /// [`Abstractor::compute`] by the solver, from the source's literals that `keep` marks
    /// ([`Abstractor::relevant`]).
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &mut self,
        smt: &mut Smt,
        mode: Mode,
        e: usize,
        loc: LocId,
        val: &[bool],
        keep: &[bool],
        valued: Option<(IntTy, i128, i128)>,
        take: Take,
        step: smt::Step,
    ) -> Result<Vec<(Take, AState)>, AbsError> {
        let comp = self.component();
        let edge = &comp.edges[e];
        let gamma = {
            let lits: Vec<Bool> =
                self.kept_literals(loc, val, keep).map(|(b, v)| if v { b.clone() } else { b.not() }).collect();
            Bool::and(&lits)
        };
        let mut found = Vec::new();
        // A may-step of a `check` whose failure is impossible from the cube: its condition
        // holds on all of it.
        let mut always = false;
        if let Stmt::Check(c, _) = &edge.stmt {
            let bad = self.enc.cond(c, &self.vocab).not();
            let possible = match mode {
                Mode::May => smt.sat(&[gamma.clone(), bad])?,
                Mode::Must => smt.valid(std::slice::from_ref(&gamma), &bad).unwrap_or_else(|_| {
                    self.stats.must_unknown += 1;
                    false
                }),
            };
            if possible {
                found.push((Take::Fault, AState::Error));
            }
            always = mode == Mode::May && !possible;
        }
        // Target predicates the step cannot change: those also at the source that mention no
        // variable the step writes. Their values are copied from the source cube, exactly.
        let written: Vec<Dynamic> = self
            .vocab
            .iter()
            .zip(&step.post)
            .filter(|(a, b)| a.dynamic() != b.dynamic())
            .map(|(a, _)| a.dynamic())
            .collect();
        let source = self.precision.at(loc);
        let known: Vec<Option<bool>> = self
            .precision
            .at(edge.to)
            .iter()
            .map(|&p| {
                let i = source.iter().position(|&q| q == p)?;
                let untouched = self.precision.mentions[p as usize].iter().all(|c| !written.contains(c));
                untouched.then_some(val[i])
            })
            .collect();
        let mut facts = vec![gamma.clone(), step.guard.clone()];
        let all_terms = self.targets(edge.to, &step.post);
        let mut terms: Vec<Projected> =
            all_terms.iter().zip(&known).filter(|(_, k)| k.is_none()).map(|(t, _)| t.clone()).collect();
        let value_ty = match (&edge.stmt, valued) {
            (Stmt::Event(Event::Send(_, x)), Some((_, lo, hi))) => {
                let b = self.enc.bv(x, &self.vocab);
                facts.push(smt::in_range(&b, x.ty, lo, hi));
                terms.push(Projected::Value(b, x.ty));
                Some(x.ty)
            }
            (Stmt::Event(Event::Recv(..)), Some((ty, _, _))) => {
                // The silent step received a fresh value in the range: enumerate it.
                let h = step.fresh[0].as_bv().expect("a received value is a bit-vector");
                terms.push(Projected::Value(h, ty));
                Some(ty)
            }
            _ => None,
        };
        let trivial = terms.is_empty() && step.guard.as_bool() == Some(true) && facts.len() == 2;
        // The source state exists, so its cube is satisfiable: a step with no guard and no
        // predicate to find has exactly one successor. So has a may-step whose guard some value
        // evidently satisfies ([`smt::evidently_sat`]) when no literal of the cube is kept
        // ([`Abstractor::relevant`]: none speaks of the guard's constants). (A must-step keeps
        // every literal, so this needs a source without predicates, and its check follows.)
        // A check that cannot fail from the cube passes from every state of it (the condition
        // is the guard): one successor too.
        let evident = !trivial
            && terms.is_empty()
            && facts.len() == 2
            && (always || (!keep.contains(&true) && smt::evidently_sat(&step.guard)));
        let rows = if trivial || evident { vec![Vec::new()] } else { smt.all_sat(&facts, &terms)? };
        for row in rows {
            let (bits, value) = match value_ty {
                Some(_) => (&row[..row.len() - 1], Some(row[row.len() - 1])),
                None => (&row[..], None),
            };
            let mut unknown = bits.iter();
            let target_val: Vec<bool> =
                known.iter().map(|k| k.unwrap_or_else(|| unknown.next().is_some_and(|&b| b != 0))).collect();
            let t = value.map_or(take, Take::Value);
            if mode == Mode::Must && !trivial && !self.must_holds(smt, e, t, &gamma, edge.to, &target_val) {
                continue;
            }
            found.push((t, AState::At(edge.to, target_val)));
        }
        found.sort();
        Ok(found)
    }

    /// Whether every state of `gamma` has a successor by edge `e` taken as `take` in
    /// `γ(target)`. Unknown counts as no.
    fn must_holds(&mut self, smt: &mut Smt, e: usize, take: Take, gamma: &Bool, to: LocId, target: &[bool]) -> bool {
        let edge = &self.component().edges[e];
        let step = self.enc.step(edge, take, &self.vocab);
        let post_gamma = smt::substitute(&self.gamma(to, target), &self.vocab, &step.post);
        let body = Bool::and(&[step.guard, post_gamma]);
        let goal = if step.fresh.is_empty() {
            body
        } else {
            let bounds: Vec<&dyn Ast> = step.fresh.iter().map(|d| d as &dyn Ast).collect();
            z3::ast::exists_const(&bounds, &[], &body)
        };
        match smt.valid(std::slice::from_ref(gamma), &goal) {
            Ok(v) => v,
            Err(_) => {
                self.stats.must_unknown += 1;
                false
            }
        }
    }
}

impl Arg {
    /// The component's automaton: τ steps collapsed, one event per visible transition, error
    /// events into the error state. States of the automaton are the initial abstract states
    /// and the targets of visible transitions.
    pub fn to_dla(&self, component: &str) -> Dla {
        self.automaton(component, false)
    }

    /// [`Arg::to_dla`] for trace containment: the error events are behaviours like any other,
    /// so the state they reach is an ordinary accepting state (with no way out) instead of π.
    pub fn to_behaviours(&self, component: &str) -> Dla {
        self.automaton(component, true)
    }

    fn automaton(&self, component: &str, errors_accept: bool) -> Dla {
        let mut b = Builder::new();
        for l in &self.letters {
            b.add_event(l);
        }
        let mut dla_of: HashMap<usize, crate::automata::dla::StateId> = HashMap::default();
        let mut work: Vec<usize> = Vec::new();
        let mut get = |s: usize, b: &mut Builder, work: &mut Vec<usize>| {
            *dla_of.entry(s).or_insert_with(|| {
                work.push(s);
                if self.states[s] == AState::Error && !errors_accept {
                    b.add_error_state()
                } else {
                    b.add_state(&[], true)
                }
            })
        };
        let init: Vec<_> = self.initial.iter().map(|&s| get(s, &mut b, &mut work)).collect();
        // One initial state: with several, an extra state joins them by τ.
        match init.as_slice() {
            [one] => b.set_initial(*one),
            _ => {
                let root = b.add_state(&[], true);
                for s in &init {
                    b.add_transition(root, TAU_NAME, *s);
                }
                b.set_initial(root);
            }
        }
        while let Some(s) = work.pop() {
            let from = get(s, &mut b, &mut work);
            // The τ-closure of s in the graph.
            let mut seen = vec![s];
            let mut stack = vec![s];
            while let Some(x) = stack.pop() {
                for a in &self.out[x] {
                    match &a.label {
                        Label::Tau => {
                            if !seen.contains(&a.to) {
                                seen.push(a.to);
                                stack.push(a.to);
                            }
                        }
                        Label::Event(name) => {
                            let to = get(a.to, &mut b, &mut work);
                            match self.label_text(a.to) {
                                Some(text) if self.labelled_events => {
                                    b.add_transition(from, &format!("{name}{text}"), to)
                                }
                                _ => b.add_transition(from, name, to),
                            }
                        }
                        Label::Error(k) => {
                            let to = get(a.to, &mut b, &mut work);
                            b.add_transition(from, &k.event(component), to);
                        }
                    }
                }
            }
        }
        b.build()
    }

    /// The text `{A,B}` of a state's label, when it has one.
    pub fn label_text(&self, s: usize) -> Option<&str> {
        let v = (*self.labels.get(s)?)?;
        self.label_texts.get(v as usize).map(|(_, t)| t.as_str())
    }

    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.out.iter().map(Vec::len).sum()
    }

    /// A shortest path (fewest graph edges) that performs `events` in order, each one of the
    /// given visible labels of [`Arg::to_dla`], from an initial state; as (state, edge index in
    /// `out[state]`).
    pub fn find_path(&self, component: &str, events: &[Vec<String>]) -> Option<Vec<(usize, usize)>> {
        // For each (state, events done): the node and edge it was reached by, and whether the
        // step checks the label of its target (an event that carries it).
        type Node = (usize, usize);
        let mut prev: HashMap<Node, Option<(Node, usize, bool)>> = HashMap::default();
        let mut queue = VecDeque::new();
        for &s in &self.initial {
            prev.insert((s, 0), None);
            queue.push_back((s, 0));
        }
        while let Some((s, pos)) = queue.pop_front() {
            if pos == events.len() {
                let mut path = Vec::new();
                let mut at = (s, pos);
                while let Some(Some((p, k, check))) = prev.get(&at) {
                    if *check {
                        // The τ self-loop that checks the label of the event's target.
                        let to = self.out[p.0][*k].to;
                        let v = (*self.labels.get(to)?)?;
                        let check = self.label_texts.get(v as usize)?.0;
                        let c = self.out[to].iter().position(|a| a.edge == check && a.to == to)?;
                        path.push((to, c));
                    }
                    path.push((p.0, *k));
                    at = *p;
                }
                path.reverse();
                return Some(path);
            }
            for (k, a) in self.out[s].iter().enumerate() {
                let mut check = false;
                let next = match &a.label {
                    Label::Tau => (a.to, pos),
                    Label::Event(n) if self.labelled_events => match self.label_text(a.to) {
                        Some(t) if events[pos].iter().any(|w| w.strip_prefix(n.as_str()) == Some(t)) => {
                            check = true;
                            (a.to, pos + 1)
                        }
                        _ => continue,
                    },
                    Label::Event(n) if events[pos].contains(n) => (a.to, pos + 1),
                    Label::Error(e) if events[pos].contains(&e.event(component)) => (a.to, pos + 1),
                    _ => continue,
                };
                if let std::collections::hash_map::Entry::Vacant(v) = prev.entry(next) {
                    v.insert(Some(((s, pos), k, check)));
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// Used by [`refine`]: whether `t` mentions only the constants of `vocab`.
fn over_vocab(t: &Bool, vocab: &[Dynamic]) -> bool {
    smt::constants(&Dynamic::from_ast(t)).iter().all(|c| vocab.contains(c))
}
