// Components: tracker
// run: tracker inputs=3,-1,5 limit=8
// expect: move.3 at.3 move.-1 at.2 move.5 at.7
// end: eof

/* Keeps a position as a struct and moves it through a pointer to the struct. */

int move(void);
void at(int x);

struct position {
    int x;
    int y;
};

struct position here;

static void step(struct position *p, int dx) {
    p->x += dx;
    p->y = p->x * 2;
}

void tracker(void) {
    while (1) {
        int dx = move();
        step(&here, dx);
        at(here.x);
    }
}
