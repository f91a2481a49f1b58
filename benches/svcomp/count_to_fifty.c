// expect: false
// a counter in a nondet loop hits the error at 50: the shortest bug needs 50 iterations
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int c = 0;
    while (__VERIFIER_nondet_int()) {
        c++;
        if (c == 50) {
            reach_error();
            abort();
        }
    }
    return 0;
}
