// Components: comp
// error: 6:5 `out` is declared with 1 parameters, 0 arguments given

void out(int v);
void comp(void) {
    out();
}
