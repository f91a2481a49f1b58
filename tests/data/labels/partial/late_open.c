// The file marks itself open only after the locker has acquired: the locker can write, holding
// the lock, before the file is open. Expected: SAFE fails with the trace ending in
// `write{Locked}` (with partial.lts).
int owner;
int is_open;

void locker(void) {
    while (1) {
        acquire();
        owner = 1;
        write();
        release();
        owner = 0;
    }
}

void file(void) {
    while (1) {
        start();
        acquire();
        is_open = 1;
        release();
        is_open = 0;
        stop();
    }
}
