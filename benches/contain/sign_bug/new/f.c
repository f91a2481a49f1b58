// Components: comp
// check: not contained
// missing: arg.0 out.0
// divergence: 16

/*
 * sign(x) that forgets zero: the new version returns 1 for x = 0, the only input where the
 * two differ. The old trace arg.0 out.0 is missing; the new version diverges at x >= 0.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x >= 0 ? 1 : -1;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
