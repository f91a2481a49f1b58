// Components: main
// run: main inputs=10 limit=10
// expect:
// end: exit
// run: main inputs=25 limit=10
// expect: reach_error
// end: exit
// run: main inputs=40 limit=10
// expect:
// end: blocked

/*
 * An SV-COMP style task (unreach-call): main, a K&R-style parameter list, reach_error defined
 * with an empty body and the usual __VERIFIER_assert wrapper. The sum 1 + ... + n is kept in an
 * unsigned char, so the closed form agrees with it only while the sum stays below 256, that is
 * up to n = 22; from n = 23 on the assertion fails.
 */

extern void abort(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

void reach_error() {}

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error();
        abort();
    }
    }
    return;
}

int main() {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 30);
    unsigned char sum = 0;
    int i = 0;
    while (i < n) {
        i++;
        sum += i;
    }
    __VERIFIER_assert(sum == n * (n + 1) / 2);
    return 0;
}
