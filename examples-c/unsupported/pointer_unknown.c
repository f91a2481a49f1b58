// Components: reader
// error: unknown target: `cursor` is never given the address of an object

/* Reads through a global pointer that nothing in the component points anywhere. */

void value(int v);

int *cursor;

void reader(void) {
    value(*cursor);
}
