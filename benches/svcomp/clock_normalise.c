// expect: true
// `/` and `%` split seconds into h:m:s, then a nondet number of ticks (up to 100000) keeps h*3600 + m*60 + r == s: needs a linear invariant
// unknown today: the refinement queries over 32-bit `/` and `%` by constants use up the solver's budget of work

/*
 * For s >= 0: h = s / 3600, m = (s % 3600) / 60, r = s % 60. Since 60 divides 3600,
 * (s % 3600) % 60 == s % 60, so s == h*3600 + m*60 + r. No product overflows: h*3600 <= s.
 * The facts are bit-precise ones about 32-bit division; the loop normalises a nondet number of
 * extra seconds into the same representation one second at a time, which needs the invariant
 * that the two stay equal.
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
    int extra = __VERIFIER_nondet_int();
    __VERIFIER_assume(extra >= 0 && extra <= 100000);
    while (extra > 0) {
        extra--;
        s++;
        r++;
        if (r == 60) { r = 0; m++; }
        if (m == 60) { m = 0; h++; }
    }
    __VERIFIER_assert(h * 3600 + m * 60 + r == s);
    __VERIFIER_assert(r < 60 && m < 60);
    return 0;
}
