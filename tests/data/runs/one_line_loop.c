/* Regression (issue 16, item 9): statements that share a source line with the previous one
 * must each appear in the counterexample run. */
void put(int v);
void reach_error(void);

int main(void) {
    int i = 0, n = 0;
    while (1) { put(i); i = (i + 1) % 3; n++; if (n == 3) reach_error(); }
}
