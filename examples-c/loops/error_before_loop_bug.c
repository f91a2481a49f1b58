// verify: fails
// The error is reachable before the loop, on a run that never enters it: k-induction's base case must check each depth on its own, not only runs that can take k steps (a regression: all four loop-free bugs of benches/svcomp were once reported as holding).
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int x = __VERIFIER_nondet_int();
    if (x == 7) {
        reach_error();
        abort();
    }
    int i = 0;
    while (i < 10)
        i++;
    return 0;
}
