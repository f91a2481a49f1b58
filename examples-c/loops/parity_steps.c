// verify: holds
// A counter that steps by 2 while the mode input is even and by 1 otherwise, up to a limit: at the end its parity is the mode's. The invariant is disjunctive (an even mode keeps the counter even and at most 64, an odd one keeps it at most 63), found by splitting the sampled states on the branch condition.
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int mode = __VERIFIER_nondet_uint();
    unsigned int c = 0;
    while (c < 63) {
        if (mode % 2 == 0) {
            c += 2;
        } else {
            c += 1;
        }
    }
    if (c % 2 != mode % 2) {
        reach_error();
    }
    return 0;
}
