// verify: holds
// A chain of 10 independent locks in an endless loop: each taken under a nondet flag is released under the same flag; every lock needs its own predicate pair.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int f1; int f2; int f3; int f4; int f5; int f6; int f7; int f8; int f9; int f10;
    int held1; int held2; int held3; int held4; int held5; int held6; int held7; int held8; int held9; int held10;
    while (1) {
        if (__VERIFIER_nondet_int() == 0)
            break;
        f1 = __VERIFIER_nondet_int();
        held1 = 0;
        f2 = __VERIFIER_nondet_int();
        held2 = 0;
        f3 = __VERIFIER_nondet_int();
        held3 = 0;
        f4 = __VERIFIER_nondet_int();
        held4 = 0;
        f5 = __VERIFIER_nondet_int();
        held5 = 0;
        f6 = __VERIFIER_nondet_int();
        held6 = 0;
        f7 = __VERIFIER_nondet_int();
        held7 = 0;
        f8 = __VERIFIER_nondet_int();
        held8 = 0;
        f9 = __VERIFIER_nondet_int();
        held9 = 0;
        f10 = __VERIFIER_nondet_int();
        held10 = 0;
        if (f1 != 0)
            held1 = 1;
        if (f2 != 0)
            held2 = 1;
        if (f3 != 0)
            held3 = 1;
        if (f4 != 0)
            held4 = 1;
        if (f5 != 0)
            held5 = 1;
        if (f6 != 0)
            held6 = 1;
        if (f7 != 0)
            held7 = 1;
        if (f8 != 0)
            held8 = 1;
        if (f9 != 0)
            held9 = 1;
        if (f10 != 0)
            held10 = 1;
        if (f1 != 0) {
            if (held1 != 1) {
                reach_error();
                abort();
            }
            held1 = 0;
        }
        if (f2 != 0) {
            if (held2 != 1) {
                reach_error();
                abort();
            }
            held2 = 0;
        }
        if (f3 != 0) {
            if (held3 != 1) {
                reach_error();
                abort();
            }
            held3 = 0;
        }
        if (f4 != 0) {
            if (held4 != 1) {
                reach_error();
                abort();
            }
            held4 = 0;
        }
        if (f5 != 0) {
            if (held5 != 1) {
                reach_error();
                abort();
            }
            held5 = 0;
        }
        if (f6 != 0) {
            if (held6 != 1) {
                reach_error();
                abort();
            }
            held6 = 0;
        }
        if (f7 != 0) {
            if (held7 != 1) {
                reach_error();
                abort();
            }
            held7 = 0;
        }
        if (f8 != 0) {
            if (held8 != 1) {
                reach_error();
                abort();
            }
            held8 = 0;
        }
        if (f9 != 0) {
            if (held9 != 1) {
                reach_error();
                abort();
            }
            held9 = 0;
        }
        if (f10 != 0) {
            if (held10 != 1) {
                reach_error();
                abort();
            }
            held10 = 0;
        }
    }
    return 0;
}
