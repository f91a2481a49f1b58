//! Adaptive L# (Kruger, Junges and Rot, "State Matching and Multiple References in Adaptive
//! Active Automata Learning", FM 2024; the algorithm behind AALpy's `run_adaptive_Lsharp`):
//! L# ([`super::lsharp`]) that learns a changed target with the help of a *reference model*,
//! here the assumption learned for the old version of a component.
//!
//! The reference only decides which words are asked; every answer in the tree comes from the
//! new target, so the result is a correct L# run whatever the reference is (a wrong reference
//! costs queries, never correctness). Two things are taken from it:
//!
//! - **Rebuilding** (the paper's Section 4, "rebuilding the observation tree"). The shortest
//!   access words of the reference's states (its state cover `P`, a breadth-first spanning
//!   tree) and its pairwise separating words are asked first: for a node `f = b·a` of the tree
//!   with `b` in the new basis and `f`'s word in `P`, and every basis node `b'`, the separating
//!   word of the two reference states is asked after `f` and after `b'`. A node of `P` that is
//!   then apart from the whole basis is promoted at once (*prioritized promotion*). Where the
//!   language did not change, this rebuilds the old basis with one separating word per pair,
//!   without the rounds of hypotheses and counterexamples that found them.
//! - **State matching** (the paper's Section 5): each basis node is matched to the reference
//!   states that agree with the most answers of its subtree (*approximate matching*). Once the
//!   usual L# rules have nothing left to do, two rules use the matching: *match refinement*
//!   asks a basis node matched to several reference states the word that separates two of
//!   them, and *match separation* asks a frontier node `b·a`, whose parent is matched to `r`
//!   while `δ(r, a)` is matched to no basis node, a word on which one of its candidates
//!   disagrees with `δ(r, a)`: either the node turns out apart from the candidate (a new
//!   state, found without an equivalence query), or apart from `δ(r, a)`.
//!
//! Letters of the learner's alphabet that the reference does not know lead to a rejecting sink
//! of the reference; letters only the reference knows are ignored (the paper's "common
//! inputs"). A prefix-closed reference without its rejecting state gets that sink too.
//!
//! Invariants: every rule asks only words without an answer in the tree, so the rules end;
//! the basis that rebuilding leaves is closed under prefixes, its nodes have answers and are
//! pairwise apart, as [`LSharp`] requires.
//!
//! Known weaknesses:
//! - One reference only (the paper combines several into one model).
//! - The matching is recomputed from the whole subtree of every basis node each time the
//!   matching rules run (the paper updates it incrementally); fine for assumptions of tens of
//!   states, slow for references of hundreds.
//! - The paper's *prioritized separation* (preferring, among the witnesses of two candidates,
//!   one in the reference's characterisation set of the matched state) is not built: frontier
//!   nodes are separated with the tree's shortest witness, as in plain L#.
//! - Rebuilding compares every new node of `P` with every basis node: `|P|²` separating words
//!   at most, each asked once.

use std::collections::VecDeque;

use super::lsharp::LSharp;
use super::lstar::{LearnError, Membership, Stats, Teacher};
use super::tree::{NodeId, ROOT};
use crate::automata::dla::Dla;

/// A complete DFA over the learner's alphabet, made from a reference automaton, with its state
/// cover and a shortest separating word for every pair of states.
#[derive(Clone, Debug)]
pub struct Reference {
    letters: usize,
    /// `next[q * letters + a]`.
    next: Vec<u32>,
    accepting: Vec<bool>,
    /// `cover[q * letters + a]`: the access word of `δ(q, a)` is `q`'s access word followed
    /// by `a` (the edge is in the breadth-first spanning tree of `P`).
    cover: Vec<bool>,
    /// For a pair `p < q`: 0 if no word separates them, `u32::MAX` if the empty word does,
    /// else `a + 1` for the first letter of a shortest separating word.
    separate: Vec<u32>,
}

impl Reference {
    /// The reference made of `model` for a learner over `alphabet` (sorted): `None` when
    /// `model` has no initial state or is not deterministic.
    pub fn new(model: &Dla, alphabet: &[String]) -> Option<Reference> {
        if model.initial().len() != 1 || !model.is_deterministic() || model.has_tau() {
            return None;
        }
        let k = alphabet.len();
        let n = model.n_states();
        let sink = n as u32;
        let event_of: Vec<Option<u32>> = alphabet.iter().map(|a| model.event_index(a)).collect();
        let mut next = vec![sink; (n + 1) * k];
        let mut accepting = vec![false; n + 1];
        for (q, state) in model.states().iter().enumerate() {
            accepting[q] = model.is_accepting(crate::automata::dla::StateId(q as u32));
            for (a, e) in event_of.iter().enumerate() {
                let Some(e) = e else { continue };
                if let Some(t) = state.out.iter().find(|t| t.event == *e) {
                    next[q * k + a] = t.to.0;
                }
            }
        }
        // Rename so that the initial state is 0: the learner's root.
        let init = model.initial()[0].0;
        let swap = |q: u32| {
            if q == 0 {
                init
            } else if q == init {
                0
            } else {
                q
            }
        };
        let m = n + 1;
        let mut renamed = vec![0; m * k];
        let mut acc = vec![false; m];
        for q in 0..m as u32 {
            acc[swap(q) as usize] = accepting[q as usize];
            for a in 0..k {
                renamed[swap(q) as usize * k + a] = swap(next[q as usize * k + a]);
            }
        }
        let mut r =
            Reference { letters: k, next: renamed, accepting: acc, cover: vec![false; m * k], separate: Vec::new() };
        r.spanning_tree();
        r.separating_words();
        Some(r)
    }

    fn n_states(&self) -> usize {
        self.accepting.len()
    }

    /// The successor of `q` on `a`.
    pub fn step(&self, q: u32, a: u32) -> u32 {
        self.next[q as usize * self.letters + a as usize]
    }

    fn spanning_tree(&mut self) {
        let mut seen = vec![false; self.n_states()];
        seen[0] = true;
        let mut work = VecDeque::from([0u32]);
        while let Some(q) = work.pop_front() {
            for a in 0..self.letters as u32 {
                let t = self.step(q, a);
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    self.cover[q as usize * self.letters + a as usize] = true;
                    work.push_back(t);
                }
            }
        }
    }

    /// Shortest separating words of all pairs, by rounds: a pair is separated in round `i + 1`
    /// when a letter leads it to a pair separated in round `i` (Moore's algorithm, keeping the
    /// letter).
    fn separating_words(&mut self) {
        let n = self.n_states();
        let mut sep = vec![0u32; n * n];
        for p in 0..n {
            for q in 0..n {
                if self.accepting[p] != self.accepting[q] {
                    sep[p * n + q] = u32::MAX;
                }
            }
        }
        loop {
            let mut found = Vec::new();
            for p in 0..n {
                for q in p + 1..n {
                    if sep[p * n + q] != 0 {
                        continue;
                    }
                    for a in 0..self.letters as u32 {
                        let (x, y) = (self.step(p as u32, a) as usize, self.step(q as u32, a) as usize);
                        if sep[x * n + y] != 0 {
                            found.push((p, q, a + 1));
                            break;
                        }
                    }
                }
            }
            if found.is_empty() {
                break;
            }
            for (p, q, a) in found {
                sep[p * n + q] = a;
                sep[q * n + p] = a;
            }
        }
        self.separate = sep;
    }

    /// A shortest word that separates `p` and `q`, if any.
    pub fn separating(&self, p: u32, q: u32) -> Option<Vec<u32>> {
        let n = self.n_states();
        let (mut p, mut q) = (p as usize, q as usize);
        let mut w = Vec::new();
        loop {
            match self.separate[p * n + q] {
                0 => return None,
                u32::MAX => return Some(w),
                a => {
                    w.push(a - 1);
                    p = self.step(p as u32, a - 1) as usize;
                    q = self.step(q as u32, a - 1) as usize;
                }
            }
        }
    }

    fn in_cover(&self, q: u32, a: u32) -> bool {
        self.cover[q as usize * self.letters + a as usize]
    }
}

impl LSharp {
    /// An L# learner for a target that the reference model `reference` (e.g. the assumption
    /// learned for an old version) is expected to resemble: the tree is rebuilt from the
    /// reference's state cover and separating words, and the matching rules run in every
    /// [`LSharp::close`]. Without a usable reference (not deterministic), a plain L# learner.
    /// The caller closes the learner as usual.
    pub fn adaptive(
        alphabet: Vec<String>,
        prefix_closed: bool,
        reference: &Dla,
        oracle: &mut dyn Membership,
    ) -> LSharp {
        let mut l = LSharp::new(alphabet, prefix_closed);
        let Some(r) = Reference::new(reference, l.alphabet()) else {
            return l;
        };
        l.reference = Some(std::sync::Arc::new(r));
        l.rebuild(oracle);
        l
    }

    /// Rebuilding: the nodes of the reference's state cover, in breadth-first order, are
    /// asked the separating words against every basis node and promoted when apart from all.
    fn rebuild(&mut self, oracle: &mut dyn Membership) {
        let Some(r) = self.reference.clone() else { return };
        self.ask(ROOT, &[], oracle);
        // The reference state of each basis node (its word is in the cover).
        let mut state_of: Vec<u32> = vec![0];
        let letters = self.alphabet().len() as u32;
        let mut i = 0;
        while i < self.basis.len() {
            if oracle.stopped() {
                return;
            }
            let (b, rb) = (self.basis[i], state_of[i]);
            for a in 0..letters {
                if !r.in_cover(rb, a) {
                    continue;
                }
                let rf = r.step(rb, a);
                let (f, _) = self.ask(b, &[a], oracle);
                for (j, &rj) in state_of.iter().enumerate() {
                    let other = self.basis[j];
                    if self.tree.apart(f, other) {
                        continue;
                    }
                    let Some(sep) = r.separating(rf, rj) else { continue };
                    self.ask(f, &sep, oracle);
                    self.ask(other, &sep, oracle);
                }
                if self.basis.iter().all(|&x| self.tree.apart(f, x)) {
                    self.push_basis(f);
                    state_of.push(rf);
                }
            }
            i += 1;
        }
    }

    /// Per basis node, the reference states that agree with the most answers of its subtree;
    /// `None` when the oracle stops the learner first (the walks are the costly part of
    /// adaptive L#, and they ask nothing, so they look at [`Membership::stopped`] themselves).
    fn matching(&self, r: &Reference, oracle: &mut dyn Membership) -> Option<Vec<Vec<u32>>> {
        let prefix_closed = self.tree.prefix_closed();
        self.basis
            .iter()
            .map(|&b| {
                let mut score = vec![0usize; r.n_states()];
                for (s, slot) in score.iter_mut().enumerate() {
                    if oracle.stopped() {
                        return None;
                    }
                    let mut work = vec![(b, s as u32)];
                    while let Some((n, q)) = work.pop() {
                        if let Some(out) = self.tree.out(n) {
                            *slot += usize::from(out == r.accepting[q as usize]);
                            if prefix_closed && !out {
                                continue;
                            }
                        }
                        for &(a, c) in self.tree.children(n) {
                            work.push((c, r.step(q, a)));
                        }
                    }
                }
                let best = score.iter().copied().max().unwrap_or(0);
                Some((0..r.n_states() as u32).filter(|&s| score[s as usize] == best).collect())
            })
            .collect()
    }

    /// A word `w` with an answer below `n` that reference state `q` answers differently.
    fn disagreement(&self, r: &Reference, n: NodeId, q: u32) -> Option<Vec<u32>> {
        let mut work = VecDeque::from([(n, q, Vec::new())]);
        while let Some((m, s, w)) = work.pop_front() {
            if let Some(out) = self.tree.out(m) {
                if out != r.accepting[s as usize] {
                    return Some(w);
                }
                if self.tree.prefix_closed() && !out {
                    continue;
                }
            }
            for &(a, c) in self.tree.children(m) {
                let mut w2 = w.clone();
                w2.push(a);
                work.push_back((c, r.step(s, a), w2));
            }
        }
        None
    }

    /// Match refinement and match separation; whether they asked anything.
    pub(super) fn apply_matching_rules(&mut self, oracle: &mut dyn Membership) -> bool {
        let Some(r) = self.reference.clone() else { return false };
        let asked = self.stats.membership;
        let Some(matches) = self.matching(&r, oracle) else { return false };
        // Match refinement: one separating word per basis node matched ambiguously.
        for (q, m) in matches.iter().enumerate() {
            let b = self.basis[q];
            'pairs: for (x, &s) in m.iter().enumerate() {
                for &t in &m[x + 1..] {
                    let Some(sep) = r.separating(s, t) else { continue };
                    if self.tree.walk(b, &sep).and_then(|n| self.tree.out(n)).is_none() {
                        self.ask(b, &sep, oracle);
                        break 'pairs;
                    }
                }
            }
        }
        if self.stats.membership > asked {
            return true;
        }
        // Match separation: a frontier node whose reference state no basis node matches.
        let mut matched = vec![false; r.n_states()];
        for m in &matches {
            if let [s] = m[..] {
                matched[s as usize] = true;
            }
        }
        for i in 0..self.frontier.len() {
            if oracle.stopped() {
                return false;
            }
            let (f, ref cands) = self.frontier[i];
            let cands = cands.clone();
            let Some((parent, a)) = self.tree.parent(f) else { continue };
            let Some(p) = self.basis_of(parent) else { continue };
            for &s in &matches[p as usize] {
                let t = r.step(s, a);
                if matched[t as usize] {
                    continue;
                }
                for &c in &cands {
                    if self.disagreement(&r, f, t).is_some() {
                        break;
                    }
                    let Some(w) = self.disagreement(&r, self.basis[c as usize], t) else { continue };
                    if self.tree.walk(f, &w).and_then(|n| self.tree.out(n)).is_none() {
                        self.ask(f, &w, oracle);
                    }
                }
            }
        }
        self.stats.membership > asked
    }
}

/// Learns the target of `teacher` with adaptive L#, `reference` as the reference model.
pub fn learn(
    alphabet: Vec<String>,
    teacher: &mut dyn Teacher,
    prefix_closed: bool,
    reference: &Dla,
) -> Result<(Dla, Stats), LearnError> {
    let mut learner = LSharp::adaptive(alphabet, prefix_closed, reference, teacher);
    learner.close(teacher);
    loop {
        if teacher.stopped() {
            return Err(LearnError::Stopped);
        }
        let h = learner.hypothesis();
        match teacher.candidate(&h) {
            None => return Ok((h, learner.stats)),
            Some(cex) => learner.refine(&cex, teacher)?,
        }
    }
}
