// expect: unsafe
// why: the loop stops at n - 1, so a[n - 1] keeps its arbitrary initial value
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int i = 0; i < n - 1; i++) a[i] = 0;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(a[j] == 0);
  return 0;
}
