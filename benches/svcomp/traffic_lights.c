// expect: true
// a six-phase traffic controller (enum in while(1), nondet timer ticks): the two directions are never both green
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

enum phase { NS_GREEN, NS_YELLOW, ALL_RED_1, EW_GREEN, EW_YELLOW, ALL_RED_2 };
enum light { RED, YELLOW, GREEN };

int main() {
    enum phase p = ALL_RED_2;
    enum light ns = RED, ew = RED;
    int waited = 0;
    while (1) {
        if (!__VERIFIER_nondet_bool()) {
            if (waited < 5)
                waited++;
            continue;
        }
        waited = 0;
        switch (p) {
        case NS_GREEN:  p = NS_YELLOW; ns = YELLOW; break;
        case NS_YELLOW: p = ALL_RED_1; ns = RED; break;
        case ALL_RED_1: p = EW_GREEN; ew = GREEN; break;
        case EW_GREEN:  p = EW_YELLOW; ew = YELLOW; break;
        case EW_YELLOW: p = ALL_RED_2; ew = RED; break;
        case ALL_RED_2: p = NS_GREEN; ns = GREEN; break;
        }
        if (ns == GREEN && ew != RED) {
            reach_error();
            abort();
        }
        if (ew == GREEN && ns != RED) {
            reach_error();
            abort();
        }
    }
}
