// The old version's events and labels, with the owner counted up and down instead of set:
// the code differs, every behaviour (labels included) is kept. Expected: contained.
int owner;

void locker(void) {
    while (1) {
        acquire();
        owner++;
        granted();
        release();
        owner--;
    }
}
