// Components: comp
// check: not contained
// missing: arg.-1 out.1
// divergence: 18

/*
 * The same pair as parity_nonneg over -8..7. In C, x % 2 is -1 for a negative odd x, so the
 * new version returns 0 for x = -7, -5, -3, -1 where x & 1 is 1 (two's complement). arg.-1
 * out.1 is missing (and arg.-3 out.1, arg.-5 out.1, arg.-7 out.1); the new version diverges
 * at the comparison x % 2 == 1.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x % 2 == 1;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
