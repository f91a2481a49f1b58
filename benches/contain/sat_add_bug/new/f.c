// Components: comp
// check: not contained
// missing: arg.3 out.7
// divergence: 18

/*
 * A saturating x + 5 capped at 7. The new version tests the argument instead of the sum and
 * gets the threshold wrong (x + 5 > 7 is x > 2, not x > 3): for x = 3 it returns 8 instead
 * of 7, the only input where they differ. The old trace arg.3 out.7 is missing; out is
 * declared up to 8 so that 8 is a value, not an out-of-range error.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 3 ? 7 : x + 5;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
