// The new version starts with the lock marked as owned (then behaves as the old one): its
// behaviours begin with the label {Locked} where the old version's begin with {}.
// Expected: NOT CONTAINED, the missing behaviour `@start{}`.
int owner = 1;

void locker(void) {
    owner = 0;
    while (1) {
        acquire();
        owner = 1;
        granted();
        release();
        owner = 0;
    }
}
