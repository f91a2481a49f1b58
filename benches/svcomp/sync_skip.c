// expect: false
// x and y incremented together up to a nondet n, except y skips x == 37: x != y exactly when n >= 37
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    int x = 0;
    int y = 0;
    while (x < n) {
        x++;
        if (x != 37)
            y++;
    }
    if (x != y) {
        reach_error();
        abort();
    }
    return 0;
}
