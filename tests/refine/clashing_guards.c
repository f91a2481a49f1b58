// CEGAR alone (no invariant prover before it): the error needs an input that is both above 5
// and below 3. The spurious path cannot run from any state at the loop head, so weakest
// preconditions explain it and no inductive invariant is needed (nor computed).
void reach_error(void);
int __VERIFIER_nondet_int(void);

int main(void) {
    int rounds = 0;
    while (1) {
        int y = __VERIFIER_nondet_int();
        if (y > 5) {
            if (y < 3)
                reach_error();
        }
        rounds++;
    }
    return 0;
}
