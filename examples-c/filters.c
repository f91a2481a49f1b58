// Components: filter
// run: filter inputs=10,20,30,40,500 limit=30
// expect: sample.10 smooth.4 peak.10 level.2 sample.20 smooth.11 peak.20 level.5 sample.30 smooth.20 peak.30 level.10 sample.40 smooth.30 peak.40 level.15 sample.500 smooth.180 peak.400 level.90
// end: eof
// run: filter inputs=-300,7 limit=4
// expect: sample.-300 smooth.-40 peak.0 level.0
// end: limit

/*
 * A sensor filter built from small helper functions, which subst inlines: clamping, the
 * maximum of three, a weighted average over the last four samples in a local array, and a
 * scaling step that returns a char. Helpers call earlier helpers; none is recursive.
 */

int sample(void);
void smooth(int v);
void peak(long v);
void level(char v);

int clamp(int v, int lo, int hi) {
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

int max2(int a, int b) {
    return a > b ? a : b;
}

int max3(int a, int b, int c) {
    return max2(max2(a, b), c);
}

long weighted(int newest, int older, int oldest, int oldest2) {
    long total = 4L * newest + 3L * older + 2L * oldest + oldest2;
    return total / 10;
}

char scale(unsigned v) {
    unsigned clipped = (unsigned) clamp((int) v, 0, 255);
    return (char) (clipped >> 1);
}

void filter(void) {
    int window[4] = {0, 0, 0, 0};
    unsigned n = 0;
    while (1) {
        int s = sample();
        s = clamp(s, -100, 400);
        window[n % 4] = s;
        n++;
        int a = window[(n + 3) % 4];
        int b = window[(n + 2) % 4];
        int c = window[(n + 1) % 4];
        int d = window[n % 4];
        long avg = weighted(a, b, c, d);
        smooth((int) avg);
        int top = max3(a, b, c);
        top = max2(top, d);
        peak(top);
        level(scale((unsigned) avg));
    }
}
