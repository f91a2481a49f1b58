/* Regression (issue 16, item 13): the new version sends another value of the same family; the
 * divergence says which. */
void send(int v);
int n;
void sender(void) {
    while (1) {
        send(n + 1);
        n = (n + 1) % 2;
    }
}
