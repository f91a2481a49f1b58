/*
 * Shared declarations of the sensor example: the event functions and the constants and macros
 * the sensor component uses. Included by sensor.c with #include "sensor.h".
 */
#ifndef SENSOR_H
#define SENSOR_H

#define N_CHANNELS 4
#define LOW (-20)
#define HIGH 120
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x))
#define IN_RANGE(x) ((x) >= LOW && (x) <= HIGH)

int channel(void);
int reading(void);
void calibrated(int v);
void out_of_range(int ch);

#endif
