/* A component whose alphabet has `reset`, which it can never perform: `armed` stays 0. The
   assembly examples-c/assembly/quiet_reset.lts puts it beside a part that would perform `reset`
   at any time; since `reset` is shared, it never happens, and NORESET holds. */
void tick(void);
void reset(void);

int armed;

void timer(void) {
  armed = 0;
  while (1) {
    tick();
    if (armed == 1) {
      reset();
    }
  }
}
