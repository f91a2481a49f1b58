//! Traces of automata, for tests that re-check a reported violation on the real product.

use subst::automata::Dla;
use subst::automata::dla::StateId;

/// Whether some run of `d` along `trace` (τ steps free) reaches an error state.
pub fn reaches_error(d: &Dla, trace: &[String]) -> bool {
    let mut current = d.tau_closure(d.initial());
    for e in trace {
        if current.iter().any(|&s| d.is_error(s)) {
            return true;
        }
        let Some(ix) = d.event_index(e) else { return false };
        let next: Vec<StateId> =
            current.iter().flat_map(|&s| d.state(s).out.iter().filter(|t| t.event == ix).map(|t| t.to)).collect();
        current = d.tau_closure(&next);
    }
    current.iter().any(|&s| d.is_error(s))
}
