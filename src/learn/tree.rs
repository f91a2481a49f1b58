//! The observation tree of L# (Vaandrager, Garhewal, Rot and Wißmann, TACAS 2022): every
//! word asked so far, as a prefix tree whose nodes carry the answer for the word that leads to
//! them, when it is known.
//!
//! Letters are indices into the learner's sorted alphabet, nodes are indices into one arena
//! of 24-byte nodes, and a node's children are kept inline while there is one (most nodes of
//! a run) and as a list sorted by letter once there are two or more, in a block of one shared
//! array (`kids`; a full block moves to the end at twice the size), so that asking a word
//! costs a walk down the tree and no allocation of its own, and a child look-up reads the
//! node (its letter mask is kept in it) and at most one entry of that array.
//!
//! For a prefix-closed target the tree also knows what prefix closure implies: a rejected
//! word rejects every extension (a child of a rejected node is rejected without asking), and
//! an accepted word accepts every prefix (an accepted answer is copied up to the root).
//!
//! The tree also logs every node whose answer becomes known ([`ObservationTree::take_log`]),
//! so that the learner re-checks apartness only where answers are new.
//!
//! Invariants: node 0 is the root (the empty word); a node's `depth` is the length of its word;
//! in prefix-closed mode no accepted node lies below a rejected one; every node whose answer
//! was recorded (asked or implied by [`ObservationTree::set_out`]) is in the log until taken.
//!
//! Parents and letters are kept in an array of their own, beside the nodes, so that the
//! learner's consistency pass over every node ([`ObservationTree::disagreements`]) reads eight
//! bytes and one answer byte per node. The learner runs that pass once; after that
//! [`ObservationTree::disagreements_since`] keeps every node's hypothesis state
//! ([`HypothesisStates`], with the nodes of each state) and runs again only the subtrees below
//! the transitions that changed, the nodes added and the answers learned since, which gives
//! the same set of nodes (invariant, checked by a unit test and by the learner's test that
//! compares the incremental state with a recomputation after every round).
//!
//! Apartness first looks at one byte per node (answer known, accepted, has children) and a
//! 64-bit mask of its children's letters, kept in arrays of their own, so that most pairs are
//! decided without touching the nodes themselves.
//!
//! Known weaknesses: a node with two or more children has a block of the shared list array
//! (found by the letter mask's popcount for alphabets of at most 64 letters, by bisection
//! otherwise), and the blocks a list outgrew stay unused (at most as many entries again as
//! the lists hold); the walks along runs (settling, apartness, witnesses) read a node, its
//! mask and its list at scattered places, which is where much of L#'s time goes on the large
//! targets. [`ObservationTree::best_split`] (the ADS rule's search, in `tree/ads.rs`) walks
//! the candidates' subtrees side by side for every question it chooses, up to its node
//! budget, and on the bench's targets it spends the whole budget on almost every call. Branch
//! and bound on the split score (same word), and counting the children's answers per letter
//! from per-node masks kept here (`kid_masks`: known, accepted, has children; one array of
//! three words per node, so one read per node, set where answers and children are added)
//! instead of reading the children, brought its share of the ADS rule's time to 14% on
//! pots2, 15% on peterson3 and 23% on random-n500-k10 (one `perf record` each; 21%, 19% and
//! 33% with branch and bound alone; `benches/LEARNING.md`, "ADS search (15a)" and "(15a2)");
//! what is left is the budget's count of every node it reaches and the look-ups of a reached
//! child's candidates. The masks cost 24 bytes per node. [`HypothesisStates`] holds four
//! bytes per node and a list entry per node (plus stale ones).

mod ads;

/// A node of the tree, i.e. a word.
pub type NodeId = u32;

thread_local! {
    /// The stack of [`ObservationTree::apart`], kept between calls.
    static APART_STACK: std::cell::RefCell<Vec<(NodeId, NodeId)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The queue of [`ObservationTree::witness_from`], kept between calls.
    static WITNESS_QUEUE: std::cell::RefCell<std::collections::VecDeque<(NodeId, NodeId)>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
}

/// The root, the empty word.
pub const ROOT: NodeId = 0;

/// No state, in the tables of [`ObservationTree::disagreements`].
pub const NO_STATE: u32 = u32::MAX;

/// A node's answer is known.
const KNOWN: u8 = 1;
/// A node's answer is known and is "accepted".
const ACCEPTED: u8 = 2;
/// A node has children.
const INNER: u8 = 4;

/// A node's children, in 24 bytes: a child look-up reads the node and, for a node with two
/// or more children, one entry of `kids`.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Bit `a % 64` set for every letter `a` of its children (as in `letter_mask`, kept here
    /// too so that a look-up reads one place).
    mask: u64,
    /// The only child as (letter, child) while there is one (`(0, ROOT)` for none: the root
    /// is nobody's child), so that the nodes of a run, which mostly have one child, need no
    /// list of their own.
    one: (u32, NodeId),
    /// Once there are two or more children: every child as (letter, child), sorted by
    /// letter, at `kids[start..start + len]`, in a block of `len.next_power_of_two()` entries
    /// (`len` is 0 before).
    start: u32,
    len: u32,
}

/// An observation tree over an alphabet of `letters` letters.
#[derive(Clone, Debug)]
pub struct ObservationTree {
    letters: u32,
    prefix_closed: bool,
    nodes: Vec<Node>,
    /// Per node, its depth (the length of its word).
    depth: Vec<u32>,
    /// The child lists of the nodes with two or more children, one block per node (a block
    /// that fills up moves to the end at twice the size; the old one is left unused).
    kids: Vec<(u32, NodeId)>,
    /// Per node, its parent and the letter from it (the root's are `(ROOT, 0)`), in an array of
    /// their own: the one pass of [`ObservationTree::disagreements`] reads only these and
    /// `meta`.
    up: Vec<(NodeId, u32)>,
    /// Per node, [`KNOWN`], [`ACCEPTED`] and [`INNER`] bits: what apartness looks at first, in
    /// an array small enough to stay in cache.
    meta: Vec<u8>,
    /// Per node, bit `a % 64` set for every letter `a` of its children: two nodes without a
    /// common bit have no common child.
    letter_mask: Vec<u64>,
    /// Per node, bit `a % 64` set for every letter `a` of its children whose answer is known,
    /// that are accepted, and that have children (exact for at most 64 letters): what the ADS
    /// search counts per letter instead of reading the children.
    kid_masks: Vec<[u64; 3]>,
    /// Nodes whose answer became known since the last [`ObservationTree::take_log`].
    log: Vec<NodeId>,
    /// Nodes whose answer became known since the last
    /// [`ObservationTree::disagreements_since`] (a second log, drained by the consistency
    /// check, so that settling and checking need not agree on when they run).
    known_log: Vec<NodeId>,
}

/// The buffer of [`ObservationTree::first_in_walk_order`]: per node, the call (`2 * epoch`)
/// that last marked it as on a path, plus one if it was one of the nodes.
#[derive(Clone, Debug, Default)]
pub struct WalkMarks {
    mark: Vec<u32>,
    epoch: u32,
}

/// The hypothesis's state of every node of an [`ObservationTree`], kept between consistency
/// checks ([`ObservationTree::disagreements_since`]), so that the next hypothesis re-runs only
/// the subtrees below the transitions that changed and the nodes added since.
#[derive(Clone, Debug, Default)]
pub struct HypothesisStates {
    /// Per node (the nodes the last check covered), its state under the last hypothesis.
    states: Vec<u32>,
    /// The last hypothesis's transitions (`next`, as [`ObservationTree::disagreements`] takes
    /// them); empty before the first check, or when the last one had a missing transition.
    next: Vec<u32>,
    letters: usize,
    start: u32,
    /// Per state, the nodes in it: a superset (a node that moved leaves a stale entry, skipped
    /// when read, and dropped once the stale entries outnumber the live ones).
    members: Vec<Vec<NodeId>>,
    /// Per state, how many nodes are in it.
    live: Vec<u32>,
    /// The nodes that disagreed with the last hypothesis.
    found: Vec<NodeId>,
    /// Per node, the last check that computed its state (`pass`).
    seen: Vec<u32>,
    pass: u32,
    /// While the tree has fewer nodes than this, every check is one plain pass
    /// ([`ObservationTree::disagreements`]) and nothing is kept: on a small tree that pass
    /// costs less than keeping the lists of nodes per state. 0 (the default): always
    /// incremental.
    full_below: usize,
}

impl HypothesisStates {
    /// Kept state for [`ObservationTree::disagreements_since`] that runs the plain pass while
    /// the tree has fewer than `nodes` nodes, and keeps the states from then on.
    pub fn full_pass_below(nodes: usize) -> HypothesisStates {
        HypothesisStates { full_below: nodes, ..HypothesisStates::default() }
    }
}

/// The nodes a new tree has room for before its arrays grow: growing copies each array and
/// touches fresh pages for the copy, about a tenth of the learner's samples on the bench's
/// small targets (trees of 1,000 to 14,000 nodes); with this room they take 3% to 10% less CPU
/// (`benches/LEARNING.md`, "Speed (15t8)"), the large ones the same. Pages of the room not used
/// are never touched (about 560 KiB of address space per tree).
const RESERVED_NODES: usize = 1 << 13;

impl ObservationTree {
    /// The tree holding only the root, with nothing known.
    pub fn new(letters: usize, prefix_closed: bool) -> ObservationTree {
        let root = Node { mask: 0, one: (0, ROOT), start: 0, len: 0 };
        let mut t = ObservationTree {
            letters: letters as u32,
            prefix_closed,
            nodes: Vec::with_capacity(RESERVED_NODES),
            depth: Vec::with_capacity(RESERVED_NODES),
            kids: Vec::with_capacity(RESERVED_NODES),
            up: Vec::with_capacity(RESERVED_NODES),
            meta: Vec::with_capacity(RESERVED_NODES),
            letter_mask: Vec::with_capacity(RESERVED_NODES),
            kid_masks: Vec::with_capacity(RESERVED_NODES),
            log: Vec::new(),
            known_log: Vec::new(),
        };
        t.nodes.push(root);
        t.depth.push(0);
        t.up.push((ROOT, 0));
        t.meta.push(0);
        t.letter_mask.push(0);
        t.kid_masks.push([0; 3]);
        t
    }

    /// The number of letters.
    pub fn letters(&self) -> usize {
        self.letters as usize
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds only the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Whether the target is known to be prefix-closed.
    pub fn prefix_closed(&self) -> bool {
        self.prefix_closed
    }

    /// The answer known for `n`'s word.
    pub fn out(&self, n: NodeId) -> Option<bool> {
        let m = self.meta[n as usize];
        (m & KNOWN != 0).then_some(m & ACCEPTED != 0)
    }

    fn put_out(&mut self, n: NodeId, out: bool) {
        self.meta[n as usize] |= KNOWN | if out { ACCEPTED } else { 0 };
        if n != ROOT {
            let (p, a) = self.up[n as usize];
            self.kid_masks[p as usize][0] |= 1 << (a % 64);
            self.kid_masks[p as usize][1] |= u64::from(out) << (a % 64);
        }
    }

    /// Whether `n` may have a child on `letter`: `false` means it has none. Reads one word
    /// of the letter masks, without touching the node.
    pub fn may_have_child(&self, n: NodeId, letter: u32) -> bool {
        self.letter_mask[n as usize] & (1 << (letter % 64)) != 0
    }

    /// The child of `n` on `letter`, if the tree has it.
    pub fn child(&self, n: NodeId, letter: u32) -> Option<NodeId> {
        let node = &self.nodes[n as usize];
        if node.len == 0 {
            (node.one.1 != ROOT && node.one.0 == letter).then_some(node.one.1)
        } else if self.letters <= 64 {
            // The letter mask is exact and the list has one entry per bit, in letter order:
            // the child's place is the number of smaller letters.
            let (mask, bit) = (node.mask, 1u64.checked_shl(letter)?);
            (mask & bit != 0).then(|| self.kids[node.start as usize + (mask & (bit - 1)).count_ones() as usize].1)
        } else {
            let c = &self.kids[node.start as usize..(node.start + node.len) as usize];
            c.binary_search_by_key(&letter, |&(l, _)| l).ok().map(|i| c[i].1)
        }
    }

    /// The children of `n`, sorted by letter.
    pub fn children(&self, n: NodeId) -> &[(u32, NodeId)] {
        let node = &self.nodes[n as usize];
        if node.len != 0 {
            &self.kids[node.start as usize..(node.start + node.len) as usize]
        } else if node.one.1 != ROOT {
            std::slice::from_ref(&node.one)
        } else {
            &[]
        }
    }

    /// The parent of `n` and the letter from it (`None` for the root).
    pub fn parent(&self, n: NodeId) -> Option<(NodeId, u32)> {
        (n != ROOT).then(|| self.up[n as usize])
    }

    /// The child of `n` on `letter`, added if missing. In prefix-closed mode a new child of a
    /// rejected node is rejected.
    pub fn child_or_add(&mut self, n: NodeId, letter: u32) -> NodeId {
        debug_assert!(letter < self.letters);
        match self.child(n, letter) {
            Some(c) => c,
            None => {
                let id = self.nodes.len() as NodeId;
                let rejected = self.prefix_closed && self.out(n) == Some(false);
                let depth = self.depth[n as usize] + 1;
                let mut node = self.nodes[n as usize];
                if node.one.1 == ROOT {
                    node.one = (letter, id);
                } else {
                    let len = node.len as usize;
                    let start = if len == 0 {
                        // The first list: the only child so far, in a block of two.
                        let s = self.kids.len();
                        self.kids.extend([node.one, (0, ROOT)]);
                        s
                    } else if len.is_power_of_two() {
                        // A full block: moved to the end at twice the size.
                        let s = self.kids.len();
                        let old = node.start as usize;
                        self.kids.extend_from_within(old..old + len);
                        self.kids.resize(s + 2 * len, (0, ROOT));
                        s
                    } else {
                        node.start as usize
                    };
                    let len = len.max(1);
                    let block = &mut self.kids[start..=start + len];
                    let i = block[..len].partition_point(|&(l, _)| l < letter);
                    block.copy_within(i..len, i + 1);
                    block[i] = (letter, id);
                    node.start = start as u32;
                    node.len = len as u32 + 1;
                }
                node.mask |= 1 << (letter % 64);
                self.nodes[n as usize] = node;
                self.nodes.push(Node { mask: 0, one: (0, ROOT), start: 0, len: 0 });
                self.depth.push(depth);
                self.up.push((n, letter));
                if n != ROOT {
                    let (p, a) = self.up[n as usize];
                    self.kid_masks[p as usize][2] |= 1 << (a % 64);
                }
                self.kid_masks.push([0; 3]);
                self.kid_masks[n as usize][0] |= u64::from(rejected) << (letter % 64);
                self.meta[n as usize] |= INNER;
                self.meta.push(if rejected { KNOWN } else { 0 });
                self.letter_mask[n as usize] |= 1 << (letter % 64);
                self.letter_mask.push(0);
                id
            }
        }
    }

    /// The node of `from`'s word followed by `word`, with the missing nodes added.
    pub fn walk_or_add(&mut self, from: NodeId, word: &[u32]) -> NodeId {
        word.iter().fold(from, |n, &a| self.child_or_add(n, a))
    }

    /// The node of `from`'s word followed by `word`, if the tree has it.
    pub fn walk(&self, from: NodeId, word: &[u32]) -> Option<NodeId> {
        word.iter().try_fold(from, |n, &a| self.child(n, a))
    }

    /// Records the answer for `n`. In prefix-closed mode an accepted word's prefixes are
    /// accepted too, and a rejected word's extensions already in the tree are rejected. An
    /// answer never overwrites a known one (a teacher that contradicts prefix closure leaves
    /// the first answer in place). Every node that gets an answer is logged.
    ///
    /// (A child added below a rejected node in prefix-closed mode is rejected without being
    /// logged: its answer cannot make two nodes apart that were not apart already, since a
    /// node with an accepted extension is accepted itself.)
    pub fn set_out(&mut self, n: NodeId, out: bool) {
        if self.out(n).is_some() {
            return;
        }
        self.put_out(n, out);
        self.log.push(n);
        self.known_log.push(n);
        if !self.prefix_closed {
            return;
        }
        if out {
            let mut at = n;
            while at != ROOT {
                at = self.up[at as usize].0;
                if self.out(at).is_some() {
                    break;
                }
                self.put_out(at, true);
                self.log.push(at);
                self.known_log.push(at);
            }
        } else {
            let mut stack: Vec<NodeId> = self.children(n).iter().map(|&(_, c)| c).collect();
            while let Some(c) = stack.pop() {
                if self.out(c).is_none() {
                    self.put_out(c, false);
                    self.log.push(c);
                    self.known_log.push(c);
                }
                stack.extend(self.children(c).iter().map(|&(_, c)| c));
            }
        }
    }

    /// The nodes whose known answer differs from that of their state, when the root is in
    /// state `start`, `next[q * letters + a]` is the state after letter `a` in state `q`
    /// ([`NO_STATE`] for none: that node and its descendants have no state) and `accepts[q]`
    /// is state `q`'s answer. One pass over the node array (parents come before their
    /// children), reading only the parent, letter and answer arrays; `states` is a buffer.
    pub fn disagreements(
        &self,
        start: u32,
        next: &[u32],
        letters: usize,
        accepts: &[bool],
        states: &mut Vec<u32>,
    ) -> Vec<NodeId> {
        let mut found = Vec::new();
        states.clear();
        states.reserve(self.up.len());
        states.push(start);
        let disagrees = |q: u32, m: u8| q != NO_STATE && m & KNOWN != 0 && (m & ACCEPTED != 0) != accepts[q as usize];
        if disagrees(start, self.meta[0]) {
            found.push(ROOT);
        }
        for (n, (&(parent, letter), &m)) in self.up.iter().zip(&self.meta).enumerate().skip(1) {
            let p = states[parent as usize];
            let q = if p == NO_STATE { NO_STATE } else { next[p as usize * letters + letter as usize] };
            states.push(q);
            if disagrees(q, m) {
                found.push(n as NodeId);
            }
        }
        found
    }

    /// [`ObservationTree::disagreements`], computed from what `hs` kept of the last call:
    /// the same set of nodes (in another order). A node's state can change only below a
    /// transition `(q, a)` whose target changed, so only the subtrees of the children on `a`
    /// of the nodes in state `q` are run again (not below a node whose state stays), then the
    /// nodes added since; the answers that became known since are checked where they are.
    /// The first call, or one after a hypothesis with a missing transition ([`NO_STATE`]),
    /// runs the whole tree. `hs` must be used with this tree only.
    pub fn disagreements_since(
        &mut self,
        start: u32,
        next: &[u32],
        letters: usize,
        accepts: &[bool],
        hs: &mut HypothesisStates,
    ) -> Vec<NodeId> {
        if self.len() < hs.full_below {
            // Small: one plain pass; the next check starts from nothing as well (and keeps
            // the states once the tree has grown).
            self.known_log.clear();
            hs.next.clear();
            return self.disagreements(start, next, letters, accepts, &mut hs.states);
        }
        let known = std::mem::take(&mut self.known_log);
        let disagrees = |q: u32, m: u8| q != NO_STATE && m & KNOWN != 0 && (m & ACCEPTED != 0) != accepts[q as usize];
        let n_states = accepts.len();
        let full = hs.next.is_empty() || hs.letters != letters || hs.start != start || hs.next.len() > next.len();
        if full || next.contains(&NO_STATE) {
            let found = self.disagreements(start, next, letters, accepts, &mut hs.states);
            hs.next.clear();
            if next.contains(&NO_STATE) {
                return found;
            }
            hs.next.extend_from_slice(next);
            (hs.letters, hs.start) = (letters, start);
            hs.members = vec![Vec::new(); n_states];
            hs.live = vec![0; n_states];
            for (n, &q) in hs.states.iter().enumerate() {
                hs.members[q as usize].push(n as NodeId);
                hs.live[q as usize] += 1;
            }
            hs.found.clone_from(&found);
            return found;
        }
        let old_len = hs.states.len();
        hs.members.resize(n_states, Vec::new());
        hs.live.resize(n_states, 0);
        // The first changed node on every path: a child, on a changed letter, of a node in a
        // state whose transition on that letter changed.
        let mut roots: Vec<NodeId> = Vec::new();
        let mut changed: Vec<u32> = Vec::new();
        for q in 0..hs.next.len() / letters {
            changed.clear();
            let mut mask = 0u64;
            for a in 0..letters {
                if hs.next[q * letters + a] != next[q * letters + a] {
                    changed.push(a as u32);
                    mask |= 1 << (a % 64);
                }
            }
            if changed.is_empty() {
                continue;
            }
            for &m in &hs.members[q] {
                if hs.states[m as usize] != q as u32 || self.letter_mask[m as usize] & mask == 0 {
                    continue;
                }
                roots.extend(changed.iter().filter_map(|&a| self.child(m, a)));
            }
        }
        // Ancestors first (a node is created after its parent, so by number): a root's walk
        // covers the roots below it, which are then skipped.
        roots.sort_unstable();
        roots.dedup();
        hs.states.resize(self.len(), NO_STATE);
        hs.seen.resize(self.len(), 0);
        hs.pass = hs.pass.wrapping_add(1);
        if hs.pass == 0 {
            hs.seen.iter_mut().for_each(|s| *s = u32::MAX);
            hs.pass = 1;
        }
        let pass = hs.pass;
        let mut found = std::mem::take(&mut hs.found);
        // The states that lost a node (each once: `is_moved`).
        let mut moved: Vec<u32> = Vec::new();
        let mut is_moved = vec![false; n_states];
        let mut stack: Vec<NodeId> = Vec::new();
        let mut set_state = |hs: &mut HypothesisStates, moved: &mut Vec<u32>, x: NodeId| -> bool {
            let (p, a) = self.up[x as usize];
            let q = next[hs.states[p as usize] as usize * letters + a as usize];
            hs.seen[x as usize] = pass;
            let old = hs.states[x as usize];
            if old == q {
                return false;
            }
            if old != NO_STATE {
                hs.live[old as usize] -= 1;
                if !is_moved[old as usize] {
                    is_moved[old as usize] = true;
                    moved.push(old);
                }
            }
            hs.states[x as usize] = q;
            hs.members[q as usize].push(x);
            hs.live[q as usize] += 1;
            true
        };
        for r in roots {
            if hs.seen[r as usize] == pass {
                continue;
            }
            stack.push(r);
            while let Some(x) = stack.pop() {
                let changed = set_state(hs, &mut moved, x);
                if disagrees(hs.states[x as usize], self.meta[x as usize]) {
                    found.push(x);
                }
                // Below a node whose state stays, only the roots change (they come later).
                if changed || x == r {
                    stack.extend(self.children(x).iter().map(|&(_, c)| c));
                }
            }
        }
        for x in old_len..self.len() {
            if hs.seen[x] != pass {
                set_state(hs, &mut moved, x as NodeId);
                if disagrees(hs.states[x], self.meta[x]) {
                    found.push(x as NodeId);
                }
            }
        }
        found.extend(known.into_iter().filter(|&x| disagrees(hs.states[x as usize], self.meta[x as usize])));
        found.retain(|&x| disagrees(hs.states[x as usize], self.meta[x as usize]));
        found.sort_unstable();
        found.dedup();
        // Lists with more stale entries than live ones are compacted.
        for q in moved {
            let list = &mut hs.members[q as usize];
            if list.len() > 2 * hs.live[q as usize] as usize + 16 {
                list.retain(|&m| hs.states[m as usize] == q);
                if list.len() > hs.live[q as usize] as usize {
                    list.sort_unstable();
                    list.dedup();
                }
            }
        }
        hs.next.clear();
        hs.next.extend_from_slice(next);
        hs.found.clone_from(&found);
        found
    }

    /// The first of `nodes` in the order of [`ObservationTree::walk_order_before`]; `None`
    /// if `nodes` is empty. Marks the paths from the root to `nodes` (each node once), then
    /// goes down from the root into the child with the largest letter whose subtree holds one
    /// of them, which the walk meets before the rest: the cost is that of the paths' union,
    /// not of one comparison per node. `marks` is a buffer kept between calls.
    pub fn first_in_walk_order(&self, nodes: &[NodeId], marks: &mut WalkMarks) -> Option<NodeId> {
        match nodes {
            [] => return None,
            [n] => return Some(*n),
            _ => {}
        }
        marks.mark.resize(self.len(), 0);
        marks.epoch += 1;
        if marks.epoch >= u32::MAX / 2 {
            marks.mark.iter_mut().for_each(|m| *m = 0);
            marks.epoch = 1;
        }
        let (on_path, found) = (2 * marks.epoch, 2 * marks.epoch + 1);
        for &n in nodes {
            let mut x = n;
            while marks.mark[x as usize] < on_path {
                marks.mark[x as usize] = on_path;
                if x == ROOT {
                    break;
                }
                x = self.up[x as usize].0;
            }
        }
        for &n in nodes {
            marks.mark[n as usize] = found;
        }
        let mut x = ROOT;
        loop {
            if marks.mark[x as usize] == found {
                return Some(x);
            }
            x = self.children(x).iter().rev().map(|&(_, c)| c).find(|&c| marks.mark[c as usize] >= on_path)?;
        }
    }

    /// Whether a depth-first walk from the root that takes the children of a node in
    /// decreasing letter order meets `a` before `b` (a node comes before its descendants).
    pub fn walk_order_before(&self, a: NodeId, b: NodeId) -> bool {
        let (mut x, mut y) = (a, b);
        while self.depth[x as usize] > self.depth[y as usize] {
            x = self.up[x as usize].0;
        }
        while self.depth[y as usize] > self.depth[x as usize] {
            y = self.up[y as usize].0;
        }
        if x == y {
            // One is an ancestor of the other (or they are equal).
            return self.depth[a as usize] < self.depth[b as usize];
        }
        while self.up[x as usize].0 != self.up[y as usize].0 {
            x = self.up[x as usize].0;
            y = self.up[y as usize].0;
        }
        self.up[x as usize].1 > self.up[y as usize].1
    }

    /// The nodes whose answer became known since the last call, in the order they got it.
    pub fn take_log(&mut self) -> Vec<NodeId> {
        std::mem::take(&mut self.log)
    }

    /// Hands back a vector that [`ObservationTree::take_log`] returned, so that the log reuses
    /// its memory instead of growing again from nothing (if nothing was logged since).
    pub fn give_back_log(&mut self, mut taken: Vec<NodeId>) {
        if self.log.is_empty() {
            taken.clear();
            self.log = taken;
        }
    }

    /// The depth of `n`, the length of its word.
    pub fn depth(&self, n: NodeId) -> usize {
        self.depth[n as usize] as usize
    }

    /// The word of `n`, written into `w` (cleared first).
    pub fn word_into(&self, n: NodeId, w: &mut Vec<u32>) {
        w.clear();
        w.resize(self.depth[n as usize] as usize, 0);
        let mut at = n;
        for slot in w.iter_mut().rev() {
            (at, *slot) = self.up[at as usize];
        }
    }

    /// The word of `n`.
    pub fn word(&self, n: NodeId) -> Vec<u32> {
        let mut w = vec![0; self.depth[n as usize] as usize];
        let mut at = n;
        for slot in w.iter_mut().rev() {
            (at, *slot) = self.up[at as usize];
        }
        w
    }

    /// Whether `p` and `q` are apart: some word `w` leads both to nodes with known, different
    /// answers. In prefix-closed mode this is exact with respect to the implied answers too: a
    /// rejected node's extensions are all rejected, and a node with an accepted extension is
    /// itself accepted, so a rejected node is apart from exactly the accepted ones.
    pub fn apart(&self, p: NodeId, q: NodeId) -> bool {
        // Depth-first; a pair is pushed only if both nodes can still show a difference below
        // them, so that most calls look at the two nodes' bits only and allocate nothing.
        if let Some(decided) = self.apart_here(p, q) {
            return decided;
        }
        // The stack is a buffer kept per thread: this runs for most new frontier nodes and
        // promotions, against many nodes each.
        APART_STACK.with_borrow_mut(|stack| {
            stack.clear();
            let apart = self.apart_below(p, q, stack);
            stack.clear();
            apart
        })
    }

    /// The search of [`ObservationTree::apart`] below `p` and `q`, whose own bits did not
    /// decide it; `stack` is an empty buffer.
    fn apart_below(&self, p: NodeId, q: NodeId, stack: &mut Vec<(NodeId, NodeId)>) -> bool {
        let (mut a, mut b) = (p, q);
        loop {
            let (ca, cb) = (self.children(a), self.children(b));
            // The common letters: a merge, or, when one list is much shorter (a frontier
            // node's few asked letters against a basis node's whole alphabet), a binary search
            // of each of its letters in the other.
            let (short, long, long_node) = if ca.len() <= cb.len() { (ca, cb, b) } else { (cb, ca, a) };
            if short.len() * 8 < long.len() {
                for &(l, x) in short {
                    if let Some(y) = self.child(long_node, l) {
                        match self.apart_here(x, y) {
                            Some(true) => return true,
                            Some(false) => {}
                            None => stack.push((x, y)),
                        }
                    }
                }
            } else {
                let (mut i, mut j) = (0, 0);
                while i < ca.len() && j < cb.len() {
                    match ca[i].0.cmp(&cb[j].0) {
                        std::cmp::Ordering::Less => i += 1,
                        std::cmp::Ordering::Greater => j += 1,
                        std::cmp::Ordering::Equal => {
                            let (x, y) = (ca[i].1, cb[j].1);
                            match self.apart_here(x, y) {
                                Some(true) => return true,
                                Some(false) => {}
                                None => stack.push((x, y)),
                            }
                            i += 1;
                            j += 1;
                        }
                    }
                }
            }
            match stack.pop() {
                Some((x, y)) => (a, b) = (x, y),
                None => return false,
            }
        }
    }

    /// Apartness of `a` and `b` as far as their own bits decide it: `Some(true)` if their
    /// answers differ, `Some(false)` if nothing below them can differ (they have no common
    /// child letter, or, in prefix-closed mode, one is rejected), `None` if their children must
    /// be looked at.
    fn apart_here(&self, a: NodeId, b: NodeId) -> Option<bool> {
        let (ma, mb) = (self.meta[a as usize], self.meta[b as usize]);
        if ma & mb & KNOWN != 0 && (ma ^ mb) & ACCEPTED != 0 {
            return Some(true);
        }
        let rejected = |m: u8| m & (KNOWN | ACCEPTED) == KNOWN;
        if self.prefix_closed && (rejected(ma) || rejected(mb))
            || ma & mb & INNER == 0
            || self.letter_mask[a as usize] & self.letter_mask[b as usize] == 0
        {
            return Some(false);
        }
        None
    }

    /// Whether the word of `p` followed by `v` is in the tree with a known answer other than
    /// `answer`.
    pub fn differ_at(&self, p: NodeId, v: &[u32], answer: bool) -> bool {
        self.walk(p, v).and_then(|n| self.out(n)).is_some_and(|b| b != answer)
    }

    /// The ADS rule's choice of query for a frontier node `f` whose candidates are
    /// `cands` (basis nodes, at least two): among the words `w` (at most `max_depth` long)
    /// for which the tree holds some candidate's `c·w` and not `f·w`, one that splits the
    /// candidates best, i.e. with the least expected number of candidates left after `f·w` is
    /// answered, if `f` is like each candidate with equal chance: with `a` candidates
    /// accepting `w`, `r` rejecting it and `u` not known, that is
    /// `(a·(a + u) + r·(r + u)) / (a + r)`; only words with `a ≥ 1` and `r ≥ 1` qualify.
    /// Shorter words win ties. This is the first test of an adaptive distinguishing sequence
    /// over the candidates in which every test is one membership query (one bit), not one
    /// letter with an output (the paper's Mealy setting); the learner asks it and chooses the
    /// next test for the candidates left. The search is breadth-first over the candidates'
    /// subtrees side by side and stops after `budget` visited nodes; `None` if no word
    /// qualifies within these bounds.
    pub fn best_split(&self, f: NodeId, cands: &[NodeId], max_depth: usize, budget: usize) -> Option<Vec<u32>> {
        ads::best_split(self, f, cands, max_depth, budget)
    }

    /// A shortest word that shows `p` and `q` apart.
    pub fn witness(&self, p: NodeId, q: NodeId) -> Option<Vec<u32>> {
        self.witness_from(p, q).map(|(p2, _)| {
            let (dp, d2) = (self.depth[p as usize], self.depth[p2 as usize]);
            // The letters from `p` down to `p2`: the last `d2 - dp` of `p2`'s word.
            let mut w = vec![0; (d2 - dp) as usize];
            let mut at = p2;
            for slot in w.iter_mut().rev() {
                (at, *slot) = self.up[at as usize];
            }
            w
        })
    }

    /// Breadth-first over the common extensions of `p` and `q`; the first pair of nodes with
    /// different known answers.
    fn witness_from(&self, p: NodeId, q: NodeId) -> Option<(NodeId, NodeId)> {
        // Most pairs are decided at the top: no allocation for them.
        match (self.out(p), self.out(q)) {
            (Some(x), Some(y)) if x != y => return Some((p, q)),
            (Some(false), _) | (_, Some(false)) if self.prefix_closed => return None,
            _ if self.children(p).is_empty() || self.children(q).is_empty() => return None,
            _ => {}
        }
        // The queue is a buffer kept per thread: this runs for almost every query.
        WITNESS_QUEUE.with_borrow_mut(|work| {
            work.clear();
            work.push_back((p, q));
            let found = self.witness_search(work);
            work.clear();
            found
        })
    }

    /// The breadth-first search of [`ObservationTree::witness_from`] from the pairs in `work`.
    fn witness_search(&self, work: &mut std::collections::VecDeque<(NodeId, NodeId)>) -> Option<(NodeId, NodeId)> {
        while let Some((a, b)) = work.pop_front() {
            match (self.out(a), self.out(b)) {
                (Some(x), Some(y)) if x != y => return Some((a, b)),
                // Below a rejected node everything is rejected, and nothing below the other
                // is accepted (it would be accepted itself): no witness further down.
                (Some(false), _) | (_, Some(false)) if self.prefix_closed => continue,
                _ => {}
            }
            let (ca, cb) = (self.children(a), self.children(b));
            let (mut i, mut j) = (0, 0);
            while i < ca.len() && j < cb.len() {
                match ca[i].0.cmp(&cb[j].0) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        work.push_back((ca[i].1, cb[j].1));
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accepted_word_accepts_its_prefixes_when_prefix_closed() {
        let mut t = ObservationTree::new(2, true);
        let n = t.walk_or_add(ROOT, &[0, 1, 1]);
        t.set_out(n, true);
        assert_eq!(t.out(ROOT), Some(true));
        assert_eq!(t.out(t.walk(ROOT, &[0, 1]).unwrap()), Some(true));
        assert_eq!(t.word(n), [0, 1, 1]);
    }

    #[test]
    fn a_child_of_a_rejected_node_is_rejected_when_prefix_closed() {
        let mut t = ObservationTree::new(2, true);
        let n = t.walk_or_add(ROOT, &[1]);
        t.set_out(n, false);
        let c = t.child_or_add(n, 0);
        assert_eq!(t.out(c), Some(false));
        let mut plain = ObservationTree::new(2, false);
        let n = plain.walk_or_add(ROOT, &[1]);
        plain.set_out(n, false);
        let c = plain.child_or_add(n, 0);
        assert_eq!(plain.out(c), None);
    }

    #[test]
    fn the_witness_is_a_shortest_distinguishing_extension() {
        let mut t = ObservationTree::new(2, false);
        for (w, b) in [(&[0, 0, 0][..], true), (&[1, 0, 0][..], false), (&[0, 1][..], true), (&[1, 1][..], false)] {
            let n = t.walk_or_add(ROOT, w);
            t.set_out(n, b);
        }
        let (p, q) = (t.walk(ROOT, &[0]).unwrap(), t.walk(ROOT, &[1]).unwrap());
        assert!(t.apart(p, q));
        assert_eq!(t.witness(p, q), Some(vec![1]));
        assert_eq!(t.witness(p, p), None);
    }

    /// A tree with basis-like nodes `p`, `q`, `r`, `s` (the words 0, 1, 2, 3) and a node `f`
    /// (the word 4), each of the first four with answers to the suffixes given.
    fn four_candidates(answers: [[Option<bool>; 2]; 4]) -> (ObservationTree, Vec<NodeId>, NodeId) {
        let mut t = ObservationTree::new(5, false);
        let mut cands = Vec::new();
        for (x, row) in answers.iter().enumerate() {
            let c = t.walk_or_add(ROOT, &[x as u32]);
            t.set_out(c, true);
            for (a, b) in row.iter().enumerate() {
                if let Some(b) = b {
                    let n = t.walk_or_add(c, &[a as u32]);
                    t.set_out(n, *b);
                }
            }
            cands.push(c);
        }
        let f = t.walk_or_add(ROOT, &[4]);
        t.set_out(f, true);
        (t, cands, f)
    }

    #[test]
    fn the_best_split_halves_the_candidates_where_the_first_witness_cuts_off_one() {
        // Suffix 0 shows p apart from the rest (the shortest witness of p and q); suffix 1
        // splits them two and two.
        let y = Some(true);
        let n = Some(false);
        let (t, cands, f) = four_candidates([[y, y], [n, y], [n, n], [n, n]]);
        assert_eq!(t.witness(cands[0], cands[1]), Some(vec![0]));
        assert_eq!(t.best_split(f, &cands, 1, 1000), Some(vec![1]));
    }

    #[test]
    fn the_best_split_skips_words_the_frontier_node_has_answered() {
        let y = Some(true);
        let n = Some(false);
        let (mut t, cands, f) = four_candidates([[y, y], [n, y], [n, n], [n, n]]);
        let fa = t.walk_or_add(f, &[1]);
        t.set_out(fa, true);
        assert_eq!(t.best_split(f, &cands, 1, 1000), Some(vec![0]));
        // No word left that splits the candidates, or none within the depth.
        let fb = t.walk_or_add(f, &[0]);
        t.set_out(fb, true);
        assert_eq!(t.best_split(f, &cands, 1, 1000), None);
        assert_eq!(t.best_split(f, &cands, 0, 1000), None);
    }

    #[test]
    fn every_new_answer_is_logged_with_those_prefix_closure_implies() {
        let mut t = ObservationTree::new(2, true);
        let n = t.walk_or_add(ROOT, &[0, 1]);
        t.set_out(n, true);
        let mid = t.walk(ROOT, &[0]).unwrap();
        assert_eq!(t.take_log(), [n, mid, ROOT]);
        let r = t.walk_or_add(ROOT, &[1]);
        let below = t.walk_or_add(r, &[0]);
        t.set_out(r, false);
        assert_eq!(t.take_log(), [r, below]);
        // A child added below a rejected node is rejected without being logged.
        let c = t.child_or_add(below, 1);
        assert_eq!((t.out(c), t.take_log()), (Some(false), vec![]));
    }

    #[test]
    fn a_log_given_back_keeps_its_memory_and_holds_only_new_answers() {
        let mut t = ObservationTree::new(2, false);
        let n = t.walk_or_add(ROOT, &[0]);
        t.set_out(n, true);
        let log = t.take_log();
        let capacity = log.capacity();
        t.give_back_log(log);
        let m = t.walk_or_add(ROOT, &[1]);
        t.set_out(m, false);
        let again = t.take_log();
        assert_eq!((again.as_slice(), again.capacity() >= capacity), (&[m][..], true));
    }

    #[test]
    fn the_walk_order_takes_larger_letters_first_and_ancestors_before_descendants() {
        let mut t = ObservationTree::new(3, false);
        let a = t.walk_or_add(ROOT, &[0, 2]);
        let b = t.walk_or_add(ROOT, &[1]);
        let c = t.walk_or_add(ROOT, &[1, 0, 0]);
        assert!(t.walk_order_before(b, a));
        assert!(!t.walk_order_before(a, b));
        assert!(t.walk_order_before(b, c));
        assert!(t.walk_order_before(c, a));
        assert!(t.walk_order_before(ROOT, c));
        assert!(!t.walk_order_before(c, c));
    }

    /// A tree of `n` random words over `k` letters (a fixed linear congruential generator),
    /// each answered by the parity of its letters' sum.
    fn random_tree(n: usize, k: u32, seed: u64) -> ObservationTree {
        let mut x = seed;
        let mut draw = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut t = ObservationTree::new(k as usize, false);
        for _ in 0..n {
            let word: Vec<u32> = (0..draw(8)).map(|_| draw(u64::from(k)) as u32).collect();
            let at = t.walk_or_add(ROOT, &word);
            t.set_out(at, word.iter().sum::<u32>() % 2 == 0);
        }
        t
    }

    #[test]
    fn the_first_in_walk_order_is_the_least_by_walk_order_before() {
        let mut marks = WalkMarks::default();
        for seed in 1..=20 {
            let t = random_tree(30, 3, seed);
            let nodes: Vec<NodeId> =
                (0..t.len() as NodeId).filter(|n| (n * 7 + seed as u32).is_multiple_of(5)).collect();
            let least = nodes.iter().copied().reduce(|m, n| if t.walk_order_before(n, m) { n } else { m });
            assert_eq!(t.first_in_walk_order(&nodes, &mut marks), least, "seed {seed}");
        }
        assert_eq!(random_tree(5, 2, 1).first_in_walk_order(&[], &mut marks), None);
    }

    #[test]
    fn disagreements_since_the_last_hypothesis_equal_a_fresh_pass() {
        // Counts the ones modulo 3, then modulo 4 with another accepting state: every
        // transition and state changes between the two, and the tree grows in between.
        let mut t = random_tree(40, 2, 7);
        let mut hs = HypothesisStates::default();
        let mut buf = Vec::new();
        let mod3: Vec<u32> = (0..3).flat_map(|q| [q, (q + 1) % 3]).collect();
        let mod4: Vec<u32> = (0..4).flat_map(|q| [q, (q + 1) % 4]).collect();
        let mut first = t.disagreements_since(0, &mod3, 2, &[true, false, false], &mut hs);
        first.sort_unstable();
        assert_eq!(first, t.disagreements(0, &mod3, 2, &[true, false, false], &mut buf));
        for (i, w) in [[1u32, 1, 1, 0, 1], [0, 0, 1, 1, 1]].iter().enumerate() {
            let n = t.walk_or_add(ROOT, w);
            t.set_out(n, i == 0);
        }
        let mut since = t.disagreements_since(0, &mod4, 2, &[true, false, false, true], &mut hs);
        since.sort_unstable();
        assert_eq!(since, t.disagreements(0, &mod4, 2, &[true, false, false, true], &mut buf));
        assert!(!since.is_empty());
    }

    #[test]
    fn disagreements_with_a_plain_pass_below_a_size_equal_the_incremental_ones() {
        // The same hypotheses and growth, once always incremental and once with the plain
        // pass below the final size: the last two checks keep the states (the first of them
        // from a whole pass), after three plain ones.
        let mod3: Vec<u32> = (0..3).flat_map(|q| [q, (q + 1) % 3]).collect();
        let mod4: Vec<u32> = (0..4).flat_map(|q| [q, (q + 1) % 4]).collect();
        let run = |mut hs: HypothesisStates| {
            let mut t = random_tree(40, 2, 7);
            let mut found = vec![t.disagreements_since(0, &mod3, 2, &[true, false, false], &mut hs)];
            for (i, w) in [[1u32, 1, 1, 0, 1, 0, 0, 1], [0, 0, 1, 1, 1, 1, 0, 1]].iter().enumerate() {
                let n = t.walk_or_add(ROOT, w);
                t.set_out(n, i == 0);
                found.push(t.disagreements_since(0, &mod4, 2, &[true, false, false, true], &mut hs));
                found.push(t.disagreements_since(0, &mod3, 2, &[false, true, false], &mut hs));
            }
            found.iter_mut().for_each(|f| f.sort_unstable());
            (t.len(), found)
        };
        let (len, incremental) = run(HypothesisStates::default());
        let (_, mixed) = run(HypothesisStates::full_pass_below(len));
        assert_eq!(mixed, incremental);
        assert!(incremental.iter().any(|f| !f.is_empty()));
    }

    #[test]
    fn child_lists_that_grow_in_turns_keep_every_child_in_letter_order() {
        // Three nodes gain children in turns, so that their blocks move past each other.
        let mut t = ObservationTree::new(20, false);
        let parents = [t.child_or_add(ROOT, 0), t.child_or_add(ROOT, 1), t.child_or_add(ROOT, 2)];
        let mut expected: Vec<Vec<(u32, NodeId)>> = vec![Vec::new(); 3];
        for i in 0..20u32 {
            for (j, &p) in parents.iter().enumerate() {
                let a = (i * 7 + j as u32 * 3) % 20;
                let c = t.child_or_add(p, a);
                expected[j].push((a, c));
            }
        }
        for (j, &p) in parents.iter().enumerate() {
            expected[j].sort_unstable();
            assert_eq!(t.children(p), &expected[j][..]);
            for &(a, c) in &expected[j] {
                assert_eq!(t.child(p, a), Some(c));
            }
        }
    }

    #[test]
    fn disagreements_run_every_node_through_the_table() {
        let mut t = ObservationTree::new(2, false);
        let n = t.walk_or_add(ROOT, &[1, 1, 0]);
        let one = t.walk(ROOT, &[1]).unwrap();
        t.set_out(n, true);
        t.set_out(one, true);
        // Counts the ones modulo 3; only state 1 accepts.
        let next: Vec<u32> = (0..3).flat_map(|q| [q, (q + 1) % 3]).collect();
        let mut states = Vec::new();
        let found = t.disagreements(0, &next, 2, &[false, true, false], &mut states);
        assert_eq!((states[n as usize], states[one as usize]), (2, 1));
        assert_eq!(found, [n]);
        // A missing transition leaves a node and its descendants without a state.
        let mut cut = next.clone();
        cut[1] = NO_STATE;
        assert!(t.disagreements(0, &cut, 2, &[false, true, false], &mut states).is_empty());
        assert_eq!(states[n as usize], NO_STATE);
    }

    #[test]
    fn apartness_looks_below_nodes_with_common_letters_only() {
        // Words over 70 letters, so that letters 3 and 67 share a mask bit.
        let mut t = ObservationTree::new(70, false);
        let (p, q) = (t.walk_or_add(ROOT, &[0]), t.walk_or_add(ROOT, &[1]));
        for n in [p, q] {
            t.set_out(n, true);
        }
        let x = t.walk_or_add(p, &[3]);
        let y = t.walk_or_add(q, &[67]);
        t.set_out(x, true);
        t.set_out(y, false);
        assert!(!t.apart(p, q));
        let z = t.walk_or_add(q, &[3, 5]);
        let u = t.walk_or_add(p, &[3, 5]);
        t.set_out(z, true);
        assert!(!t.apart(p, q));
        t.set_out(u, false);
        assert!(t.apart(p, q));
        assert_eq!(t.witness(p, q), Some(vec![3, 5]));
    }

    #[test]
    fn a_child_is_found_by_its_letter_whatever_the_order_it_was_added_in() {
        // 64 letters (found by the mask's popcount) and 70 (by bisection).
        for k in [64u32, 70] {
            let mut t = ObservationTree::new(k as usize, false);
            let order: Vec<u32> = (0..k).map(|i| (i * 37 + 11) % k).filter(|a| a % 3 != 0).collect();
            let added: Vec<(u32, NodeId)> = order.iter().map(|&a| (a, t.child_or_add(ROOT, a))).collect();
            for a in 0..k {
                let expected = added.iter().find(|&&(l, _)| l == a).map(|&(_, c)| c);
                assert_eq!(t.child(ROOT, a), expected, "letter {a} of {k}");
            }
        }
    }
}
