// verify: holds
// Counting x down while y counts up: x + y == n at the loop head, so y == n at the end.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    if (n < 0)
        return 0;
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
