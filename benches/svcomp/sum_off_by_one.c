// expect: false
// an off-by-one bound (i <= 100) in a constant loop of 101 iterations: the sum is 5050, not 4950
extern void abort(void);
void reach_error() {}

int main() {
    int s = 0;
    for (int i = 0; i <= 100; i++)
        s += i;
    if (s != 4950) {
        reach_error();
        abort();
    }
    return 0;
}
