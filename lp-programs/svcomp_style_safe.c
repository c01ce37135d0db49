// expect: safe
// why: y grows by 2 per iteration while i grows by 1, so y == 2*i; the loop runs x <= 10 times
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

void __VERIFIER_assert(int cond) {
  if (!(cond)) {
  ERROR: {reach_error(); abort();}
  }
  return;
}

int main(void) {
  int x, y, i;
  x = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0 && x <= 10);
  y = 0;
  i = 0;
  while (i < x) {
    y = y + 2;
    i++;
  }
  __VERIFIER_assert(y == 2 * x);
  return 0;
}
