// The locker marks the lock as owned before it grants it.
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
