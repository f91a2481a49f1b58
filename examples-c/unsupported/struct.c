// Components: tracker
// error: struct: `struct position` is not an integer type

/* Keeps a position as a struct; only integers and arrays of integers are supported. */

int move(void);
void at(int x);

struct position {
    int x;
    int y;
};

struct position here;

void tracker(void) {
    while (1) {
        int dx = move();
        here.x += dx;
        at(here.x);
    }
}
