//! [`CallStack`]: the inlined calls on the way to an edge, shared between edges.
//!
//! The front end inlines every call, so the edges of one inlined body all have the same stack of
//! calls that led to them. A stack is a persistent list linked from the innermost call to its
//! caller: the lowerer builds one node per inlined call and every edge of the body holds a
//! pointer to it, so the memory is linear in the number of calls rather than in the number of
//! edges times the depth of inlining (a chain of 1,000 nested calls took 564 MB with a copy of
//! the stack per edge; benches/VERIFY.md, 16f).
//!
//! Equality and hashing are by content (two stacks built apart from the same frames are equal);
//! dropping, comparing and hashing walk the list in a loop, never by recursion, so a stack as
//! deep as any input makes it cannot overflow the thread's stack.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::Frame;

/// The inlined calls that lead to an edge, outermost first; empty in the component's own body.
/// Cloning shares the list.
#[derive(Clone, Default)]
pub struct CallStack(Option<Arc<Node>>);

struct Node {
    frame: Frame,
    caller: CallStack,
    len: usize,
}

impl CallStack {
    /// The empty stack.
    pub const fn new() -> CallStack {
        CallStack(None)
    }

    /// This stack with `frame` called from its innermost frame; `self` is shared, not copied.
    pub fn push(&self, frame: Frame) -> CallStack {
        CallStack(Some(Arc::new(Node { frame, caller: self.clone(), len: self.len() + 1 })))
    }

    /// The number of frames.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |n| n.len)
    }

    /// Whether there is no frame.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The frames from the innermost call out to the outermost.
    pub fn innermost_first(&self) -> impl Iterator<Item = &Frame> {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let node = cur?;
            cur = node.caller.0.as_deref();
            Some(&node.frame)
        })
    }

    /// The frames from the outermost call in to the innermost (the order of the IR's text).
    pub fn frames(&self) -> Vec<&Frame> {
        let mut frames: Vec<&Frame> = self.innermost_first().collect();
        frames.reverse();
        frames
    }
}

impl FromIterator<Frame> for CallStack {
    /// The stack of `frames`, outermost first.
    fn from_iter<I: IntoIterator<Item = Frame>>(frames: I) -> CallStack {
        frames.into_iter().fold(CallStack::new(), |stack, frame| stack.push(frame))
    }
}

impl Drop for CallStack {
    fn drop(&mut self) {
        // Unlink the nodes this stack owns alone one by one: a recursive drop of a long chain
        // would overflow the thread's stack.
        let mut cur = self.0.take();
        while let Some(node) = cur {
            match Arc::try_unwrap(node) {
                Ok(mut node) => cur = node.caller.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl PartialEq for CallStack {
    fn eq(&self, other: &CallStack) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let (mut a, mut b) = (self.0.as_ref(), other.0.as_ref());
        while let (Some(x), Some(y)) = (a, b) {
            if Arc::ptr_eq(x, y) {
                return true;
            }
            if x.frame != y.frame {
                return false;
            }
            (a, b) = (x.caller.0.as_ref(), y.caller.0.as_ref());
        }
        true
    }
}

impl Eq for CallStack {}

impl Hash for CallStack {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for frame in self.innermost_first() {
            frame.hash(state);
        }
    }
}

impl fmt::Debug for CallStack {
    /// As the list of frames, outermost first (as a `Vec<Frame>` prints).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.frames()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::SrcSpan;
    use crate::util::HashSet;

    fn frame(i: u32) -> Frame {
        let call = SrcSpan { file: "t.c".to_string(), line: i, col: 1, end_line: i, end_col: 5 };
        Frame { function: format!("f{i}"), call }
    }

    fn chain(n: u32) -> CallStack {
        (0..n).map(frame).collect()
    }

    #[test]
    fn frames_come_outermost_first() {
        let s = chain(3);
        assert_eq!(s.len(), 3);
        let names: Vec<&str> = s.frames().iter().map(|f| f.function.as_str()).collect();
        assert_eq!(names, ["f0", "f1", "f2"]);
        assert_eq!(format!("{s:?}"), format!("{:?}", (0..3).map(frame).collect::<Vec<_>>()));
    }

    #[test]
    fn equality_and_hash_are_by_content() {
        let (a, b) = (chain(5), chain(5));
        assert_eq!(a, b);
        assert_ne!(a, chain(4));
        assert_ne!(a, chain(4).push(frame(9)));
        let set: HashSet<CallStack> = [a, b, chain(4)].into_iter().collect();
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn a_push_shares_the_callers_frames() {
        let base = chain(4);
        let (x, y) = (base.push(frame(7)), base.push(frame(8)));
        let caller = |s: &CallStack| s.innermost_first().nth(1).map(std::ptr::from_ref);
        assert_eq!(caller(&x), caller(&y));
        assert_eq!(caller(&x), base.innermost_first().next().map(std::ptr::from_ref));
    }

    #[test]
    fn a_very_deep_stack_compares_hashes_and_drops_without_recursion() {
        // Far deeper than a test thread's 2 MB stack could take by recursion.
        let (a, b) = (chain(200_000), chain(200_000));
        assert_eq!(a, b);
        let set: HashSet<CallStack> = [a.clone()].into_iter().collect();
        assert!(set.contains(&b));
        drop(set);
        drop(a);
        drop(b);
    }
}
