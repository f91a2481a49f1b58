// Components: decoder
// error: union: the members of `union word` have different types and overlap byte by byte

/* Reads a word's low byte through a union: this needs a byte-level memory model. */

int input(void);
void low(int b);

union word {
    unsigned int w;
    unsigned char bytes[4];
};

void decoder(void) {
    union word u;
    u.w = input();
    low(u.bytes[0]);
}
