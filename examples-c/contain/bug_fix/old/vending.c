// Components: vending
// Old version: with button 1 the machine hands out a second item for the same coin (the bug).

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
        if (b == 1 && stock > 0) {
            dispense();
            stock--;
        }
    }
    empty();
}
