// expect: false
// unsigned wrap-around defeats a length check: len + 8 <= 64 holds for len near UINT_MAX
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int cap = 64;
    unsigned int len = __VERIFIER_nondet_uint();
    if (len + 8u <= cap) {
        /* the header and the payload fit, or so the check believes */
        if (len > cap) {
            reach_error();
            abort();
        }
    }
    return 0;
}
