// Components: comp
// check: not contained
// missing: arg.1 out.0
// divergence: 17

/*
 * An off-by-one in the closed form: x * (x + 1) / 2 adds one term more than the loop. Equal
 * for x <= 0; for every x from 1 the old version sends (x - 1) * x / 2 and the new one more,
 * so arg.1 out.0 is a missing trace (new: out.1).
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 0 ? x * (x + 1) / 2 : 0;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
