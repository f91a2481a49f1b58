// Components: comp
// check: contained

/*
 * clamp(x, -3, 3) as two early returns in the old version and as a nested conditional
 * expression in the new one: equal on every x, so contained.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x < -3 ? -3 : (x > 3 ? 3 : x);
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
