// The file is open before it lets the locker acquire, and the locker writes only while it
// owns the lock. Expected: SAFE holds (with partial.lts).
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
        is_open = 1;
        acquire();
        release();
        is_open = 0;
        stop();
    }
}
