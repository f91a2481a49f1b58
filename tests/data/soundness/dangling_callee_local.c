// expect: false
// keep() stores the address of its own local in a global; after the call the object is gone
// and reading it is undefined (C11 6.2.4p2). gcc -O0 runs it without reaching the error and
// without an ASan report (use after return is not detected by default); subst proved it.

void reach_error() {}

int *saved;

void keep(void) {
    int x = 3;
    saved = &x;
}

int main() {
    keep();
    if (*saved != 3)
        reach_error();
    return 0;
}
