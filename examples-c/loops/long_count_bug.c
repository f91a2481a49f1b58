// verify: fails
// A bug after 1.5 billion iterations of a loop without input, more steps than the only run may execute: its iterations are skipped by their closed form (loop acceleration), `y` wrapping around on the way as unsigned arithmetic does.
extern void abort(void);
void reach_error() {}

int main() {
    unsigned x = 0;
    unsigned y = 10;
    while (x < 3000000000u) {
        x += 2;
        y += 6;
    }
    if (y == 3 * x + 10) {
        reach_error();
        abort();
    }
    return 0;
}
