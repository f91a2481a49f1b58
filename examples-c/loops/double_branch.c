// verify: holds
// Two branches in a loop of unknown length, each keeping y == 2*x: the invariant spans both.
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
            y = y + 6;
        }
    }
    if (y != 2 * x) {
        reach_error();
        abort();
    }
    return 0;
}
