// expect: safe
// why: b[i] = a[i] for every i < n and a is not written afterwards, so b[j] == a[j] for any
// j < n (ACSAR's copy: ∀k. 0 ≤ k < n → b[k] = a[k])
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  int b[n];
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) b[i] = a[i];
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(b[j] == a[j]);
  return 0;
}
