// Components: comp
// check: contained

/*
 * sign(x) as an if chain in the old version and as the difference of two comparisons (each 0
 * or 1) in the new one: equal on every x, so contained. The new version has no branch at
 * all; the checker must reason about the values of the comparisons.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return (x > 0) - (x < 0);
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
