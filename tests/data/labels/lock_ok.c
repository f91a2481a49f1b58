// The locker marks the lock as owned before it grants it, and the writer writes only after
// the grant: every `write` happens in a state where Locked holds. Expected: SAFE holds.
int owner;

void locker(void) {
    while (1) {
        acquire();
        owner = 1;
        granted();
        release();
        owner = 0;
    }
}

void writer(void) {
    while (1) {
        acquire();
        granted();
        write();
        release();
    }
}
