#!/usr/bin/env python3
"""The inclusion comparison: subst against libmata on the same random automata, in one run.

Generates the pairs (benches/gen.py), builds the Rust bench (benches/inclusion.rs), then for each
pair runs subst and libmata (benches/mata_check.py) one after the other, each in its own process
under the same time and memory limits, and prints a line per case and two Markdown tables: one
row per case, and one per size with the time ratio subst / libmata. Run through benches/run.sh,
which prepares the virtualenv first.

A ratio is measured only where both tools finished; where one of them ran out of time it is a
bound (`< x` when only subst finished, `> x` when only libmata did). Verdicts are compared with
each other and with the answer known by construction; any difference is printed as DISAGREE and
makes the run exit non-zero.
"""

import argparse
import json
import math
import os
import platform
import queue
import resource
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV_PYTHON = os.path.join(ROOT, "target", "bench-venv", "bin", "python")
# Reading a 10,000-state pair takes libmata about two seconds; the check itself gets the time
# limit, plus the two seconds in which the tools repeat fast checks.
LOAD_LIMIT_S = 60
REPEAT_MARGIN_S = 3


def build_subst():
    cmd = ["cargo", "bench", "--bench", "inclusion", "--no-run", "--message-format=json-render-diagnostics"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "inclusion" and msg["executable"]:
            return msg["executable"]
    raise SystemExit("run: cargo built no `inclusion` bench")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def limit_memory(gib):
    def apply():
        limit = int(gib * 1024**3)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_tool(cmd, time_limit, memory_gib):
    """Runs one check; returns a dict with status (ok, timeout, memory, error), verdict, ms.

    The clock starts when the tool prints `loaded`, after reading the files; from then on it
    gets the time limit plus the repeats' budget, and is killed after that."""
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit_memory(memory_gib)
    )
    lines = queue.Queue()
    stderr = []

    def read_stdout():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read_stdout, daemon=True).start()
    threading.Thread(target=lambda: stderr.extend(proc.stderr), daemon=True).start()
    deadline = time.monotonic() + LOAD_LIMIT_S
    fields = {}
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            proc.kill()
            proc.wait()
            return {"status": "timeout"}
        if line is None:
            break
        if line.startswith("loaded"):
            deadline = time.monotonic() + time_limit + REPEAT_MARGIN_S
        elif line.startswith("inclusion "):
            fields = dict(word.split("=", 1) for word in line.split()[1:])
    proc.wait()
    err = "".join(stderr)
    if proc.returncode != 0 or "verdict" not in fields:
        last = err.strip().splitlines()
        text = last[-1] if last else f"exit code {proc.returncode}"
        memory = any(s in err for s in ("memory allocation", "bad_alloc", "MemoryError"))
        return {"status": "memory" if memory else "error", "detail": text}
    ms = float(fields["ms"])
    if ms > time_limit * 1000:
        return {"status": "timeout"}
    return {"status": "ok", "verdict": fields["verdict"], "ms": ms, "runs": int(fields["runs"]), "cex": fields.get("cex")}


def show_ms(result, time_limit):
    if result["status"] == "ok":
        return f"{result['ms']:.3f}" if result["ms"] < 1 else f"{result['ms']:.1f}"
    if result["status"] == "timeout":
        return f"> {time_limit * 1000:.0f} (timeout)"
    return result["status"]


def ratio_of(subst, mata, time_limit):
    """(text, value or None); the value only when both finished."""
    s_ok, m_ok = subst["status"] == "ok", mata["status"] == "ok"
    if s_ok and m_ok:
        r = max(subst["ms"], 1e-3) / max(mata["ms"], 1e-3)
        return f"{r:.3g}", r
    if s_ok and mata["status"] == "timeout":
        return f"< {max(subst['ms'], 1e-3) / (time_limit * 1000):.2g}", None
    if m_ok and subst["status"] == "timeout":
        return f"> {time_limit * 1000 / max(mata['ms'], 1e-3):.3g}", None
    return "-", None


def agreement(case, subst, mata):
    expected = "included" if case["included"] else "not-included"
    verdicts = {name: r["verdict"] for name, r in (("subst", subst), ("libmata", mata)) if r["status"] == "ok"}
    wrong = [name for name, v in verdicts.items() if v != expected]
    if wrong:
        return "DISAGREE (" + ", ".join(f"{n} says {verdicts[n]}" for n in wrong) + f"; expected {expected})"
    if len(verdicts) == 2:
        return "yes"
    if verdicts:
        return f"{next(iter(verdicts))} alone finished, right"
    return "-"


def print_tables(rows, time_limit):
    print("| size | included | letters | density | subst ms | libmata ms | subst / libmata | verdicts agree |")
    print("|---:|:---:|---:|---:|---:|---:|---:|:---|")
    for row in rows:
        c = row["case"]
        print(
            f"| {c['states']} | {'yes' if c['included'] else 'no'} | {c['letters']} | {c['density']} | "
            f"{show_ms(row['subst'], time_limit)} | {show_ms(row['libmata'], time_limit)} | {row['ratio_text']} | {row['agree']} |"
        )
    print()
    print(
        "| size | pairs | both finished | only subst finished | only libmata finished | neither "
        "| subst / libmata where both finished (geometric mean) | subst / libmata at most, over the pairs subst finished |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sorted({r["case"]["states"] for r in rows}):
        group = [r for r in rows if r["case"]["states"] == size]
        done = [(r["subst"]["status"] == "ok", r["libmata"]["status"] == "ok") for r in group]
        ratios = [r["ratio"] for r in group if r["ratio"] is not None]
        mean = f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3g}" if ratios else "-"
        # An exact ratio and the bound subst ms / limit (libmata timed out) both bound the true
        # ratio from above, so their maximum bounds it on every pair subst finished.
        bounds = [
            r["ratio"] if r["ratio"] is not None else max(r["subst"]["ms"], 1e-3) / (time_limit * 1000)
            for r in group
            if r["subst"]["status"] == "ok" and r["libmata"]["status"] in ("ok", "timeout")
        ]
        worst = f"{max(bounds):.3g}" if bounds else "-"
        print(
            f"| {size} | {len(group)} | {done.count((True, True))} | {done.count((True, False))} | "
            f"{done.count((False, True))} | {done.count((False, False))} | {mean} | {worst} |"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,300,1000,3000,10000")
    parser.add_argument("--pairs", type=int, default=2, help="pairs of each kind per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=float(os.environ.get("BENCH_TIME_LIMIT", 60)), help="seconds per check and tool")
    parser.add_argument("--memory-limit", type=float, default=8, help="GiB of address space per check and tool")
    parser.add_argument("--data", default=os.path.join(ROOT, "target", "bench-data"))
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--report", metavar="JSON", help="print the tables of a saved run (--json) and stop")
    args = parser.parse_args()
    if args.report:
        with open(args.report) as f:
            saved = json.load(f)
        print("\n".join(saved["header"]) + "\n")
        print_tables(saved["rows"], saved["time_limit"])
        return

    subprocess.run(
        [sys.executable, os.path.join(HERE, "gen.py"), "--out", args.data, "--seed", str(args.seed), "--sizes", args.sizes, "--pairs", str(args.pairs)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with open(os.path.join(args.data, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    subst_exe = build_subst()
    mata_version = subprocess.run(
        [VENV_PYTHON, "-c", "import importlib.metadata as m; print(m.version('libmata'))"], check=True, stdout=subprocess.PIPE, text=True
    ).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT, stdout=subprocess.PIPE, text=True).stdout.strip()
    header = [
        f"# subst {commit}{' + uncommitted changes in src/' if dirty else ''} against libmata {mata_version} (antichains)",
        f"# {cpu_name()}, {os.cpu_count()} cpus; seed {args.seed}; limits {args.time_limit:g} s and {args.memory_limit:g} GiB per check",
        f"# started {time.strftime('%Y-%m-%d %H:%M:%S')}",
    ]
    print("\n".join(header), flush=True)

    rows = []
    for case in cases:
        a, b = case["a"], case["b"]
        subst = run_tool([subst_exe, a, b], args.time_limit, args.memory_limit)
        mata = run_tool([VENV_PYTHON, os.path.join(HERE, "mata_check.py"), a, b], args.time_limit, args.memory_limit)
        ratio_text, ratio = ratio_of(subst, mata, args.time_limit)
        agree = agreement(case, subst, mata)
        rows.append({"case": case, "subst": subst, "libmata": mata, "ratio": ratio, "ratio_text": ratio_text, "agree": agree})
        print(
            f"{case['name']:<22} subst {show_ms(subst, args.time_limit):>18}  libmata {show_ms(mata, args.time_limit):>18}  ratio {ratio_text:>8}  agree {agree}",
            flush=True,
        )
        for name, r in (("subst", subst), ("libmata", mata)):
            if r["status"] in ("error", "memory"):
                print(f"    {name}: {r['status']}: {r['detail']}", flush=True)

    print()
    print_tables(rows, args.time_limit)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": header, "time_limit": args.time_limit, "rows": rows}, f, indent=1)
    disagreements = [r for r in rows if r["agree"].startswith("DISAGREE")]
    if disagreements:
        print(f"\nDISAGREE: {len(disagreements)} case(s) with a wrong verdict: " + ", ".join(r["case"]["name"] for r in disagreements))
        sys.exit(1)


if __name__ == "__main__":
    main()
