// Writes only while it holds the lock. Expected: SAFE holds (with mixed.lts).
void writer(void) {
    while (1) {
        acquire();
        write();
        release();
    }
}
