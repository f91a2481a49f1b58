// expect: false
// a vending machine (enum state in while(1), nondet events): a cancel that keeps the credit lets it dispense unpaid after several steps
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

enum state { IDLE, PAYING, SELECTED, DISPENSING };
#define PRICE 3

int main() {
    enum state st = IDLE;
    int credit = 0;
    int paid = 0;
    while (1) {
        int ev = __VERIFIER_nondet_int();
        if (ev == 0) {                       /* coin */
            if ((st == IDLE || st == PAYING) && credit < 5) {
                credit++;
                paid++;
                st = PAYING;
            }
        } else if (ev == 1) {                /* select */
            if (st == PAYING && credit >= PRICE)
                st = SELECTED;
        } else if (ev == 2) {                /* cancel: refunds, but the bug keeps the credit */
            if (st == PAYING || st == SELECTED) {
                paid = 0;
                st = IDLE;
            }
        } else if (ev == 3) {                /* dispense */
            if (st == SELECTED) {
                if (paid < PRICE) {
                    reach_error();
                    abort();
                }
                credit -= PRICE;
                paid -= PRICE;
                st = DISPENSING;
            }
        } else if (st == DISPENSING) {       /* any other event: take the item */
            st = credit > 0 ? PAYING : IDLE;
        }
    }
}
