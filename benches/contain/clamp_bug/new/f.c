// Components: comp
// check: not contained
// missing: arg.-4 out.-3
// divergence: 18

/*
 * clamp(x, -3, 3) with a sign typo: below -3 the new version returns 3 instead of -3. The
 * functions differ for x = -8..-4, so arg.x out.-3 is missing for each of them (arg.-4
 * out.-3 is one; all have length 2); the new version diverges at the conditional expression
 * that picks 3.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x < -3 ? 3 : (x > 3 ? 3 : x);
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
