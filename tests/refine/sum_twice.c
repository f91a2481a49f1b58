// CEGAR alone (no invariant prover before it): a loop whose proof needs s == 2*i.
// Refinement by weakest preconditions learns s == 2, s == 4, ... one iteration at a time.
void reach_error(void);
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int c);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= n && n <= 1000000);
    int s = 0;
    int i = 0;
    while (i < n) {
        s += 2;
        i++;
    }
    if (s != 2 * n)
        reach_error();
    return 0;
}
