#!/usr/bin/env python3
"""Times libmata's antichain inclusion check on one pair of `.mata` files; the peer side of
benches/inclusion.rs. Run by benches/run.py inside the virtualenv of benches/setup.sh.

Usage: mata_check.py A.mata B.mata

Prints `loaded` once the files are read (the driver's clock starts there), then one line,
`inclusion verdict=included|not-included ms=<best> runs=<n> [cex=a,b,...]`. The check runs
once, and twice more while the runs so far took under two seconds, so fast cases report the best
of three and slow ones a single run. Reading the files is not timed.
"""

import sys
import time

import libmata.alphabets as alphabets
import libmata.nfa.nfa as mata_nfa
import libmata.parser as parser

REPEAT_BUDGET_S = 2.0


def main():
    a_path, b_path = sys.argv[1], sys.argv[2]
    alphabet = alphabets.OnTheFlyAlphabet()
    a, b = parser.from_mata([a_path, b_path], alphabet)
    print("loaded", flush=True)
    times = []
    while True:
        start = time.perf_counter()
        included, run = mata_nfa.is_included_with_cex(a, b, alphabet, {"algorithm": "antichains"})
        times.append(time.perf_counter() - start)
        if len(times) == 3 or sum(times) >= REPEAT_BUDGET_S:
            break
    line = f"inclusion verdict={'included' if included else 'not-included'} ms={min(times) * 1000:.3f} runs={len(times)}"
    if not included:
        line += " cex=" + ",".join(alphabet.reverse_translate_symbol(s) for s in run.word)
    print(line, flush=True)


if __name__ == "__main__":
    main()
