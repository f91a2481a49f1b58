// expect: true
// an enum state machine in while(1) driven by nondet events: the car only moves with the door locked
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

enum door { CLOSED, OPEN, LOCKED };
enum event { EV_OPEN, EV_CLOSE, EV_LOCK, EV_UNLOCK, EV_START, EV_STOP };

int main() {
    enum door door = CLOSED;
    int moving = 0;
    while (1) {
        int ev = __VERIFIER_nondet_int();
        switch (ev) {
        case EV_OPEN:
            if (door == CLOSED)
                door = OPEN;
            break;
        case EV_CLOSE:
            if (door == OPEN)
                door = CLOSED;
            break;
        case EV_LOCK:
            if (door == CLOSED)
                door = LOCKED;
            break;
        case EV_UNLOCK:
            if (door == LOCKED && !moving)
                door = CLOSED;
            break;
        case EV_START:
            if (door == LOCKED)
                moving = 1;
            break;
        case EV_STOP:
            moving = 0;
            break;
        default:
            return 0;
        }
        if (moving && door != LOCKED) {
            reach_error();
            abort();
        }
    }
}
