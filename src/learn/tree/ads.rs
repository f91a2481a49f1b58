//! The ADS rule's search ([`ObservationTree::best_split`]): the first test of an adaptive
//! distinguishing sequence (Vaandrager, Garhewal, Rot and Wißmann, TACAS 2022, Section 4, in
//! the one-bit form of membership queries), chosen breadth-first over the candidates'
//! subtrees side by side within a depth and a budget of visited nodes.
//!
//! The search is exact with respect to the plain breadth-first search it replaces (kept in
//! this module's tests as the reference, and compared with it on random trees, also while
//! the tree grows between calls): the same positions are expanded in the same order, the
//! same nodes are counted against the budget, and the same word is returned (the least score,
//! the first position among equals). It is cheaper in three ways:
//!
//! - Branch and bound on the score. A child of a position can only be known for the
//!   candidates rejected below a rejection of a prefix-closed tree (`r` of them, rejections of
//!   every child) and those whose node has children (`m`); with `s = r + m` and `n`
//!   candidates, no child scores below `(a² + (s − a)²) / s + (n − s)` with `a = min(m, ⌊s/2⌋)`
//!   (every answer known, split as evenly as the forced rejections allow: a score falls as an
//!   answer is added). A position whose children are only scored (the last level, or the
//!   budget spent) is still counted against the budget (its nodes' letter masks) but its
//!   children are not read when that bound is no better than the best found (they could only
//!   tie, and ties go to the word found first); with at most 64 letters the bound is also
//!   taken per letter, from how many nodes have a child on it, and only the letters that can
//!   win are read. The search stops as soon as no position left to expand (nor any of its
//!   descendants, which have no more such candidates) can beat the best found.
//! - Letters after which `f`'s answer is known do not qualify: their children are not read.
//! - With at most 64 letters the children are not read to be counted: the tree keeps, per
//!   node, three masks of its children's letters (answer known, accepted, has children;
//!   `kid_masks`, updated where an answer or a child is added, so never stale), and the
//!   search adds them up per letter bit-sliced, 64 letters at once, for a position's
//!   children (acceptances, rejections, candidates that can answer below) as for the last
//!   level's scores. A child of a position gets its list of candidates only when the search
//!   gets to it (`lazy`; most are never searched below: the budget or the bound stops first),
//!   from its parent's candidates' children on its letter.
//!
//! Invariants: `pending[s]` counts the positions searched below that are not yet expanded,
//! by their `s`; `high` is at least the largest `s` among them and the `s` of the position
//! being expanded (whose children are at most that). A lazy position's parent has its list
//! (a lazy position is made while its parent is expanded).
//!
//! Known weaknesses: the bounds know how many candidates can answer below a position, not
//! how they answer, so a position where many candidates go on is counted whole; the budget
//! counts every node reached, which costs a read of its letter mask even where nothing can
//! win, and a lazy position's list costs a child look-up per candidate of its parent. With
//! more than 64 letters the children are read, sorted by letter, as before. Keeping the
//! candidates' children between calls (in a table checked by a per-node stamp) was measured
//! slower than reading the tree (`benches/LEARNING.md`, "ADS search (15a2)").

use super::{ACCEPTED, INNER, KNOWN, NodeId, ObservationTree};

/// A candidate below a rejected node of a prefix-closed tree: rejects every extension.
const REJECTED: NodeId = NodeId::MAX;
/// `f`'s word followed by this position's word is not in the tree.
const ABSENT: NodeId = NodeId::MAX;
/// The depth of a position that is not searched below.
const LEAF: u32 = u32::MAX;

/// A word below `f`; its candidates' nodes are `pool[start..end]` (none for a position that
/// is not searched below).
struct Position {
    parent: u32,
    letter: u32,
    depth: u32,
    f: NodeId,
    start: u32,
    end: u32,
    /// How many of its candidates can have a known answer at a child: the rejected ones and
    /// those whose node has children.
    reach: u32,
    /// Whether its candidates are not listed yet (`start` and `end` are set when it is
    /// searched below): they are its parent's candidates' children on its letter.
    lazy: bool,
}

impl Position {
    /// A position that is scored but never expanded: the child of `at` on `letter`, where
    /// `f`'s word continues to `f` (or [`ABSENT`]).
    fn leaf(at: usize, letter: u32, f: NodeId) -> Self {
        Position { parent: at as u32, letter, depth: LEAF, f, start: 0, end: 0, reach: 0, lazy: false }
    }
}

/// The least score `(numerator, denominator)` a child of a position can have, with `total`
/// candidates of which `reach` can have a known answer there; `None` if no child can qualify
/// (fewer than two known answers).
fn least_score(total: u64, reach: u64) -> Option<(u64, u64)> {
    if reach < 2 {
        return None;
    }
    let (lo, hi) = (reach / 2, reach - reach / 2);
    Some((lo * lo + hi * hi + (total - reach) * reach, reach))
}

/// Whether no child of a position with `reach` candidates that can answer there scores
/// strictly below `best` (then none of them can be chosen: ties go to the first found).
fn cannot_beat(best: Option<(u64, u64, usize)>, total: u64, reach: u64) -> bool {
    match least_score(total, reach) {
        None => true,
        Some((ln, ld)) => best.is_some_and(|(bn, bd, _)| ln * bd >= bn * ld),
    }
}

/// Whether no child of a position scores strictly below `best` when each child has `forced`
/// rejections (candidates rejected below a rejection of a prefix-closed tree) and at most
/// `free` other known answers. The least score takes every answer known (a score falls as a
/// rejection is added) and the split as even as the `free` answers allow.
fn cannot_beat_split(best: Option<(u64, u64, usize)>, total: u64, forced: u64, free: u64) -> bool {
    let s = forced + free;
    if free == 0 || s < 2 {
        return true;
    }
    let acc = free.min(s / 2);
    let (ln, ld) = (acc * acc + (s - acc) * (s - acc) + (total - s) * s, s);
    best.is_some_and(|(bn, bd, _)| ln * bd >= bn * ld)
}

/// `N` counters per letter for up to 64 letters, bit-sliced: bit `l` of `planes[i][j]` is bit
/// `j` of letter `l`'s `i`-th count; adding a node's masks (one per count) is a carry chain
/// over the planes instead of one addition per letter.
struct Sliced<const N: usize> {
    planes: [[u64; 32]; N],
    /// How many planes are in use.
    used: usize,
    /// The letters of the first masks added.
    letters: u64,
}

impl<const N: usize> Sliced<N> {
    fn new() -> Self {
        Sliced { planes: [[0; 32]; N], used: 0, letters: 0 }
    }

    /// Adds one to the `i`-th count of every letter of `masks[i]`.
    /// The carries run over the planes in use and one more (where a sum can grow into),
    /// the `N` counts side by side: a fixed number of steps, no branch per carry.
    #[inline]
    fn add(&mut self, masks: [u64; N]) {
        let mut x = masks;
        let top = self.used.min(31);
        for j in 0..=top {
            for (planes, x) in self.planes.iter_mut().zip(x.iter_mut()) {
                let c = planes[j] & *x;
                planes[j] ^= *x;
                *x = c;
            }
        }
        if top == self.used && self.planes.iter().any(|planes| planes[top] != 0) {
            self.used += 1;
        }
        self.letters |= masks[0];
    }

    /// Letter `l`'s counts.
    fn take(&self, l: u32) -> [u32; N] {
        let mut counts = [0u32; N];
        for (c, planes) in counts.iter_mut().zip(&self.planes) {
            *c = planes[..self.used].iter().enumerate().fold(0u32, |s, (j, &p)| s | (((p >> l) & 1) as u32) << j);
        }
        counts
    }

    fn clear(&mut self) {
        for planes in &mut self.planes {
            planes[..self.used].fill(0);
        }
        self.used = 0;
        self.letters = 0;
    }
}

impl ObservationTree {
    /// How many children `n` has: the letter mask's bits when every letter has a bit of its
    /// own (a denser array than the nodes).
    fn n_children(&self, n: NodeId) -> usize {
        if self.letters <= 64 { self.letter_mask[n as usize].count_ones() as usize } else { self.children(n).len() }
    }
}

/// [`ObservationTree::best_split`].
pub(super) fn best_split(
    t: &ObservationTree,
    f: NodeId,
    cands: &[NodeId],
    max_depth: usize,
    budget: usize,
) -> Option<Vec<u32>> {
    let total = cands.len() as u64;
    let mut pool: Vec<NodeId> = cands.to_vec();
    let root_reach = cands.len() as u32;
    let mut arena = vec![Position {
        parent: 0,
        letter: 0,
        depth: 0,
        f,
        start: 0,
        end: pool.len() as u32,
        reach: root_reach,
        lazy: false,
    }];
    let mut pending = vec![0u32; cands.len() + 1];
    pending[root_reach as usize] += 1;
    let mut high = root_reach as usize;
    let mut best: Option<(u64, u64, usize)> = None; // (numerator, denominator, position)
    // A word whose answer at `f` is unknown qualifies with `acc` candidates accepting it and
    // `rej` rejecting it; the least expected number of candidates left wins, the first
    // position (the shortest word, then the least letter) among equals. Whether it won.
    let consider = |best: &mut Option<(u64, u64, usize)>, fc: NodeId, acc: u64, rej: u64, pos: usize| -> bool {
        let f_known = fc != ABSENT && t.out(fc).is_some();
        let unknown = total - acc - rej;
        if !f_known && acc >= 1 && rej >= 1 {
            let (num, den) = (acc * (acc + unknown) + rej * (rej + unknown), acc + rej);
            if best.is_none_or(|(bn, bd, _)| num * bd < bn * den) {
                *best = Some((num, den, pos));
                return true;
            }
        }
        false
    };
    let mut visited = 0usize;
    let mut next = 0usize;
    let mut triples: Vec<(u32, NodeId)> = Vec::new();
    // Buffers of the counting sort of `triples` by letter.
    let mut sorted: Vec<(u32, NodeId)> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    // Per letter, the children, accepted and rejected ones, of a position whose children
    // are only scored; the letters met.
    let mut counts: Vec<[u32; 3]> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    // Per letter, bit-sliced: children, acceptances and rejections of the last level, or
    // acceptances, rejections and candidates that can answer below of a position's children.
    let mut sliced = Sliced::<3>::new();
    // A bit per letter whose children a position that is only scored does not read.
    let mut skip: Vec<u64> = Vec::new();
    while next < arena.len() {
        let at = next;
        next += 1;
        let Position { parent, letter, depth, f: fa, mut start, mut end, reach, lazy } = arena[at];
        if depth == LEAF {
            continue;
        }
        pending[reach as usize] -= 1;
        if depth as usize >= max_depth || visited >= budget {
            continue;
        }
        // Nothing left to expand can beat the best: the rest of the search would only tie.
        while high > 0 && pending[high] == 0 {
            high -= 1;
        }
        // This position's children come next, with at most its own `reach`.
        high = high.max(reach as usize);
        if cannot_beat(best, total, high as u64) {
            break;
        }
        if lazy {
            // Its candidates: its parent's candidates' children on its letter (a rejected
            // one of a prefix-closed tree goes along, a rejected child stands for one).
            let bit = 1u64 << letter;
            let (from, to) = (arena[parent as usize].start as usize, arena[parent as usize].end as usize);
            start = pool.len() as u32;
            for i in from..to {
                let n = pool[i];
                if n == REJECTED {
                    pool.push(REJECTED);
                } else if t.letter_mask[n as usize] & bit != 0
                    && let Some(c) = t.child(n, letter)
                {
                    let [known, accepted, _] = t.kid_masks[n as usize];
                    pool.push(if t.prefix_closed && known & !accepted & bit != 0 { REJECTED } else { c });
                }
            }
            end = pool.len() as u32;
            arena[at].start = start;
            arena[at].end = end;
        }
        let mut rejected = 0u64;
        let mut n_kids = 0usize;
        for &n in &pool[start as usize..end as usize] {
            if n == REJECTED {
                rejected += 1;
            } else {
                let k = t.n_children(n);
                visited += 1 + k;
                n_kids += k;
            }
        }
        let depth = depth + 1;
        let fc_of = |l: u32| if fa == ABSENT { ABSENT } else { t.child(fa, l).unwrap_or(ABSENT) };
        // The children of this position are searched below only within the depth and the
        // budget (which only grows); otherwise they are only scored, by counting, and not
        // even read when none of them can beat the best.
        if depth as usize >= max_depth || visited >= budget {
            if cannot_beat_split(best, total, rejected, u64::from(reach) - rejected) {
                continue;
            }
            if counts.is_empty() {
                counts.resize(t.letters as usize, [0; 3]);
                skip.resize((t.letters as usize).div_ceil(64), 0);
            }
            // The letters after which `f`'s answer is known do not qualify: their children
            // are not read.
            skip.iter_mut().for_each(|w| *w = 0);
            if fa != ABSENT {
                for &(l, c) in t.children(fa) {
                    if t.meta[c as usize] & KNOWN != 0 {
                        skip[l as usize / 64] |= 1 << (l % 64);
                    }
                }
            }
            // Nor are those of a letter that too few candidates have (read from the letter
            // masks, when every letter has a bit of its own) to beat the best.
            let masks = t.letters <= 64;
            if masks && best.is_some() {
                let mut per_letter = [0u32; 64];
                let mut any = 0u64;
                for &n in &pool[start as usize..end as usize] {
                    if n != REJECTED {
                        let mut m = t.letter_mask[n as usize];
                        any |= m;
                        while m != 0 {
                            per_letter[m.trailing_zeros() as usize] += 1;
                            m &= m - 1;
                        }
                    }
                }
                let mut left = any & !skip[0];
                while left != 0 {
                    let l = left.trailing_zeros();
                    left &= left - 1;
                    if cannot_beat_split(best, total, rejected, u64::from(per_letter[l as usize])) {
                        skip[0] |= 1 << l;
                    }
                }
                if any & !skip[0] == 0 {
                    continue;
                }
            }
            if masks {
                // Counted per letter from the nodes' masks of their children's answers,
                // bit-sliced, without reading the children.
                for &n in &pool[start as usize..end as usize] {
                    if n != REJECTED {
                        let present = t.letter_mask[n as usize] & !skip[0];
                        if present != 0 {
                            let [known, accepted, _] = t.kid_masks[n as usize];
                            sliced.add([present, accepted & present, known & !accepted & present]);
                        }
                    }
                }
                let mut left = sliced.letters;
                while left != 0 {
                    let l = left.trailing_zeros();
                    left &= left - 1;
                    let [_, acc, rej] = sliced.take(l);
                    let pos = arena.len();
                    // `f`'s answer after `l` is not known (the letter would have been skipped).
                    if consider(&mut best, ABSENT, u64::from(acc), u64::from(rej) + rejected, pos) {
                        arena.push(Position::leaf(at, l, ABSENT));
                    }
                }
                sliced.clear();
                continue;
            }
            // Few children: the letters met are listed; many: every letter is looked at.
            let dense = n_kids >= t.letters as usize;
            touched.clear();
            // More than 64 letters: the children are read.
            for &n in &pool[start as usize..end as usize] {
                if n == REJECTED {
                    continue;
                }
                for &(l, c) in t.children(n) {
                    if skip[l as usize / 64] & (1 << (l % 64)) != 0 {
                        continue;
                    }
                    let e = &mut counts[l as usize];
                    if !dense && e[0] == 0 {
                        touched.push(l);
                    }
                    let m = t.meta[c as usize] & (KNOWN | ACCEPTED);
                    e[0] += 1;
                    e[1] += u32::from(m == KNOWN | ACCEPTED);
                    e[2] += u32::from(m == KNOWN);
                }
            }
            if dense {
                touched.extend((0..t.letters).filter(|&l| counts[l as usize][0] != 0));
            } else {
                touched.sort_unstable();
            }
            for &l in &touched {
                let [_, acc, rej] = std::mem::take(&mut counts[l as usize]);
                let pos = arena.len();
                // `f`'s answer after `l` is not known (the letter would have been skipped).
                if consider(&mut best, ABSENT, u64::from(acc), u64::from(rej) + rejected, pos) {
                    arena.push(Position::leaf(at, l, ABSENT));
                }
            }
            continue;
        }
        if t.letters <= 64 {
            // Its children, counted per letter from the nodes' masks of their children's
            // answers, bit-sliced; a child's candidates are listed only if the search gets
            // to it (`lazy`).
            let sums = &mut sliced;
            let (mut letters, mut inner) = (0u64, 0u64);
            for &n in &pool[start as usize..end as usize] {
                if n != REJECTED {
                    let [known, accepted, with_children] = t.kid_masks[n as usize];
                    let rejections = known & !accepted;
                    // In a prefix-closed tree a rejected child stands for a rejected
                    // candidate, which can answer at every child.
                    let pc_rejected = if t.prefix_closed { rejections } else { 0 };
                    sums.add([accepted, rejections, with_children | pc_rejected]);
                    letters |= t.letter_mask[n as usize];
                    inner |= with_children & !pc_rejected;
                }
            }
            let mut left = letters;
            while left != 0 {
                let l = left.trailing_zeros();
                left &= left - 1;
                let [acc, rej, can] = sums.take(l);
                let (acc, rej, reach) = (u64::from(acc), u64::from(rej) + rejected, can + rejected as u32);
                let fc = fc_of(l);
                let pos = arena.len();
                let won = consider(&mut best, fc, acc, rej, pos);
                let f_dead = t.prefix_closed && fc != ABSENT && t.out(fc) == Some(false);
                if !f_dead && inner & (1 << l) != 0 {
                    arena.push(Position {
                        parent: at as u32,
                        letter: l,
                        depth,
                        f: fc,
                        start: 0,
                        end: 0,
                        reach,
                        lazy: true,
                    });
                    pending[reach as usize] += 1;
                } else if won {
                    arena.push(Position::leaf(at, l, fc));
                }
            }
            sums.clear();
            continue;
        }
        // The children of this position, per letter: the candidates' children there (a
        // rejected candidate of a prefix-closed tree goes along with every letter).
        triples.clear();
        for &n in &pool[start as usize..end as usize] {
            if n != REJECTED {
                triples.extend(t.children(n).iter().copied());
            }
        }
        // Grouped by letter; the order within a letter does not matter (only the counts
        // of answers do). Many children: a counting sort over the alphabet.
        if triples.len() <= 32 {
            triples.sort_unstable_by_key(|&(l, _)| l);
        } else {
            starts.clear();
            starts.resize(t.letters as usize + 1, 0);
            for &(l, _) in &triples {
                starts[l as usize + 1] += 1;
            }
            for a in 1..starts.len() {
                starts[a] += starts[a - 1];
            }
            sorted.clear();
            sorted.resize(triples.len(), (0, 0));
            for &(l, c) in &triples {
                sorted[starts[l as usize]] = (l, c);
                starts[l as usize] += 1;
            }
            std::mem::swap(&mut triples, &mut sorted);
        }
        let mut i = 0;
        while i < triples.len() {
            let l = triples[i].0;
            let mut j = i;
            while j < triples.len() && triples[j].0 == l {
                j += 1;
            }
            let fc = fc_of(l);
            let from = pool.len();
            let (mut acc, mut rej) = (0u64, rejected);
            pool.extend(std::iter::repeat_n(REJECTED, rejected as usize));
            // The candidates that can answer below the child: the rejected ones and those
            // whose node there has children.
            let mut reach = rejected as u32;
            let mut inner = false;
            for &(_, c) in &triples[i..j] {
                let m = t.meta[c as usize];
                if m & KNOWN != 0 && m & ACCEPTED == 0 && t.prefix_closed {
                    rej += 1;
                    reach += 1;
                    pool.push(REJECTED);
                } else {
                    if m & KNOWN != 0 {
                        if m & ACCEPTED != 0 {
                            acc += 1;
                        } else {
                            rej += 1;
                        }
                    }
                    if m & INNER != 0 {
                        reach += 1;
                        inner = true;
                    }
                    pool.push(c);
                }
            }
            let pos = arena.len();
            let won = consider(&mut best, fc, acc, rej, pos);
            // Below a known answer of `f`'s in a prefix-closed tree that is a rejection,
            // every answer of `f` is known: nothing to ask there. A position is searched
            // below only if some candidate has children there.
            let f_dead = t.prefix_closed && fc != ABSENT && t.out(fc) == Some(false);
            if !f_dead && inner {
                arena.push(Position {
                    parent: at as u32,
                    letter: l,
                    depth,
                    f: fc,
                    start: from as u32,
                    end: pool.len() as u32,
                    reach,
                    lazy: false,
                });
                pending[reach as usize] += 1;
            } else {
                pool.truncate(from);
                if won {
                    // Recorded so that `best` can point at it.
                    arena.push(Position::leaf(at, l, fc));
                }
            }
            i = j;
        }
    }
    let (_, _, mut pos) = best?;
    let mut word = Vec::with_capacity(8);
    while pos != 0 {
        word.push(arena[pos].letter);
        pos = arena[pos].parent as usize;
    }
    word.reverse();
    Some(word)
}

#[cfg(test)]
mod tests {
    use super::super::ROOT;
    use super::*;
    use proptest::prelude::*;

    /// The search as it was before branch and bound: every position within the depth and
    /// the budget expanded, every child of the last level read and scored.
    fn reference(
        t: &ObservationTree,
        f: NodeId,
        cands: &[NodeId],
        max_depth: usize,
        budget: usize,
    ) -> Option<Vec<u32>> {
        /// A candidate below a rejected node of a prefix-closed tree: rejects every extension.
        const REJECTED: NodeId = NodeId::MAX;
        /// `f`'s word followed by this position's word is not in the tree.
        const ABSENT: NodeId = NodeId::MAX;
        /// A word below `f`; its candidates' nodes are `pool[start..end]` (none for a position
        /// that is not searched below).
        struct Position {
            parent: u32,
            letter: u32,
            depth: u32,
            f: NodeId,
            start: u32,
            end: u32,
        }
        let total = cands.len() as u64;
        let mut pool: Vec<NodeId> = cands.to_vec();
        let mut arena = vec![Position { parent: 0, letter: 0, depth: 0, f, start: 0, end: pool.len() as u32 }];
        let mut best: Option<(u64, u64, usize)> = None; // (numerator, denominator, position)
        // A word whose answer at `f` is unknown qualifies with `acc` candidates accepting it and
        // `rej` rejecting it; the least expected number of candidates left wins, the first
        // position (the shortest word, then the least letter) among equals.
        let consider = |best: &mut Option<(u64, u64, usize)>, fc: NodeId, acc: u64, rej: u64, pos: usize| {
            let f_known = fc != ABSENT && t.out(fc).is_some();
            let unknown = total - acc - rej;
            if !f_known && acc >= 1 && rej >= 1 {
                let (num, den) = (acc * (acc + unknown) + rej * (rej + unknown), acc + rej);
                if best.is_none_or(|(bn, bd, _)| num * bd < bn * den) {
                    *best = Some((num, den, pos));
                }
            }
        };
        let mut visited = 0usize;
        let mut next = 0usize;
        let mut triples: Vec<(u32, NodeId)> = Vec::new();
        // Buffers of the counting sort of `triples` by letter.
        let mut sorted: Vec<(u32, NodeId)> = Vec::new();
        let mut starts: Vec<usize> = Vec::new();
        // Per letter, the children, accepted and rejected ones, of a position whose children
        // are only scored; the letters met.
        let mut counts: Vec<[u32; 3]> = Vec::new();
        let mut touched: Vec<u32> = Vec::new();
        while next < arena.len() {
            let at = next;
            next += 1;
            let Position { depth, f: fa, start, end, .. } = arena[at];
            if depth as usize >= max_depth || visited >= budget {
                continue;
            }
            let mut rejected = 0u64;
            for &n in &pool[start as usize..end as usize] {
                if n == REJECTED {
                    rejected += 1;
                } else {
                    visited += 1 + t.children(n).len();
                }
            }
            let depth = depth + 1;
            let fc_of = |l: u32| if fa == ABSENT { ABSENT } else { t.child(fa, l).unwrap_or(ABSENT) };
            // The children of this position are searched below only within the depth and the
            // budget (which only grows); otherwise they are only scored, by counting.
            if depth as usize >= max_depth || visited >= budget {
                if counts.is_empty() {
                    counts.resize(t.letters as usize, [0; 3]);
                }
                touched.clear();
                for &n in &pool[start as usize..end as usize] {
                    if n == REJECTED {
                        continue;
                    }
                    for &(l, c) in t.children(n) {
                        let e = &mut counts[l as usize];
                        if e[0] == 0 {
                            touched.push(l);
                        }
                        e[0] += 1;
                        match t.out(c) {
                            Some(true) => e[1] += 1,
                            Some(false) => e[2] += 1,
                            None => {}
                        }
                    }
                }
                touched.sort_unstable();
                for &l in &touched {
                    let [_, acc, rej] = std::mem::take(&mut counts[l as usize]);
                    let pos = arena.len();
                    consider(&mut best, fc_of(l), u64::from(acc), u64::from(rej) + rejected, pos);
                    arena.push(Position { parent: at as u32, letter: l, depth: u32::MAX, f: ABSENT, start: 0, end: 0 });
                }
                continue;
            }
            // The children of this position, per letter: the candidates' children there (a
            // rejected candidate of a prefix-closed tree goes along with every letter).
            triples.clear();
            for &n in &pool[start as usize..end as usize] {
                if n != REJECTED {
                    triples.extend(t.children(n).iter().copied());
                }
            }
            // Grouped by letter; the order within a letter does not matter (only the counts
            // of answers do). Many children: a counting sort over the alphabet.
            if triples.len() <= 32 {
                triples.sort_unstable_by_key(|&(l, _)| l);
            } else {
                starts.clear();
                starts.resize(t.letters as usize + 1, 0);
                for &(l, _) in &triples {
                    starts[l as usize + 1] += 1;
                }
                for a in 1..starts.len() {
                    starts[a] += starts[a - 1];
                }
                sorted.clear();
                sorted.resize(triples.len(), (0, 0));
                for &(l, c) in &triples {
                    sorted[starts[l as usize]] = (l, c);
                    starts[l as usize] += 1;
                }
                std::mem::swap(&mut triples, &mut sorted);
            }
            let mut i = 0;
            while i < triples.len() {
                let l = triples[i].0;
                let mut j = i;
                while j < triples.len() && triples[j].0 == l {
                    j += 1;
                }
                let fc = fc_of(l);
                let from = pool.len();
                let (mut acc, mut rej) = (0u64, rejected);
                pool.extend(std::iter::repeat_n(REJECTED, rejected as usize));
                let mut inner = false;
                for &(_, c) in &triples[i..j] {
                    match t.out(c) {
                        Some(false) if t.prefix_closed => {
                            rej += 1;
                            pool.push(REJECTED);
                        }
                        Some(b) => {
                            if b {
                                acc += 1;
                            } else {
                                rej += 1;
                            }
                            inner |= !t.children(c).is_empty();
                            pool.push(c);
                        }
                        None => {
                            inner |= !t.children(c).is_empty();
                            pool.push(c);
                        }
                    }
                }
                let pos = arena.len();
                consider(&mut best, fc, acc, rej, pos);
                // Below a known answer of `f`'s in a prefix-closed tree that is a rejection,
                // every answer of `f` is known: nothing to ask there. A position is searched
                // below only if some candidate has children there.
                let f_dead = t.prefix_closed && fc != ABSENT && t.out(fc) == Some(false);
                if !f_dead && inner {
                    arena.push(Position {
                        parent: at as u32,
                        letter: l,
                        depth,
                        f: fc,
                        start: from as u32,
                        end: pool.len() as u32,
                    });
                } else {
                    // Still record the position so that `best` can point at it.
                    pool.truncate(from);
                    arena.push(Position { parent: at as u32, letter: l, depth: u32::MAX, f: fc, start: 0, end: 0 });
                }
                i = j;
            }
        }
        let (_, _, mut pos) = best?;
        let mut word = Vec::with_capacity(8);
        while pos != 0 {
            word.push(arena[pos].letter);
            pos = arena[pos].parent as usize;
        }
        word.reverse();
        Some(word)
    }

    /// A tree of random words (lengths 0 to 5 over `letters` letters, from `words`), each
    /// answered by its entry in `answers` (`None`: left unknown); in prefix-closed mode the
    /// answers go through prefix closure, the first one kept where two disagree.
    fn tree_of(letters: u32, prefix_closed: bool, words: &[(Vec<u32>, Option<bool>)]) -> ObservationTree {
        let mut t = ObservationTree::new(letters as usize, prefix_closed);
        for (w, answer) in words {
            let w: Vec<u32> = w.iter().map(|&a| a % letters).collect();
            let n = t.walk_or_add(ROOT, &w);
            if let Some(b) = answer {
                t.set_out(n, *b);
            }
        }
        t
    }

    fn words() -> impl Strategy<Value = Vec<(Vec<u32>, Option<bool>)>> {
        prop::collection::vec((prop::collection::vec(0u32..70, 0..6), prop::option::of(any::<bool>())), 1..120)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn the_search_returns_the_word_of_the_plain_breadth_first_search(
            letters in prop::sample::select(vec![1u32, 2, 3, 5, 8, 64, 70]),
            prefix_closed in any::<bool>(),
            words in words(),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 2..9),
            f_pick in any::<prop::sample::Index>(),
            max_depth in 0usize..5,
            budget in prop::sample::select(vec![0usize, 1, 5, 20, 60, 150, 400, 100_000]),
        ) {
            let t = tree_of(letters, prefix_closed, &words);
            let mut cands: Vec<NodeId> = picks.iter().map(|i| i.index(t.len()) as NodeId).collect();
            cands.sort_unstable();
            cands.dedup();
            let f = f_pick.index(t.len()) as NodeId;
            prop_assert_eq!(
                best_split(&t, f, &cands, max_depth, budget),
                reference(&t, f, &cands, max_depth, budget)
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn the_search_gives_the_word_of_the_plain_search_as_the_tree_grows(
            letters in 2u32..6,
            prefix_closed in any::<bool>(),
            cand_words in prop::collection::vec((prop::collection::vec(0u32..6, 0..3), any::<bool>()), 2..12),
            answers in prop::collection::vec(prop::option::weighted(0.9, any::<bool>()), 64),
            rounds in prop::collection::vec(
                (
                    prop::collection::vec(
                        (any::<prop::sample::Index>(), prop::collection::vec(0u32..6, 1..4), prop::option::of(any::<bool>())),
                        0..12,
                    ),
                    any::<prop::sample::Index>(),
                    1usize..4,
                    prop::sample::select(vec![1usize, 10, 40, 100_000]),
                ),
                1..6,
            ),
        ) {
            // Candidates like basis nodes: with every child (or, for some, only the first
            // letter's), most of them answered.
            let mut t = ObservationTree::new(letters as usize, prefix_closed);
            let mut cands = Vec::new();
            for (i, (w, complete)) in cand_words.iter().enumerate() {
                let w: Vec<u32> = w.iter().map(|&a| a % letters).collect();
                let b = t.walk_or_add(ROOT, &w);
                for a in 0..if *complete { letters } else { 1 } {
                    let c = t.child_or_add(b, a);
                    if let Some(x) = answers[(i * 7 + a as usize) % answers.len()] {
                        t.set_out(c, x);
                    }
                }
                cands.push(b);
            }
            cands.sort_unstable();
            cands.dedup();
            // Between calls the tree grows below the candidates: new children, new answers.
            for (words, f_pick, max_depth, budget) in rounds {
                for (from, w, answer) in words {
                    let w: Vec<u32> = w.iter().map(|&a| a % letters).collect();
                    let n = t.walk_or_add(cands[from.index(cands.len())], &w);
                    if let Some(b) = answer {
                        t.set_out(n, b);
                    }
                }
                let f = f_pick.index(t.len()) as NodeId;
                prop_assert_eq!(
                    t.best_split(f, &cands, max_depth, budget),
                    reference(&t, f, &cands, max_depth, budget)
                );
            }
        }
    }

    /// Whether every node's masks of its children's answers agree with its children.
    fn masks_agree(t: &ObservationTree) -> bool {
        (0..t.len() as NodeId).all(|n| {
            let mut m = [0u64; 3];
            for &(l, c) in t.children(n) {
                let meta = t.meta[c as usize];
                m[0] |= u64::from(meta & KNOWN != 0) << l;
                m[1] |= u64::from(meta & ACCEPTED != 0) << l;
                m[2] |= u64::from(meta & INNER != 0) << l;
            }
            t.kid_masks[n as usize] == m
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn every_node_s_masks_agree_with_its_children(
            letters in 1u32..65,
            prefix_closed in any::<bool>(),
            words in words(),
        ) {
            prop_assert!(masks_agree(&tree_of(letters, prefix_closed, &words)));
        }
    }

    #[test]
    fn the_search_sees_an_answer_given_below_a_candidate_since_the_last_call() {
        // Four candidates with both children; after letter 0 three accept, after letter 1 two
        // accept, one rejects and one is unknown: 0 splits best, until the unknown answer
        // comes (a rejection) and 1 splits two against two.
        let mut t = ObservationTree::new(2, false);
        let answers =
            [[Some(true), Some(true)], [Some(true), Some(true)], [Some(true), Some(false)], [Some(false), None]];
        let mut cands = Vec::new();
        for (i, row) in answers.iter().enumerate() {
            let n = t.walk_or_add(ROOT, &[i as u32 / 2, i as u32 % 2]);
            for (a, x) in row.iter().enumerate() {
                let c = t.child_or_add(n, a as u32);
                if let Some(b) = x {
                    t.set_out(c, *b);
                }
            }
            cands.push(n);
        }
        assert_eq!(t.best_split(ROOT, &cands, 2, 1000), Some(vec![0]));
        let unknown = t.child(cands[3], 1).unwrap();
        t.set_out(unknown, false);
        assert_eq!(t.best_split(ROOT, &cands, 2, 1000), Some(vec![1]));
        assert_eq!(reference(&t, ROOT, &cands, 2, 1000), Some(vec![1]));
    }

    #[test]
    fn sliced_counters_count_every_letter() {
        let mut s = Sliced::<2>::new();
        for i in 0..300u64 {
            s.add([i | 1 << 63, i & 0b1010]);
        }
        assert_eq!(s.take(0), [150, 0]);
        assert_eq!(s.take(1), [150, 150]);
        assert_eq!(s.take(63), [300, 0]);
        assert_eq!(s.letters, (1 << 63) | 0xff | 0x100);
    }
}
