// verify: holds
// A `%` and `/` arithmetic fact: splitting seconds into hours, minutes and seconds with / and % and putting them back gives the same number, with minutes and seconds below 60.

/*
 * For s >= 0: h = s / 3600, m = (s % 3600) / 60, r = s % 60. Since 60 divides 3600,
 * (s % 3600) % 60 == s % 60, so s == h*3600 + m*60 + r. No product overflows: h*3600 <= s.
 * No loop: the proof is one query about 32-bit division and remainder, but a predicate
 * abstraction has to carry the facts about h, m and r from the assignments to the assertions.
 */

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error();
        abort();
    }
    }
}

int main() {
    int s = __VERIFIER_nondet_int();
    __VERIFIER_assume(s >= 0 && s <= 1000000);
    int h = s / 3600;
    int m = (s % 3600) / 60;
    int r = s % 60;
    __VERIFIER_assert(m >= 0 && m < 60 && r >= 0 && r < 60);
    __VERIFIER_assert(h * 3600 + m * 60 + r == s);
    __VERIFIER_assert((s % 3600) % 60 == r && (s / 60) % 60 == m && s / 60 / 60 == h);
    return 0;
}
