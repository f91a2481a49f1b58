// verify: holds
// A relay that walks through numbered phases and may start over from phase 90: `level` rises by one in phases 10, 20 and 110 only when it has the value that phase expects, so it is at most 2 in every phase before 110 and at most 3 after. The check at the top of the loop and the one in phase 120 need those per-phase bounds (`phase == 90 -> level <= 2`), which no bound over all phases gives; phase 80 may wait any number of rounds, so k-induction does not help either.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int fast = __VERIFIER_nondet_int();
    int quiet = __VERIFIER_nondet_int();
    int mode = __VERIFIER_nondet_int();
    int phase = 10;
    int level = 0;
    int tries = 0;
    while (1) {
        if (phase <= 50 && level > 2) {
            reach_error();
            abort();
        }
        if (phase == 10) {
            if (level == 0)
                level = 1;
            phase = 20;
        } else if (phase == 20) {
            if (level == 1)
                level = 2;
            if (fast)
                phase = 110;
            else
                phase = 30;
        } else if (phase == 30) {
            phase = 40;
        } else if (phase == 40) {
            if (quiet + 1)
                phase = 50;
            else
                phase = 60;
        } else if (phase == 50) {
            phase = 60;
        } else if (phase == 60) {
            if (mode != 0 && quiet != 0)
                phase = 70;
            else
                phase = 80;
        } else if (phase == 70) {
            phase = 80;
        } else if (phase == 80) {
            if (__VERIFIER_nondet_int())
                phase = 90;
        } else if (phase == 90) {
            tries = tries + 1;
            if (__VERIFIER_nondet_int() == 2 && tries < 100)
                phase = 10;
            else
                phase = 100;
        } else if (phase == 100) {
            phase = 110;
        } else if (phase == 110) {
            if (level == 2)
                level = 3;
            phase = 120;
        } else if (phase == 120) {
            if (level == 4) {
                reach_error();
                abort();
            }
            if (fast)
                level = level + 1;
            break;
        } else {
            break;
        }
    }
    return 0;
}
