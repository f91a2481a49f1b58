// Components: handler
// Old version: answers each request r with ok when r is 0 and with fail otherwise.

int req(void);
void ok(void);
void fail(void);

void handler(void) {
    while (1) {
        int r = req();
        if (r == 0)
            ok();
        else
            fail();
    }
}
