#!/usr/bin/env bash
# Compatibility after an upgrade, paper 003 Table 1 style: for each upgrade of an assembly and
# each property, measured in one run of `subst check` (the old assembly is checked first from
# nothing, then the new one from its tables; the cache is off so both are computed):
#   - membership queries of the original and of the upgraded verification;
#   - T_orig and T_ug, wall time of each whole check (abstraction, refinement, DynamicCheck),
#     and the part of each spent in DynamicCheck, which is what paper 003 Table 1 times;
#   - T_fresh: `subst verify --engine ag --no-cache` on the new version alone, with the same
#     level order, i.e. the from-scratch run the re-use must not be slower than.
#
#   bash benches/compat.sh SPEC ASSEMBLY OLD NEW1 [NEW2 ...] [-- PROP ...]
#
# OLD and NEWi are C files or folders; PROP defaults to every property of the spec.
# SUBST_BIN overrides the binary (default target/release/subst; it is never built here);
# SUBST_ARGS adds options to both commands (e.g. "--cpp=-DWQSIZE=1 --timeout 300").
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
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; --no-cache --skip-containment ${SUBST_ARGS:-}, one run each"
echo
echo "| upgrade | property | old | new | MQ orig | MQ ug | T_orig ms | T_ug ms | T_ug/T_orig | DC orig ms | DC ug ms | DC ratio | T_fresh ms | T_ug/T_fresh |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
status=0
for new in "${news[@]}"; do
    out="$tmp/report.json"
    set +e
    # shellcheck disable=SC2086
    "$bin" check "$old" "$new" --spec "$spec" --assembly "$assembly" "${props[@]}" \
        --no-cache --skip-containment --format json ${SUBST_ARGS:-} > "$out" 2> "$tmp/err"
    code=$?
    set -e
    if [ "$code" -eq 2 ] || [ ! -s "$out" ]; then
        echo "| $new | error (exit $code): $(tail -1 "$tmp/err") | | | | | | | | | | | | |"
        status=1
        continue
    fi
    order="$(python3 -c 'import json,sys; print(",".join(json.load(open(sys.argv[1])).get("order", [])))' "$out")"
    for p in $(python3 -c 'import json,sys; print(" ".join(p["property"] for p in json.load(open(sys.argv[1]))["properties"]))' "$out"); do
        fresh="$tmp/fresh.$p"
        set +e
        # shellcheck disable=SC2086
        "$bin" verify "$new" --spec "$spec" --assembly "$assembly" --prop "$p" --engine ag --order "$order" \
            --no-cache --stats ${SUBST_ARGS:-} > "$fresh" 2>&1
        set -e
    done
    python3 - "$out" "$new" "$tmp" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
pct = lambda a, b: f"{100 * a / b:.1f}%" if b > 0 else "-"
for p in report.get("properties", []):
    o, u = p["original"], p["upgrade"]
    try:
        text = open(f'{sys.argv[3]}/fresh.{p["property"]}').read()
        fresh = float(re.findall(r"time: ([0-9.]+) ms", text)[-1])
    except (OSError, IndexError):
        fresh = 0.0
    print(f'| {sys.argv[2]} | {p["property"]} | {o["verdict"]} | {u["verdict"]} | {o["membership_queries"]} '
          f'| {u["membership_queries"]} | {o["time_ms"]:.1f} | {u["time_ms"]:.1f} | {pct(u["time_ms"], o["time_ms"])} '
          f'| {o["dynamic_check_ms"]:.1f} | {u["dynamic_check_ms"]:.1f} | {pct(u["dynamic_check_ms"], o["dynamic_check_ms"])} '
          f'| {fresh:.1f} | {pct(u["time_ms"], fresh)} |')
PY
done
exit $status
