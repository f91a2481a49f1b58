//! L# (Vaandrager, Garhewal, Rot and Wißmann, "A New Approach for Active Automata Learning
//! Based on Apartness", TACAS 2022), for DFAs as in Vaandrager and Sanders' "L# for DFAs":
//! the learner keeps every answer in an [`ObservationTree`] and reasons about *apartness*
//! (two words are apart when a common extension gets different answers) instead of filling
//! an observation table.
//!
//! The tree holds a *basis* (pairwise apart nodes, the states of the hypothesis, closed under
//! prefixes) and a *frontier* (the children of basis nodes outside the basis), and each
//! frontier node keeps the basis nodes it is not apart from. The rules, in the paper's order:
//! promotion (a frontier node apart from the whole basis joins it), extension (every basis node
//! gets every child asked), separation (a frontier node not apart from two basis nodes is asked
//! the shortest word that shows those two apart), equivalence (the hypothesis is checked against
//! the whole tree first, and only a hypothesis that agrees with every answer goes to the
//! teacher). Counterexamples are processed by the paper's binary search (`ProcCounterEx`),
//! which ends at a frontier node that it has made apart from the basis node it was identified
//! with.
//!
//! **Output queries.** An oracle that answers every prefix of a word in one run
//! ([`Membership::answers_prefixes`], [`Membership::member_prefixes_indexed`]; a DFA run or a
//! product run has them all) is asked that way: one query records the answer of every prefix
//! in the tree, as AALpy's L# does, and counts as one membership query plus its letters
//! ([`Stats::symbols`]). With such an oracle (and, when it also runs adaptive queries, with
//! the guided tail off: below), extension also asks each child of a basis node
//! followed by a witness of that basis node against another one of its answer, in the same run
//! (AALpy's `SepSeq` extension rule, [`LSharp::extension_witness`]), so that most new frontier
//! nodes come with an answer that tells candidates apart. An oracle that answers one word at a
//! time is asked one word at a time, as before, and extension asks the child alone.
//!
//! **Adaptive runs and the guided tail.** With an oracle that also runs adaptive queries
//! ([`Membership::answers_adaptively`]; the bench's teacher), every extension and separation
//! query is one adaptive run (`LSharp::ask_adaptive`) that ends with a *guided tail* of
//! [`LSharp::guided_tail`] letters ([`GUIDED_TAIL`], 100 by default): from the hypothesis
//! state of the basis node the run has identified its node with, each next letter is chosen
//! pseudo-randomly among those whose hypothesis transition leads to an accepting state
//! (prefix-closed mode; any letter otherwise), seeded by that state for the first
//! [`GUIDED_TAIL_SHARED`] letters (runs from nodes identified with the same state share them)
//! and by the number of queries so far after that (runs part ways and test more of the
//! hypothesis). Extension runs the child, then words that split the basis nodes still
//! agreeing with its answers (the ADS rule's choice, as separation does), then the tail;
//! separation runs its witness, then (the witness rule) the witnesses of the first two
//! candidates still agreeing with the run, or (the ADS rule) the rest of the ADS sequence,
//! then the tail; counterexample processing asks each word the tree does not answer as a run
//! that ends with the tail from the state the hypothesis reaches on it
//! (`LSharp::ask_tested`). A tail is a test of the hypothesis paid in letters, not in
//! queries (each of these runs is asked anyway, and counts once): where the target leaves the
//! hypothesis, the tree holds the difference, and a promotion or a tree refinement follows
//! without the teacher. A fixed pseudo-random tail
//! (still asked with an oracle that answers prefixes but not adaptively, [`PROBE_TAIL`]) is
//! rejected after a letter or two on a prefix-closed target, where most letters are
//! disabled; the guided one stays in the part the hypothesis accepts. Measured
//! (`benches/LEARNING.md`, section C, run 7): equivalence queries on pots2 552 → 62 (ADS rule),
//! peterson2 49 → 17, peterson3 1,154 → about 110, and at most 4 on every random target, with
//! fewer membership queries too on most targets; the runs are longer (up to 2.2x the letters)
//! and the time grows more than that (user time on pots2 3x to 5x). Run 9 (the witness
//! rule's continuation, the tails of counterexample processing, the walks that part ways):
//! both rules meet issue 15's query goals on all 12 targets of the bench.
//!
//! For a prefix-closed target the tree answers every extension of a rejected word and every
//! prefix of an accepted one without asking ([`ObservationTree`]); the hypothesis leaves out
//! its rejecting state, like [`super::lstar::Learner::hypothesis`].
//!
//! Invariants: basis nodes are pairwise apart and have known answers; every child of a basis
//! node is in the basis or the frontier once [`LSharp::close`] returns, and every frontier node
//! then has exactly one candidate; all answers in the tree come from the teacher or from
//! prefix closure.
//!
//! An adaptive run keeps its buffers between runs, records its answers on the nodes it walked
//! (not by a second walk of its word from the root), and picks each tail letter from a mask of
//! the letters allowed in its hypothesis state, computed once per state and run. The candidates
//! it tracks (all basis nodes, in extension) follow a planned letter once that letter's answer
//! is known, child and answer in one pass, so that a run that ends at a rejected answer (most
//! runs, on a prefix-closed target) does not walk them at all.
//!
//! Work is kept incremental where it was measured to matter: apartness is re-checked only from
//! the answers logged since the last settlement ([`ObservationTree::take_log`]), a path of new
//! answers at a time (one walk per basis or frontier node above it, not one per answer),
//! through a reverse index from basis nodes to the frontier nodes that have them as candidates,
//! one list per letter of those frontier nodes' children (a path through a basis node reads
//! only the list of its next letter, and a path is read only down to its first node outside
//! the basis, below which there is no basis or frontier node); the hypothesis's transitions
//! are updated when a candidate list changes. A promoted node skips the frontier nodes that
//! one level of answers shows apart from it (a bitset per letter and answer over the
//! frontier's children, `Incremental::child_bits`), as a new frontier node skips basis nodes
//! (`Incremental::sift`).
//!
//! Separation has two rules ([`Separation`]): the shortest word that shows the first two
//! candidates apart (the default), or the ADS rule, which asks the word of the tree that splits
//! all candidates best ([`ObservationTree::best_split`]) and chooses again after the answer, so
//! that the questions form an adaptive distinguishing sequence over the candidates. With an
//! oracle that runs adaptive queries ([`Membership::answers_adaptively`]) the whole sequence
//! is one query, as in the paper and AALpy: the run goes on from the node it has reached, with
//! the candidates that agree with every answer so far (`LSharp::ask_adaptive`); with any
//! other oracle each test of the sequence is one query. The witness rule, in an adaptive run,
//! goes on the same way with the shortest witness of the first two candidates still agreeing
//! with the run, so that it too identifies a node among three or more candidates in one query
//! where the tree allows (with one word per test it asks one witness, as before). The ADS rule
//! is not the default: with one word per test (the teachers of `check`) it asks fewer queries
//! on most targets but up to 6% more on some, and it costs time; with adaptive queries it asks
//! fewer than the witness rule on 9 of the 12 targets of the bench (`benches/LEARNING.md`,
//! section C, run 9), where both rules meet issue 15's query goals.
//!
//! The consistency check runs the hypothesis over the whole tree once, then only over what
//! changed ([`ObservationTree::disagreements_since`]: the subtrees below changed transitions,
//! new nodes and new answers; while the tree has fewer than `FULL_PASS_BELOW` nodes, one
//! plain pass, which costs less there than keeping the lists of nodes per state), and finds the first inconsistency in walk order by one descent
//! over the marked paths ([`ObservationTree::first_in_walk_order`]); a new frontier node skips
//! the basis nodes that one level of answers (its own, its children's) shows apart, from a
//! bitset per letter over the extended basis (`Incremental::sift`).
//!
//! Known weaknesses (measured in `benches/LEARNING.md`, section C, runs 9, 11, 13 and 16, "Time,
//! this session" and "Time (16a)"): settling new answers compares each frontier node below or beside them with its
//! candidates by walking the tree along the run (`differs_along`; with the other walks, about 30%
//! of the witness rule's time on pots2 in run 11; skipping the answers a new frontier node's
//! candidates were computed from was tried and gained nothing measurable); every walk's child
//! look-ups miss the cache on large trees (the node, with its letter mask, then an entry of the
//! shared child lists: 18% of the witness rule's samples on pots2 in run 13, most of them
//! settling's walks); a new frontier node is compared with every basis node that the sifting bits leave, and
//! a promoted node with every frontier node that the frontier's child bits leave (one level of
//! answers, no deeper index); the ADS search ([`ObservationTree::best_split`]) spends its node
//! budget on almost every call (24,000 calls on pots2 and random-n500-k10 against 1,400 and 1,900
//! for the witness rule, which uses it in extension, where it is still 15% of the witness rule's
//! instructions on random-n100-k10 in 16a's callgrind profile), which is most of why the ADS rule takes up to twice the
//! witness rule's time; branch and bound and per-node masks of the children's answers kept by
//! the tree make it cheaper with the same words (`benches/LEARNING.md`, "ADS search (15a)" and
//! "ADS search (15a2)"); cutting the budget changes which words are
//! asked, i.e. the counts. On the
//! 20-state targets the time is spread over the passes that every letter of a guided tail makes
//! (run 13, random-n20-k10: the adaptive runs about half, of which the ADS search in extension a
//! quarter and adding nodes another; settling a quarter; the witness search, the consistency
//! check and apartness 5% to 9% each): the tail's long runs put many answers into the tree at
//! once (each letter a node that is logged, settled and checked), which is what these walks pay
//! for. In CPU time subst's L# takes 0.040 to 0.285 (witness rule) and 0.052 to 0.294 (ADS rule)
//! of AALpy's fastest learner on the bench's targets (run 16, medians of three runs at a load of 7
//! to 15), the issue's 1/10 on 2 of 12 (witness rule: random-n100-k3, random-n500-k3; peterson2
//! at 0.104, peterson3 at 0.092 in run 15 and 0.118 in run 16) and 1 of 12 (ADS rule:
//! random-n500-k3); without the bench's equivalence oracle on both sides (in Python on AALpy's,
//! most of AALpy KV's time on the large targets) 0.14 to 0.59 and 0.18 to 0.78, against AALpy's
//! KV. On the 20-state targets the gap is in the letters, not their cost: per letter asked L# is 8x
//! to 11x cheaper than AALpy's KV, but its guided tails (which keep its equivalence queries at 1
//! against KV's 19 to 21) ask 1.3x to 3.2x KV's letters; with these letters, 1/10 on
//! random-n20-k6 and random-n20-k10 would need the rules' own work per letter (about 1,070 to
//! 1,360 instructions, no part above 27%: settling, the ADS search of extension, witnesses, the
//! consistency check, allocation) cut about five-fold (run 16 and "Time (16a)"; since 16a an
//! adaptive run's candidates follow a letter only once its answer is known, 1% to 3% fewer
//! instructions). The query counts move by
//! a few percent with the tail's length and seed (pseudo-random walks): a goal met by 1% is met by
//! chance as much as by design. In 15m's run 9 the witness rule meets the membership goal on the
//! 100-state random targets by 0.4% to 1.3% only, and the equivalence counts on pots2 range from
//! 44 to 76 (AALpy L\*'s 68) across the variants measured there.

use super::adaptive::Reference;
use super::lstar::{LearnError, Membership, Stats, Teacher};
use super::tree::{HypothesisStates, NodeId, ObservationTree, ROOT, WalkMarks};
use crate::automata::dla::{Builder, Dla, StateId};

/// An L# learner over a fixed alphabet.
#[derive(Clone, Debug)]
pub struct LSharp {
    alphabet: Vec<String>,
    pub(super) tree: ObservationTree,
    /// Basis nodes; index 0 is the root.
    pub(super) basis: Vec<NodeId>,
    /// Per node: its index in `basis`, or [`NONE`].
    basis_index: Vec<u32>,
    /// Frontier nodes with the basis indices they are not apart from.
    pub(super) frontier: Vec<(NodeId, Vec<u32>)>,
    /// Per node: its index in `frontier`, or [`NONE`].
    frontier_index: Vec<u32>,
    /// The reference model of adaptive L# ([`super::adaptive`]), when there is one.
    pub(super) reference: Option<std::sync::Arc<Reference>>,
    /// The hypothesis of the last [`LSharp::close`], until something changes.
    closed: Option<Transitions>,
    /// Basis nodes (a prefix of `basis`) whose children have all been asked.
    extended: usize,
    /// What is kept up to date between rounds (boxed: the learner is moved around whole).
    inc: Box<Incremental>,
    /// How a frontier node with several candidates is separated.
    pub separation: Separation,
    /// Whether extension asks each child of a basis node followed by a witness in one run
    /// (`LSharp::extension_probe`), when the oracle answers every prefix; with the guided tail
    /// ([`LSharp::guided_tail`]), whether the child's adaptive run goes on with the words
    /// that identify it among the basis nodes before its tail. On by default.
    pub extension_witness: bool,
    /// How many pseudo-random letters follow the witness in that run ([`PROBE_TAIL`] by
    /// default; 0 for none).
    pub probe_tail: usize,
    /// With an oracle that runs adaptive queries ([`Membership::answers_adaptively`]): how
    /// many letters that follow the hypothesis end every extension and separation run
    /// (`LSharp::ask_adaptive`; [`GUIDED_TAIL`] by default). 0 turns this off: extension
    /// and separation then ask as with a prefix oracle (the fixed tail of
    /// [`LSharp::probe_tail`], one word per witness).
    pub guided_tail: usize,
    /// Work done so far.
    pub stats: Stats,
    /// Hypotheses refined because they contradicted an answer already in the tree (an old
    /// counterexample, or any other answer) instead of going to the teacher.
    pub tree_refinements: usize,
}

/// The incremental bookkeeping of an [`LSharp`].
#[derive(Clone, Debug, Default)]
struct Incremental {
    /// Per basis index `q` and letter `a`, at `q * rev_width + a % rev_width`: the frontier
    /// nodes that have `q` among their candidates and a child on `a` (a superset: an entry
    /// whose node left the frontier or dropped `q` stays until a scan of its list reaches it).
    /// A new path through basis node `q` can only make `q` apart from the frontier nodes with
    /// a child on the path's next letter: the scan reads their list only.
    rev: Vec<Vec<NodeId>>,
    /// The lists per basis index: the number of letters, at most 64.
    rev_width: usize,
    /// The nodes below this one (in creation order) have been looked at for new children of
    /// frontier nodes, which join the lists of their candidates ([`LSharp::settle`]).
    rev_seen: usize,
    /// The hypothesis's state of every node, kept between consistency checks
    /// ([`ObservationTree::disagreements_since`]).
    states: HypothesisStates,
    /// The buffer of [`ObservationTree::first_in_walk_order`].
    marks: WalkMarks,
    /// The buffers of [`LSharp::ask_adaptive`].
    adaptive: AdaptiveBuffers,
    /// The nodes of the last adaptive run, root first.
    run_nodes: Vec<NodeId>,
    /// A copy of a frontier node's candidates for the adaptive run that separates them.
    cands: Vec<u32>,
    /// The buffers of [`LSharp::settle`]: a path's nodes, letters and new answers.
    path: (Vec<NodeId>, Vec<u32>, Vec<u8>),
    /// Per node, the last settlement (`epoch`) that logged its answer.
    stamp: Vec<u32>,
    /// The number of settlements with new answers so far.
    epoch: u32,
    /// Candidates dropped so far (progress between promotions).
    dropped: usize,
    /// Frontier nodes whose candidates changed (or that were added) since they last had
    /// exactly one: a superset of those with none (to promote) or several (to separate).
    changed: Vec<NodeId>,
    /// The basis indices of the rejected (`[0]`) and accepted (`[1]`) basis nodes, for the
    /// first `by_out_upto` basis nodes.
    by_out: [Vec<u32>; 2],
    by_out_upto: usize,
    /// A sifting table over the extended basis nodes (the first `sift_upto` basis indices,
    /// a prefix of the extended ones): per letter `a`, the bits of the basis indices whose
    /// child on `a` is rejected (`sift[2 * a]`) and accepted (`sift[2 * a + 1]`), and at the
    /// end (`sift[2 * k]`, `sift[2 * k + 1]`) those of the basis nodes' own answers; 64
    /// indices a word. A new frontier node is apart from every basis node whose bit for one
    /// of its own known answers (its word, or a child's) is the other one, which these words
    /// show without walking the two subtrees ([`LSharp::candidates_of`]).
    sift: Vec<Vec<u64>>,
    sift_upto: usize,
    /// Per letter `a`, the frontier indices with a child on `a` that is rejected
    /// (`child_bits[2 * a]`) or accepted (`child_bits[2 * a + 1]`), 64 a word: a promoted node
    /// is apart from every frontier node with a bit for one of its own children's letters and
    /// the other answer, which these words show without walking the two subtrees. A set bit
    /// is a fact (answers never change, bits move with `swap_remove`); a missing one only
    /// means the subtrees are walked (answers not logged, e.g. implied below a rejected node).
    child_bits: Vec<Vec<u64>>,
    /// Per basis index, whether its node is accepted, for a prefix of the basis whose answers
    /// are known (`LSharp::sync_accepting`): the guided tail reads it once per letter.
    accepting: Vec<bool>,
    /// Frontier nodes by answer (rejected `[0]`, accepted `[1]`; a node without one in both),
    /// so that a promoted node is compared only with those of its own answer (the others are
    /// apart from it). A superset: promoted nodes are dropped lazily.
    frontier_by_out: [Vec<NodeId>; 2],
    /// The hypothesis kept up to date: `next[q * k + a]` is the basis index of basis node
    /// `q`'s child on `a` or of that child's first candidate ([`NONE`] if it has none), for
    /// the extended basis nodes.
    next: Vec<u32>,
}

/// The buffers of [`LSharp::ask_adaptive`], kept between runs.
#[derive(Clone, Debug, Default)]
struct AdaptiveBuffers {
    /// The word of the run's start node.
    prefix: Vec<u32>,
    /// The letters the run chose after it.
    chosen: Vec<u32>,
    /// The letters planned and not asked yet.
    plan: std::collections::VecDeque<u32>,
    /// The candidates still agreeing with the run, with their nodes below the same letters.
    tracked: Vec<(u32, NodeId)>,
    /// The tracked candidates' nodes, for the search of the next word.
    nodes: Vec<NodeId>,
    /// The node reached after each chosen letter.
    path: Vec<NodeId>,
    /// Per basis index: the run (`call`) that last computed the mask of the letters the tail
    /// may take from that state, and the mask (alphabets of at most 64 letters).
    tail_ok: Vec<(u32, u64)>,
    /// The allowed letters of a state, for larger alphabets.
    oks: Vec<usize>,
    /// The number of runs so far (wrapping; 0 is never a run's).
    call: u32,
}

/// How L# picks the query that separates a frontier node's candidates (the separation rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Separation {
    /// A shortest word that shows the first two candidates apart.
    #[default]
    Witness,
    /// The ADS rule: for three or more candidates, the word of the tree that splits them best
    /// ([`ObservationTree::best_split`], at most one letter longer than the shortest witness of
    /// the first two), chosen again after every answer; for two, the shortest witness.
    Ads,
}

/// How deep [`ObservationTree::best_split`] looks beyond the shortest witness.
const ADS_EXTRA_DEPTH: usize = 1;
/// How many tree nodes [`ObservationTree::best_split`] may visit per query.
const ADS_BUDGET: usize = 1 << 11;

/// The default [`LSharp::probe_tail`]: measured on the bench's targets (`benches/LEARNING.md`,
/// section C), 10 letters cut the equivalence queries on random targets by 40% to 90% at about
/// the same number of membership queries; 5 and 20 did less well.
pub const PROBE_TAIL: usize = 10;

/// The default [`LSharp::guided_tail`]: measured on the bench's targets (`benches/LEARNING.md`,
/// section C, "The guided tail" and run 7), with 100 letters the ADS rule met issue 15's
/// query goals on all of them but the membership goal of one (1.5% over; all since run 9);
/// with 30 it missed the equivalence goal on pots2 (76 to 82 against 68) and peterson2. The
/// counts move by a few percent with the length and the seed: the walks are pseudo-random.
pub const GUIDED_TAIL: usize = 100;

/// How many letters of a guided tail follow a walk seeded by the start state alone: runs from
/// nodes identified with the same state share these (their answers to the same words show
/// such nodes apart), and part ways after them (the rest tests more of the hypothesis).
/// Measured (`benches/LEARNING.md`, section C, run 9), against walks that never part (run 7's
/// tails, which repeat the same walk from a state while the hypothesis stays the same): with
/// 20, equivalence queries on pots2 73 → 50 (witness rule) and 60 → 44 (ADS rule) at about
/// the same membership queries; 10, 12 and 15 did as well, 8 did not (pots2 71, witness rule).
pub const GUIDED_TAIL_SHARED: usize = 20;

/// While the tree has fewer nodes than this, the consistency check is one plain pass over the
/// tree ([`HypothesisStates::full_pass_below`]).
const FULL_PASS_BELOW: usize = 1 << 14;

/// How many letters an adaptive query of the ADS rule may add after its first word.
const ADS_MAX_LETTERS: usize = 1 << 10;

/// The hypothesis state reached from basis index `q` on `word` (`next` as in
/// [`Incremental::next`], `k` letters), or [`NONE`] if a transition on the way is unknown.
fn hyp_run(next: &[u32], k: usize, mut q: u32, word: &[u32]) -> u32 {
    for &a in word {
        q = match next.get(q as usize * k + a as usize) {
            Some(&t) => t,
            None => NONE,
        };
        if q == NONE {
            break;
        }
    }
    q
}

/// No index.
const NONE: u32 = u32::MAX;

/// The hypothesis of a closed learner: `next[q * k + a]` is the basis index reached from basis
/// index `q` on letter `a`.
#[derive(Clone, Debug)]
struct Transitions {
    next: Vec<u32>,
    letters: usize,
}

impl Transitions {
    fn run(&self, from: u32, word: &[u32]) -> u32 {
        word.iter().fold(from, |q, &a| self.next[q as usize * self.letters + a as usize])
    }
}

impl LSharp {
    /// A learner that knows nothing yet.
    pub fn new(mut alphabet: Vec<String>, prefix_closed: bool) -> LSharp {
        alphabet.sort();
        alphabet.dedup();
        let tree = ObservationTree::new(alphabet.len(), prefix_closed);
        let width = alphabet.len().clamp(1, 64);
        LSharp {
            alphabet,
            tree,
            basis: vec![ROOT],
            basis_index: vec![0],
            frontier: Vec::new(),
            frontier_index: vec![NONE],
            extended: 0,
            inc: Box::new(Incremental {
                rev: vec![Vec::new(); width],
                rev_width: width,
                states: HypothesisStates::full_pass_below(FULL_PASS_BELOW),
                ..Incremental::default()
            }),
            closed: None,
            reference: None,
            separation: Separation::default(),
            extension_witness: true,
            probe_tail: PROBE_TAIL,
            guided_tail: GUIDED_TAIL,
            stats: Stats::default(),
            tree_refinements: 0,
        }
    }

    /// The alphabet, sorted.
    pub fn alphabet(&self) -> &[String] {
        &self.alphabet
    }

    /// The observation tree.
    pub fn tree(&self) -> &ObservationTree {
        &self.tree
    }

    /// The number of basis nodes (states of the next hypothesis, the rejecting one included).
    pub fn n_basis(&self) -> usize {
        self.basis.len()
    }

    pub(super) fn basis_of(&self, n: NodeId) -> Option<u32> {
        self.basis_index.get(n as usize).copied().filter(|&q| q != NONE)
    }

    fn frontier_of(&self, n: NodeId) -> Option<usize> {
        self.frontier_index.get(n as usize).copied().filter(|&i| i != NONE).map(|i| i as usize)
    }

    /// Appends `n` to the basis (its candidates for the frontier are not updated: only for a
    /// learner whose frontier is still empty).
    pub(super) fn push_basis(&mut self, n: NodeId) {
        debug_assert!(self.frontier.is_empty());
        let q = self.basis.len() as u32;
        self.basis.push(n);
        self.inc.rev.extend(std::iter::repeat_n(Vec::new(), self.inc.rev_width));
        Self::set_index(&mut self.basis_index, n, q);
    }

    fn set_index(v: &mut Vec<u32>, n: NodeId, i: u32) {
        if v.len() <= n as usize {
            v.resize(n as usize + 1, NONE);
        }
        v[n as usize] = i;
    }

    /// The answer for the word of `from` followed by `suffix`: from the tree, from prefix
    /// closure, or from the teacher (and then recorded).
    pub(super) fn ask(&mut self, from: NodeId, suffix: &[u32], oracle: &mut dyn Membership) -> (NodeId, bool) {
        let before = self.tree.len() as NodeId;
        let n = self.tree.walk_or_add(from, suffix);
        match self.tree.out(n) {
            Some(b) if n >= before => {
                self.stats.shortcut += 1;
                (n, b)
            }
            Some(b) => {
                self.stats.cached += 1;
                (n, b)
            }
            None => {
                self.stats.membership += 1;
                self.closed = None;
                let word = self.tree.word(n);
                self.stats.symbols += word.len();
                if !oracle.answers_prefixes() {
                    let b = oracle.member_indexed(&self.alphabet, &word);
                    self.tree.set_out(n, b);
                    return (n, b);
                }
                // One run answers every prefix: record them all, root first, so that in
                // prefix-closed mode a rejected prefix implies the rest as `set_out` does.
                let answers = oracle.member_prefixes_indexed(&self.alphabet, &word);
                let mut at = ROOT;
                for (i, &b) in answers.iter().enumerate().take(word.len() + 1) {
                    if i > 0 {
                        at = self.tree.child_or_add(at, word[i - 1]);
                    }
                    self.tree.set_out(at, b);
                }
                // An oracle that answered fewer prefixes than asked leaves `n` to be asked
                // alone (a wrong oracle, but never an unknown answer taken as known).
                let b = match self.tree.out(n) {
                    Some(b) => b,
                    None => {
                        let b = oracle.member_indexed(&self.alphabet, &word);
                        self.tree.set_out(n, b);
                        b
                    }
                };
                (n, b)
            }
        }
    }

    /// Asks the word of `from` followed by `suffix` as one prefix query (the oracle answers
    /// every prefix, [`Membership::answers_prefixes`]) and records every answer, unless the
    /// tree already has the word's answer (cached) or, in prefix-closed mode, a rejected
    /// prefix of it (the rest is implied: a shortcut). In prefix-closed mode no node is added
    /// below the first rejected prefix, whose extensions are all rejected.
    fn ask_run(&mut self, from: NodeId, suffix: &[u32], oracle: &mut dyn Membership) {
        debug_assert!(oracle.answers_prefixes());
        let pc = self.tree.prefix_closed();
        let mut at = from;
        let mut rest = suffix;
        while let Some((&a, tail)) = rest.split_first() {
            if pc && self.tree.out(at) == Some(false) {
                break;
            }
            match self.tree.child(at, a) {
                Some(c) => {
                    at = c;
                    rest = tail;
                }
                None => break,
            }
        }
        match self.tree.out(at) {
            Some(false) if pc => {
                self.stats.shortcut += 1;
                return;
            }
            Some(_) if rest.is_empty() => {
                self.stats.cached += 1;
                return;
            }
            _ => {}
        }
        let mut word = self.tree.word(from);
        word.extend_from_slice(suffix);
        let answers = oracle.member_prefixes_indexed(&self.alphabet, &word);
        self.record_run(&word, &answers);
    }

    /// One adaptive query ([`Membership::member_adaptive_indexed`]) from node `f` (whose
    /// answer may be unknown): runs `f`'s word, then `first`, then, if `split` names a rule,
    /// while two or more of the candidates `cands` (basis indices) agree with every answer of
    /// the run and have answers in the tree, a word that tells those apart, chosen from the
    /// node the run has reached (with [`Separation::Ads`] the word that splits them best, with
    /// [`Separation::Witness`] the shortest witness of the first two); then the guided tail
    /// ([`LSharp::guided_tail`]): up to
    /// [`LSharp::probe_tail`] letters that follow the hypothesis from the state of the one
    /// candidate left (with `guess`, of the first one left when several are), each chosen
    /// among the letters whose transition leads to an accepting state (prefix-closed mode;
    /// any letter otherwise), pseudo-randomly: the first [`GUIDED_TAIL_SHARED`] letters by a
    /// seed of the start state alone, the rest by one that also depends on the number of
    /// queries asked so far. Counted as one query and its letters; every answer of the run is
    /// recorded, as for a prefix query.
    ///
    /// With `split` this is the ADS rule's separation in one query, as in the paper and
    /// AALpy. The tail is what makes the run a test of the hypothesis: a fixed random word
    /// would be rejected after a letter or two on a prefix-closed target, a run that follows
    /// the hypothesis stays where it accepts, so that a difference deep below `f` shows in the
    /// tree (a promotion or a tree refinement) before the teacher has to find it.
    fn ask_adaptive(
        &mut self,
        f: NodeId,
        cands: &[u32],
        first: Vec<u32>,
        split: Option<Separation>,
        guess: bool,
        oracle: &mut dyn Membership,
    ) {
        // The buffers of every run, kept between runs (this runs for almost every query).
        let mut bufs = std::mem::take(&mut self.inc.adaptive);
        bufs.call = bufs.call.wrapping_add(1);
        if bufs.call == 0 {
            bufs.tail_ok.iter_mut().for_each(|e| e.0 = 0);
            bufs.call = 1;
        }
        let AdaptiveBuffers { prefix, chosen, plan, tracked, nodes, path, tail_ok, oks, call } = &mut bufs;
        let call = *call;
        self.tree.word_into(f, prefix);
        let pc = self.tree.prefix_closed();
        let k = self.alphabet.len();
        chosen.clear();
        path.clear();
        let mut tail = self.guided_tail;
        // Mixed into the walk's seed after its shared part: the runs so far, so that two
        // runs from the same start state part ways there.
        let salt = (self.stats.membership as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let shared = self.guided_tail.saturating_sub(GUIDED_TAIL_SHARED);
        self.sync_accepting();
        let answers = {
            let tree = &mut self.tree;
            let basis = &self.basis;
            let hyp = &self.inc.next;
            let accepting = &self.inc.accepting;
            let mut must = first.len();
            plan.clear();
            plan.extend(first);
            let mut at = f;
            tracked.clear();
            tracked.extend(cands.iter().map(|&q| (q, basis[q as usize])));
            tail_ok.resize(basis.len(), (0, 0));
            let mut started = false;
            let mut walk: Option<(u32, u64)> = None;
            // The last candidate that could no longer be followed (no answer in the tree),
            // still consistent with the run: the tail's start when none is tracked.
            let mut lost: Option<(u32, usize)> = None;
            // The planned letter asked last, with the run's length before it: the tracked
            // candidates follow it once its answer is known (below), not before, so that a
            // run that ends at a rejected answer does not walk them at all.
            let mut pending: Option<(u32, usize)> = None;
            let mut next = |b: bool| -> Option<u32> {
                if pc && !b {
                    return None; // every extension is rejected: nothing more to learn
                }
                if started && walk.is_none() {
                    // One pass for the letter and its answer `b` at `at`: a candidate without a
                    // child on the letter, or whose child has no answer, cannot be followed;
                    // one whose child answered otherwise is apart from `f`. `lost` is the last
                    // of the first kind unless there is one of the second (as two passes, one
                    // per kind, would leave it).
                    if let Some((a, before)) = pending.take() {
                        let (mut no_child, mut no_answer) = (None, None);
                        tracked.retain_mut(|(q, p)| match tree.child(*p, a) {
                            Some(c) => match tree.out(c) {
                                Some(o) => {
                                    *p = c;
                                    o == b
                                }
                                None => {
                                    no_answer = Some((*q, before + 1));
                                    false
                                }
                            },
                            None => {
                                no_child = Some((*q, before));
                                false
                            }
                        });
                        lost = no_answer.or(no_child).or(lost);
                    } else {
                        tracked.retain(|&(q, p)| match tree.out(p) {
                            Some(o) => o == b,
                            None => {
                                lost = Some((q, chosen.len()));
                                false
                            }
                        });
                    }
                }
                started = true;
                if walk.is_none() {
                    if must == 0
                        && plan.is_empty()
                        && let Some(rule) = split
                        && tracked.len() >= 2
                        && chosen.len() < ADS_MAX_LETTERS
                    {
                        nodes.clear();
                        nodes.extend(tracked.iter().map(|&(_, p)| p));
                        if let Some(w) = tree.witness(nodes[0], nodes[1]) {
                            match rule {
                                Separation::Witness => plan.extend(w),
                                Separation::Ads => {
                                    let d = w.len() + ADS_EXTRA_DEPTH;
                                    plan.extend(tree.best_split(at, nodes, d, ADS_BUDGET).unwrap_or(w));
                                }
                            }
                        }
                    }
                    if let Some(a) = plan.pop_front() {
                        must = must.saturating_sub(1);
                        at = tree.child_or_add(at, a);
                        path.push(at);
                        // The tracked candidates follow `a` with its answer (above).
                        pending = Some((a, chosen.len()));
                        chosen.push(a);
                        return Some(a);
                    }
                    // The tail starts from the hypothesis state of the candidate left.
                    let start = match (&tracked[..], lost) {
                        ([(q, _)], _) => *q,
                        ([(q, _), ..], _) if guess => *q,
                        ([], Some((q, _))) if guess => q,
                        _ => return None,
                    };
                    // Seeded by the start state: runs from nodes identified with the same
                    // state walk the same way while the hypothesis stays the same, so that
                    // the tree holds answers to the same words below them (measured: fewer
                    // queries than a seed per node, `benches/LEARNING.md`, run 7).
                    let seed = 0x9e37_79b9_7f4a_7c15 ^ u64::from(start).wrapping_mul(0x2545_f491_4f6c_dd1d);
                    walk = Some((hyp_run(hyp, k, start, chosen), seed));
                }
                let (state, x) = walk.as_mut()?;
                if tail == 0 || k == 0 || *state == NONE {
                    return None;
                }
                if tail == shared {
                    *x ^= salt;
                }
                tail -= 1;
                *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let r = (*x >> 33) as usize;
                let row = &hyp[*state as usize * k..(*state as usize + 1) * k];
                // The letters allowed, in order, in one pass; the answers of basis nodes from
                // `accepting` where it has them.
                let ok = |t: u32| {
                    t != NONE
                        && (!pc
                            || accepting
                                .get(t as usize)
                                .copied()
                                .unwrap_or_else(|| tree.out(basis[t as usize]) == Some(true)))
                };
                let l = match tail_ok.get_mut(*state as usize) {
                    Some(entry) if k <= 64 => {
                        // The allowed letters as a mask, computed once per state and run (the
                        // hypothesis does not change during a run); the `r`-th allowed
                        // letter in order is the mask's `r`-th set bit.
                        if entry.0 != call {
                            let mut m = 0u64;
                            for (l, &t) in row.iter().enumerate() {
                                if ok(t) {
                                    m |= 1 << l;
                                }
                            }
                            *entry = (call, m);
                        }
                        let mut m = entry.1;
                        if m == 0 {
                            r % k
                        } else {
                            for _ in 0..r % m.count_ones() as usize {
                                m &= m - 1;
                            }
                            m.trailing_zeros() as usize
                        }
                    }
                    _ => {
                        oks.clear();
                        oks.extend(row.iter().enumerate().filter(|&(_, &t)| ok(t)).map(|(l, _)| l));
                        if oks.is_empty() { r % k } else { oks[r % oks.len()] }
                    }
                };
                *state = row[l];
                at = tree.child_or_add(at, l as u32);
                path.push(at);
                chosen.push(l as u32);
                Some(l as u32)
            };
            oracle.member_adaptive_indexed(&self.alphabet, prefix, &mut next)
        };
        // The run's nodes, root first: `f`'s path, then the nodes the run added or met (the
        // nodes `record_run` would find again by walking the word from the root).
        let mut all = std::mem::take(&mut self.inc.run_nodes);
        all.clear();
        let mut x = f;
        all.push(x);
        while let Some((p, _)) = self.tree.parent(x) {
            all.push(p);
            x = p;
        }
        all.reverse();
        all.extend_from_slice(path);
        self.record_nodes(&all, &answers);
        self.inc.run_nodes = all;
        self.inc.adaptive = bufs;
    }

    /// Brings [`Incremental::accepting`] up to the basis nodes whose answers are known (all of
    /// them, by the invariant; it stops at the first unknown one).
    fn sync_accepting(&mut self) {
        while let Some(&b) = self.basis.get(self.inc.accepting.len()) {
            match self.tree.out(b) {
                Some(o) => self.inc.accepting.push(o),
                None => break,
            }
        }
    }

    /// [`LSharp::ask`] for counterexample processing: with an oracle that runs adaptive
    /// queries and the guided tail on, a word the tree does not answer is asked as one
    /// adaptive run that goes on with the guided tail from the hypothesis state reached from
    /// basis index `q` (the state the hypothesis gives `from`) on `suffix`. The query is asked
    /// anyway; the tail tests the hypothesis beyond it for its letters alone.
    fn ask_tested(&mut self, from: NodeId, q: u32, suffix: &[u32], oracle: &mut dyn Membership) -> (NodeId, bool) {
        let n = self.tree.walk_or_add(from, suffix);
        if self.tree.out(n).is_none() && self.guided_tail > 0 && oracle.answers_adaptively() {
            // `from`'s own subtree is no candidate to follow: the run loses it at once and
            // starts the tail from `q`'s state (`guess`).
            self.ask_adaptive(from, &[q], suffix.to_vec(), None, true, oracle);
            if let Some(b) = self.tree.out(n) {
                return (n, b);
            }
        }
        // Not asked yet, or the oracle answered fewer letters than asked: one word.
        self.ask(from, suffix, oracle)
    }

    /// Counts one run of the oracle on `word` (one membership query and its letters) and
    /// records `answers`, the answer after every prefix of `word`, root first. Under
    /// prefix-closure nothing is added below the first rejected prefix (its extensions are
    /// rejected already); a known answer is never overwritten.
    fn record_run(&mut self, word: &[u32], answers: &[bool]) {
        let pc = self.tree.prefix_closed();
        self.stats.membership += 1;
        self.stats.symbols += word.len();
        self.closed = None;
        let mut at = ROOT;
        for (i, &b) in answers.iter().enumerate().take(word.len() + 1) {
            if i > 0 {
                if pc && self.tree.out(at) == Some(false) {
                    break;
                }
                at = self.tree.child_or_add(at, word[i - 1]);
            }
            self.tree.set_out(at, b);
        }
    }

    /// [`LSharp::record_run`] for a run whose nodes are in the tree already: `nodes` holds the
    /// node of every prefix of the run's word, root first (the word's length plus one).
    fn record_nodes(&mut self, nodes: &[NodeId], answers: &[bool]) {
        let pc = self.tree.prefix_closed();
        self.stats.membership += 1;
        self.stats.symbols += nodes.len().saturating_sub(1);
        self.closed = None;
        for (i, &b) in answers.iter().enumerate().take(nodes.len()) {
            if i > 0 && pc && self.tree.out(nodes[i - 1]) == Some(false) {
                break;
            }
            self.tree.set_out(nodes[i], b);
        }
    }

    fn candidates_of(&mut self, n: NodeId) -> Vec<u32> {
        // A node without children is apart from exactly the basis nodes with the other answer
        // (basis nodes have known answers).
        if let (Some(b), true) = (self.tree.out(n), self.tree.children(n).is_empty()) {
            while self.inc.by_out_upto < self.basis.len() {
                let q = self.inc.by_out_upto;
                if let Some(bq) = self.tree.out(self.basis[q]) {
                    self.inc.by_out[usize::from(bq)].push(q as u32);
                    self.inc.by_out_upto += 1;
                } else {
                    break;
                }
            }
            if self.inc.by_out_upto == self.basis.len() {
                return self.inc.by_out[usize::from(b)].clone();
            }
        }
        self.sift_extended();
        // The basis indices that one level of answers already shows apart from `n`.
        let words = self.inc.sift_upto.div_ceil(64);
        let mut apart = vec![0u64; words];
        let k = self.alphabet.len();
        let or_with = |apart: &mut Vec<u64>, row: &[u64]| apart.iter_mut().zip(row).for_each(|(x, y)| *x |= y);
        if let Some(b) = self.tree.out(n) {
            or_with(&mut apart, &self.inc.sift[2 * k + usize::from(!b)]);
        }
        for &(a, c) in self.tree.children(n) {
            if let Some(b) = self.tree.out(c) {
                or_with(&mut apart, &self.inc.sift[2 * a as usize + usize::from(!b)]);
            }
        }
        // The basis indices without a bit, 64 at a time (most have one on a large basis),
        // then those beyond the table; in increasing order.
        let mut cands = Vec::new();
        let covered = self.inc.sift_upto.min(self.basis.len());
        for (w, &bits) in apart.iter().enumerate() {
            let mut open = !bits;
            if (w + 1) * 64 > covered {
                open &= (1u64 << covered.saturating_sub(w * 64)) - 1;
            }
            while open != 0 {
                let q = w * 64 + open.trailing_zeros() as usize;
                open &= open - 1;
                if !self.tree.apart(n, self.basis[q]) {
                    cands.push(q as u32);
                }
            }
        }
        cands.extend((covered..self.basis.len()).filter(|&q| !self.tree.apart(n, self.basis[q])).map(|q| q as u32));
        cands
    }

    /// Brings [`Incremental::sift`] up to the extended basis nodes.
    fn sift_extended(&mut self) {
        let k = self.alphabet.len();
        if self.inc.sift.len() != 2 * k + 2 {
            self.inc.sift = vec![Vec::new(); 2 * k + 2];
            self.inc.sift_upto = 0;
        }
        while self.inc.sift_upto < self.extended {
            let q = self.inc.sift_upto;
            let (word, bit) = (q / 64, 1u64 << (q % 64));
            if word >= self.inc.sift[0].len() {
                self.inc.sift.iter_mut().for_each(|row| row.push(0));
            }
            let b = self.basis[q];
            if let Some(o) = self.tree.out(b) {
                self.inc.sift[2 * k + usize::from(o)][word] |= bit;
            }
            for &(a, c) in self.tree.children(b) {
                if let Some(o) = self.tree.out(c) {
                    self.inc.sift[2 * a as usize + usize::from(o)][word] |= bit;
                }
            }
            self.inc.sift_upto += 1;
        }
    }

    /// Extension: every child of every basis node is asked and is in the basis or frontier.
    fn extend(&mut self, oracle: &mut dyn Membership) {
        let letters = self.alphabet.len() as u32;
        let mut q = self.extended;
        self.inc.next.resize(self.basis.len() * letters as usize, NONE);
        // Extension promotes nothing: the basis stays the same while it runs.
        let all: Vec<u32> = (0..self.basis.len() as u32).collect();
        while q < self.basis.len() {
            if oracle.stopped() {
                return;
            }
            let b = self.basis[q];
            // Under prefix closure a rejected basis node's children are rejected: no run.
            let guided = self.guided_tail > 0
                && oracle.answers_adaptively()
                && !(self.tree.prefix_closed() && self.tree.out(b) == Some(false));
            // With the guided tail every child without an answer is asked by an adaptive run
            // (the first arm below), so the probe would never be used: not computed.
            let probe = if guided { None } else { self.extension_probe(q, oracle) };
            for a in 0..letters {
                let c = match &probe {
                    _ if guided && self.tree.child(b, a).and_then(|c| self.tree.out(c)).is_none() => {
                        // One adaptive run: the child, the words that identify it among the
                        // basis nodes, the guided tail.
                        let c = self.tree.walk_or_add(b, &[a]);
                        let split = self.extension_witness.then_some(Separation::Ads);
                        self.ask_adaptive(c, &all, Vec::new(), split, true, oracle);
                        if self.tree.out(c).is_none() {
                            self.ask(b, &[a], oracle);
                        }
                        c
                    }
                    Some(w) if self.tree.child(b, a).and_then(|c| self.tree.out(c)).is_none() => {
                        let mut word = Vec::with_capacity(w.len() + 1);
                        word.push(a);
                        word.extend_from_slice(w);
                        self.ask_run(b, &word, oracle);
                        // The child's answer came with the same run, unless the longer word
                        // was answered before without its prefixes (a restored tree).
                        let c = self.tree.walk_or_add(b, &[a]);
                        if self.tree.out(c).is_none() {
                            self.ask(b, &[a], oracle);
                        }
                        c
                    }
                    _ => self.ask(b, &[a], oracle).0,
                };
                if self.basis_of(c).is_none() && self.frontier_of(c).is_none() {
                    let cands = self.candidates_of(c);
                    for &q in &cands {
                        self.rev_add(c, q);
                    }
                    let j = self.frontier.len();
                    Self::set_index(&mut self.frontier_index, c, j as u32);
                    self.frontier.push((c, cands));
                    self.clear_child_bits(j);
                    for &(a, d) in self.tree.children(c) {
                        if let Some(o) = self.tree.out(d) {
                            Self::set_child_bit(&mut self.inc.child_bits, j, a, o);
                        }
                    }
                    match self.tree.out(c) {
                        Some(b) => self.inc.frontier_by_out[usize::from(b)].push(c),
                        None => self.inc.frontier_by_out.iter_mut().for_each(|v| v.push(c)),
                    }
                    self.inc.changed.push(c);
                }
                self.sync_next(c);
            }
            q += 1;
        }
        self.extended = q;
    }

    /// The suffix asked after each child of basis node `q` in the same run, for an oracle
    /// that answers every prefix in one run (for any other the longer word would cost a query
    /// of its own; then `None`). It is a word that shows `q` apart from another basis node with
    /// `q`'s answer ([`LSharp::extension_witness`], AALpy's `SepSeq` extension rule), so that
    /// the child's run also answers a word that tells candidates apart, followed by
    /// [`LSharp::probe_tail`] fixed pseudo-random letters, which explore beyond the child and
    /// let the tree contradict a hypothesis before the teacher has to.
    fn extension_probe(&self, q: usize, oracle: &dyn Membership) -> Option<Vec<u32>> {
        if !oracle.answers_prefixes() {
            return None;
        }
        let b = self.basis[q];
        let out = self.tree.out(b);
        if self.tree.prefix_closed() && out == Some(false) {
            return None;
        }
        let mut probe = Vec::new();
        if self.extension_witness
            && let Some(r) = self.basis.iter().copied().find(|&r| r != b && out.is_some() && self.tree.out(r) == out)
            && let Some(w) = self.tree.witness(b, r)
        {
            probe = w;
        }
        let k = self.alphabet.len() as u64;
        if k > 0 {
            // A fixed linear congruential sequence: the same tail for every node and run.
            let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
            probe.extend((0..self.probe_tail).map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                ((x >> 33) % k) as u32
            }));
        }
        (!probe.is_empty()).then_some(probe)
    }

    /// Sets the entry of [`Incremental::next`] for `c`, a child of an extended basis node.
    fn sync_next(&mut self, c: NodeId) {
        let Some((p, a)) = self.tree.parent(c) else { return };
        let Some(qp) = self.basis_of(p) else { return };
        let at = qp as usize * self.alphabet.len() + a as usize;
        if at >= self.inc.next.len() {
            return;
        }
        self.inc.next[at] = match self.basis_of(c) {
            Some(r) => r,
            None => self.frontier_of(c).and_then(|i| self.frontier[i].1.first().copied()).unwrap_or(NONE),
        };
    }

    /// Brings every frontier node's candidates up to date with the tree: only the answers
    /// logged since the last settlement can have made nodes apart, and a new answer at the
    /// word `u·v` makes a frontier node `f` apart from a candidate `q` only if `u` is `f` (and
    /// `q·v` has the other answer) or `u` is `q` (and `f·v` has the other answer).
    ///
    /// A run logs a chain of answers, one per letter, so the new answers are taken a path at a
    /// time: from every logged node none of whose children is logged (a path's end) up to the
    /// root, and for each basis or frontier node `u` on that path, the other side is walked
    /// down once along the path, comparing at every logged node on the way. Every logged
    /// node lies on such a path, so every comparison of the answer-at-a-time settlement is
    /// made (some twice, where paths share a prefix), and the candidates left are the same.
    fn settle(&mut self) {
        let log = self.tree.take_log();
        if log.is_empty() {
            return;
        }
        let pc = self.tree.prefix_closed();
        self.inc.epoch += 1;
        let epoch = self.inc.epoch;
        if self.inc.stamp.len() < self.tree.len() {
            self.inc.stamp.resize(self.tree.len(), 0);
        }
        for &x in &log {
            self.inc.stamp[x as usize] = epoch;
            // A frontier node's child with a new answer: its bit for promotion.
            if let (Some((p, a)), Some(o)) = (self.tree.parent(x), self.tree.out(x))
                && let Some(j) = self.frontier_of(p)
            {
                Self::set_child_bit(&mut self.inc.child_bits, j, a, o);
            }
        }
        // Frontier nodes with children added since the last settlement join the lists of
        // their candidates for those children's letters (before any list is scanned).
        let width = self.inc.rev_width;
        for c in self.inc.rev_seen..self.tree.len() {
            let Some((p, a)) = self.tree.parent(c as NodeId) else { continue };
            if let Some(i) = self.frontier_of(p) {
                for &q in &self.frontier[i].1 {
                    self.inc.rev[q as usize * width + a as usize % width].push(p);
                }
            }
        }
        self.inc.rev_seen = self.tree.len();
        // The nodes from the root down to a path's end, and the letters between them.
        let (mut nodes, mut letters, mut outs) = std::mem::take(&mut self.inc.path);
        for &x in &log {
            if self.tree.out(x).is_none()
                || self.tree.children(x).iter().any(|&(_, c)| self.inc.stamp[c as usize] == epoch)
            {
                continue;
            }
            nodes.clear();
            letters.clear();
            let mut at = x;
            nodes.push(at);
            while let Some((p, a)) = self.tree.parent(at) {
                letters.push(a);
                nodes.push(p);
                at = p;
            }
            nodes.reverse();
            letters.reverse();
            // What every walk along this path compares with, read once: per node, its answer
            // if it was logged in this settlement.
            outs.clear();
            outs.extend(nodes.iter().map(|&y| match self.tree.out(y) {
                Some(o) if self.inc.stamp[y as usize] == epoch => 1 + u8::from(o),
                _ => 0,
            }));
            for (j, &u) in nodes.iter().enumerate() {
                let (v, along) = (&letters[j..], &outs[j..]);
                if let Some(q) = self.basis_of(u) {
                    // Rejected basis nodes are apart from exactly the accepted nodes, which
                    // the answers alone show; a basis node's own answer is never new.
                    if !(v.is_empty() || pc && self.tree.out(u) == Some(false)) {
                        self.drop_apart_via_basis(q, v, along);
                    }
                } else {
                    if let Some(i) = self.frontier_of(u) {
                        self.drop_apart_via_frontier(i, v, along);
                    }
                    // The basis is closed under prefixes and the frontier holds children of
                    // basis nodes: below a node outside the basis, neither has any node.
                    break;
                }
            }
        }
        // The buffers are kept for the next settlement (most runs are alike in length).
        self.inc.path = (nodes, letters, outs);
        self.tree.give_back_log(log);
    }

    /// Whether the word of `start` followed by a prefix `v[..i]` has a known answer other
    /// than `along[i]`, for some `i ≥ from` where `along[i]` is an answer logged in this
    /// settlement (1 rejected, 2 accepted; 0 for a node not logged): `along[i]` is the new
    /// answer at `u·v[..i]` for the node `u` being compared with `start`. One walk down the
    /// tree.
    fn differs_along(tree: &ObservationTree, start: NodeId, v: &[u32], along: &[u8], from: usize) -> bool {
        let mut a = start;
        for (i, &z) in along.iter().enumerate() {
            if i >= from
                && z != 0
                && let Some(x) = tree.out(a)
                && x != (z == 2)
            {
                return true;
            }
            let Some(&l) = v.get(i) else { break };
            match tree.child(a, l) {
                Some(c) => a = c,
                None => return false,
            }
        }
        false
    }

    /// Frontier node `i`'s word followed by prefixes of `v` has new answers (at the logged
    /// nodes of `along`, [`LSharp::differs_along`]): drops the candidates whose word followed
    /// by the same prefix has another.
    fn drop_apart_via_frontier(&mut self, i: usize, v: &[u32], along: &[u8]) {
        let (f, mut cands) = std::mem::take(&mut self.frontier[i]);
        let before = cands.len();
        cands.retain(|&q| !Self::differs_along(&self.tree, self.basis[q as usize], v, along, 0));
        self.inc.dropped += before - cands.len();
        if cands.len() != before {
            self.inc.changed.push(f);
        }
        self.frontier[i] = (f, cands);
        self.sync_next(f);
    }

    /// Frontier node `f` has basis index `q` among its candidates: it joins `q`'s lists of
    /// the letters of its children ([`Incremental::rev`]).
    fn rev_add(&mut self, f: NodeId, q: u32) {
        let width = self.inc.rev_width;
        for &(a, _) in self.tree.children(f) {
            self.inc.rev[q as usize * width + a as usize % width].push(f);
        }
    }

    /// Basis node `q`'s word followed by prefixes of `v` (not empty) has new answers (at the
    /// logged nodes of `along`): drops `q` from the candidates of the frontier nodes whose word
    /// followed by the same prefix has another.
    fn drop_apart_via_basis(&mut self, q: u32, v: &[u32], along: &[u8]) {
        // Only frontier nodes with a child on `v`'s first letter can have `f·v` in the tree.
        let slot = q as usize * self.inc.rev_width + v[0] as usize % self.inc.rev_width;
        let mut rev = std::mem::take(&mut self.inc.rev[slot]);
        let mut first_dropped = Vec::new();
        rev.retain(|&f| {
            let Some(i) = self.frontier_of(f) else { return false };
            let cands = &mut self.frontier[i].1;
            let Ok(at) = cands.binary_search(&q) else { return false };
            if Self::differs_along(&self.tree, f, v, along, 1) {
                cands.remove(at);
                self.inc.dropped += 1;
                self.inc.changed.push(f);
                if at == 0 {
                    first_dropped.push(f);
                }
                return false;
            }
            true
        });
        self.inc.rev[slot] = rev;
        for f in first_dropped {
            self.sync_next(f);
        }
    }

    /// Clears frontier index `j`'s bits in [`Incremental::child_bits`] (sized for the
    /// alphabet first).
    fn clear_child_bits(&mut self, j: usize) {
        let rows = 2 * self.alphabet.len();
        if self.inc.child_bits.len() != rows {
            self.inc.child_bits = vec![Vec::new(); rows];
        }
        for row in &mut self.inc.child_bits {
            if let Some(w) = row.get_mut(j / 64) {
                *w &= !(1 << (j % 64));
            }
        }
    }

    /// Records in `bits` ([`Incremental::child_bits`]) that frontier index `j` has a child on
    /// letter `a` with answer `o`.
    fn set_child_bit(bits: &mut [Vec<u64>], j: usize, a: u32, o: bool) {
        if let Some(row) = bits.get_mut(2 * a as usize + usize::from(o)) {
            if row.len() <= j / 64 {
                row.resize(j / 64 + 1, 0);
            }
            row[j / 64] |= 1 << (j % 64);
        }
    }

    /// Promotion: frontier node `i` joins the basis.
    fn promote(&mut self, i: usize) {
        let (n, _) = self.frontier.swap_remove(i);
        Self::set_index(&mut self.frontier_index, n, NONE);
        if let Some(&(moved, _)) = self.frontier.get(i) {
            Self::set_index(&mut self.frontier_index, moved, i as u32);
        }
        // The last frontier index moved to `i`: so do its bits.
        let last = self.frontier.len();
        for row in &mut self.inc.child_bits {
            let bit = |row: &[u64], j: usize| row.get(j / 64).is_some_and(|w| w & (1 << (j % 64)) != 0);
            let moved = bit(row, last);
            if let Some(w) = row.get_mut(last / 64) {
                *w &= !(1 << (last % 64));
            }
            if let Some(w) = row.get_mut(i / 64) {
                *w = (*w & !(1 << (i % 64))) | (u64::from(moved) << (i % 64));
            }
        }
        // The frontier indices that one level of answers shows apart from `n`: a child of
        // `n` and one of theirs on the same letter with different answers.
        let words = self.frontier.len().div_ceil(64);
        let mut shown = vec![0u64; words];
        if self.inc.child_bits.len() == 2 * self.alphabet.len() {
            for &(a, c) in self.tree.children(n) {
                if let Some(o) = self.tree.out(c) {
                    let row = &self.inc.child_bits[2 * a as usize + usize::from(!o)];
                    shown.iter_mut().zip(row).for_each(|(x, y)| *x |= y);
                }
            }
        }
        let q = self.basis.len() as u32;
        self.basis.push(n);
        Self::set_index(&mut self.basis_index, n, q);
        self.sync_next(n);
        // Basis nodes have known answers, and a frontier node with the other answer is apart
        // from `n`: only those with `n`'s answer (or none) are compared.
        let mut rev = Vec::new();
        let b = usize::from(self.tree.out(n) == Some(true));
        let mut same = std::mem::take(&mut self.inc.frontier_by_out[b]);
        same.retain(|&f| {
            let Some(j) = self.frontier_of(f) else { return false };
            let apart_here = shown.get(j / 64).is_some_and(|w| w & (1 << (j % 64)) != 0);
            if !apart_here && !self.tree.apart(f, n) {
                self.frontier[j].1.push(q);
                self.inc.changed.push(f);
                rev.push(f);
                if self.frontier[j].1.len() == 1 {
                    self.sync_next(f);
                }
            }
            true
        });
        self.inc.frontier_by_out[b] = same;
        self.inc.rev.extend(std::iter::repeat_n(Vec::new(), self.inc.rev_width));
        for f in rev {
            self.rev_add(f, q);
        }
    }

    /// Applies the rules until every frontier node is identified with one basis node and the
    /// hypothesis agrees with every answer in the tree, or until the oracle stops the learner
    /// ([`Membership::stopped`]; the learner is then unfit for use).
    pub fn close(&mut self, oracle: &mut dyn Membership) {
        if self.tree.out(ROOT).is_none() {
            let first = self.extension_probe(0, oracle).unwrap_or_default();
            self.ask(ROOT, &first, oracle);
        }
        loop {
            if oracle.stopped() {
                return;
            }
            self.extend(oracle);
            // A stopped `extend` leaves transitions unknown: no hypothesis can be built.
            if oracle.stopped() {
                return;
            }
            self.settle();
            // Promote every frontier node apart from the whole basis, in one pass: a promotion
            // may give later nodes a candidate, so emptiness is looked at when a node's turn
            // comes. Going down, a swapped-in node has had its turn.
            // Only frontier nodes whose candidates changed can have none or several.
            let mut empty: Vec<usize> = self
                .inc
                .changed
                .iter()
                .filter_map(|&f| self.frontier_of(f))
                .filter(|&i| self.frontier[i].1.is_empty())
                .collect();
            empty.sort_unstable_by(|a, b| b.cmp(a));
            empty.dedup();
            let mut promoted = false;
            for i in empty {
                if self.frontier[i].1.is_empty() {
                    self.promote(i);
                    promoted = true;
                }
            }
            if promoted {
                continue;
            }
            // Separation: each frontier node is asked witnesses until one candidate is left.
            let mut several: Vec<usize> = self
                .inc
                .changed
                .iter()
                .filter_map(|&f| self.frontier_of(f))
                .filter(|&i| self.frontier[i].1.len() >= 2)
                .collect();
            several.sort_unstable();
            several.dedup();
            let mut separated = false;
            for i in several {
                if oracle.stopped() {
                    return;
                }
                while self.frontier[i].1.len() >= 2 {
                    let (f, ref cands) = self.frontier[i];
                    let (p, q) = (self.basis[cands[0] as usize], self.basis[cands[1] as usize]);
                    // Basis nodes are pairwise apart, so a witness exists.
                    let Some(witness) = self.tree.witness(p, q) else { break };
                    if self.separation == Separation::Ads && cands.len() >= 3 && oracle.answers_adaptively() {
                        let nodes: Vec<NodeId> = cands.iter().map(|&c| self.basis[c as usize]).collect();
                        let first = self
                            .tree
                            .best_split(f, &nodes, witness.len() + ADS_EXTRA_DEPTH, ADS_BUDGET)
                            .unwrap_or(witness);
                        let mut buf = std::mem::take(&mut self.inc.cands);
                        buf.clone_from(cands);
                        self.ask_adaptive(f, &buf, first, Some(Separation::Ads), true, oracle);
                        self.inc.cands = buf;
                        self.settle();
                        separated = true;
                        continue;
                    }
                    let word = match self.separation {
                        Separation::Ads if cands.len() >= 3 => {
                            let nodes: Vec<NodeId> = cands.iter().map(|&c| self.basis[c as usize]).collect();
                            self.tree
                                .best_split(f, &nodes, witness.len() + ADS_EXTRA_DEPTH, ADS_BUDGET)
                                .unwrap_or(witness)
                        }
                        _ => witness,
                    };
                    if self.guided_tail > 0 && oracle.answers_adaptively() {
                        // The witness, then (the witness rule) the witnesses of the first two
                        // candidates still agreeing with the run, then the guided tail, in one
                        // run.
                        let mut buf = std::mem::take(&mut self.inc.cands);
                        buf.clone_from(cands);
                        self.ask_adaptive(f, &buf, word, Some(Separation::Witness), true, oracle);
                        self.inc.cands = buf;
                    } else {
                        self.ask(f, &word, oracle);
                    }
                    // Only the answers just logged (at `f·word`, and what prefix closure
                    // implies from it) are new: `settle` re-checks what they can separate,
                    // `f`'s candidates among them (`f` keeps its index: nothing is promoted).
                    self.settle();
                    separated = true;
                }
            }
            let mut changed = std::mem::take(&mut self.inc.changed);
            changed.retain(|&f| self.frontier_of(f).is_some_and(|i| self.frontier[i].1.len() != 1));
            changed.sort_unstable();
            changed.dedup();
            self.inc.changed = changed;
            if separated {
                continue;
            }
            // Adaptive L#: the rules that use the reference model, once the usual ones are done.
            if self.reference.is_some() && self.apply_matching_rules(oracle) {
                continue;
            }
            if oracle.stopped() {
                return;
            }
            let hyp = self.transitions();
            match self.inconsistency(&hyp) {
                Some(n) => {
                    self.tree_refinements += 1;
                    let word = self.tree.word(n);
                    self.process(&hyp, word, Vec::new(), oracle);
                }
                None => {
                    self.closed = Some(hyp);
                    return;
                }
            }
        }
    }

    fn transitions(&self) -> Transitions {
        debug_assert_eq!(self.inc.next.len(), self.basis.len() * self.alphabet.len());
        debug_assert!(self.inc.next.iter().all(|&q| q != NONE));
        Transitions { next: self.inc.next.clone(), letters: self.alphabet.len() }
    }

    fn accepts(&self, q: u32) -> bool {
        self.tree.out(self.basis[q as usize]) == Some(true)
    }

    /// A word of the tree whose answer the hypothesis contradicts: the first in the order of
    /// a depth-first walk from the root that takes children in decreasing letter order. The
    /// hypothesis's state of every node is computed in one pass over the nodes (a parent comes
    /// before its children). In prefix-closed mode the walk would not go below a rejected
    /// node, but nothing below a consistent rejected node is inconsistent (the hypothesis's
    /// only rejecting state loops), and an inconsistent one comes before its descendants.
    fn inconsistency(&mut self, hyp: &Transitions) -> Option<NodeId> {
        let accepts: Vec<bool> = (0..self.basis.len() as u32).map(|q| self.accepts(q)).collect();
        // What the last check computed is kept between calls: only the subtrees below changed
        // transitions and the nodes added since are run again.
        let found = self.tree.disagreements_since(0, &hyp.next, hyp.letters, &accepts, &mut self.inc.states);
        self.tree.first_in_walk_order(&found, &mut self.inc.marks)
    }

    /// `ProcCounterEx`: `sigma · w` and `access(δ(sigma)) · w` have different answers in the
    /// tree. Halves the part of `sigma` beyond the basis until `sigma` is a frontier node, which
    /// is then apart from the basis node the hypothesis identified it with.
    fn process(&mut self, hyp: &Transitions, mut sigma: Vec<u32>, mut w: Vec<u32>, oracle: &mut dyn Membership) {
        loop {
            if oracle.stopped() {
                return;
            }
            // The length of the first prefix of sigma outside the basis.
            let mut n = ROOT;
            let mut m = 0;
            while m < sigma.len() {
                match self.tree.child(n, sigma[m]) {
                    Some(c) if self.basis_of(c).is_some() => {
                        n = c;
                        m += 1;
                    }
                    _ => break,
                }
            }
            if m + 1 >= sigma.len() {
                // sigma is a basis or frontier node.
                return;
            }
            let h = (m + 1 + sigma.len()) / 2;
            let (s1, s2) = sigma.split_at(h);
            let q = hyp.run(0, s1);
            let access = self.basis[q as usize];
            let mut tail = s2.to_vec();
            tail.extend_from_slice(&w);
            let (_, via_access) = self.ask_tested(access, q, &tail, oracle);
            let (_, via_sigma) = self.ask(ROOT, &[sigma.as_slice(), &w].concat(), oracle);
            if via_access != via_sigma {
                w = tail;
                sigma.truncate(h);
            } else {
                let mut next = self.tree.word(access);
                next.extend_from_slice(s2);
                sigma = next;
            }
        }
    }

    /// The hypothesis of the closed learner: one state per basis node, accepting where its word
    /// is accepted; for a prefix-closed target without the rejecting state.
    pub fn hypothesis(&mut self) -> Dla {
        self.stats.candidates += 1;
        let hyp = self.closed.clone().unwrap_or_else(|| self.transitions());
        let prefix_closed = self.tree.prefix_closed();
        let mut b = Builder::new();
        for a in &self.alphabet {
            b.add_event(a);
        }
        let by_index = !self.alphabet.iter().any(|a| a == crate::automata::dla::TAU_NAME);
        let ids: Vec<Option<StateId>> = (0..self.basis.len() as u32)
            .map(|q| {
                let acc = self.accepts(q);
                (!prefix_closed || acc).then(|| b.add_state(&[], acc))
            })
            .collect();
        for (q, from) in ids.iter().enumerate() {
            let Some(from) = *from else { continue };
            for (a, name) in self.alphabet.iter().enumerate() {
                if let Some(to) = ids[hyp.next[q * hyp.letters + a] as usize] {
                    // The events were added in alphabet order, so a letter's index is its
                    // event's, unless `tau` (never an event of its own) is a letter.
                    if by_index {
                        b.add_transition_by_index(from, a as u32, to);
                    } else {
                        b.add_transition(from, name, to);
                    }
                }
            }
        }
        if let Some(init) = ids[0] {
            b.set_initial(init);
        }
        b.build()
    }

    /// Processes a counterexample to the last hypothesis, then closes again.
    pub fn refine(&mut self, cex: &[String], oracle: &mut dyn Membership) -> Result<(), LearnError> {
        let w: Vec<u32> = cex
            .iter()
            .map(|l| self.alphabet.binary_search(l).map(|i| i as u32).map_err(|_| LearnError::UnknownLetter(l.clone())))
            .collect::<Result<_, _>>()?;
        self.stats.counterexamples += 1;
        let hyp = self.closed.take().unwrap_or_else(|| self.transitions());
        let predicted = self.accepts(hyp.run(0, &w));
        let (_, answer) = self.ask_tested(ROOT, 0, &w, oracle);
        if answer == predicted {
            return Err(LearnError::NotACounterexample(cex.join(" ")));
        }
        // Candidates only shrink between promotions: progress is fewer of them.
        let (size, dropped) = (self.basis.len(), self.inc.dropped);
        self.process(&hyp, w, Vec::new(), oracle);
        self.settle();
        if oracle.stopped() {
            return Ok(());
        }
        if self.basis.len() == size && self.inc.dropped == dropped {
            return Err(LearnError::NoProgress(cex.join(" ")));
        }
        self.close(oracle);
        Ok(())
    }
}

/// Learns the target of `teacher` from scratch with L#.
pub fn learn(
    alphabet: Vec<String>,
    teacher: &mut dyn Teacher,
    prefix_closed: bool,
) -> Result<(Dla, Stats), LearnError> {
    learn_with(alphabet, teacher, prefix_closed, Separation::default())
}

/// [`learn`] with the given separation rule.
pub fn learn_with(
    alphabet: Vec<String>,
    teacher: &mut dyn Teacher,
    prefix_closed: bool,
    separation: Separation,
) -> Result<(Dla, Stats), LearnError> {
    let mut learner = LSharp::new(alphabet, prefix_closed);
    learner.separation = separation;
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

/// What the cache keeps of an L# learner: its alphabet and every answer of its tree. A
/// restored learner ([`LSharp::from_saved`]) rebuilds its basis and frontier from these
/// answers, asking only what they do not settle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedTree {
    /// The alphabet, sorted.
    pub alphabet: Vec<String>,
    /// Whether the target is prefix-closed.
    pub prefix_closed: bool,
    /// Words (letter indices into `alphabet`) with their answers.
    pub answers: Vec<(Vec<u32>, bool)>,
    /// The words of the basis, in the order they joined it (the root first), so that a
    /// restored learner picks the same access words and finds their children in the tree.
    #[serde(default)]
    pub basis: Vec<Vec<u32>>,
}

impl LSharp {
    /// The answers of the tree, for the cache. In prefix-closed mode only the answers that
    /// prefix closure does not imply are kept: accepted words with no accepted child, and
    /// rejected words whose parent is accepted.
    pub fn saved(&self) -> SavedTree {
        let pc = self.tree.prefix_closed();
        let mut answers = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(n) = stack.pop() {
            let children = self.tree.children(n);
            if let Some(b) = self.tree.out(n) {
                let implied = pc
                    && if b {
                        children.iter().any(|&(_, c)| self.tree.out(c) == Some(true))
                    } else {
                        self.tree.parent(n).is_some_and(|(p, _)| self.tree.out(p) == Some(false))
                    };
                if !implied {
                    answers.push((self.tree.word(n), b));
                }
                if pc && !b {
                    continue;
                }
            }
            stack.extend(children.iter().map(|&(_, c)| c));
        }
        let basis = self.basis.iter().map(|&b| self.tree.word(b)).collect();
        SavedTree { alphabet: self.alphabet.clone(), prefix_closed: pc, answers, basis }
    }

    /// A learner whose tree holds `saved`'s answers (none asked) and whose basis is `saved`'s
    /// (as far as the answers keep it pairwise apart); `None` when `saved` is malformed: an
    /// unsorted alphabet, or a letter outside it.
    pub fn from_saved(saved: &SavedTree) -> Option<LSharp> {
        let k = saved.alphabet.len();
        if saved.alphabet.windows(2).any(|w| w[0] >= w[1])
            || saved.answers.iter().any(|(w, _)| w.iter().any(|&a| a as usize >= k))
        {
            return None;
        }
        let mut l = LSharp::new(saved.alphabet.clone(), saved.prefix_closed);
        for (w, b) in &saved.answers {
            let n = l.tree.walk_or_add(ROOT, w);
            l.tree.set_out(n, *b);
        }
        // The saved basis, as far as it keeps the invariants: closed under prefixes, answers
        // known, pairwise apart.
        for w in saved.basis.iter().skip(1) {
            let Some(n) = l.tree.walk(ROOT, w) else { break };
            let parent_in_basis = l.tree.parent(n).is_some_and(|(p, _)| l.basis_of(p).is_some());
            if !parent_in_basis
                || l.basis_of(n).is_some()
                || l.tree.out(n).is_none()
                || l.basis.iter().any(|&b| !l.tree.apart(b, n))
            {
                break;
            }
            l.push_basis(n);
        }
        Some(l)
    }

    /// A model of what the tree knows, for adaptive L#'s reference when the learner is not
    /// closed (restored from the cache with [`LSharp::from_saved`]: its old target is gone, so
    /// it cannot be closed). One state per basis node, accepting where its word is accepted; a
    /// letter leads to its child's basis node, else to the first basis node the child is not
    /// apart from. A letter whose child is unknown or apart from every basis node has no
    /// transition in prefix-closed mode and leads back to the root otherwise, as does one whose
    /// child is rejected in prefix-closed mode. Adaptive L# takes only the words it asks from
    /// its reference, never an answer, so any model is sound there; on a closed learner whose
    /// tree has every answer of its hypothesis this is that hypothesis.
    pub fn tree_model(&self) -> Dla {
        let pc = self.tree.prefix_closed();
        let mut b = Builder::new();
        for a in &self.alphabet {
            b.add_event(a);
        }
        let ids: Vec<Option<StateId>> = (0..self.basis.len() as u32)
            .map(|q| {
                let acc = self.accepts(q);
                (!pc || acc).then(|| b.add_state(&[], acc))
            })
            .collect();
        let target = |child: Option<NodeId>| -> Option<u32> {
            let c = child?;
            if pc && self.tree.out(c) != Some(true) {
                return None;
            }
            self.basis_of(c)
                .or_else(|| (0..self.basis.len() as u32).find(|&q| !self.tree.apart(self.basis[q as usize], c)))
        };
        for (q, from) in ids.iter().enumerate() {
            let Some(from) = *from else { continue };
            for (a, name) in self.alphabet.iter().enumerate() {
                let to = match target(self.tree.child(self.basis[q], a as u32)) {
                    Some(t) => ids[t as usize],
                    None if pc => None,
                    None => ids[0],
                };
                if let Some(to) = to {
                    b.add_transition(from, name, to);
                }
            }
        }
        if let Some(init) = ids.first().copied().flatten() {
            b.set_initial(init);
        }
        b.build()
    }

    /// A learner for a changed target that starts from what `old` asked: every word with an
    /// answer in `old`'s tree is asked again (longest first, so that in prefix-closed mode an
    /// accepted word answers its prefixes), then the rules run as usual. Every answer comes
    /// from the new target, so the result is what L# would learn with these words asked first;
    /// the saving over a fresh run is in the rounds of hypotheses and counterexamples, which
    /// the old separating words make unnecessary where the language did not change. This is
    /// the tree's analogue of L*'s table re-validation, not adaptive L# (Kruger, Junges and
    /// Rot 2024), which re-asks only what matches its reference model.
    pub fn replay(old: &LSharp, oracle: &mut dyn Membership) -> LSharp {
        Self::replay_where(old, oracle, &|_| true)
    }

    /// [`LSharp::replay`] that asks again only the words `old` rejected and keeps its accepted
    /// answers as they are. When the target can only have grown (a component that lost
    /// behaviours, as a refined abstraction does, has a weakest assumption that can only gain
    /// words), the result is what [`LSharp::replay`] gives, for the queries of the rejected
    /// words alone. Otherwise the kept answers are hints that the caller must not trust.
    pub fn replay_rejected(old: &LSharp, oracle: &mut dyn Membership) -> LSharp {
        Self::replay_where(old, oracle, &|answer| !answer)
    }

    fn replay_where(old: &LSharp, oracle: &mut dyn Membership, ask_again: &dyn Fn(bool) -> bool) -> LSharp {
        let mut fresh = LSharp::new(old.alphabet.clone(), old.tree.prefix_closed());
        let mut known: Vec<(u32, NodeId)> = Vec::new();
        let mut stack = vec![(0u32, ROOT)];
        while let Some((depth, n)) = stack.pop() {
            if old.tree.out(n).is_some() {
                // Below a rejected node of a prefix-closed tree every answer is implied.
                let leaf_like = old.tree.prefix_closed() && old.tree.out(n) == Some(false);
                known.push((depth, n));
                if leaf_like {
                    continue;
                }
            }
            stack.extend(old.tree.children(n).iter().map(|&(_, c)| (depth + 1, c)));
        }
        known.sort_by_key(|&(d, n)| (std::cmp::Reverse(d), n));
        for (_, n) in known {
            if oracle.stopped() {
                return fresh;
            }
            let answer = old.tree.out(n).expect("known");
            if ask_again(answer) {
                fresh.ask(ROOT, &old.tree.word(n), oracle);
            } else {
                let m = fresh.tree.walk_or_add(ROOT, &old.tree.word(n));
                fresh.tree.set_out(m, answer);
            }
        }
        fresh.close(oracle);
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automata::dla::Trace;

    /// A DFA over `k` letters as a table (`None`: the word is rejected from there on).
    struct Table {
        k: usize,
        accepting: Vec<bool>,
        next: Vec<Option<usize>>,
    }

    impl Table {
        /// A pseudo-random DFA with `n` states (a fixed linear congruential generator).
        fn random(n: usize, k: usize, seed: u64, prefix_closed: bool) -> Table {
            let mut x = seed;
            let mut draw = |m: usize| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) as usize % m
            };
            let accepting = (0..n).map(|_| prefix_closed || draw(2) == 0).collect();
            let next = (0..n * k).map(|_| (draw(5) != 0).then(|| draw(n))).collect();
            Table { k, accepting, next }
        }

        fn run(&self, word: &[u32]) -> bool {
            let mut q = Some(0);
            for &a in word {
                q = q.and_then(|q| self.next[q * self.k + a as usize]);
            }
            q.is_some_and(|q| self.accepting[q])
        }

        /// A shortest word on which `h` and the table differ.
        fn difference(&self, h: &Dla, alphabet: &[String]) -> Option<Vec<String>> {
            let step = |q: Option<StateId>, a: usize| {
                let e = h.event_index(&alphabet[a])?;
                h.state(q?).out.iter().find(|t| t.event == e).map(|t| t.to)
            };
            let start = (Some(0usize), h.initial().first().copied());
            let mut seen: crate::util::HashSet<_> = [start].into_iter().collect();
            let mut queue = std::collections::VecDeque::from([(start, Vec::new())]);
            while let Some(((t, q), w)) = queue.pop_front() {
                if t.is_some_and(|t| self.accepting[t]) != q.is_some_and(|q| h.is_accepting(q)) {
                    return Some(w.iter().map(|&a: &usize| alphabet[a].clone()).collect());
                }
                for a in 0..self.k {
                    let next = (t.and_then(|t| self.next[t * self.k + a]), step(q, a));
                    if seen.insert(next) {
                        let mut w2 = w.clone();
                        w2.push(a);
                        queue.push_back((next, w2));
                    }
                }
            }
            None
        }
    }

    impl Membership for Table {
        fn member(&mut self, _word: &[String]) -> bool {
            unreachable!("the learner asks by index")
        }

        fn member_indexed(&mut self, _alphabet: &[String], word: &[u32]) -> bool {
            self.run(word)
        }
    }

    /// A table that answers every prefix of a word in one run, counting its runs and letters.
    struct Prefixes {
        table: Table,
        runs: usize,
        letters: usize,
    }

    impl Membership for Prefixes {
        fn member(&mut self, _word: &[String]) -> bool {
            unreachable!("the learner asks by index")
        }

        fn member_indexed(&mut self, _alphabet: &[String], word: &[u32]) -> bool {
            self.runs += 1;
            self.letters += word.len();
            self.table.run(word)
        }

        fn member_prefixes_indexed(&mut self, _alphabet: &[String], word: &[u32]) -> Vec<bool> {
            self.runs += 1;
            self.letters += word.len();
            (0..=word.len()).map(|i| self.table.run(&word[..i])).collect()
        }

        fn answers_prefixes(&self) -> bool {
            true
        }

        fn member_adaptive_indexed(
            &mut self,
            _alphabet: &[String],
            word: &[u32],
            next: &mut dyn FnMut(bool) -> Option<u32>,
        ) -> Vec<bool> {
            self.runs += 1;
            let mut w = word.to_vec();
            let mut answers: Vec<bool> = (0..=w.len()).map(|i| self.table.run(&w[..i])).collect();
            while let Some(a) = next(*answers.last().expect("the empty word's answer")) {
                w.push(a);
                answers.push(self.table.run(&w));
            }
            self.letters += w.len();
            answers
        }

        fn answers_adaptively(&self) -> bool {
            true
        }
    }

    impl LSharp {
        /// The first inconsistency in the order of a depth-first walk (the definition that
        /// [`LSharp::inconsistency`] computes in one pass).
        fn inconsistency_by_walk(&self, hyp: &Transitions) -> Option<NodeId> {
            let mut work = vec![(ROOT, 0u32)];
            while let Some((n, q)) = work.pop() {
                if let Some(b) = self.tree.out(n)
                    && b != self.accepts(q)
                {
                    return Some(n);
                }
                if self.tree.prefix_closed() && self.tree.out(n) == Some(false) {
                    continue;
                }
                for &(a, c) in self.tree.children(n) {
                    work.push((c, hyp.next[q as usize * hyp.letters + a as usize]));
                }
            }
            None
        }

        /// Panics unless what is kept incrementally equals what a fresh computation gives.
        fn assert_incremental_state_is_exact(&self) {
            for (f, cands) in &self.frontier {
                let fresh: Vec<u32> =
                    (0..self.basis.len() as u32).filter(|&q| !self.tree.apart(*f, self.basis[q as usize])).collect();
                assert_eq!(cands, &fresh, "candidates of frontier node {f}");
            }
            let k = self.alphabet.len();
            for (q, &b) in self.basis.iter().enumerate() {
                for a in 0..k {
                    let c = self.tree.child(b, a as u32).expect("extended");
                    let expected = self.basis_of(c).unwrap_or_else(|| self.frontier[self.frontier_of(c).unwrap()].1[0]);
                    assert_eq!(self.inc.next[q * k + a], expected, "transition of basis {q} on {a}");
                }
            }
            let hyp = self.transitions();
            assert_eq!(self.clone().inconsistency(&hyp), self.inconsistency_by_walk(&hyp));
        }
    }

    /// Learns `target` to the end with the given separation rule; the learner's stats, and
    /// the hypothesis checked equal to the target.
    fn learn_table(target: &mut Table, prefix_closed: bool, separation: Separation, check: bool) -> Stats {
        learn_with_oracle(target, |t| t, prefix_closed, separation, check)
    }

    /// [`learn_table`] with an oracle made from the table (`oracle`), which is what the
    /// learner asks; counterexamples come from the table.
    fn learn_with_oracle<O: Membership>(
        target: &mut O,
        table: impl Fn(&O) -> &Table,
        prefix_closed: bool,
        separation: Separation,
        check: bool,
    ) -> Stats {
        let k = table(target).k;
        let alphabet: Vec<String> = (0..k).map(|a| format!("l{a}")).collect();
        let mut l = LSharp::new(alphabet.clone(), prefix_closed);
        l.separation = separation;
        l.close(target);
        loop {
            if check {
                l.assert_incremental_state_is_exact();
            }
            let h = l.hypothesis();
            let Some(cex) = table(target).difference(&h, &alphabet) else { break };
            l.refine(&cex, target).expect("a counterexample makes progress");
        }
        l.stats
    }

    #[test]
    fn the_incremental_bookkeeping_is_exact_with_prefix_queries() {
        for separation in [Separation::Witness, Separation::Ads] {
            for (seed, prefix_closed) in (1..=24).map(|s| (s, s % 2 == 0)) {
                let table = Table::random(6 + seed as usize % 7, 2 + seed as usize % 3, seed, prefix_closed);
                let mut oracle = Prefixes { table, runs: 0, letters: 0 };
                learn_with_oracle(&mut oracle, |p| &p.table, prefix_closed, separation, true);
            }
        }
    }

    /// One prefix query is one membership query and its letters, and it records the answer of
    /// every prefix: after asking `l0 l1 l0` of a fresh learner, the three shorter words are
    /// answered from the tree.
    #[test]
    fn a_prefix_query_counts_once_and_answers_every_prefix() {
        let table = Table::random(8, 2, 3, false);
        let mut oracle = Prefixes { table, runs: 0, letters: 0 };
        let mut l = LSharp::new(vec!["l0".into(), "l1".into()], false);
        l.ask(ROOT, &[0, 1, 0], &mut oracle);
        assert_eq!((l.stats.membership, l.stats.symbols, oracle.runs, oracle.letters), (1, 3, 1, 3));
        for prefix in [&[][..], &[0], &[0, 1]] {
            let (_, b) = l.ask(ROOT, prefix, &mut oracle);
            assert_eq!(b, oracle.table.run(prefix));
        }
        assert_eq!((l.stats.membership, l.stats.cached, oracle.runs), (1, 3, 1));
    }

    /// On a fixed 40-state prefix-closed target over 8 letters, an oracle that answers every
    /// prefix in one run is asked fewer queries (each counted once) than one that answers one
    /// word at a time, and fewer equivalence queries; the counts are pinned so that a change
    /// of the unit shows. (The oracle also runs adaptive queries, so its runs end with the
    /// guided tail.)
    #[test]
    fn prefix_queries_ask_fewer_queries_than_word_queries_on_a_fixed_target() {
        let words = learn_table(&mut Table::random(40, 8, 11, true), true, Separation::Witness, false);
        let mut oracle = Prefixes { table: Table::random(40, 8, 11, true), runs: 0, letters: 0 };
        let prefixes = learn_with_oracle(&mut oracle, |p| &p.table, true, Separation::Witness, false);
        assert_eq!(
            ((words.membership, words.candidates), (prefixes.membership, prefixes.candidates)),
            ((1855, 40), (1207, 1))
        );
    }

    /// The ADS rule with an oracle that runs each adaptive sequence in one run: one query per
    /// sequence, so fewer queries than the same rule with one word per test (pinned, as above).
    #[test]
    fn an_adaptive_query_counts_once_per_sequence_on_a_fixed_target() {
        let words = learn_table(&mut Table::random(40, 8, 11, true), true, Separation::Ads, false);
        let mut oracle = Prefixes { table: Table::random(40, 8, 11, true), runs: 0, letters: 0 };
        let adaptive = learn_with_oracle(&mut oracle, |p| &p.table, true, Separation::Ads, false);
        assert_eq!((adaptive.membership, adaptive.symbols), (oracle.runs, oracle.letters));
        assert_eq!(
            ((words.membership, words.candidates), (adaptive.membership, adaptive.candidates)),
            ((1706, 31), (1160, 1))
        );
    }

    /// The learner's counts are the oracle's runs and letters, with and without prefix
    /// queries, on random targets of both kinds.
    #[test]
    fn the_learners_counts_are_the_oracles_runs_and_letters() {
        /// [`Prefixes`] answering one word at a time.
        struct Words(Prefixes);
        impl Membership for Words {
            fn member(&mut self, w: &[String]) -> bool {
                self.0.member(w)
            }
            fn member_indexed(&mut self, a: &[String], w: &[u32]) -> bool {
                self.0.member_indexed(a, w)
            }
        }
        for (seed, prefix_closed) in (1..=12).map(|s| (s, s % 2 == 0)) {
            let mut oracle = Prefixes { table: Table::random(10, 3, seed, prefix_closed), runs: 0, letters: 0 };
            let stats = learn_with_oracle(&mut oracle, |p| &p.table, prefix_closed, Separation::Witness, false);
            assert_eq!((stats.membership, stats.symbols), (oracle.runs, oracle.letters), "seed {seed}, prefixes");
            let mut oracle = Prefixes { table: Table::random(10, 3, seed, prefix_closed), runs: 0, letters: 0 };
            let stats = learn_with_oracle(&mut oracle, |p| &p.table, prefix_closed, Separation::Ads, false);
            assert_eq!((stats.membership, stats.symbols), (oracle.runs, oracle.letters), "seed {seed}, adaptive");
            let mut oracle = Words(Prefixes { table: Table::random(10, 3, seed, prefix_closed), runs: 0, letters: 0 });
            let stats = learn_with_oracle(&mut oracle, |p| &p.0.table, prefix_closed, Separation::Witness, false);
            assert_eq!((stats.membership, stats.symbols), (oracle.0.runs, oracle.0.letters), "seed {seed}, words");
        }
    }

    #[test]
    fn the_incremental_bookkeeping_equals_a_fresh_computation_after_every_round() {
        for separation in [Separation::Witness, Separation::Ads] {
            for (seed, prefix_closed) in (1..=24).map(|s| (s, s % 2 == 0)) {
                let mut target = Table::random(6 + seed as usize % 7, 2 + seed as usize % 3, seed, prefix_closed);
                learn_table(&mut target, prefix_closed, separation, true);
            }
        }
    }

    /// With an oracle that runs adaptive queries, the tail that follows the hypothesis
    /// ([`LSharp::guided_tail`]) finds states before the teacher does: on a fixed 150-state
    /// prefix-closed target over 3 letters, fewer equivalence queries than without it (both
    /// pinned, with the membership queries).
    #[test]
    fn the_guided_tail_asks_fewer_equivalence_queries_on_a_fixed_target() {
        let count = |tail: usize| {
            let mut oracle = Prefixes { table: Table::random(150, 3, 5, true), runs: 0, letters: 0 };
            let alphabet: Vec<String> = (0..3).map(|a| format!("l{a}")).collect();
            let mut l = LSharp::new(alphabet.clone(), true);
            l.guided_tail = tail;
            l.close(&mut oracle);
            while let Some(cex) = oracle.table.difference(&l.hypothesis(), &alphabet) {
                l.refine(&cex, &mut oracle).expect("a counterexample makes progress");
            }
            (l.stats.membership, l.stats.candidates)
        };
        let (without, with) = (count(0), count(GUIDED_TAIL));
        assert!(with.1 < without.1, "{with:?} against {without:?}");
        assert_eq!((without, with), ((1992, 59), (1354, 1)));
    }

    /// With the witness rule, an adaptive separation run goes on from the node it has reached
    /// with the shortest witness of the candidates still agreeing with it: candidates `l1`,
    /// `l1 l1` and `l1 l1 l1`, of which the first witness `l0` leaves the first and the third,
    /// and `l0 l1` below them tells those apart; the frontier node `l0` is asked `l0 l0 l1` in
    /// the same run (one query). Without a rule the run stops after `l0 l0`.
    #[test]
    fn the_witness_rules_run_goes_on_with_the_witness_of_the_candidates_left() {
        let ask = |split: Option<Separation>| {
            let mut l = LSharp::new(vec!["l0".into(), "l1".into()], false);
            let known: [(&[u32], bool); 8] = [
                (&[1], true),
                (&[1, 1], true),
                (&[1, 1, 1], true),
                (&[1, 0], true),
                (&[1, 1, 0], false),
                (&[1, 1, 1, 0], true),
                (&[1, 0, 1], true),
                (&[1, 1, 1, 0, 1], false),
            ];
            for (w, b) in known {
                let n = l.tree.walk_or_add(ROOT, w);
                l.tree.set_out(n, b);
            }
            for w in [&[1][..], &[1, 1], &[1, 1, 1]] {
                let n = l.tree.walk(ROOT, w).expect("added");
                l.push_basis(n);
            }
            let f = l.tree.walk_or_add(ROOT, &[0]);
            // Accepts every word but `l0 l0 l1`: states 0, `l0`, `l0 l0`, `l0 l0 l1`, the rest.
            let next = [1, 4, 2, 4, 4, 3, 4, 4, 4, 4].map(Some).to_vec();
            let table = Table { k: 2, accepting: vec![true, true, true, false, true], next };
            let mut oracle = Prefixes { table, runs: 0, letters: 0 };
            l.ask_adaptive(f, &[1, 2, 3], vec![0], split, true, &mut oracle);
            let asked = l.tree.walk(ROOT, &[0, 0, 1]).and_then(|n| l.tree.out(n));
            (l.stats.membership, oracle.runs, asked)
        };
        assert_eq!(ask(Some(Separation::Witness)), (1, 1, Some(false)));
        assert_eq!(ask(None), (1, 1, None));
    }

    /// A counterexample-processing query the tree does not answer is one adaptive run that
    /// goes on with the guided tail: one membership query, its word's letters and
    /// [`GUIDED_TAIL`] more (a target that is not prefix-closed, so the tail is never cut).
    #[test]
    fn a_counterexample_processing_query_carries_the_guided_tail() {
        let mut oracle = Prefixes { table: Table::random(12, 3, 7, false), runs: 0, letters: 0 };
        let mut l = LSharp::new((0..3).map(|a| format!("l{a}")).collect(), false);
        l.close(&mut oracle);
        let word: Vec<u32> = (0..40).map(|i| (i * 7 % 5 % 3) as u32).collect();
        assert!(l.tree.walk(ROOT, &word).and_then(|n| l.tree.out(n)).is_none());
        let (membership, symbols, runs) = (l.stats.membership, l.stats.symbols, oracle.runs);
        let (_, b) = l.ask_tested(ROOT, 0, &word, &mut oracle);
        assert_eq!(b, oracle.table.run(&word));
        assert_eq!(
            (l.stats.membership - membership, l.stats.symbols - symbols, oracle.runs - runs),
            (1, word.len() + GUIDED_TAIL, 1)
        );
        // Asked again, it is a cache hit.
        l.ask_tested(ROOT, 0, &word, &mut oracle);
        assert_eq!(l.stats.membership - membership, 1);
    }

    /// On a fixed 40-state prefix-closed target over 8 letters, the ADS rule identifies the
    /// frontier nodes with fewer membership queries than the shortest witness does.
    #[test]
    fn the_ads_rule_asks_fewer_queries_than_the_witness_rule_on_a_fixed_target() {
        let count = |separation| learn_table(&mut Table::random(40, 8, 11, true), true, separation, false).membership;
        let (witness, ads) = (count(Separation::Witness), count(Separation::Ads));
        assert_eq!((witness, ads), (1855, 1706));
    }

    /// A learner restored from its saved tree is not closed (its target is gone), so
    /// `hypothesis` cannot be asked of it; `tree_model` can. After a run to the end, the model
    /// of the restored tree is the learned hypothesis (no word tells them apart); with a saved
    /// basis cut short or forged, it is still a model (no panic), as adaptive L# needs.
    #[test]
    fn the_model_of_a_restored_tree_is_the_learned_hypothesis() {
        for (seed, prefix_closed) in (1..=16).map(|s| (s, s % 2 == 0)) {
            let mut table = Table::random(6 + seed as usize % 7, 2 + seed as usize % 3, seed, prefix_closed);
            let alphabet: Vec<String> = (0..table.k).map(|a| format!("l{a}")).collect();
            let mut l = LSharp::new(alphabet.clone(), prefix_closed);
            l.close(&mut table);
            while let Some(cex) = table.difference(&l.hypothesis(), &alphabet) {
                l.refine(&cex, &mut table).expect("a counterexample makes progress");
            }
            let saved = l.saved();
            let restored = LSharp::from_saved(&saved).expect("a well-formed tree");
            assert_eq!(table.difference(&restored.tree_model(), &alphabet), None, "seed {seed}");
            let mut cut = saved.clone();
            cut.basis.truncate(1 + cut.basis.len() / 2);
            cut.basis.push(vec![0; 40]);
            let cut = LSharp::from_saved(&cut).expect("a well-formed tree");
            let model = cut.tree_model();
            // Along a basis word the model follows basis nodes, so it gives the tree's answer.
            for &b in &cut.basis {
                let word: Vec<String> = cut.tree.word(b).iter().map(|&a| alphabet[a as usize].clone()).collect();
                let events: Vec<&str> = word.iter().map(String::as_str).collect();
                assert_eq!(model.accepts(&Trace::of_events(&events)), table.run(&cut.tree.word(b)), "seed {seed}");
            }
        }
    }
}
