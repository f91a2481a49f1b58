// verify: fails
// A shallow bug in a loop with many counters: a charger that cools down by one per idle tick, and a check after the loop that takes an idle last tick to mean a cold charger (inputs 1, 1, 1, 0, 0: go on, charge, go on, idle, stop).

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

void __VERIFIER_assert(int cond) {
    if (!cond) {
        reach_error();
        abort();
    }
}

int main() {
    int charge = 0;
    int cycles = 0;
    int heat = 0;
    int mode = 0;
    int ticks = 0;
    while (__VERIFIER_nondet_int() && ticks < 10000) {
        int cmd = __VERIFIER_nondet_int();
        if (cmd == 1 && heat < 80) {
            charge = charge + 3;
            heat = heat + 2;
            mode = 1;
        } else if (cmd == 2 && charge > 0) {
            charge = charge - 1;
            mode = 2;
        } else {
            if (heat > 0) {
                heat = heat - 1;
            }
            mode = 0;
        }
        if (charge >= 100) {
            cycles = cycles + 1;
            charge = charge - 100;
        }
        ticks = ticks + 1;
    }
    if (mode == 0) {
        __VERIFIER_assert(heat == 0);
    }
    return 0;
}
