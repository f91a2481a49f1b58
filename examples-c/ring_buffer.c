// Components: buffer
// run: buffer inputs=1,10,1,20,0,0,0 limit=30
// expect: recv.10 recv.20 send.10 send.20 empty
// end: eof
// run: buffer inputs=1,1,1,2,1,3,1,4,1,5,1,6,1,7,1,8,1,0 limit=30
// expect: recv.1 recv.2 recv.3 recv.4 recv.5 recv.6 recv.7 recv.8 full send.1
// end: eof
// run: buffer inputs=1,-5,0,1,2147483647 limit=4
// expect: recv.-5 send.-5 recv.2147483647
// end: eof

/*
 * A bounded FIFO of 8 ints over a ring: head and tail wrap around the array. On each step the
 * environment chooses (nondet) whether to put or to get; a value comes in on recv and goes out
 * on send. A put on a full buffer and a get on an empty one are refused with an event.
 */

int recv(void);
void send(int v);
void full(void);
void empty(void);
extern int nondet_int(void);

#define SIZE 8

int ring[SIZE];
unsigned head;
unsigned tail;
unsigned count;

void buffer(void) {
    while (1) {
        int want_put = nondet_int();
        if (want_put) {
            if (count == SIZE) {
                full();
                continue;
            }
            int v = recv();
            ring[tail] = v;
            tail = (tail + 1) % SIZE;
            count++;
        } else {
            if (count == 0) {
                empty();
                continue;
            }
            send(ring[head]);
            head = (head + 1) & (SIZE - 1);
            count--;
        }
    }
}
