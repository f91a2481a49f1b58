// expect: true
// The address of a callee's local is used only while the call runs, in every iteration of a
// loop: no dangling pointer. gcc -O0 (also with -fsanitize=undefined,address) runs it to the
// end without reaching the error.

void reach_error() {}

void set(int *p, int v) { *p = v; }

int twice(int v) {
    int x = 0;
    set(&x, v);
    return x + x;
}

int main() {
    int s = 0;
    for (int i = 0; i < 4; i++) {
        int y;
        int t = twice(i);
        set(&y, t);
        s += y;
    }
    if (s != 12)
        reach_error();
    return 0;
}
