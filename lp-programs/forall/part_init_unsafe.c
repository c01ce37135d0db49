// expect: unsafe
// why: the filter is a[i] >= 0, so a zero cell is copied too; witness n = 1, a[0] = 0, m = 1,
// j = 0, b[0] = 0
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  int b[n];
  int m = 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    if (a[i] >= 0) {
      b[m] = a[i];
      m++;
    }
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= m) return 0;
  __VERIFIER_assert(b[j] > 0);
  return 0;
}
