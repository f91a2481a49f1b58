//! Block encoding of the may-abstraction: abstract states only where they are needed.
//!
//! Follows Beyer, Keremoglu and Wendler, *Adjustable block-encoding* (FMCAD 2010), with the
//! loop-head block size of large-block encoding (Beyer, Cimatti, Griggio, Keremoglu,
//! Sebastiani, FMCAD 2009). With [`Blocks::Loop`], [`super::Abstractor::build`] in
//! [`super::Mode::May`] computes abstract states only at the *abstraction points* of a
//! [`Plan`]:
//!
//! - the entry, and the targets of the back edges of a depth-first search from it (every cycle
//!   goes through one: the loop heads);
//! - with [`super::EventView::Visible`], the source and the target of every event edge (the
//!   points paper 003's models must see: an event is one transition of the component's
//!   automaton, and the label of a state, decided by the propositions' predicates, is read
//!   where an event leads). Event edges are abstracted edge by edge, as without blocks.
//!
//! The loop-free code from one point to the next, or to an error (a failing `check`, a call of
//! `reach_error()`), is a *block*. It is split by its *exit*, the last edge and how it is
//! taken ([`Exit`]), so that an abstract transition still names one IR edge for its label.
//! The block of an exit is one formula (`encode`): an SSA form whose ways meet at joins with
//! named reach conditions and if-then-else values (a disjunction over the block's paths,
//! without enumerating them). The abstract post of a block is one all-SAT enumeration over the
//! target's predicates, as for one edge; the predicates inside a block are never consulted.
//!
//! **Counterexamples.** A path of the graph with block transitions is checked by one formula
//! ([`check_path`]): the blocks in sequence from the initial state. A model picks one IR path
//! through each block (at each join the first way whose reach condition holds, which is the
//! way the if-then-else values took), and that path of IR edges is simulated and replayed as
//! before, so witnesses stay runs of the interpreter at C source lines. When the formula is
//! unsatisfiable, refinement works on the block path: first the inductive invariant at a loop
//! head on it that rules out the rest of the path (as [`super::refine`] does, without the
//! transport into the loop body, which the block formula keeps), else weakest preconditions
//! backwards over the blocks, `pre(block, φ)` computed over the block's acyclic graph (the
//! disjunction of `guard ∧ pre(successor)[post]` over its edges), and their atoms added at the
//! points where the blocks start.
//!
//! Invariants:
//! - Soundness of may: a concrete run from a point through a block reaches the block's exit
//!   along one of the block's paths, each of which the block formula admits, so the run maps to
//!   one block transition between the abstract states of its endpoints.
//! - The must-model is not block-encoded: [`super::Mode::Must`] keeps edge-by-edge transitions.
//!   A block must-transition (`γ(V1) ⇒ ∃ path, inputs. block ∧ γ(V2)[post]`) would be sound,
//!   but its refinement ([`super::refine::refine_must`]) splits the locations of the IR steps
//!   of an interpreter run, most of which are inside blocks and so would no longer be
//!   consulted; Validation 2 could then stop gaining runs. The must-model's meaning (every
//!   transition needs every concrete state of its source to have a successor in its target)
//!   is therefore exactly what it was.
//!
//! Known weaknesses:
//! - A block with many joins gives large weakest preconditions; their atoms (all the block's
//!   branch conditions that matter) go to the point at its start.
//! - Predicates learned inside blocks (from a cache or an earlier version's seed) are unused.
//! - Weakest preconditions over array stores give atoms over array terms at the loop head that
//!   may not separate a path (`benches/svcomp/array_fill.c` ends with no new predicate, where
//!   the edge-by-edge model runs out of time).
//! - Z3's `simplify` of a block's precondition is not under the query budget; a block with
//!   many joins over division can make it slow (`examples-c/cegar/clock_divmod.c`).
//! - Measured in `benches/VERIFY.md` (CEGAR alone on 61 programs: 43 decided instead of 32,
//!   abstract states 6,230 → 141 and SMT calls 63,156 → 1,483 on those both decide); not yet
//!   the default, since compatibility was not measured with it.
//! - Refinement of a path whose IR path the model picked but that then did not simulate (a
//!   join whose ways are not exclusive and whose values differ) falls back to the IR path's
//!   own refinement, whose predicates may sit inside blocks: no progress, so the refinement
//!   limit ends with Unknown, never with a wrong answer.

use z3::ast::{Ast, Bool, Dynamic};

use super::refine::{Replay, Witness, refine, simulate};
use super::{AState, Abstractor, Arg, PredId, over_vocab};
use crate::front::ERROR_EVENT;
use crate::ir::{Component, Event, LocId, Stmt};
use crate::smt::{self, Encoder, Projected, Smt, SmtError, Sym, Take};
use crate::util::HashMap;

/// Where the may-abstraction computes abstract states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Blocks {
    /// At every location: one abstract transition per IR edge.
    #[default]
    Single,
    /// At loop heads, event points and the entry: one abstract transition per block.
    Loop,
}

/// The last edge of a block and how it is taken.
#[derive(Clone, Debug)]
pub struct Exit {
    /// The point where the block starts.
    pub start: LocId,
    /// The IR edge that leaves the block.
    pub edge: usize,
    /// How it is taken.
    pub take: Take,
    /// Whether it ends in an error.
    pub error: bool,
    /// The locations on the ways from `start` to the exit edge's source, in topological order.
    region: Vec<LocId>,
}

/// The abstraction points of a component and the exits of the blocks between them.
pub struct Plan {
    is_point: Vec<bool>,
    /// Per edge: abstracted edge by edge from its source (a visible event).
    single: Vec<bool>,
    succ: Vec<Vec<usize>>,
    exits: Vec<Exit>,
    /// Per location, the exits of the block that starts there.
    exits_at: Vec<Vec<u32>>,
    /// Per exit, its formula over the abstractor's vocabulary, made at first use.
    encoded: Vec<Option<Encoded>>,
}

/// A way into a join: its reach condition, the state along it, the IR edge and how taken.
type Way = (Bool, Vec<Sym>, usize, Take);

/// Per join location, its ways as (reach condition, IR edge, how taken).
type Ways = HashMap<LocId, Vec<(Bool, usize, Take)>>;

/// A block's formula from a given start state.
#[derive(Clone)]
struct Encoded {
    /// Definitions of the merged values and the condition that the exit is taken.
    facts: Vec<Bool>,
    /// The state after the exit edge.
    post: Vec<Sym>,
    /// Per join location: its ways in the order the merged values prefer them, as (reach
    /// condition of the way, IR edge, how taken).
    ways: Ways,
}

/// How an edge is taken by a block, and whether that way is an error (as the invariant
/// engine's block encoding takes it, [`super::invariant::takes`]).
fn takes(stmt: &Stmt) -> &'static [(Take, bool)] {
    super::invariant::takes(stmt)
}

impl Plan {
    /// The plan of `comp`; `visible`: events are transitions of the model.
    pub fn new(comp: &Component, visible: bool) -> Plan {
        // `merge` takes the first way whose condition holds: the ways must be exclusive.
        debug_assert!(
            super::invariant::branches_only_by_assumptions(comp),
            "a location of {} branches other than by assumptions",
            comp.name
        );
        let n = comp.n_locs as usize;
        let (order, back) = super::invariant::acyclic_order(comp);
        let mut position = vec![usize::MAX; n];
        for (i, l) in order.iter().enumerate() {
            position[l.index()] = i;
        }
        let mut is_point = vec![false; n];
        if let Some(p) = is_point.get_mut(comp.entry.index()) {
            *p = true;
        }
        let mut single = vec![false; comp.edges.len()];
        for (e, edge) in comp.edges.iter().enumerate() {
            if back[e] {
                is_point[edge.to.index()] = true;
            }
            let event = match &edge.stmt {
                Stmt::Event(Event::Plain(name)) => name != ERROR_EVENT,
                Stmt::Event(_) => true,
                _ => false,
            };
            if visible && event {
                single[e] = true;
                is_point[edge.from.index()] = true;
                is_point[edge.to.index()] = true;
            }
        }
        let succ = comp.successors();
        let mut plan =
            Plan { is_point, single, succ, exits: Vec::new(), exits_at: vec![Vec::new(); n], encoded: Vec::new() };
        for &start in &order {
            if !plan.is_point[start.index()] {
                continue;
            }
            // The block's locations, forward from the point: an internal edge never leads back
            // (only back edges do, and they lead to points).
            let mut inside = vec![false; n];
            inside[start.index()] = true;
            let mut found: Vec<(usize, Take, bool)> = Vec::new();
            for &loc in &order[position[start.index()]..] {
                if !inside[loc.index()] {
                    continue;
                }
                for &e in &plan.succ[loc.index()] {
                    if plan.single[e] {
                        continue;
                    }
                    let to = comp.edges[e].to;
                    for &(take, error) in takes(&comp.edges[e].stmt) {
                        if error || plan.is_point[to.index()] {
                            found.push((e, take, error));
                        } else if position[to.index()] > position[loc.index()] {
                            inside[to.index()] = true;
                        }
                    }
                }
            }
            for (edge, take, error) in found {
                // The locations that reach the exit's source inside the block.
                let from = comp.edges[edge].from;
                let mut on_way = vec![false; n];
                on_way[from.index()] = true;
                for &loc in order[position[start.index()]..=position[from.index()]].iter().rev() {
                    if !inside[loc.index()] || on_way[loc.index()] {
                        continue;
                    }
                    on_way[loc.index()] = plan.internal_edges(comp, loc).any(|(e, _)| on_way[comp.edges[e].to.index()]);
                }
                let region: Vec<LocId> = order[position[start.index()]..=position[from.index()]]
                    .iter()
                    .copied()
                    .filter(|l| on_way[l.index()] && inside[l.index()])
                    .collect();
                plan.exits_at[start.index()].push(plan.exits.len() as u32);
                plan.exits.push(Exit { start, edge, take, error, region });
            }
        }
        plan.encoded = vec![None; plan.exits.len()];
        plan
    }

    /// The edges from `loc` that stay inside a block, with how they are taken.
    fn internal_edges<'p>(&'p self, comp: &'p Component, loc: LocId) -> impl Iterator<Item = (usize, Take)> + 'p {
        self.succ[loc.index()].iter().flat_map(move |&e| {
            let stmt = &comp.edges[e].stmt;
            let to = comp.edges[e].to;
            let keep = !self.single[e] && !self.is_point[to.index()];
            takes(stmt).iter().filter(move |(_, error)| keep && !error).map(move |&(take, _)| (e, take))
        })
    }

    /// Whether abstract states sit at `loc`.
    pub fn is_point(&self, loc: LocId) -> bool {
        self.is_point.get(loc.index()).copied().unwrap_or(false)
    }

    /// Whether `e` is abstracted on its own (a visible event).
    pub fn is_single(&self, e: usize) -> bool {
        self.single.get(e).copied().unwrap_or(false)
    }

    /// The exits of the block that starts at `loc`.
    pub fn exits_at(&self, loc: LocId) -> &[u32] {
        self.exits_at.get(loc.index()).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Number of exits.
    pub fn n_exits(&self) -> usize {
        self.exits.len()
    }

    /// An exit.
    pub fn exit(&self, x: u32) -> &Exit {
        &self.exits[x as usize]
    }

    /// Number of abstraction points.
    pub fn n_points(&self) -> usize {
        self.is_point.iter().filter(|&&p| p).count()
    }
}

/// The formula of the block of `exit` from the state `start`; merged values are named after
/// `tag`, which must be fresh for every formula that is conjoined with another one.
fn encode(enc: &Encoder, plan: &Plan, exit: &Exit, start: &[Sym], tag: &str) -> Encoded {
    let comp = enc.component();
    let mut incoming: HashMap<LocId, Vec<Way>> = HashMap::default();
    let mut defs: Vec<Bool> = Vec::new();
    let mut ways: Ways = HashMap::default();
    let mut counter = 0u64;
    let exit_from = comp.edges[exit.edge].from;
    let mut on_region = vec![false; comp.n_locs as usize];
    for l in &exit.region {
        on_region[l.index()] = true;
    }
    for &loc in &exit.region {
        let (reach, state) = if loc == exit.start {
            (Bool::from_bool(true), start.to_vec())
        } else {
            let Some(list) = incoming.remove(&loc) else { continue };
            ways.insert(loc, list.iter().map(|(c, _, e, t)| (c.clone(), *e, *t)).collect());
            merge(list, &mut defs, tag, &mut counter)
        };
        if loc == exit_from {
            let step = enc.step(&comp.edges[exit.edge], exit.take, &state);
            defs.push(Bool::and(&[reach, step.guard]).simplify());
            return Encoded { facts: defs, post: step.post, ways };
        }
        for (e, take) in plan.internal_edges(comp, loc) {
            let edge = &comp.edges[e];
            if !on_region[edge.to.index()] {
                continue;
            }
            let step = enc.step(edge, take, &state);
            let cond = Bool::and(&[reach.clone(), step.guard]).simplify();
            if cond.as_bool() == Some(false) {
                continue;
            }
            incoming.entry(edge.to).or_default().push((cond, step.post, e, take));
        }
    }
    // The exit's source is the region's last location; no way reached it.
    Encoded { facts: vec![Bool::from_bool(false)], post: start.to_vec(), ways }
}

/// Where `list`'s ways meet: a named reach condition and state, defined in `defs`. The value
/// of a variable is that of the first way whose condition holds.
fn merge(
    list: Vec<(Bool, Vec<Sym>, usize, Take)>,
    defs: &mut Vec<Bool>,
    tag: &str,
    counter: &mut u64,
) -> (Bool, Vec<Sym>) {
    if list.len() == 1 {
        let (c, p, _, _) = list.into_iter().next().expect("one way");
        return (c, p);
    }
    *counter += 1;
    let reach = Bool::new_const(format!("{tag}.r!{counter}"));
    let conds: Vec<Bool> = list.iter().map(|(c, ..)| c.clone()).collect();
    defs.push(reach.eq(Bool::or(&conds).simplify()));
    let n = list[0].1.len();
    let mut state = Vec::with_capacity(n);
    for v in 0..n {
        let first = list[0].1[v].clone();
        if list.iter().all(|(_, p, ..)| p[v].dynamic() == first.dynamic()) {
            state.push(first);
            continue;
        }
        let mut value = list[list.len() - 1].1[v].dynamic();
        for (c, p, ..) in list[..list.len() - 1].iter().rev() {
            value = c.ite(&p[v].dynamic(), &value);
        }
        *counter += 1;
        let name = format!("{tag}.m!{counter}");
        let named = match &first {
            Sym::Bv(b) => Sym::Bv(z3::ast::BV::new_const(name, b.get_size())),
            Sym::Arr(a, len) => Sym::Arr(
                z3::ast::Array::new_const(
                    name,
                    &z3::Sort::bitvector(64),
                    &a.get_sort().array_range().expect("an array sort"),
                ),
                *len,
            ),
        };
        defs.push(named.dynamic().eq(&value));
        state.push(named);
    }
    (reach, state)
}

impl Abstractor<'_> {
    /// The plan of this abstractor's component, made at first use.
    pub(super) fn plan(&mut self) -> &Plan {
        if self.plan.is_none() {
            let visible = self.view == super::EventView::Visible;
            self.plan = Some(Plan::new(self.component(), visible));
        }
        self.plan.as_ref().expect("made above")
    }

    /// The successors of the block exit `x` from the point state `(loc, val)` in the
    /// may-abstraction, as (how the exit is taken, target) pairs.
    pub(super) fn block_successors(
        &mut self,
        smt: &mut Smt,
        x: u32,
        loc: LocId,
        val: &[bool],
    ) -> Result<Vec<(Take, AState)>, SmtError> {
        let exit = self.plan().exit(x).clone();
        let to = self.component().edges[exit.edge].to;
        let cube: Vec<(PredId, bool)> = self.precision.at(loc).iter().copied().zip(val.iter().copied()).collect();
        let targets = if exit.error { Vec::new() } else { self.precision.at(to).to_vec() };
        let key = (x, cube, targets);
        if let Some(found) = self.block_cache.get(&key) {
            self.stats.cached_edges += 1;
            return Ok(found.clone());
        }
        self.stats.computed_edges += 1;
        let encoded = match self.plan.as_ref().and_then(|p| p.encoded[x as usize].clone()) {
            Some(e) => e,
            None => {
                let plan = self.plan.as_ref().expect("made above");
                let made = encode(&self.enc, plan, &exit, &self.vocab, &format!("blk{x}"));
                self.plan.as_mut().expect("made above").encoded[x as usize] = Some(made.clone());
                made
            }
        };
        let gamma = self.gamma(loc, val);
        let mut facts = vec![gamma];
        facts.extend(encoded.facts.iter().cloned());
        let mut found = Vec::new();
        if exit.error {
            if smt.sat(&facts)? {
                found.push((exit.take, AState::Error));
            }
        } else {
            // Target predicates the block cannot change keep their values, as for one edge.
            let written: Vec<Dynamic> = self
                .vocab
                .iter()
                .zip(&encoded.post)
                .filter(|(a, b)| a.dynamic() != b.dynamic())
                .map(|(a, _)| a.dynamic())
                .collect();
            let source = self.precision.at(loc);
            let known: Vec<Option<bool>> = self
                .precision
                .at(to)
                .iter()
                .map(|&p| {
                    let i = source.iter().position(|&q| q == p)?;
                    let untouched = self.precision.mentions[p as usize].iter().all(|c| !written.contains(c));
                    untouched.then_some(val[i])
                })
                .collect();
            let terms: Vec<Projected> = self
                .targets(to, &encoded.post)
                .into_iter()
                .zip(&known)
                .filter(|(_, k)| k.is_none())
                .map(|(t, _)| t)
                .collect();
            let trivial = terms.is_empty() && encoded.facts.iter().all(|f| f.as_bool() == Some(true));
            let rows = if trivial { vec![Vec::new()] } else { smt.all_sat(&facts, &terms)? };
            for row in rows {
                let mut unknown = row.iter();
                let target: Vec<bool> =
                    known.iter().map(|k| k.unwrap_or_else(|| unknown.next().is_some_and(|&b| b != 0))).collect();
                found.push((exit.take, AState::At(to, target)));
            }
            found.sort();
        }
        self.block_cache.insert(key, found.clone());
        Ok(found)
    }
}

/// One step of a path of an abstract graph: the IR edge, how it is taken, and the block exit
/// when the step is a whole block.
type AStep = (usize, Take, Option<u32>);

/// What a path of an abstract graph turned out to be.
#[derive(Clone, Debug)]
pub enum PathCheck {
    /// A concrete run: the IR path it follows and the run's inputs.
    Feasible {
        /// The IR edges and how each is taken.
        steps: Vec<(usize, Take)>,
        /// The run.
        witness: Witness,
    },
    /// No run follows it; the precision was refined.
    Spurious {
        /// How many (location, predicate) pairs refinement added.
        added: usize,
    },
}

/// Simulates the path `path` of `arg` (state, index into its `out`, as [`Arg::find_path`]
/// gives it) on the concrete component; when it is spurious, refines `abs` so that it rules the
/// path out. A path of single-edge steps is simulated and refined as before
/// ([`simulate`], [`refine`]); one with blocks goes through the block path formula first.
pub fn check_path(
    abs: &mut Abstractor,
    smt: &mut Smt,
    arg: &Arg,
    path: &[(usize, usize)],
) -> Result<PathCheck, SmtError> {
    let steps: Vec<AStep> = path
        .iter()
        .map(|&(s, k)| {
            let a = &arg.out[s][k];
            (a.edge, a.take, a.block)
        })
        .collect();
    let ir: Vec<(usize, Take)> = if steps.iter().any(|s| s.2.is_some()) {
        match concretize(abs, smt, &steps)? {
            Concrete::Path(p) => p,
            Concrete::Infeasible { prefix } => {
                let added = refine_blocks(abs, smt, &steps, prefix)?;
                return Ok(PathCheck::Spurious { added });
            }
        }
    } else {
        steps.iter().map(|&(e, t, _)| (e, t)).collect()
    };
    match simulate(&abs.enc, smt, &ir)? {
        Replay::Feasible(witness) => Ok(PathCheck::Feasible { steps: ir, witness }),
        Replay::Infeasible { prefix } => {
            let added = refine(abs, smt, &ir, prefix)?;
            Ok(PathCheck::Spurious { added })
        }
    }
}

enum Concrete {
    Path(Vec<(usize, Take)>),
    Infeasible { prefix: usize },
}

/// Per step of `steps` from the state `start`: its facts (states after a step named after
/// `tag` and the step's number), and for a block its join ways.
fn path_facts(abs: &mut Abstractor, start: &[Sym], steps: &[AStep], tag: &str) -> (Vec<Vec<Bool>>, Vec<Option<Ways>>) {
    abs.plan();
    let comp = abs.component();
    let plan = abs.plan.as_ref().expect("made above");
    let labelled = super::labels::instrumented(comp);
    let mut st = start.to_vec();
    let mut facts = Vec::with_capacity(steps.len());
    let mut ways = Vec::with_capacity(steps.len());
    for (i, &(e, take, block)) in steps.iter().enumerate() {
        let mut f = Vec::new();
        let post = match block {
            Some(x) => {
                let encoded = encode(&abs.enc, plan, plan.exit(x), &st, &format!("{tag}{i}"));
                f.extend(encoded.facts);
                ways.push(Some(encoded.ways));
                encoded.post
            }
            None => {
                let step = abs.enc.step(&comp.edges[e], take, &st);
                f.push(step.guard);
                if let Some(c) = labelled.then(|| super::labels::gadget_condition(comp, e)).flatten() {
                    f.push(abs.enc.cond(c, &st));
                }
                ways.push(None);
                step.post
            }
        };
        let named = abs.enc.state(&format!("{tag}{i}."));
        let mut next = Vec::with_capacity(st.len());
        for ((old, new), named) in st.iter().zip(&post).zip(named) {
            if old.dynamic() == new.dynamic() {
                next.push(old.clone());
            } else {
                f.push(named.dynamic().eq(new.dynamic()));
                next.push(named);
            }
        }
        facts.push(f);
        st = next;
    }
    (facts, ways)
}

/// The IR path of a feasible block path, or the length of its shortest infeasible prefix.
fn concretize(abs: &mut Abstractor, smt: &mut Smt, steps: &[AStep]) -> Result<Concrete, SmtError> {
    let st0 = abs.enc.state("cx.");
    let init = abs.enc.init(&st0);
    let (facts, ways) = path_facts(abs, &st0, steps, "cx");
    let prefix_facts = |k: usize| -> Vec<Bool> {
        let mut all = vec![init.clone()];
        for f in &facts[..k] {
            all.extend(f.iter().cloned());
        }
        all
    };
    if let Some(model) = smt.model(&prefix_facts(steps.len()))? {
        let comp = abs.component();
        let plan = abs.plan.as_ref().expect("made by path_facts");
        let mut out = Vec::new();
        for (&(e, take, block), ways) in steps.iter().zip(&ways) {
            let (Some(x), Some(ways)) = (block, ways) else {
                out.push((e, take));
                continue;
            };
            let exit = plan.exit(x);
            // Backwards from the exit: at each join the way whose values the merge took.
            let mut back = vec![(exit.edge, exit.take)];
            let mut loc = comp.edges[exit.edge].from;
            let mut guard = 0;
            while loc != exit.start && guard <= exit.region.len() {
                guard += 1;
                let Some(list) = ways.get(&loc) else { break };
                let holds = |c: &Bool| model.eval(c, true).and_then(|b| b.as_bool()) == Some(true);
                let Some(&(_, edge, t)) = list.iter().find(|(c, ..)| holds(c)).or(list.last()) else { break };
                back.push((edge, t));
                loc = comp.edges[edge].from;
            }
            back.reverse();
            out.extend(back);
        }
        return Ok(Concrete::Path(out));
    }
    let (mut lo, mut hi) = (0usize, steps.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if smt.sat(&prefix_facts(mid))? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Concrete::Infeasible { prefix: hi })
}

/// Adds predicates at the points of `steps` that rule the block path out; its first `prefix`
/// steps are infeasible. As [`refine`]: an invariant at a loop head first, then weakest
/// preconditions from the end of the whole path, then from the end of the prefix.
fn refine_blocks(abs: &mut Abstractor, smt: &mut Smt, steps: &[AStep], prefix: usize) -> Result<usize, SmtError> {
    let generalised = if abs.generalise { generalise_blocks(abs, smt, steps, prefix) } else { Ok(0) };
    match generalised {
        Ok(n) if n > 0 => {
            abs.stats.generalised += 1;
            return Ok(n);
        }
        Ok(_) => {}
        Err(e) => tracing::debug!(%e, "refinement of a block path by invariants gave up"),
    }
    let added = wp_blocks(abs, smt, steps)?;
    if added > 0 || prefix >= steps.len() {
        return Ok(added);
    }
    wp_blocks(abs, smt, &steps[..prefix])
}

/// The location where a step starts.
fn step_start(abs: &mut Abstractor, step: &AStep) -> LocId {
    match step.2 {
        Some(x) => abs.plan().exit(x).start,
        None => abs.component().edges[step.0].from,
    }
}

/// [`super::refine`]'s refinement by the invariant at a cut point, on a block path.
fn generalise_blocks(abs: &mut Abstractor, smt: &mut Smt, steps: &[AStep], prefix: usize) -> Result<usize, SmtError> {
    super::refine::ensure_invariants(abs, smt);
    let end = prefix.min(steps.len());
    for k in (0..end).rev() {
        let loc = step_start(abs, &steps[k]);
        let Some(facts) = super::refine::invariant_at(abs, loc) else { continue };
        if facts.is_empty() {
            continue;
        }
        let start = abs.enc.state(&format!("bg{k}."));
        let rest: Vec<Bool> = path_facts(abs, &start, &steps[k..end], &format!("bg{k}s")).0.concat();
        let vocab = abs.vocab.clone();
        let at = |f: &Bool| smt::substitute(f, &vocab, &start);
        let mut rules_out = |keep: &[Bool]| -> Result<bool, SmtError> {
            let mut all = rest.clone();
            all.extend(keep.iter().map(at));
            Ok(!smt.sat(&all)?)
        };
        if rules_out(&[])? {
            return Ok(0);
        }
        let mut keep = facts;
        if !rules_out(&keep)? {
            continue;
        }
        let mut i = 0;
        while i < keep.len() {
            let mut trial = keep.clone();
            trial.remove(i);
            if rules_out(&trial)? {
                keep = trial;
            } else {
                i += 1;
            }
        }
        tracing::debug!(at = %loc, invariant = ?keep, "refinement of a block path by an invariant");
        let mut added = 0;
        for p in &keep {
            if abs.precision.add(loc, p.clone()) {
                added += 1;
            }
        }
        added += wp_blocks(abs, smt, &steps[k..end])?;
        return Ok(added);
    }
    Ok(0)
}

/// `pre(block, φ)` over the vocabulary: the states at the block's start from which some way
/// through it takes the exit into `φ` (inputs read on the way stay free constants).
fn block_pre(abs: &mut Abstractor, x: u32, phi: &Bool) -> Bool {
    abs.plan();
    let comp = abs.component();
    let plan = abs.plan.as_ref().expect("made above");
    let exit = plan.exit(x);
    let from = comp.edges[exit.edge].from;
    let mut pre: HashMap<LocId, Bool> = HashMap::default();
    let last = abs.enc.step(&comp.edges[exit.edge], exit.take, &abs.vocab);
    let at_exit = Bool::and(&[last.guard, smt::substitute(phi, &abs.vocab, &last.post)]).simplify();
    for &loc in exit.region.iter().rev() {
        let mut ways = Vec::new();
        if loc == from {
            ways.push(at_exit.clone());
        }
        for (e, take) in plan.internal_edges(comp, loc) {
            let edge = &comp.edges[e];
            let Some(next) = pre.get(&edge.to) else { continue };
            let step = abs.enc.step(edge, take, &abs.vocab);
            ways.push(Bool::and(&[step.guard, smt::substitute(next, &abs.vocab, &step.post)]));
        }
        pre.insert(loc, Bool::or(&ways).simplify());
    }
    pre.remove(&exit.start).unwrap_or_else(|| Bool::from_bool(false))
}

/// Weakest preconditions backwards along the block path `steps` from `true`, their atoms
/// added at the points where the steps start, until one is unsatisfiable on its own.
fn wp_blocks(abs: &mut Abstractor, smt: &mut Smt, steps: &[AStep]) -> Result<usize, SmtError> {
    let comp = abs.component();
    let labelled = super::labels::instrumented(comp);
    let vocab: Vec<Dynamic> = abs.vocab.iter().map(Sym::dynamic).collect();
    let mut phi = Bool::from_bool(true);
    let mut added = 0;
    for &(e, take, block) in steps.iter().rev() {
        let loc = match block {
            Some(x) => {
                phi = block_pre(abs, x, &phi);
                abs.plan().exit(x).start
            }
            None => {
                let edge = &comp.edges[e];
                let step = abs.enc.step(edge, take, &abs.vocab);
                phi = Bool::and(&[step.guard.clone(), smt::substitute(&phi, &abs.vocab, &step.post)]).simplify();
                if let Some(c) = labelled.then(|| super::labels::gadget_condition(comp, e)).flatten() {
                    phi = Bool::and(&[abs.enc.cond(c, &abs.vocab), phi]).simplify();
                    continue;
                }
                if labelled && super::labels::is_gadget(comp, e) {
                    continue;
                }
                edge.from
            }
        };
        for atom in smt::atoms(&phi) {
            if over_vocab(&atom, &vocab) && !smt::constants(&Dynamic::from_ast(&atom)).is_empty() {
                let atom = atom.simplify();
                if abs.precision.add(loc, atom) {
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
