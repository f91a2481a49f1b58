// verify: holds
// A connection state machine driven by nondet events (enum state in while(1)): at most three failed attempts before it gives up, so retries never exceeds 3 and data is only sent while connected.

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

enum state { IDLE, CONNECTING, BACKOFF, CONNECTED, FAILED };
#define MAX_RETRIES 3

int main() {
    enum state st = IDLE;
    int retries = 0;
    while (1) {
        int ev = __VERIFIER_nondet_int();   /* 0 success, 1 failure, 2 send, 3 close */
        int sending = 0;
        switch (st) {
        case IDLE:
            if (ev == 0)
                st = CONNECTING;
            break;
        case CONNECTING:
            if (ev == 0) {
                st = CONNECTED;
                retries = 0;
            } else if (ev == 1) {
                retries++;
                st = retries < MAX_RETRIES ? BACKOFF : FAILED;
            }
            break;
        case BACKOFF:
            st = CONNECTING;
            break;
        case CONNECTED:
            if (ev == 2)
                sending = 1;
            else if (ev == 1)
                st = CONNECTING;      /* the link dropped: reconnect, keeping the count */
            else if (ev == 3)
                st = IDLE;
            break;
        case FAILED:
            return 1;
        }
        if (retries > MAX_RETRIES || (sending && st != CONNECTED)) {
            reach_error();
            abort();
        }
    }
}
