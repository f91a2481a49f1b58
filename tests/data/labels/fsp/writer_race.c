// Writes once before it takes the lock, when the input says so. Expected: SAFE fails (with
// mixed.lts), the trace `write{}`.
int nondet_int(void);

void writer(void) {
    if (nondet_int() == 3)
        write();
    while (1) {
        acquire();
        write();
        release();
    }
}
