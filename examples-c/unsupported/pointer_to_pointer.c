// Components: linker
// error: pointer to pointer: `int **pp` points to a pointer

/* A pointer to a pointer: subst's objects are integers and structs, not pointers. */

void seen(int v);

int x = 3;

void linker(void) {
    int *p = &x;
    int **pp = &p;
    seen(**pp);
}
