// Components: multiplier
// Old version, with an off-by-one: the loop runs a + 1 times, so it sends (a + 1) * b.

int arg(void);
void out(int v);
void assume(int condition);

void multiplier(void) {
    int a = arg();
    int b = arg();
    assume(0 <= a && a <= 7);
    int r = 0;
    for (int i = 0; i <= a; i++)
        r += b;
    out(r);
}
