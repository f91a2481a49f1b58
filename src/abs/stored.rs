//! Abstractions as the cache keeps them: a may-graph ([`ArgText`]) and the answered queries
//! of an abstractor ([`AnswersText`]), so that a later process (`subst check` after a
//! `check` or `verify` of the old version) loads the old check's last models instead of
//! building them again.
//!
//! A graph is written in its own terms (locations, valuations, IR edges, how taken, labels) and
//! read back only for an abstractor of the same code at the same precision (the cache's key
//! covers both, [`crate::check::compat`]); [`Abstractor::arg_from_text`] checks its shape
//! against the component and the precision (every index in range, every valuation as long as
//! its location's predicates, sizes bounded), so that a damaged entry is a miss and never a
//! panic. Its label texts and letters are not stored but recomputed from the component.
//!
//! Answered edge queries are keyed in memory by their formulas (`EdgeQuery`), which live in one
//! process's Z3 context. Here each is keyed by a digest ([`blake3`]) of the query in IR terms:
//! its mode, view, `check` flag and how the edge is taken; the key of the statement it was
//! asked for ([`statement_key`]); the source literals as a set of (value, predicate text); the
//! target's predicates in the order of their texts (the successors' valuations are kept in
//! that order); and the declaration (name and sort) of every constant of those predicates. A
//! digest is only ever compared with the digest of a query built in this run, and it
//! identifies the query, so an answer is used only for the identical query:
//!
//! - **The statement.** The query's guard, new values and event value are made by
//!   [`crate::smt::Encoder::effect`] from the edge's statement and `take`, with its inputs
//!   renamed by their place (`input!0`, ..., so the encoder's counter does not show). The
//!   encoder reads the statement's tree (kinds, operators, constants, the type of every node,
//!   the fault, the event's name), and for each variable the statement mentions the constant
//!   [`crate::smt::Encoder::state`] made for it, which is named by the variable's name and has
//!   the sort of its type, and an array's length; for an event, its family's type and range
//!   ([`crate::ir::Component::family`]), which also decide, with the view, whether each value
//!   is an event of its own. It reads nothing else of the component (no location, no other
//!   edge or variable) and nothing of the run but constants of the code
//!   ([`crate::smt::INDEX_BITS`]), which the tool version fixes: the `model` entry's key names
//!   the version, and a digest of another version is never looked up. [`statement_key`]
//!   writes exactly these inputs: the tree as Rust's derived `Debug` writes it (every field,
//!   names quoted, so two trees never write alike) with each variable numbered by its first
//!   appearance (so the key does not depend on where the component declares it), then the
//!   name and type of each variable in that order, then the family's declaration. Equal keys
//!   are so the same tree over variables of the same names and types, which the encoder turns
//!   into the same terms (Z3 shares equal terms).
//! - **The predicates.** Each by its text: the one it was read from in the cache, else Z3's
//!   print (made once per term), with the declarations of its constants (a term's text does
//!   not show their sorts; a variable's is written from its IR type, [`TermTexts::declare`]).
//!   This rests on Z3's SMT-LIB printer being one-to-one on predicates with their
//!   declarations, as the cached predicates' round trip does.
//! - **The settings.** An answer is a function of its query and of the solver's budget (a
//!   must-transition whose query is unknown is dropped). Stored answers are loaded only from a
//!   `model` entry whose key names the abstraction settings (the budget among them) and the
//!   view, and are used by an abstractor of that run, with those settings.
//!
//! The initial states' valuations are keyed the same way: the initial condition
//! ([`crate::smt::Encoder::init`]) by the name, type and initial values of every global
//! variable ([`globals_key`]), then the entry's predicates in order. `tests/it/abstraction.rs`
//! holds a changed statement, variable type, family range and predicate to a miss.
//!
//! Weaknesses: the key of the predicates still rests on Z3's printer, and a predicate that was
//! not read from the cache (a renamed one, or one refinement found in this run) is printed once
//! for it. Two statements whose queries have the same formulas share one answer in memory, but
//! the cache keys it by the first one's statement only, so a later process asks the other
//! again. The block encoding's answers (`--blocks loop`) are keyed by places of predicates
//! and are not stored, so an unchanged component refined again after a load asks its blocks
//! afresh.

use serde::{Deserialize, Serialize};
use z3::ast::{Ast, Bool, Dynamic};

use std::rc::Rc;

use super::{AEdge, AState, Abstractor, Arg, EdgeQuery, ErrorKind, Label, MAX_STATES, Successor};
use crate::ir::{Component, Event, Expr, ExprKind, Fault, LocId, Lvalue, Stmt, Storage, VarId, VarTy};
use crate::smt::{self, Sym, Take};

/// The most edges a stored graph may have.
pub const MAX_STORED_EDGES: usize = 4 * MAX_STATES;
/// The most answered queries taken from one stored entry.
pub const MAX_STORED_ANSWERS: usize = 200_000;
/// The most predicates a stored valuation may have.
const MAX_STORED_VALUES: usize = 4096;

/// How an edge is taken, as stored ([`Take`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TakeText {
    /// [`Take::Normal`].
    N,
    /// [`Take::Fault`].
    F,
    /// [`Take::Silent`].
    S,
    /// [`Take::Value`].
    V(i64),
}

impl TakeText {
    fn of(t: Take) -> Option<TakeText> {
        Some(match t {
            Take::Normal => TakeText::N,
            Take::Fault => TakeText::F,
            Take::Silent => TakeText::S,
            Take::Value(v) => TakeText::V(i64::try_from(v).ok()?),
        })
    }

    fn take(self) -> Take {
        match self {
            TakeText::N => Take::Normal,
            TakeText::F => Take::Fault,
            TakeText::S => Take::Silent,
            TakeText::V(v) => Take::Value(i128::from(v)),
        }
    }
}

/// An edge's label, as stored ([`Label`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LabelText {
    /// [`Label::Tau`].
    T,
    /// [`Label::Event`].
    E(String),
    /// [`Label::Error`] of [`ErrorKind::Reach`].
    R,
    /// [`Label::Error`] of [`ErrorKind::Fault`], by the fault's place in [`Fault::ALL`].
    F(u8),
}

/// An edge of a stored graph: the IR edge, how taken, the label, the target state and the
/// block exit ([`AEdge`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeText(pub usize, pub TakeText, pub LabelText, pub usize, pub Option<u32>);

/// A may-graph as the cache keeps it ([`Arg`] without what the component determines).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgText {
    /// Per state: its location and its valuation as `0`/`1` characters, or `None` for the
    /// error state.
    pub states: Vec<Option<(u32, String)>>,
    /// Per state, its outgoing edges.
    pub out: Vec<Vec<EdgeText>>,
    /// The initial states.
    pub initial: Vec<usize>,
    /// Per state, its label (an index into the component's valuations of its propositions).
    pub labels: Vec<Option<u32>>,
}

/// A successor as stored: how taken, and the target's valuation (`None`: the error state).
pub type SuccessorText = (TakeText, Option<String>);

/// Answered queries as the cache keeps them ([`Abstractor::answers_text`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswersText {
    /// Per edge query: its digest (hex) and its successors, each how taken and the target's
    /// valuation (predicates in the order of their texts) or `None` for the error state.
    pub edges: Vec<(String, Vec<SuccessorText>)>,
    /// Per initial-state query: its digest and the valuations of the entry's predicates.
    pub initial: Vec<(String, Vec<Vec<i64>>)>,
}

/// A digest of a query's key ([`query_digest`], [`initial_digest`]).
pub(super) type Digest = [u8; 32];

/// The key of a statement or of an initial condition in IR terms ([`statement_key`],
/// [`globals_key`]), shared by the answers it keys.
pub(super) type IrKey = Rc<str>;

fn bits(v: &[bool]) -> String {
    v.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

fn parse_bits(s: &str) -> Option<Vec<bool>> {
    if s.len() > MAX_STORED_VALUES {
        return None;
    }
    s.chars()
        .map(|c| match c {
            '0' => Some(false),
            '1' => Some(true),
            _ => None,
        })
        .collect()
}

fn parse_digest(s: &str) -> Option<Digest> {
    let h = blake3::Hash::from_hex(s).ok()?;
    Some(*h.as_bytes())
}

/// Gives every variable of `e` its number of first appearance in `order`.
fn renumber_expr(e: &mut Expr, order: &mut Vec<VarId>) {
    match &mut e.kind {
        ExprKind::Const(_) => {}
        ExprKind::Var(v) => renumber(v, order),
        ExprKind::Load(v, i) => {
            renumber(v, order);
            renumber_expr(i, order);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => renumber_expr(a, order),
        ExprKind::Binary(_, a, b) => {
            renumber_expr(a, order);
            renumber_expr(b, order);
        }
    }
}

fn renumber_lvalue(lv: &mut Lvalue, order: &mut Vec<VarId>) {
    match lv {
        Lvalue::Var(v) => renumber(v, order),
        Lvalue::Elem(v, i) => {
            renumber(v, order);
            renumber_expr(i, order);
        }
    }
}

fn renumber(v: &mut VarId, order: &mut Vec<VarId>) {
    let k = order.iter().position(|w| w == v).unwrap_or_else(|| {
        order.push(*v);
        order.len() - 1
    });
    *v = VarId(k as u32);
}

/// The key of a statement of `comp` in IR terms (see the module doc): the statement's tree as
/// Rust's derived `Debug` writes it, which names every node's kind and type, with each
/// variable numbered by its first appearance; then the name and type of each variable in that
/// order; then, for an event, its family's declaration (type and range) or its absence.
pub(super) fn statement_key(comp: &Component, stmt: &Stmt) -> String {
    let mut tree = stmt.clone();
    let mut order = Vec::new();
    match &mut tree {
        Stmt::Skip | Stmt::Event(Event::Plain(_)) | Stmt::Event(Event::Recv(_, None)) => {}
        Stmt::Assign(lv, e) => {
            renumber_lvalue(lv, &mut order);
            renumber_expr(e, &mut order);
        }
        Stmt::Havoc(lv) | Stmt::Event(Event::Recv(_, Some(lv))) => renumber_lvalue(lv, &mut order),
        Stmt::Assume(e) | Stmt::Check(e, _) | Stmt::Event(Event::Send(_, e)) => renumber_expr(e, &mut order),
    }
    let decls: Vec<Option<(&String, &VarTy)>> =
        order.iter().map(|v| comp.vars.get(v.index()).map(|d| (&d.name, &d.ty))).collect();
    let family = match stmt {
        Stmt::Event(ev) => Some(comp.family(ev.name())),
        _ => None,
    };
    format!("{tree:?} {decls:?} {family:?}")
}

/// The key of `comp`'s initial condition ([`crate::smt::Encoder::init`]) in IR terms: the
/// name, type and initial values of each global variable, in the component's order.
pub(super) fn globals_key(comp: &Component) -> String {
    let globals: Vec<(&String, &VarTy, &Vec<i128>)> = comp
        .vars
        .iter()
        .filter_map(|d| match &d.storage {
            Storage::Global { init } => Some((&d.name, &d.ty, init)),
            Storage::Local => None,
        })
        .collect();
    format!("{globals:?}")
}

/// The text of a predicate and the declarations of its constants, made once per term
/// ([`Abstractor`]'s memo: a query's predicates recur in many queries).
#[derive(Clone, Default)]
pub(super) struct TermTexts {
    terms: crate::util::HashMap<Dynamic, (String, Vec<Dynamic>)>,
    decls: crate::util::HashMap<Dynamic, String>,
}

impl TermTexts {
    /// Records `text` as the text of `b`, which was parsed from it.
    pub(super) fn know(&mut self, b: &Bool, text: &str) {
        let d = Dynamic::from_ast(b);
        let constants = smt::constants(&d);
        self.terms.insert(d, (text.to_string(), constants));
    }

    /// The text of `b` when it is known (read from the cache or printed before).
    pub(super) fn text_of(&self, b: &Bool) -> Option<&str> {
        self.terms.get(&Dynamic::from_ast(b)).map(|(t, _)| t.as_str())
    }

    /// Declares the constants of `comp`'s variables (`vocab`, [`crate::smt::Encoder::state`]):
    /// each by its name and sort, written from its IR type (the sort is the one the encoder
    /// gives that type), so that Z3 need not print them.
    pub(super) fn declare(&mut self, comp: &Component, vocab: &[Sym]) {
        for (d, sym) in comp.vars.iter().zip(vocab) {
            let w = smt::width(d.ty.elem());
            let sort = match d.ty {
                VarTy::Scalar(_) => format!("(_ BitVec {w})"),
                VarTy::Array(..) => format!("(Array (_ BitVec {}) (_ BitVec {w}))", smt::INDEX_BITS),
            };
            self.decls.entry(sym.dynamic()).or_insert_with(|| format!("{:?} {sort}", d.name));
        }
    }

    /// Adds the texts `other` knows.
    pub(super) fn extend(&mut self, other: &TermTexts) {
        for (d, t) in &other.terms {
            self.terms.entry(d.clone()).or_insert_with(|| t.clone());
        }
        for (d, t) in &other.decls {
            self.decls.entry(d.clone()).or_insert_with(|| t.clone());
        }
    }
}

/// Hashes texts one by one, each with its length, so that no two lists collide.
struct TextHasher<'m> {
    h: blake3::Hasher,
    memo: &'m mut TermTexts,
    decls: Vec<String>,
}

impl<'m> TextHasher<'m> {
    fn new(kind: &str, memo: &'m mut TermTexts) -> TextHasher<'m> {
        let mut t = TextHasher { h: blake3::Hasher::new(), memo, decls: Vec::new() };
        t.put(kind);
        t
    }

    fn put(&mut self, s: &str) {
        self.h.update(&(s.len() as u64).to_le_bytes());
        self.h.update(s.as_bytes());
    }

    /// The text of a predicate (printed by Z3 only when no text of it is known), with the
    /// declarations of its constants noted for [`TextHasher::finish`]. A constant that is no
    /// variable of a component seen here is declared as Z3 prints it (a text that starts with
    /// `(`, where [`TermTexts::declare`]'s start with `"`).
    fn bool(&mut self, b: &Bool) -> String {
        let d = Dynamic::from_ast(b);
        let (text, constants) = self.memo.terms.entry(d).or_insert_with_key(|d| (d.to_string(), smt::constants(d)));
        for c in constants.iter() {
            let decl = self.memo.decls.entry(c.clone()).or_insert_with(|| c.decl().to_string());
            self.decls.push(decl.clone());
        }
        text.clone()
    }

    /// A list whose order does not matter: its texts sorted.
    fn set(&mut self, mut texts: Vec<String>) {
        texts.sort();
        self.put(&texts.len().to_string());
        for t in &texts {
            self.put(t);
        }
    }

    /// Ends with the declarations of every constant of the predicates given.
    fn finish(mut self) -> Digest {
        let mut decls = std::mem::take(&mut self.decls);
        decls.sort();
        decls.dedup();
        self.set(decls);
        *self.h.finalize().as_bytes()
    }
}

/// The digest of an edge query asked for a statement whose key is `stmt` ([`statement_key`]),
/// and the order of its target predicates by their texts (`perm[k]` is the place in the query
/// of the `k`-th text); `None` when two target predicates print alike.
pub(super) fn query_digest(q: &EdgeQuery, stmt: &str, memo: &mut TermTexts) -> Option<(Digest, Vec<usize>)> {
    let mut h = TextHasher::new("edge by IR", memo);
    h.put(&format!("{:?} {} {} {:?}", q.mode, q.visible, q.check, q.take));
    h.put(stmt);
    let source: Vec<String> = q.source.iter().map(|(b, v)| format!("{v} {}", h.bool(b))).collect();
    h.set(source);
    let targets: Vec<String> = q.targets.iter().map(|b| h.bool(b)).collect();
    let mut perm: Vec<usize> = (0..targets.len()).collect();
    perm.sort_by(|&a, &b| targets[a].cmp(&targets[b]));
    if perm.windows(2).any(|w| targets[w[0]] == targets[w[1]]) {
        return None;
    }
    h.put(&targets.len().to_string());
    for &i in &perm {
        h.put(&targets[i]);
    }
    Some((h.finish(), perm))
}

/// The digest of an initial-state query: the initial condition by its key in IR terms
/// ([`globals_key`]) and the entry's predicates in the precision's order (the rows' order).
pub(super) fn initial_digest(globals: &str, entry: &[Bool], memo: &mut TermTexts) -> Digest {
    let mut h = TextHasher::new("initial by IR", memo);
    h.put(globals);
    h.put(&entry.len().to_string());
    for p in entry {
        let text = h.bool(p);
        h.put(&text);
    }
    h.finish()
}

/// Successors in the query's order of target predicates, from the order of their texts.
pub(super) fn from_text_order(found: &[Successor], perm: &[usize]) -> Option<Vec<Successor>> {
    found
        .iter()
        .map(|(t, v)| match v {
            None => Some((*t, None)),
            Some(v) if v.len() == perm.len() => {
                let mut q = vec![false; v.len()];
                for (k, &i) in perm.iter().enumerate() {
                    q[i] = v[k];
                }
                Some((*t, Some(q)))
            }
            Some(_) => None,
        })
        .collect()
}

fn to_text_order(found: &[Successor], perm: &[usize]) -> Vec<Successor> {
    found.iter().map(|(t, v)| (*t, v.as_ref().map(|v| perm.iter().map(|&i| v[i]).collect()))).collect()
}

impl Arg {
    /// The graph as the cache keeps it; `None` when a value does not fit the stored form.
    pub fn to_text(&self) -> Option<ArgText> {
        let states = self
            .states
            .iter()
            .map(|s| match s {
                AState::At(l, v) => Some((l.0, bits(v))),
                AState::Error => None,
            })
            .collect();
        let out = self
            .out
            .iter()
            .map(|edges| {
                edges
                    .iter()
                    .map(|e| {
                        let label = match &e.label {
                            Label::Tau => LabelText::T,
                            Label::Event(n) => LabelText::E(n.clone()),
                            Label::Error(ErrorKind::Reach) => LabelText::R,
                            Label::Error(ErrorKind::Fault(f)) => {
                                LabelText::F(Fault::ALL.iter().position(|g| g == f)? as u8)
                            }
                        };
                        Some(EdgeText(e.edge, TakeText::of(e.take)?, label, e.to, e.block))
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(ArgText { states, out, initial: self.initial.clone(), labels: self.labels.clone() })
    }
}

impl Abstractor<'_> {
    /// The graph of `text` (from the cache, so possibly damaged) for this abstractor's
    /// component at its current precision: `None` unless every state's location exists and its
    /// valuation is as long as the location's predicates, at most one state is the error
    /// state, every edge is an IR edge of the component leading to a state (a block exit only
    /// with the block encoding, and one of its exits), every label and initial state is in
    /// range, and the sizes are within [`MAX_STATES`] and [`MAX_STORED_EDGES`].
    pub fn arg_from_text(&mut self, text: &ArgText) -> Option<Arg> {
        let comp = self.component();
        let n = text.states.len();
        if n == 0 || n > MAX_STATES || text.out.len() != n {
            return None;
        }
        if text.out.iter().map(Vec::len).sum::<usize>() > MAX_STORED_EDGES {
            return None;
        }
        let mut states = Vec::with_capacity(n);
        for s in &text.states {
            states.push(match s {
                None => AState::Error,
                Some((l, v)) => {
                    if *l >= comp.n_locs {
                        return None;
                    }
                    let v = parse_bits(v)?;
                    if v.len() != self.precision.at(LocId(*l)).len() {
                        return None;
                    }
                    AState::At(LocId(*l), v)
                }
            });
        }
        if states.iter().filter(|s| **s == AState::Error).count() > 1 {
            return None;
        }
        let n_exits = match self.blocks {
            super::blocks::Blocks::Loop => self.plan().n_exits(),
            super::blocks::Blocks::Single => 0,
        };
        let mut out = Vec::with_capacity(n);
        for edges in &text.out {
            let mut row = Vec::with_capacity(edges.len());
            for EdgeText(edge, take, label, to, block) in edges {
                if *edge >= comp.edges.len() || *to >= n || block.is_some_and(|x| x as usize >= n_exits) {
                    return None;
                }
                let label = match label {
                    LabelText::T => Label::Tau,
                    LabelText::E(name) if !name.is_empty() => Label::Event(name.clone()),
                    LabelText::E(_) => return None,
                    LabelText::R => Label::Error(ErrorKind::Reach),
                    LabelText::F(i) => Label::Error(ErrorKind::Fault(*Fault::ALL.get(*i as usize)?)),
                };
                row.push(AEdge { edge: *edge, take: take.take(), label, to: *to, block: *block });
            }
            out.push(row);
        }
        if text.initial.iter().any(|&i| i >= n) {
            return None;
        }
        let vals = super::labels::valuations(comp);
        let (label_texts, labelled_events): (Vec<(usize, String)>, bool) = if vals.is_empty() {
            (Vec::new(), false)
        } else {
            (vals.iter().map(|(e, _, t)| (*e, t.clone())).collect(), super::labels::labels_events(comp))
        };
        let labels_fit = if vals.is_empty() {
            text.labels.is_empty()
        } else {
            text.labels.len() == n && text.labels.iter().flatten().all(|&i| (i as usize) < label_texts.len())
        };
        if !labels_fit {
            return None;
        }
        self.stats.states = n;
        Some(Arg {
            states,
            out,
            initial: text.initial.clone(),
            labels: text.labels.clone(),
            label_texts,
            labelled_events,
            letters: super::labels::letter_names(comp),
        })
    }

    /// The answered queries of this abstractor (those asked in this run and those it was
    /// given), keyed by their digests ([`query_digest`], [`initial_digest`]), for the cache. Sorted by digest, so the same answers give
    /// the same entry.
    pub fn answers_text(&self) -> AnswersText {
        let mut memo = self.texts.clone();
        let mut edges: crate::util::HashMap<Digest, Vec<Successor>> = self.stored.clone();
        for (q, (found, stmt)) in &self.by_query {
            if let Some((d, perm)) = query_digest(q, stmt, &mut memo) {
                edges.entry(d).or_insert_with(|| to_text_order(found, &perm));
            }
        }
        let mut rows: crate::util::HashMap<Digest, Vec<Vec<i128>>> = self.stored_rows.clone();
        for ((_, entry), (r, globals)) in &self.initial_rows {
            rows.entry(initial_digest(globals, entry, &mut memo)).or_insert_with(|| r.clone());
        }
        let mut edges: Vec<(String, Vec<SuccessorText>)> = edges
            .into_iter()
            .filter_map(|(d, found)| {
                let found = found
                    .iter()
                    .map(|(t, v)| Some((TakeText::of(*t)?, v.as_deref().map(bits))))
                    .collect::<Option<Vec<_>>>()?;
                Some((blake3::Hash::from(d).to_hex().to_string(), found))
            })
            .collect();
        edges.sort_by(|a, b| a.0.cmp(&b.0));
        let mut initial: Vec<(String, Vec<Vec<i64>>)> = rows
            .into_iter()
            .filter_map(|(d, r)| {
                let r = r
                    .iter()
                    .map(|row| row.iter().map(|&x| i64::try_from(x).ok()).collect::<Option<Vec<_>>>())
                    .collect::<Option<Vec<_>>>()?;
                Some((blake3::Hash::from(d).to_hex().to_string(), r))
            })
            .collect();
        initial.sort_by(|a, b| a.0.cmp(&b.0));
        AnswersText { edges, initial }
    }

    /// Adds the answers of `text` (from the cache, so possibly damaged): `false`, with
    /// nothing added, unless every digest is one and every valuation is `0`/`1` characters,
    /// within [`MAX_STORED_ANSWERS`]. An answer is only ever used for a query of this run
    /// with the same digest ([`query_digest`]), whose successors it then gives.
    pub fn load_answers(&mut self, text: &AnswersText) -> bool {
        if text.edges.len() + text.initial.len() > MAX_STORED_ANSWERS {
            return false;
        }
        let mut edges = Vec::with_capacity(text.edges.len());
        for (d, found) in &text.edges {
            let Some(d) = parse_digest(d) else { return false };
            let mut succ = Vec::with_capacity(found.len());
            for (t, v) in found {
                let v = match v {
                    None => None,
                    Some(v) => match parse_bits(v) {
                        Some(v) => Some(v),
                        None => return false,
                    },
                };
                succ.push((t.take(), v));
            }
            edges.push((d, succ));
        }
        let mut rows = Vec::with_capacity(text.initial.len());
        for (d, r) in &text.initial {
            let Some(d) = parse_digest(d) else { return false };
            if r.iter().any(|row| row.len() > MAX_STORED_VALUES) {
                return false;
            }
            rows.push((d, r.iter().map(|row| row.iter().map(|&x| i128::from(x)).collect()).collect()));
        }
        for (d, succ) in edges {
            self.stored.entry(d).or_insert(succ);
        }
        for (d, r) in rows {
            self.stored_rows.entry(d).or_insert(r);
        }
        true
    }
}
