#!/usr/bin/env bash
# `subst check` (containment of C components) on the benchmark pairs and the example pairs, and a
# scaling series of the integer-function pairs over wider input ranges. See benches/CONTAIN.md.
#
#   bash benches/contain.sh [--runs N] [--timeout S] [--widths 16,64,256,1024]
#                           [--scale-pairs clamp,sign,max_const,sat_add_bug,sum_loop,...] [--no-scale]
#                           [--no-main] [--keep] [--json FILE]
#
# Pairs: every folder of benches/contain/ and examples-c/contain/ (old/<stem>.c, new/<stem>.c,
# <stem>.lts). The expected verdict is the new file's `// check:` header. A pair whose header
# names `// removed: P` runs twice: with `--removed P` (expected: the header's verdict) and
# without (expected: not contained, since P holds behaviours of the old version that the new
# one drops on purpose).
#
# Every check runs as `subst check OLD NEW --format json --no-cache --max-missing 1 --timeout S` under
# timeout(1) (S + 15 s), N times (median wall time; a check whose run took over 10 s is not
# repeated); each pair also runs once with the default --max-missing (5). The scaling series copies the pairs named by --scale-pairs into a temp
# dir with the range of `assume(lo <= x && x <= hi)` and `event arg[..]` widened to
# [-W/2, W/2 - 1]; `event out[..]` is set to the smallest range that holds every result of both
# versions, and the expected verdict comes from running both versions natively (gcc) on every x.
# Where that range has more values than the spec language accepts (100,000), both versions send
# the result as two events out_hi/out_lo (one-to-one, so the verdict is the same).
#
# SUBST_BIN=path selects the binary (default target/release/subst; this script never builds).
# In the series, the wider ranges of a pair are skipped once a width ends without a verdict.
# Exit status: 1 when any verdict is wrong (or a reported missing trace is not a real one),
# 2 on bad usage or set-up. Unknown verdicts and timeouts are reported but are not failures.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

runs=3
time_limit=120
widths="16,64,256,1024"
scale_pairs="clamp,sign,max_const,sat_add_bug,sum_loop,sum_loop_bug,square_loop,countdown,countdown_bug"
# The most values the spec language accepts in one range (src/spec/eval.rs, MAX_VALUES).
max_values=100000
do_scale=1
do_main=1
keep=0
json_out=""

usage() { sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while (($#)); do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --timeout) time_limit="$2"; shift 2 ;;
    --widths) widths="$2"; shift 2 ;;
    --scale-pairs) scale_pairs="$2"; shift 2 ;;
    --no-scale) do_scale=0; shift ;;
    --no-main) do_main=0; shift ;;
    --keep) keep=1; shift ;;
    --json) json_out="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for n in "$runs" "$time_limit"; do
    [[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || { echo "expected a positive integer, got '$n'" >&2; exit 2; }
done

subst="${SUBST_BIN:-$root/target/release/subst}"
[[ -x "$subst" ]] || { echo "no subst binary at $subst (cargo build --release, or set SUBST_BIN)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 2; }
have_gcc=1
command -v gcc >/dev/null || have_gcc=0
if ((do_scale && !have_gcc)); then
    echo "gcc is needed for the scaling series (the expected answers); skipping it" >&2
    do_scale=0
fi

work="$(mktemp -d /tmp/subst-contain-bench.XXXXXX)"
if ((keep)); then
    echo "setup: outputs kept in $work" >&2
else
    trap 'rm -rf "$work"' EXIT
fi
records="$work/records.tsv"
: >"$records"
cd "$root"

# --- helpers --------------------------------------------------------------------------------

now() { date +%s.%N; }

# The native harness of benches/contain/verify_native.sh: calls comp() once for every x of
# [lo, hi] and prints "x f(x)".
cat >"$work/harness.c" <<'H'
#include <stdio.h>
#include <stdlib.h>
static int cur;
int arg(void) { return cur; }
void out(int v) { printf("%d %d\n", cur, v); }
void assume(int c) { if (!c) { printf("%d blocked\n", cur); } }
void comp(void);
int main(int argc, char **argv) {
    int lo = atoi(argv[1]), hi = atoi(argv[2]);
    for (cur = lo; cur <= hi; cur++) comp();
    return 0;
}
H

# native DIR LO HI: compiles DIR/old/f.c and DIR/new/f.c with the harness, runs both on
# x = LO..HI; writes DIR/native.diff (one missing trace "arg.x out.y" a line) and prints
# "MIN MAX" of every result of both versions. Fails when the harness was blocked.
native() {
    local d="$1" lo="$2" hi="$3" v
    for v in old new; do
        gcc -std=gnu11 -O0 -fwrapv -w -o "$d/$v.bin" "$d/$v/f.c" "$work/harness.c"
        "$d/$v.bin" "$lo" "$hi" >"$d/$v.out"
    done
    if grep -q blocked "$d/old.out" "$d/new.out"; then
        echo "native run of $d was blocked by its assume" >&2
        return 1
    fi
    paste -d ' ' "$d/old.out" "$d/new.out" |
        awk '$1 != $3 { print "harness out of step" > "/dev/stderr"; exit 1 }
             $2 != $4 { printf "arg.%s out.%s\n", $1, $2 }' >"$d/native.diff"
    awk 'NR == 1 { mn = $2; mx = $2 } { if ($2 < mn) mn = $2; if ($2 > mx) mx = $2 } END { print mn, mx }' \
        "$d/old.out" "$d/new.out"
}

# run_case SECTION CASE PAIR FLAGS WIDTH EXPECTED MAXMISS NRUNS TRUTH OLD NEW [EXTRA...]
# Runs the check up to NRUNS times (stopping early once a run took over 10 s) and appends one
# record per run to $records. TRUTH is a file of acceptable missing traces (or "-"): for the
# bench pairs all the differences gcc found, for the examples the header's `missing:` trace.
run_case() {
    local section="$1" case_id="$2" pair="$3" flags="$4" width="$5" expected="$6" mm="$7" n="$8"
    local truth="$9" old="${10}" new="${11}"
    shift 11
    local i t0 t1 rc secs out
    for ((i = 1; i <= n; i++)); do
        out="$work/$section.${case_id//[^A-Za-z0-9_.-]/_}.mm$mm.run$i.json"
        t0="$(now)"
        rc=0
        # --no-cache: a "contained" stored by an earlier run (of any binary of the same version)
        # would be reported without the work.
        timeout -k 5 $((time_limit + 15)) "$subst" check "$old" "$new" --format json --no-cache \
            --max-missing "$mm" --timeout "$time_limit" "$@" >"$out" 2>"$out.stderr" || rc=$?
        t1="$(now)"
        secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$section" "$case_id" "$pair" \
            "$flags" "$width" "$expected" "$mm" "$i" "$rc" "$secs" "$out" "$truth" >>"$records"
        echo "  $section $case_id (max-missing $mm) run $i: exit $rc, $secs s" >&2
        last_rc="$rc"
        if awk -v s="$secs" 'BEGIN { exit !(s > 10) }'; then break; fi
    done
}

header_of() { sed -n "s|^// $2:[[:space:]]*||p" "$1" | head -n 1 | sed 's/[[:space:]]*$//'; }

# --- the pairs as they are ------------------------------------------------------------------

if ((do_main)); then
    echo "main: benches/contain/*/ and examples-c/contain/*/, $runs runs each" >&2
    for d in benches/contain/*/ examples-c/contain/*/; do
        d="${d%/}"
        pair="$(basename "$d")"
        old=("$d"/old/*.c)
        new=("$d"/new/*.c)
        [[ -f "${old[0]}" && -f "${new[0]}" ]] || continue
        old="${old[0]}" new="${new[0]}"
        expected="$(header_of "$new" check)"
        removed="$(header_of "$new" removed)"
        missing="$(header_of "$new" missing)"
        set_dir="$(basename "$(dirname "$d")")"   # contain
        group="$(basename "$(dirname "$(dirname "$d")")")" # benches or examples-c
        truth="-"
        if [[ "$group" == benches ]] && ((have_gcc)); then
            range="$(sed -n 's/^event arg\[\(-\{0,1\}[0-9]*\)\.\.\(-\{0,1\}[0-9]*\)\]$/\1 \2/p' "$d/f.lts")"
            mkdir -p "$work/native/$pair"
            cp -r "$d/old" "$d/new" "$work/native/$pair/"
            # shellcheck disable=SC2086
            native "$work/native/$pair" $range >/dev/null
            truth="$work/native/$pair/native.diff"
        elif [[ -n "$missing" ]]; then
            truth="$work/$pair.header-missing"
            echo "$missing" >"$truth"
        fi
        label="$group/$set_dir/$pair"
        if [[ -n "$removed" ]]; then
            run_case main "$label+removed" "$label" "--removed $removed" - "$expected" 1 "$runs" "$truth" "$old" "$new" --removed "$removed"
            run_case main "$label+removed" "$label" "--removed $removed" - "$expected" 5 1 "$truth" "$old" "$new" --removed "$removed"
            run_case main "$label" "$label" "" - "not contained" 1 "$runs" - "$old" "$new"
            run_case main "$label" "$label" "" - "not contained" 5 1 - "$old" "$new"
        else
            run_case main "$label" "$label" "" - "$expected" 1 "$runs" "$truth" "$old" "$new"
            run_case main "$label" "$label" "" - "$expected" 5 1 "$truth" "$old" "$new"
        fi
    done
fi

# --- the scaling series ---------------------------------------------------------------------

if ((do_scale)); then
    IFS=, read -r -a ws <<<"$widths"
    IFS=, read -r -a ps <<<"$scale_pairs"
    echo "scale: ${ps[*]} over widths ${ws[*]}" >&2
    for pair in "${ps[@]}"; do
        src="benches/contain/$pair"
        [[ -d "$src" ]] || { echo "no pair $src" >&2; exit 2; }
        gave_up=""
        for w in "${ws[@]}"; do
            if [[ -n "$gave_up" ]]; then
                # A wider range after an unknown verdict or a timeout: not run, to keep the
                # total time bounded; recorded with exit status -1 ("skipped").
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' scale "$pair.w$w" "$pair" \
                    "after $gave_up" "$w" - 1 1 -1 0 - - >>"$records"
                continue
            fi
            [[ "$w" =~ ^[0-9]+$ && "$w" -ge 2 && $((w % 2)) -eq 0 ]] || { echo "bad width $w" >&2; exit 2; }
            lo=$((-w / 2)) hi=$((w / 2 - 1))
            if [[ "$pair" == parity_nonneg ]]; then lo=0 hi=$((w - 1)); fi
            d="$work/scale/$pair.w$w"
            mkdir -p "$d/old" "$d/new"
            for v in old new; do
                sed -E "s/assume\(-?[0-9]+ <= x && x <= -?[0-9]+\)/assume($lo <= x \&\& x <= $hi)/" \
                    "$src/$v/f.c" >"$d/$v/f.c"
                grep -q "assume($lo <= x && x <= $hi)" "$d/$v/f.c" ||
                    { echo "could not set the range of $src/$v/f.c" >&2; exit 2; }
            done
            read -r omin omax < <(native "$d" "$lo" "$hi")
            if [[ -s "$d/native.diff" ]]; then expected="not contained"; else expected=contained; fi
            ranges="arg[$lo..$hi] out[$omin..$omax]"
            truth="$d/native.diff"
            if ((omax - omin + 1 > max_values)); then
                # The spec language refuses a range of more than 100,000 values (each value is a
                # letter of the models' alphabet). The result r goes out as two events instead,
                # out_hi((r - min) / 1024) then out_lo((r - min) % 1024): the same information
                # (the encoding is one-to-one), so the split pair is contained exactly when the
                # pair is, and a missing trace "arg.x out.r" becomes "arg.x out_hi.a out_lo.b".
                split=1024
                for v in old new; do
                    sed -i -e "s/out(f(x));/{ int r = f(x) - ($omin); out_hi(r \/ $split); out_lo(r % $split); }/" \
                        -e "s/^void out(int v);$/void out_hi(int v);\nvoid out_lo(int v);/" "$d/$v/f.c"
                    grep -q "out_lo(r % $split)" "$d/$v/f.c" || { echo "could not split the result of $d/$v/f.c" >&2; exit 2; }
                done
                sed -E -e "s/^event arg\[.*\]$/event arg[$lo..$hi]/" \
                    -e "s/^event out\[.*\]$/event out_hi[0..$(((omax - omin) / split))]\nevent out_lo[0..$((split - 1))]/" \
                    "$src/f.lts" >"$d/f.lts"
                awk -v mn="$omin" -v b="$split" '{ split($2, a, "."); r = a[2] - mn; printf "%s out_hi.%d out_lo.%d\n", $1, int(r / b), r % b }' \
                    "$d/native.diff" >"$d/native.split.diff"
                truth="$d/native.split.diff"
                ranges="arg[$lo..$hi] out_hi[0..$(((omax - omin) / split))] out_lo[0..$((split - 1))] (out[$omin..$omax] split)"
            else
                sed -E -e "s/^event arg\[.*\]$/event arg[$lo..$hi]/" -e "s/^event out\[.*\]$/event out[$omin..$omax]/" \
                    "$src/f.lts" >"$d/f.lts"
            fi
            run_case scale "$pair.w$w" "$pair" "$ranges" "$w" "$expected" 1 "$runs" \
                "$truth" "$d/old/f.c" "$d/new/f.c"
            case "$last_rc" in 3 | 124 | 137) gave_up="no verdict at width $w" ;; esac
        done
    done
fi

# --- the report -----------------------------------------------------------------------------

echo "## subst check: containment"
echo
if [[ -n "${SUBST_BIN:-}" ]]; then
    echo "- subst at SUBST_BIN=$subst (modified $(date -u -r "$subst" +%Y-%m-%dT%H:%MZ))"
else
    echo "- subst at $subst, built $(date -u -r "$subst" +%Y-%m-%dT%H:%MZ); HEAD $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD -- src 2>/dev/null || echo ' (src/ modified)')"
fi
echo "- $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo '?')"
echo "- --timeout $time_limit (timeout(1) at $((time_limit + 15)) s); up to $runs runs per check (median wall time; a check that took over 10 s runs once)"
echo
status=0
args=("$records")
if [[ -n "$json_out" ]]; then args+=(--json "$json_out"); fi
python3 "$here/contain_table.py" "${args[@]}" || status=$?
exit "$status"
