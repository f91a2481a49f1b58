//! Symbolic simulation of abstract paths on the concrete component, and predicate discovery.
//!
//! [`simulate`] builds the SSA path formula of a path of IR edges from the initial state: one
//! fresh constant per variable a step changes, the step's guard, the inputs it reads. A model is
//! a concrete run: [`Witness`] holds, per step, the input values read, which the interpreter
//! replays. When the formula is unsatisfiable, a binary search finds the shortest infeasible
//! prefix.
//!
//! [`refine`] first looks for predicates that generalise across loop iterations: **path
//! invariants** in the sense of Beyer, Henzinger, Majumdar and Rybalchenko (*Path invariants*,
//! PLDI 2007), taken from the inductive invariants of the whole component rather than of the
//! path's own program. Once per abstractor, Houdini's invariants at the cut points of the
//! component's block encoding are computed ([`super::invariant`]: affine equalities of
//! interpreter samples and the atoms of the conditions, pruned until inductive). For the latest
//! visit of a cut point on the infeasible prefix whose invariant alone rules out the rest of
//! the prefix (`I(s_k) ∧ path[k..]` unsatisfiable), the invariant's conjuncts are minimised
//! (deletion: one query per conjunct) and added there; then they are **transported** back
//! through the loop-free code before that cut point (the atoms of `φ[post]` over every edge
//! into a location, up to the previous cut points), so that the edge-by-edge abstraction keeps
//! what the block encoding's consecution query knows: from a state where the invariant holds,
//! every abstract successor inside the loop body carries its image, and the invariant holds
//! again at the head. The rest of the prefix gets weakest preconditions as below. A loop that
//! needs `s == 2*i` then costs one refinement, where weakest preconditions add `s == 2`, `s ==
//! 4`, ... one per iteration; a data value read before the loop is no longer learned value by
//! value when an equality relates it to the output.
//!
//! When no invariant rules the path out (none at its cut points, or not strong enough), it
//! computes weakest preconditions backwards along that prefix (`pre(e, φ) = guard ∧
//! φ[post]`), and adds the atoms of each precondition, at the location it belongs to, to the
//! precision. Inputs read on the way stay free constants (implicitly existential); atoms that
//! mention them say nothing about the state there and are left out. The walk stops at the
//! first precondition that is unsatisfiable on its own: the rest of the path cannot be run from
//! any state, so the predicates from there on suffice to rule it out.
//!
//! Soundness does not rest on the invariants: they are predicates, which decide how many
//! abstract states there are, never whether a concrete step is represented. A wrong guess costs
//! precision, nothing else, so they are not re-checked here.
//!
//! Known weaknesses:
//! - The invariants are Houdini's first round only (conjunctions of equalities and condition
//!   atoms); a loop that needs a disjunctive or polynomial invariant still refines by weakest
//!   preconditions, one iteration at a time.
//! - Transport stops at the previous cut points: in nested loops the inner head receives the
//!   outer invariant's image but not the inner invariant that its consecution may need.
//! - Computing the invariants costs one Houdini run per abstractor, at its first refinement
//!   whose path can run from some state at its latest cut point (a path that cannot is
//!   explained by weakest preconditions whatever the invariants, so none are computed for it:
//!   the IPC's P1, old check and upgrades alike, runs no Houdini at all, `benches/COMPAT.md`).
//!   A component whose refinements then do not use them still pays for that run.
//! - With an abstract state at every location (`--blocks single`, the default), the transport
//!   above gives the locations inside a loop body the images of the invariant that a
//!   large-block encoding keeps in its block formula; with `--blocks loop` ([`super::blocks`])
//!   the same refinement runs on block paths, without the transport. Loop-free data (a result learned
//!   value by value in containment's abstraction loop) gains nothing from the invariants; there
//!   the product of the versions decides (`check::product`).
//!
//! Measured (`tests/it/refinement.rs`, CEGAR without the invariant prover before it): a loop that
//! needs `s == 2*i`, and one that needs `x + y == n`, are proved after one refinement each,
//! where weakest preconditions alone have not proved the first after 5 refinements (with a
//! limit of 20, the run had not ended after 15 minutes). `examples-c/cegar/retry_connection.c`
//! under `subst verify`: 37 refinements and 6,254 SMT calls before, 25 and 5,244 after.

use z3::ast::{Ast, Bool, Dynamic};

use super::{Abstractor, over_vocab};
use crate::ir::{Event, LocId, Lvalue, Stmt, VarTy};
use crate::smt::{Encoder, Smt, SmtError, Sym, Take, model_value};

/// The most (location, predicate) pairs one transport of an invariant visits.
const MAX_TRANSPORTED: usize = 512;

/// Houdini's invariants at the cut points of a component's block encoding
/// ([`super::invariant`]), as [`refine`] uses them: conjuncts per cut point, over the
/// abstractor's vocabulary. Empty when Houdini gave up.
pub struct CutInvariants {
    cuts: Vec<LocId>,
    facts: Vec<Vec<Bool>>,
}

impl CutInvariants {
    /// Houdini's invariants of `enc`'s component over `vocab`, found with `smt`.
    fn of(enc: &Encoder, vocab: &[Sym], smt: &mut Smt) -> CutInvariants {
        use super::invariant;
        let comp = enc.component();
        let (started, calls) = (std::time::Instant::now(), smt.stats.calls);
        let blocks = invariant::blocks(enc, vocab, &|_, _| true, false);
        let blocked = started.elapsed();
        let samples = invariant::sample_states(comp, &blocks.cuts);
        let sampled = started.elapsed();
        let mut facts = invariant::candidate_facts(comp, enc, vocab, &blocks.cuts, &samples);
        let guessed = started.elapsed();
        let pruned = invariant::houdini_prune(&blocks, vocab, &mut facts, smt);
        tracing::debug!(
            component = comp.name,
            samples = samples.iter().map(Vec::len).sum::<usize>(),
            ?blocked,
            ?sampled,
            ?guessed,
            calls = smt.stats.calls - calls,
            took = ?started.elapsed(),
            "refinement invariants computed"
        );
        if let Err(e) = pruned {
            tracing::debug!(%e, "refinement invariants: Houdini gave up");
            facts.iter_mut().for_each(Vec::clear);
        }
        tracing::debug!(cuts = ?blocks.cuts, facts = ?facts, "refinement invariants");
        CutInvariants { cuts: blocks.cuts, facts }
    }
}

/// One step of a concrete run found by symbolic simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessStep {
    /// The IR edge.
    pub edge: usize,
    /// How it was taken.
    pub take: Take,
    /// The input values it reads, in the interpreter's order (one per element for an array).
    pub inputs: Vec<i128>,
}

/// A concrete run along a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The steps, in order.
    pub steps: Vec<WitnessStep>,
}

impl Witness {
    /// All inputs in the order the interpreter consumes them.
    pub fn inputs(&self) -> Vec<i128> {
        self.steps.iter().flat_map(|s| s.inputs.iter().copied()).collect()
    }
}

/// The result of simulating a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// The path is a concrete run.
    Feasible(Witness),
    /// Its first `prefix` steps already cannot be run.
    Infeasible {
        /// Length of the shortest infeasible prefix.
        prefix: usize,
    },
}

/// Simulates the path `path` (IR edges and how each is taken) of `enc`'s component from its
/// initial state.
pub fn simulate(enc: &Encoder, smt: &mut Smt, path: &[(usize, Take)]) -> Result<Replay, SmtError> {
    // The empty path is a run: the initial condition only fixes globals (and elements of
    // global arrays) to constants, which is always satisfiable. A component that takes no
    // part in a counterexample of an assembly (most of them, in a round of compatibility)
    // costs no query.
    if path.is_empty() {
        return Ok(Replay::Feasible(Witness { steps: Vec::new() }));
    }
    let comp = enc.component();
    // Whether the component has label gadgets (one scan, not one per step).
    let labelled = super::labels::instrumented(comp);
    let st0 = enc.state("s0.");
    let init = enc.init(&st0);
    let mut st = st0;
    let mut facts: Vec<Vec<Bool>> = Vec::with_capacity(path.len());
    // Per step, what its inputs are in the model.
    let mut reads: Vec<Vec<(Dynamic, crate::ir::IntTy, u32)>> = Vec::with_capacity(path.len());
    for (i, &(e, take)) in path.iter().enumerate() {
        let edge = &comp.edges[e];
        let step = enc.step(edge, take, &st);
        let mut f = vec![step.guard.clone()];
        // A letter of a label gadget: the label must hold here.
        if let Some(c) = labelled.then(|| super::labels::gadget_condition(comp, e)).flatten() {
            f.push(enc.cond(c, &st));
        }
        let fresh_state = enc.state(&format!("s{}.", i + 1));
        let mut next = Vec::with_capacity(st.len());
        for ((old, new), named) in st.iter().zip(&step.post).zip(fresh_state) {
            if old.dynamic() == new.dynamic() {
                next.push(old.clone());
            } else {
                f.push(named.dynamic().eq(new.dynamic()));
                next.push(named);
            }
        }
        let mut r = Vec::new();
        match (&edge.stmt, take) {
            (Stmt::Havoc(lv), _) => {
                let decl = comp.var(lv.var());
                let n = match (lv, decl.ty) {
                    (Lvalue::Var(_), VarTy::Array(_, n)) => n,
                    _ => 1,
                };
                if let Some(d) = step.fresh.first() {
                    r.push((d.clone(), decl.ty.elem(), n));
                }
            }
            // A received value that the trace fixes is an input, but no constant.
            (Stmt::Event(Event::Recv(..)), Take::Value(_)) => {}
            (Stmt::Event(Event::Recv(name, _)), _) => {
                let ty = comp.family(name).map_or(crate::ir::IntTy::I32, |f| f.ty);
                if let Some(d) = step.fresh.first() {
                    r.push((d.clone(), ty, 1));
                }
            }
            _ => {}
        }
        reads.push(r);
        facts.push(f);
        st = next;
    }
    let prefix_facts = |k: usize| -> Vec<Bool> {
        let mut all = vec![init.clone()];
        for f in &facts[..k] {
            all.extend(f.iter().cloned());
        }
        all
    };
    if let Some(model) = smt.model(&prefix_facts(path.len()))? {
        let steps = path
            .iter()
            .zip(&reads)
            .map(|(&(edge, take), r)| {
                let mut inputs = Vec::new();
                if let (Stmt::Event(Event::Recv(..)), Take::Value(v)) = (&comp.edges[edge].stmt, take) {
                    inputs.push(v);
                }
                for (d, ty, n) in r {
                    if let Some(b) = d.as_bv() {
                        inputs.push(model_value(&model, &b, *ty));
                    } else if let Some(a) = d.as_array() {
                        for i in 0..*n {
                            let idx = z3::ast::BV::from_u64(u64::from(i), 64);
                            let elem = a.select(&idx).as_bv().expect("bit-vector elements");
                            inputs.push(model_value(&model, &elem, *ty));
                        }
                    }
                }
                WitnessStep { edge, take, inputs }
            })
            .filter(|s| !labelled || !super::labels::is_gadget(comp, s.edge))
            .collect();
        return Ok(Replay::Feasible(Witness { steps }));
    }
    // The shortest infeasible prefix: prefix `lo` is feasible, prefix `hi` is not.
    let (mut lo, mut hi) = (0usize, path.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if smt.sat(&prefix_facts(mid))? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Replay::Infeasible { prefix: hi })
}

/// Adds predicates that rule out `path`, whose prefix of length `prefix` is infeasible;
/// returns how many (location, predicate) pairs are new.
///
/// The weakest preconditions are taken first from the end of the whole path (the error
/// condition, so that the predicates speak about the property, as SLAM's Newton does); only
/// when that yields nothing new, from the end of the infeasible prefix.
pub fn refine(abs: &mut Abstractor, smt: &mut Smt, path: &[(usize, Take)], prefix: usize) -> Result<usize, SmtError> {
    // An answer the solver could not give only means no generalisation: weakest preconditions
    // below decide as before.
    let generalised = if abs.generalise { generalise(abs, smt, path, prefix) } else { Ok(0) };
    match generalised {
        Ok(n) if n > 0 => {
            abs.stats.generalised += 1;
            return Ok(n);
        }
        Ok(_) => {}
        Err(e) => tracing::debug!(%e, "refinement by invariants gave up"),
    }
    let added = wp_walk(abs, smt, path)?;
    if added > 0 || prefix >= path.len() {
        return Ok(added);
    }
    wp_walk(abs, smt, &path[..prefix])
}

/// Computes Houdini's invariants at the cut points once per abstractor (at its first
/// refinement that asks for them).
pub(super) fn ensure_invariants(abs: &mut Abstractor, smt: &mut Smt) {
    if abs.invariants.is_none() {
        let found = CutInvariants::of(&abs.enc, &abs.vocab, smt);
        abs.invariants = Some(found);
        abs.stats.invariant_runs += 1;
    }
}

/// The conjuncts of the invariant at `loc`, when it is a cut point.
pub(super) fn invariant_at(abs: &Abstractor, loc: LocId) -> Option<Vec<Bool>> {
    let inv = abs.invariants.as_ref()?;
    let c = inv.cuts.iter().position(|&l| l == loc)?;
    inv.facts.get(c).cloned()
}

/// Refinement by the invariant at a cut point of the infeasible prefix of `path` (see the
/// module doc); the number of (location, predicate) pairs added, 0 when no invariant rules the
/// prefix out or it adds nothing new.
fn generalise(abs: &mut Abstractor, smt: &mut Smt, path: &[(usize, Take)], prefix: usize) -> Result<usize, SmtError> {
    let comp = abs.component();
    let end = prefix.min(path.len());
    // Whether the rest of the path from the latest visit of a cut point can run from some
    // state, asked before the invariants are computed: when it cannot, neither can the rest
    // from any earlier visit (it ends with this one), so the loop below would return 0 whatever
    // the invariants, and Houdini's run is not needed (yet). The IPC's new ipc-queue in the P1
    // re-checks of `ipc2` and `ipc4`: both refinements are of this kind, and its Houdini run
    // was a third of the re-check.
    let mut feasible_at = None;
    if abs.invariants.is_none() {
        let cuts = super::invariant::cut_points(comp);
        if let Some(k) = (0..end).rev().find(|&k| cuts.contains(&comp.edges[path[k].0].from)) {
            let start = abs.enc.state(&format!("g{k}."));
            let rest = path_facts(&abs.enc, &start, &path[k..end], &format!("g{k}s"));
            if !smt.sat(&rest)? {
                return Ok(0);
            }
            feasible_at = Some(k);
        }
        let found = CutInvariants::of(&abs.enc, &abs.vocab, smt);
        abs.invariants = Some(found);
        abs.stats.invariant_runs += 1;
    }
    let Some(inv) = abs.invariants.as_ref() else { return Ok(0) };
    if inv.facts.iter().all(Vec::is_empty) {
        return Ok(0);
    }
    // The latest visit of a cut point first: the shortest rest of the path to explain.
    for k in (0..end).rev() {
        let loc = comp.edges[path[k].0].from;
        let Some(c) = inv.cuts.iter().position(|&l| l == loc) else { continue };
        if inv.facts[c].is_empty() {
            continue;
        }
        let start = abs.enc.state(&format!("g{k}."));
        let rest = path_facts(&abs.enc, &start, &path[k..end], &format!("g{k}s"));
        let at = |f: &Bool| crate::smt::substitute(f, &abs.vocab, &start);
        let rules_out = |keep: &[Bool], smt: &mut Smt| -> Result<bool, SmtError> {
            let mut all = rest.clone();
            all.extend(keep.iter().map(at));
            Ok(!smt.sat(&all)?)
        };
        // The rest of the path cannot run from any state: no invariant is needed, and weakest
        // preconditions from the error explain it (as from every earlier visit).
        if feasible_at != Some(k) && rules_out(&[], smt)? {
            return Ok(0);
        }
        let mut keep = inv.facts[c].clone();
        if !rules_out(&keep, smt)? {
            continue;
        }
        // Deletion: a conjunct stays only when the rest without it no longer rules the path out.
        let mut i = 0;
        while i < keep.len() {
            let mut trial = keep.clone();
            trial.remove(i);
            if rules_out(&trial, smt)? {
                keep = trial;
            } else {
                i += 1;
            }
        }
        let cuts = inv.cuts.clone();
        tracing::debug!(at = %loc, invariant = ?keep, "refinement by an invariant");
        let mut added = 0;
        for p in &keep {
            if abs.precision.add(loc, p.clone()) {
                added += 1;
            }
        }
        added += transport(abs, &cuts, loc, &keep);
        added += wp_walk(abs, smt, &path[k..end])?;
        return Ok(added);
    }
    Ok(0)
}

/// The facts of running `path` from the state `start`: per step its guard (and a label
/// gadget's condition), and a fresh constant for each variable it changes (named `tag` and the
/// step's number), as [`simulate`] writes them.
fn path_facts(enc: &Encoder, start: &[Sym], path: &[(usize, Take)], tag: &str) -> Vec<Bool> {
    let comp = enc.component();
    let labelled = super::labels::instrumented(comp);
    let mut st = start.to_vec();
    let mut facts = Vec::new();
    for (i, &(e, take)) in path.iter().enumerate() {
        let edge = &comp.edges[e];
        let step = enc.step(edge, take, &st);
        facts.push(step.guard.clone());
        if let Some(c) = labelled.then(|| super::labels::gadget_condition(comp, e)).flatten() {
            facts.push(enc.cond(c, &st));
        }
        let fresh = enc.state(&format!("{tag}{}.", i + 1));
        let mut next = Vec::with_capacity(st.len());
        for ((old, new), named) in st.iter().zip(&step.post).zip(fresh) {
            if old.dynamic() == new.dynamic() {
                next.push(old.clone());
            } else {
                facts.push(named.dynamic().eq(new.dynamic()));
                next.push(named);
            }
        }
        st = next;
    }
    facts
}

/// Adds, at every location of the loop-free code before `at` (back to the previous cut
/// points, which receive them too), the atoms of the images of `preds` along every edge on the
/// way: what the edge-by-edge abstraction needs to carry `preds` from one visit of `at` to the
/// next. Returns how many (location, predicate) pairs are new.
fn transport(abs: &mut Abstractor, cuts: &[LocId], at: LocId, preds: &[Bool]) -> usize {
    let comp = abs.component();
    let vocab: Vec<Dynamic> = abs.vocab.iter().map(Sym::dynamic).collect();
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); comp.n_locs as usize];
    for (e, edge) in comp.edges.iter().enumerate() {
        if let Some(list) = into.get_mut(edge.to.index()) {
            list.push(e);
        }
    }
    let mut work: Vec<(LocId, Bool)> = preds.iter().map(|p| (at, p.clone())).collect();
    let mut seen: crate::util::HashSet<(LocId, Bool)> = crate::util::HashSet::default();
    let mut added = 0;
    while let Some((l, p)) = work.pop() {
        for &e in into.get(l.index()).map(Vec::as_slice).unwrap_or(&[]) {
            let edge = &comp.edges[e];
            for &(take, error) in super::invariant::takes(&edge.stmt) {
                if error {
                    continue;
                }
                let step = abs.enc.step(edge, take, &abs.vocab);
                let image = crate::smt::substitute(&p, &abs.vocab, &step.post).simplify();
                for atom in crate::smt::atoms(&image) {
                    let atom = atom.simplify();
                    if !over_vocab(&atom, &vocab) || crate::smt::constants(&Dynamic::from_ast(&atom)).is_empty() {
                        continue;
                    }
                    if seen.len() >= MAX_TRANSPORTED || !seen.insert((edge.from, atom.clone())) {
                        continue;
                    }
                    // The invariant's own head has it already.
                    if edge.from == at {
                        continue;
                    }
                    if abs.precision.add(edge.from, atom.clone()) {
                        added += 1;
                    }
                    if !cuts.contains(&edge.from) {
                        work.push((edge.from, atom));
                    }
                }
            }
        }
    }
    added
}

/// Weakest preconditions backwards along `path` from `true`, their atoms added at the
/// locations they hold at, until one is unsatisfiable on its own.
fn wp_walk(abs: &mut Abstractor, smt: &mut Smt, path: &[(usize, Take)]) -> Result<usize, SmtError> {
    let comp = abs.component();
    let labelled = super::labels::instrumented(comp);
    let vocab: Vec<Dynamic> = abs.vocab.iter().map(Sym::dynamic).collect();
    let mut phi = Bool::from_bool(true);
    let mut added = 0;
    for &(e, take) in path.iter().rev() {
        let edge = &comp.edges[e];
        let step = abs.enc.step(edge, take, &abs.vocab);
        phi = Bool::and(&[step.guard.clone(), crate::smt::substitute(&phi, &abs.vocab, &step.post)]).simplify();
        // A letter of a label gadget: its label holds here. Its location is the gadget's, so
        // the atoms go to the location of the next step back instead.
        if let Some(c) = labelled.then(|| super::labels::gadget_condition(comp, e)).flatten() {
            phi = Bool::and(&[abs.enc.cond(c, &abs.vocab), phi]).simplify();
            continue;
        }
        if labelled && super::labels::is_gadget(comp, e) {
            continue;
        }
        tracing::trace!(edge = e, %phi, "precondition");
        for atom in crate::smt::atoms(&phi) {
            if over_vocab(&atom, &vocab) && !crate::smt::constants(&Dynamic::from_ast(&atom)).is_empty() {
                let atom = atom.simplify();
                if abs.precision.add(edge.from, atom) {
                    added += 1;
                }
            }
        }
        if !smt.sat(std::slice::from_ref(&phi))? {
            break;
        }
    }
    Ok(added)
}

/// Refinement of a must-model so that it gains the concrete run `witness` (paper 003 Section 4,
/// Validation 2: the counterexample is a real behaviour of the new component, so its
/// under-approximation must be made to show it). Returns how many (location, predicate) pairs
/// are new.
///
/// The run's states come from the interpreter. For each step `s_j -> s_{j+1}` (backwards), the
/// must-transition between their abstract states needs every state of the source cube to have
/// a successor in the target cube. With the step's inputs fixed to the run's, that is
/// `γ(α(s_j)) ⇒ pre_j` for `pre_j = guard ∧ γ(α(s_{j+1}))[post]`. When the solver cannot show
/// it, the source location is split by `pre_j` itself (the classic refinement of a universal
/// abstraction: the part of the cube that does reach the target), and by the atoms of the
/// step's guard, which let the model decide that branch in general. A split changes the cubes
/// of earlier steps, so passes repeat (at most `passes`) until one adds nothing; then every
/// step of the run is a must-transition.
pub fn refine_must(abs: &mut Abstractor, smt: &mut Smt, witness: &Witness, passes: usize) -> Result<usize, SmtError> {
    let comp = abs.component();
    let vocab: Vec<Dynamic> = abs.vocab.iter().map(Sym::dynamic).collect();
    let edges: Vec<usize> = witness.steps.iter().map(|s| s.edge).collect();
    let Some(states) = crate::ir::interp::follow(comp, &edges, &mut crate::ir::interp::Scripted::new(witness.inputs()))
    else {
        return Ok(0);
    };
    let concrete: Vec<Vec<Sym>> = states.iter().map(|s| abs.enc.concrete(s)).collect();
    let mut added = 0;
    for _ in 0..passes {
        let before = added;
        for (j, step) in witness.steps.iter().enumerate().rev() {
            let edge = &comp.edges[step.edge];
            let s = abs.enc.step(edge, step.take, &abs.vocab);
            let fixed = fixed_inputs(comp, edge, step, &s.fresh);
            let pairs: Vec<(&Dynamic, &Dynamic)> = fixed.iter().map(|(a, b)| (a, b)).collect();
            let target = cube_of(abs, edge.to, &concrete[j + 1]);
            let pre = Bool::and(&[s.guard.clone(), crate::smt::substitute(&target, &abs.vocab, &s.post)]);
            let pre = if pairs.is_empty() { pre } else { pre.substitute(&pairs) }.simplify();
            let source = cube_of(abs, edge.from, &concrete[j]);
            if smt.valid(std::slice::from_ref(&source), &pre)? {
                continue;
            }
            let guard = if pairs.is_empty() { s.guard.clone() } else { s.guard.substitute(&pairs) };
            let mut candidates = crate::smt::atoms(&guard.simplify());
            candidates.push(pre);
            for p in candidates {
                let p = p.simplify();
                if over_vocab(&p, &vocab)
                    && !crate::smt::constants(&Dynamic::from_ast(&p)).is_empty()
                    && abs.precision.add(edge.from, p)
                {
                    added += 1;
                }
            }
        }
        if added == before {
            break;
        }
    }
    Ok(added)
}

/// The cube of the predicates at `loc` as the concrete state `values` makes them.
fn cube_of(abs: &Abstractor, loc: crate::ir::LocId, values: &[Sym]) -> Bool {
    let literals: Vec<Bool> = abs
        .precision
        .at(loc)
        .iter()
        .map(|&p| {
            let f = abs.precision.formula(p);
            let holds = crate::smt::substitute(f, &abs.vocab, values).simplify().as_bool().unwrap_or(false);
            if holds { f.clone() } else { f.not() }
        })
        .collect();
    Bool::and(&literals)
}

/// The fresh constants of a step paired with the values the run read for them (scalars only;
/// an array's fresh contents stay free, and atoms over them are not kept).
fn fixed_inputs(
    comp: &crate::ir::Component,
    edge: &crate::ir::Edge,
    step: &WitnessStep,
    fresh: &[Dynamic],
) -> Vec<(Dynamic, Dynamic)> {
    let ty = match &edge.stmt {
        Stmt::Havoc(lv) => match (lv, comp.var(lv.var()).ty) {
            (Lvalue::Var(_), VarTy::Array(..)) => return Vec::new(),
            _ => comp.var(lv.var()).ty.elem(),
        },
        Stmt::Event(Event::Recv(name, _)) => comp.family(name).map_or(crate::ir::IntTy::I32, |f| f.ty),
        _ => return Vec::new(),
    };
    match (fresh.first(), step.inputs.first()) {
        (Some(d), Some(&v)) if d.as_bv().is_some() => {
            vec![(d.clone(), Dynamic::from_ast(&crate::smt::const_bv(v, ty)))]
        }
        _ => Vec::new(),
    }
}
