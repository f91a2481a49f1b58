// verify: fails
// A bug that needs 300 iterations chosen by input: the loop only goes on while the input says so, and the error needs s to reach 600.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int s = 0;
    int k = 0;
    while (__VERIFIER_nondet_int() && k < 100000) {
        k++;
        s += 2;
        if (s == 600 && __VERIFIER_nondet_int() == 7) {
            reach_error();
            abort();
        }
    }
    return 0;
}
