#!/bin/sh
# Ground truth for the benchmark pairs: compile old/f.c and new/f.c of each pair natively with a
# harness that feeds every x of the declared arg range, print "x f(x)", and compare.
# Also checks that every result lies in the declared out range and that the header's verdict
# and `missing:` trace agree with the outputs. Usage: sh benches/contain/verify_native.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/contain_bench.XXXXXX)
cat > "$tmp/harness.c" <<'H'
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
status=0
for d in "$here"/*/; do
    name=$(basename "$d")
    range=$(sed -n 's/^event arg\[\(-\{0,1\}[0-9]*\)\.\.\(-\{0,1\}[0-9]*\)\]$/\1 \2/p' "$d/f.lts")
    orange=$(sed -n 's/^event out\[\(-\{0,1\}[0-9]*\)\.\.\(-\{0,1\}[0-9]*\)\]$/\1 \2/p' "$d/f.lts")
    for v in old new; do
        gcc -std=gnu11 -O0 -fwrapv -w -o "$tmp/$name.$v" "$d/$v/f.c" "$tmp/harness.c"
        "$tmp/$name.$v" $range > "$tmp/$name.$v.out"
    done
    set -- $orange
    bad=$(awk -v lo="$1" -v hi="$2" '$2 == "blocked" || $2 < lo || $2 > hi' "$tmp/$name.old.out" "$tmp/$name.new.out")
    [ -z "$bad" ] || { echo "$name: result outside out[$1..$2] or blocked: $bad"; status=1; }
    # Both runs go through the same x in the same order: line i of each is x = lo + i.
    diffs=$(paste -d ' ' "$tmp/$name.old.out" "$tmp/$name.new.out" |
        awk '$1 != $3 { print "harness out of step"; exit 1 } $2 != $4 { printf "arg.%s out.%s (new: %s); ", $1, $2, $4 }')
    expect=$(sed -n 's|^// check: ||p' "$d/new/f.c")
    if [ -z "$diffs" ]; then got=contained; else got="not contained"; fi
    [ "$got" = "$expect" ] || { echo "$name: header says '$expect' but gcc says '$got'"; status=1; }
    missing=$(sed -n 's|^// missing: ||p' "$d/new/f.c")
    if [ -n "$missing" ]; then
        case "; $diffs" in *"; $missing "*) ;; *) echo "$name: missing '$missing' is not a difference"; status=1 ;; esac
    fi
    echo "$name [arg $range]: $got${diffs:+ -- missing: $diffs}"
done
rm -rf "$tmp"
exit $status
