// expect: true
// a loop written with goto up to a nondet bound in 0..1000: s == 2*i and i == n at the end
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main() {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n >= 0 && n <= 1000);
    int i = 0;
    int s = 0;
loop:
    if (i >= n)
        goto done;
    s += 2;
    i++;
    goto loop;
done:
    if (s != 2 * i || i != n) {
        reach_error();
        abort();
    }
    return 0;
}
