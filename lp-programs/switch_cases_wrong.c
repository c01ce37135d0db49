// expect: unsafe
// why: case 1 has no break and falls through into case 2, so x == 1 gives r == 2
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int(), r = 0;
  switch (x) {
  case 1:
    r = 1;
  case 2:
    r = 2;
    break;
  }
  if (x == 1 && r == 2)
    reach_error();
  return 0;
}
