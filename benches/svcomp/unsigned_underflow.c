// expect: false
// an unsigned balance with an overdraft allowance: withdrawing more than the balance wraps it past the cap
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int balance = 100;
    while (__VERIFIER_nondet_int()) {
        unsigned int w = __VERIFIER_nondet_uint();
        if (w <= balance + 10u)
            balance -= w;
        else if (__VERIFIER_nondet_int() && balance <= 90u)
            balance += 10u;
        if (balance > 100u) {
            reach_error();
            abort();
        }
    }
    return 0;
}
