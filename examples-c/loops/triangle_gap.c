// verify: holds
// A bound that is inductive only beside a degree-2 equality: t grows by c + 1 at each step, so 2*t == c*c + c + 4, which fixes t only modulo 2^31; the bound on t that rules out the other solutions (and the overflow of t + c + 1) is inductive only beside the equality, so it must be offered again with the products.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assert(int cond) {
    if (!cond) {
        reach_error();
        abort();
    }
}

int main() {
    int t = 2;
    int c = 0;
    while (c < 60000 && __VERIFIER_nondet_int()) {
        t = t + c + 1;
        c = c + 1;
    }
    __VERIFIER_assert(t >= c);
    return 0;
}
