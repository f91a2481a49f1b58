#!/bin/sh
# Runs the mutation fuzzer (examples/fuzz.rs) on one target for SECONDS, restarting it with the
# next seed after an abort (a stack overflow or a memory error cannot be caught in-process); the
# input of each abort is kept as target/fuzz/TARGET/abort-SEED.
#   nice -n 19 benches/fuzz.sh TARGET SECONDS [FIRST_SEED]
set -u
target=${1:?target: c, spec, ir or cache}
seconds=${2:?seconds}
seed=${3:-1}
cargo build --quiet --example fuzz || exit 2
end=$(( $(date +%s) + seconds ))
while [ "$(date +%s)" -lt "$end" ]; do
    left=$(( end - $(date +%s) ))
    ./target/debug/examples/fuzz "$target" "$left" "$seed"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "target $target: abort (status $status) with seed $seed" | tee -a "target/fuzz/$target/log"
        cp "target/fuzz/$target/current" "target/fuzz/$target/abort-$seed"
    fi
    seed=$(( seed + 1 ))
done
