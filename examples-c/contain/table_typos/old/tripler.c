// Components: tripler
// Old version: receives n and answers 3 * n, computed by repeated addition.

int arg(void);
void out(int v);

void tripler(void) {
    int n = arg();
    int s = 0;
    for (int i = 0; i < n; i++)
        s += 3;
    out(s);
}
