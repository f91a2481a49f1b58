// Components: server
// check: contained

/*
 * The new version accepts a new command, 3, and answers it with status; the old version
 * assumed it never came (its runs are cut by the assume right after cmd.3). It also says bye
 * when it quits on command 2, where the old version returned silently. Traces are prefix-closed
 * and a return is not an event, so the old traces ending in cmd.3 or cmd.2 are prefixes of new
 * ones (cmd.3 status, cmd.2 bye): the new version only adds behaviours and is contained.
 */

int cmd(void);
void start(void);
void stop(void);
void status(void);
void bye(void);

void server(void) {
    for (int i = 0; i < 4; i++) {
        int c = cmd();
        if (c == 0) {
            start();
        } else if (c == 1) {
            stop();
        } else if (c == 3) {
            status();
        } else {
            bye();
            return;
        }
    }
}
