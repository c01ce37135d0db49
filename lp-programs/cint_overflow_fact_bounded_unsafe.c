// expect: unsafe
// why: x = 99 gives 2 * x = 198, in range, so the error is reached without overflow
// expect-wrap: unsafe
// expect-error: unsafe
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int i;
  if (x < 0 || x >= 100) return 0;
  for (i = 0; i < n; i++) {
  }
  if (2 * x >= 198 || (n > 0 && i != n)) reach_error();
  return 0;
}
