// Components: dispatcher
// error: function pointer: `handler` holds the address of a function

/* Dispatches through a function pointer, so the callee is not known from the source. */

int command(void);
void on_start(void);
void on_stop(void);

void start(void) { on_start(); }
void stop(void) { on_stop(); }

void dispatcher(void) {
    void (*handler)(void) = start;
    while (1) {
        int c = command();
        handler = c ? start : stop;
        handler();
    }
}
