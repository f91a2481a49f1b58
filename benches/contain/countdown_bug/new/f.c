// Components: comp
// check: not contained
// missing: arg.1 out.99
// divergence: 16

/*
 * An off-by-one in the subtraction: 101 - x instead of 100 - x. Equal for x <= 0; for every x
 * from 1 the new version sends one more, so arg.1 out.99 is a missing trace (new: out.100).
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 0 ? 101 - x : 100;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
