// verify: fails
// ring_average.c where a zero sample is not stored ("nothing to add"), so the slot keeps its old sample, which is later subtracted a second time: the running sum falls below zero at sample 58. The ring is declared without an initialiser and filled before it is read, so the program still has one run, which the interpreter executes to the error.
extern void reach_error(void);

#define SLOTS 8

int main(void) {
    int ring[SLOTS];
    int pos;
    int sum = 0;
    for (pos = 0; pos < SLOTS; pos++) {
        ring[pos] = 0;
    }
    pos = 0;
    for (int t = 0; t < 4000; t++) {
        int sample = t % 50;
        sum += sample - ring[pos];
        if (sample != 0) {
            ring[pos] = sample;
        }
        pos = (pos + 1) % SLOTS;
        if (sum < 0 || sum > SLOTS * 49) {
            reach_error();
        }
    }
    return 0;
}
