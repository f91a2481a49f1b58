// Components: comp
// Old version of f for the sum_loop pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    int s = 0;
    for (int i = 0; i < x; i++)
        s += i;
    return s;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
