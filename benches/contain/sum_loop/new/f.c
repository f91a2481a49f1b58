// Components: comp
// check: contained

/*
 * A sum loop 0 + 1 + ... + (x - 1) against its closed form x * (x - 1) / 2 (0 when the loop
 * does not run). Equal for every x of the range; the proof needs the loop invariant
 * s == i * (i - 1) / 2.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x > 0 ? x * (x - 1) / 2 : 0;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
