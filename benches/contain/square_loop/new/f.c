// Components: comp
// check: contained

/*
 * Multiplication by repeated addition (x added up x times) against the multiplication
 * x * x (0 when the loop does not run). Equal for every x of the range; the proof needs the
 * loop invariant r == i * x.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 0 ? x * x : 0;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
