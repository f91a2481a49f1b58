// verify: fails
// account_struct.c with an off-by-one in the overdraft check: one withdrawal can go 1 below -limit.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct acct { int balance; int limit; };
static void deposit(struct acct *a, int v) { if (v > 0 && v < 1000) a->balance += v; }
static int withdraw(struct acct *a, int v) {
  if (v > 0 && a->balance - v >= -a->limit - 1) { a->balance -= v; return 1; }
  return 0;
}
int main(void) {
  struct acct acc = { 0, 100 };
  int n = 0;
  while (n < 5) {
    int v = __VERIFIER_nondet_int();
    if (v < 0 || v > 1000) break;
    if (__VERIFIER_nondet_int()) deposit(&acc, v); else withdraw(&acc, v);
    if (acc.balance < -acc.limit) reach_error();
    n++;
  }
  return 0;
}
