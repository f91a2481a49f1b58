// Components: session
// run: session inputs=1,3 limit=20
// expect: connect ack.1 length.3 data.3 data.2 data.1 disconnect
// end: exit
// run: session inputs=0,0,1,0 limit=20
// expect: connect ack.0 retry connect ack.0 retry connect ack.1 length.0 disconnect
// end: exit
// run: session inputs=0,0,0 limit=20
// expect: connect ack.0 retry connect ack.0 retry connect ack.0 fail
// end: exit
// run: session inputs=5 limit=20
// expect: connect ack.5 protocol_error
// end: exit
// run: session inputs=1,-7 limit=5
// expect: connect ack.1 length.-7 data.4 data.3
// end: limit

/*
 * The client side of a small connection protocol, as a state machine over an enum. The server
 * answers a connect with ack: 0 refuses, 1 accepts, and any other answer breaks the protocol, so
 * the session aborts. Once open, the session learns how many items to send (at most 4), sends a
 * countdown and disconnects.
 */

void connect(void);
int ack(void);
void retry(void);
void fail(void);
int length(void);
void data(int v);
void disconnect(void);
void protocol_error(void);
void abort(void);

enum state { IDLE, CONNECTING, OPEN, CLOSING, DONE };

enum state st = IDLE;
int attempts;

void session(void) {
    while (st != DONE) {
        switch (st) {
        case IDLE:
            attempts = 0;
            /* Fall through: an idle session starts connecting at once. */
        case CONNECTING: {
            connect();
            int answer = ack();
            switch (answer) {
            case 1:
                st = OPEN;
                break;
            case 0:
                attempts++;
                if (attempts < 3) {
                    retry();
                    st = CONNECTING;
                } else {
                    fail();
                    st = DONE;
                }
                break;
            default:
                protocol_error();
                abort();
            }
            break;
        }
        case OPEN: {
            int n = length();
            if (n < 0 || n > 4)
                n = 4;
            for (int i = n; i > 0; i--)
                data(i);
            st = CLOSING;
            break;
        }
        case CLOSING:
            disconnect();
            st = DONE;
            break;
        default:
            st = DONE;
        }
    }
}
