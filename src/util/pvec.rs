//! A persistent vector of fixed length: copies share every part they do not change.
//!
//! The bounded search ([`crate::check::bmc`]) keeps one symbolic state (a term per variable) per
//! way into each node of its unrolling, and an edge writes at most one variable. With a plain
//! vector every step copied the whole state, so straight-line code over `n` variables cost
//! `n` copies per statement: time quadratic in its length. [`PVec`] makes a step cost what it
//! writes.
//!
//! The elements are the leaves of a tree whose nodes have up to [`WIDTH`] children, each node
//! behind an `Rc` (a bitmapped vector trie without tail, as in Bagwell's "Ideal hash trees",
//! 2001, and the persistent vectors of Clojure, written here for a fixed length).
//!
//! Invariants:
//! - The tree's shape depends only on the length: element `i` lies in leaf `i / WIDTH` at slot
//!   `i % WIDTH`, and inner nodes group their level's nodes `WIDTH` at a time from the left.
//!   Two vectors of the same length therefore have the same shape, and [`PVec::diff`] walks
//!   them in step.
//! - Nodes are never changed while shared: [`PVec::set`] copies the path from the root to the
//!   element's leaf where a node is shared (`Rc::make_mut`) and writes in place where it is not.
//!
//! Costs: `clone` O(1); `get` O(log n); `set` O(WIDTH · log n) when the path is shared, O(log n)
//! when not; `diff` of two versions that differ in `d` elements since a common ancestor
//! O(d · WIDTH · log n), since subtrees they share are skipped by pointer.
//!
//! Known weaknesses: the length is fixed (no push or pop; the bounded search needs neither);
//! reading an element costs a walk from the root, not an index.

use std::rc::Rc;

const BITS: u32 = 4;
/// The number of children of a node, and of elements of a leaf.
pub const WIDTH: usize = 1 << BITS;
const MASK: usize = WIDTH - 1;

#[derive(Clone, Debug)]
enum Node<T> {
    Leaf(Vec<T>),
    Inner(Vec<Rc<Node<T>>>),
}

impl<T> Node<T> {
    fn width(&self) -> usize {
        match self {
            Node::Leaf(items) => items.len(),
            Node::Inner(children) => children.len(),
        }
    }
}

/// A vector of fixed length whose clones share structure; see the module doc.
#[derive(Clone, Debug)]
pub struct PVec<T> {
    len: usize,
    /// `BITS` times the number of inner levels above the leaves.
    shift: u32,
    root: Rc<Node<T>>,
}

impl<T: Clone> PVec<T> {
    /// The vector of `items`, in their order.
    pub fn from_vec(items: Vec<T>) -> PVec<T> {
        let len = items.len();
        let mut level: Vec<Rc<Node<T>>> = Vec::with_capacity(len.div_ceil(WIDTH));
        let mut items = items.into_iter().peekable();
        while items.peek().is_some() {
            level.push(Rc::new(Node::Leaf(items.by_ref().take(WIDTH).collect())));
        }
        let mut shift = 0;
        while level.len() > 1 {
            let mut up = Vec::with_capacity(level.len().div_ceil(WIDTH));
            let mut nodes = level.into_iter().peekable();
            while nodes.peek().is_some() {
                up.push(Rc::new(Node::Inner(nodes.by_ref().take(WIDTH).collect())));
            }
            level = up;
            shift += BITS;
        }
        let root = level.pop().unwrap_or_else(|| Rc::new(Node::Leaf(Vec::new())));
        PVec { len, shift, root }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i`. Panics when `i` is out of bounds, as a slice's index does.
    pub fn get(&self, i: usize) -> &T {
        assert!(i < self.len, "index {i} out of bounds of a persistent vector of {}", self.len);
        let mut node = &*self.root;
        let mut shift = self.shift;
        loop {
            match node {
                Node::Inner(children) => {
                    node = &children[(i >> shift) & MASK];
                    shift -= BITS;
                }
                Node::Leaf(items) => return &items[i & MASK],
            }
        }
    }

    /// The elements in order, copied into a plain vector.
    pub fn to_vec(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len);
        let mut stack = vec![&*self.root];
        while let Some(node) = stack.pop() {
            match node {
                Node::Leaf(items) => out.extend(items.iter().cloned()),
                Node::Inner(children) => stack.extend(children.iter().rev().map(|c| &**c)),
            }
        }
        out
    }

    /// Sets element `i` to `value`; returns the number of entries (children or elements) it
    /// copied out of shared nodes, the work it did beyond the write.
    pub fn set(&mut self, i: usize, value: T) -> usize {
        assert!(i < self.len, "index {i} out of bounds of a persistent vector of {}", self.len);
        let mut copied = 0;
        set_in(&mut self.root, self.shift, i, value, &mut copied);
        copied
    }

    /// The indices at which `self` and `other` (of the same length) hold elements that `same`
    /// does not call equal, in increasing order, appended to `out`; returns the number of
    /// elements compared. Subtrees the two share are skipped.
    pub fn diff(&self, other: &PVec<T>, same: impl Fn(&T, &T) -> bool, out: &mut Vec<usize>) -> usize {
        assert_eq!(self.len, other.len, "persistent vectors of different lengths");
        let mut compared = 0;
        diff_in(&self.root, &other.root, self.shift, 0, &same, out, &mut compared);
        compared
    }
}

fn set_in<T: Clone>(node: &mut Rc<Node<T>>, shift: u32, i: usize, value: T, copied: &mut usize) {
    if Rc::strong_count(node) > 1 {
        *copied += node.width();
    }
    match Rc::make_mut(node) {
        Node::Inner(children) => set_in(&mut children[(i >> shift) & MASK], shift - BITS, i, value, copied),
        Node::Leaf(items) => items[i & MASK] = value,
    }
}

fn diff_in<T>(
    a: &Rc<Node<T>>,
    b: &Rc<Node<T>>,
    shift: u32,
    base: usize,
    same: &impl Fn(&T, &T) -> bool,
    out: &mut Vec<usize>,
    compared: &mut usize,
) {
    if Rc::ptr_eq(a, b) {
        return;
    }
    match (&**a, &**b) {
        (Node::Inner(xs), Node::Inner(ys)) => {
            for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
                diff_in(x, y, shift - BITS, base + (k << shift), same, out, compared);
            }
        }
        (Node::Leaf(xs), Node::Leaf(ys)) => {
            for (k, (x, y)) in xs.iter().zip(ys).enumerate() {
                *compared += 1;
                if !same(x, y) {
                    out.push(base + k);
                }
            }
        }
        // Same length, same shape (the module's first invariant).
        _ => unreachable!("persistent vectors of one length have one shape"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_reads_what_from_vec_and_set_wrote_at_every_length() {
        for len in [0, 1, 15, 16, 17, 255, 256, 257, 4097] {
            let mut v = PVec::from_vec((0..len).collect::<Vec<usize>>());
            assert_eq!(v.len(), len);
            for i in 0..len {
                assert_eq!(*v.get(i), i);
            }
            for i in (0..len).step_by(7) {
                v.set(i, i * 10);
            }
            for i in 0..len {
                assert_eq!(*v.get(i), if i % 7 == 0 { i * 10 } else { i });
            }
            let plain: Vec<usize> = (0..len).map(|i| if i % 7 == 0 { i * 10 } else { i }).collect();
            assert_eq!(v.to_vec(), plain);
        }
    }

    #[test]
    fn a_clone_does_not_see_later_writes() {
        let mut a = PVec::from_vec(vec![0; 1000]);
        let b = a.clone();
        a.set(500, 1);
        assert_eq!((*a.get(500), *b.get(500)), (1, 0));
    }

    #[test]
    fn set_copies_a_shared_path_once_and_then_writes_in_place() {
        let mut a = PVec::from_vec(vec![0; 4096]);
        let _shared = a.clone();
        // Three levels of 16: the root, an inner node and a leaf are copied.
        assert_eq!(a.set(7, 1), 3 * WIDTH);
        assert_eq!(a.set(8, 1), 0);
    }

    #[test]
    fn diff_finds_the_changed_indices_in_order_and_skips_what_is_shared() {
        let base = PVec::from_vec(vec![0; 4096]);
        let mut a = base.clone();
        let mut b = base.clone();
        a.set(3000, 1);
        a.set(5, 2);
        b.set(5, 2);
        let mut out = Vec::new();
        let compared = a.diff(&b, |x, y| x == y, &mut out);
        assert_eq!(out, vec![3000]);
        // Two leaves, not 4096 elements.
        assert_eq!(compared, 2 * WIDTH);
    }
}
