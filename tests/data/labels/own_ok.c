// The server releases only while it holds the lock. Expected: SAFE holds.
int held;

void server(void) {
    while (1) {
        acquire();
        held = 1;
        release();
        held = 0;
    }
}
