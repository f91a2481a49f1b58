// Components: handler
// check: contained

/*
 * The new version retries a failing request up to three times, silently, before it answers;
 * a retry does not change the request, so the answers are the old ones. The new version loops
 * without an event, so the product of the two versions is not built (its termination between
 * two events would have to be proved): the abstraction loop decides this pair.
 */

int req(void);
void ok(void);
void fail(void);

void handler(void) {
    while (1) {
        int r = req();
        int tries = 0;
        while (r != 0 && tries < 3)
            tries++;
        if (r == 0)
            ok();
        else
            fail();
    }
}
