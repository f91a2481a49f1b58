// verify: holds
// The transfer loop on unsigned values with no bound on n: up to 2^32 - 1 iterations, so only an invariant (x + y == n, modulo 2^32) proves it.
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int n = __VERIFIER_nondet_uint();
    unsigned int x = n;
    unsigned int y = 0;
    while (x != 0) {
        x--;
        y++;
    }
    if (x + y != n) {
        reach_error();
        abort();
    }
    return 0;
}
