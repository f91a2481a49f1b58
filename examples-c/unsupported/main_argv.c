// Components: main
// error: argv: `main` may take `argc`, but its `argv` (a pointer to pointers) is not modelled

/* Reads the first character of the first argument. */

extern void reach_error(void);

int main(int argc, char **argv) {
    if (argc > 1 && argv[1][0] == 'x')
        reach_error();
    return 0;
}
