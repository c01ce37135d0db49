// expect: safe
// why: m is the minimum of the slice a[lo..hi), so m <= a[j] for every lo <= j < hi
// (the Horn-clause paper's slice minimum)
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
  for (int i = lo + 1; i < hi; i++) {
    if (a[i] < m) m = a[i];
  }
  int j = __VERIFIER_nondet_int();
  if (j < lo || j >= hi) return 0;
  __VERIFIER_assert(m <= a[j]);
  return 0;
}
