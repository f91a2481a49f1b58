// expect: true
// x and y incremented together up to a nondet bound n: x == y always, and x == n when n >= 0
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error();
        abort();
    }
    }
}

int main() {
    int n = __VERIFIER_nondet_int();
    int x = 0;
    int y = 0;
    while (x < n) {
        x++;
        y++;
    }
    __VERIFIER_assert(x == y);
    if (n >= 0)
        __VERIFIER_assert(x == n);
    return 0;
}
