// Components: summer
// check: not contained
// missing: arg.1 out.0
// divergence: 19

/*
 * An off-by-one in the closed form: n * (n + 1) / 2 is 0 + 1 + ... + n, one term more than
 * the old loop adds. Both send 0 for n = 0; for n = 1 the old version sends 0 and the new one
 * 1, so arg.1 out.0 is a shortest missing trace (every n from 1 to 15 gives one).
 */

int arg(void);
void out(int v);
void assume(int condition);

void summer(void) {
    int n = arg();
    assume(0 <= n && n <= 15);
    out(n * (n + 1) / 2);
}
