// verify: holds
// A state machine without input that runs forever: x steps through x*x + 1 modulo 1000 from 1 and never reaches 999. No linear invariant says so; executing the only run until a state at the loop head repeats (Brent's cycle detection) visits every state the program will ever be in.
extern void abort(void);
void reach_error() {}

int main() {
    unsigned int x = 1;
    while (1) {
        x = (x * x + 1) % 1000;
        if (x == 999) {
            reach_error();
        }
    }
    return 0;
}
