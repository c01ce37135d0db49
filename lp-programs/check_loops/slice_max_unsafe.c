// expect: unsafe
// why: the search starts at lo + 1 but m starts at a[lo + 1], so a[lo] may be above the
// maximum found
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 20000) return 0;
  int a[n];
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  if (lo < 0 || lo + 1 >= hi || hi > n) return 0;
  int m = a[lo + 1];
  for (int i = lo + 2; i < hi; i++) {
    if (a[i] > m) m = a[i];
  }
  for (int j = lo; j < hi; j++)
    __VERIFIER_assert(a[j] <= m);
  return 0;
}
