// Components: thermostat
// check: contained

/*
 * The same behaviour written differently: the new version counts its rounds down from ROUNDS
 * instead of up, and first computes the excess y = x - LIMIT and a flag hot = (y > 0). Showing
 * containment needs facts about data, not syntax: hot != 0 exactly when x > 5 (no overflow,
 * x is in 0..7), and the countdown from 4 runs exactly as many rounds as i = 0..3, so the new
 * version can still perform every old trace, including four full rounds.
 */

#define ROUNDS 4
#define LIMIT 5

int level(void);
void high(void);
void low(void);

void thermostat(void) {
    int left = ROUNDS;
    while (left > 0) {
        int x = level();
        int y = x - LIMIT;
        int hot = y > 0;
        if (hot)
            high();
        else
            low();
        left--;
    }
}
