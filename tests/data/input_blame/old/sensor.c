// A sensor reads a value and reports `high` for any positive reading.
int nondet_int(void);

void sensor(void) {
    while (1) {
        int v = nondet_int();
        if (v > 0)
            high();
        else
            low();
    }
}
