// expect: true
// The sources define __VERIFIER_nondet_int to return 5: it is a function like any other, not an input, so the error is unreachable.

void reach_error() {}

int __VERIFIER_nondet_int(void) { return 5; }

int main() {
    if (__VERIFIER_nondet_int() != 5)
        reach_error();
    return 0;
}
