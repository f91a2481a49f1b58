// expect: true
// x counts down from a nondet n >= 0 while y counts up: the invariant x + y == n gives y == n at the end
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main() {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0);
    int x = n;
    int y = 0;
    while (x > 0) {
        x--;
        y++;
    }
    if (y != n) {
        reach_error();
        abort();
    }
    return 0;
}
