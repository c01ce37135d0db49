// expect: unsafe
// why: forall/slice_min_unsafe.c with a loop checking every cell of the slice instead of
// one at a nondet index: the min loop stops at hi - 1, so the last cell is never compared;
// lo = 0, hi = 2, a = {1, 0} fails at j = 1.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  if (lo < 0 || lo >= hi || hi > n) return 0;
  int m = a[lo];
  for (int i = lo + 1; i < hi - 1; i++) {
    if (a[i] < m) m = a[i];
  }
  for (int j = lo; j < hi; j++)
    __VERIFIER_assert(m <= a[j]);
  return 0;
}
