#!/usr/bin/env bash
# Compositional (`--engine ag`) against monolithic (`--engine mono`) verification of the
# scalable lock assembly (examples-c/scalable/gen.py: N clients and a lock server) for growing N:
# verdict, wall time and peak memory (/usr/bin/time -v), one run each. See benches/SCALABLE.md.
#
#   bash benches/scalable.sh [N...]          (default N = 2 3 4 5 6 7 8 9 10)
#
# For each N the assembly is generated into a temporary folder with
#   python3 examples-c/scalable/gen.py N --think $THINK --out DIR
# and each property P (MUTEX holds, TURNS fails) is checked by
#   SUBST verify DIR/lock.c --assembly CS --prop P --engine E --no-cache --stats --timeout T
# with E = mono and E = ag (with --learner $LEARNER).
#
# Environment:
#   SUBST_BIN  the binary (default target/release/subst; this script never builds)
#   TIMEOUT    seconds per run (default 300; timeout(1) kills the run 30 s later)
#   THINK      private optional steps per client (default 2, as in the committed examples)
#   PROPS      properties (default "MUTEX TURNS")
#   LEARNER    learner of the ag runs (default: the tool's default)
#
# Prints a markdown table on stdout. Exit status 1 when a run ends in an error, 2 on bad usage.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SUBST_BIN:-$root/target/release/subst}"
limit="${TIMEOUT:-300}"
think="${THINK:-2}"
props="${PROPS:-MUTEX TURNS}"
learner="${LEARNER:-}"

case "${1:-}" in
-h | --help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2 3 4 5 6 7 8 9 10)
for n in "${sizes[@]}"; do
    [[ "$n" =~ ^[0-9]+$ && "$n" -ge 1 && "$n" -le 64 ]] || { echo "bad N '$n': expected 1..64" >&2; exit 2; }
done
[[ "$limit" =~ ^[0-9]+$ && "$limit" -gt 0 ]] || { echo "TIMEOUT must be a positive integer" >&2; exit 2; }
[ -x "$bin" ] || { echo "no binary at $bin (set SUBST_BIN; this script never builds)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"

# run ENGINE PROP DIR OUT: one run; OUT.out is the tool's output, OUT.time GNU time's report
# followed by the exit status.
run() {
    local engine="$1" prop="$2" dir="$3" out="$4" extra=()
    if [ "$engine" = ag ] && [ -n "$learner" ]; then extra=(--learner "$learner"); fi
    set +e
    /usr/bin/time -v -o "$out.time" \
        timeout -k 10 $((limit + 30)) "$bin" verify "$dir/lock.c" --assembly CS --prop "$prop" \
        --engine "$engine" --no-cache "${extra[@]}" --stats --timeout "$limit" > "$out.out" 2>&1
    echo "exit $?" >> "$out.time"
    set -e
}

# summary OUT: "verdict|wall s|peak MB|counter"; the counter is product states (mono) or
# membership queries/candidates (ag).
summary() {
    python3 - "$1" <<'PY'
import re, sys
out = open(sys.argv[1] + ".out", errors="replace").read()
t = open(sys.argv[1] + ".time", errors="replace").read()
code = int(re.findall(r"^exit (\d+)$", t, re.M)[-1])
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([0-9.]+)", t)
secs = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))) if wall else None
kb = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
verdict = re.search(r"^\s*\w+: (holds|fails|unknown)(.*)$", out, re.M)
if code in (124, 137) or (verdict and verdict.group(1) == "unknown" and "time limit" in verdict.group(2)):
    v = "timeout"
elif verdict:
    v = verdict.group(1)
else:
    v = f"error (exit {code})"
get = lambda k: (re.findall(rf"{k}: ([0-9]+)", out) or ["-"])[-1]
counter = f'{get("membership queries")}/{get("candidate assumptions")}' if "membership queries" in out else get("product states")
print(f"{v}|{secs:.2f}|{int(kb.group(1)) / 1024:.0f}|{counter}" if secs is not None and kb else f"{v}|-|-|{counter}")
PY
}

ratio() {
    python3 -c 'import sys
try: print(f"{float(sys.argv[1]) / float(sys.argv[2]):.2f}")
except (ValueError, ZeroDivisionError): print("-")' "$1" "$2"
}

echo "subst: $bin ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); one run each, --timeout $limit, THINK=$think${learner:+, --learner $learner}"
echo
echo "| N | property | mono verdict | mono s | mono MB | mono product states | ag verdict | ag s | ag MB | ag MQ/candidates | ag/mono time | ag/mono memory |"
echo "|---:|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
status=0
for n in "${sizes[@]}"; do
    dir="$tmp/n$n"
    python3 examples-c/scalable/gen.py "$n" --think "$think" --out "$dir"
    for p in $props; do
        declare -A row=()
        for e in mono ag; do
            run "$e" "$p" "$dir" "$tmp/$e.$p.$n"
            row[$e]="$(summary "$tmp/$e.$p.$n")"
            case "${row[$e]%%|*}" in error*) status=1; tail -3 "$tmp/$e.$p.$n.out" >&2 ;; esac
        done
        IFS='|' read -r mv mw mm mc <<< "${row[mono]}"
        IFS='|' read -r av aw am ac <<< "${row[ag]}"
        echo "| $n | $p | $mv | $mw | $mm | $mc | $av | $aw | $am | $ac | $(ratio "$aw" "$mw") | $(ratio "$am" "$mm") |"
        unset row
    done
done
exit $status
