// expect: safe
// why: i < n <= INT_MAX keeps i + 1 in range and 0 <= x < 100 keeps 2 * x in range: the proof assumes nothing
// expect-wrap: safe
// expect-error: safe
// assumes: none
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int i;
  if (x < 0 || x >= 100) return 0;
  for (i = 0; i < n; i++) {
  }
  if (2 * x > 198 || (n > 0 && i != n)) reach_error();
  return 0;
}
