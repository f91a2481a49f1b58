// Components: thermostat
// error: floating point: `double` is not an integer type

/* Averages temperatures in floating point, which subst does not model. */

int temperature(void);
void heat(void);

void thermostat(void) {
    double average = 20.0;
    while (1) {
        int t = temperature();
        average = 0.9 * average + 0.1 * t;
        if (average < 18.5)
            heat();
    }
}
