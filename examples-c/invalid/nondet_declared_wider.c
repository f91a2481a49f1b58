// Components: main
// error: 9:14 `__VERIFIER_nondet_int` is declared to return a 64-bit integer, wider than the int it returns as an input

void reach_error(void) {}
extern long __VERIFIER_nondet_int(void);

/* Only the low 32 bits of the result are an int input; the rest is left undefined. */
int main(void) {
    long x = __VERIFIER_nondet_int();
    if (x > 5000000000L)
        reach_error();
    return 0;
}
