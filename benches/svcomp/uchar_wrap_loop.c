// expect: true
// an unsigned char incremented 300 times wraps to 44 (300 - 256); a constant bound above 256
extern void abort(void);
void reach_error() {}

int main() {
    unsigned char c = 0;
    int i;
    for (i = 0; i < 300; i++)
        c++;
    if (c != 44 || i != 300) {
        reach_error();
        abort();
    }
    return 0;
}
