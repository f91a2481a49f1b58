/* Sends its reading; the family `level[0..2]` is declared in ../meter.lts. */
void level(int v);
int reading;
void meter(void) {
    while (1) {
        level(reading);
        reading = (reading + 1) % 3;
    }
}
