// verify: fails
// parity_steps.c with the limit one higher: an odd mode now ends the count at 64, whose parity is not the mode's.
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int mode = __VERIFIER_nondet_uint();
    unsigned int c = 0;
    while (c < 64) {
        if (mode % 2 == 0) {
            c += 2;
        } else {
            c += 1;
        }
    }
    if (c % 2 != mode % 2) {
        reach_error();
    }
    return 0;
}
