// Components: multiplier
// check: contained

/*
 * Multiplication by repeated addition replaced by the multiplication. For a in 0..7 and b in
 * -8..7 both send a * b; the proof needs the loop invariant r == i * b.
 */

int arg(void);
void out(int v);
void assume(int condition);

void multiplier(void) {
    int a = arg();
    int b = arg();
    assume(0 <= a && a <= 7);
    out(a * b);
}
