// expect: false
// a + 5 on an array of 3 forms a pointer beyond one past the end: undefined in C (C11 6.5.6p8)
// even though it is never dereferenced. gcc -O0 (with or without -fsanitize=undefined,address)
// runs it without a report and without reaching the error; subst proved it.

void reach_error() {}

int main() {
    int a[3] = {1, 2, 3};
    int *p = a + 5;
    p = p - 4;
    if (*p != 2)
        reach_error();
    return 0;
}
