// Components: light
// run: light inputs=0,0,0,1,0,0 limit=20
// expect: show.0 show.1 show.2 show.2 show.3 show.0 walk show.1
// end: eof
// run: light inputs=1,1,1 limit=5
// expect: show.0 walk show.1 show.2 show.3
// end: limit

/*
 * A traffic light as an enum with a _Bool request flag. The next colour is a nested
 * conditional; a pedestrian request (nondet _Bool) makes green end early, and the walk signal
 * shows while the light is red and a request is pending.
 */

void show(int colour);
void walk(void);
extern _Bool __VERIFIER_nondet_bool(void);

enum colour { RED, RED_AMBER, GREEN, AMBER };

enum colour light_colour = RED;
_Bool requested = 0;
int green_ticks;

void light(void) {
    while (1) {
        show(light_colour);
        _Bool pressed = __VERIFIER_nondet_bool();
        requested = requested || pressed;
        if (light_colour == RED && requested) {
            walk();
            requested = 0;
        }
        green_ticks = light_colour == GREEN ? green_ticks + 1 : 0;
        _Bool stay = light_colour == GREEN && green_ticks < 3 && !requested;
        light_colour = stay ? GREEN
                     : light_colour == RED ? RED_AMBER
                     : light_colour == RED_AMBER ? GREEN
                     : light_colour == GREEN ? AMBER
                     : RED;
    }
}
