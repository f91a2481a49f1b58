// verify: fails
// A meter without input drains a budget of 3,000,001 units three at a time: a million iterations later one unit is left over and the check that everything was spent fails. No unrolling reaches that deep; the program's only run, executed by the interpreter, does.
extern void abort(void);
void reach_error() {}

int main() {
    unsigned int budget = 3000001u;
    unsigned int spent = 0;
    do {
        budget -= 3;
        spent += 3;
    } while (budget >= 3);
    if (spent != 3000001u) {
        reach_error();
    }
    return 0;
}
