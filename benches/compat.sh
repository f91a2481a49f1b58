#!/usr/bin/env bash
# Compatibility after an upgrade, paper 003 Table 1 style: for each upgrade of an assembly and
# each property, the membership queries of the original verification, T_orig, T_ug and
# T_ug / T_orig, measured in one run of `subst check` (the old assembly is checked first from
# nothing, then the new one from its tables; the cache is off so both are computed).
#
#   bash benches/compat.sh SPEC ASSEMBLY OLD NEW1 [NEW2 ...] [-- PROP ...]
#
# OLD and NEWi are C files or folders; PROP defaults to every property of the spec.
# SUBST_BIN overrides the binary (default target/release/subst; it is never built here);
# SUBST_ARGS adds options (e.g. "--cpp=-DWQSIZE=1 --timeout 300"). Containment is skipped
# (--skip-containment): the table is about compatibility.
# Prints a markdown table; exits 1 when a run fails to produce a report.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${SUBST_BIN:-$root/target/release/subst}"
if [ $# -lt 4 ]; then
    sed -n '2,12p' "$0" >&2
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
echo "| upgrade | property | old | new | MQ (orig) | MQ (upgrade) | T_orig ms | T_ug ms | T_ug / T_orig |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
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
        echo "| $new | error (exit $code): $(tail -1 "$tmp/err") | | | | | | | |"
        status=1
        continue
    fi
    python3 - "$out" "$new" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for p in report.get("properties", []):
    o, u = p["original"], p["upgrade"]
    ratio = f'{100 * u["time_ms"] / o["time_ms"]:.1f}%' if o["time_ms"] > 0 else "-"
    print(f'| {sys.argv[2]} | {p["property"]} | {o["verdict"]} | {u["verdict"]} | {o["membership_queries"]} '
          f'| {u["membership_queries"]} | {o["time_ms"]:.1f} | {u["time_ms"]:.1f} | {ratio} |')
PY
done
exit $status
