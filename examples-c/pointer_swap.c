// Components: swapper
// run: swapper inputs= limit=4
// expect: send.2 send.1 send.2 send.1
// end: limit

/*
 * Swaps two globals through pointers: the helper's parameters point to `a` and `b`, which the
 * points-to analysis finds as the only integers whose address the component takes.
 */

void send(int v);

int a = 1;
int b = 2;

void swap(int *x, int *y) {
    int t = *x;
    *x = *y;
    *y = t;
}

void swapper(void) {
    while (1) {
        swap(&a, &b);
        send(a);
    }
}
