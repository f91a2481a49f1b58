// Components: multiplier
// check: not contained
// divergence: 19

/*
 * The multiplication replaces a loop that ran once too often: the old version sent (a + 1) * b,
 * the new one a * b. They differ whenever b != 0: every old trace arg.a arg.b out.((a+1)*b)
 * with b != 0 is missing (for a = 0: arg.0 arg.b out.b), and for b = 0 nothing is.
 */

int arg(void);
void out(int v);
void assume(int condition);

void multiplier(void) {
    int a = arg();
    int b = arg();
    assume(0 <= a && a <= 7);
    out(a * b);
}
