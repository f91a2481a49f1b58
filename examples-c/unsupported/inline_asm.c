// Components: spinner
// error: inline assembly: `__asm__` has no meaning that subst can check

/* Uses a pause instruction in a spin loop. */

void spin(void);

void spinner(void) {
    while (1) {
        spin();
        __asm__ volatile("pause");
    }
}
