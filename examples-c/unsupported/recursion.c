// Components: walker
// error: recursion: `depth` calls itself, so it cannot be inlined

/* A recursive helper: calls are inlined, which recursion would never finish. */

int step(void);
void visit(int d);

int depth(int n) {
    if (n <= 0)
        return 0;
    visit(n);
    return 1 + depth(n - 1);
}

void walker(void) {
    while (1) {
        int n = step();
        visit(depth(n & 3));
    }
}
