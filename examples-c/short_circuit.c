// Components: guarded unguarded
// run: guarded inputs=10,2,0,3,9,1 limit=30
// expect: amount.10 divisor.2 ratio.5 miss amount.0 divisor.3 small hit.3 small amount.9 divisor.1 ratio.9 hit.1
// end: eof
// run: guarded inputs=5,0,5,-4,5,100 limit=30
// expect: amount.5 divisor.0 small miss small amount.5 divisor.-4 small miss amount.5 divisor.100 small miss
// end: eof
// run: unguarded inputs=10,2,7,0 limit=30
// expect: amount.10 divisor.2 ratio.5 amount.7 divisor.0
// end: fault(div_by_zero)

/*
 * Short-circuit evaluation as a guard: the right operand of && and || is evaluated only when
 * the left one does not decide the result, so `d != 0 && total / d > 2` never divides by zero
 * and `i < 8 && table[i] != 0` never reads past the table. The unguarded component drops the
 * guard, and its division by zero is an error trace.
 */

int amount(void);
int divisor(void);
void ratio(int r);
void small(void);
void hit(int i);
void miss(void);

int table[8] = {0, 3, 0, 7, 0, 0, 1, 0};

void guarded(void) {
    while (1) {
        int total = amount();
        int d = divisor();
        if (d != 0 && total / d > 2)
            ratio(total / d);
        else
            small();
        if (d < 0 || d >= 8 || table[d] == 0)
            miss();
        else
            hit(d);
        _Bool both = total > 0 && !(d == 0);
        if (!both)
            small();
    }
}

void unguarded(void) {
    while (1) {
        int total = amount();
        int d = divisor();
        if (total / d > 2)
            ratio(total / d);
        else
            small();
    }
}
