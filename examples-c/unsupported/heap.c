// Components: allocator
// error: heap: a call to malloc allocates memory, and the heap is not supported

/* A component that allocates a buffer on each request. */

void *malloc(unsigned long size);
void free(void *block);
void request(void);
void granted(void);

void allocator(void) {
    while (1) {
        request();
        void *block = malloc(16);
        if (block) {
            granted();
            free(block);
        }
    }
}
