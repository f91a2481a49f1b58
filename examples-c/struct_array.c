// Components: scheduler
// run: scheduler inputs=0,5,1,7,2,3 limit=20
// expect: task.0 prio.5 task.1 prio.7 task.2 prio.3 pick.1 pick.0 pick.2
// end: exit

/*
 * An array of structs, struct assignment and a struct returned by value: three tasks read
 * with priorities, then picked highest first by copying the best one out and clearing it.
 */

int task(void);
int prio(void);
void pick(int id);

struct job {
    int id;
    int prio;
    _Bool live;
};

struct job jobs[3];

static struct job best(void) {
    struct job b = { -1, -1, 0 };
    for (int i = 0; i < 3; i++) {
        if (jobs[i].live && jobs[i].prio > b.prio)
            b = jobs[i];
    }
    return b;
}

void scheduler(void) {
    for (int i = 0; i < 3; i++) {
        jobs[i].id = task();
        jobs[i].prio = prio();
        jobs[i].live = 1;
    }
    for (int n = 0; n < 3; n++) {
        struct job j = best();
        pick(j.id);
        jobs[j.id].live = 0;
    }
}
