// verify: holds
// Remembers the last index at which an input flag was set while scanning 0..n-1: that index lies in 0..n-1 whenever n > 0. The proof needs `last < i` once the scan has started, true only on one side of a condition: a case split of the sampled states.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    int i = 0;
    int last = 0;
    while (i < n) {
        if (__VERIFIER_nondet_int()) {
            last = i;
        }
        i++;
    }
    if (n > 0 && (last < 0 || last >= n)) {
        reach_error();
    }
    return 0;
}
