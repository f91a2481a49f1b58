// Components: promotions
// run: promotions inputs=200,100 limit=20
// expect: report.400 report.144 report.-56 report.-14 report.10000 report.-201 flag.0 flag.1 flag.0 report.-32669 report.1
// end: exit
// run: promotions inputs=-1,65535 limit=20
// expect: report.510 report.254 report.-1 report.-1 report.-131071 report.-256 flag.0 flag.1 flag.0 report.32766 report.1
// end: exit

/*
 * The integer promotions and the usual arithmetic conversions, each reported as a long so that
 * the value is not converted again on the way out. The two inputs are read as unsigned char and
 * unsigned short.
 */

extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
void report(long v);
void flag(_Bool b);

void promotions(void) {
    unsigned char a = __VERIFIER_nondet_uchar();
    unsigned short w = __VERIFIER_nondet_ushort();

    /* Both operands become int: the sum is not reduced modulo 256. */
    report(a + a);
    /* Storing it back into an unsigned char is. */
    unsigned char wrapped = a + a;
    report(wrapped);
    /* char is signed on x86-64: 200 becomes -56. */
    char c = a;
    report(c);
    report(c >> 2);
    /* unsigned short * unsigned short is an int product, which wraps (gcc -fwrapv). */
    report(w * w);
    /* ~ of a promoted unsigned char is negative. */
    report(~a);
    /* int against unsigned: -1 converts to UINT_MAX. */
    int minus_one = -1;
    flag(minus_one < 1u);
    /* int against long: both become long, so the comparison is by value. */
    flag(minus_one < 1L);
    /* unsigned against long: long holds every unsigned value, so again by value. */
    flag(4294967295u < 1L);
    /* short arithmetic and narrowing back into short. */
    short s = 32767;
    s += w;
    report(s);
    /* A cast to _Bool tests for zero; a cast to unsigned char truncates. */
    report((_Bool) 256 + (unsigned char) 256);
}
