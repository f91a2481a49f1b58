// expect: false
// a counter meant to stay in 0..10 that tests c <= 10 before incrementing: 11 increments reach 11
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int c = 0;
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int()) {
            if (c <= 10)
                c++;
            else
                c = 0;
        } else if (c > 0) {
            c--;
        }
        if (c < 0 || c > 10) {
            reach_error();
            abort();
        }
    }
    return 0;
}
