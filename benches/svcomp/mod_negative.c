// expect: false
// `%` of a negative int is negative in C, so a hash bucket h % 8 can fall outside 0..7
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int h = __VERIFIER_nondet_int();
    int bucket = h % 8;
    if (bucket < 0 || bucket >= 8) {
        reach_error();
        abort();
    }
    return 0;
}
