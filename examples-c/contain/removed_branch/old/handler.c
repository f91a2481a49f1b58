// Components: handler
// Old version: status 0 is ok, 1 means retry, 2 is an error code that ends in fail.

int status(void);
void ok(void);
void retry(void);
void fail(void);

void handler(void) {
    for (int i = 0; i < 3; i++) {
        int s = status();
        if (s == 0) {
            ok();
        } else if (s == 1) {
            retry();
        } else {
            fail();
            return;
        }
    }
}
