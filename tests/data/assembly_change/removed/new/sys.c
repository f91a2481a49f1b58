void ping(void);
void pong(void);
void pinger(void) { while (1) { ping(); } }
