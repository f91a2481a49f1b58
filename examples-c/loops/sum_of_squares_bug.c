// verify: fails
// One more than the bound: the 30th iteration reaches the error, with input 30.

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
    if (s > 8554)
        reach_error();
    return 0;
}
