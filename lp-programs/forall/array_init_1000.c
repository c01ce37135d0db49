// expect: safe
// why: ACSAR's array_init over a global array: a loop sets a[0..n) to 1 for a symbolic
// n ≤ 1000, so a[j] == 1 for every j < n (∀k < n. a[k] = 1)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[1000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  for (int i = 0; i < n; i++) a[i] = 1;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n) return 0;
  __VERIFIER_assert(a[j] == 1);
  return 0;
}
