// expect: true
// a local array filled in a loop with a[i] = 3*i, read back at a nondet index in range
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main() {
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = 3 * i;
    int k = __VERIFIER_nondet_int();
    __VERIFIER_assume(k >= 0 && k < 8);
    if (a[k] != 3 * k || a[k] % 3 != 0) {
        reach_error();
        abort();
    }
    return 0;
}
