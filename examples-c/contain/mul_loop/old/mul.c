// Components: multiplier
// Old version: reads a and b on arg and sends a * b on out, by adding b up a times.

int arg(void);
void out(int v);
void assume(int condition);

void multiplier(void) {
    int a = arg();
    int b = arg();
    assume(0 <= a && a <= 7);
    int r = 0;
    for (int i = 0; i < a; i++)
        r += b;
    out(r);
}
