// Components: comp
// check: contained

/*
 * A countdown from 100, once per unit of x, against the subtraction 100 - x (100 when the
 * loop does not run). Equal for every x of the range; the proof needs r + k == 100 + x.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 0 ? 100 - x : 100;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
