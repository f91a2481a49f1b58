// Components: comp
// error: 7:9 `add` takes 2 arguments, 1 given

void out(int v);
static int add(int a, int b) { return a + b; }
void comp(void) {
    out(add(1));
}
