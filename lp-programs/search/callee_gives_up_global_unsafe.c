// expect: unsafe
// why: step draws into the global g and gives up (returns 0) unless -9 <= g <= -2, before it
// overwrites g; main counts the steps that went through and errs when all 10 did: every
// run that draws the 10 values inside the range
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int g;
int step(int k) {
  g = __VERIFIER_nondet_int();
  if (g < -9 || g > -2) return 0;
  g = k;
  return 1;
}
int main(void) {
  int n = 0;
  for (int i = 0; i < 10; i++) {
    n = n + step(i);
  }
  if (n == 10) reach_error();
  return 0;
}
