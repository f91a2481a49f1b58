// verify: holds
// glibc's assert idioms with a string literal: `assert(cond && "message")` and `assert(!"unreachable")`. The literal decays to a non-null pointer, so it is true as a condition and `!"text"` is false (as in the program gcc compiles); a level clamped to 10 in a loop keeps both asserts from firing.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main() {
    int level = 0;
    while (__VERIFIER_nondet_int()) {
        int step = __VERIFIER_nondet_int();
        if (step < 0 || step > 3) {
            continue;
        }
        level = level + step;
        if (level > 10) {
            level = 10;
        }
        assert(level >= 0 && level <= 10 && "the level is clamped");
    }
    if (level > 10) {
        assert(!"unreachable: the level is clamped");
    }
    return 0;
}
