// Components: comp
// error: 9:5 `return` without a value in `pick`, whose result the caller uses

void out(int v);
int in(void);
static int pick(int v) {
    if (v > 0)
        return v;
    return;
}
void comp(void) {
    out(pick(in()));
}
