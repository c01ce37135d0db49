// expect: safe
// why: r is the first index holding e (or n if there is none), so every cell before r differs
// from e: ∀k. 0 ≤ k < r → a[k] ≠ e; with r == n that is "e is nowhere" (Flanagan-Qadeer's find)
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
    if (r == n && a[i] == e) r = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= r) return 0;
  __VERIFIER_assert(a[j] != e);
  return 0;
}
