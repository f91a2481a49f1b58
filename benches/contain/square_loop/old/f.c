// Components: comp
// Old version of f for the square_loop pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    int r = 0;
    for (int i = 0; i < x; i++)
        r += x;
    return r;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
