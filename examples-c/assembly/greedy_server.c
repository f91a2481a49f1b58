/*
 * A lock server that grants every request without waiting for the release (the C counterpart
 * of GREEDY_SERVER in specs/lock.lts); see greedy_client.c.
 */

void request(void);
void grant(int answer);
void release(void);
enum lock_state { FREE, TAKEN } state; /* the proposition Taken of specs/lock.lts */
void lock_server(void) {
    while (1) {
        request(); state = TAKEN;
        grant(1);
    }
}
