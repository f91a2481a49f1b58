// Components: thermostat
// error: a character outside ASCII in an identifier

/* A thermostat whose programmer named a variable in French: gcc accepts UTF-8 in identifiers,
   subst's parser reads ASCII ones only. */

int temperature(void);
void heat(void);

void thermostat(void) {
    int consigné = 20;
    while (1) {
        if (temperature() < consigné)
            heat();
    }
}
