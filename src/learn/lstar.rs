//! L* (Angluin 1987) with the counterexample processing of Rivest and Schapire (1993), as
//! paper 000 Section 4.1 uses it, plus two alternatives: the suffix search of paper 002
//! (Algorithm 3) and adding every suffix (Maler and Pnueli 1995).
//!
//! The learner is driven step by step ([`Learner::close`], [`Learner::hypothesis`],
//! [`Learner::refine`]) so that a caller can interleave its own checks, as the assume-guarantee
//! teachers and DynamicCheck (paper 003 Fig. 3) do; [`learn`] runs the whole loop.
//!
//! Membership answers go through a cache (paper 002 Algorithm 4); for a prefix-closed target,
//! a word with a rejected prefix is rejected without asking (paper 000 Section 5.2).
//! [`Learner::revalidate`] re-asks every entry for a new target language and restores the
//! invariants (dynamic L*, paper 003 Section 5.1, Theorem 2).
//!
//! Invariants: S is prefix-closed and its rows are pairwise distinct; E contains λ and is
//! suffix-closed for the Rivest–Schapire and all-suffixes modes.
//!
//! Known weakness: rows are compared as vectors; the table is not stored as a tree, so memory
//! grows with |S ∪ S·Σ| × |E|.

use crate::util::HashMap;

use super::table::{Table, Word};
use crate::automata::dla::{Builder, Dla, StateId};

/// Answers membership queries.
pub trait Membership {
    /// Whether `word` is in the target language.
    fn member(&mut self, word: &[String]) -> bool;

    /// Whether the word of letter indices into `alphabet` (the learner's sorted alphabet) is in
    /// the target language. Oracles that know the alphabet answer without building names.
    fn member_indexed(&mut self, alphabet: &[String], word: &[u32]) -> bool {
        let names: Vec<String> = word.iter().map(|&a| alphabet[a as usize].clone()).collect();
        self.member(&names)
    }

    /// The answers for every prefix of the word of letter indices into `alphabet`: entry `i`
    /// is whether `word[..i]` is in the target language (`word.len() + 1` entries). This is
    /// an *output query* in the sense of AALpy and the L# paper: one reset, one run of the
    /// word, an answer after every letter. The default asks prefix by prefix, so it is correct
    /// for every oracle but costs `word.len() + 1` queries; an oracle that answers all
    /// prefixes in one run overrides it and says so with [`Membership::answers_prefixes`].
    fn member_prefixes_indexed(&mut self, alphabet: &[String], word: &[u32]) -> Vec<bool> {
        (0..=word.len()).map(|i| self.member_indexed(alphabet, &word[..i])).collect()
    }

    /// Whether [`Membership::member_prefixes_indexed`] costs one query (one run of the word)
    /// rather than one per prefix. Learners ask prefix queries only of an oracle that says so,
    /// so that a counted query stays one unit of the oracle's work. `false` by default.
    fn answers_prefixes(&self) -> bool {
        false
    }

    /// An adaptive output query: runs the word of letter indices into `alphabet`, then asks
    /// `next` for one more letter at a time, giving it the answer after the letters run so
    /// far (first the answer for `word`), until `next` says `None`. Returns the answers for
    /// every prefix of the whole run (`word` and the letters `next` chose). This is AALpy's
    /// `adaptive_query` (the paper's adaptive distinguishing sequences). The default asks
    /// [`Membership::member_prefixes_indexed`] and then one word per letter; an oracle that
    /// runs it all in one run overrides it and says so with
    /// [`Membership::answers_adaptively`].
    fn member_adaptive_indexed(
        &mut self,
        alphabet: &[String],
        word: &[u32],
        next: &mut dyn FnMut(bool) -> Option<u32>,
    ) -> Vec<bool> {
        let mut w = word.to_vec();
        let mut answers = self.member_prefixes_indexed(alphabet, &w);
        while let Some(&last) = answers.last()
            && let Some(a) = next(last)
        {
            w.push(a);
            answers.push(self.member_indexed(alphabet, &w));
        }
        answers
    }

    /// Whether [`Membership::member_adaptive_indexed`] costs one query (one run). Learners
    /// ask adaptive queries only of an oracle that says so. `false` by default.
    fn answers_adaptively(&self) -> bool {
        false
    }

    /// Whether the learner must stop now: the answers can no longer be used (the run's
    /// deadline passed). A learner that sees `true` returns from its loops as soon as it can,
    /// leaving itself in no state fit for use; whoever drives it drops it. Learners ask this
    /// between steps of their own work that ask nothing (matching, closing, re-validating), so
    /// that a stop does not wait for the next query. Never stops by default.
    fn stopped(&mut self) -> bool {
        false
    }
}

/// A minimally adequate teacher: membership and candidate (equivalence) queries.
pub trait Teacher: Membership {
    /// `None` if the candidate's language is the target, else a word in the symmetric
    /// difference.
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>>;
}

/// How counterexamples become new table entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CexMode {
    /// Rivest–Schapire binary search for one distinguishing suffix (the default).
    #[default]
    RivestSchapire,
    /// Paper 002 Algorithm 3: the shortest suffix whose addition makes the table not closed.
    SuffixSearch,
    /// Every suffix of the counterexample (Maler–Pnueli).
    AllSuffixes,
}

/// Counts of the work a learner did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Membership queries the teacher answered. A prefix query
    /// ([`Membership::member_prefixes_indexed`]) counts once, like one of AALpy's queries.
    pub membership: usize,
    /// Letters of the membership queries the teacher answered (AALpy's `num_steps`).
    pub symbols: usize,
    /// Answers found in the cache.
    pub cached: usize,
    /// Answers given by the prefix-closure shortcut.
    pub shortcut: usize,
    /// Candidates produced.
    pub candidates: usize,
    /// Counterexamples processed.
    pub counterexamples: usize,
}

/// An L* learner over a fixed alphabet.
#[derive(Clone, Debug)]
pub struct Learner {
    table: Table,
    mode: CexMode,
    prefix_closed: bool,
    /// Work done so far.
    pub stats: Stats,
}

/// Why a counterexample could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LearnError {
    /// The counterexample's membership agrees with the hypothesis.
    #[error("the counterexample `{0}` is not in the symmetric difference of the hypothesis and the target")]
    NotACounterexample(String),
    /// A letter is outside the alphabet.
    #[error("`{0}` is not in the learner's alphabet")]
    UnknownLetter(String),
    /// The counterexample changed neither the rows nor the columns: the table's answers
    /// disagree with the target (a table taken from elsewhere without re-validation).
    #[error("the counterexample `{0}` did not change the table: its answers disagree with the target")]
    NoProgress(String),
    /// The teacher stopped the learner ([`Membership::stopped`]) before it had a hypothesis.
    #[error("the teacher stopped the learner")]
    Stopped,
}

impl Learner {
    /// A learner with the initial table `S = E = {λ}`.
    pub fn new(mut alphabet: Vec<String>, mode: CexMode, prefix_closed: bool) -> Learner {
        alphabet.sort();
        alphabet.dedup();
        Learner { table: Table::new(alphabet), mode, prefix_closed, stats: Stats::default() }
    }

    /// A learner that starts from a previous table (which the caller re-validates when the
    /// target changed).
    pub fn from_table(table: Table, mode: CexMode, prefix_closed: bool) -> Learner {
        Learner { table, mode, prefix_closed, stats: Stats::default() }
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &[String] {
        &self.table.alphabet
    }

    fn letters(&self, word: &[String]) -> Result<Word, LearnError> {
        word.iter()
            .map(|l| {
                self.table.alphabet.binary_search(l).map(|i| i as u32).map_err(|_| LearnError::UnknownLetter(l.clone()))
            })
            .collect()
    }

    /// The answer for `w`, from the cache, the prefix-closure shortcut or the teacher.
    fn ask(&mut self, w: &[u32], oracle: &mut dyn Membership) -> bool {
        if let Some(&b) = self.table.answers.get(w) {
            self.stats.cached += 1;
            return b;
        }
        if self.prefix_closed && (0..w.len()).any(|k| self.table.answers.get(&w[..k]) == Some(&false)) {
            self.stats.shortcut += 1;
            self.table.answers.insert(w.to_vec(), false);
            return false;
        }
        self.stats.membership += 1;
        self.stats.symbols += w.len();
        let b = oracle.member_indexed(&self.table.alphabet, w);
        self.table.answers.insert(w.to_vec(), b);
        b
    }

    fn fill(&mut self, oracle: &mut dyn Membership) {
        for w in self.table.needed() {
            if oracle.stopped() {
                return;
            }
            self.ask(&w, oracle);
        }
    }

    /// The rows of S, each with its index in S (rows of S are distinct).
    fn row_index(&self) -> HashMap<Vec<bool>, usize> {
        self.table.s.iter().enumerate().map(|(i, s)| (self.table.row(s).expect("filled"), i)).collect()
    }

    /// The first extension in `S·Σ` whose row is not a row of S, if any.
    fn unclosed(&self) -> Option<Word> {
        let rows = self.row_index();
        self.table
            .rows_and_extensions()
            .into_iter()
            .skip(self.table.s.len())
            .find(|u| !rows.contains_key(&self.table.row(u).expect("filled")))
    }

    /// Fills the table and adds rows until it is closed (or the oracle stops it:
    /// [`Membership::stopped`]).
    pub fn close(&mut self, oracle: &mut dyn Membership) {
        loop {
            self.fill(oracle);
            if oracle.stopped() {
                return;
            }
            match self.unclosed() {
                Some(u) => self.table.s.push(u),
                None => return,
            }
        }
    }

    /// The index in S of the row equal to `u`'s (the table must be closed).
    fn state_of(&self, rows: &HashMap<Vec<bool>, usize>, u: &[u32]) -> usize {
        rows[&self.table.row(u).expect("filled")]
    }

    /// The state the table's automaton reaches on `w`, as an index into S.
    fn run(&self, w: &[u32]) -> usize {
        let rows = self.row_index();
        let mut at = 0;
        for &a in w {
            at = self.state_of(&rows, &Table::concat(&self.table.s[at], &[a]));
        }
        at
    }

    /// The candidate of the closed table: one state per row of S, accepting where `T(s) = 1`.
    /// For a prefix-closed target the rejecting states (whose extensions are all rejected) are
    /// left out, which makes the candidate a safety LTS.
    pub fn hypothesis(&mut self) -> Dla {
        self.stats.candidates += 1;
        let mut b = Builder::new();
        for a in &self.table.alphabet {
            b.add_event(a);
        }
        let accepting: Vec<bool> = self.table.s.iter().map(|s| self.table.answers[s]).collect();
        let keep = |i: usize| !self.prefix_closed || accepting[i];
        let ids: Vec<Option<StateId>> =
            (0..self.table.s.len()).map(|i| keep(i).then(|| b.add_state(&[], accepting[i]))).collect();
        let rows = self.row_index();
        for (i, s) in self.table.s.iter().enumerate() {
            let Some(from) = ids[i] else { continue };
            for (a, name) in self.table.alphabet.iter().enumerate() {
                let j = self.state_of(&rows, &Table::concat(s, &[a as u32]));
                if let Some(to) = ids[j] {
                    b.add_transition(from, name, to);
                }
            }
        }
        if let Some(&Some(init)) = ids.first() {
            b.set_initial(init);
        }
        b.build()
    }

    /// Processes a counterexample (a word in the symmetric difference of the last hypothesis
    /// and the target), then closes the table again.
    pub fn refine(&mut self, cex: &[String], oracle: &mut dyn Membership) -> Result<(), LearnError> {
        let w = self.letters(cex)?;
        self.stats.counterexamples += 1;
        let hyp = self.table.answers.get(&self.table.s[self.run(&w)]).copied().unwrap_or(false);
        if self.ask(&w, oracle) == hyp {
            return Err(LearnError::NotACounterexample(cex.join(" ")));
        }
        let suffixes: Vec<Word> = match self.mode {
            CexMode::RivestSchapire => vec![self.rivest_schapire(&w, oracle)],
            CexMode::AllSuffixes => (0..w.len()).map(|k| w[k..].to_vec()).collect(),
            CexMode::SuffixSearch => {
                vec![self.suffix_search(&w, oracle).unwrap_or_else(|| self.rivest_schapire(&w, oracle))]
            }
        };
        let size = (self.table.s.len(), self.table.e.len());
        for e in suffixes {
            if !self.table.e.contains(&e) {
                self.table.e.push(e);
            }
        }
        self.close(oracle);
        if oracle.stopped() {
            return Ok(());
        }
        // With answers of the target, a counterexample always adds a row or a column.
        if (self.table.s.len(), self.table.e.len()) == size {
            return Err(LearnError::NoProgress(cex.join(" ")));
        }
        Ok(())
    }

    /// The suffix `w[i+1..]` for an `i` where replacing the prefix `w[..=i]` by its access word
    /// changes the answer (binary search over `α(i) = T(access(w[..i]) · w[i..])`).
    fn rivest_schapire(&mut self, w: &[u32], oracle: &mut dyn Membership) -> Word {
        let alpha = |me: &mut Learner, oracle: &mut dyn Membership, i: usize| -> bool {
            let access = me.table.s[me.run(&w[..i])].clone();
            me.ask(&Table::concat(&access, &w[i..]), oracle)
        };
        let (mut lo, mut hi) = (0, w.len());
        let a_lo = alpha(self, oracle, lo);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if alpha(self, oracle, mid) == a_lo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        w[hi..].to_vec()
    }

    /// Paper 002 Algorithm 3: the shortest suffix of `w` that, added to E, leaves the table not
    /// closed.
    fn suffix_search(&mut self, w: &[u32], oracle: &mut dyn Membership) -> Option<Word> {
        for len in 1..=w.len() {
            let e = w[w.len() - len..].to_vec();
            if self.table.e.contains(&e) {
                continue;
            }
            self.table.e.push(e.clone());
            self.fill(oracle);
            let open = self.unclosed().is_some();
            self.table.e.pop();
            if open {
                return Some(e);
            }
        }
        None
    }

    /// Dynamic L*: re-asks every entry of the table for a new target, then drops rows of S that
    /// no longer differ from an earlier row (with the rows that extend them, to keep S
    /// prefix-closed). The table is then valid for the new target (paper 003 Definition 8) and
    /// [`Learner::close`] continues from it (Theorem 2).
    pub fn revalidate(&mut self, oracle: &mut dyn Membership) {
        let keep: Vec<Word> = self.table.needed();
        self.table.answers.clear();
        for w in &keep {
            if oracle.stopped() {
                return;
            }
            self.ask(w, oracle);
        }
        let mut kept: Vec<Word> = Vec::new();
        let mut rows: Vec<Vec<bool>> = Vec::new();
        for s in self.table.s.clone() {
            let parent_kept = s.is_empty() || kept.contains(&s[..s.len() - 1].to_vec());
            let row = self.table.row(&s).expect("re-asked");
            if parent_kept && (s.is_empty() || !rows.contains(&row)) {
                kept.push(s);
                rows.push(row);
            }
        }
        self.table.s = kept;
    }
}

/// Learns the target of `teacher` from scratch.
pub fn learn(
    alphabet: Vec<String>,
    teacher: &mut dyn Teacher,
    mode: CexMode,
    prefix_closed: bool,
) -> Result<(Dla, Stats), LearnError> {
    let mut learner = Learner::new(alphabet, mode, prefix_closed);
    let mut membership = TeacherMembership(teacher);
    learner.close(&mut membership);
    loop {
        if membership.stopped() {
            return Err(LearnError::Stopped);
        }
        let h = learner.hypothesis();
        match membership.0.candidate(&h) {
            None => return Ok((h, learner.stats)),
            Some(cex) => learner.refine(&cex, &mut membership)?,
        }
    }
}

struct TeacherMembership<'a>(&'a mut dyn Teacher);

impl Membership for TeacherMembership<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        self.0.member(word)
    }

    fn member_indexed(&mut self, alphabet: &[String], word: &[u32]) -> bool {
        self.0.member_indexed(alphabet, word)
    }

    fn member_prefixes_indexed(&mut self, alphabet: &[String], word: &[u32]) -> Vec<bool> {
        self.0.member_prefixes_indexed(alphabet, word)
    }

    fn answers_prefixes(&self) -> bool {
        self.0.answers_prefixes()
    }

    fn member_adaptive_indexed(
        &mut self,
        alphabet: &[String],
        word: &[u32],
        next: &mut dyn FnMut(bool) -> Option<u32>,
    ) -> Vec<bool> {
        self.0.member_adaptive_indexed(alphabet, word, next)
    }

    fn answers_adaptively(&self) -> bool {
        self.0.answers_adaptively()
    }

    fn stopped(&mut self) -> bool {
        self.0.stopped()
    }
}

/// Membership through a closure.
pub struct FnMembership<F: FnMut(&[String]) -> bool>(pub F);

impl<F: FnMut(&[String]) -> bool> Membership for FnMembership<F> {
    fn member(&mut self, word: &[String]) -> bool {
        (self.0)(word)
    }
}

impl Learner {
    /// Words asked so far with their answers (for tests and reports).
    pub fn answers(&self) -> &HashMap<Word, bool> {
        &self.table.answers
    }
}
