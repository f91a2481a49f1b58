// expect: false
// p keeps the address of x after x's block ends; reading *p is undefined (C11 6.2.4p2).
// gcc -O0 runs it without reaching the error (the slot still holds 1); with
// -fsanitize=address it stops at the read: stack-use-after-scope. subst proved it.

void reach_error() {}

int main() {
    int *p;
    {
        int x = 1;
        p = &x;
    }
    if (*p != 1)
        reach_error();
    return 0;
}
