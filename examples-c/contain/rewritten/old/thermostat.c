// Components: thermostat
// Old version: four readings, each above 5 is high and the others are low.

int level(void);
void high(void);
void low(void);

void thermostat(void) {
    for (int i = 0; i < 4; i++) {
        int x = level();
        if (x > 5)
            high();
        else
            low();
    }
}
