// verify: fails
// The SSH-like handshake with a server that accepts data of an authenticated session during a re-key: a tampering network delivers DATA after the second KEXINIT, the seventh message, before the new keys are in use.

/*
 * The same client, network and server as ssh_handshake.c but for one line: during a re-key the
 * server accepts the data of an already authenticated session instead of holding it back, while
 * the old keys are retired (kex_done = 0). The honest client never sends data then, but the
 * network can: after the five handshake messages, it replaces the sixth message with KEXINIT and
 * the seventh with DATA (inputs 0,0,0,0,0,3,2,3,8).
 */

extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

enum msg { NONE, VERSION, KEXINIT, KEXDH_INIT, KEXDH_REPLY, NEWKEYS, AUTH_REQUEST, AUTH_SUCCESS, DATA, DISCONNECT };
enum client_state { C_START, C_VERSION_SENT, C_KEXINIT_SENT, C_DH_SENT, C_NEWKEYS_SENT, C_AUTH_SENT, C_OPEN };
enum server_state { S_START, S_VERSION_OK, S_KEX, S_DH_DONE, S_KEYS, S_AUTHED, S_CLOSED };

enum client_state cs = C_START;
enum server_state ss = S_START;
int kex_done = 0;        /* the server has finished a key exchange and uses its keys */
int authenticated = 0;   /* the server has authenticated the client */
int client_authed = 0;   /* the client has seen AUTH_SUCCESS */

void accept_data(void) {
    if (!kex_done) {
        reach_error();
        abort();
    }
}

/* The server handles one message and returns its reply. */
int server(int m) {
    if (ss == S_CLOSED)
        return DISCONNECT;
    switch (ss) {
    case S_START:
        if (m == VERSION) { ss = S_VERSION_OK; return VERSION; }
        break;
    case S_VERSION_OK:
        if (m == KEXINIT) { ss = S_KEX; return KEXINIT; }
        break;
    case S_KEX:
        if (m == KEXDH_INIT) { ss = S_DH_DONE; return KEXDH_REPLY; }
        if (m == DATA && authenticated) { accept_data(); return NONE; }   /* BUG: data accepted during the re-key */
        break;
    case S_DH_DONE:
        if (m == NEWKEYS) { kex_done = 1; ss = authenticated ? S_AUTHED : S_KEYS; return NEWKEYS; }
        if (m == DATA && authenticated) return NONE;
        break;
    case S_KEYS:
        if (m == AUTH_REQUEST) { authenticated = 1; ss = S_AUTHED; return AUTH_SUCCESS; }
        break;
    case S_AUTHED:
        if (m == DATA) { accept_data(); return NONE; }
        if (m == KEXINIT) { kex_done = 0; ss = S_KEX; return KEXINIT; }     /* re-key */
        break;
    default:
        break;
    }
    ss = S_CLOSED;       /* anything unexpected closes the connection */
    return DISCONNECT;
}

int main() {
    int reply = NONE;
    while (1) {
        int m = NONE;
        int choice = __VERIFIER_nondet_int();
        if (reply == DISCONNECT)
            return 0;
        switch (cs) {
        case C_START:        m = VERSION; cs = C_VERSION_SENT; break;
        case C_VERSION_SENT: if (reply != VERSION) return 0; m = KEXINIT; cs = C_KEXINIT_SENT; break;
        case C_KEXINIT_SENT: if (reply != KEXINIT) return 0; m = KEXDH_INIT; cs = C_DH_SENT; break;
        case C_DH_SENT:      if (reply != KEXDH_REPLY) return 0; m = NEWKEYS; cs = C_NEWKEYS_SENT; break;
        case C_NEWKEYS_SENT:
            if (reply != NEWKEYS) return 0;
            m = client_authed ? DATA : AUTH_REQUEST;
            cs = client_authed ? C_OPEN : C_AUTH_SENT;
            break;
        case C_AUTH_SENT:    if (reply != AUTH_SUCCESS) return 0; client_authed = 1; m = DATA; cs = C_OPEN; break;
        case C_OPEN:
            if (choice == 1) { m = KEXINIT; cs = C_KEXINIT_SENT; }
            else if (choice == 2) m = DISCONNECT;
            else m = DATA;
            break;
        }
        if (choice == 3) {   /* the network replaces the message */
            m = __VERIFIER_nondet_int();
            __VERIFIER_assume(m >= VERSION && m <= DISCONNECT);
        }
        reply = server(m);
    }
}
