#!/usr/bin/env python3
"""Random pairs of automata for the inclusion benchmark, in libmata's `.mata` text format.

Each automaton follows the Tabakov–Vardi model (Tabakov and Vardi, "Experimental evaluation of
classical automata constructions", LPAR 2005): n states, state 0 initial, for each letter
round(r * n) distinct transitions drawn uniformly from the n * n possible ones (transition density
r), and round(f * n) accepting states drawn uniformly (acceptance density f).

A pair (A, B) asks whether L(A) ⊆ L(B). B is a Tabakov–Vardi automaton; A is built from it so the
answer is known before any tool runs:

- included: A is B with a random 20% of its transitions dropped and a random 20% of its accepting
  states made rejecting. Every accepting run of A is one of B, so L(A) ⊆ L(B).
- not included: the same, plus a few transitions and accepting states that B lacks, redrawn
  until a bounded search finds a word of L(A) \\ L(B) (piling up after thirty tries, and with a
  new B after fifty); that word is stored as the witness.

A's states are renamed by a random permutation so that no tool can gain from A and B sharing
state names. Everything is seeded: the same arguments give the same files byte for byte.

Usage: gen.py [--out DIR] [--seed S] [--sizes 100,300,...] [--pairs K]
Writes DIR/<size>-<kind>-<i>.a.mata, .b.mata and DIR/manifest.json.
"""

import argparse
import json
import os
import random
from collections import deque

ACCEPTANCE_DENSITY = 0.5
DROP_TRANSITIONS = 0.2
DROP_FINALS = 0.2
LETTERS = "abcd"


class Nfa:
    """An explicit automaton over states 0..n-1 with a single initial state 0."""

    def __init__(self, n, letters, trans, finals):
        self.n = n
        self.letters = letters
        self.trans = trans  # sorted list of (source, letter, target)
        self.finals = finals  # set of states

    def successors(self):
        succ = [dict() for _ in range(self.n)]
        for p, a, q in self.trans:
            succ[p].setdefault(a, []).append(q)
        return succ


def tabakov_vardi(rng, n, k, r):
    letters = LETTERS[:k]
    per_letter = min(n * n, max(1, round(r * n)))
    trans = []
    for a in letters:
        for pq in rng.sample(range(n * n), per_letter):
            trans.append((pq // n, a, pq % n))
    trans.sort()
    finals = set(rng.sample(range(n), round(ACCEPTANCE_DENSITY * n)))
    return Nfa(n, letters, trans, finals)


def sub_automaton(rng, b):
    """B with some transitions and accepting states removed: its language is a subset of B's."""
    trans = [t for t in b.trans if rng.random() >= DROP_TRANSITIONS]
    finals = {q for q in sorted(b.finals) if rng.random() >= DROP_FINALS}
    return Nfa(b.n, b.letters, trans, finals)


def with_extras(rng, a, b):
    """A copy of `a` with transitions and accepting states that `b` lacks. The initial state's
    acceptance is left as in `b`, so the empty word is never the difference."""
    have = set(b.trans)
    extra_trans = set()
    want = max(2, a.n // 50)
    while len(extra_trans) < want:
        t = (rng.randrange(a.n), rng.choice(a.letters), rng.randrange(a.n))
        if t not in have:
            extra_trans.add(t)
    non_final = [q for q in range(1, a.n) if q not in b.finals]
    extra_finals = set(rng.sample(non_final, min(len(non_final), max(1, a.n // 100))))
    return Nfa(a.n, a.letters, sorted(set(a.trans) | extra_trans), a.finals | extra_finals)


def find_witness(a, b, max_set=32, max_depth=40, max_pairs=200_000):
    """A word of L(a) \\ L(b), both automata starting in state 0, or None.

    Breadth-first over pairs (state of a, set of states of b) reached by the same word. Pairs
    whose set grows beyond `max_set` are dropped: the search may miss witnesses, but every word
    it returns is one (the caller checks it again with `accepts`)."""
    sa, sb = a.successors(), b.successors()
    start = (0, frozenset([0]))
    parent = {start: None}
    queue = deque([(start, 0)])
    while queue and len(parent) < max_pairs:
        (q, s), depth = queue.popleft()
        if q in a.finals and not (s & b.finals):
            word = []
            node = (q, s)
            while parent[node] is not None:
                node, letter = parent[node]
                word.append(letter)
            return word[::-1]
        if depth == max_depth:
            continue
        for letter, targets in sa[q].items():
            nxt = frozenset(t for p in s for t in sb[p].get(letter, ()))
            if len(nxt) > max_set:
                continue
            for t in targets:
                node = (t, nxt)
                if node not in parent:
                    parent[node] = ((q, s), letter)
                    queue.append((node, depth + 1))
    return None


def accepts(nfa, word):
    succ = nfa.successors()
    current = {0}
    for letter in word:
        current = {t for p in current for t in succ[p].get(letter, ())}
    return bool(current & nfa.finals)


def write_mata(path, nfa, names):
    """Writes `nfa` with state i named `names[i]`."""
    lines = ["@NFA-explicit", "%Alphabet-auto", f"%Initial {names[0]}"]
    lines.append("%Final " + " ".join(names[q] for q in sorted(nfa.finals)))
    lines.extend(f"{names[p]} {a} {names[q]}" for p, a, q in nfa.trans)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def not_included(rng, a, b):
    """(A with extras, witness), or None when fifty tries find no witness."""
    candidate = a
    for attempt in range(50):
        # Small automata may need more than one round of extras: after thirty fresh draws the
        # extras pile up.
        candidate = with_extras(rng, a if attempt < 30 else candidate, b)
        witness = find_witness(candidate, b)
        if witness is not None:
            assert accepts(candidate, witness) and not accepts(b, witness)
            return candidate, witness
    return None


def make_pair(seed, n, kind, index):
    rng = random.Random(f"{seed}/{n}/{kind}/{index}")
    k = rng.choice([2, 3, 4])
    r = round(rng.uniform(1.25, 2.0), 2)
    while True:
        b = tabakov_vardi(rng, n, k, r)
        a = sub_automaton(rng, b)
        if kind == "included":
            witness = None
            break
        witness = not_included(rng, a, b)
        if witness is not None:
            a, witness = witness
            break
        # B is close to universal: draw another one.
    # A's names: state 0 keeps q0 (it is the initial state), the rest are shuffled.
    perm = list(range(1, n))
    rng.shuffle(perm)
    a_names = ["q0"] + [f"q{i}" for i in perm]
    b_names = [f"q{i}" for i in range(n)]
    return a, b, a_names, b_names, k, r, witness


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "target", "bench-data"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="100,300,1000,3000,10000")
    parser.add_argument("--pairs", type=int, default=2, help="pairs of each kind per size")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    cases = []
    for n in [int(s) for s in args.sizes.split(",")]:
        for kind in ["included", "not-included"]:
            for i in range(args.pairs):
                a, b, a_names, b_names, k, r, witness = make_pair(args.seed, n, kind, i)
                name = f"{n}-{kind}-{i}"
                a_path = os.path.join(out, name + ".a.mata")
                b_path = os.path.join(out, name + ".b.mata")
                write_mata(a_path, a, a_names)
                write_mata(b_path, b, b_names)
                cases.append(
                    {
                        "name": name,
                        "states": n,
                        "letters": k,
                        "density": r,
                        "included": kind == "included",
                        "a": a_path,
                        "b": b_path,
                        "a_transitions": len(a.trans),
                        "b_transitions": len(b.trans),
                        "witness": witness,
                    }
                )
                note = f" witness of length {len(witness)}" if witness is not None else ""
                print(f"gen: {name}: {k} letters, density {r}, {len(a.trans)}/{len(b.trans)} transitions{note}")
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"seed": args.seed, "cases": cases}, f, indent=1)
    print(f"gen: {len(cases)} pairs in {out}")


if __name__ == "__main__":
    main()
