// Components: comp
// check: contained

/*
 * max(x, 2) written as a ternary in the old version and as an in-place update of the
 * parameter in the new one. Both give 2 for x <= 2 and x above it (at x = 2 both give 2), so
 * the functions are equal on -8..7 and the new version is contained.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    if (x < 2)
        x = 2;
    return x;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
