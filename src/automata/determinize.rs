//! Determinisation by the subset construction (Rabin and Scott 1959), over the letters of a DLA:
//! an event together with the label of the state it reaches, after τ-closure.
//!
//! The result is deterministic in the sense of paper 003 Definition 2 and accepts the same
//! language. Error states contribute nothing to a language (they are not accepting and have no
//! successors), so they disappear.
//!
//! Known weakness: the subset construction is exponential in the worst case; it is meant for
//! automata that are small or nearly deterministic (assumptions, properties, abstractions).

use crate::util::HashMap;
use std::collections::{BTreeMap, VecDeque};

use super::dla::{Builder, Dla, StateId, TAU};

/// A deterministic automaton with the language of `d`.
pub fn determinize(d: &Dla) -> Dla {
    let mut b = Builder::new();
    for e in d.alphabet() {
        b.add_event(e);
    }
    for p in d.props() {
        b.add_prop(p);
    }
    let mut ids: HashMap<Vec<StateId>, StateId> = HashMap::default();
    let mut queue: VecDeque<Vec<StateId>> = VecDeque::new();
    // Macro states are identified by their members; their label is the one observed on entry.
    let mut by_label: BTreeMap<Vec<u16>, Vec<StateId>> = BTreeMap::new();
    for &s in d.initial() {
        by_label.entry(d.state(s).label.clone()).or_default().push(s);
    }
    for (label, members) in by_label {
        let set = key(d.tau_closure(&members), &label);
        let id = add(d, &mut b, &mut ids, &mut queue, set, &label);
        b.set_initial(id);
    }
    while let Some(set) = queue.pop_front() {
        let from = ids[&set];
        let mut moves: BTreeMap<(u32, Vec<u16>), Vec<StateId>> = BTreeMap::new();
        for &s in members(&set) {
            for t in &d.state(s).out {
                if t.event != TAU && !d.is_error(t.to) {
                    moves.entry((t.event, d.state(t.to).label.clone())).or_default().push(t.to);
                }
            }
        }
        for ((e, label), targets) in moves {
            let next = key(d.tau_closure(&targets), &label);
            let to = add(d, &mut b, &mut ids, &mut queue, next, &label);
            b.add_transition(from, d.event_name(e), to);
        }
    }
    b.build()
}

/// The state of the result for a macro state, made and queued on first sight.
fn add(
    d: &Dla,
    b: &mut Builder,
    ids: &mut HashMap<Vec<StateId>, StateId>,
    queue: &mut VecDeque<Vec<StateId>>,
    set: Vec<StateId>,
    label: &[u16],
) -> StateId {
    if let Some(&id) = ids.get(&set) {
        return id;
    }
    let names = d.label_of(label);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let id = b.add_state(&names, members(&set).iter().any(|&s| d.is_accepting(s)));
    ids.insert(set.clone(), id);
    queue.push_back(set);
    id
}

/// A macro state's key: its members followed by a marker and its label, since the same members
/// entered with different labels are different states of the result.
fn key(mut members: Vec<StateId>, label: &[u16]) -> Vec<StateId> {
    members.retain(|s| s.0 != u32::MAX);
    members.push(StateId(u32::MAX));
    members.extend(label.iter().map(|&p| StateId(p as u32)));
    members
}

fn members(key: &[StateId]) -> &[StateId] {
    let end = key.iter().position(|s| s.0 == u32::MAX).unwrap_or(key.len());
    &key[..end]
}
