// Components: writer1 writer2 write_queue lock_manager ipc_queue reader1 reader2
// run: writer1 inputs=1,1,0,1,0 limit=12
// expect: wq_put1.0 wq_ack1.1 lock1 grant1 flush1 flushed1 unlock1 wq_put1.1 wq_ack1.0
// end: eof
// run: write_queue inputs=1,2,0,4,0,1,5,1 limit=20
// expect: wq_req.1 wq_ack1.1 wq_req.2 wq_ack2.0 wq_req.0 wq_ack1.0 wq_req.4 ipc_write1.1 ipc_ack.0 ipc_write1.1 ipc_ack.1 flushed1 wq_req.5 flushed2 wq_req.1 wq_ack1.1
// end: eof
// run: lock_manager inputs=2,1 limit=10
// expect: lock_req.2 grant2 unlock2 lock_req.1 grant1 unlock1
// end: eof
// run: ipc_queue inputs=1,3,4,5,5 limit=12
// expect: ipc_req.1 ipc_ack.1 ipc_req.3 ipc_ack.1 ipc_req.4 data1.1 ipc_req.5 data2.3 ipc_req.5 data2.4
// end: eof
// run: reader1 inputs=3,4 limit=10
// expect: read1 data1.3 read1 data1.4 read1
// end: eof

/*
 * An interprocess-communication (IPC) protocol in seven components, modelled on the ABB
 * benchmark of paper 003, Section 7 (see ../README.md for the design, the properties and the
 * upgrades). This is the original version.
 *
 *   writer1, writer2   produce messages into the write-queue and, holding the lock of the
 *                      ipc-queue's critical section, have the write-queue flush them into the
 *                      ipc-queue;
 *   write_queue        buffers the writers' messages (one lane per writer, WQSIZE messages in
 *                      all) and writes a writer's lane into the ipc-queue on that writer's flush,
 *                      retrying a write that the ipc-queue refuses;
 *   lock_manager       hands the lock to one writer at a time;
 *   ipc_queue          a FIFO of QSIZE messages that refuses a write when full;
 *   reader1, reader2   read messages from the ipc-queue (EMPTY when there is none).
 *
 * A message is the writer's sequence bit, which alternates from one message of a writer to the
 * next (P2 in ../ipc.lts checks that order). The components share no variables: each is a
 * process with its own globals, and they talk only through events, which are calls of functions
 * this file declares but does not define. `wq_put1(b)` sends wq_put1.b; `x = wq_ack1()` receives
 * wq_ack1.x. An event that one component here sends and another receives is declared without a
 * parameter list (`int wq_ack1();`), since both ends are in this file.
 *
 * A server that serves several clients receives all their requests through one family and
 * tells them apart by value: the write-queue receives wq_req.0..5 (a put of bit b by writer 1 is
 * wq_req.b, by writer 2 wq_req.(2+b), a flush by writer i is wq_req.(3+i)), the lock manager
 * lock_req.1..2, the ipc-queue ipc_req.0..5 (a write of bit b by writer i's lane is
 * ipc_req.(2(i-1)+b), a read by reader r is ipc_req.(3+r)). The composition IPC in ../ipc.lts
 * relabels these to the clients' own events (wq_put1.b, flush1, lock1, ipc_write1.b, read1, ...),
 * so that, as C cannot wait for whichever of two calls comes first, the server's one receive
 * is that choice.
 *
 * Sizes: WQSIZE (the write-queue's capacity, 1..4, default 1) and QSIZE (the ipc-queue's
 * capacity, 1..8, default 5); set them with `--cpp=-DWQSIZE=2`. The state space of the assembly
 * grows with both: ../statespace.py explores a model of these components that mirrors the code
 * (one state per control point between events, and the values of the variables) and counts the
 * reachable states of their parallel composition:
 *
 *   WQSIZE QSIZE  reachable states
 *      1     1        56,889
 *      1     4       587,853
 *      1     5     1,194,669   (the default)
 *      1     6     2,408,301
 *      2     2       259,308
 *      2     4     1,148,364
 *
 * P1 and P2 do not depend on what the ipc-queue holds, so QSIZE hardly changes the cost of
 * verifying them; WQSIZE does (see ../README.md: with WQSIZE = 2, monolithic verification of P2
 * on the upgrade ipc4 does not finish in 900 s).
 *
 * The queues' cells are read and moved with constant indices (lane1_pop and q_pop unrolled by
 * the preprocessor) and their counters are unsigned and checked before each store, so that
 * predicate abstraction can keep track of each cell and prove every index in bounds.
 */

#ifndef WQSIZE
#define WQSIZE 1
#endif
#ifndef QSIZE
#define QSIZE 5
#endif
#if WQSIZE < 1 || WQSIZE > 4 || QSIZE < 1 || QSIZE > 8
#error "WQSIZE must be between 1 and 4, QSIZE between 1 and 8"
#endif

#define FLUSH1 4 /* wq_req values */
#define FLUSH2 5
#define READ1 4 /* ipc_req values */
#define READ2 5
#define EMPTY 4 /* data1/data2 value of a read from an empty ipc-queue */

extern int nondet_int(void);

/* Events with both ends in this file. */
int wq_ack1();
int wq_ack2();
int ipc_ack();
int data1();
int data2();

/* ------------------------------------------------------------------ the writers */

void wq_put1(_Bool seq);
void wq_put2(_Bool seq);
void flush1(void);
void flush2(void);
void flushed1(void);
void flushed2(void);
void lock1(void);
void lock2(void);
void grant1(void);
void grant2(void);
void unlock1(void);
void unlock2(void);

void writer1(void) {
    _Bool seq = 0;
    while (1) {
        if (nondet_int()) {
            /* produce: hand the next message to the write-queue; a full queue refuses it */
            wq_put1(seq);
            if (wq_ack1())
                seq = !seq;
        } else {
            /* publish: holding the lock, have the write-queue write my messages */
            lock1();
            grant1();
            flush1();
            flushed1();
            unlock1();
        }
    }
}

void writer2(void) {
    _Bool seq = 0;
    while (1) {
        if (nondet_int()) {
            wq_put2(seq);
            if (wq_ack2())
                seq = !seq;
        } else {
            lock2();
            grant2();
            flush2();
            flushed2();
            unlock2();
        }
    }
}

/* ------------------------------------------------------------------ the write-queue */

int wq_req(void);
void ipc_write1(_Bool seq);
void ipc_write2(_Bool seq);

_Bool lane1[WQSIZE], lane2[WQSIZE];
unsigned n1, n2;

static void lane1_push(_Bool v) {
    if (n1 < WQSIZE) {
        lane1[n1] = v;
        n1++;
    }
}

static void lane2_push(_Bool v) {
    if (n2 < WQSIZE) {
        lane2[n2] = v;
        n2++;
    }
}

static void lane1_pop(void) {
#if WQSIZE > 1
    lane1[0] = lane1[1];
#endif
#if WQSIZE > 2
    lane1[1] = lane1[2];
#endif
#if WQSIZE > 3
    lane1[2] = lane1[3];
#endif
    n1--;
}

static void lane2_pop(void) {
#if WQSIZE > 1
    lane2[0] = lane2[1];
#endif
#if WQSIZE > 2
    lane2[1] = lane2[2];
#endif
#if WQSIZE > 3
    lane2[2] = lane2[3];
#endif
    n2--;
}

void write_queue(void) {
    while (1) {
        int r = wq_req();
        if (r < 2) {
            /* a put by writer 1: room is shared by both lanes */
            if (n1 + n2 < WQSIZE) {
                lane1_push(r);
                wq_ack1(1);
            } else {
                wq_ack1(0);
            }
        } else if (r < 4) {
            if (n1 + n2 < WQSIZE) {
                lane2_push(r - 2);
                wq_ack2(1);
            } else {
                wq_ack2(0);
            }
        } else if (r == FLUSH1) {
            /* write lane 1 into the ipc-queue in order, retrying a refused write */
            while (n1 > 0) {
                do
                    ipc_write1(lane1[0]);
                while (!ipc_ack());
                lane1_pop();
            }
            flushed1();
        } else {
            while (n2 > 0) {
                do
                    ipc_write2(lane2[0]);
                while (!ipc_ack());
                lane2_pop();
            }
            flushed2();
        }
    }
}

/* ------------------------------------------------------------------ the lock manager */

int lock_req(void);

void lock_manager(void) {
    while (1) {
        int w = lock_req();
        if (w == 1) {
            grant1();
            unlock1();
        } else {
            grant2();
            unlock2();
        }
    }
}

/* ------------------------------------------------------------------ the ipc-queue */

int ipc_req(void);

/* a message: which writer (q_from2) and its sequence bit */
_Bool q_from2[QSIZE], q_seq[QSIZE];
unsigned n;

static void q_push(_Bool from2, _Bool seq) {
    if (n < QSIZE) {
        q_from2[n] = from2;
        q_seq[n] = seq;
        n++;
    }
}

static void q_pop(void) {
#if QSIZE > 1
    q_from2[0] = q_from2[1];
    q_seq[0] = q_seq[1];
#endif
#if QSIZE > 2
    q_from2[1] = q_from2[2];
    q_seq[1] = q_seq[2];
#endif
#if QSIZE > 3
    q_from2[2] = q_from2[3];
    q_seq[2] = q_seq[3];
#endif
#if QSIZE > 4
    q_from2[3] = q_from2[4];
    q_seq[3] = q_seq[4];
#endif
#if QSIZE > 5
    q_from2[4] = q_from2[5];
    q_seq[4] = q_seq[5];
#endif
#if QSIZE > 6
    q_from2[5] = q_from2[6];
    q_seq[5] = q_seq[6];
#endif
#if QSIZE > 7
    q_from2[6] = q_from2[7];
    q_seq[6] = q_seq[7];
#endif
    n--;
}

void ipc_queue(void) {
    while (1) {
        int r = ipc_req();
        if (r < 4) {
            /* a write of writer (r >= 2 ? 2 : 1)'s message with bit r & 1 */
            if (n < QSIZE) {
                q_push(r >= 2, r & 1);
                ipc_ack(1);
            } else {
                ipc_ack(0);
            }
        } else if (n == 0) {
            if (r == READ1)
                data1(EMPTY);
            else
                data2(EMPTY);
        } else {
            /* the oldest message, as 2 * from2 + seq */
            if (r == READ1)
                data1(2 * q_from2[0] + q_seq[0]);
            else
                data2(2 * q_from2[0] + q_seq[0]);
            q_pop();
        }
    }
}

/* ------------------------------------------------------------------ the readers */

void read1(void);
void read2(void);

int last1, last2;

void reader1(void) {
    while (1) {
        read1();
        int v = data1();
        if (v != EMPTY)
            last1 = v;
    }
}

void reader2(void) {
    while (1) {
        read2();
        int v = data2();
        if (v != EMPTY)
            last2 = v;
    }
}
