// Components: server
// Old version: commands 0 (start), 1 (stop) and 2 (quit); clients never send 3.

int cmd(void);
void start(void);
void stop(void);
void assume(int condition);

void server(void) {
    for (int i = 0; i < 4; i++) {
        int c = cmd();
        assume(c <= 2);
        if (c == 0)
            start();
        else if (c == 1)
            stop();
        else
            return;
    }
}
