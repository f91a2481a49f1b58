#!/usr/bin/env python3
"""Tables for benches/contain.sh (stdlib only).

    python3 benches/contain_table.py RECORDS.tsv [--json OUT.json]

RECORDS.tsv has one line per run of `subst check ... --format json`, tab separated:
section, case, pair, flags, width, expected, max_missing, run, exit status, wall seconds,
path of the JSON report, path of the acceptable missing traces (or "-").

Prints markdown tables on stdout; exits 1 when a verdict is wrong (contained where not
contained is expected or the reverse), when the runs of one check disagree, or when a reported
missing trace is not a real one.
"""

import json
import statistics
import sys
from collections import OrderedDict

FIELDS = ["section", "case", "pair", "flags", "width", "expected", "mm", "run", "rc", "wall", "json", "truth"]


def verdict_of_rc(rc):
    return {0: "contained", 1: "not contained", 3: "unknown", 2: "bad input", 124: "timeout", 137: "timeout",
            -1: "skipped"}.get(
        rc, f"error({rc})"
    )


def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def verdict_of_report(rep):
    if rep is None:
        return None
    cs = [c.get("containment") for c in rep.get("components", [])]
    if "not_contained" in cs:
        return "not contained"
    if "unknown" in cs or not cs:
        return "unknown"
    return "contained"


def stats_of(rep):
    """Sums the stats of the components that have them (here: the one changed component)."""
    if rep is None:
        return None
    out = None
    for c in rep.get("components", []):
        s = c.get("stats")
        if not s:
            continue
        if out is None:
            out = json.loads(json.dumps(s))
            continue
        for k, v in s.items():
            if isinstance(v, list):
                out[k] = [a + b for a, b in zip(out.get(k, [0] * len(v)), v)]
            elif isinstance(v, (int, float)):
                out[k] = out.get(k, 0) + v
    return out


def changes_of(rep):
    if rep is None:
        return "-"
    return ",".join(sorted({c.get("change", "?") for c in rep.get("components", [])}))


def traces_of(rep):
    if rep is None:
        return []
    return [" ".join(m.get("trace", [])) for c in rep.get("components", []) for m in c.get("missing", [])]


def read_truth(path):
    if path == "-":
        return None, None
    with open(path) as f:
        lines = [l.strip() for l in f if l.strip()]
    kind = "all" if path.endswith("native.diff") else "header"
    return kind, lines


def trace_check(verdict, traces, truth_kind, truth):
    """'ok', 'BAD: ...' or '-' (nothing to check)."""
    if verdict != "not contained":
        return "-"
    if not traces:
        return "BAD: no missing trace reported"
    if truth_kind == "all":
        bad = [t for t in traces if t not in truth]
        return "ok" if not bad else "BAD: not a difference: " + "; ".join(bad)
    if truth_kind == "header":
        return "ok" if truth[0] in traces else f"BAD: header's `{truth[0]}` not reported"
    return "-"


def divergence_of(rep, case_flags):
    """'header / reported' line of the new file where the first missing trace is cut off, or '-'.

    The header's `// divergence:` line is read from the new file named in the report; a run with
    fewer options than the header assumes (bug_fix without --removed) has no header line."""
    if rep is None:
        return "-"
    miss = [m for c in rep.get("components", []) for m in c.get("missing", [])]
    if not miss:
        return "-"
    d = miss[0].get("divergence") or {}
    got = (d.get("new") or {}).get("line", "?")
    want = "-"
    try:
        with open(rep["new"]) as f:
            for line in f:
                if line.startswith("// divergence:"):
                    want = line.split(":", 1)[1].strip()
                    break
    except (OSError, KeyError):
        pass
    if "--removed" not in case_flags and any(
        l.startswith("// removed:") for l in open(rep["new"])
    ):
        want = "-"
    kind = d.get("kind", "")
    return f"{want} / {got}" + (f" ({kind})" if kind else "")


def fmt_list(v):
    return "/".join(str(x) for x in v) if isinstance(v, list) else ("-" if v is None else str(v))


def summarise(runs):
    """One check = the runs of one (section, case, max-missing)."""
    first = runs[0]
    reps = [load_report(r["json"]) for r in runs]
    verdicts = []
    problems = []
    for r, rep in zip(runs, reps):
        v = verdict_of_rc(int(r["rc"]))
        jv = verdict_of_report(rep)
        if v in ("contained", "not contained", "unknown") and jv is not None and jv != v:
            problems.append(f"run {r['run']}: exit status says {v}, JSON says {jv}")
        verdicts.append(v)
    verdict = verdicts[0] if len(set(verdicts)) == 1 else "varies: " + ", ".join(verdicts)
    if len({v for v in verdicts if v in ("contained", "not contained")}) > 1:
        problems.append("runs disagree: " + ", ".join(verdicts))
    expected = first["expected"]
    if verdict == expected:
        check = "OK"
    elif verdict in ("contained", "not contained"):
        check = "WRONG"
    else:
        check = verdict.split(":")[0].split("(")[0].upper()
    rep = next((x for x in reps if x is not None), None)
    truth_kind, truth = read_truth(first["truth"])
    traces = traces_of(rep)
    tcheck = trace_check(verdicts[0], traces, truth_kind, truth)
    walls = [float(r["wall"]) for r in runs]
    return {
        "section": first["section"],
        "case": first["case"],
        "pair": first["pair"],
        "flags": first["flags"],
        "width": first["width"],
        "expected": expected,
        "max_missing": int(first["mm"]),
        "verdict": verdict,
        "check": check,
        "runs": len(runs),
        "wall_median": statistics.median(walls),
        "walls": walls,
        "stats": stats_of(rep),
        "change": changes_of(rep),
        "missing": traces,
        "truth_count": len(truth) if truth_kind == "all" else None,
        "trace_check": tcheck,
        "divergence": divergence_of(rep, first["flags"]),
        "problems": problems,
        "stderr_tail": note_of(rep, first["json"] + ".stderr")
        if verdicts[0] not in ("contained", "not contained", "skipped")
        else "",
    }


def note_of(rep, stderr_path):
    """Why a check gave no verdict: the components' `reason`, else the end of stderr."""
    reasons = [c["reason"] for c in (rep or {}).get("components", []) if c.get("reason")]
    return "; ".join(reasons) if reasons else tail(stderr_path) or "(no reason given)"


def tail(path, n=3):
    try:
        with open(path) as f:
            lines = [l.rstrip() for l in f if l.strip()]
        return " | ".join(lines[-n:])
    except OSError:
        return ""


def secs(x):
    return f"{x:.2f}"


def stat_cells(s):
    if not s:
        return ["-"] * 7
    return [
        str(s.get("rounds", "-")),
        fmt_list(s.get("refinements")),
        fmt_list(s.get("predicates")),
        fmt_list(s.get("abstract_states")),
        str(s.get("smt_calls", "-")),
        str(s.get("smt_cache_hits", "-")),
        f"{s['time_ms']:.0f}" if "time_ms" in s else "-",
    ]


def main():
    args = sys.argv[1:]
    json_out = None
    if "--json" in args:
        i = args.index("--json")
        json_out = args[i + 1]
        del args[i : i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    groups = OrderedDict()
    with open(args[0]) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != len(FIELDS):
                continue
            r = dict(zip(FIELDS, parts))
            groups.setdefault((r["section"], r["case"], r["mm"]), []).append(r)
    checks = [summarise(runs) for runs in groups.values()]
    failures = []
    for c in checks:
        if c["check"] == "WRONG":
            failures.append(f"WRONG verdict on {c['case']} (max-missing {c['max_missing']}): {c['verdict']}, expected {c['expected']}")
        if c["trace_check"].startswith("BAD"):
            failures.append(f"bad missing trace on {c['case']} (max-missing {c['max_missing']}): {c['trace_check']}")
        for p in c["problems"]:
            failures.append(f"{c['case']} (max-missing {c['max_missing']}): {p}")

    main_checks = [c for c in checks if c["section"] == "main"]
    if main_checks:
        mm5 = {c["case"]: c for c in main_checks if c["max_missing"] != 1}
        print("### The pairs (`--max-missing 1`; last columns: one run with the default `--max-missing 5`)")
        print()
        print(
            "| pair | options | expected | verdict | check | wall s (median) | runs | rounds | refinements old may/new must/new may "
            "| predicates old may/new must/new may | abstract states old/new | SMT calls | SMT cache hits | subst time_ms "
            "| missing trace | trace | divergence line: header / reported | mm5: verdict, wall s | mm5: traces reported (differences gcc found) | mm5: trace |"
        )
        print("|" + "---|" * 20)
        for c in main_checks:
            if c["max_missing"] != 1:
                continue
            m = mm5.get(c["case"])
            verdict = c["verdict"] + (" (unchanged)" if c["change"] == "unchanged" else "")
            check = c["check"] if c["check"] == "OK" else f"**{c['check']}**"
            miss = f"`{c['missing'][0]}`" if c["missing"] else "-"
            mm_cells = ["-", "-", "-"]
            if m:
                mv = m["verdict"] if m["check"] == "OK" else f"**{m['verdict']} ({m['check']})**"
                known = "" if m["truth_count"] is None or m["truth_count"] == 0 else f" ({m['truth_count']})"
                mm_cells = [f"{mv}, {secs(m['wall_median'])}", f"{len(m['missing'])}{known}", m["trace_check"]]
            print(
                "| "
                + " | ".join(
                    [f"`{c['pair']}`", f"`{c['flags']}`" if c["flags"] else "", c["expected"], verdict, check,
                     secs(c["wall_median"]), str(c["runs"])]
                    + stat_cells(c["stats"])
                    + [miss, c["trace_check"], c["divergence"]]
                    + mm_cells
                )
                + " |"
            )
        n = [c for c in main_checks if c["max_missing"] == 1]
        ok = sum(c["check"] == "OK" for c in n)
        print()
        print(
            f"Pairs: {ok}/{len(n)} OK, {sum(c['check'] == 'WRONG' for c in n)} wrong, "
            f"{sum(c['check'] not in ('OK', 'WRONG') for c in n)} unknown/timeout/error; "
            f"sum of median wall times {sum(c['wall_median'] for c in n):.2f} s"
        )
        print()

    scale = [c for c in checks if c["section"] == "scale"]
    if scale:
        base = {}
        for c in scale:
            base.setdefault(c["pair"], c)
        print("### Scaling: the same pairs over wider ranges (`--max-missing 1`)")
        print()
        print(
            "| pair | width | ranges | expected | verdict | check | wall s (median) | runs | rounds | refinements "
            "| predicates | abstract states | SMT calls | SMT cache hits | subst time_ms | wall / first width | SMT calls / first width | trace |"
        )
        print("|" + "---|" * 18)
        for c in scale:
            b = base[c["pair"]]
            s, bs = c["stats"], b["stats"]
            skipped = c["verdict"] == "skipped"
            wr = "-" if skipped or b["wall_median"] <= 0 else f"{c['wall_median'] / b['wall_median']:.1f}"
            sr = f"{s['smt_calls'] / bs['smt_calls']:.1f}" if s and bs and bs.get("smt_calls") else "-"
            check = c["check"] if c["check"] == "OK" else f"**{c['check']}**"
            print(
                "| "
                + " | ".join(
                    [f"`{c['pair']}`", c["width"], f"`{c['flags']}`", c["expected"], c["verdict"], check,
                     "-" if skipped else secs(c["wall_median"]), "0" if skipped else str(c["runs"])]
                    + stat_cells(s)
                    + [wr, sr, c["trace_check"]]
                )
                + " |"
            )
        print()
        widths = sorted({int(c["width"]) for c in scale})
        pairs = list(OrderedDict.fromkeys(c["pair"] for c in scale))
        by = {(c["pair"], int(c["width"])): c for c in scale}
        print("Wall seconds (SMT calls) per width:")
        print()
        print("| pair | " + " | ".join(str(w) for w in widths) + " |")
        print("|---|" + "---:|" * len(widths))
        for p in pairs:
            cells = []
            for w in widths:
                c = by.get((p, w))
                if c is None:
                    cells.append("-")
                    continue
                if c["verdict"] == "skipped":
                    cells.append("skipped")
                    continue
                smt = c["stats"]["smt_calls"] if c["stats"] else "-"
                mark = "" if c["check"] == "OK" else f" **{c['check']}**"
                cells.append(f"{secs(c['wall_median'])} ({smt}){mark}")
            print(f"| `{p}` | " + " | ".join(cells) + " |")
        print()

    notes = [c for c in checks if c["stderr_tail"]]
    if notes:
        print("Checks without a verdict (the report's reason, or the end of stderr):")
        print()
        for c in notes:
            print(f"- `{c['case']}` (max-missing {c['max_missing']}): {c['stderr_tail']}")
        print()

    if json_out:
        with open(json_out, "w") as f:
            json.dump(checks, f, indent=1)

    if failures:
        print(f"**FAILURES: {len(failures)}**")
        for x in failures:
            print(f"- {x}")
            print(f"FAILURE: {x}", file=sys.stderr)
        return 1
    print("No wrong verdict, no bad missing trace.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
