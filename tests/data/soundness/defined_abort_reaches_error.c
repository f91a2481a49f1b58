// expect: false
// The sources define abort() to call reach_error(): gcc links the definition, so the call does not just end the run.

void reach_error() {}

void abort(void) { reach_error(); }

int main() {
    abort();
    return 0;
}
