// expect: true
// xor and shifts: the parity of an unsigned by a 32-step loop equals the parity by xor-folding
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
    unsigned int x = __VERIFIER_nondet_uint();
    unsigned int p = 0;
    for (int i = 0; i < 32; i++)
        p ^= (x >> i) & 1u;
    unsigned int y = x;
    y ^= y >> 16;
    y ^= y >> 8;
    y ^= y >> 4;
    y ^= y >> 2;
    y ^= y >> 1;
    if (p != (y & 1u)) {
        reach_error();
        abort();
    }
    return 0;
}
