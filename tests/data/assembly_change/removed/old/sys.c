void ping(void);
void pong(void);
void pinger(void) { while (1) { ping(); } }
void ponger(void) { while (1) { ping(); pong(); } }
