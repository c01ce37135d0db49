// expect: unsafe
// why: INT_MAX + 1 wraps (as gcc -fwrapv) to INT_MIN, which is negative
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) return 0;
  x = x + 1;
  if (x < 0) reach_error();
  return 0;
}
