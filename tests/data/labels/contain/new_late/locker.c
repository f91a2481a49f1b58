// The same events as the old version, but the lock is marked as owned only after the grant:
// `granted` now leads to a state where Locked does not hold. Expected: not contained, the
// missing behaviour is `acquire{} granted{Locked}`.
int owner;

void locker(void) {
    while (1) {
        acquire();
        granted();
        owner = 1;
        release();
        owner = 0;
    }
}
