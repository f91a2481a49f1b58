// Components: checksum
// run: checksum inputs=97,98,99,-1 limit=20
// expect: byte.97 byte.98 byte.99 byte.-1 hash.193485963 fletcher.19495 mixed.4051041397
// end: exit
// run: checksum inputs=255,255,255,255,255,255,255,255,255,255,-1 limit=30
// expect: byte.255 byte.255 byte.255 byte.255 byte.255 byte.255 byte.255 byte.255 byte.255 byte.255 byte.-1 hash.2892538779 fletcher.0 mixed.257710655
// end: exit
// run: checksum inputs=1,2,3 limit=2
// expect: byte.1 byte.2
// end: limit

/*
 * Checksums of a byte stream that ends with -1: djb2 (h * 33 + b, which wraps around in 32
 * bits), Fletcher-16 (sums modulo 255) and a final xor-shift mix. Bytes arrive as ints and are
 * truncated to unsigned char, so 255 and -1 differ only until the truncation.
 */

int byte(void);
void hash(unsigned h);
void fletcher(unsigned short f);
void mixed(unsigned m);

unsigned h = 5381;
unsigned short sum1, sum2;

void checksum(void) {
    int n = 0;
    while (1) {
        int b = byte();
        if (b == -1)
            break;
        unsigned char c = (unsigned char) b;
        h = ((h << 5) + h) + c;
        sum1 = (sum1 + c) % 255;
        sum2 = (sum2 + sum1) % 255;
        n++;
    }
    hash(h);
    fletcher((sum2 << 8) | sum1);
    unsigned m = h ^ (unsigned) n;
    m ^= m >> 16;
    m *= 0x45d9f3bu;
    m ^= m >> 16;
    mixed(m);
}
