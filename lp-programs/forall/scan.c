// expect: safe
// why: the scan stops at the first zero cell (or at n), so every cell before the stop index i
// is non-zero: ∀k. 0 ≤ k < i → a[k] ≠ 0 (ACSAR's scan)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n && a[i] != 0) i++;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= i) return 0;
  __VERIFIER_assert(a[j] != 0);
  return 0;
}
