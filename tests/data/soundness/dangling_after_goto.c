// expect: false
// The goto leaves the block of x before *p is read (C11 6.2.4p2: the object's lifetime ends
// when its block is left). gcc -O0 runs it without reaching the error; -fsanitize=address
// reports a stack-use-after-scope. subst proved it.

void reach_error() {}

int main() {
    int *p = 0;
    {
        int x = 1;
        p = &x;
        goto out;
    }
out:
    if (*p != 1)
        reach_error();
    return 0;
}
