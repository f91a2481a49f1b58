// The new version reports `high` only above 100 and clamps readings to 50 first: no reading
// makes `high` happen any more. The divergence blames the condition `v > 100`, not the read.
int nondet_int(void);

void sensor(void) {
    while (1) {
        int v = nondet_int();
        if (v > 50)
            v = 50;
        if (v > 100)
            high();
        else
            low();
    }
}
