// Components: comp
// check: contained

/*
 * abs(x) rewritten with the branch-free bit trick: m = x >> 31 is 0 or -1 (gcc shifts a
 * negative int arithmetically), and (x ^ m) - m is x or ~x + 1 = -x. Equal on every x in
 * -8..7, so every old trace arg.x out.|x| is a new trace; showing it needs bit-precise
 * reasoning about >> and ^.
 */

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    int m = x >> 31;            /* 0 for x >= 0, -1 (all ones) for x < 0 */
    return (x ^ m) - m;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
