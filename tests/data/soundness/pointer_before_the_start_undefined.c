// expect: false
// p-- from the first element forms a pointer before the array: undefined in C (C11 6.5.6p8).
// gcc -O0 (with or without -fsanitize=undefined,address) runs it without a report and without
// reaching the error; subst proved it.

void reach_error() {}

int main() {
    int a[3] = {1, 2, 3};
    int *p = a;
    p--;
    p += 2;
    if (*p != 2)
        reach_error();
    return 0;
}
