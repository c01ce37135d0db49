// expect: safe
// why: r is the first index holding e (n if none), so a loop that checks every cell below r
// from the top down finds none equal to e: ∀k < r. a[k] ≠ e, proved at the search loop's
// head before the check loop reads any cell
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
  int j = r - 1;
  while (j >= 0) {
    __VERIFIER_assert(a[j] != e);
    j--;
  }
  return 0;
}
