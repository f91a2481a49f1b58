// Components: countdown
// check: contained

/*
 * The countdown replaced by a subtraction: both send 100 - k for k in 0..15. The proof needs
 * the invariant r + k == 100 + k0 relating the old loop to the value both versions received.
 */

int arg(void);
void out(int v);
void assume(int condition);

void countdown(void) {
    int k = arg();
    assume(0 <= k && k <= 15);
    out(100 - k);
}
