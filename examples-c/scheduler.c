// Components: scheduler
// run: scheduler inputs=3,0,-1,5,2,9,0,1 limit=40
// expect: budget.3 run_task.0 run_task.0 run_task.0 budget.0 budget.-1 round_done.6 budget.5 run_task.0 run_task.0 run_task.0 budget.2 run_task.1 run_task.1 budget.9 run_task.2 run_task.2 run_task.2 budget.0 budget.1 run_task.4
// end: eof
// run: scheduler inputs=1,1,1,1,1,1,1,1 limit=12
// expect: budget.1 run_task.0 budget.1 run_task.1 budget.1 run_task.2 budget.1 run_task.3 budget.1 run_task.4 budget.1 run_task.5
// end: limit

/*
 * A round-robin scheduler over 8 task slots. Each round reads the slots' budgets, skips empty
 * slots (continue), stops the round at a negative budget (break), runs each task in a do-while
 * until its budget is spent, and keeps statistics with every compound assignment operator.
 */

int budget(void);
void run_task(int slot);
void round_done(unsigned stats);
void idle(void);

int slots[8];
unsigned stats = 1;
long total;

void scheduler(void) {
    for (;;) {
        int ran = 0;
        for (int i = 0; i < 8; i++) {
            slots[i] = budget();
            if (slots[i] == 0)
                continue;
            if (slots[i] < 0)
                break;
            int left = slots[i] > 3 ? 3 : slots[i];
            do {
                run_task(i);
                left--;
                ran++;
            } while (left > 0);
            total += slots[i];
            total -= 1;
            stats *= 3;
            stats += ran;
            stats ^= (unsigned) i << 4;
            stats |= 1u;
            stats &= 0xffffu;
            stats >>= 1;
            stats <<= 2;
            stats %= 10007u;
            stats /= 2;
        }
        if (ran == 0)
            idle();
        round_done(stats);
    }
}
