// Components: vending
// check: contained
// removed: DOUBLE_DISPENSE

/*
 * A bug fix: the old machine dispensed a second item for one coin when button 1 was pressed
 * and stock was left; the new one dispenses exactly one item per coin, whatever the button.
 * The spec's DOUBLE_DISPENSE holds the removed behaviours: the traces with two dispenses after
 * one coin (and anything after them). With --removed DOUBLE_DISPENSE the new version is
 * contained. Without it, it is not: coin button.1 dispense dispense is missing (a shortest one),
 * and the new version is cut off after its single dispense, at the loop condition.
 */

void coin(void);
int button(void);
void dispense(void);
void empty(void);

void vending(void) {
    int stock = 3;
    while (stock > 0) {
        coin();
        int b = button();
        dispense();
        stock--;
    }
    empty();
}
