// expect: unsafe
// why: without the r == n guard r ends at the last occurrence of e, so an earlier cell can
// hold e; witness n = 2, a = {e, e}, r = 1, j = 0
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int e = __VERIFIER_nondet_int();
  int r = n;
  for (int i = 0; i < n; i++) {
    if (a[i] == e) r = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= r) return 0;
  __VERIFIER_assert(a[j] != e);
  return 0;
}
