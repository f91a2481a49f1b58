/*
 * A lock server that grants every request without waiting for the release (the C counterpart
 * of GREEDY_SERVER in specs/lock.lts); see greedy_client.c.
 */

void request(void);
void grant(int answer);
void release(void);

void lock_server(void) {
    while (1) {
        request();
        grant(1);
    }
}
