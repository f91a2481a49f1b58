// expect: false
// The sources define __VERIFIER_assume with an empty body: gcc calls it, so no run is cut and x = 0 reaches the error.

void reach_error() {}
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assume(int cond) {}

int main() {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 0);
    if (x <= 0)
        reach_error();
    return 0;
}
