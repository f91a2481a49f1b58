// Components: summer
// check: contained

/*
 * The loop replaced by its closed form n * (n - 1) / 2. For n in 0..15 both versions send the
 * same value and nothing overflows, so every trace arg.n out.s of the old version is one of
 * the new. The proof needs the loop invariant s == i * (i - 1) / 2, which is not linear.
 */

int arg(void);
void out(int v);
void assume(int condition);

void summer(void) {
    int n = arg();
    assume(0 <= n && n <= 15);
    out(n * (n - 1) / 2);
}
