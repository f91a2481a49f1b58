//! The observation table of L* (Angluin 1987): a prefix-closed set S of access words (the rows
//! that are states), a suffix set E (the columns), and the membership of every word in
//! `(S ∪ S·Σ)·E`, kept in a cache of all answers.
//!
//! Invariant: the rows of S are pairwise distinct (counterexamples add suffixes to E, never
//! prefixes to S, so the table stays consistent, as with Rivest and Schapire 1993).
//!
//! The table serialises with a format version, so that a later run (dynamic L*, paper 003
//! Section 5.1) can start from it after re-validation.

use crate::util::HashMap;

use serde::{Deserialize, Serialize};

/// The format version of serialised tables; a table of another version is not reused.
pub const TABLE_FORMAT: u32 = 1;

/// A word over the learner's alphabet, as letter indices.
pub type Word = Vec<u32>;

/// An observation table with its membership answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Format version ([`TABLE_FORMAT`]).
    pub format: u32,
    /// The alphabet Σ, sorted.
    pub alphabet: Vec<String>,
    /// Access words, prefix-closed, in the order they were added; `S[0]` is λ.
    pub s: Vec<Word>,
    /// Distinguishing suffixes; `E[0]` is λ.
    pub e: Vec<Word>,
    /// Membership answers for words of `(S ∪ S·Σ)·E` and every other word asked.
    #[serde(with = "answers")]
    pub answers: HashMap<Word, bool>,
}

mod answers {
    //! Answers serialise as a sorted list of pairs (JSON maps need string keys).
    use crate::util::HashMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Word;

    pub fn serialize<S: Serializer>(map: &HashMap<Word, bool>, s: S) -> Result<S::Ok, S::Error> {
        let mut pairs: Vec<(&Word, &bool)> = map.iter().collect();
        pairs.sort();
        pairs.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<HashMap<Word, bool>, D::Error> {
        let pairs: Vec<(Word, bool)> = Vec::deserialize(d)?;
        Ok(pairs.into_iter().collect())
    }
}

impl Table {
    /// The initial table: `S = E = {λ}`, nothing asked.
    pub fn new(alphabet: Vec<String>) -> Table {
        Table { format: TABLE_FORMAT, alphabet, s: vec![vec![]], e: vec![vec![]], answers: HashMap::default() }
    }

    /// `u·v`.
    pub fn concat(u: &[u32], v: &[u32]) -> Word {
        let mut w = Vec::with_capacity(u.len() + v.len());
        w.extend_from_slice(u);
        w.extend_from_slice(v);
        w
    }

    /// The row of `u`: the answers for `u·e`, `e ∈ E`; `None` if one is missing.
    pub fn row(&self, u: &[u32]) -> Option<Vec<bool>> {
        self.e.iter().map(|e| self.answers.get(&Self::concat(u, e)).copied()).collect()
    }

    /// Every word whose answer the table needs: `(S ∪ S·Σ)·E`.
    pub fn needed(&self) -> Vec<Word> {
        let mut out = Vec::new();
        for u in self.rows_and_extensions() {
            for e in &self.e {
                out.push(Self::concat(&u, e));
            }
        }
        out
    }

    /// `S ∪ S·Σ`, S first.
    pub fn rows_and_extensions(&self) -> Vec<Word> {
        let mut out: Vec<Word> = self.s.clone();
        for u in &self.s {
            for a in 0..self.alphabet.len() as u32 {
                let ua = Self::concat(u, &[a]);
                if !self.s.contains(&ua) {
                    out.push(ua);
                }
            }
        }
        out
    }

    /// Whether the table has the shape the learner relies on: this format, a sorted alphabet
    /// without repeats, letters within it, `S` prefix-closed and starting with λ, `E` starting
    /// with λ. A table read from outside (the cache) is used only when it is well formed; its
    /// answers are re-validated anyway.
    pub fn well_formed(&self) -> bool {
        let letters = self.alphabet.len() as u32;
        let in_range = |w: &Word| w.iter().all(|&a| a < letters);
        self.format == TABLE_FORMAT
            && self.alphabet.windows(2).all(|w| w[0] < w[1])
            && self.s.first().is_some_and(Vec::is_empty)
            && self.e.first().is_some_and(Vec::is_empty)
            && self.s.iter().all(in_range)
            && self.e.iter().all(in_range)
            && self.answers.keys().all(in_range)
            && self.s.iter().all(|u| u.is_empty() || self.s.contains(&u[..u.len() - 1].to_vec()))
    }

    /// The words as text, `λ` for the empty word.
    pub fn word_text(&self, w: &[u32]) -> String {
        if w.is_empty() {
            "λ".to_string()
        } else {
            w.iter().map(|&a| self.alphabet[a as usize].as_str()).collect::<Vec<_>>().join(", ")
        }
    }
}

impl std::fmt::Display for Table {
    /// The table as paper 000 prints it: the rows of S, then every row of S·Σ (words of S
    /// included), one column per suffix.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cell = |b: Option<bool>| match b {
            Some(true) => "true",
            Some(false) => "false",
            None => "?",
        };
        let headers: Vec<String> = self.e.iter().map(|e| self.word_text(e)).collect();
        let widths: Vec<usize> = headers.iter().map(|h| h.chars().count().max(5)).collect();
        let line = |f: &mut std::fmt::Formatter<'_>, first: &str, cells: Vec<String>| -> std::fmt::Result {
            let cells: Vec<String> = cells.iter().zip(&widths).map(|(c, w)| format!("{c:w$}")).collect();
            writeln!(f, "{first:24} | {}", cells.join(" | ").trim_end())
        };
        line(f, "", headers.clone())?;
        let extensions: Vec<Word> =
            self.s.iter().flat_map(|u| (0..self.alphabet.len() as u32).map(move |a| Self::concat(u, &[a]))).collect();
        for (i, u) in self.s.iter().chain(&extensions).enumerate() {
            if i == self.s.len() {
                writeln!(f, "{}", "-".repeat(27 + widths.iter().map(|w| w + 3).sum::<usize>() - 3))?;
            }
            let cells =
                self.e.iter().map(|e| cell(self.answers.get(&Self::concat(u, e)).copied()).to_string()).collect();
            line(f, &self.word_text(u), cells)?;
        }
        Ok(())
    }
}
