// Components: summer
// Old version: reads n on arg and sends 0 + 1 + ... + (n - 1) on out, added up by a loop.

int arg(void);
void out(int v);
void assume(int condition);

void summer(void) {
    int n = arg();
    assume(0 <= n && n <= 15);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    out(s);
}
