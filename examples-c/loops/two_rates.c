// verify: holds
// Two meters that advance at different rates on the two ways of a branch, so that only their sum is fixed: `red + blue == 5 * ticks` after every tick, whichever way it went. The invariant is found from samples at once; its consecution query is hard for the solver over the merged branch (an if-then-else inside bit-blasted arithmetic) and easy over each way alone.

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
    int limit = __VERIFIER_nondet_int();
    if (limit < 0 || limit > 1000000)
        return 0;
    int ticks = 0, red = 0, blue = 0;
    while (ticks < limit) {
        if (__VERIFIER_nondet_int()) {
            red = red + 2;
            blue = blue + 3;
        } else {
            red = red + 4;
            blue = blue + 1;
        }
        ticks = ticks + 1;
    }
    __VERIFIER_assert(red + blue == 5 * limit);
    return 0;
}
