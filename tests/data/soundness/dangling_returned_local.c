// expect: false
// at() returns the address of its parameter, which ends with the call. gcc -O0 warns and
// returns a null pointer instead: the compiled program crashes at *p (SIGSEGV), and with
// -fsanitize=undefined reports a load of a null pointer. subst proved it.

void reach_error() {}

int *at(int v) { return &v; }

int main() {
    int *p = at(3);
    if (*p != 3)
        reach_error();
    return 0;
}
