// expect: true
// a for loop with the constant bound 10: afterwards i == 10 and the sum of 3s is 30
extern void abort(void);
void reach_error() {}

int main() {
    int i;
    int s = 0;
    for (i = 0; i < 10; i++) {
        s += 3;
    }
    if (i != 10 || s != 30) {
        reach_error();
        abort();
    }
    return 0;
}
