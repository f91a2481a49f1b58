#!/usr/bin/env python3
"""How `subst verify` and `subst check` grow with the length of their input.

Generates families of C programs of growing size N, runs one or more subst binaries on each
(side by side, one after the other, per size) under `/usr/bin/time -v` and `timeout`, and prints
the wall time, the peak RSS and the exit code per run, then the growth exponent per family and
binary: the slope of log(time) against log(N) between consecutive sizes and over all sizes
(least squares). An exponent near 1 is linear, near 2 quadratic. Sizes whose run takes under
MIN_FIT_S are left out of the fit (process start and Z3's set-up dominate them).

The generated C goes to --out (default target/scale/), never into the tree. Every program of a
family has a known answer (the `expect` column), and a run whose exit code differs from it is
marked as such.

Families (`subst verify`, `main` against `reach_error`, unless said otherwise):
  locals    N locals in straight-line code, each one more than the one before
  stmts     N assignments to two variables
  calls     a chain of N functions, each calling the next
  switch    a switch of N cases on an input
  globals   N initialised globals written in straight-line code
  loop      a loop of N iterations, each reading an input; the error needs all of them
  check     `subst check`: one component of N statements in its old and new versions

Usage: scale.py [--bin NAME=PATH]... [--families a,b] [--sizes 1000,2000,4000,8000]
                [--timeout 60] [--out DIR] [--json FILE]
A binary that times out at one size is not run on the larger sizes of that family.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MIN_FIT_S = 0.3

HEAD = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n"


def gen_locals(n):
    body = ["  int x0 = __VERIFIER_nondet_int();"]
    body += [f"  int x{i} = x{i - 1} + 1;" for i in range(1, n)]
    body.append(f"  if (x{n - 1} - x0 != {n - 1}) reach_error();")
    return HEAD + "int main(void) {\n" + "\n".join(body) + "\n  return 0;\n}\n"


def gen_stmts(n):
    body = ["  int x = __VERIFIER_nondet_int();", "  int a = x, b = x;"]
    for i in range(n):
        body.append(f"  a = a + {i % 7 + 1};" if i % 2 == 0 else f"  b = b - {(i - 1) % 7 + 1};")
    body.append("  if (a + b != 2 * x) reach_error();")
    return HEAD + "int main(void) {\n" + "\n".join(body) + "\n  return 0;\n}\n"


def gen_calls(n):
    fns = [f"int f{n}(int x) {{ return x; }}"]
    fns += [f"int f{i}(int x) {{ return f{i + 1}(x) + 1; }}" for i in range(n - 1, -1, -1)]
    main = (
        "int main(void) {\n  int x = __VERIFIER_nondet_int();\n"
        f"  if (f0(x) - x != {n}) reach_error();\n  return 0;\n}}\n"
    )
    return HEAD + "\n".join(fns) + "\n" + main


def gen_switch(n):
    cases = [f"  case {i}: y = {2 * i}; break;" for i in range(n)]
    return (
        HEAD
        + "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y;\n  switch (x) {\n"
        + "\n".join(cases)
        + "\n  default: y = 2 * x;\n  }\n  if (y != 2 * x) reach_error();\n  return 0;\n}\n"
    )


def gen_globals(n):
    decls = [f"int g{i} = {i};" for i in range(n)]
    body = ["  int x = __VERIFIER_nondet_int();", "  g0 = x;"]
    body += [f"  g{i} = g{i - 1} + 1;" for i in range(1, n)]
    body.append(f"  if (g{n - 1} - g0 != {n - 1}) reach_error();")
    return HEAD + "\n".join(decls) + "\nint main(void) {\n" + "\n".join(body) + "\n  return 0;\n}\n"


def gen_loop(n):
    return (
        HEAD
        + "int main(void) {\n  int s = 0;\n"
        + f"  for (int i = 0; i < {n}; i++) {{\n    if (__VERIFIER_nondet_int()) s++;\n  }}\n"
        + f"  if (s == {n}) reach_error();\n  return 0;\n}}\n"
    )


def gen_check_version(n, new):
    # Both versions send back the value received; old adds 1 n times and takes n off, new adds
    # 2 and takes 1 away n / 2 times and takes n / 2 off. Same traces, different code.
    body = ["  int x = arg();", "  assume(0 <= x && x <= 3);", "  int a = x;"]
    if new:
        for i in range(n):
            body.append("  a = a + 2;" if i % 2 == 0 else "  a = a - 1;")
        body.append(f"  out(a - {n // 2});")
    else:
        body += ["  a = a + 1;"] * n
        body.append(f"  out(a - {n});")
    head = "// Components: comp\n" + ("// check: contained\n" if new else "")
    return head + "int arg(void);\nvoid out(int v);\nvoid assume(int c);\n\nvoid comp(void) {\n" + "\n".join(
        body
    ) + "\n}\n"


VERIFY = {
    "locals": (gen_locals, 0),
    "stmts": (gen_stmts, 0),
    "calls": (gen_calls, 0),
    "switch": (gen_switch, 0),
    "globals": (gen_globals, 0),
    "loop": (gen_loop, 1),
}
FAMILIES = list(VERIFY) + ["check"]


def write(out, family, n):
    """Writes the input of `family` at size `n`; returns the subst arguments and the expected exit code."""
    if family == "check":
        d = os.path.join(out, f"check-{n}")
        for side in ("old", "new"):
            os.makedirs(os.path.join(d, side), exist_ok=True)
            with open(os.path.join(d, side, "s.c"), "w") as f:
                f.write(gen_check_version(n if n % 2 == 0 else n + 1, side == "new"))
        with open(os.path.join(d, "s.lts"), "w") as f:
            f.write("event arg[0..3]\nevent out[0..3]\n")
        return ["check", os.path.join(d, "old", "s.c"), os.path.join(d, "new", "s.c")], 0
    gen, expect = VERIFY[family]
    path = os.path.join(out, f"{family}-{n}.c")
    with open(path, "w") as f:
        f.write(gen(n))
    return ["verify", path], expect


def run(binary, args, timeout, cwd):
    cmd = ["/usr/bin/time", "-v", "timeout", str(timeout), binary] + args + ["--no-cache"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", cwd=cwd)
    err = p.stderr
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", err)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    secs = None
    if wall:
        parts = [float(x) for x in wall.group(1).split(":")]
        secs = sum(v * 60**i for i, v in enumerate(reversed(parts)))
    return {
        "code": p.returncode,
        "timeout": p.returncode == 124,
        "s": secs,
        "rss_mb": int(rss.group(1)) / 1024 if rss else None,
    }


def slope(points):
    pts = [(math.log(n), math.log(s)) for n, s in points if s is not None and s >= MIN_FIT_S]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", action="append", default=[], help="NAME=PATH (default: target/release/subst)")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--sizes", default="1000,2000,4000,8000")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "scale"))
    ap.add_argument("--json", help="also write every run as JSON to this file")
    a = ap.parse_args()
    bins = [b.split("=", 1) for b in a.bin] or [["subst", os.path.join(ROOT, "target", "release", "subst")]]
    families = [f for f in a.families.split(",") if f]
    for f in families:
        if f not in FAMILIES:
            sys.exit(f"unknown family {f}; known: {', '.join(FAMILIES)}")
    sizes = [int(s) for s in a.sizes.split(",")]
    os.makedirs(a.out, exist_ok=True)
    # Runs happen inside `a.out`, so that a spec search or a cache never reads the tree.
    rows = []
    print("| family | N | " + " | ".join(f"{name} s | {name} MB | {name} exit" for name, _ in bins) + " | expect |")
    print("|---|---:|" + "---:|---:|---|" * len(bins) + "---|")
    for fam in families:
        gave_up = set()
        for n in sizes:
            args, expect = write(a.out, fam, n)
            cells = []
            for name, path in bins:
                if name in gave_up:
                    cells.append("| | ")
                    continue
                r = run(os.path.abspath(path), args, a.timeout, a.out)
                r.update(family=fam, n=n, bin=name, expect=expect)
                rows.append(r)
                if r["timeout"]:
                    gave_up.add(name)
                    cells.append(f"> {a.timeout} | {r['rss_mb']:.0f} | timeout")
                else:
                    mark = "" if r["code"] == expect else " (!)"
                    cells.append(f"{r['s']:.2f} | {r['rss_mb']:.0f} | {r['code']}{mark}")
            print(f"| {fam} | {n} | " + " | ".join(cells) + f" | {expect} |", flush=True)
    print()
    print("| family | " + " | ".join(f"{name} exponent (pairs; fit)" for name, _ in bins) + " |")
    print("|---|" + "---|" * len(bins))
    for fam in families:
        cells = []
        for name, _ in bins:
            pts = [(r["n"], r["s"]) for r in rows if r["family"] == fam and r["bin"] == name and not r["timeout"]]
            pairs = [
                f"{math.log(s2 / s1) / math.log(n2 / n1):.2f}"
                for (n1, s1), (n2, s2) in zip(pts, pts[1:])
                if s1 and s2 and s1 >= MIN_FIT_S
            ]
            fit = slope(pts)
            cells.append(f"{', '.join(pairs) or '-'}; {'-' if fit is None else f'{fit:.2f}'}")
        print(f"| {fam} | " + " | ".join(cells) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
