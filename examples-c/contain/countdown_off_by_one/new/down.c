// Components: countdown
// check: not contained
// missing: arg.0 out.99
// divergence: 19

/*
 * The subtraction 100 - k replaces a countdown that counted once too often (99 - k): the two
 * differ for every k, and for k = 0 the old version sends out.99 where the new one sends
 * out.100, so arg.0 out.99 is a shortest missing trace.
 */

int arg(void);
void out(int v);
void assume(int condition);

void countdown(void) {
    int k = arg();
    assume(0 <= k && k <= 15);
    out(100 - k);
}
