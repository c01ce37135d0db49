// expect: unsafe
// why: the check loop runs to n instead of stopping below r, so when some cell holds e the
// cell at r does (the error needs n ≥ 1 and one cell equal to e)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 50000) return 0;
  int a[n];
  int e = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    a[i] = __VERIFIER_nondet_int();
    i++;
  }
  int r = n;
  i = 0;
  while (i < n && r == n) {
    if (a[i] == e) r = i;
    i++;
  }
  int j = n - 1;
  while (j >= 0) {
    __VERIFIER_assert(a[j] != e);
    j--;
  }
  return 0;
}
