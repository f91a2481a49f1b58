// Components: greeter
// error: string literal: `char *name = "world"` points to a string, outside a condition

/* Keeps a name in a string: a string literal is accepted only as a truth value (`assert(c && "why")`),
   where it is the non-null pointer it decays to; subst has no model of its characters. */

void greet(int c);

void greeter(void) {
    const char *name = "world";
    greet(name[0]);
}
