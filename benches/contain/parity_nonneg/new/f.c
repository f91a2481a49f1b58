// Components: comp
// check: contained

/*
 * Parity as x & 1 in the old version and x % 2 == 1 in the new one, for x in 0..7: for a
 * non-negative x both are 1 exactly when x is odd, so contained. parity_neg is the same pair
 * over -8..7.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x % 2 == 1;
}

void comp(void) {
    int x = arg();
    assume(0 <= x && x <= 7);
    out(f(x));
}
