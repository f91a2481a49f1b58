// verify: fails
// A table declared without an initialiser whose filling loop stops one slot short: the last slot holds any value, so the program has more than one run, and the one where it is 7 reaches the error. Taking the undefined slot as the 0 that the interpreter stores for it would prove the program wrongly.
extern void reach_error(void);

int main(void) {
    int table[4];
    for (int i = 0; i < 3; i++) {
        table[i] = i;
    }
    if (table[3] == 7) {
        reach_error();
    }
    return 0;
}
