// verify: fails
// A bug 250 loop iterations deep: the counter reaches the forbidden value only after 250 rounds.
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
    int i = 0;
    int j = 0;
    while (i < 1000) {
        i++;
        j += 3;
        if (j == 750) {
            reach_error();
            abort();
        }
    }
    return 0;
}
