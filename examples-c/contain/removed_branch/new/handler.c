// Components: handler
// check: not contained
// missing: status.2 fail
// divergence: 21

/*
 * The new version no longer handles the error code 2: the branch that performed fail is gone
 * and every non-zero status is treated as "retry". The old trace status.2 fail is missing (the
 * new version answers status.2 with retry), and no shorter trace is: status.2 alone is still
 * possible. The new version is cut off at the test s == 0, whose else branch now goes to retry.
 */

int status(void);
void ok(void);
void retry(void);
void fail(void);

void handler(void) {
    for (int i = 0; i < 3; i++) {
        int s = status();
        if (s == 0) {
            ok();
        } else {
            retry();
        }
    }
}
