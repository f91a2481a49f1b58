// verify: holds
// A bound that only a constant of the program gives: `level - round <= 999` stays true (it starts below 1000 and both grow together or `level` stays), so `level + 1` never wraps and `level` stays positive; the samples see only small values, and the bound is widened to the program's constant.

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
    int rounds = __VERIFIER_nondet_int();
    int level = __VERIFIER_nondet_int();
    __VERIFIER_assume(level > 0 && level < 1000);
    __VERIFIER_assume(rounds < 1000);
    for (int round = 0; round < rounds; round++) {
        if (__VERIFIER_nondet_int())
            level = level + 1;
        __VERIFIER_assert(level > 0);
    }
    return 0;
}
