// Components: main
// run: main inputs=12 limit=10
// expect:
// end: exit
// run: main inputs=2147483647 limit=10
// expect:
// end: exit
// run: main inputs=4294967295 limit=10
// expect: reach_error
// end: exit

/*
 * An SV-COMP style task that counts the set bits of an unsigned int in two ways, a loop over
 * the bits and Kernighan's x & (x - 1), and calls __VERIFIER_error (the older spelling of
 * reach_error) when they differ. The loop has a bug: it stops at bit 30 and misses the top bit.
 */

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_error(void);

int main() {
    unsigned int x = __VERIFIER_nondet_uint();
    int by_loop = 0;
    for (int bit = 0; bit < 31; bit++) {
        if ((x >> bit) & 1u)
            by_loop++;
    }
    int by_clearing = 0;
    unsigned int y = x;
    while (y != 0) {
        y &= y - 1;
        by_clearing++;
    }
    if (by_loop != by_clearing)
        __VERIFIER_error();
    return 0;
}
