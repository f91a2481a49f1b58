// Components: sensor
// run: sensor inputs=0,50,3,-40,1,200 limit=20
// expect: channel.0 reading.50 calibrated.50 channel.3 reading.-40 out_of_range.3 calibrated.-20 channel.1 reading.200 out_of_range.1 calibrated.120
// end: eof
// run: sensor inputs=2,10,4,10 limit=20
// expect: channel.2 reading.10 calibrated.13 channel.4 reading.10
// end: fault(index_out_of_bounds)

/*
 * Reads a channel number and a raw reading, and reports the reading plus the channel's
 * calibration offset, clamped to [LOW, HIGH]. Constants, macros and the event prototypes come
 * from a local header. The channel number is trusted: channel 4 indexes past the table of
 * offsets, which is an error trace.
 */

#include "sensor.h"

int offset[N_CHANNELS] = {0, -5, 3, 12};

void sensor(void) {
    while (1) {
        int ch = channel();
        int raw = reading();
        if (!IN_RANGE(raw))
            out_of_range(ch);
        int v = raw + offset[ch];
        calibrated(CLAMP(v, LOW, HIGH));
    }
}
