// Components: sender
// error: escape: a pointer is passed to an event, outside the component

/* Hands the address of a local buffer to the environment. */

void post(int *buffer);

void sender(void) {
    int buffer[4] = { 1, 2, 3, 4 };
    post(buffer);
}
