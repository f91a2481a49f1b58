// verify: fails
// The two-branch loop with one branch adding 5 instead of 6: after one such iteration y != 2*x.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int x = 0;
    int y = 0;
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int()) {
            x = x + 1;
            y = y + 2;
        } else {
            x = x + 3;
            y = y + 5;
        }
    }
    if (y != 2 * x) {
        reach_error();
        abort();
    }
    return 0;
}
