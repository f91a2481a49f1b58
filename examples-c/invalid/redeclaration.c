// Components: comp
// error: 7:9 redeclaration of `x` in the same scope

void out(int v);
void comp(void) {
    int x = 1;
    int x = 2;
    out(x);
}
