// verify: fails
// A bug that needs every one of 50 loop iterations to read a nonzero input: the bounded search's unrolling is complete at depth 51, where its early turn (a share of its budget per query) leaves the one error way unanswered, and a later turn asks it again with the whole budget.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int busy = 0;
    for (int tick = 0; tick < 50; tick++) {
        if (__VERIFIER_nondet_int()) {
            busy++;
        }
    }
    if (busy == 50) {
        reach_error();
    }
    return 0;
}
