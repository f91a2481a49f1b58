/* A lock server for the proposition tests: `held` is 1 between acquire and release. */

void acquire(void);
void release(void);

enum phase { FREE, TAKEN } phase;
int held;
int count[2];

void server(void) {
    while (1) {
        acquire();
        held = 1;
        phase = TAKEN;
        count[held] = count[held] + 1;
        release();
        held = 0;
        phase = FREE;
    }
}
