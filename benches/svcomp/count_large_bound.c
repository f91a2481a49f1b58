// expect: true
// a loop with the constant bound 1000 (a bounded checker needs 1000 unwindings); needs j == 2*i
extern void abort(void);
void reach_error() {}

int main() {
    unsigned int i = 0;
    unsigned int j = 0;
    while (i < 1000u) {
        i++;
        j += 2;
    }
    if (j != 2000u) {
        reach_error();
        abort();
    }
    return 0;
}
