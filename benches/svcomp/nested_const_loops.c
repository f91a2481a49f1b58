// expect: true
// nested loops with constant bounds: 10 x 10 iterations and a triangle of 45
extern void abort(void);
void reach_error() {}

int main() {
    int count = 0;
    int triangle = 0;
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 10; j++) {
            count++;
            if (j < i)
                triangle++;
        }
    }
    if (count != 100 || triangle != 45) {
        reach_error();
        abort();
    }
    return 0;
}
