// Components: blinker
// Old version: receives n and blinks 1..n, then done.

int count(void);
void blink(int k);
void done(void);

void blinker(void) {
    int n = count();
    for (int i = 1; i <= n; i++)
        blink(i);
    done();
}
