// Components: lock_server
// run: lock_server inputs= limit=7
// expect: request grant.1 release request grant.1 release request
// end: limit

/*
 * The lock that lock_client.c talks to. It grants every request and then waits for the release,
 * so it never sends grant.0, which the client is also prepared for.
 */

void request(void);
void grant(int answer);
void release(void);

enum lock_state { FREE, TAKEN };

enum lock_state state = FREE;

void lock_server(void) {
    while (1) {
        request();
        state = TAKEN;
        grant(state == TAKEN);
        release();
        state = FREE;
    }
}
