// expect: false
// `/` truncates toward zero: for a negative odd sum, 2 * ((a + b) / 2) exceeds a + b
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main() {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    __VERIFIER_assume(a >= -100 && a <= 100 && b >= -100 && b <= 100);
    int avg = (a + b) / 2;
    /* the floor of the mean, or so the author thought */
    if (2 * avg > a + b) {
        reach_error();
        abort();
    }
    return 0;
}
