// verify: holds
// A degree-2 invariant: summing 0, 1, ..., i-1 keeps `2*sum == i*i - i`, which no linear relation between `sum` and `i` says; products of the loop's variables are columns of the sampled relations.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

void __VERIFIER_assert(int cond) {
    if (!cond) {
        reach_error();
        abort();
    }
}

int main() {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 1000);
    int i = 0;
    int sum = 0;
    while (i < n) {
        sum = sum + i;
        i = i + 1;
    }
    __VERIFIER_assert(2 * sum == i * i - i);
    return 0;
}
