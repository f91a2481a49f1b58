// verify: fails
// The assert idioms of assert_message.c with the clamp off by one (11): `assert(cond && "message")` fails once the level passes 10, and the report ends at the assert's line, confirmed by the interpreter.
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
        if (level > 11) {
            level = 11;
        }
        assert(level >= 0 && level <= 10 && "the level is clamped");
    }
    if (level > 10) {
        assert(!"unreachable: the level is clamped");
    }
    return 0;
}
