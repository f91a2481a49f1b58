// Components: summer
// run: summer inputs=1,2,3,4 limit=10
// expect: in.1 in.2 in.3 in.4 sum.10 sum.9
// end: exit
// run: summer inputs=1,2,3,4,9 limit=10
// expect: in.1 in.2 in.3 in.4 sum.10 sum.9
// end: exit
// run: summer inputs=0,0,0,0 limit=10
// expect: in.0 in.0 in.0 in.0 sum.0 sum.0
// end: fault(invalid_pointer)

/*
 * Pointer arithmetic inside one array: a cursor walks the buffer and stops at its end, and
 * `last - first` is the number of elements. When the buffer sums to 0 the component reads
 * through a null pointer, undefined behaviour that the interpreter reports as a fault.
 */

int in(void);
void sum(int v);

int buf[4];

static int total(const int *first, const int *last) {
    int s = 0;
    for (const int *p = first; p != last; p++)
        s += *p;
    return s;
}

void summer(void) {
    for (int *p = buf; p < buf + 4; ++p)
        *p = in();
    int s = total(buf, buf + 4);
    sum(s);
    int *q = &buf[1];
    sum(total(q, q + 3) + (int)(q - buf) - 1 + (int)(&buf[3] - &buf[2]) - 1);
    int *nothing = 0;
    if (s == 0)
        sum(*nothing);
}
