// Components: countdown
// Old version, with an off-by-one: `k-- >= 0` counts once more than k, so it sends 99 - k.

int arg(void);
void out(int v);
void assume(int condition);

void countdown(void) {
    int k = arg();
    assume(0 <= k && k <= 15);
    int r = 100;
    while (k-- >= 0)
        r--;
    out(r);
}
