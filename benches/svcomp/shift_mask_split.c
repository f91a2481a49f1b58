// expect: true
// shifts and bit masks: splitting an unsigned into halves and rebuilding it, and a byte swap applied twice
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int swap_bytes(unsigned int v) {
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

int main() {
    unsigned int x = __VERIFIER_nondet_uint();
    unsigned int hi = x >> 16;
    unsigned int lo = x & 0xFFFFu;
    if (hi > 0xFFFFu || ((hi << 16) | lo) != x) {
        reach_error();
        abort();
    }
    if (swap_bytes(swap_bytes(x)) != x || (swap_bytes(x) & 0xFFu) != (x >> 24)) {
        reach_error();
        abort();
    }
    return 0;
}
