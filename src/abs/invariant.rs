//! Inductive invariants at the cut points of a block encoding, re-checked by an independent
//! solver.
//!
//! **Block encoding** (Beyer, Cimatti, Griggio, Keremoglu, Sebastiani, *Software model checking
//! via large-block encoding*, FMCAD 2009; Beyer, Keremoglu, Wendler, *Adjustable block-encoding*,
//! FMCAD 2010). [`blocks`] cuts the component's control-flow automaton at its *cut points*: the
//! entry and the targets of the back edges of a depth-first search from it (every cycle goes
//! through one), or every location when asked. The loop-free code from one cut point to the
//! next, or to an error, is one [`Block`]: one formula over the state at the cut point, the
//! inputs read on the way and named intermediate values (paths that meet are merged by
//! if-then-else, as in `check::bmc`), and the state where it ends. [`prove`] keeps the paths
//! into a location apart while there are at most `MAX_WAYS` of them ([`blocks_by_path`]):
//! one block per path, so that a consecution query has no if-then-else inside its bit-blasted
//! arithmetic (`a + b == 3*i` across a two-way branch, `loop-lit/bhmr2007`: out of budget over
//! the merged block, 0.2 s per path). Beyond, the ways are merged, the one with the largest
//! condition as the `else` of the if-then-else chain, its condition never tested (a switch's
//! `default`). Without a loop, each block is asked once: of a one-shot solver when it is large
//! (`ONE_SHOT_TERMS`), since Z3's incremental mode grew faster than quadratically on a switch
//! of many cases.
//!
//! **Invariants.** One conjunction of candidate facts per cut point. The candidates are the
//! affine equalities `Σ aᵢxᵢ + b = 0` between variables of one width that every state the
//! interpreter reached there in a few dozen short random runs satisfies (a basis of the null
//! space of the sample matrix, found by fraction-free Gaussian elimination: the guess half of
//! Müller-Olm and Seidl's affine relations, *Analysis of modular arithmetic*, TOPLAS 2007,
//! without their closure over Z/2^w), and the atoms of the component's conditions, both ways,
//! with both weak inequalities of every comparison. Houdini (Flanagan, Leino, *Houdini, an
//! annotation assistant for ESC/Java*, FME 2001) drops the candidates that a block can falsify
//! until what is left is inductive; when it also excludes every error block, it is a proof.
//! When it is not (and k-induction below does not help either), a second round starts from
//! what survived and adds the shapes of [`super::templates`]: intervals, octagon bounds and
//! congruences of the samples, and case splits on the program's conditions (`p -> q` for the
//! shapes `q` of the samples on one side of `p`), which express the disjunctive invariants the
//! first round cannot (`loop-acceleration/diamond`, `loop-lit/gj2007b`), and bounds per state
//! of a state machine (`x == c -> lo <= y <= hi`, `ssh-simplified/s3_srvr_1a`). The second round is
//! bounded by counts (`MAX_CANDIDATES_2`, `MAX_PRUNES_2`); only then does `subst verify`
//! go on with CEGAR as before. A third round adds degree-2 equalities (products of the varying
//! variables as columns of the samples, [`super::templates::products`]) to what survived and to
//! round 2's candidates, offered again (a bound that is inductive only beside a product
//! equality was pruned in round 2: `loop-lit/afnp2014`, `examples-c/loops/triangle_gap.c`),
//! with a quarter of the budget per query and `MAX_PRUNES_3` rounds, since their queries are
//! nonlinear. The equalities of every round also take the program's own nonlinear terms
//! (`n / 2`, `i % 2`) as columns ([`super::templates::program_terms`]).
//!
//! [`prove_between`] gives the caller a turn before rounds 2 and 3: `subst verify` deepens its
//! bounded search there ([`crate::check::cegar::verify_program`]), so that a shallow bug does
//! not wait for the expensive rounds (`loop-lit/gcnr2008`: 11.4 s, then 0.3 s).
//!
//! **k-induction** (Sheeran, Singh, Stålmarck, FMCAD 2000; as ESBMC and CPAchecker run it
//! beside their other analyses). When Houdini's invariants are inductive but do not exclude
//! the errors, [`k_induction`] tries `k = 1..=8` on the transition system whose steps are the
//! blocks, the step case strengthened by those invariants (re-checked first). A step case
//! assumes "no error block enabled" only for the inputs of its own step, which is weaker than
//! "for every input" and so keeps the rule sound. It proves the state machines that need a
//! disjunctive invariant (`retry_budget`, `examples-c/cegar/ssh_handshake.c`: 0.1 and 0.6 s,
//! where CEGAR took 5 s and over 30 s) and the loop-free division programs whose CEGAR
//! queries time out (`clock_divmod`, `divmod_*`: about 10 s).
//!
//! **Re-check.** [`check`] asks a fresh [`Smt`] for initiation (the initial block),
//! consecution (one query per block) and safety (one per error block), each one
//! unsatisfiable query over the exact bit-vector semantics. Any satisfiable or `unknown`
//! answer means "not proved", so wrap-around, which the guesses ignore, can only cost a proof.
//!
//! **Why not Spacer.** Z3 4.8.12 has no interpolation API; its Spacer engine (a solver for
//! the logic `HORN`) was tried first on these very clauses (one relation per cut point). It
//! proved the lock chains, but on the bit-vector loops (`s == 2*i`, `x + y == n`, the 250-deep
//! counter) it had not answered after 120 s, and it could not be stopped: neither `rlimit`,
//! `timeout` nor `spacer.max_level` (as solver or global parameters) nor `Z3_interrupt` from
//! another thread ended the check. Guess-and-check answers those loops in under 0.3 s, where
//! CEGAR with weakest-precondition refinement did not finish in 60 s (`subst verify --stats`;
//! before: release build of the commit this work started from; after: debug build):
//!
//! | program (examples-c/loops) | before: refinements, smt calls, time | after |
//! |---|---|---|
//! | `sum_twice` (`s == 2*i`) | timeout 60 s | proved, 0 refinements, 16 calls, 0.17 s |
//! | `transfer` (`x + y == n`) | timeout 60 s | proved, 0, 16, 0.26 s |
//! | `transfer_unsigned` | proved, 2, 74, 0.97 s | proved, 0, 15, 0.23 s |
//! | `double_branch` (`y == 2*x`) | proved, 3, 108, 4.2 s | proved, 0, 19, 0.07 s |
//! | `lock_chain_6` | proved, 36, 25,571 calls, 3,754 states, 15.3 s | proved, 0, 50, 0.14 s |
//! | `lock_chain_8`, `lock_chain_10` | timeout 60 s | proved, 0, 64 / 78, 0.18 / 0.19 s |
//! | `retry_budget` (disjunctive) | proved, 15, 1,989, 5.4 s | not by invariants; CEGAR as before |
//!
//! **Equalities are kept as `Σ a x = Σ b y + c` with positive coefficients, unsimplified.**
//! Simplified, Z3 solves `a + b == 3*i` for `i` with the inverse of 3 modulo 2^32
//! (`i == 0xaaaaaaab*a + 0xaaaaaaab*b`), a dense multiplier whose bit-blasting made Houdini's
//! queries on `loop-lit/bhmr2007` run out of budget. (They still did, on the unsimplified form,
//! while its loop's two branches were merged by if-then-else into one block: consecution of
//! `a + b == 3*i` over the merged terms is hard for bit-blasting; one block per path is easy.)
//!
//! **Houdini asks a block again only after its start lost a candidate**: fewer candidates at
//! its end only weaken what it must establish, so an unsatisfiable query stays unsatisfiable.
//! Z3 answers the same query very differently after other queries (1 s, then 11 s and out of
//! budget, on `bhmr2007`), so not asking again also saves budget, not only checks.
//!
//! Known weaknesses:
//! - Disjunctions only of the form `p -> q` with `p` an atom of the program's conditions (the
//!   case splits of round 2); a counter bounded only in one state of a state machine whose
//!   state is not compared in a condition is left to k-induction and CEGAR.
//! - Equalities come from samples: a relation that small inputs never exercise, or one that
//!   holds only modulo 2^w, is not guessed. No candidate speaks about arrays.
//! - The sampling runs and Houdini's pruning are bounded by counts (`SAMPLE_RUNS`,
//!   `SAMPLE_STEPS`, `MAX_PRUNES`), each query by the solver's limit. The runs stop early
//!   once every cut point holds `MAX_SAMPLES` states, with the samples they would have ended
//!   with; a component whose cut points see fewer distinct states (the IPC's write-queue: 225
//!   states in 960,000 steps) still pays for every step.

use std::collections::BTreeMap;

use z3::ast::{Ast, Bool, Dynamic};

use crate::front::ERROR_EVENT;
use crate::ir::interp;
use crate::ir::{BinOp, Component, Event, Expr, ExprKind, LocId, Stmt, UnOp};
use crate::smt::{self, Effect, Encoder, Smt, SmtError, Sym, Take};
use crate::util::pvec::PVec;

/// How an edge is taken by the unrollings and the block encoding, and whether that way is an
/// error: a `check` both ways, `reach_error()` as an error, events silently.
pub fn takes(stmt: &Stmt) -> &'static [(Take, bool)] {
    match stmt {
        Stmt::Check(..) => &[(Take::Normal, false), (Take::Fault, true)],
        Stmt::Event(Event::Plain(n)) if n == ERROR_EVENT => &[(Take::Normal, true)],
        Stmt::Event(_) => &[(Take::Silent, false)],
        _ => &[(Take::Normal, false)],
    }
}

/// Whether every location of `comp` with several edges out has only `assume` edges, or only
/// edges into one location that write nothing (the letters of a state label, `abs::labels`):
/// the syntactic half of what `merge` and the merges of `check::bmc` and `abs::blocks` rest on,
/// that the ways into a location are exclusive or agree on the state, since each picks the
/// first way whose condition holds and leaves the last one's untested. A havoc, a check or an
/// assignment beside another edge would be a choice whose ways can both be taken from one
/// state and differ. The front end branches only by a condition and its negation, or by a
/// switch's cases and their complement; `tests/it/blocks.rs` checks the other half, that their
/// conditions never hold together, with the solver, on the lowered examples and generated
/// programs.
pub fn branches_only_by_assumptions(comp: &Component) -> bool {
    let writes_nothing = |s: &Stmt| matches!(s, Stmt::Skip | Stmt::Event(Event::Plain(_) | Event::Send(..)));
    comp.successors().iter().all(|outs| {
        outs.len() < 2
            || outs.iter().all(|&e| matches!(comp.edges[e].stmt, Stmt::Assume(_)))
            || outs.iter().all(|&e| writes_nothing(&comp.edges[e].stmt) && comp.edges[e].to == comp.edges[outs[0]].to)
    })
}

/// Where a block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// At the cut point with this index.
    Cut(usize),
    /// In an error.
    Error,
}

/// A loop-free piece of the component.
pub struct Block {
    /// The cut point it starts at (its index), or `None` for the initial states.
    pub from: Option<usize>,
    /// When it runs, over the state constants at its start and constants of its own.
    pub constraint: Bool,
    /// The state where it ends.
    pub post: Vec<Sym>,
    /// Where it ends.
    pub head: Head,
}

/// A component cut into blocks.
pub struct Blocks {
    /// The cut points.
    pub cuts: Vec<LocId>,
    /// The blocks between them.
    pub blocks: Vec<Block>,
}

/// A way into a location within a block: under `cond`, with state `post`, a persistent vector
/// so that a step copies what its edge writes, not the whole state (straight-line code over
/// `n` variables cost `n²` copies).
type Way = (Bool, PVec<Sym>);

/// Cuts `enc`'s component into blocks over the state constants `vocab`, keeping only the ways
/// `(edge, take)` that `keep` accepts; with `every_location`, every location is a cut point.
pub fn blocks(enc: &Encoder, vocab: &[Sym], keep: &dyn Fn(usize, Take) -> bool, every_location: bool) -> Blocks {
    blocks_by_path(enc, vocab, keep, every_location, 1)
}

/// [`blocks`], with the ways into a location kept apart, one block per path, while there are
/// at most `max_ways` of them (beyond, they are merged there as [`blocks`] merges them all).
/// The blocks of one cut point together allow exactly the runs the merged ones allow, so an
/// invariant is inductive over the ones iff it is over the others; but a consecution query
/// over one path has no if-then-else for the solver to case-split on inside the bit-blasted
/// arithmetic (`loop-lit/bhmr2007`: `a + b == 3*i` across a two-way branch, 15 s and out of
/// budget over the merged block).
pub fn blocks_by_path(
    enc: &Encoder,
    vocab: &[Sym],
    keep: &dyn Fn(usize, Take) -> bool,
    every_location: bool,
    max_ways: usize,
) -> Blocks {
    let comp = enc.component();
    debug_assert!(branches_only_by_assumptions(comp), "a location of {} branches other than by assumptions", comp.name);
    let succ = comp.successors();
    let (order, is_cut) = cut_marks(comp, every_location);
    let cuts: Vec<LocId> = order.iter().copied().filter(|l| is_cut[l.index()]).collect();
    let cut_index = |l: LocId| cuts.iter().position(|&c| c == l);
    let mut counter = 0u64;
    let mut out = vec![Block {
        from: None,
        constraint: enc.init(vocab),
        post: vocab.to_vec(),
        head: Head::Cut(cut_index(comp.entry).expect("the entry is a cut point")),
    }];
    let position: Vec<usize> = {
        let mut p = vec![usize::MAX; comp.n_locs as usize];
        for (i, l) in order.iter().enumerate() {
            p[l.index()] = i;
        }
        p
    };
    for (ci, &cut) in cuts.iter().enumerate() {
        let mut defs: Vec<Bool> = Vec::new();
        let mut incoming: BTreeMap<LocId, Vec<Way>> = BTreeMap::new();
        let start = position[cut.index()];
        for &loc in &order[start..] {
            let ways: Vec<Way> = if loc == cut {
                vec![(Bool::from_bool(true), PVec::from_vec(vocab.to_vec()))]
            } else {
                match incoming.remove(&loc) {
                    Some(ways) if ways.len() <= max_ways => ways,
                    Some(ways) => vec![merge(ways, &mut defs, &mut counter)],
                    None => continue,
                }
            };
            for (reach, state) in ways {
                for &e in succ.get(loc.index()).map(Vec::as_slice).unwrap_or(&[]) {
                    let edge = &comp.edges[e];
                    for &(take, error) in takes(&edge.stmt) {
                        if !keep(e, take) {
                            continue;
                        }
                        let Effect { guard, write, .. } = enc.effect(edge, take, &state);
                        let cond = Bool::and(&[reach.clone(), guard]).simplify();
                        if cond.as_bool() == Some(false) {
                            continue;
                        }
                        let mut post = state.clone();
                        if let Some((v, sym)) = write {
                            post.set(v.index(), sym);
                        }
                        let head = if error {
                            Head::Error
                        } else if is_cut[edge.to.index()] {
                            Head::Cut(cut_index(edge.to).expect("a cut point"))
                        } else {
                            incoming.entry(edge.to).or_default().push((cond, post));
                            continue;
                        };
                        let mut all = defs.clone();
                        all.push(cond);
                        out.push(Block { from: Some(ci), constraint: Bool::and(&all), post: post.to_vec(), head });
                    }
                }
            }
        }
    }
    Blocks { cuts, blocks: out }
}

/// The locations in [`acyclic_order`], and which of them are cut points: the entry, the
/// targets of back edges and, with `every_location`, every location.
fn cut_marks(comp: &Component, every_location: bool) -> (Vec<LocId>, Vec<bool>) {
    let (order, back) = acyclic_order(comp);
    let mut is_cut = vec![every_location; comp.n_locs as usize];
    if let Some(c) = is_cut.get_mut(comp.entry.index()) {
        *c = true;
    }
    for (e, edge) in comp.edges.iter().enumerate() {
        if back[e] {
            is_cut[edge.to.index()] = true;
        }
    }
    (order, is_cut)
}

/// The cut points of [`blocks`] (not every location), in its order, without building a block.
pub fn cut_points(comp: &Component) -> Vec<LocId> {
    let (order, is_cut) = cut_marks(comp, false);
    order.into_iter().filter(|l| is_cut[l.index()]).collect()
}

/// Terms of a way's condition that [`merge`] looks at to find the largest.
const MERGE_LOOK: usize = 4096;

/// Where `ways` meet: a named reach condition and state, their definitions added to `defs`.
/// Only the variables on which the ways' states differ are compared and named (in increasing
/// order); the persistent vectors' diff skips what they share.
fn merge(mut ways: Vec<Way>, defs: &mut Vec<Bool>, counter: &mut u64) -> (Bool, PVec<Sym>) {
    if ways.len() == 1 {
        let (c, p) = ways.into_iter().next().expect("one way");
        return (c, p);
    }
    *counter += 1;
    let reach = Bool::new_const(format!("blk.r!{counter}"));
    let conds: Vec<Bool> = ways.iter().map(|(c, _)| c.clone()).collect();
    defs.push(reach.eq(Bool::or(&conds).simplify()));
    // The way with the largest condition becomes the last, the `else` of every if-then-else
    // below, whose condition is never tested: the `default` of a switch, the conjunction of
    // every case's negation, is then not in the merged terms (a switch of 2,000 cases: the
    // one-shot check took 2.7 times less). The chain takes the first way whose condition
    // holds, in any order, so it is exact only because the ways into a location are exclusive
    // (`branches_only_by_assumptions`); the reach condition, their disjunction, makes the
    // untested `else` safe.
    let sizes: Vec<usize> = conds.iter().map(|c| smt::term_count(c, MERGE_LOOK)).collect();
    let mut largest = ways.len() - 1;
    for (i, &n) in sizes.iter().enumerate() {
        if n > sizes[largest] {
            largest = i;
        }
    }
    let last = ways.remove(largest);
    ways.push(last);
    let mut differ = Vec::new();
    for (_, p) in &ways[1..] {
        p.diff(&ways[0].1, |a, b| a.dynamic() == b.dynamic(), &mut differ);
    }
    differ.sort_unstable();
    differ.dedup();
    let mut state = ways[0].1.clone();
    for &v in &differ {
        let first = ways[0].1.get(v).clone();
        let mut value = ways[ways.len() - 1].1.get(v).dynamic();
        for (c, p) in ways[..ways.len() - 1].iter().rev() {
            value = c.ite(&p.get(v).dynamic(), &value);
        }
        *counter += 1;
        let named = match &first {
            Sym::Bv(b) => Sym::Bv(z3::ast::BV::new_const(format!("blk.m!{counter}"), b.get_size())),
            Sym::Arr(a, len) => Sym::Arr(
                z3::ast::Array::new_const(
                    format!("blk.m!{counter}"),
                    &z3::Sort::bitvector(64),
                    &a.get_sort().array_range().expect("an array sort"),
                ),
                *len,
            ),
        };
        defs.push(named.dynamic().eq(&value));
        state.set(v, named);
    }
    (reach, state)
}

/// Whether `invs` (one per cut point, over `vocab`) is an inductive invariant that excludes
/// every error: initiation, consecution and safety, each an unsatisfiable query to `smt`.
/// An `unknown` is an error, never a yes.
pub fn check(blocks: &Blocks, vocab: &[Sym], invs: &[Bool], smt: &mut Smt) -> Result<bool, SmtError> {
    check_sized(blocks, vocab, invs, smt, None)
}

/// [`check`], asking a block whose formula has more than `one_shot_above` distinct terms of a
/// one-shot solver ([`Smt::set_one_shot`]) and the others incrementally, as [`check`] does.
fn check_sized(
    blocks: &Blocks,
    vocab: &[Sym],
    invs: &[Bool],
    smt: &mut Smt,
    one_shot_above: Option<usize>,
) -> Result<bool, SmtError> {
    for b in &blocks.blocks {
        let mut facts = vec![b.constraint.clone()];
        if let Some(c) = b.from {
            facts.push(invs[c].clone());
        }
        if let Head::Cut(d) = b.head {
            facts.push(smt::substitute(&invs[d], vocab, &b.post).not());
        }
        let sat = match one_shot_above {
            Some(limit) => {
                smt.set_one_shot(smt::terms_beyond(&b.constraint, limit));
                let sat = smt.sat(&facts);
                smt.set_one_shot(false);
                sat?
            }
            None => smt.sat(&facts)?,
        };
        if sat {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether `invs` is inductive (initiation and consecution, errors aside).
fn check_inductive(blocks: &Blocks, vocab: &[Sym], invs: &[Bool], smt: &mut Smt) -> Result<bool, SmtError> {
    for b in &blocks.blocks {
        let Head::Cut(d) = b.head else { continue };
        let mut facts = vec![b.constraint.clone()];
        if let Some(c) = b.from {
            facts.push(invs[c].clone());
        }
        facts.push(smt::substitute(&invs[d], vocab, &b.post).not());
        if smt.sat(&facts)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The largest k of k-induction.
const MAX_K: usize = 8;

/// The result of [`prove`].
pub struct Attempt {
    /// When the proof is by k-induction over the invariants, its k (0 otherwise).
    pub k: usize,
    /// The strongest conjunction of candidates that is inductive, per cut point (the cut
    /// point and its conjuncts): true of every reachable state there, proof or not.
    pub invariants: Vec<(LocId, Vec<Bool>)>,
    /// Whether they exclude every error, re-checked by a solver of its own.
    pub proved: bool,
    /// Why not, when not.
    pub why_not: Option<String>,
    /// Solver checks made.
    pub calls: u64,
}

/// k-induction (Sheeran, Singh, Stålmarck, *Checking safety properties using induction and a
/// SAT-solver*, FMCAD 2000) over the transition system of the blocks, a step being one block,
/// strengthened by `invs` (inductive invariants per cut point, e.g. Houdini's): for `k` in
/// `1..=max_k`, the base case (no error within `k` steps of an initial state) and the step
/// case (`k` error-free steps in the invariants, then no error) are each one query; both
/// unsatisfiable is a proof. Returns the `k` that proves it.
pub fn k_induction(
    blocks: &Blocks,
    vocab: &[Sym],
    invs: &[Bool],
    max_k: usize,
    smt: &mut Smt,
) -> Result<Option<usize>, SmtError> {
    let names: Vec<Dynamic> = vocab.iter().map(Sym::dynamic).collect();
    let pc_bits = 32;
    let pc = |j: usize| z3::ast::BV::new_const(format!("kind.pc@{j}"), pc_bits);
    let cut = |c: usize| z3::ast::BV::from_u64(c as u64, pc_bits);
    let state = |j: usize| -> Vec<Dynamic> {
        names.iter().map(|d| Dynamic::new_const(format!("{d}@{j}"), &d.get_sort())).collect()
    };
    // The constants of each block other than the state's, found once: the formulas of every
    // depth rename them (sorted by name, each name made once).
    let own_of: Vec<Vec<Dynamic>> = blocks
        .blocks
        .iter()
        .map(|b| {
            let mut own: Vec<Dynamic> = smt::constants(&Dynamic::from_ast(&b.constraint));
            for p in &b.post {
                own.extend(smt::constants(&p.dynamic()));
            }
            own.retain(|c| !names.contains(c));
            own.sort_by_cached_key(|c| c.to_string());
            own.dedup();
            own
        })
        .collect();
    // Block `b` taken at step `j`: its formulas over the state of step j and constants of its own.
    let at = |bi: usize, j: usize| -> (Bool, Vec<Dynamic>) {
        let b = &blocks.blocks[bi];
        let post: Vec<Dynamic> = b.post.iter().map(Sym::dynamic).collect();
        let own = &own_of[bi];
        let renamed: Vec<Dynamic> = own.iter().map(|c| Dynamic::new_const(format!("{c}@{j}"), &c.get_sort())).collect();
        let st = state(j);
        let mut pairs: Vec<(&Dynamic, &Dynamic)> = names.iter().zip(&st).collect();
        pairs.extend(own.iter().zip(&renamed));
        (b.constraint.substitute(&pairs), post.iter().map(|p| p.substitute(&pairs)).collect())
    };
    let inv_at = |j: usize| -> Bool {
        let st = state(j);
        let pairs: Vec<(&Dynamic, &Dynamic)> = names.iter().zip(&st).collect();
        let parts: Vec<Bool> =
            invs.iter().enumerate().map(|(c, i)| pc(j).eq(cut(c)).implies(i.substitute(&pairs))).collect();
        Bool::and(&parts)
    };
    let trans = |j: usize| -> Bool {
        let next = state(j + 1);
        let ways: Vec<Bool> = blocks
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(bi, b)| match (b.from, b.head) {
                (Some(c), Head::Cut(d)) => {
                    let (guard, post) = at(bi, j);
                    let mut all = vec![pc(j).eq(cut(c)), guard, pc(j + 1).eq(cut(d))];
                    all.extend(next.iter().zip(&post).map(|(n, p)| n.eq(p)));
                    Some(Bool::and(&all))
                }
                _ => None,
            })
            .collect();
        Bool::or(&ways)
    };
    let bad = |j: usize| -> Bool {
        let ways: Vec<Bool> = blocks
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(bi, b)| match (b.from, b.head) {
                (Some(c), Head::Error) => Some(Bool::and(&[pc(j).eq(cut(c)), at(bi, j).0])),
                _ => None,
            })
            .collect();
        Bool::or(&ways)
    };
    // The formulas of step j are the same at every depth k > j: each is built once (the
    // queries are the same terms as when every depth built its own copies).
    let (mut trans_memo, mut bad_memo, mut inv_memo): (Vec<Bool>, Vec<Bool>, Vec<Bool>) = Default::default();
    let init: Vec<Bool> = blocks
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(bi, b)| match (b.from, b.head) {
            (None, Head::Cut(d)) => {
                let (guard, post) = at(bi, 0);
                let st = state(0);
                let mut all = vec![guard, pc(0).eq(cut(d))];
                all.extend(st.iter().zip(&post).map(|(n, p)| n.eq(p)));
                Some(Bool::and(&all))
            }
            _ => None,
        })
        .collect();
    let init = Bool::or(&init);
    // Base, depth 0: no error block enabled in an initial state.
    bad_memo.push(bad(0));
    if smt.sat(&[init.clone(), bad_memo[0].clone()])? {
        return Ok(None);
    }
    // Building the formulas of one depth takes long on large programs (every block renamed for
    // every step), so the deadline is looked at per step, not only by the queries.
    let deadline = smt.deadline();
    for k in 1..=max_k {
        // Base, depth k: no error after exactly k steps. Each depth is its own query (earlier
        // depths were checked in earlier rounds): a run that errs at depth j < k need not be
        // able to take k steps, so one query over k steps would miss it.
        let mut base = vec![init.clone()];
        for j in 0..k {
            deadline.check().map_err(|_| SmtError::Deadline)?;
            if trans_memo.len() == j {
                trans_memo.push(trans(j));
            }
            base.push(trans_memo[j].clone());
        }
        bad_memo.push(bad(k));
        base.push(bad_memo[k].clone());
        if smt.sat(&base)? {
            return Ok(None);
        }
        // Step: k error-free steps within the invariants cannot be followed by an error.
        let mut step = Vec::new();
        for j in 0..k {
            deadline.check().map_err(|_| SmtError::Deadline)?;
            if inv_memo.len() == j {
                inv_memo.push(inv_at(j));
            }
            step.extend([inv_memo[j].clone(), bad_memo[j].not(), trans_memo[j].clone()]);
        }
        inv_memo.push(inv_at(k));
        step.extend([inv_memo[k].clone(), bad_memo[k].clone()]);
        if !smt.sat(&step)? {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Paths into one location that [`prove`]'s blocks keep apart before merging them: a block per
/// path, so that each consecution query is over straight-line code (`loop-lit/bhmr2007`, proved
/// in 0.2 s, and `examples-c/loops/two_rates.c`, where the query over the merged branch ran out
/// of budget), while a cascade of branches still costs at most this many blocks per edge.
const MAX_WAYS: usize = 8;

/// Distinct terms of a loop-free program's block above which its one query is asked of a
/// one-shot solver ([`Smt::set_one_shot`]) rather than incrementally. Z3 4.8.12's incremental
/// mode case-splits on a merge of many ways (an if-then-else chain over the cases of a
/// `switch`) without the preprocessing of a one-shot check: on a switch of N cases on an input
/// (4.5 terms per case) the incremental check took 1.0 s at N = 250, 4.4 s at 500 and ran out
/// of its budget at 1,000 (then answered by the one-shot retry), against 0.11, 0.42 and 1.2 s
/// one-shot. A small block is cheaper incrementally: a fresh solver's set-up (30 to 50 ms)
/// is more than its check (5 to 15 ms on the loop-free examples, which have under 200 terms).
/// Measured in benches/VERIFY.md (17a).
const ONE_SHOT_TERMS: usize = 512;

/// Samples taken per cut point, at most.
const MAX_SAMPLES: usize = 400;
/// Runs of the interpreter that sample states.
const SAMPLE_RUNS: u64 = 48;
/// Steps of one sampling run.
const SAMPLE_STEPS: u64 = 20_000;
/// Rounds of Houdini's pruning before it gives up (each drops at least one candidate).
const MAX_PRUNES: usize = 2_000;
/// Rounds of pruning in the second round of candidates, whose queries are larger.
const MAX_PRUNES_2: usize = 150;
/// Rounds of pruning in the third round (degree-2 equalities, nonlinear queries).
const MAX_PRUNES_3: usize = 40;
/// Candidates per cut point in the second round, at most: those that survived the first
/// round, then the shapes of all samples, then the case splits, in that order.
const MAX_CANDIDATES_2: usize = 240;

/// Candidates per cut point from [`super::templates::value_splits`], beyond [`MAX_CANDIDATES_2`].
const MAX_VALUE_SPLIT_CANDIDATES: usize = 64;

/// Tries to prove that no error of `comp` is reachable with invariants at the cut points of
/// the block encoding: candidates are the affine equalities that every sampled state at a cut
/// point satisfies and the atoms of the component's conditions, both ways; Houdini keeps the
/// largest inductive subset (Flanagan, Leino, *Houdini, an annotation assistant for ESC/Java*,
/// FME 2001); a fresh solver re-checks the result and its safety. Each query has `budget`
/// resource units and at most the time left before `deadline`.
pub fn prove(comp: &Component, budget: u32, deadline: &crate::deadline::Deadline) -> Attempt {
    prove_between(comp, budget, deadline, &mut |_| false)
}

/// [`prove`], calling `between(round)` before rounds 2 and 3 of candidates: the caller's turn
/// for other work (`subst verify` deepens its bounded search there, so that a shallow bug is not
/// kept waiting by the expensive rounds). When it returns `true` the attempt ends unproved.
pub fn prove_between(
    comp: &Component,
    budget: u32,
    deadline: &crate::deadline::Deadline,
    between: &mut dyn FnMut(usize) -> bool,
) -> Attempt {
    let enc = Encoder::new(comp);
    let vocab = enc.state("");
    let blocks = blocks_by_path(&enc, &vocab, &|_, _| true, false, MAX_WAYS);
    tracing::debug!(blocks = blocks.blocks.len(), "blocks");
    let mut smt = Smt::with_deadline(budget, *deadline);
    let mut attempt = Attempt { k: 0, invariants: Vec::new(), proved: false, why_not: None, calls: 0 };
    let samples = sample(comp, &blocks.cuts);
    let mut fresh = Smt::with_deadline(budget, *deadline);
    // Round 1: affine equalities and the program's atoms. Round 2, only when round 1 proves
    // nothing: what survived round 1 (already inductive), and intervals, octagon bounds,
    // congruences and case splits ([`super::templates`]). Round 1 alone is cheaper, and it
    // proves most programs (measured in the module doc of `templates`).
    let mut kept: Option<Vec<Vec<Bool>>> = None;
    // Without a loop the entry's block is the whole program and `true` its invariant: one
    // safety query decides, where candidates would cost a query each (a 900-deep `?:` chain
    // took 40 s of Houdini for nothing). Each block is asked once, the large ones of a one-shot
    // solver (`ONE_SHOT_TERMS`).
    if !acyclic_order(comp).1.contains(&true) {
        let invs: Vec<Bool> = blocks.cuts.iter().map(|_| Bool::and(&[] as &[Bool])).collect();
        match check_sized(&blocks, &vocab, &invs, &mut fresh, Some(ONE_SHOT_TERMS)) {
            Ok(true) => {
                attempt.proved = true;
                attempt.invariants = blocks.cuts.iter().map(|&c| (c, Vec::new())).collect();
            }
            Ok(false) => attempt.why_not = Some("an error is reachable in the loop-free program's one block".into()),
            Err(e) => attempt.why_not = Some(format!("checking the loop-free program: {e}")),
        }
        attempt.calls = fresh.stats.calls;
        return attempt;
    }
    let mut earlier_calls = 0;
    // Round 2's candidates before Houdini pruned them, offered again in round 3.
    let mut offered_2: Vec<Vec<Bool>> = Vec::new();
    for round in 1..=3 {
        if round > 1 && between(round) {
            attempt.why_not = Some("decided by another engine between the rounds".into());
            break;
        }
        // Round 2 starts from what survived round 1, then offers round 1's candidates again: a
        // candidate that a weaker conjunction could not keep may be inductive relative to a
        // stronger one (`loop-lit/gj2007b` needs that). Round 3 offers round 2's again, for
        // the same reason: a bound that needs a degree-2 equality to be inductive
        // (`x >= y` beside `2*x == y*y - y + 2`, `loop-lit/afnp2014`) was pruned in round 2.
        let mut cands = kept.take().unwrap_or_else(|| vec![Vec::new(); blocks.cuts.len()]);
        let again = if round < 3 {
            candidates(comp, &enc, &vocab, &blocks.cuts, &samples)
        } else {
            std::mem::take(&mut offered_2)
        };
        for (c, more) in again.into_iter().enumerate() {
            for f in more {
                if !cands[c].contains(&f) {
                    cands[c].push(f);
                }
            }
        }
        if round == 3 {
            // Degree-2 relations: products of the varying variables as more columns. Their
            // queries are nonlinear, so they come last, after what survived round 2, with a
            // smaller budget per query.
            let terms = super::templates::program_terms(comp);
            let live = super::templates::live(comp);
            let mut more_any = false;
            for (c, rows) in samples.iter().enumerate() {
                let products = super::templates::products(comp, rows, &live[blocks.cuts[c].index()]);
                if products.is_empty() {
                    continue;
                }
                let mut with_products = terms.clone();
                with_products.extend(products);
                for f in equalities(comp, &enc, &vocab, rows, &with_products) {
                    if !cands[c].contains(&f) {
                        cands[c].push(f);
                        more_any = true;
                    }
                }
            }
            if !more_any {
                break;
            }
            earlier_calls += smt.stats.calls;
            smt = Smt::with_deadline(budget / 4, *deadline);
        }
        if round == 2 {
            let atoms = super::templates::split_atoms(comp);
            let thresholds = super::templates::few_thresholds(comp);
            let terms = super::templates::program_terms(comp);
            let live = super::templates::live(comp);
            for (c, rows) in samples.iter().enumerate() {
                let refs: Vec<&interp::State> = rows.iter().collect();
                let live = &live[blocks.cuts[c].index()];
                let mut more = super::templates::shapes_with_thresholds(comp, &vocab, &refs, live, &thresholds);
                more.extend(super::templates::splits(comp, &enc, &vocab, rows, live, &atoms, &|r| {
                    equalities(comp, &enc, &vocab, r, &terms)
                }));
                for f in more {
                    if cands[c].len() >= MAX_CANDIDATES_2 {
                        break;
                    }
                    if !cands[c].contains(&f) {
                        cands[c].push(f);
                    }
                }
                // The states of a state machine have an allowance of their own: their bounds
                // are few and each says what no conjunction of the shapes above can.
                let mut allowance = MAX_VALUE_SPLIT_CANDIDATES;
                for f in super::templates::value_splits(comp, &enc, &vocab, rows, live, &atoms) {
                    if allowance == 0 {
                        break;
                    }
                    if !cands[c].contains(&f) {
                        cands[c].push(f);
                        allowance -= 1;
                    }
                }
            }
        }
        if round == 2 {
            offered_2 = cands.clone();
        }
        tracing::debug!(round, candidates = cands.iter().map(Vec::len).sum::<usize>(), "invariant candidates");
        for (c, fs) in cands.iter().enumerate() {
            for f in fs {
                tracing::trace!(cut = c, %f, "candidate");
            }
        }
        let max_prunes = match round {
            1 => MAX_PRUNES,
            2 => MAX_PRUNES_2,
            _ => MAX_PRUNES_3,
        };
        if let Err(e) = houdini(&blocks, &vocab, &mut cands, max_prunes, &mut smt) {
            attempt.why_not = Some(format!("finding invariants: {e}"));
            continue;
        }
        let invs: Vec<Bool> = cands.iter().map(|c| Bool::and(c)).collect();
        attempt.invariants = blocks.cuts.iter().copied().zip(cands.iter().cloned()).collect();
        kept = Some(cands);
        let t0 = std::time::Instant::now();
        let rechecked = check(&blocks, &vocab, &invs, &mut fresh);
        tracing::debug!(round, ?rechecked, took = ?t0.elapsed(), "re-check");
        match rechecked {
            Ok(true) => {
                attempt.proved = true;
                attempt.why_not = None;
                break;
            }
            Ok(false) => attempt.why_not = Some("the invariants found do not exclude every error".into()),
            Err(e) => attempt.why_not = Some(format!("re-checking the invariants: {e}")),
        }
        // The invariants are inductive but too weak: k-induction strengthened by them, its
        // invariants first re-checked (a fresh solver for both, so that Houdini's is no party).
        if matches!(check_inductive(&blocks, &vocab, &invs, &mut fresh), Ok(true)) {
            match k_induction(&blocks, &vocab, &invs, MAX_K, &mut fresh) {
                Ok(Some(k)) => {
                    attempt.proved = true;
                    attempt.k = k;
                    attempt.why_not = None;
                    break;
                }
                Ok(None) => {}
                Err(e) => tracing::info!(%e, "k-induction gives up"),
            }
        }
        if deadline.check().is_err() {
            break;
        }
    }
    attempt.calls = earlier_calls + smt.stats.calls + fresh.stats.calls;
    attempt
}

/// Drops candidates until the conjunction at every cut point is inductive: a block whose
/// start satisfies the candidates there must end in a state that satisfies those at its end.
fn houdini(
    blocks: &Blocks,
    vocab: &[Sym],
    cands: &mut [Vec<Bool>],
    max_prunes: usize,
    smt: &mut Smt,
) -> Result<(), SmtError> {
    let mut prunes = 0;
    // Candidates only ever go: a block whose query was unsatisfiable stays so while the
    // candidates at its start stay (fewer at its end only weaken what it must establish). So
    // a block is asked again only after its start lost a candidate: asking the same query
    // again cost `loop-lit/bhmr2007` 11 s and its budget, where the first answer took 1 s.
    // `lost[c]` counts the prunes at cut point `c`; `passed[b]` is that count at `b`'s start
    // when `b`'s query was last unsatisfiable.
    let mut lost = vec![0usize; cands.len()];
    let mut passed: Vec<Option<usize>> = vec![None; blocks.blocks.len()];
    loop {
        let mut changed = false;
        for (bi, b) in blocks.blocks.iter().enumerate() {
            let Head::Cut(d) = b.head else { continue };
            let start_lost = |lost: &[usize]| b.from.map_or(0, |c| lost[c]);
            if passed[bi] == Some(start_lost(&lost)) {
                continue;
            }
            loop {
                if cands[d].is_empty() {
                    break;
                }
                let mut facts = vec![b.constraint.clone()];
                if let Some(c) = b.from {
                    facts.push(Bool::and(&cands[c]));
                }
                let post: Vec<Bool> = cands[d].iter().map(|f| smt::substitute(f, vocab, &b.post)).collect();
                facts.push(Bool::and(&post).not());
                let t0 = std::time::Instant::now();
                let answer = smt.model(&facts);
                tracing::trace!(block = ?(b.from, b.head), n = cands[d].len(), took = ?t0.elapsed(), ok = answer.is_ok(), "houdini query");
                let Some(model) = answer? else {
                    passed[bi] = Some(start_lost(&lost));
                    break;
                };
                let before = cands[d].len();
                let keep: Vec<bool> =
                    post.iter().map(|p| model.eval(p, true).and_then(|v| v.as_bool()) != Some(false)).collect();
                let mut k = keep.iter();
                cands[d].retain(|_| *k.next().expect("one flag per candidate"));
                if cands[d].len() == before {
                    // The model falsifies the conjunction, so some candidate is false in it.
                    return Err(SmtError::Unknown("a model that falsifies no candidate".into()));
                }
                changed = true;
                lost[d] += 1;
                prunes += 1;
                if prunes > max_prunes {
                    return Err(SmtError::Unknown(format!("more than {max_prunes} rounds of pruning")));
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// The candidate invariants at each cut point.
fn candidates(
    comp: &Component,
    enc: &Encoder,
    vocab: &[Sym],
    cuts: &[LocId],
    samples: &[Vec<interp::State>],
) -> Vec<Vec<Bool>> {
    let names: Vec<Dynamic> = vocab.iter().map(Sym::dynamic).collect();
    let mut atoms: Vec<Bool> = Vec::new();
    let mut add = |a: Bool| {
        let a = a.simplify();
        let consts = smt::constants(&Dynamic::from_ast(&a));
        if !consts.is_empty() && consts.iter().all(|c| names.contains(c)) && !atoms.contains(&a) {
            atoms.push(a);
        }
    };
    for e in &comp.edges {
        if let Stmt::Assume(c) | Stmt::Check(c, _) = &e.stmt {
            for a in smt::atoms(&enc.cond(c, vocab)) {
                add(a.clone());
                add(a.not());
            }
            // Both weak inequalities of every comparison: a loop `while (i < n)` keeps
            // `i <= n`, which neither `i < n` nor its negation says.
            let mut stack = vec![c];
            while let Some(x) = stack.pop() {
                match &x.kind {
                    ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => stack.extend([&**a, &**b]),
                    ExprKind::Unary(UnOp::Not, a) => stack.push(a),
                    ExprKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne, a, b) => {
                        let (l, r) = (enc.bv(a, vocab), enc.bv(b, vocab));
                        if a.ty.signed {
                            add(l.bvsle(&r));
                            add(l.bvsge(&r));
                        } else {
                            add(l.bvule(&r));
                            add(l.bvuge(&r));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let terms = super::templates::program_terms(comp);
    cuts.iter()
        .zip(samples)
        .map(|(_, rows)| {
            let mut out: Vec<Bool> = Vec::new();
            for eq in equalities(comp, enc, vocab, rows, &terms) {
                if !out.contains(&eq) {
                    out.push(eq);
                }
            }
            for a in &atoms {
                if !out.contains(a) {
                    out.push(a.clone());
                }
            }
            out
        })
        .collect()
}

/// A small pseudo-random environment: inputs mostly small, so that loops run a few times.
struct Small(u64);

impl Small {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

impl interp::Environment for Small {
    fn nondet(&mut self, ty: crate::ir::IntTy) -> Option<i128> {
        let r = self.next();
        let v = match r % 10 {
            0 => 0,
            1 => -1,
            _ => ((r >> 8) % 12) as i128,
        };
        Some(ty.convert(v))
    }

    fn receive(&mut self, _family: &str, ty: crate::ir::IntTy, range: Option<(i128, i128)>) -> Option<i128> {
        let v = self.nondet(ty)?;
        Some(match range {
            Some((lo, hi)) => lo + (v - lo).rem_euclid(hi - lo + 1),
            None => v,
        })
    }

    fn choose(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// States of the interpreter's runs at each cut point (distinct, at most [`MAX_SAMPLES`]).
fn sample(comp: &Component, cuts: &[LocId]) -> Vec<Vec<interp::State>> {
    let mut out: Vec<Vec<interp::State>> = vec![Vec::new(); cuts.len()];
    let mut seen = crate::util::HashSet::default();
    let succ = comp.successors();
    // Once every cut point holds its most samples, no later step can add one: the runs stop
    // there with the samples they would have ended with (`ipc_queue` of `examples-c/ipc` fills
    // its one cut point within its first runs, then spent 0.1 s on the rest).
    let full = |out: &[Vec<interp::State>]| out.iter().all(|s| s.len() >= MAX_SAMPLES);
    // A run at a location from which no cut point is reachable can add no sample: it stops
    // there (straight-line code after the entry ran to its end in every run, 48 times its
    // length).
    let reaches_cut = reaches_any(comp, cuts);
    for seed in 0..SAMPLE_RUNS {
        if full(&out) {
            break;
        }
        let mut env = Small(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let Some(mut state) = interp::State::initial(comp, &mut env) else { continue };
        let mut at = comp.entry;
        for _ in 0..SAMPLE_STEPS {
            if let Some(i) = cuts.iter().position(|&c| c == at)
                && out[i].len() < MAX_SAMPLES
                && seen.insert((at, state.flat()))
            {
                out[i].push(state.clone());
                if full(&out) {
                    break;
                }
            }
            let edges = succ.get(at.index()).map(Vec::as_slice).unwrap_or(&[]);
            let enabled = interp::enabled(comp, edges, &state);
            if enabled.is_empty() {
                break;
            }
            let chosen = enabled[interp::Environment::choose(&mut env, enabled.len())];
            let edge = &comp.edges[chosen];
            if interp::exec(comp, edge, &mut state, &mut env).is_err() {
                break;
            }
            at = edge.to;
            if !reaches_cut.get(at.index()).copied().unwrap_or(false) {
                break;
            }
        }
    }
    out
}

/// Whether each location of `comp` reaches one of `targets` (itself included) along its edges.
fn reaches_any(comp: &Component, targets: &[LocId]) -> Vec<bool> {
    let n = comp.n_locs as usize;
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &comp.edges {
        if let Some(p) = preds.get_mut(e.to.index()) {
            p.push(e.from.index());
        }
    }
    let mut marked = vec![false; n];
    let mut stack: Vec<usize> = targets.iter().map(|l| l.index()).filter(|&l| l < n).collect();
    for &l in &stack {
        marked[l] = true;
    }
    while let Some(l) = stack.pop() {
        for &p in &preds[l] {
            if p < n && !marked[p] {
                marked[p] = true;
                stack.push(p);
            }
        }
    }
    marked
}

/// The affine equalities `Σ a_i x_i + b = 0` among the scalar variables of one width that all
/// of `rows` satisfy (a basis of them, from the null space of the sample matrix over the
/// rationals), as bit-vector formulas over `vocab`.
fn equalities(comp: &Component, enc: &Encoder, vocab: &[Sym], rows: &[interp::State], extra: &[Expr]) -> Vec<Bool> {
    let mut out = Vec::new();
    if rows.is_empty() {
        return out;
    }
    let mut widths: Vec<u8> = comp
        .vars
        .iter()
        .filter_map(|v| match v.ty {
            crate::ir::VarTy::Scalar(t) => Some(t.bits),
            _ => None,
        })
        .collect();
    widths.sort_unstable();
    widths.dedup();
    for w in widths {
        // The columns: the variables of this width, then the terms of this width (each one
        // more unknown of the affine relation, read with its own meaning by the solver).
        let mut cols: Vec<(Column, z3::ast::BV)> = Vec::new();
        for (i, v) in comp.vars.iter().enumerate() {
            if let (crate::ir::VarTy::Scalar(t), Sym::Bv(x)) = (v.ty, &vocab[i])
                && t.bits == w
            {
                cols.push((Column::Var(i), x.clone()));
            }
        }
        for (k, e) in extra.iter().enumerate() {
            if e.ty.bits == w {
                cols.push((Column::Term(k), enc.bv(e, vocab)));
            }
        }
        let matrix: Vec<Vec<i128>> = rows
            .iter()
            .map(|s| {
                let mut r: Vec<i128> = cols
                    .iter()
                    .map(|(c, _)| match c {
                        Column::Var(i) => s.get(crate::ir::VarId(*i as u32), 0).unwrap_or(0),
                        Column::Term(k) => crate::ir::eval::eval(&extra[*k], s),
                    })
                    .collect();
                r.push(1);
                r
            })
            .collect();
        let Some(basis) = null_space(matrix, cols.len() + 1) else { continue };
        for v in basis {
            // `Σ a_i x_i + b = 0` as `Σ_{a_i > 0} a_i x_i = Σ_{a_i < 0} -a_i x_i - b`, left as
            // it is: simplified, Z3 solves it for a variable with an odd coefficient, whose
            // inverse modulo 2^w (e.g. 0xaaaaaaab for 3) makes a dense multiplier that bit-blasts
            // badly (`loop-lit/bhmr2007`: Houdini's queries ran out of budget).
            if v[..cols.len()].iter().all(|&a| a == 0) {
                continue;
            }
            let zero = z3::ast::BV::from_u64(0, u32::from(w));
            let (mut lhs, mut rhs) = (zero.clone(), zero.clone());
            for (k, (_, x)) in cols.iter().enumerate() {
                let term = |c: i128| if c == 1 { x.clone() } else { x.bvmul(coefficient(c, w)) };
                match v[k].cmp(&0) {
                    std::cmp::Ordering::Greater => lhs = if lhs == zero { term(v[k]) } else { lhs.bvadd(term(v[k])) },
                    std::cmp::Ordering::Less => rhs = if rhs == zero { term(-v[k]) } else { rhs.bvadd(term(-v[k])) },
                    std::cmp::Ordering::Equal => {}
                }
            }
            let b = v[cols.len()];
            if b != 0 {
                rhs = if rhs == zero { coefficient(-b, w) } else { rhs.bvsub(coefficient(b, w)) };
            }
            out.push(lhs.eq(&rhs));
        }
    }
    out
}

/// A column of the sample matrix: a variable, or one of the extra terms.
enum Column {
    Var(usize),
    Term(usize),
}

fn coefficient(c: i128, w: u8) -> z3::ast::BV {
    smt::const_bv(c, crate::ir::IntTy { bits: w, signed: true })
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn normalise(row: &mut [i128]) {
    let g = row.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        row.iter_mut().for_each(|x| *x /= g);
    }
}

/// A basis of the integer vectors `v` with `M v = 0`, by fraction-free Gaussian elimination;
/// `None` when an intermediate value overflows.
fn null_space(mut m: Vec<Vec<i128>>, n: usize) -> Option<Vec<Vec<i128>>> {
    let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, column)
    let mut r = 0;
    for c in 0..n {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else { continue };
        m.swap(r, p);
        for i in 0..m.len() {
            if i == r || m[i][c] == 0 {
                continue;
            }
            let (a, b) = (m[r][c], m[i][c]);
            let mut row = Vec::with_capacity(n);
            for (x, y) in m[i].iter().zip(&m[r]) {
                row.push(x.checked_mul(a)?.checked_sub(y.checked_mul(b)?)?);
            }
            normalise(&mut row);
            m[i] = row;
        }
        pivots.push((r, c));
        r += 1;
        if r == m.len() {
            break;
        }
    }
    let pivot_cols: Vec<usize> = pivots.iter().map(|&(_, c)| c).collect();
    let mut basis = Vec::new();
    for f in (0..n).filter(|c| !pivot_cols.contains(c)) {
        // x_f = L, x_pc = -row[f] * L / row[pc] for every pivot row.
        let mut l: i128 = 1;
        for &(pr, pc) in &pivots {
            if m[pr][f] != 0 {
                let p = m[pr][pc].abs();
                l = l.checked_mul(p / gcd(l, p))?;
            }
        }
        let mut v = vec![0i128; n];
        v[f] = l;
        for &(pr, pc) in &pivots {
            if m[pr][f] != 0 {
                v[pc] = (-m[pr][f]).checked_mul(l / m[pr][pc])?;
            }
        }
        normalise(&mut v);
        basis.push(v);
    }
    Some(basis)
}

/// A topological order of the locations of `comp` once the back edges of a depth-first search
/// from the entry are removed, and which edges those are.
pub fn acyclic_order(comp: &Component) -> (Vec<LocId>, Vec<bool>) {
    let succ = comp.successors();
    let n = comp.n_locs as usize;
    let mut back = vec![false; comp.edges.len()];
    // 0 unvisited, 1 on the stack, 2 done.
    let mut mark = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(usize, usize)> = vec![(comp.entry.index(), 0)];
    if let Some(m) = mark.get_mut(comp.entry.index()) {
        *m = 1;
    }
    while let Some((l, i)) = stack.pop() {
        let out = succ.get(l).map(Vec::as_slice).unwrap_or(&[]);
        if i < out.len() {
            stack.push((l, i + 1));
            let e = out[i];
            let to = comp.edges[e].to.index();
            match mark.get(to) {
                Some(0) => {
                    mark[to] = 1;
                    stack.push((to, 0));
                }
                Some(1) => back[e] = true,
                _ => {}
            }
        } else {
            mark[l] = 2;
            post.push(LocId(l as u32));
        }
    }
    post.reverse();
    (post, back)
}

/// The states the interpreter's sampling runs reach at each of `cuts` (as [`prove`] samples
/// them), for callers that guess candidates of their own.
pub fn sample_states(comp: &Component, cuts: &[LocId]) -> Vec<Vec<interp::State>> {
    sample(comp, cuts)
}

/// [`prove`]'s first-round candidate invariants at each of `cuts`: affine equalities of
/// `samples` (from [`sample_states`]) and the atoms of the component's conditions.
pub fn candidate_facts(
    comp: &Component,
    enc: &Encoder,
    vocab: &[Sym],
    cuts: &[LocId],
    samples: &[Vec<interp::State>],
) -> Vec<Vec<Bool>> {
    candidates(comp, enc, vocab, cuts, samples)
}

/// The affine equalities that every state of `rows` satisfies, as [`prove`] guesses them.
pub fn sample_equalities(comp: &Component, enc: &Encoder, vocab: &[Sym], rows: &[interp::State]) -> Vec<Bool> {
    equalities(comp, enc, vocab, rows, &[])
}

/// Houdini's pruning as [`prove`] runs it: drops candidates until the conjunction at every cut
/// point is inductive. The result still has to be re-checked by a solver of its own.
pub fn houdini_prune(blocks: &Blocks, vocab: &[Sym], cands: &mut [Vec<Bool>], smt: &mut Smt) -> Result<(), SmtError> {
    houdini(blocks, vocab, cands, MAX_PRUNES, smt)
}

/// [`houdini_prune`] with at most `max_prunes` rounds of pruning (an error beyond), for callers
/// whose candidates are many and optional.
pub fn houdini_prune_bounded(
    blocks: &Blocks,
    vocab: &[Sym],
    cands: &mut [Vec<Bool>],
    max_prunes: usize,
    smt: &mut Smt,
) -> Result<(), SmtError> {
    houdini(blocks, vocab, cands, max_prunes, smt)
}

/// Whether `invs` is inductive: initiation and consecution, errors aside.
pub fn is_inductive(blocks: &Blocks, vocab: &[Sym], invs: &[Bool], smt: &mut Smt) -> Result<bool, SmtError> {
    check_inductive(blocks, vocab, invs, smt)
}

/// A basis of the integer vectors `v` with `m v = 0` (`n` columns); `None` on overflow.
pub fn integer_null_space(m: Vec<Vec<i128>>, n: usize) -> Option<Vec<Vec<i128>>> {
    null_space(m, n)
}

/// The largest k that [`prove`] tries.
pub const PROVE_MAX_K: usize = MAX_K;

#[cfg(test)]
mod tests {
    use super::null_space;

    /// `main`: a switch of `n` cases on an input `x` (`y = 2k` in case `k`, `y = 2 * x` by
    /// default), then an error when `y != 2 * x` (never), as IR text. The default's guard is
    /// the conjunction of the cases' negations, as the front end writes it, or with
    /// `short_default` the range test `x < 0 || x >= n` (the text parser bounds nesting).
    fn switch(n: usize, short_default: bool) -> crate::ir::Component {
        let mut t = String::from("component main\n  local x: i32\n  local y: i32\n  entry l0\n  exit l4\n");
        t += "  l0 -> l1: havoc x\n";
        for k in 0..n {
            t += &format!("  l1 -> l{}: assume (x == {k})\n  l{} -> l2: y = {}\n", 5 + k, 5 + k, 2 * k);
        }
        let default = if short_default {
            format!("((x < 0) || (x >= {n}))")
        } else {
            (1..n).fold("(x != 0)".to_string(), |g, k| format!("({g} && (x != {k}))"))
        };
        t += &format!("  l1 -> l{}: assume {default}\n  l{} -> l2: y = (2 * x)\n", 5 + n, 5 + n);
        t += "  l2 -> l3: assume (y != (2 * x))\n  l3 -> l4: event reach_error\n  l2 -> l4: assume (y == (2 * x))\n";
        crate::ir::parse::component(&t).expect("the IR text parses")
    }

    #[test]
    fn a_large_loop_free_block_is_asked_once_of_a_one_shot_solver() {
        // 300 cases: the error block has about 1,500 terms. Incrementally its check runs over
        // a budget of a million units (then the one-shot retry answers: 3 checks); asked
        // one-shot first, it is one check (2 with the initial block's).
        let comp = switch(300, true);
        let a = super::prove(&comp, 1_000_000, &crate::deadline::Deadline::none());
        assert!(a.proved, "{:?}", a.why_not);
        assert_eq!(a.calls, 2);
    }

    #[test]
    fn a_merge_leaves_the_largest_condition_untested() {
        // The ways into the join of a switch of 12 cases (more than MAX_WAYS, so merged): the
        // default's guard, the conjunction of the 12 negations, is the `else` of the merged
        // value's if-then-else chain, so only the merged reach condition (a disjunction) holds it.
        use z3::ast::Ast;
        let comp = switch(12, false);
        let enc = crate::smt::Encoder::new(&comp);
        let vocab = enc.state("");
        let blocks = super::blocks_by_path(&enc, &vocab, &|_, _| true, false, super::MAX_WAYS);
        let error = blocks.blocks.iter().find(|b| b.head == super::Head::Error).expect("an error block");
        let mut terms = Vec::new();
        let mut stack = vec![z3::ast::Dynamic::from_ast(&error.constraint)];
        while let Some(t) = stack.pop() {
            if !terms.contains(&t) {
                stack.extend(t.children());
                terms.push(t);
            }
        }
        let is_default = |t: &z3::ast::Dynamic| t.decl().kind() == z3::DeclKind::And && t.num_children() == 12;
        let default = terms.iter().find(|t| is_default(t)).expect("the default's guard");
        let holders: Vec<&z3::ast::Dynamic> = terms.iter().filter(|t| t.children().contains(default)).collect();
        assert_eq!(holders.len(), 1, "{holders:?}");
        assert_eq!(holders[0].decl().kind(), z3::DeclKind::Or);
    }

    #[test]
    fn sampling_runs_stop_where_no_cut_point_is_reachable() {
        // A loop at l1, then straight-line code: only l0 and l1 reach a cut point (l0, l1).
        let comp = crate::ir::parse::component(
            "component main\n  local x: i32\n  entry l0\n  exit l4\n  l0 -> l1: x = 0\n  l1 -> l1: assume (x < 3)\n  l1 -> l2: assume (x >= 3)\n  l2 -> l3: x = 1\n  l3 -> l4: x = 2\n",
        )
        .expect("the IR text parses");
        let cuts = super::cut_points(&comp);
        assert_eq!(super::reaches_any(&comp, &cuts), vec![true, true, false, false, false]);
    }

    #[test]
    fn null_space_finds_the_affine_relation_of_a_loop() {
        // Samples (i, s, 1) of `s += 2; i++`: s - 2i = 0 is the only relation.
        let rows: Vec<Vec<i128>> = (0..5).map(|i| vec![i, 2 * i, 1]).collect();
        let basis = null_space(rows, 3).expect("no overflow");
        assert_eq!(basis.len(), 1);
        let v = &basis[0];
        assert!(v == &vec![2, -1, 0] || v == &vec![-2, 1, 0], "{v:?}");
    }

    #[test]
    fn null_space_of_a_constant_column_is_an_equality_with_a_constant() {
        let rows = vec![vec![3, 0, 1], vec![3, 5, 1]];
        let basis = null_space(rows, 3).expect("no overflow");
        assert_eq!(basis.len(), 1);
        let v = &basis[0];
        // x - 3 = 0
        assert!(v == &vec![1, 0, -3] || v == &vec![-1, 0, 3], "{v:?}");
    }
}
