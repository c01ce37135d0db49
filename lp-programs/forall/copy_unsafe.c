// expect: unsafe
// why: the copy loop stops at n - 1, so b[n - 1] is arbitrary; witness n = 1, j = 0,
// b[0] != a[0]
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  int b[n];
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < n - 1; i++) b[i] = a[i];
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(b[j] == a[j]);
  return 0;
}
