// verify: fails
// x == y holds in every short run, but the 300th iteration resets y: a guessed invariant that only an exact re-check rejects, and a bug 300 iterations deep.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int x = 0;
    int y = 0;
    while (__VERIFIER_nondet_int()) {
        x++;
        y++;
        if (x == 300)
            y = 0;
    }
    if (x != y) {
        reach_error();
        abort();
    }
    return 0;
}
