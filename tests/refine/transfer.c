// CEGAR alone: moving n units from x to y one at a time keeps x + y == n.
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
    return 0;
}
