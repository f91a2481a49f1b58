// Components: comp
// Old version of f for the countdown pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    int r = 100;
    int k = x;
    while (k > 0) {
        r--;
        k--;
    }
    return r;
}

void comp(void) {
    int x = arg();
    assume(-8 <= x && x <= 7);
    out(f(x));
}
