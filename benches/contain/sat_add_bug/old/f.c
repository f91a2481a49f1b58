// Components: comp
// Old version of f for the sat_add_bug pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    int s = x + 5;
    return s > 7 ? 7 : s;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
