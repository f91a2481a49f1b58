#!/usr/bin/env python3
"""subst's learners (L*, L#) against AALpy 2.0's (L*, KV, L#) on the same targets, in one run.

Run it through benches/learning_vs_aalpy.sh, which prepares the virtualenv with AALpy first.
Steps:

1. `cargo bench --bench learning -- gen DIR` writes the generated targets (random prefix-closed
   DFAs and the weakest assumptions of the checks in specs/) as JSON files; see
   benches/learning.rs for the format. The LearnLib v2 files (`--learnlib`, default
   /work/shared/benchmarks/learnlib) are converted to the same format for AALpy; subst reads
   them as they are.
2. `cargo bench --bench learning -- run --learner all FILE...` learns each with subst's L* and
   L# and prints their counts.
3. This script learns each with AALpy's `run_Lstar(cex_processing='rs')`, `run_KV(cex_processing
   ='rs')` and `run_Lsharp()` (defaults otherwise; automaton_type='dfa'), one process per target
   and learner under a time limit, with the same exact equivalence oracle as the subst side.
4. It prints one table (Markdown) and writes every number to target/learning-results.json.

What is counted (see benches/LEARNING.md):
- AALpy membership queries: AALpy's own `queries_learning`, the queries that miss its cache
  tree (`CacheSUL`) plus L#'s adaptive (ADS) queries; one query runs one word and answers
  every prefix of it. `symbols` is AALpy's `steps_learning`, the letters of those queries.
- subst membership queries: `Stats::membership`, the queries that reach the teacher (a query
  that answers every prefix of a word counts once; `symbols` counts the letters), after the
  learner's cache (table or tree) and its prefix-closure answers (a word with a rejected prefix
  is rejected; for L#, also: a word with an accepted extension is accepted). AALpy is not told
  that the targets are prefix-closed.
- Equivalence queries: hypotheses submitted to the equivalence oracle, by both.
- Time: `ms` (wall clock) and `cpu_ms` (CPU time of the process) over the same span on both
  sides: from after the target is read (and, on subst's side, its successor table for the
  equivalence oracle built) to the final hypothesis, membership answers and equivalence
  queries included; reading the target and the check after the run left out. `eq_cpu_ms` is
  the part of `cpu_ms` spent inside the equivalence oracle (the same product search on both
  sides, in Rust on subst's and in Python on AALpy's), timed around each call; the table gives
  the CPU ratio with it and without it (`cpu−EQ`), the latter comparing the learners and their
  membership answers only.
- `--repeat N` runs every learner of both sides N times per target, in rounds (each round runs
  every learner once, subst's then AALpy's), and reports the median of each time and the least
  CPU time; the counts are the first run's (a warning is printed if they differ between runs).
"""

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMAT = "subst-learning-target/1"


# ---------------------------------------------------------------------------------------------
# The AALpy side.


def load(path):
    with open(path) as f:
        target = json.load(f)
    if target["format"] != FORMAT:
        raise SystemExit(f"{path}: format {target['format']!r}, expected {FORMAT!r}")
    return target


def member(target, word):
    """Whether the target accepts `word` (a tuple of letters)."""
    index = {a: i for i, a in enumerate(target["alphabet"])}
    q = target["initial"]
    for letter in word:
        if q < 0:
            return False
        q = target["delta"][q][index[letter]]
    return q >= 0 and target["accepting"][q]


def shortest_difference(target, hypothesis):
    """The length-lexicographically least word on which an AALpy DFA and the target disagree.

    The same search as `shortest_difference` in benches/learning.rs: breadth first over pairs
    (target state or -1 for the sink, hypothesis state), letters in alphabet order, so the word
    depends only on the hypothesis's language.
    """
    alphabet = target["alphabet"]
    delta, accepting = target["delta"], target["accepting"]
    start = (target["initial"], hypothesis.initial_state)
    parent = {(start[0], id(start[1])): None}
    queue = deque([start])
    while queue:
        tq, hq = queue.popleft()
        t_acc = tq >= 0 and accepting[tq]
        if t_acc != hq.is_accepting:
            word = []
            key = (tq, id(hq))
            while parent[key] is not None:
                key, letter = parent[key]
                word.append(letter)
            word.reverse()
            return tuple(word)
        for i, letter in enumerate(alphabet):
            nt = delta[tq][i] if tq >= 0 else -1
            nh = hq.transitions[letter]
            key = (nt, id(nh))
            if key not in parent:
                parent[key] = ((tq, id(hq)), letter)
                queue.append((nt, nh))
    return None


def learnlib_target(path):
    """A LearnLib v2 `.dfa`/`.dfa.gz` file as a target, by the rules of `Target::from_learnlib`
    in benches/learning.rs (letters `a00`, `a01`, ...; for a prefix-closed language the
    rejecting states become the implicit sink)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        numbers = [int(t) for t in f.read().split()]
    n, k = numbers[0], numbers[1]
    accepting = [x != 0 for x in numbers[2 : 2 + n]]
    rows = numbers[2 + n :]
    delta = [rows[q * k : (q + 1) * k] for q in range(n)]
    reaches = list(accepting)
    changed = True
    while changed:
        changed = False
        for q in range(n):
            if not reaches[q] and any(reaches[r] for r in delta[q]):
                reaches[q] = changed = True
    prefix_closed = all(accepting[q] or not reaches[q] for q in range(n))
    keep = [not prefix_closed or accepting[q] for q in range(n)]
    number, count = [-1] * n, 0
    for q in range(n):
        if keep[q]:
            number[q], count = count, count + 1
    name = Path(path).name.removesuffix(".gz").removesuffix(".dfa")
    return {
        "format": FORMAT,
        "name": f"learnlib-{name}",
        "kind": "learnlib",
        "prefix_closed": prefix_closed,
        "alphabet": [f"a{a:02}" for a in range(k)],
        "initial": number[0],
        "accepting": [accepting[q] for q in range(n) if keep[q]],
        "delta": [[number[r] for r in delta[q]] for q in range(n) if keep[q]],
    }


AALPY_ALGORITHMS = ["lstar", "kv", "lsharp"]


def learn_aalpy(path, algorithm):
    """Learns one target with one of AALpy's learners; returns the counts."""
    from aalpy.base import SUL, Oracle
    from aalpy.learning_algs import run_KV, run_Lsharp, run_Lstar

    target = load(path)
    index = {a: i for i, a in enumerate(target["alphabet"])}
    delta, accepting = target["delta"], target["accepting"]

    class TargetSUL(SUL):
        """The target as a system under learning; `SUL.query` counts the queries it receives."""

        def __init__(self):
            super().__init__()
            self.state = target["initial"]

        def pre(self):
            self.state = target["initial"]

        def post(self):
            pass

        def step(self, letter):
            if letter is not None and self.state >= 0:
                self.state = delta[self.state][index[letter]]
            return self.state >= 0 and accepting[self.state]

    class ExactOracle(Oracle):
        """Compares the hypothesis with the target; asks the SUL nothing."""

        def __init__(self, alphabet, sul):
            super().__init__(alphabet, sul)
            self.equivalence_queries = 0
            self.cpu_seconds = 0.0

        def find_cex(self, hypothesis):
            self.equivalence_queries += 1
            start = time.process_time()
            cex = shortest_difference(target, hypothesis)
            self.cpu_seconds += time.process_time() - start
            return cex

    sul = TargetSUL()
    alphabet = list(target["alphabet"])
    oracle = ExactOracle(alphabet, sul)
    start, cpu_start = time.perf_counter(), time.process_time()
    common = dict(automaton_type="dfa", return_data=True, print_level=0)
    if algorithm == "lstar":
        hypothesis, info = run_Lstar(alphabet, sul, oracle, cex_processing="rs", cache_and_non_det_check=True, **common)
    elif algorithm == "kv":
        hypothesis, info = run_KV(alphabet, sul, oracle, cex_processing="rs", **common)
    else:
        hypothesis, info = run_Lsharp(alphabet, sul, oracle, **common)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    if shortest_difference(target, hypothesis) is not None:
        raise SystemExit(f"{target['name']}: AALpy's final hypothesis differs from the target")
    # AALpy's own counts (of the `CacheSUL` its learners wrap `sul` in): queries that miss its
    # cache plus L#'s adaptive (ADS) queries, which never reach `sul.query` and so are missing
    # from `sul.num_queries`; `steps_learning` is their letters.
    return {
        "membership": info["queries_learning"],
        "symbols": info["steps_learning"],
        "equivalence": oracle.equivalence_queries,
        "hypothesis_states": len(hypothesis.states),
        "ms": seconds * 1000.0,
        "cpu_ms": cpu_seconds * 1000.0,
        "eq_cpu_ms": oracle.cpu_seconds * 1000.0,
    }


# ---------------------------------------------------------------------------------------------
# The driver.


def cargo_learning(*args):
    """Runs the subst bench binary through cargo and returns its standard output."""
    cmd = ["cargo", "bench", "--quiet", "--bench", "learning", "--", *args]
    return subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout


def learning_binary():
    """A private copy of the bench binary, so that a rebuild during the run changes nothing."""
    cmd = ["cargo", "bench", "--quiet", "--bench", "learning", "--no-run", "--message-format=json"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    messages = [json.loads(line) for line in out.splitlines() if '"executable"' in line]
    exe = [
        m["executable"]
        for m in messages
        if m.get("executable") and m["target"]["name"] == "learning" and "bench" in m["target"]["kind"]
    ]
    copy = Path(tempfile.mkdtemp(prefix="subst-learning-")) / "learning"
    shutil.copy2(exe[-1], copy)
    return str(copy)


def run_subst_isolated(binary, path, learner, time_limit):
    """subst on one target with one learner, in its own process under the time limit."""
    cmd = [binary, "run", "--learner", learner, str(path)]
    try:
        done = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_aalpy_isolated(path, algorithm, time_limit):
    """AALpy on one target in its own process, so that a slow target can be stopped."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", str(path), "--algorithm", algorithm]
    try:
        done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def ratio(a, b):
    return a / b if b else float("nan")


def order_key(name):
    # LearnLib first, random targets by size, then the FSP weakest assumptions by name.
    if name.startswith("learnlib-"):
        return (0, 0, name)
    if name.startswith("random-n"):
        n = int(name[len("random-n") :].split("-")[0])
        return (1, n, name)
    return (2, 0, name)


SUBST_LEARNERS = ["lstar", "lsharp", "lsharp-ads"]
# A subst learner left out with --subst-learners.
NOT_RUN = "not run"


def cell(r):
    if r == NOT_RUN:
        return NOT_RUN
    if r is None:
        return "timeout"
    cpu = ""
    if "cpu_ms" in r:
        least = f", min {r['cpu_ms_min']:.1f}" if len(r.get("runs", [])) > 1 else ""
        cpu = f" ({r['cpu_ms']:.1f}{least})"
    return f"{r['membership']} / {r.get('symbols', '?')} / {r['equivalence']} / {r['ms']:.0f}{cpu}"


# What every repetition of a learner on a target must give alike.
COUNT_KEYS = ("membership", "symbols", "equivalence", "hypothesis_states")


def summarise(runs):
    """One result from the repetitions of one learner on one target: the first run's counts,
    and for each time the median over the runs that finished (`cpu_ms_min` the least CPU time,
    `learn_cpu_ms` the median CPU time without the equivalence oracle's); `runs` keeps every
    run's times, `timeouts` the runs stopped by the time limit. None when no run finished."""
    done = [r for r in runs if r is not None]
    if not done:
        return None
    first = dict(done[0])
    varying = [k for k in COUNT_KEYS if any(r.get(k) != first.get(k) for r in done)]
    if varying:
        print(f"  warning: {', '.join(varying)} differ between repetitions; the first run's are kept", file=sys.stderr)
        first["counts_vary"] = [{k: r.get(k) for k in COUNT_KEYS} for r in done]
    first["runs"] = [{k: r[k] for k in ("ms", "cpu_ms", "eq_cpu_ms") if k in r} for r in done]
    first["timeouts"] = len(runs) - len(done)
    first["ms"] = statistics.median(r["ms"] for r in done)
    if all("cpu_ms" in r for r in done):
        first["cpu_ms"] = statistics.median(r["cpu_ms"] for r in done)
        first["cpu_ms_min"] = min(r["cpu_ms"] for r in done)
    if all("cpu_ms" in r and "eq_cpu_ms" in r for r in done):
        first["eq_cpu_ms"] = statistics.median(r["eq_cpu_ms"] for r in done)
        first["learn_cpu_ms"] = statistics.median(r["cpu_ms"] - r["eq_cpu_ms"] for r in done)
        first["learn_cpu_ms_min"] = min(r["cpu_ms"] - r["eq_cpu_ms"] for r in done)
    return first


def goals(r, a):
    """Issue 15's goals for one subst learner's result `r`: MQ against the best AALpy learner,
    EQ against AALpy's L*, time against AALpy's fastest: wall, CPU, and CPU without the
    equivalence oracle's (NaN where a side has no result). Times are medians over repetitions."""
    done = [x for x in a.values() if isinstance(x, dict)]
    nan = float("nan")
    if not isinstance(r, dict):
        return nan, nan, nan, nan, nan
    mq = ratio(r["membership"], min(x["membership"] for x in done)) if done else nan
    eq = ratio(r["equivalence"], a["lstar"]["equivalence"]) if isinstance(a.get("lstar"), dict) else nan
    ms = ratio(r["ms"], min(x["ms"] for x in done)) if done else nan
    cpu_done = [x["cpu_ms"] for x in done if "cpu_ms" in x]
    cpu = ratio(r["cpu_ms"], min(cpu_done)) if cpu_done and "cpu_ms" in r else nan
    learn_done = [x["learn_cpu_ms"] for x in done if "learn_cpu_ms" in x]
    learn = ratio(r["learn_cpu_ms"], min(learn_done)) if learn_done and "learn_cpu_ms" in r else nan
    return mq, eq, ms, cpu, learn


def table(rows):
    """One line per target: MQ / symbols / EQ / ms of every learner, then the goals of issue 15 for
    subst's L# (default separation) and L# with the ADS rule: MQ against the best AALpy
    learner, EQ against AALpy's L*, time against AALpy's fastest (wall clock, CPU time, and CPU
    time without the equivalence oracle's, each against the fastest AALpy learner by that
    measure)."""
    head = (
        "| target | states | letters | subst L* | subst L# | subst L# ADS | AALpy L* | AALpy KV | AALpy L# "
        "| L# MQ / best AALpy MQ | L# EQ / AALpy L* EQ | L# ms / fastest AALpy ms | L# cpu / fastest AALpy cpu "
        "| L# cpu−EQ / fastest AALpy cpu−EQ "
        "| ADS MQ / best AALpy MQ | ADS EQ / AALpy L* EQ | ADS ms / fastest AALpy ms | ADS cpu / fastest AALpy cpu "
        "| ADS cpu−EQ / fastest AALpy cpu−EQ |"
    )
    lines = [head, "|" + "---|" * 19]
    for r in rows:
        s, a = r["subst"], r["aalpy"]
        sharp, ads = goals(s["lsharp"], a), goals(s["lsharp-ads"], a)
        lines.append(
            f"| {r['name']} | {r['states']} | {r['letters']} | {cell(s['lstar'])} | {cell(s['lsharp'])} "
            f"| {cell(s['lsharp-ads'])} | {cell(a.get('lstar'))} | {cell(a.get('kv'))} | {cell(a.get('lsharp'))} "
            f"| {sharp[0]:.3f} | {sharp[1]:.3f} | {sharp[2]:.4f} | {sharp[3]:.4f} | {sharp[4]:.4f} "
            f"| {ads[0]:.3f} | {ads[1]:.3f} | {ads[2]:.4f} | {ads[3]:.4f} | {ads[4]:.4f} |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--one", help="learn one target file with AALpy and print its counts (internal)")
    parser.add_argument("--algorithm", default="lstar", choices=AALPY_ALGORITHMS, help="with --one")
    parser.add_argument("--targets", default=str(ROOT / "target" / "learning-targets"), help="target directory")
    parser.add_argument(
        "--learnlib", default="/work/shared/benchmarks/learnlib", help="folder of LearnLib .dfa.gz files"
    )
    parser.add_argument("--sets", default="learnlib,random", help="comma separated: learnlib, random, fsp")
    parser.add_argument("--only", default="", help="only targets whose name contains one of these (comma separated)")
    parser.add_argument(
        "--aalpy-learners",
        default=",".join(AALPY_ALGORITHMS),
        help="comma separated subset of lstar,kv,lsharp (a learner left out shows `not run`)",
    )
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per run (either side)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of every learner on every target, both sides alike, interleaved (subst's learners, then "
        "AALpy's, per round); times are the medians, `min` the least CPU time; a run that times out is not "
        "repeated",
    )
    parser.add_argument("--out", default=str(ROOT / "target" / "learning-results.json"), help="results file")
    parser.add_argument(
        "--subst-learners",
        default=",".join(SUBST_LEARNERS),
        help="comma separated subset of lstar,lsharp,lsharp-ads (a learner left out shows `not run`)",
    )
    args = parser.parse_args()

    if args.one:
        print(json.dumps(learn_aalpy(args.one, args.algorithm)))
        return

    sets = args.sets.split(",")
    targets = Path(args.targets)
    print(f"generating targets into {targets}", file=sys.stderr)
    cargo_learning("gen", str(targets), str(ROOT / "specs"))
    # subst reads the LearnLib files as they are; AALpy reads the same language as JSON.
    subst_files, aalpy_files = {}, {}
    if "learnlib" in sets:
        for p in sorted(Path(args.learnlib).glob("*.dfa*")):
            t = learnlib_target(p)
            out = targets / f"{t['name']}.json"
            out.write_text(json.dumps(t) + "\n")
            subst_files[t["name"]], aalpy_files[t["name"]] = p, out
    for p in targets.glob("*.json"):
        kind = "random" if p.stem.startswith("random-") else "fsp" if p.stem.startswith("fsp-") else None
        if kind in sets:
            subst_files[p.stem], aalpy_files[p.stem] = p, p
    only = args.only.split(",")
    names = sorted((n for n in subst_files if any(o in n for o in only)), key=order_key)
    if args.repeat < 1:
        raise SystemExit("--repeat needs at least 1")
    print(f"learning {len(names)} targets, {args.repeat} round(s) per target", file=sys.stderr)
    binary = learning_binary()
    subst_learners = [x for x in SUBST_LEARNERS if x in args.subst_learners.split(",")]
    aalpy_learners = [x for x in AALPY_ALGORITHMS if x in args.aalpy_learners.split(",")]
    rows = []
    for n in names:
        # Every round runs each learner of both sides once, so that a change of load between
        # rounds meets both sides alike.
        runs = {("subst", x): [] for x in subst_learners} | {("aalpy", x): [] for x in aalpy_learners}
        for round_ in range(args.repeat):
            for (side, learner), done in runs.items():
                if done and done[0] is None:
                    continue  # timed out in the first round: not repeated
                print(f"learning {n} with {side} {learner} (round {round_ + 1})", file=sys.stderr)
                if side == "subst":
                    r = run_subst_isolated(binary, subst_files[n], learner, args.time_limit)
                else:
                    r = run_aalpy_isolated(aalpy_files[n], learner, args.time_limit)
                print(f"  {cell(r)}", file=sys.stderr)
                done.append(r)
        s = {x: summarise(runs[("subst", x)]) if x in subst_learners else NOT_RUN for x in SUBST_LEARNERS}
        aalpy = {x: summarise(runs[("aalpy", x)]) if x in aalpy_learners else NOT_RUN for x in AALPY_ALGORITHMS}
        shape = next((r for r in (s["lsharp"], s["lsharp-ads"], s["lstar"]) if isinstance(r, dict)), None)
        if shape is None:
            continue
        rows.append({"name": n, "states": shape["states"], "letters": shape["letters"], "subst": s, "aalpy": aalpy})
    from importlib.metadata import version

    with open(args.out, "w") as f:
        json.dump({"aalpy_version": version("aalpy"), "repeat": args.repeat, "rows": rows}, f, indent=1)
    print(table(rows))
    print(f"\nAALpy {version('aalpy')}; every number is in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
