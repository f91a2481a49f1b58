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
//! process's Z3 context. Here each is keyed by a digest ([`blake3`]) of the query as text: its
//! mode and flags, the source literals and the written variables as sets (sorted texts), the
//! guard, the event's value, the target's predicates sorted by their texts (the successors'
//! valuations are kept in that order), and the declaration (name and sort) of every constant
//! that occurs, since a term's text does not show the sorts of its constants. A digest is only
//! ever compared with the digest of a query built in this run, so an answer is used only for
//! a query whose text is the same; the initial states' valuations are keyed the same way.
//!
//! Weaknesses: the key by text rests on Z3's SMT-LIB printer being one-to-one on these terms
//! (with the declarations), as the cached predicates rest on it for their round trip. A
//! query's text is made only where the query misses in memory and stored answers exist, but
//! then it costs a print of its terms. The block encoding's answers (`--blocks loop`) are
//! keyed by places of predicates and are not stored, so an unchanged component refined again
//! after a load asks its blocks afresh.

use serde::{Deserialize, Serialize};
use z3::ast::{Ast, Bool, Dynamic};

use super::{AEdge, AState, Abstractor, Arg, EdgeQuery, ErrorKind, EventValue, Label, MAX_STATES, Successor};
use crate::ir::{Fault, LocId};
use crate::smt::{self, Take};

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

/// A digest of a query's text.
pub(super) type Digest = [u8; 32];

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

/// The text of a term and the declarations of its constants, made once per term
/// ([`Abstractor`]'s memo: a query's predicates and statement recur in many queries).
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

    fn term(&mut self, d: &Dynamic) -> String {
        let (text, constants) = self.memo.terms.entry(d.clone()).or_insert_with(|| (d.to_string(), smt::constants(d)));
        for c in constants.iter() {
            let decl = self.memo.decls.entry(c.clone()).or_insert_with(|| c.decl().to_string());
            self.decls.push(decl.clone());
        }
        text.clone()
    }

    fn bool(&mut self, b: &Bool) -> String {
        self.term(&Dynamic::from_ast(b))
    }

    /// A list whose order does not matter: its texts sorted.
    fn set(&mut self, mut texts: Vec<String>) {
        texts.sort();
        self.put(&texts.len().to_string());
        for t in &texts {
            self.put(t);
        }
    }

    /// Ends with the declarations of every constant of the terms given.
    fn finish(mut self) -> Digest {
        let mut decls = std::mem::take(&mut self.decls);
        decls.sort();
        decls.dedup();
        self.set(decls);
        *self.h.finalize().as_bytes()
    }
}

/// The digest of an edge query and the order of its target predicates by their texts
/// (`perm[k]` is the place in the query of the `k`-th text); `None` when two target predicates
/// print alike.
pub(super) fn query_digest(q: &EdgeQuery, memo: &mut TermTexts) -> Option<(Digest, Vec<usize>)> {
    let mut h = TextHasher::new("edge", memo);
    h.put(&format!("{:?} {} {} {:?}", q.mode, q.visible, q.check, q.take));
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
    let guard = h.term(&q.guard);
    h.put(&guard);
    let writes: Vec<String> = q.writes.iter().map(|(a, b)| format!("{} := {}", h.term(a), h.term(b))).collect();
    h.set(writes);
    match &q.value {
        None => h.put("no value"),
        Some((way, d, ty, lo, hi)) => {
            let way = match way {
                EventValue::Sent => "sent",
                EventValue::Received => "received",
            };
            let text = h.term(d);
            h.put(&format!("{way} {ty:?} {lo} {hi} {text}"));
        }
    }
    Some((h.finish(), perm))
}

/// The digest of an initial-state query: the initial condition and the entry's predicates in
/// the precision's order (the rows' order).
pub(super) fn initial_digest(init: &Bool, entry: &[Bool], memo: &mut TermTexts) -> Digest {
    let mut h = TextHasher::new("initial", memo);
    let text = h.bool(init);
    h.put(&text);
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
    /// given), keyed by their texts, for the cache. Sorted by digest, so the same answers give
    /// the same entry.
    pub fn answers_text(&self) -> AnswersText {
        let mut memo = TermTexts::default();
        let mut edges: crate::util::HashMap<Digest, Vec<Successor>> = self.stored.clone();
        for (q, found) in &self.by_query {
            if let Some((d, perm)) = query_digest(q, &mut memo) {
                edges.entry(d).or_insert_with(|| to_text_order(found, &perm));
            }
        }
        let mut rows: crate::util::HashMap<Digest, Vec<Vec<i128>>> = self.stored_rows.clone();
        for ((init, entry), r) in &self.initial_rows {
            rows.entry(initial_digest(init, entry, &mut memo)).or_insert_with(|| r.clone());
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
