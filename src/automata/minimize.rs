//! Minimisation of a deterministic DLA by partition refinement in the manner of Hopcroft (1971).
//!
//! The automaton is first trimmed (states unreachable from an initial state, or from which no
//! accepting state is reachable, accept nothing and go), then completed with one sink, then the
//! partition `{accepting, label}` is refined by splitters (block, letter) until stable, where a
//! letter is an event together with the label of its target (Definition 2's determinism). The
//! result is the unique minimal deterministic DLA of the language, up to isomorphism.
//!
//! Invariant: the input must be deterministic ([`Dla::is_deterministic`]); [`minimize`]
//! determinises first when it is not.
//!
//! Known weakness: a split scans the whole block it splits, so the bound is O(n² k) in the worst
//! case rather than Hopcroft's O(n k log n); automata here have at most tens of thousands of states.

use crate::util::{HashMap, HashSet};
use std::collections::{BTreeMap, VecDeque};

use super::dla::{Builder, Dla, StateId};

/// The minimal deterministic automaton with the language of `d`.
pub fn minimize(d: &Dla) -> Dla {
    let det;
    let d = if d.is_deterministic() {
        d
    } else {
        det = super::determinize::determinize(d);
        &det
    };
    let live = live_states(d);
    let states: Vec<StateId> = (0..d.n_states() as u32).map(StateId).filter(|s| live[s.index()]).collect();
    let n = states.len();
    let sink = n;
    let index: HashMap<StateId, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    // Letters: (event, label of target).
    let mut letters: BTreeMap<(u32, Vec<u16>), usize> = BTreeMap::new();
    for &s in &states {
        for t in &d.state(s).out {
            if live[t.to.index()] {
                let k = letters.len();
                letters.entry((t.event, d.state(t.to).label.clone())).or_insert(k);
            }
        }
    }
    let n_letters = letters.len();
    let mut delta = vec![vec![sink; n_letters]; n + 1];
    for (i, &s) in states.iter().enumerate() {
        for t in &d.state(s).out {
            if let Some(&j) = index.get(&t.to) {
                delta[i][letters[&(t.event, d.state(t.to).label.clone())]] = j;
            }
        }
    }
    let mut inverse = vec![vec![Vec::new(); n + 1]; n_letters];
    for (i, row) in delta.iter().enumerate() {
        for (c, &j) in row.iter().enumerate() {
            inverse[c][j].push(i);
        }
    }
    // Initial partition by (accepting, label); the sink alone.
    let mut block_of = vec![0usize; n + 1];
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    let mut first: HashMap<(bool, Vec<u16>), usize> = HashMap::default();
    for (i, &s) in states.iter().enumerate() {
        let k = (d.is_accepting(s), d.state(s).label.clone());
        let b = *first.entry(k).or_insert_with(|| {
            blocks.push(Vec::new());
            blocks.len() - 1
        });
        blocks[b].push(i);
        block_of[i] = b;
    }
    blocks.push(vec![sink]);
    block_of[sink] = blocks.len() - 1;
    let mut work: VecDeque<(usize, usize)> = VecDeque::new();
    let mut in_work: HashSet<(usize, usize)> = HashSet::default();
    for b in 0..blocks.len() {
        for c in 0..n_letters {
            work.push_back((b, c));
            in_work.insert((b, c));
        }
    }
    let mut marked = vec![false; n + 1];
    while let Some((b, c)) = work.pop_front() {
        in_work.remove(&(b, c));
        let mut pre: Vec<usize> = Vec::new();
        for &t in &blocks[b] {
            pre.extend(inverse[c][t].iter().copied());
        }
        for &p in &pre {
            marked[p] = true;
        }
        let mut touched: Vec<usize> = pre.iter().map(|&p| block_of[p]).collect();
        touched.sort_unstable();
        touched.dedup();
        for y in touched {
            let (inside, outside): (Vec<usize>, Vec<usize>) = blocks[y].iter().partition(|&&s| marked[s]);
            if outside.is_empty() {
                continue;
            }
            let new = blocks.len();
            let (keep, moved) = if inside.len() <= outside.len() { (outside, inside) } else { (inside, outside) };
            for &s in &moved {
                block_of[s] = new;
            }
            blocks[y] = keep;
            blocks.push(moved);
            // Hopcroft's rule: pending splitters of `y` now cover `keep`; `moved`, the smaller
            // half, is added for every letter.
            for d in 0..n_letters {
                if in_work.insert((new, d)) {
                    work.push_back((new, d));
                }
            }
        }
        for &p in &pre {
            marked[p] = false;
        }
    }
    build_quotient(d, &states, &blocks, &block_of, sink, &delta, &letters)
}

/// Rebuilds the automaton with one state per block, the sink's block left out.
fn build_quotient(
    d: &Dla,
    states: &[StateId],
    blocks: &[Vec<usize>],
    block_of: &[usize],
    sink: usize,
    delta: &[Vec<usize>],
    letters: &BTreeMap<(u32, Vec<u16>), usize>,
) -> Dla {
    let mut b = Builder::new();
    for e in d.alphabet() {
        b.add_event(e);
    }
    for p in d.props() {
        b.add_prop(p);
    }
    // Number blocks in breadth-first order from the initial states, for a canonical result.
    let sink_block = block_of[sink];
    let index: HashMap<StateId, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let mut ids: HashMap<usize, StateId> = HashMap::default();
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut inits: Vec<usize> =
        d.initial().iter().filter_map(|s| index.get(s)).map(|&i| block_of[i]).filter(|&x| x != sink_block).collect();
    inits.sort_unstable();
    inits.dedup();
    let mut add = |b: &mut Builder, blk: usize, queue: &mut VecDeque<usize>| -> StateId {
        if let Some(&id) = ids.get(&blk) {
            return id;
        }
        let rep = states[blocks[blk][0]];
        let names = d.label_of(&d.state(rep).label);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let id = b.add_state(&names, d.is_accepting(rep));
        ids.insert(blk, id);
        queue.push_back(blk);
        id
    };
    for blk in inits {
        let id = add(&mut b, blk, &mut queue);
        b.set_initial(id);
    }
    while let Some(blk) = queue.pop_front() {
        let from = add(&mut b, blk, &mut queue);
        let rep = blocks[blk][0];
        for (&(e, _), &c) in letters {
            let to_blk = block_of[delta[rep][c]];
            if to_blk != sink_block {
                let to = add(&mut b, to_blk, &mut queue);
                b.add_transition(from, d.event_name(e), to);
            }
        }
    }
    b.build()
}

/// States reachable from an initial state from which an accepting state is reachable.
fn live_states(d: &Dla) -> Vec<bool> {
    let n = d.n_states();
    let mut reach = vec![false; n];
    let mut stack: Vec<StateId> = d.initial().to_vec();
    for s in &stack {
        reach[s.index()] = true;
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    while let Some(s) = stack.pop() {
        for t in &d.state(s).out {
            if !reach[t.to.index()] {
                reach[t.to.index()] = true;
                stack.push(t.to);
            }
        }
    }
    for (i, s) in d.states().iter().enumerate() {
        for t in &s.out {
            preds[t.to.index()].push(i);
        }
    }
    let mut coreach = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| d.is_accepting(StateId(i as u32))).collect();
    for &i in &stack {
        coreach[i] = true;
    }
    while let Some(i) = stack.pop() {
        for &p in &preds[i] {
            if !coreach[p] {
                coreach[p] = true;
                stack.push(p);
            }
        }
    }
    (0..n).map(|i| reach[i] && coreach[i]).collect()
}
