// Components: comp
// error: 6:12 redefinition of the function `twice`

void out(int v);
static int twice(int v) { return 2 * v; }
static int twice(int v) { return v + v; }
void comp(void) {
    out(twice(3));
}
