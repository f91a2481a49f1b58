// The writer writes right after `acquire`, before the locker has marked the lock as owned:
// a `write` can happen where Locked does not hold. Expected: SAFE fails, and the trace shows
// `write{}` (written with no proposition true).
int owner;

void locker(void) {
    while (1) {
        acquire();
        owner = 1;
        release();
        owner = 0;
    }
}

void writer(void) {
    while (1) {
        acquire();
        write();
        release();
    }
}
