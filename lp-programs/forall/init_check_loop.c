// expect: safe
// why: the first loop zeroes a[0..n), the second asserts a[i] == 0 at each i < n: the
// ∀-property is checked by a loop, not at one arbitrary index (range-predicates paper)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = 0;
  for (int i = 0; i < n; i++) __VERIFIER_assert(a[i] == 0);
  return 0;
}
