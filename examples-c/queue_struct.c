// Components: producer
// run: producer inputs=1,4,1,9,0,0,0 limit=20
// expect: req.1 data.4 req.1 data.9 req.0 got.4 req.0 got.9 req.0 empty
// end: eof
// run: producer inputs=1,1,1,2,1,3,1,4,1,5 limit=20
// expect: req.1 data.1 req.1 data.2 req.1 data.3 req.1 data.4 req.1 data.5 full
// end: exit

/*
 * A bounded queue kept in a struct, with push and pop helpers that take a pointer to it, as
 * protocol code does. Requests: 1 pushes the next datum, 0 pops and reports it.
 */

int req(void);
int data(void);
void got(int v);
void full(void);
void empty(void);

#define QSIZE 4

struct queue {
    int items[QSIZE];
    int head;
    int count;
};

static int push(struct queue *q, int v) {
    if (q->count == QSIZE)
        return 0;
    q->items[(q->head + q->count) % QSIZE] = v;
    q->count++;
    return 1;
}

static int pop(struct queue *q, int *out) {
    if (q->count == 0)
        return 0;
    *out = q->items[q->head];
    q->head = (q->head + 1) % QSIZE;
    q->count--;
    return 1;
}

void producer(void) {
    struct queue q = { { 0 }, 0, 0 };
    while (1) {
        int v = 0;
        if (req()) {
            if (!push(&q, data())) {
                full();
                return;
            }
        } else if (pop(&q, &v)) {
            got(v);
        } else {
            empty();
        }
    }
}
