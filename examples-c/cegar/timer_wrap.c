// verify: fails
// An unsigned wrap-around bug: a deadline computed as start + timeout wraps past UINT_MAX, so a timer started near the top of the clock expires at once.

/*
 * The clock is a free-running unsigned counter. The timer stores start + timeout and fires when
 * now >= deadline, which is wrong once the sum wraps: with start = 4294967290 and timeout = 100
 * the deadline is 94, and the first tick (now = 4294967291) fires it after 1 unit of time. The
 * right test is now - start >= timeout, which wraps correctly.
 */

extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

int main() {
    unsigned int start = __VERIFIER_nondet_uint();
    unsigned int timeout = __VERIFIER_nondet_uint();
    __VERIFIER_assume(timeout > 0 && timeout <= 1000);
    unsigned int deadline = start + timeout;
    unsigned int now = start;
    while (__VERIFIER_nondet_int()) {
        now++;
        if (now >= deadline) {
            if (now - start < timeout) {   /* fired early */
                reach_error();
                abort();
            }
            break;
        }
    }
    return 0;
}
