// Components: comp
// error: 7:5 assignment to `limit`, which is declared `const`

void out(int v);
const int limit = 3;
void comp(void) {
    limit = 4;
    out(limit);
}
