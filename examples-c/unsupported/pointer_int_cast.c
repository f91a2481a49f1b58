// Components: hasher
// error: pointer cast: the address of `slot` is converted to an integer

/* Hashes the address of a variable: a cast between a pointer and an integer. */

void hash(long h);

int slot;

void hasher(void) {
    int *p = &slot;
    hash((long)p % 7);
}
