// Components: comp
// error: 9:1 static assertion failed: "a buffer of at least 8 slots"

#define SLOTS 4

void out(int v);
int buffer[SLOTS];

_Static_assert(SLOTS >= 8, "a buffer of at least 8 slots");

void comp(void) {
    out(buffer[0]);
}
