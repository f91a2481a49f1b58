// verify: holds
// A loop that adds 2 per iteration up to an input bound: the proof needs the linear invariant s == 2*i, which no number of unrollings gives.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    if (n < 0)
        return 0;
    int i = 0;
    int s = 0;
    while (i < n) {
        s += 2;
        i++;
    }
    if (s != 2 * n) {
        reach_error();
        abort();
    }
    return 0;
}
