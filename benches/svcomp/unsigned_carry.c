// expect: true
// unsigned wrap-around: a + b wraps exactly when the 64-bit sum carries into bit 32
extern void abort(void);
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error();
        abort();
    }
    }
}

int main() {
    unsigned int a = __VERIFIER_nondet_uint();
    unsigned int b = __VERIFIER_nondet_uint();
    unsigned int sum = a + b;
    int wrapped = sum < a;
    unsigned long wide = (unsigned long)a + (unsigned long)b;
    int carry = (int)(wide >> 32);
    __VERIFIER_assert(wrapped == carry);
    __VERIFIER_assert(sum == (unsigned int)wide);
    __VERIFIER_assert(sum - b == a);
    return 0;
}
