// CEGAR alone: the transfer loop of transfer.c, with a check the invariant x + y == n rules out
// (a spurious path, refined first) and one it does not: y == 7 happens for n == 7. The
// invariant added by the refinement must not hide that real bug.
void reach_error(void);
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int c);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= n && n <= 1000000);
    int x = n;
    int y = 0;
    while (x > 0) {
        x--;
        y++;
    }
    if (y != n)
        reach_error();
    if (y == 7)
        reach_error();
    return 0;
}
