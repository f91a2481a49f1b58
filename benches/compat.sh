#!/usr/bin/env bash
# Compatibility after an upgrade, paper 003 Table 1 style: for each upgrade of an assembly and
# each property, measured in one run of `subst check` (the old assembly is checked first from
# nothing, then the new one from its tables; the cache is off so both are computed):
#   - membership queries of the original and of the upgraded verification;
#   - T_orig and T_ug, wall time of each whole check (abstraction, refinement, DynamicCheck),
#     and the part of each spent in DynamicCheck, which is what paper 003 Table 1 times;
#   - T_fresh: `subst verify --engine ag --no-cache` on the new version alone, with the same
#     level order, i.e. the from-scratch run the re-use must not be slower than;
#   - T_ug cached: the pre-merge case, where the old assembly's check is in the cache (here
#     from a first `subst check` with a fresh `--cache` folder): T_ug of a second run.
#
#   bash benches/compat.sh SPEC ASSEMBLY OLD NEW1 [NEW2 ...] [-- PROP ...]
#
# OLD and NEWi are C files or folders; PROP defaults to every property of the spec.
# SUBST_BIN overrides the binary (default target/release/subst; it is never built here);
# SUBST_ARGS adds options to both commands (e.g. "--cpp=-DWQSIZE=1 --timeout 300").
# REPEAT (default 3) runs each command that many times; times are medians.
# Containment is skipped (--skip-containment): the table is about compatibility.
# Prints a markdown table; exits 1 when a run fails to produce a report.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${SUBST_BIN:-$root/target/release/subst}"
if [ $# -lt 4 ]; then
    sed -n '2,17p' "$0" >&2
    exit 2
fi
spec="$1"; assembly="$2"; old="$3"; shift 3
news=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do news+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
props=()
for p in "$@"; do props+=(--prop "$p"); done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "subst: $bin"
repeat="${REPEAT:-3}"
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; --no-cache --skip-containment ${SUBST_ARGS:-}; median of $repeat runs"
echo
echo "| upgrade | property | old | new | MQ orig | MQ ug | T_orig ms | T_ug ms | T_ug/T_orig | DC orig ms | DC ug ms | DC ratio | T_fresh ms | T_ug/T_fresh | T_ug cached ms | cached/T_orig |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
status=0
for new in "${news[@]}"; do
    out="$tmp/report.json"
    rm -f "$tmp"/report.*.json "$tmp"/fresh.*
    for r in $(seq "$repeat"); do
        set +e
        # shellcheck disable=SC2086
        "$bin" check "$old" "$new" --spec "$spec" --assembly "$assembly" "${props[@]}" \
            --no-cache --skip-containment --format json ${SUBST_ARGS:-} > "$tmp/report.$r.json" 2> "$tmp/err"
        code=$?
        set -e
        cp "$tmp/report.$r.json" "$out"
    done
    if [ "$code" -eq 2 ] || [ ! -s "$out" ]; then
        echo "| $new | error (exit $code): $(tail -1 "$tmp/err") | | | | | | | | | | | | | | |"
        status=1
        continue
    fi
    # Each property has its own order of levels.
    python3 -c 'import json,sys; [print(p["property"], ",".join(p["order"])) for p in json.load(open(sys.argv[1]))["properties"]]' "$out" > "$tmp/orders"
    while read -r p order; do
        for r in $(seq "$repeat"); do
            set +e
            # shellcheck disable=SC2086
            "$bin" verify "$new" --spec "$spec" --assembly "$assembly" --prop "$p" --engine ag --order "$order" \
                --no-cache --stats ${SUBST_ARGS:-} > "$tmp/fresh.$p.$r" 2>&1
            set -e
        done
    done < "$tmp/orders"
    rm -rf "$tmp/cache"
    for r in 1 2; do
        set +e
        # shellcheck disable=SC2086
        "$bin" check "$old" "$new" --spec "$spec" --assembly "$assembly" "${props[@]}" \
            --cache "$tmp/cache" --skip-containment --format json ${SUBST_ARGS:-} > "$tmp/cached.json" 2> /dev/null
        set -e
    done
    python3 - "$out" "$new" "$tmp" <<'PY'
import glob, json, re, statistics, sys
report = json.load(open(sys.argv[1]))
runs = [json.load(open(f)) for f in sorted(glob.glob(f"{sys.argv[3]}/report.*.json"))]
pct = lambda a, b: f"{100 * a / b:.1f}%" if b > 0 else "-"
for i, p in enumerate(report.get("properties", [])):
    o, u = dict(p["original"]), dict(p["upgrade"])
    for side, d in (("original", o), ("upgrade", u)):
        for k in ("time_ms", "dynamic_check_ms"):
            d[k] = statistics.median(r["properties"][i][side][k] for r in runs)
    times = []
    for f in glob.glob(f'{sys.argv[3]}/fresh.{p["property"]}.*'):
        found = re.findall(r"time: ([0-9.]+) ms", open(f).read())
        if found:
            times.append(float(found[-1]))
    fresh = statistics.median(times) if times else 0.0
    try:
        c = json.load(open(f"{sys.argv[3]}/cached.json"))["properties"][i]
        cached = c["upgrade"]["time_ms"] if c["original"]["cached"] else float("nan")
    except (OSError, ValueError, KeyError, IndexError):
        cached = float("nan")
    print(f'| {sys.argv[2]} | {p["property"]} | {o["verdict"]} | {u["verdict"]} | {o["membership_queries"]} '
          f'| {u["membership_queries"]} | {o["time_ms"]:.1f} | {u["time_ms"]:.1f} | {pct(u["time_ms"], o["time_ms"])} '
          f'| {o["dynamic_check_ms"]:.2f} | {u["dynamic_check_ms"]:.3f} | {pct(u["dynamic_check_ms"], o["dynamic_check_ms"])} '
          f'| {fresh:.1f} | {pct(u["time_ms"], fresh)} | {cached:.1f} | {pct(cached, o["time_ms"])} |')
PY
done
exit $status
