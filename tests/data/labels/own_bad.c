// The server gives the lock up before it releases it. Expected: SAFE fails with `release{}`.
int held;

void server(void) {
    while (1) {
        acquire();
        held = 1;
        held = 0;
        release();
    }
}
