// Components: blinker
// check: not contained
// missing: count.1 blink.1
// divergence: 19

/*
 * An off-by-one: the loop test became i < n, so the last blink of every count is gone. For
 * count.1 the old version performs blink.1 and the new one goes straight to done; the trace
 * count.1 blink.1 is a shortest missing one (count.2 blink.1 is still possible). The new version
 * is cut off at the loop condition, which is false for i = n = 1.
 */

int count(void);
void blink(int k);
void done(void);

void blinker(void) {
    int n = count();
    for (int i = 1; i < n; i++)
        blink(i);
    done();
}
