// Components: counter
// run: counter inputs=0,0,0,1,0 limit=30
// expect: cmd.0 value.1 cmd.0 value.2 cmd.0 value.3 cmd.1 value.2 cmd.0 value.3
// end: eof
// run: counter inputs=1,0,2,0 limit=30
// expect: cmd.1 at_min value.0 cmd.0 value.1 cmd.2 reset value.0 cmd.0 value.1
// end: eof
// run: counter inputs=0,0,0,0,0,0,9 limit=30
// expect: cmd.0 value.1 cmd.0 value.2 cmd.0 value.3 cmd.0 value.4 cmd.0 at_max value.4 cmd.0 at_max value.4 cmd.9
// end: blocked
// run: counter inputs=0,3,0 limit=30
// expect: cmd.0 value.1 cmd.3
// end: exit

/*
 * A counter that stays within [0, MAX]. Commands arrive on cmd: 0 counts up, 1 counts down,
 * 2 resets, 3 shuts the counter down; anything else is assumed never to be sent. After every
 * command the counter reports its value.
 */

int cmd(void);
void value(int v);
void at_max(void);
void at_min(void);
void reset(void);
void assume(int condition);
void exit(int status);

#define MAX 4

int count;
int steps;

void counter(void) {
    do {
        int c = cmd();
        assume(c >= 0 && c <= 3);
        steps += 1;
        if (c == 0) {
            if (count < MAX)
                ++count;
            else
                at_max();
        } else if (c == 1) {
            if (count > 0)
                count--;
            else
                at_min();
        } else if (c == 2) {
            reset();
            count -= count;
        } else {
            exit(0);
        }
        value(count);
    } while (1);
}
