/*
 * A lock client that may ask for the lock again while it holds it (the C counterpart of
 * GREEDY_CLIENT in specs/lock.lts). Together with greedy_server.c, which grants every request,
 * the assembly LOCK violates GRANTED: two grants without a release between them.
 *
 *   subst verify examples-c/assembly/greedy_client.c examples-c/assembly/greedy_server.c \
 *       --spec specs/lock.lts --assembly LOCK --prop GRANTED
 */

void request(void);
int grant(void);
void release(void);
void work(void);
extern int nondet_int(void);
_Bool held; /* while it holds the lock: the proposition Held of specs/lock.lts */
void client(void) {
    while (1) {
        request();
        int answer = grant();
        if (answer == 1) { held = 1;
            if (nondet_int() > 5)
                continue; /* the bug: asks again while holding the lock */
            work();
            release(); held = 0;
        }
    }
}
