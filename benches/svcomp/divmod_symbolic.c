// expect: true
// `/` and `%` by a symbolic divisor d in 1..1000: q*d + r == x, |r| < d, r takes the sign of x (hard for bit-vector solvers)
// unknown today: the refinement queries over 32-bit `/` and `%` by a symbolic divisor use up the solver's budget of work
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error();
        abort();
    }
    }
}

int main() {
    int x = __VERIFIER_nondet_int();
    int d = __VERIFIER_nondet_int();
    __VERIFIER_assume(d > 0 && d <= 1000);
    int q = x / d;
    int r = x % d;
    __VERIFIER_assert(q * d + r == x);
    __VERIFIER_assert(r > -d && r < d);
    if (x >= 0)
        __VERIFIER_assert(r >= 0);
    else
        __VERIFIER_assert(r <= 0);
    return 0;
}
