//! The subst side of the L* comparison with AALpy (`benches/learning_vs_aalpy.sh` runs both and
//! prints the table; `benches/LEARNING.md` explains what is counted).
//!
//! Usage:
//! - `learning gen DIR [SPECS_DIR]` writes the targets into DIR, one JSON file each: seeded random
//!   prefix-closed DFAs, and the weakest assumptions of the checks in SPECS_DIR (default
//!   `specs/`), each one learned to completion by subst's L* before it is written;
//! - `learning run FILE...` learns each target with `subst::learn::lstar::learn` and an exact
//!   equivalence oracle, and prints one JSON object a line with the counts (`--learner lsharp`:
//!   L# with its default separation rule, `lsharp-witness` and `lsharp-ads` with the shortest
//!   witness and the ADS rule; `--learner adaptive`: adaptive L# whose reference model is the target with one
//!   transition redirected, the transition of the middle state on the first letter, to the next
//!   state: the re-learning of a slightly changed system). The teacher answers every prefix of
//!   a word in one run (an output query, AALpy's unit; `membership` counts runs and `symbols`
//!   their letters); `--words` makes it answer one word at a time, as the teachers of
//!   `check` do. `--probe-tail N` sets L#'s `probe_tail` (default `lsharp::PROBE_TAIL`), the
//!   fixed tail asked with a prefix oracle; `--guided-tail N` its `guided_tail` (default
//!   `lsharp::GUIDED_TAIL`; 0 for none), the tail that follows the hypothesis in adaptive runs.
//!
//! (`cargo bench --bench learning -- gen DIR` works too: the `--bench` flag cargo adds is
//! ignored.)
//!
//! The target format, shared with `benches/learning_vs_aalpy.py`:
//!
//! ```json
//! {"format": "subst-learning-target/1", "name": "random-n20-k3-d47-s1", "kind": "random",
//!  "prefix_closed": true, "alphabet": ["a", "b"], "initial": 0,
//!  "accepting": [true, true], "delta": [[1, -1], [0, 1]]}
//! ```
//!
//! The alphabet is sorted; `delta[q][i]` is the successor of state `q` on `alphabet[i]`, and -1
//! stands for an implicit rejecting sink (every word through it is rejected). `initial` is -1
//! for the empty language. The listed states form a minimal DFA with every state reachable, so
//! the complete minimal DFA has `len(accepting)` states plus the sink when some entry is -1.
//!
//! Both sides use the same equivalence oracle: a breadth-first search of the product of the
//! hypothesis and the target that expands letters in alphabet order and returns the first
//! distinguishing word it meets. That word is the least one in length-lexicographic order of
//! the symmetric difference, so it depends only on the hypothesis's language, and both learners
//! get the same counterexample for the same hypothesis.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use subst::automata::dla::{Dla, StateId};
use subst::automata::safety;
use subst::check::ag::{AssumptionOracle, DynamicChecker, expose_errors};
use subst::check::verify::ordered_parts;
use subst::learn::lstar::{CexMode, Membership, Stats, Teacher, learn};
use subst::learn::{LSharp, Separation};

/// The format tag of target files.
const FORMAT: &str = "subst-learning-target/1";

/// Sizes of the random targets (states besides the sink).
const RANDOM_SIZES: [usize; 3] = [20, 100, 500];

/// Alphabet sizes of the random targets: one target of each size with each, so that the range
/// of 3 to 10 letters is covered at every size. Each has its own seed and density.
const RANDOM_LETTERS: [usize; 3] = [3, 6, 10];

/// Letters of the random targets.
const LETTERS: [&str; 10] = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

/// Random words per weakest assumption on which the explicit construction is compared with
/// subst's membership oracle, beyond the words the learner asks.
const VALIDATION_WORDS: usize = 2000;

fn main() -> ExitCode {
    // `--learner NAME` picks the learner of `run`; other `--` flags (cargo's `--bench`) are
    // ignored.
    let mut learners: Vec<Algorithm> = Vec::new();
    let mut args: Vec<String> = Vec::new();
    let mut options = RunOptions {
        words: false,
        probe_tail: subst::learn::lsharp::PROBE_TAIL,
        guided_tail: subst::learn::lsharp::GUIDED_TAIL,
    };
    let mut raw = std::env::args().skip(1);
    while let Some(a) = raw.next() {
        if a == "--words" {
            options.words = true;
        } else if a == "--guided-tail" || a == "--probe-tail" {
            let Some(n) = raw.next().and_then(|n| n.parse().ok()) else {
                eprintln!("learning: {a} needs a number");
                return ExitCode::FAILURE;
            };
            if a == "--guided-tail" {
                options.guided_tail = n;
            } else {
                options.probe_tail = n;
            }
        } else if a == "--learner" {
            match raw.next().as_deref() {
                Some("lstar") => learners.push(Algorithm::LStar),
                Some("lsharp") => learners.push(Algorithm::LSharp(Separation::default())),
                Some("lsharp-witness") => learners.push(Algorithm::LSharp(Separation::Witness)),
                Some("lsharp-ads") => learners.push(Algorithm::LSharp(Separation::Ads)),
                Some("adaptive") => learners.push(Algorithm::Adaptive),
                Some("all") => learners.extend([Algorithm::LStar, Algorithm::LSharp(Separation::default())]),
                other => {
                    eprintln!("learning: --learner lstar|lsharp|lsharp-witness|lsharp-ads|adaptive|all, not {other:?}");
                    return ExitCode::FAILURE;
                }
            }
        } else if !a.starts_with("--") {
            args.push(a);
        }
    }
    if learners.is_empty() {
        learners.push(Algorithm::LStar);
    }
    let result = match args.first().map(String::as_str) {
        Some("gen") if args.len() >= 2 => {
            let specs = args.get(2).map_or_else(|| PathBuf::from("specs"), PathBuf::from);
            generate(Path::new(&args[1]), &specs)
        }
        Some("run") => {
            args[1..].iter().try_for_each(|f| learners.iter().try_for_each(|&l| run(Path::new(f), l, options)))
        }
        _ => {
            eprintln!(
                "usage: learning gen DIR [SPECS_DIR] | learning run [--learner lstar|lsharp|lsharp-witness|lsharp-ads|adaptive|all] [--words] [--probe-tail N] [--guided-tail N] FILE... \\
                 (FILE: a target .json, or a LearnLib v2 .dfa or .dfa.gz; see benches/LEARNING.md)"
            );
            return ExitCode::SUCCESS;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("learning: {e}");
            ExitCode::FAILURE
        }
    }
}

/// How `run` asks: whether the teacher answers one word at a time, and L#'s probe tail.
#[derive(Clone, Copy, Debug)]
struct RunOptions {
    words: bool,
    probe_tail: usize,
    guided_tail: usize,
}

/// The learners `run` can use.
#[derive(Clone, Copy, Debug)]
enum Algorithm {
    LStar,
    /// L# with the given separation rule.
    LSharp(Separation),
    /// Adaptive L# with the target, one transition redirected, as its reference.
    Adaptive,
}

impl Algorithm {
    fn name(self) -> &'static str {
        match self {
            Algorithm::LStar => "lstar",
            Algorithm::LSharp(s) if s == Separation::default() => "lsharp",
            Algorithm::LSharp(Separation::Witness) => "lsharp-witness",
            Algorithm::LSharp(Separation::Ads) => "lsharp-ads",
            Algorithm::Adaptive => "adaptive",
        }
    }
}

/// A target DFA as stored in a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Target {
    format: String,
    name: String,
    /// `random` or `assumption`.
    kind: String,
    prefix_closed: bool,
    alphabet: Vec<String>,
    initial: i64,
    accepting: Vec<bool>,
    delta: Vec<Vec<i64>>,
}

impl Target {
    fn start(&self) -> Option<usize> {
        usize::try_from(self.initial).ok()
    }

    fn step(&self, q: Option<usize>, letter: usize) -> Option<usize> {
        q.and_then(|q| usize::try_from(self.delta[q][letter]).ok())
    }

    fn accepts(&self, q: Option<usize>) -> bool {
        q.is_some_and(|q| self.accepting[q])
    }

    fn letter(&self, name: &str) -> usize {
        self.alphabet.binary_search_by(|l| l.as_str().cmp(name)).expect("a letter of the target's alphabet")
    }

    fn member(&self, word: &[String]) -> bool {
        let mut q = self.start();
        for l in word {
            q = self.step(q, self.letter(l));
        }
        self.accepts(q)
    }

    fn member_indexed(&self, word: &[u32]) -> bool {
        let mut q = self.start();
        for &a in word {
            q = self.step(q, a as usize);
        }
        self.accepts(q)
    }

    /// A LearnLib v2 file (`n k`, `n` acceptance flags, `n` rows of `k` successors; state 0 is
    /// initial), read through `gzip -dc` when its name ends in `.gz`. Letters are named `a00`,
    /// `a01`, ... so that their sorted order is LearnLib's. When the language is prefix-closed
    /// (no rejecting state reaches an accepting one), the rejecting states become the implicit
    /// sink; otherwise every state is listed with its acceptance.
    fn from_learnlib(path: &Path) -> Result<Target, String> {
        let bytes = if path.extension().is_some_and(|e| e == "gz") {
            let out = std::process::Command::new("gzip")
                .arg("-dc")
                .arg(path)
                .output()
                .map_err(|e| format!("cannot run gzip on {}: {e}", path.display()))?;
            if !out.status.success() {
                return Err(format!("gzip -dc {} failed", path.display()));
            }
            out.stdout
        } else {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
        };
        let text = String::from_utf8(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut numbers = text.split_whitespace().map(|t| t.parse::<usize>());
        let mut next = || -> Result<usize, String> {
            numbers
                .next()
                .ok_or_else(|| format!("{}: the file ends early", path.display()))?
                .map_err(|e| format!("{}: {e}", path.display()))
        };
        let (n, k) = (next()?, next()?);
        if n == 0 {
            return Err(format!("{}: no states", path.display()));
        }
        let accepting: Vec<bool> = (0..n).map(|_| next().map(|f| f != 0)).collect::<Result<_, _>>()?;
        let mut delta = vec![vec![0usize; k]; n];
        for row in delta.iter_mut() {
            for t in row.iter_mut() {
                *t = next()?;
                if *t >= n {
                    return Err(format!("{}: successor {} of {n} states", path.display(), *t));
                }
            }
        }
        // Prefix-closed iff no rejecting state reaches an accepting one.
        let mut reaches_accepting = accepting.clone();
        loop {
            let mut changed = false;
            for q in 0..n {
                if !reaches_accepting[q] && delta[q].iter().any(|&r| reaches_accepting[r]) {
                    reaches_accepting[q] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let prefix_closed = (0..n).all(|q| accepting[q] || !reaches_accepting[q]);
        let keep: Vec<bool> = (0..n).map(|q| !prefix_closed || accepting[q]).collect();
        let mut number = vec![-1i64; n];
        let mut count = 0;
        for q in 0..n {
            if keep[q] {
                number[q] = count;
                count += 1;
            }
        }
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or("dfa");
        let name = name.trim_end_matches(".gz").trim_end_matches(".dfa").to_string();
        Ok(Target {
            format: FORMAT.into(),
            name: format!("learnlib-{name}"),
            kind: "learnlib".into(),
            prefix_closed,
            alphabet: (0..k).map(|a| format!("a{a:02}")).collect(),
            initial: number[0],
            accepting: (0..n).filter(|&q| keep[q]).map(|q| accepting[q]).collect(),
            delta: (0..n).filter(|&q| keep[q]).map(|q| delta[q].iter().map(|&r| number[r]).collect()).collect(),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Learning a target with subst.

/// A teacher for a target DFA with an exact equivalence oracle.
struct DfaTeacher<'a> {
    target: &'a Target,
    /// An alphabet found equal to the target's (the learner's, which does not move).
    same_alphabet: *const String,
    /// Answer one word at a time (no prefix queries).
    words: bool,
    membership: usize,
    /// Letters of the membership queries.
    symbols: usize,
    equivalence: usize,
    /// The CPU time spent in the equivalence oracle, in milliseconds (the script subtracts it
    /// on both sides for the learner's own time).
    eq_cpu_ms: f64,
    /// The equivalence oracle's buffers, kept between calls.
    scratch: ProductScratch,
}

impl DfaTeacher<'_> {
    /// Whether `alphabet` is the target's (the learners sort their alphabet, as targets do:
    /// the indices are then the target's); remembered by address after the first comparison.
    fn same_alphabet(&mut self, alphabet: &[String]) -> bool {
        if std::ptr::eq(alphabet.as_ptr(), self.same_alphabet) {
            return true;
        }
        if alphabet != self.target.alphabet {
            return false;
        }
        self.same_alphabet = alphabet.as_ptr();
        true
    }
}

impl Membership for DfaTeacher<'_> {
    fn member(&mut self, word: &[String]) -> bool {
        self.membership += 1;
        self.symbols += word.len();
        self.target.member(word)
    }

    fn member_indexed(&mut self, alphabet: &[String], word: &[u32]) -> bool {
        if !self.same_alphabet(alphabet) {
            let names: Vec<String> = word.iter().map(|&a| alphabet[a as usize].clone()).collect();
            return self.member(&names);
        }
        self.membership += 1;
        self.symbols += word.len();
        self.target.member_indexed(word)
    }

    fn member_prefixes_indexed(&mut self, alphabet: &[String], word: &[u32]) -> Vec<bool> {
        if !self.same_alphabet(alphabet) {
            return (0..=word.len()).map(|i| self.member_indexed(alphabet, &word[..i])).collect();
        }
        // One run of the word, an answer after every letter: one query.
        self.membership += 1;
        self.symbols += word.len();
        let mut q = self.target.start();
        let mut answers = Vec::with_capacity(word.len() + 1);
        answers.push(self.target.accepts(q));
        for &a in word {
            q = self.target.step(q, a as usize);
            answers.push(self.target.accepts(q));
        }
        answers
    }

    fn answers_prefixes(&self) -> bool {
        !self.words
    }

    fn member_adaptive_indexed(
        &mut self,
        alphabet: &[String],
        word: &[u32],
        next: &mut dyn FnMut(bool) -> Option<u32>,
    ) -> Vec<bool> {
        if !self.same_alphabet(alphabet) {
            let mut w = word.to_vec();
            let mut answers: Vec<bool> = (0..=w.len()).map(|i| self.member_indexed(alphabet, &w[..i])).collect();
            while let Some(a) = next(*answers.last().expect("the empty word's answer")) {
                w.push(a);
                answers.push(self.member_indexed(alphabet, &w));
            }
            return answers;
        }
        // One run: the word, then one letter at a time as `next` chooses.
        self.membership += 1;
        let mut q = self.target.start();
        // Room for the letters `next` adds (L#'s guided tail is 100), so that the answers are
        // not copied as they grow.
        let mut answers = Vec::with_capacity(word.len() + 128);
        answers.push(self.target.accepts(q));
        for &a in word {
            q = self.target.step(q, a as usize);
            answers.push(self.target.accepts(q));
        }
        let mut letters = word.len();
        while let Some(a) = next(*answers.last().expect("the empty word's answer")) {
            q = self.target.step(q, a as usize);
            answers.push(self.target.accepts(q));
            letters += 1;
        }
        self.symbols += letters;
        answers
    }

    fn answers_adaptively(&self) -> bool {
        !self.words
    }
}

impl Teacher for DfaTeacher<'_> {
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>> {
        self.equivalence += 1;
        let start = cpu_ms();
        let found = shortest_difference(self.target, hypothesis, &mut self.scratch);
        self.eq_cpu_ms += cpu_ms() - start;
        found
    }
}

/// Buffers of [`shortest_difference`]. A pair of states is seen when its target state's
/// `first` is stamped with this call and holds its hypothesis state, or when it is in `more`
/// (a target state reached with a second hypothesis state: rare once the hypothesis is close),
/// so the search touches a few small arrays instead of one entry per pair of states.
#[derive(Default)]
struct ProductScratch {
    /// Per target state (the sink last): the call that last reached it.
    stamp: Vec<u32>,
    /// Per target state: the hypothesis state it was first reached with in that call.
    first: Vec<u32>,
    more: std::collections::HashSet<(u32, u32)>,
    call: u32,
    /// The search's queue: (target state, hypothesis state, index of the entry it was
    /// reached from, letter), the start's index `u32::MAX`.
    queue: Vec<(u32, u32, u32, u32)>,
    /// The target's successors, `nt` for the sink (which is state `nt`); built with the
    /// teacher, before the timed span (AALpy's side reads the target's table as it is).
    t_next: Vec<u32>,
}

impl ProductScratch {
    /// The buffers for `target`, its successor table filled in.
    fn new(target: &Target) -> ProductScratch {
        let (k, nt) = (target.alphabet.len(), target.accepting.len());
        let t_next = (0..=nt)
            .flat_map(|q| (0..k).map(move |a| (q, a)))
            .map(|(q, a)| if q == nt { nt as u32 } else { u32::try_from(target.delta[q][a]).unwrap_or(nt as u32) })
            .collect();
        ProductScratch { t_next, ..ProductScratch::default() }
    }
}

/// The length-lexicographically least word on which `hypothesis` and `target` disagree: a
/// breadth-first search of the product, letters in alphabet order. States are numbered, the
/// missing ones (the target's implicit sink, the hypothesis's missing transitions) last.
fn shortest_difference(target: &Target, hypothesis: &Dla, scratch: &mut ProductScratch) -> Option<Vec<String>> {
    let k = target.alphabet.len();
    let nh = hypothesis.n_states();
    // Per event of the hypothesis, the target's letter (or none).
    let mut letter_of: Vec<Option<usize>> = vec![None; hypothesis.alphabet().len()];
    for (a, l) in target.alphabet.iter().enumerate() {
        if let Some(e) = hypothesis.event_index(l) {
            letter_of[e as usize] = Some(a);
        }
    }
    // The hypothesis's successor on each target letter (it is deterministic; a missing
    // transition rejects everything after it), `nh` for none.
    let mut h_next = vec![nh as u32; (nh + 1) * k];
    for (q, state) in hypothesis.states().iter().enumerate() {
        for t in state.out.iter().rev() {
            if let Some(&Some(a)) = letter_of.get(t.event as usize) {
                h_next[q * k + a] = t.to.0;
            }
        }
    }
    let h_accepts: Vec<bool> = (0..nh).map(|q| hypothesis.is_accepting(StateId(q as u32))).chain([false]).collect();
    let t_next = std::mem::take(&mut scratch.t_next);
    let start_h = hypothesis.initial().first().map_or(nh as u32, |s| s.0);
    let found = product_search(target, scratch, &t_next, (&h_next, &h_accepts, start_h));
    scratch.t_next = t_next;
    found
}

/// The breadth-first search of [`shortest_difference`] over the dense tables.
fn product_search(
    target: &Target,
    scratch: &mut ProductScratch,
    t_next: &[u32],
    (h_next, h_accepts, start_h): (&[u32], &[bool], u32),
) -> Option<Vec<String>> {
    let (k, nt, nh) = (target.alphabet.len(), target.accepting.len(), h_accepts.len() - 1);
    let t_accepts = |t: u32| (t as usize) < nt && target.accepting[t as usize];
    if scratch.stamp.len() < nt + 1 {
        scratch.stamp.resize(nt + 1, 0);
        scratch.first.resize(nt + 1, 0);
    }
    scratch.call += 1;
    let call = scratch.call;
    scratch.more.clear();
    let ProductScratch { stamp, first, more, queue, .. } = scratch;
    // Marks the pair seen; whether it was new.
    let mut visit = |t: u32, h: u32| {
        if stamp[t as usize] != call {
            stamp[t as usize] = call;
            first[t as usize] = h;
            true
        } else {
            first[t as usize] != h && more.insert((t, h))
        }
    };
    let start_t = target.start().map_or(nt as u32, |t| t as u32);
    visit(start_t, start_h);
    queue.clear();
    queue.push((start_t, start_h, u32::MAX, 0));
    let mut head = 0;
    while head < queue.len() {
        let (t, h, _, _) = queue[head];
        if t_accepts(t) != h_accepts[h as usize] {
            let mut word = Vec::new();
            let mut at = head;
            while queue[at].2 != u32::MAX {
                word.push(target.alphabet[queue[at].3 as usize].clone());
                at = queue[at].2 as usize;
            }
            word.reverse();
            return Some(word);
        }
        if !(t as usize == nt && h as usize == nh) {
            for a in 0..k {
                let (t2, h2) = (t_next[t as usize * k + a], h_next[h as usize * k + a]);
                if visit(t2, h2) {
                    queue.push((t2, h2, head as u32, a as u32));
                }
            }
        }
        head += 1;
    }
    None
}

/// One line of `learning run`.
#[derive(Serialize)]
struct RunLine<'a> {
    name: &'a str,
    kind: &'a str,
    learner: &'a str,
    states: usize,
    letters: usize,
    membership: usize,
    symbols: usize,
    equivalence: usize,
    cached: usize,
    shortcut: usize,
    hypothesis_states: usize,
    /// L# only: hypotheses refined from the tree's answers without asking the teacher.
    #[serde(skip_serializing_if = "Option::is_none")]
    tree_refinements: Option<usize>,
    ms: f64,
    /// The CPU time (user and system) of the same span, which the load of other processes
    /// does not stretch as it does `ms`.
    cpu_ms: f64,
    /// The part of `cpu_ms` spent in the equivalence oracle (the teacher's product search).
    eq_cpu_ms: f64,
}

/// The CPU time this process has used so far, in milliseconds.
fn cpu_ms() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `clock_gettime` writes one `timespec` through a valid pointer.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    if ok { ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6 } else { f64::NAN }
}

fn run(path: &Path, algorithm: Algorithm, options: RunOptions) -> Result<(), String> {
    let file = path.file_name().and_then(|s| s.to_str()).unwrap_or("");
    let target: Target = if file.ends_with(".dfa") || file.ends_with(".dfa.gz") {
        Target::from_learnlib(path)?
    } else {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
    };
    if target.format != FORMAT {
        return Err(format!("{}: format `{}`, expected `{FORMAT}`", path.display(), target.format));
    }
    let mut teacher = DfaTeacher {
        target: &target,
        same_alphabet: std::ptr::null(),
        words: options.words,
        membership: 0,
        symbols: 0,
        equivalence: 0,
        eq_cpu_ms: 0.0,
        scratch: ProductScratch::new(&target),
    };
    let start = Instant::now();
    let cpu_start = cpu_ms();
    let mut tree_refinements = None;
    let (hypothesis, stats): (Dla, Stats) = match algorithm {
        Algorithm::LStar => learn(target.alphabet.clone(), &mut teacher, CexMode::RivestSchapire, target.prefix_closed),
        Algorithm::LSharp(separation) => {
            // `lsharp::learn`, written out to read the learner's count of tree refinements.
            let mut learner = LSharp::new(target.alphabet.clone(), target.prefix_closed);
            learner.separation = separation;
            learner.probe_tail = options.probe_tail;
            learner.guided_tail = options.guided_tail;
            learner.close(&mut teacher);
            loop {
                let h = learner.hypothesis();
                match teacher.candidate(&h) {
                    None => {
                        tree_refinements = Some(learner.tree_refinements);
                        break Ok((h, learner.stats));
                    }
                    Some(cex) => {
                        if let Err(e) = learner.refine(&cex, &mut teacher) {
                            break Err(e);
                        }
                    }
                }
            }
        }
        Algorithm::Adaptive => {
            let reference = perturbed(&target);
            subst::learn::adaptive::learn(target.alphabet.clone(), &mut teacher, target.prefix_closed, &reference)
        }
    }
    .map_err(|e| format!("{}: {e}", target.name))?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = cpu_ms() - cpu_start;
    // The learner's own count and the teacher's must agree, or the table below counts the
    // wrong thing.
    if stats.membership != teacher.membership
        || stats.symbols != teacher.symbols
        || stats.candidates != teacher.equivalence
    {
        return Err(format!(
            "{}: Stats says {} membership, {} symbols and {} candidates, the teacher saw {}, {} and {}",
            target.name,
            stats.membership,
            stats.symbols,
            stats.candidates,
            teacher.membership,
            teacher.symbols,
            teacher.equivalence
        ));
    }
    let line = RunLine {
        name: &target.name,
        kind: &target.kind,
        learner: algorithm.name(),
        states: target.accepting.len(),
        letters: target.alphabet.len(),
        membership: stats.membership,
        symbols: stats.symbols,
        equivalence: stats.candidates,
        cached: stats.cached,
        shortcut: stats.shortcut,
        hypothesis_states: hypothesis.n_states(),
        tree_refinements,
        ms,
        cpu_ms,
        eq_cpu_ms: teacher.eq_cpu_ms,
    };
    println!("{}", serde_json::to_string(&line).expect("serialisable"));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Generating targets.

fn generate(dir: &Path, specs: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = 0;
    for &n in &RANDOM_SIZES {
        for (s, &k) in (1..).zip(&RANDOM_LETTERS) {
            let target = random_target(n, k, s);
            write(dir, &target)?;
            written += 1;
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(specs)
        .map_err(|e| format!("cannot read {}: {e}", specs.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lts"))
        .collect();
    files.sort();
    for file in files {
        for target in assumption_targets(&file)? {
            write(dir, &target)?;
            written += 1;
        }
    }
    eprintln!("learning: wrote {written} targets to {}", dir.display());
    Ok(())
}

fn write(dir: &Path, target: &Target) -> Result<(), String> {
    let path = dir.join(format!("{}.json", target.name));
    let text = serde_json::to_string(target).expect("serialisable");
    std::fs::write(&path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A random prefix-closed DFA with `n` accepting states, all reachable and pairwise
/// inequivalent, over `k` letters. A random spanning tree from the initial state makes every
/// state reachable; every other transition exists with a probability `density` (drawn per
/// target between 0.2 and 0.9) and goes to a uniformly drawn state. Sparse random graphs have
/// many equivalent states (every dead end is like every other), so while two states are
/// equivalent, one of them gets a random non-tree transition redrawn; the name records the
/// share of defined transitions in the end.
fn random_target(n: usize, k: usize, seed: u64) -> Target {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0000 + 1000 * n as u64 + seed);
    let density: f64 = rng.random_range(0.2..0.9);
    let mut delta = vec![vec![-1i64; k]; n];
    let mut tree = vec![vec![false; k]; n];
    for child in 1..n {
        loop {
            let parent = rng.random_range(0..child);
            let letter = rng.random_range(0..k);
            if delta[parent][letter] < 0 {
                delta[parent][letter] = child as i64;
                tree[parent][letter] = true;
                break;
            }
        }
    }
    for row in delta.iter_mut() {
        for t in row.iter_mut() {
            if *t < 0 && rng.random_bool(density) {
                *t = rng.random_range(0..n) as i64;
            }
        }
    }
    let mut target = Target {
        format: FORMAT.into(),
        name: String::new(),
        kind: "random".into(),
        prefix_closed: true,
        alphabet: LETTERS[..k].iter().map(|l| l.to_string()).collect(),
        initial: 0,
        accepting: vec![true; n],
        delta,
    };
    loop {
        let class = classes(&target);
        let mut first_of: HashMap<usize, usize> = HashMap::new();
        let mut redraw = Vec::new();
        for (q, &c) in class.iter().enumerate() {
            if first_of.insert(c, q).is_some() {
                redraw.push(q);
            }
        }
        if redraw.is_empty() {
            break;
        }
        for q in redraw {
            let free: Vec<usize> = (0..k).filter(|&a| !tree[q][a]).collect();
            if free.is_empty() {
                continue;
            }
            let a = free[rng.random_range(0..free.len())];
            let t = &mut target.delta[q][a];
            *t = if *t >= 0 && rng.random_bool(0.5) { -1 } else { rng.random_range(0..n) as i64 };
        }
    }
    let defined = target.delta.iter().flatten().filter(|&&t| t >= 0).count();
    let percent = (100 * defined + n * k / 2) / (n * k);
    target.name = format!("random-n{n}-k{k}-d{percent:02}-s{seed}");
    target
}

/// The Myhill–Nerode class of every listed state (the sink, which rejects everything, is a
/// class of its own), by Moore's partition refinement.
fn classes(t: &Target) -> Vec<usize> {
    let n = t.accepting.len();
    let sink = n;
    let succ = |q: usize, a: usize| if q == sink { sink } else { usize::try_from(t.delta[q][a]).unwrap_or(sink) };
    let mut class: Vec<usize> = (0..=n).map(|q| usize::from(q != sink && t.accepting[q])).collect();
    let mut count = 0;
    loop {
        let mut ids: HashMap<Vec<usize>, usize> = HashMap::new();
        let next: Vec<usize> = (0..=n)
            .map(|q| {
                let mut sig = vec![class[q]];
                sig.extend((0..t.alphabet.len()).map(|a| class[succ(q, a)]));
                let fresh = ids.len();
                *ids.entry(sig).or_insert(fresh)
            })
            .collect();
        if ids.len() == count {
            class.truncate(n);
            return class;
        }
        count = ids.len();
        class = next;
    }
}

/// The `// check: ASSEMBLY PROPERTY holds|fails` lines of a spec.
fn checks(source: &str) -> Vec<(String, String, bool)> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("// check:"))
        .filter_map(|rest| match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
            [a, p, v] => Some((a.to_string(), p.to_string(), *v == "holds")),
            _ => None,
        })
        .collect()
}

/// The weakest assumptions of the checks of one spec: for every check, level 0 of the
/// compositional rule (the first component in subst's order against the property); for a
/// check that holds, also every deeper level `i`, whose property is the assumption that subst's
/// run learned for level `i - 1`. Each is built explicitly, then learned to completion by
/// subst's L* with subst's own membership oracle (`AssumptionOracle`), which validates the
/// construction on every word the learner asks and on random words.
fn assumption_targets(file: &Path) -> Result<Vec<Target>, String> {
    let source = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let spec = subst::spec::parse(&source, &file.display().to_string()).map_err(|e| format!("{e:?}"))?;
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("spec").to_string();
    let mut out = Vec::new();
    for (asm_name, prop, holds) in checks(&source) {
        if !spec.c_components(&asm_name).map_err(|e| format!("{e:?}"))?.is_empty() {
            continue;
        }
        let assembly = spec.assembly(&asm_name).map_err(|e| format!("{e:?}"))?;
        let parts = ordered_parts(&assembly, &[]).map_err(|e| format!("{e:?}"))?;
        if parts.len() < 2 {
            continue;
        }
        let hidden = |e: &str| assembly.is_hidden(e);
        let property = spec
            .process(&prop)
            .map_err(|e| format!("{e:?}"))?
            .relabel(&|e| if hidden(e) { vec![] } else { vec![e.to_string()] });
        let (parts, property) = expose_errors(&parts, Some(&property), &[]);
        let mut properties: Vec<Option<Dla>> = vec![property.clone()];
        if holds {
            let mut checker =
                DynamicChecker::new(CexMode::RivestSchapire).with_algorithm(subst::learn::Algorithm::LStar);
            checker.run(&parts, property.as_ref());
            properties.extend(checker.assumptions().into_iter().map(|a| a.cloned()));
        }
        for (level, property) in properties.iter().enumerate().take(parts.len() - 1) {
            let Some(property) = property else { continue };
            let name = format!("fsp-{stem}-{asm_name}-{prop}-L{level}");
            if let Some(t) = weakest_assumption(&name, &parts[level], property, &parts[level + 1..])? {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// The interface of a level, as `subst::check::ag` computes it: the events of the component
/// and the property that the rest of the components share.
fn interface(component: &Dla, property: &Dla, rest: &[Dla]) -> Vec<String> {
    let mut rest_alphabet: Vec<&String> = rest.iter().flat_map(|p| p.alphabet()).collect();
    rest_alphabet.sort();
    rest_alphabet.dedup();
    let mut own: Vec<String> = component.alphabet().iter().chain(property.alphabet()).cloned().collect();
    own.retain(|e| rest_alphabet.binary_search(&e).is_ok());
    own.sort();
    own.dedup();
    own
}

/// The weakest assumption `U = {σ | ⟨σ⟩ M ⟨φ⟩}` over the interface, or `None` when it is
/// empty or has a single state.
fn weakest_assumption(name: &str, m: &Dla, property: &Dla, rest: &[Dla]) -> Result<Option<Target>, String> {
    let interface = interface(m, property, rest);
    if interface.is_empty() {
        return Ok(None);
    }
    let built = build_weakest(name, m, property, &interface)?;
    if built.start().is_none() || built.accepting.len() < 2 {
        return Ok(None);
    }
    // Learn it to completion with subst, answering membership by model checking and comparing
    // every answer with the construction.
    let mut oracle = AssumptionOracle::new(m, Some(property), &interface);
    let mut teacher = ValidatingTeacher { built: &built, oracle: &mut oracle, mismatch: None };
    let (learned, _) = learn(interface.clone(), &mut teacher, CexMode::RivestSchapire, true)
        .map_err(|e| format!("{name}: learning the weakest assumption failed: {e}"))?;
    if let Some(w) = teacher.mismatch {
        return Err(format!("{name}: the construction and subst's oracle disagree on `{}`", w.join(" ")));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(name.len() as u64);
    for _ in 0..VALIDATION_WORDS {
        let len = rng.random_range(0..12);
        let word: Vec<String> = (0..len).map(|_| interface[rng.random_range(0..interface.len())].clone()).collect();
        if built.member(&word) != oracle.member(&word) {
            return Err(format!("{name}: the construction and subst's oracle disagree on `{}`", word.join(" ")));
        }
    }
    if learned.n_states() != built.accepting.len() {
        return Err(format!("{name}: learned {} states, built {}", learned.n_states(), built.accepting.len()));
    }
    Ok(Some(built))
}

/// Membership from subst's oracle, checked against the explicit construction; equivalence by
/// the product search against the construction.
struct ValidatingTeacher<'a, 'b> {
    built: &'a Target,
    oracle: &'a mut AssumptionOracle<'b>,
    mismatch: Option<Vec<String>>,
}

impl Membership for ValidatingTeacher<'_, '_> {
    fn member(&mut self, word: &[String]) -> bool {
        let answer = self.oracle.member(word);
        if answer != self.built.member(word) && self.mismatch.is_none() {
            self.mismatch = Some(word.to_vec());
        }
        answer
    }
}

impl Teacher for ValidatingTeacher<'_, '_> {
    fn candidate(&mut self, hypothesis: &Dla) -> Option<Vec<String>> {
        if self.mismatch.is_some() {
            return None;
        }
        shortest_difference(self.built, hypothesis, &mut ProductScratch::new(self.built))
    }
}

/// The subset construction of the weakest assumption, mirroring what `AssumptionOracle` asks:
/// `σ ∈ U` when no run of `M` whose interface events follow a prefix of σ (other events of `M`
/// are free) reaches an error of `M` or of the property's error automaton. The property
/// observes every event of its alphabet that M or σ performs. The result is minimised, with
/// the states numbered in breadth-first order.
fn build_weakest(name: &str, m: &Dla, property: &Dla, interface: &[String]) -> Result<Target, String> {
    let p_err = safety::error_automaton(property).map_err(|e| format!("{name}: {e}"))?;
    let p_init = *p_err.initial().first().ok_or_else(|| format!("{name}: the property has no initial state"))?;
    let in_interface = |e: &str| interface.binary_search_by(|x| x.as_str().cmp(e)).is_ok();
    let p_step = |p: StateId, e: &str| -> StateId {
        match p_err.event_index(e) {
            None => p,
            Some(l) => p_err.state(p).out.iter().find(|t| t.event == l).map_or(p, |t| t.to),
        }
    };
    type Node = (StateId, StateId);
    let bad = |(q, p): Node| m.is_error(q) || p_err.is_error(p);
    // Free steps: τ and the events of M outside the interface.
    let closure = |mut set: Vec<Node>| -> Vec<Node> {
        let mut stack = set.clone();
        while let Some((q, p)) = stack.pop() {
            if bad((q, p)) {
                continue;
            }
            for t in &m.state(q).out {
                let e = m.event_name(t.event);
                let free = t.event == subst::automata::TAU || !in_interface(e);
                if !free {
                    continue;
                }
                let p2 = if t.event == subst::automata::TAU { p } else { p_step(p, e) };
                let n = (t.to, p2);
                if !set.contains(&n) {
                    set.push(n);
                    stack.push(n);
                }
            }
        }
        set.sort();
        set
    };
    let letter_step = |set: &[Node], e: &str| -> Vec<Node> {
        let mine = m.event_index(e);
        let mut next = Vec::new();
        for &(q, p) in set {
            let p2 = p_step(p, e);
            match mine {
                None => next.push((q, p2)),
                Some(l) => next.extend(m.state(q).out.iter().filter(|t| t.event == l).map(|t| (t.to, p2))),
            }
        }
        next.sort();
        next.dedup();
        closure(next)
    };
    let init: Vec<Node> = closure(m.initial().iter().map(|&q| (q, p_init)).collect());
    // Subsets with a bad node are the sink.
    let mut ids: HashMap<Vec<Node>, usize> = HashMap::new();
    let mut sets: Vec<Vec<Node>> = Vec::new();
    let mut delta: Vec<Vec<i64>> = Vec::new();
    let initial = if init.iter().any(|&n| bad(n)) {
        -1
    } else {
        ids.insert(init.clone(), 0);
        sets.push(init);
        0
    };
    let mut i = 0;
    while i < sets.len() {
        let mut row = Vec::with_capacity(interface.len());
        for e in interface {
            let next = letter_step(&sets[i], e);
            if next.iter().any(|&n| bad(n)) {
                row.push(-1);
                continue;
            }
            let fresh = sets.len();
            let id = *ids.entry(next.clone()).or_insert(fresh);
            if id == fresh {
                sets.push(next);
            }
            row.push(id as i64);
        }
        delta.push(row);
        i += 1;
    }
    let n = sets.len();
    let raw = Target {
        format: FORMAT.into(),
        name: name.into(),
        kind: "assumption".into(),
        prefix_closed: true,
        alphabet: interface.to_vec(),
        initial,
        accepting: vec![true; n],
        delta,
    };
    Ok(minimal(raw))
}

/// The minimal DFA of a target whose listed states are all accepting and reachable (Moore's
/// refinement; the sink's class is dropped), numbered in breadth-first order.
fn minimal(t: Target) -> Target {
    let n = t.accepting.len();
    if n == 0 {
        return t;
    }
    let class = classes(&t);
    let succ = |q: usize, a: usize| usize::try_from(t.delta[q][a]).ok();
    // Renumber the classes breadth-first from the initial state.
    let start = t.start().expect("a non-empty language");
    let mut number: HashMap<usize, usize> = HashMap::from([(class[start], 0)]);
    let mut reps = vec![start];
    let mut delta = Vec::new();
    let mut i = 0;
    while i < reps.len() {
        let q = reps[i];
        let mut row = Vec::new();
        for a in 0..t.alphabet.len() {
            let Some(r) = succ(q, a) else {
                row.push(-1);
                continue;
            };
            let fresh = reps.len();
            let id = *number.entry(class[r]).or_insert(fresh);
            if id == fresh {
                reps.push(r);
            }
            row.push(id as i64);
        }
        delta.push(row);
        i += 1;
    }
    Target { accepting: vec![true; reps.len()], delta, initial: 0, ..t }
}

/// The target with the transition of its middle state on the first letter redirected to the
/// next state (or, where it was missing, added), as a DLA: the reference of `--learner adaptive`.
fn perturbed(t: &Target) -> Dla {
    let n = t.accepting.len();
    let mut b = subst::automata::dla::Builder::new();
    for a in &t.alphabet {
        b.add_event(a);
    }
    let ids: Vec<StateId> = t.accepting.iter().map(|&acc| b.add_state(&[], acc)).collect();
    for (q, row) in t.delta.iter().enumerate() {
        for (a, &to) in row.iter().enumerate() {
            let to = if q == n / 2 && a == 0 {
                (to.max(0) as usize + 1) % n
            } else if to < 0 {
                continue;
            } else {
                to as usize
            };
            b.add_transition(ids[q], &t.alphabet[a], ids[to]);
        }
    }
    if let Some(i) = t.start() {
        b.set_initial(ids[i]);
    }
    b.build()
}
