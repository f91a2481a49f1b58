// verify: holds
// A ring buffer declared without an initialiser and filled before it is read: the program reads no input, so it has one run, which the interpreter executes to its end (4,000 samples of a sawtooth, the running sum of the last eight checked at every step).
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
        ring[pos] = sample;
        pos = (pos + 1) % SLOTS;
        if (sum < 0 || sum > SLOTS * 49) {
            reach_error();
        }
    }
    return 0;
}
