#!/usr/bin/env bash
# How far runs overshoot `--timeout`: long checks (containment, compatibility, verify) run with
# --timeout T for each T, their wall time measured from outside; the goal is an overrun within
# 10% of T or 1 s, whichever is larger. See benches/TIMEOUT.md.
#
#   bash benches/timeout.sh [--limits 2,5,10] [--load N] [--only REGEX]
#
# --load N runs N busy loops (under nice) beside the runs, to measure on a loaded machine.
# --only REGEX runs only the cases whose name matches (grep -E).
# SUBST_BIN=path selects the binary (default target/release/subst; this script never builds).
# Prints one line per run: case, T, exit code, wall time, overrun, and the load average.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
bin="${SUBST_BIN:-$root/target/release/subst}"
limits="2,5,10"
load=0
only=
while [ $# -gt 0 ]; do
    case "$1" in
        --limits) limits="$2"; shift 2 ;;
        --load) load="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        *) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "no binary at $bin (cargo build --release)" >&2; exit 2; }

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# A component whose containment, compatibility and verification all run long: a 64-bit
# counter in two words, whose `tock` (or error) is about 10^8 iterations away.
cat > "$work/old.c" <<'C'
void tick(void);
void tock(void);
unsigned a, b;
void comp(void) {
  while (1) {
    a = a + 1;
    if (a == 0) b = b + 1;
    if (a * 7 + b == 123456789u) tock();
    tick();
  }
}
C
sed 's/123456789u/123456788u/' "$work/old.c" > "$work/new.c"
printf 'property NO_TOCK = (tick -> NO_TOCK) + {tock}.\n||SYS = (comp).\n' > "$work/s.lts"
sed 's/void comp(void)/int main(void)/; s/tock();/reach_error();/; s/void tick(void);/void reach_error(void);/' \
    "$work/old.c" > "$work/deep.c"

# Learning only (no SMT, no abstraction): the token ring of benches/dynamic_ring.lts with 50
# nodes, its assumptions learned by L# (verify) and, after an upgrade, by adaptive L#.
sed 's/^const N = 4/const N = 50/; s/^const V = 2/const V = 1/' "$root/benches/dynamic_ring.lts" > "$work/ring_old.lts"
sed 's/^const N = 4/const N = 50/' "$root/benches/dynamic_ring.lts" > "$work/ring.lts"

cases=(
    "containment|check --no-cache $work/old.c $work/new.c"
    "compatibility|check --no-cache --skip-containment $work/old.c $work/new.c --spec $work/s.lts"
    "verify-assembly|verify --no-cache $work/new.c --spec $work/s.lts"
    "verify-deep|verify $work/deep.c"
    "clock_divmod|verify $root/examples-c/cegar/clock_divmod.c"
    "divmod_symbolic|verify $root/benches/svcomp/divmod_symbolic.c"
    "deep_input_bug|verify $root/examples-c/loops/deep_input_bug.c"
    "learn-model|verify $work/ring.lts --engine ag --probe-states 0"
    "adaptive-upgrade|check $work/ring_old.lts $work/ring.lts --probe-states 0 --reuse adaptive"
)

for _ in $(seq 1 "$load"); do
    nice -n 10 sh -c 'while :; do :; done' &
    pids+=($!)
done

printf '%-16s %4s %4s %8s %8s %6s\n' case T exit wall_s over_s load
for t in ${limits//,/ }; do
    for c in "${cases[@]}"; do
        name="${c%%|*}"
        args="${c#*|}"
        if [ -n "$only" ] && ! echo "$name" | grep -qE "$only"; then
            continue
        fi
        start=$(date +%s.%N)
        set +e
        # shellcheck disable=SC2086
        timeout -k 5 $((t * 4 + 30)) "$bin" $args --timeout "$t" > /dev/null 2>&1
        code=$?
        set -e
        end=$(date +%s.%N)
        wall=$(echo "$end - $start" | bc)
        printf '%-16s %4s %4s %8.2f %8.2f %6s\n' "$name" "$t" "$code" "$wall" "$(echo "$wall - $t" | bc)" \
            "$(cut -d' ' -f1 /proc/loadavg)"
    done
done
