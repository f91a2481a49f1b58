// Components: swapper
// error: pointer: `int *x` is a pointer parameter; subst models named integers, not memory

/* Swaps two globals through pointers: aliasing that subst does not model. */

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
