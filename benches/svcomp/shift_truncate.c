// expect: false
// a left shift stored back into an unsigned char loses the top bit, so shifting back differs for b >= 128
extern void abort(void);
void reach_error() {}
extern unsigned char __VERIFIER_nondet_uchar(void);

int main() {
    unsigned char b = __VERIFIER_nondet_uchar();
    unsigned char d = b << 1;
    if ((d >> 1) != b) {
        reach_error();
        abort();
    }
    return 0;
}
