// Components: tripler
// check: not contained
// missing: arg.2 out.6
// divergence: 19

/*
 * The loop became a table with two typos: 5 for 3 * 2 and 17 for 3 * 6. Exactly two shortest
 * traces are missing, arg.2 out.6 and arg.6 out.18; both are reported, shortest loop first, and
 * the product of the versions without them is safe, so there are no others.
 */

int arg(void);
void out(int v);

const int triple[8] = {0, 3, 5, 9, 12, 15, 17, 21};

void tripler(void) {
    int n = arg();
    out(triple[n]);
}
