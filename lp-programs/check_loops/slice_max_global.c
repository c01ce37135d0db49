// expect: safe
// why: m is the maximum of the slice a[lo..hi), so a loop over the slice finds no cell
// above it: ∀k. lo ≤ k < hi → a[k] ≤ m
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[20000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 20000) return 0;
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  if (lo < 0 || lo >= hi || hi > n) return 0;
  int m = a[lo];
  for (int i = lo + 1; i < hi; i++) {
    if (a[i] > m) m = a[i];
  }
  for (int j = lo; j < hi; j++)
    __VERIFIER_assert(a[j] <= m);
  return 0;
}
