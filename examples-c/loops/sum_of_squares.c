// verify: holds
// The loop runs at most 30 times because of an assumed range, not a constant of the program: the
// sum of the squares below 30 is 8555 at most, which no invariant of the candidates states. At 31
// iterations the way into the next one (`i < n` with `i == 31` and `n <= 30`) does not simplify to
// false, yet no run takes it: the bounded search asks the solver, and its complete unrolling is the
// proof.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 30);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i * i;
    if (s > 8555)
        reach_error();
    return 0;
}
