// Components: comp
// Old version of f for the parity_nonneg pair: reads x on arg, sends f(x) on out.

int arg(void);
void out(int v);
void assume(int condition);

int f(int x) {
    return x & 1;
}

void comp(void) {
    int x = arg();
    assume(0 <= x && x <= 7);
    out(f(x));
}
