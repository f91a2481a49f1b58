// verify: holds
// A sender that retries a failed transmission up to 40 times per message before it gives up: tries stays within 0..40, an invariant with 41 values for one predicate pair.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

#define LIMIT 40
enum mode { READY, SENDING, WAITING, GAVE_UP };

int main() {
    enum mode m = READY;
    int tries = 0;
    int sent = 0;
    while (__VERIFIER_nondet_int()) {
        int ok = __VERIFIER_nondet_int();
        if (m == READY) {
            m = SENDING;
            tries = 0;
        } else if (m == SENDING) {
            if (ok) {
                sent++;
                m = READY;
            } else {
                tries++;
                m = tries < LIMIT ? WAITING : GAVE_UP;
            }
        } else if (m == WAITING) {
            m = SENDING;
        } else {
            m = READY;
            tries = 0;
        }
        if (tries > LIMIT || tries < 0) {
            reach_error();
            abort();
        }
    }
    return 0;
}
