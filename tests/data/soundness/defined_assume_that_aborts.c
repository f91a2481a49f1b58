// expect: true
// The sources define __VERIFIER_assume as a test that aborts: its body is followed, and it cuts the runs an assumption cuts.

void reach_error() {}
extern void abort(void);
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assume(int cond) {
    if (!cond)
        abort();
}

int main() {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 0);
    if (x <= 0)
        reach_error();
    return 0;
}
