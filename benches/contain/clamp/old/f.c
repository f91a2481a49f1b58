// Components: comp
// Old version of f for the clamp pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    if (x < -3)
        return -3;
    if (x > 3)
        return 3;
    return x;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
