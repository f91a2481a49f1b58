#!/usr/bin/env bash
# Compositional (`--engine ag`) against monolithic (`--engine mono`) verification of the IPC
# example (examples-c/ipc/old/ipc.c, assembly IPC) at growing sizes: wall time, the tool's own
# `time:`, peak memory (max RSS), and a few `--stats` counters. See benches/IPC_SCALE.md.
#
#   bash benches/ipc_scale.sh [SIZES...]
#
# Each size is N/M: WQSIZE=N (1..4) and QSIZE=M (1..8), passed as --cpp=-DWQSIZE=N --cpp=-DQSIZE=M.
# Default sizes: 1/1 1/3 1/5 1/8 2/2 2/4 3/3 4/4. For each size and property, one run of
#   SUBST verify examples-c/ipc/old/ipc.c --spec examples-c/ipc/ipc.lts --assembly IPC --prop P
#         --engine mono --stats --timeout T --cpp=-DWQSIZE=N --cpp=-DQSIZE=M
# and the same with `--engine ag --no-cache`, each under /usr/bin/time -f "%e %M" and
# timeout(1) (T + 30 s, then KILL 10 s later), since the tool may overrun its own --timeout.
# The reachable-state column is `python3 examples-c/ipc/statespace.py N M` (capped at
# STATES_TIMEOUT s, default 120; "-" when it does not finish).
#
# Environment:
#   SUBST_BIN  the binary (default target/release/subst; this script never builds)
#   TIMEOUT    seconds per run (default 300)
#   PROPS      properties (default "P1 P2")
#   LEARNER    the learner of `--engine ag` runs: lsharp (default) or lstar
#   OUT_DIR    keep each run's output (ENGINE.PROP.N.M.out, with `--stats`' time per phase)
#              and time there instead of deleting them
#   SKIP_LARGER=0  run every size; by default, once an engine ends without a verdict on a
#              property at N/M, its runs of that property at sizes N'/M' with N' >= N and
#              M' >= M are skipped (shown as "skipped")
#
# Prints a markdown table on stdout. A run that hits the time limit shows "timeout", its wall
# time and its peak memory up to then; a ratio against such a run is a bound (">" or "<").
# Exit status: 1 when a run ends with an error (exit 2 or a crash), 2 on bad usage.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${SUBST_BIN:-$root/target/release/subst}"
limit="${TIMEOUT:-300}"
props="${PROPS:-P1 P2}"
states_limit="${STATES_TIMEOUT:-120}"
skip_larger="${SKIP_LARGER:-1}"
learner="${LEARNER:-lsharp}"

case "${1:-}" in
-h | --help) sed -n '2,30p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1/1 1/3 1/5 1/8 2/2 2/4 3/3 4/4)
for s in "${sizes[@]}"; do
    [[ "$s" =~ ^[1-4]/[1-8]$ ]] || { echo "bad size '$s': expected N/M with N in 1..4, M in 1..8" >&2; exit 2; }
done
[[ "$limit" =~ ^[0-9]+$ && "$limit" -gt 0 ]] || { echo "TIMEOUT must be a positive integer" >&2; exit 2; }
[ -x "$bin" ] || { echo "no binary at $bin (set SUBST_BIN; this script never builds)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

if [ -n "${OUT_DIR:-}" ]; then
    mkdir -p "$OUT_DIR"
    tmp="$(cd "$OUT_DIR" && pwd)"
else
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
fi
cd "$root"

src=examples-c/ipc/old/ipc.c
spec=examples-c/ipc/ipc.lts

# run ENGINE PROP N M OUT: one run; writes OUT.out (the tool's output) and OUT.time ("%e %M"
# of the run, and the exit status on a last line).
run() {
    local engine="$1" prop="$2" n="$3" m="$4" out="$5" extra=()
    [ "$engine" = ag ] && extra=(--no-cache --learner "$learner")
    set +e
    /usr/bin/time -f "%e %M" -o "$out.time" \
        timeout -k 10 $((limit + 30)) "$bin" verify "$src" --spec "$spec" --assembly IPC --prop "$prop" \
        --engine "$engine" "${extra[@]}" --stats --timeout "$limit" \
        --cpp=-DWQSIZE="$n" --cpp=-DQSIZE="$m" > "$out.out" 2>&1
    echo "$?" >> "$out.time"
    set -e
}

# summary OUT: "verdict|wall s|tool s|peak MB|counter" of one run; counter is the product
# states (mono) or "MQ/candidates" (ag).
summary() {
    python3 - "$1" <<'PY'
import re, sys
out = open(sys.argv[1] + ".out", errors="replace").read()
lines = [l for l in open(sys.argv[1] + ".time").read().split("\n") if l.strip()]
code = int(lines[-1])
wall, kb = "-", None
for l in lines[:-1]:
    m = re.match(r"^([0-9.]+) ([0-9]+)$", l.strip())
    if m:
        wall, kb = m.group(1), int(m.group(2))
verdict = re.search(r"^\s*P\w*: (holds|fails|unknown)(.*)$", out, re.M)
if code in (124, 137) or (verdict and verdict.group(1) == "unknown" and "time limit" in verdict.group(2)):
    v = "timeout"
elif verdict:
    v = verdict.group(1)
else:
    v = f"error (exit {code})"
tool = re.findall(r"time: ([0-9.]+) ms", out)
tool = f"{float(tool[-1]) / 1000:.2f}" if tool else "-"
mb = f"{kb / 1024:.0f}" if kb is not None else "-"
get = lambda k: (re.findall(rf"{k}: ([0-9]+)", out) or ["-"])[-1]
counter = get("product states") if "membership queries" not in out else f'{get("membership queries")}/{get("candidate assumptions")}'
print(f"{v}|{float(wall):.2f}|{tool}|{mb}|{counter}" if wall != "-" else f"{v}|-|{tool}|{mb}|{counter}")
PY
}

# ratio A B A_DONE B_DONE: A/B, as a bound when a run did not finish.
ratio() {
    python3 - "$@" <<'PY'
import sys
a, b, ad, bd = sys.argv[1:5]
try:
    r = float(a) / float(b)
except (ValueError, ZeroDivisionError):
    print("-"); sys.exit()
if ad == "1" and bd == "1":
    print(f"{r:.2f}")
elif ad == "0" and bd == "1":
    print(f">{r:.2f}")
elif ad == "1" and bd == "0":
    print(f"<{r:.2f}")
else:
    print("-")
PY
}

# skipped ENGINE PROP N M: whether a smaller size already ended without a verdict.
declare -A gave_up=()
skipped() {
    [ "$skip_larger" = 1 ] || return 1
    local key="$1.$2" n="$3" m="$4" s
    for s in ${gave_up[$key]:-}; do
        [ "$n" -ge "${s%/*}" ] && [ "$m" -ge "${s#*/}" ] && return 0
    done
    return 1
}

echo "subst: $bin"
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); one run each, --timeout $limit"
echo
echo "| WQSIZE/QSIZE | reachable states | property | mono verdict | mono wall s | mono tool s | mono peak MB | mono product states | ag verdict | ag wall s | ag tool s | ag peak MB | ag MQ/candidates | ag/mono time | ag/mono memory |"
echo "|---|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"
status=0
for s in "${sizes[@]}"; do
    n="${s%/*}"; m="${s#*/}"
    states="$(timeout "$states_limit" python3 examples-c/ipc/statespace.py "$n" "$m" 2>/dev/null \
        | sed -n 's/.*: \([0-9]*\) reachable states.*/\1/p' || true)"
    if [ -n "$states" ]; then states="$(python3 -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$states")"; else states="-"; fi
    for p in $props; do
        declare -A row=()
        for e in mono ag; do
            if skipped "$e" "$p" "$n" "$m"; then
                row[$e]="skipped|-|-|-|-"
                continue
            fi
            run "$e" "$p" "$n" "$m" "$tmp/$e.$p.$n.$m"
            row[$e]="$(summary "$tmp/$e.$p.$n.$m")"
            case "${row[$e]%%|*}" in
            timeout | unknown) gave_up[$e.$p]="${gave_up[$e.$p]:-} $n/$m" ;;
            error*) status=1; tail -3 "$tmp/$e.$p.$n.$m.out" >&2 ;;
            esac
        done
        IFS='|' read -r mv mw mt mm mc <<< "${row[mono]}"
        IFS='|' read -r av aw at am ac <<< "${row[ag]}"
        done_of() { case "$1" in holds | fails) echo 1 ;; *) echo 0 ;; esac; }
        tr="$(ratio "$aw" "$mw" "$(done_of "$av")" "$(done_of "$mv")")"
        mr="$(ratio "$am" "$mm" "$(done_of "$av")" "$(done_of "$mv")")"
        # Memory up to a timeout is a lower bound of what the run would need.
        echo "| $n/$m | $states | $p | $mv | $mw | $mt | $mm | $mc | $av | $aw | $at | $am | $ac | $tr | $mr |"
        unset row
    done
done
exit $status
