// expect: unsafe
// why: the check is off by one: j = n - 1 is the last cell of the VLA, in bounds, and reaches the error (n = 1, j = 0)
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error() {}
int main() {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n <= 10);
  int a[n];
  int j = __VERIFIER_nondet_int();
  a[j] = 1;
  if (j >= n - 1) reach_error();
  return 0;
}
