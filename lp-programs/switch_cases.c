// expect: safe
// why: x in 0..3 maps to r = 10, 20, 20, 30 through case fall-through, break and default
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int(), r = 0;
  if (x < 0 || x > 3) return 0;
  switch (x) {
  case 0:
    r = 10;
    break;
  case 1:
  case 2:
    r = 20;
    break;
  default:
    r = 30;
  }
  if (r < 10 || r > 30 || (x == 3 && r != 30) || (x == 1 && r != 20))
    reach_error();
  return 0;
}
