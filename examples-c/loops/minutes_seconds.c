// verify: holds
// `/` and `%` by a constant on any int, negative too: splitting a duration into minutes and seconds and putting them back gives the same number; the solver gets the quotient and remainder with their defining constraints instead of a divider circuit.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assert(int cond) {
    if (!cond) {
        reach_error();
        abort();
    }
}

int main() {
    int total = __VERIFIER_nondet_int();
    int minutes = total / 60;
    int seconds = total % 60;
    __VERIFIER_assert(seconds > -60 && seconds < 60);
    __VERIFIER_assert(minutes * 60 + seconds == total);
    return 0;
}
