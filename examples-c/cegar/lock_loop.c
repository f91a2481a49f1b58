// verify: holds
// The lock loop of the BLAST paper (Henzinger et al., Lazy abstraction, POPL 2002): proving it needs the predicates lock == 1 and new == old, found by refinement.

/*
 * acquire() and release() fail when the lock is not in the state they expect. The loop takes the
 * lock, and on a nondet choice releases it and bumps `new`; it runs again exactly when it released
 * the lock, so at the loop's end the lock is held and the final release is right. A first
 * abstraction that tracks neither fact sees a path with two acquires in a row; the spurious path
 * yields `lock == 1`, then `new == old`.
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
            new++;
        }
    } while (new != old);
    release();
    return 0;
}
