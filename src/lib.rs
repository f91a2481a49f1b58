//! subst: can the new versions of these C components replace the old ones?
//!
//! # The map
//!
//! The pipeline follows `PRODUCT.md`; each module is one stage.
//!
//! | module | stage | status |
//! |---|---|---|
//! | [`front`] | preprocess (`gcc -E`; `.i` files as they are) and parse C (`lang_c`), lower components to the IR: structs flattened to scalars and arrays, pointers resolved by a type-based points-to analysis to object tags and offsets, the lifetimes of locals whose address is taken kept in flags | done |
//! | [`ir`] | the control-flow IR: types, text form, parser, checker, interpreter; the stacks of inlined calls of the edges' origins are shared ([`ir::CallStack`]) | done |
//! | [`spec`] | the FSP spec language: parser, elaboration of processes and assemblies; state propositions of C components and of FSP processes (`prop P = PROC: {LOCAL}`), read by properties' guards in event form | done |
//! | [`automata`] | DLAs: composition, hiding, determinisation, minimisation, safety, inclusion, DOT | done |
//! | [`learn`] | L* with Rivest–Schapire (and two other) counterexample processing, serialisable tables, re-validation; L# (the default learner) over an observation tree (letters interned as indices, prefix-closure answers, output and adaptive queries for oracles that answer them in one run), two separation rules (a witness, or the word an adaptive distinguishing search with branch and bound finds from per-node masks of the children's answers that the tree keeps, `learn/tree/ads.rs`), re-asking its tree after an upgrade, trees saved to and restored from the cache (a restored tree is never closed: adaptive L# takes a model of what it knows as its reference); adaptive L# ([`learn::adaptive`], Kruger, Junges and Rot 2024), which re-learns a changed language from a reference model's state cover, separating words and state matching (`--reuse adaptive`) | done (alphabet refinement of the assumptions is in [`check::ag`]) |
//! | [`smt`] | the only user of `z3`: IR expressions as bit-vector formulas, edge steps, query cache, all-SAT, a query over budget asked once more of a one-shot solver (or asked one-shot only, where a caller says so: k-induction of a product over arrays, a large block of a loop-free program); `/` and `%` reach the solver as a quotient and a remainder with their defining constraints, split by cases when a syntactic look bounds the divisor to a few values ([`smt::division`]) | done |
//! | [`abs`] | predicate abstraction of one component: may and must graphs, symbolic simulation, refinement by the inductive invariant at a cut point of the spurious path when one rules it out (minimised, and carried through the loop body to the locations before it; [`abs::refine`]), else by weakest preconditions (the invariants are computed only for a path that can run from its latest cut point); an explicit-state under-approximation ([`abs::explicit`]); block encoding at cut points and inductive invariants guessed from samples and conditions (equalities, also over the program's terms such as `n / 2`, then intervals, octagons widened to the program's constants, congruences, case splits and bounds per state of a state machine, then degree-2 equalities, [`abs::templates`]), pruned by Houdini over one block per path and re-checked ([`abs::invariant`]); state labels from the spec's propositions, decided by predicates in every state ([`abs::labels`]); block encoding of the may-abstraction (`--blocks loop`: states only at loop heads, event points and the entry, the loop-free code between them one formula, counterexamples checked and refined on block paths through one seam, [`abs::blocks::check_path`], that CEGAR and containment call; the default of `verify` on one C program) | done |
//! | [`check`] | verdicts; monolithic and assume-guarantee verification, DynamicCheck (paper 003 Fig. 3) with assumptions over refined interface alphabets (Gheorghiu, Giannakopoulou and Păsăreanu 2007, `--alphabet`) and old answers re-used as hints, the old levels re-checked first within a budget of membership queries (without queries in the next CEGAR rounds once over it; a violation they lead to reported by the search's shortest trace), the changed components checked against the old assumption above them by a bounded search before learning (Lemma 1), the outcome of identical automata re-used, and a bounded search of the whole product before learning, whose verdict is final when it finds a violation or explores every state (`--probe-states`, [`check::ag`]); CEGAR on C ([`check::cegar`]) with a bounded bug search beside it ([`check::bmc`]); the only run of a program without input (undefined cells, an uninitialised local or an input never read, are tracked: only a read of one makes a second run), executed, counting loops skipped by their closed form ([`check::only_run`]); containment of changed C components ([`check::contain`], paper 003 Section 4) per matched component ([`check::substitution`]), first on the product of the two versions with the engine of `verify` ([`check::product`]: equalities, case splits, degree-2 equalities), and after a missing behaviour again without the traces found, for up to `--max-missing` distinct ones, Validation 2 by an exact search of the new version where it cannot loop between events | FSP models; C programs and C assemblies (monolithic, or compositional with `--engine ag`); containment and compatibility on C ([`check::compat`], whose old check and upgrade share one solver; the fallback from nothing gets its own, as `verify` does) |
//! | [`report`] | rendering of results; the `check` report on C as text, JSON (`docs/report.md`) and SARIF 2.1.0 ([`report::check`]); `verify`, `check` on FSP models and input errors as JSON (schemas in `docs/schemas/`) and SARIF ([`report::verdict`]); the label after every step of a trace ([`report::labels`]) | done for what exists |
//! | [`diag`] | diagnostics about input, rendered with the source line (ariadne) | done |
//! | [`cli`] | command-line arguments to library calls and exit codes; one spec search for every command; a progress line on a terminal ([`cli::progress`]); `show ir|model|assumption|table` as text and DOT ([`cli::show`]) | `show`; `verify` on FSP and C; `check` on FSP and on C (containment, compatibility, `--git-base`); `--format text|json|sarif` on every verdict |
//! | [`deadline`] | the whole run's deadline (`--timeout`): one value every phase and every SMT query looks at | done |
//! | [`util`] | maps and sets with a fixed hasher, so that runs do the same work in the same order; a persistent vector ([`util::pvec`]) for the symbolic states of the bounded search and the block encoding, so that a step copies what its edge writes | done |
//! | [`cache`] | the persistent cache (`.subst/`): observation tables and verdicts, content-addressed, written atomically; an entry is a hint, never a premise | tables (with digests of what they were learned for), predicates, the old check's last models with their answered edge queries ([`abs::stored`]: loaded by a later `check` instead of rebuilt) and verdicts of compatibility |
//!
//! # Architecture invariants
//!
//! - [`automata`] knows nothing about C, Z3 or the spec syntax: events and propositions are
//!   names. Every check that can fail returns a shortest counterexample.
//! - [`learn`] knows nothing about C, Z3 or specs: it asks a membership oracle or a teacher
//!   about words of names. A counted membership query is one run of the oracle: a learner asks
//!   for every prefix's answer (an output query) or an adaptive sequence in one query only of
//!   an oracle that says it answers them in one run ([`learn::Membership::answers_prefixes`]).
//! - A compositional verdict never rests on an unchecked assumption: "holds" needs both premises
//!   of the assume-guarantee rule discharged (over the assumption's alphabet, which holds every
//!   event of the level's property that the rest performs; [`check::ag`], alphabet refinement) (or the search before learning to have explored
//!   every state of the product, as the monolithic check does), and every violation is returned as a witness
//!   trace of the whole assembly, found by a search of the real components. Answers kept from
//!   an earlier run (after an upgrade, a refinement or from the cache) are hints: they shape
//!   candidates, which Oracle 1 and the check of the rest then decide on, and the first one
//!   contradicted re-validates its table or tree.
//! - Only [`front`] sees `lang_c`. What leaves it is an [`ir::Component`] or a
//!   [`diag::Diagnostic`].
//! - The IR is C's semantics, made explicit: every integer conversion is a cast node, every
//!   undefined behaviour is a `check` edge, every side effect is an edge, and every edge keeps
//!   the C source span and text it came from (see [`ir`]).
//! - Control flow branches only by exclusive assumptions: a location with several edges out has
//!   only `assume` edges, and no state satisfies two of their conditions (the front end's
//!   conditions and their negations, a switch's cases and their complement; the glue of
//!   [`check::product`]), or only edges into one location that write nothing (the letters of
//!   [`abs::labels`]). The merges of [`abs::invariant`], [`abs::blocks`] and [`check::bmc`]
//!   take the first way whose condition holds and rely on it;
//!   [`abs::invariant::branches_only_by_assumptions`] is debug-asserted there, and
//!   `tests/it/blocks.rs` checks the conditions of lowered programs pairwise with the solver.
//! - The interpreter ([`ir::interp`]) is the reference semantics; `tests/it/gcc_agreement.rs`
//!   holds it to gcc's behaviour on the examples and on generated programs.
//! - Input errors are values ([`diag::Diagnostic`]) with a file, line and column; no input
//!   makes subst panic (the parser and the lowering run under `catch_unwind` as a last guard).
//!   Every file subst reads (sources, specs, cache entries, files that line markers name) is
//!   read by [`diag::read_file`]: only a regular file, of bounded size, so that a FIFO or a
//!   device given or named as input is an error, not a wait for ever or an endless read. The
//!   preprocessed text of a C file is bounded before parsing too ([`front::MAX_PREPROCESSED_BYTES`]:
//!   the parser's memory grows with it, and a few lines of macros expand to gigabytes).
//! - Only [`smt`] names `z3`'s solver; a solver `unknown` is an error value there, which becomes
//!   the verdict Unknown (or, for a must-transition, its absence), never "holds".
//! - "Holds" on C comes from CEGAR on may-abstractions, which over-approximate every component
//!   (`tests/it/abstraction.rs` checks this against the interpreter), or from a bounded search
//!   ([`check::bmc`]) whose unrolling is complete (no run can iterate further), or from
//!   invariants at the cut points of a block encoding ([`abs::invariant`]) whose initiation,
//!   consecution and exclusion of every error a fresh solver has checked, or from the only run
//!   of a program that reads no undefined value (an uninitialised local or an input before it is
//!   written) and makes no choice, executed by the interpreter to its
//!   end or to a repeated state ([`check::only_run`]). "Fails" on C comes only with concrete
//!   runs that the interpreter has replayed (or, for a program without input, executed, with
//!   the iterations of counting loops skipped by a closed form that is exact: every skipped
//!   value is linear in the iteration number and stays within its type, [`check::only_run`]).
//! - "Contained" rests on `L(M) ⊆ L(M')` with `M` a may-model of the old version and `M'` an
//!   under-approximation of the new one: its must-model (a must-transition needs every state of
//!   its source to have a successor in its target; a solver `unknown` drops it), or, while it is
//!   small, its concrete states explored by the interpreter with sampled inputs; or, before
//!   any abstraction, on a simulation of the old version by the new one: no error is reachable
//!   in their synchronous product ([`check::product`]: every old event must be matched by every
//!   way of the new version, which cannot loop between events), shown by the engine of
//!   `verify` (a complete unrolling, or invariants and k-induction re-checked by a fresh
//!   solver). A simulation implies `L(old) ⊆ L(new)`, which `L(M) ⊆ L(M')` stands for.
//!   A missing behaviour is reported only
//!   after the interpreter-checked old run exists and the may-model of the new version has no path
//!   for it, or (a new version that cannot loop between events) a complete unrolling of the new
//!   version restricted to the trace has no run ([`check::product::performs`]);
//!   `tests/it/contain.rs` re-checks each one by symbolic simulation of the new version.
//! - Compatibility after an upgrade seeds a changed component with the old version's predicates
//!   (renamed where a location's statements read as an old one's up to a renaming of variables)
//!   and the answers of its edge queries (keyed by their formulas, so an answer is only ever
//!   used for the identical query, [`abs`]), and orders the levels per property by their interfaces
//!   ([`check::verify::interface_order`]);
//!   these only change how much is re-used and how fast, never the verdict: predicates are
//!   precision, an identical query has the same answer, and any order is a valid instance of
//!   the recursive assume-guarantee rule.
//!   That re-use is an attempt bounded by counted work (a sixteenth of the old check's SMT
//!   calls and membership queries, [`check::compat::REUSE_WORK_SHARE`]; the abstraction stops
//!   at it), past which the new version is checked from nothing as `verify` checks it, its
//!   abstractions answered by the attempt's identical edge queries where there are any.
//! - The cache ([`cache`]) holds hints, never premises: tables read from it are checked for
//!   shape, used as they are only at a level whose model and property have the digest they were
//!   learned for and re-validated by dynamic L* elsewhere; every candidate built from them passes
//!   Oracle 1 again, and a table that turns out wrong is learned again. A cached verdict is only
//!   ever reported for the *old* assembly, and never an undecided one; the one exception is
//!   containment's "contained", reported again for exactly the same pair of codes (positions
//!   aside), removed process and subst version ([`check::substitution::check_cached`]). A damaged or forged (MAC),
//!   stale or foreign entry is a logged miss.
//! - Budgets that decide an answer count work: each SMT query has a Z3 resource budget
//!   (`rlimit`), CEGAR a number of refinements, explorations a number of states and bytes (the
//!   monolithic product too, [`check::verify::MONO_MAX_STATES`]).
//!   `--timeout` is one [`deadline::Deadline`] for the whole run, looked at by CEGAR, the bounded
//!   search, the monolithic product between steps of its search, containment, explicit exploration, DynamicCheck (between membership queries, and
//!   inside the learners between steps of their own, [`learn::Membership::stopped`]; a
//!   stopped run keeps only the levels that finished, [`check::ag::Outcome::Stopped`]), on C and
//!   on FSP models alike, and every
//!   SMT query near it, and a watchdog thread interrupts Z3 at it ([`smt::with_watchdog`], only
//!   inside a check or a push, never where an interrupt would make the z3 crate panic); it only
//!   ever turns an answer into Unknown ([`check::Reason::Timeout`]). When the explicit
//!   exploration of containment reaches its memory bound, the must-abstraction takes over, and an
//!   answer it leaves undecided names the bound ([`check::Reason::MemoryLimit`]).
//! - No input overflows the stack: the front end bounds nesting before and after `lang_c` parses
//!   ([`front::depth`]), so every later recursive walk sees bounded depth; the binary runs on a
//!   thread with a large stack as a second guard. The FSP and IR text parsers count their depth.
//! - The cache folder is untrusted: entries are authenticated with a key kept outside it, and
//!   what an entry can cost is bounded ([`cache`]). A stored model is taken only for the code,
//!   predicates and abstraction settings its key names, after a check of its shape; a stored
//!   answer of an edge query only for a query of this run with the same digest: its statement
//!   in IR terms (the tree with every type, the names and types of its variables, its event's
//!   family) and its predicates' texts, which together decide the query's formulas
//!   ([`abs::stored`]).
//! - The same input gives the same output, witnesses included: maps and sets in `src/` use
//!   [`util::HashMap`] / [`util::HashSet`] (a fixed hasher), since with a per-process seed their
//!   iteration order reached the order of Z3's terms and so the models it picks. `clippy.toml`
//!   disallows std's types, and this crate denies the lint.
//! - Exit codes: 0 holds, 1 does not hold, 2 bad input or usage, 3 unknown. Under
//!   `--format json|sarif`, stdout always holds one document, an error document for exit 2.
//! - State propositions are checked against the spec and the sources (located errors). A
//!   property's guard over propositions reaches every check in pure event form
//!   ([`spec::Observations`]): an observed event `e` becomes letters `e{X}` that every part
//!   synchronises on, so composition, safety, learning and inclusion read labels without
//!   knowing them. A C component's label is decided by its predicates in every abstract state
//!   (the propositions' conditions are predicates at every location, [`abs::labels`]), an FSP
//!   process's by the local process of its state, and a counterexample's labels are confirmed
//!   by symbolic simulation, never guessed. Containment's behaviours begin with the initial
//!   label (an event `@start{X}` into the entry) and carry the label each event leads to.

#![warn(missing_docs)]
// Maps and sets iterate in the same order in every run (`clippy.toml` names the types).
#![deny(clippy::disallowed_types)]

pub mod abs;
pub mod automata;
pub mod cache;
pub mod check;
pub mod cli;
pub mod deadline;
pub mod diag;
pub mod front;
pub mod ir;
pub mod learn;
pub mod report;
pub mod smt;
pub mod spec;
pub mod util;
