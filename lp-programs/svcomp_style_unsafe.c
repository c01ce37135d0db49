// expect: unsafe
// why: x = 7 is allowed and gives y == 14, so reach_error() is called
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

int main(void) {
  int x, y, i;
  x = __VERIFIER_nondet_int();
  assume_abort_if_not(x >= 0 && x <= 10);
  y = 0;
  for (i = 0; i < x; i++)
    y += 2;
  if (y == 14) {
    reach_error();
  }
  return 0;
}
