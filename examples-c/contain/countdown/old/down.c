// Components: countdown
// Old version: reads k on arg and counts r down from 100, once per unit of k; sends r on out.

int arg(void);
void out(int v);
void assume(int condition);

void countdown(void) {
    int k = arg();
    assume(0 <= k && k <= 15);
    int r = 100;
    while (k > 0) {
        r--;
        k--;
    }
    out(r);
}
