// Components: comp
// Old version of f for the abs_bits pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x < 0 ? -x : x;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
