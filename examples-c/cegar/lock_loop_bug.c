// verify: fails
// The lock loop with `new++` moved out of the branch: the loop goes round without releasing the lock, and the second acquire fails.

/*
 * The same program as lock_loop.c but for one line. Now `new` changes on every iteration, so the
 * loop always repeats, also after an iteration that kept the lock: the shortest counterexample
 * takes the loop twice with the nondet choice 0 on the first round.
 */

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int lock = 0;

void acquire(void) {
    if (lock != 0) {
        reach_error();
        abort();
    }
    lock = 1;
}

void release(void) {
    if (lock != 1) {
        reach_error();
        abort();
    }
    lock = 0;
}

int main() {
    unsigned int old;
    unsigned int new = __VERIFIER_nondet_int();
    do {
        acquire();
        old = new;
        if (__VERIFIER_nondet_int()) {
            release();
        }
        new++;
    } while (new != old);
    release();
    return 0;
}
