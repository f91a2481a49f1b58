#!/usr/bin/env python3
"""Membership and equivalence queries of subst's L* against AALpy's L* on the same targets.

Run it through benches/learning_vs_aalpy.sh, which prepares the virtualenv with AALpy first.
Steps:

1. `cargo bench --bench learning -- gen DIR` writes the targets (random prefix-closed DFAs and
   the weakest assumptions of the checks in specs/) as JSON files; see benches/learning.rs for
   the format.
2. `cargo bench --bench learning -- run FILE...` learns each with subst and prints its counts.
3. This script learns each with AALpy's `run_Lstar(automaton_type='dfa', cex_processing='rs',
   cache_and_non_det_check=True)`, one process per target under a time limit, with the same
   exact equivalence oracle as the subst side.
4. It prints one table (Markdown) with the counts of both and the ratios subst/AALpy, and
   writes every number to target/learning-results.json.

What is counted (see benches/LEARNING.md):
- AALpy membership queries: queries that reach the system under learning, i.e. the calls of
  `query` on the wrapped SUL, after AALpy's cache tree (CacheSUL) has answered what it can.
- subst membership queries: `Stats::membership`, the queries that reach the teacher after the
  learner's cache and its prefix-closure shortcut. The table also shows `membership +
  shortcut`: what subst would have asked without the shortcut (the answers, and so the run,
  are the same either way), since AALpy is not told that the targets are prefix-closed.
- Equivalence queries: hypotheses submitted to the equivalence oracle, by both.
"""

import argparse
import json
import math
import subprocess
import sys
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


def learn_aalpy(path):
    """Learns one target with AALpy's L*; returns the counts."""
    from aalpy.base import SUL, Oracle
    from aalpy.learning_algs import run_Lstar

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

        def find_cex(self, hypothesis):
            self.equivalence_queries += 1
            return shortest_difference(target, hypothesis)

    sul = TargetSUL()
    oracle = ExactOracle(list(target["alphabet"]), sul)
    start = time.perf_counter()
    hypothesis, info = run_Lstar(
        list(target["alphabet"]),
        sul,
        oracle,
        automaton_type="dfa",
        cex_processing="rs",
        cache_and_non_det_check=True,
        return_data=True,
        print_level=0,
    )
    seconds = time.perf_counter() - start
    if shortest_difference(target, hypothesis) is not None:
        raise SystemExit(f"{target['name']}: AALpy's final hypothesis differs from the target")
    return {
        "membership": sul.num_queries,
        "equivalence": oracle.equivalence_queries,
        "cache_saved": info.get("cache_saved"),
        "hypothesis_states": len(hypothesis.states),
        "ms": seconds * 1000.0,
    }


# ---------------------------------------------------------------------------------------------
# The driver.


def cargo_learning(*args):
    """Runs the subst bench binary through cargo and returns its standard output."""
    cmd = ["cargo", "bench", "--quiet", "--bench", "learning", "--", *args]
    return subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout


def run_aalpy_isolated(path, time_limit):
    """AALpy on one target in its own process, so that a slow target can be stopped."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", str(path)]
    try:
        done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def ratio(a, b):
    return a / b if b else float("nan")


def order_key(name):
    # Random targets by size, then the FSP weakest assumptions by name.
    if name.startswith("random-n"):
        n = int(name[len("random-n") :].split("-")[0])
        return (0, n, name)
    return (1, 0, name)


def table(rows):
    head = (
        "| target | states | letters | MQ subst | MQ AALpy | MQ subst/AALpy "
        "| MQ subst w/o shortcut | w/o shortcut/AALpy "
        "| EQ subst | EQ AALpy | EQ subst/AALpy | ms subst | ms AALpy |"
    )
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        a = r["aalpy"]
        s = r["subst"]
        plain = s["membership"] + s["shortcut"]
        if a is None:
            lines.append(
                f"| {r['name']} | {r['states']} | {r['letters']} | {s['membership']} | timeout | - "
                f"| {plain} | - | {s['equivalence']} | timeout | - | {s['ms']:.0f} | - |"
            )
            continue
        lines.append(
            f"| {r['name']} | {r['states']} | {r['letters']} | {s['membership']} | {a['membership']} "
            f"| {ratio(s['membership'], a['membership']):.3f} | {plain} | {ratio(plain, a['membership']):.3f} "
            f"| {s['equivalence']} | {a['equivalence']} "
            f"| {ratio(s['equivalence'], a['equivalence']):.3f} | {s['ms']:.0f} | {a['ms']:.0f} |"
        )
    return "\n".join(lines)


def summary(rows):
    out = []
    for label, pick in [
        ("random", lambda r: r["name"].startswith("random-")),
        ("weakest assumptions", lambda r: r["name"].startswith("fsp-")),
        ("all", lambda r: True),
    ]:
        done = [r for r in rows if pick(r) and r["aalpy"] is not None]
        if not done:
            continue
        mq = [ratio(r["subst"]["membership"], r["aalpy"]["membership"]) for r in done]
        plain = [
            ratio(r["subst"]["membership"] + r["subst"]["shortcut"], r["aalpy"]["membership"]) for r in done
        ]
        eq = [ratio(r["subst"]["equivalence"], r["aalpy"]["equivalence"]) for r in done]
        worse = sum(1 for x in mq if x > 1)

        def geo(xs):
            return math.exp(sum(math.log(x) for x in xs) / len(xs))

        out.append(
            f"{label}: {len(done)} targets; MQ subst/AALpy geometric mean {geo(mq):.3f}, "
            f"max {max(mq):.3f} (without the shortcut: geometric mean {geo(plain):.3f}, "
            f"max {max(plain):.3f}); EQ subst/AALpy geometric mean {geo(eq):.3f}, max {max(eq):.3f}; "
            f"targets where subst asks more membership queries: {worse}"
        )
    timeouts = [r["name"] for r in rows if r["aalpy"] is None]
    if timeouts:
        out.append(f"AALpy timed out on: {', '.join(timeouts)}")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--one", help="learn one target file with AALpy and print its counts (internal)")
    parser.add_argument("--targets", default=str(ROOT / "target" / "learning-targets"), help="target directory")
    parser.add_argument("--only", default="", help="only targets whose name contains this")
    parser.add_argument("--time-limit", type=float, default=3600.0, help="seconds per AALpy run")
    parser.add_argument("--out", default=str(ROOT / "target" / "learning-results.json"), help="results file")
    args = parser.parse_args()

    if args.one:
        print(json.dumps(learn_aalpy(args.one)))
        return

    targets = Path(args.targets)
    print(f"generating targets into {targets}", file=sys.stderr)
    cargo_learning("gen", str(targets), str(ROOT / "specs"))
    files = sorted(
        (p for p in targets.glob("*.json") if args.only in p.stem), key=lambda p: order_key(p.stem)
    )
    print(f"learning {len(files)} targets with subst", file=sys.stderr)
    subst = {}
    for line in cargo_learning("run", *map(str, files)).splitlines():
        r = json.loads(line)
        subst[r["name"]] = r
    rows = []
    for p in files:
        s = subst[p.stem]
        print(f"learning {p.stem} with AALpy", file=sys.stderr)
        rows.append(
            {
                "name": p.stem,
                "states": s["states"],
                "letters": s["letters"],
                "subst": s,
                "aalpy": run_aalpy_isolated(p, args.time_limit),
            }
        )
    import aalpy  # noqa: F401  (its version goes into the results)
    from importlib.metadata import version

    with open(args.out, "w") as f:
        json.dump({"aalpy_version": version("aalpy"), "rows": rows}, f, indent=1)
    print(table(rows))
    print()
    print(summary(rows))
    print(f"\nAALpy {version('aalpy')}; every number is in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
