// expect: true
// `/` and `%` by the constant 10 on any int, negative too: q*10 + r == x, |r| < 10, r takes the sign of x
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

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
    int q = x / 10;
    int r = x % 10;
    __VERIFIER_assert(q * 10 + r == x);
    __VERIFIER_assert(r > -10 && r < 10);
    if (x >= 0)
        __VERIFIER_assert(r >= 0 && q >= 0);
    else
        __VERIFIER_assert(r <= 0 && q <= 0);
    return 0;
}
