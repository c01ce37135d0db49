// expect: unsafe
// why: a step k = -1 is allowed, so one iteration makes s = -1 without any overflow
// expect-wrap: unsafe
// expect-error: unsafe
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int s = 0;
  while (__VERIFIER_nondet_int()) {
    int k = __VERIFIER_nondet_int();
    if (k < -1)
      continue;
    s = s + k;
  }
  if (s < 0) reach_error();
  return 0;
}
