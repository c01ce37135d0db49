// expect: safe
// why: a[i] = i for every i < n, so the array is sorted: a[j1] <= a[j2] for any j1 < j2 < n,
// a property of two arbitrary cells (two ghost indices)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i;
  int j1 = __VERIFIER_nondet_int();
  int j2 = __VERIFIER_nondet_int();
  if (j1 < 0 || j1 >= j2 || j2 >= n) return 0;
  __VERIFIER_assert(a[j1] <= a[j2]);
  return 0;
}
