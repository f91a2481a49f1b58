// Components: comp
// check: not contained
// missing: arg.3 out.3
// divergence: 17

/*
 * max(x, 2) with the threshold moved from 2 to 3 by mistake: for x = 3 the new version gives
 * 2 instead of 3, and that is the only input where they differ. The old trace arg.3 out.3 is
 * missing; the new version diverges at its comparison x > 3.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 3 ? x : 2;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
