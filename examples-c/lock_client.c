// Components: client
// run: client inputs=1,0,1 limit=20
// expect: request grant.1 work release request grant.0 request grant.1 work release request
// end: eof
// run: client inputs=0,0,7,0,0,0 limit=20
// expect: request grant.0 request grant.0 request grant.7 work release request grant.0 request grant.0 request grant.0 give_up
// end: exit

/*
 * A client that asks a lock server (lock_server.c) for the lock before each piece of work and
 * gives up after three refusals in a row. The client receives the server's answer through the
 * family grant, 0 meaning busy; the server sends it.
 */

void request(void);
int grant(void);
void release(void);
void work(void);
void give_up(void);

_Bool held;
int refusals;

void client(void) {
    while (1) {
        request();
        _Bool ok = grant();
        if (ok) {
            held = 1;
            work();
            release();
            held = 0;
            refusals = 0;
        } else {
            refusals++;
            if (refusals == 3) {
                give_up();
                return;
            }
        }
    }
}
