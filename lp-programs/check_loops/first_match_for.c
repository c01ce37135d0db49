// expect: safe
// why: r is the first index holding e (n if none): the search runs on to n once it has found
// one, and the check counts up to r, ∀k < r. a[k] ≠ e; past too many facts at the check's
// read, the read rule's covers must keep a[k] < e and a[k] > e apart
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 50000) return 0;
  int a[n];
  for (int k = 0; k < n; k++) a[k] = __VERIFIER_nondet_int();
  int e = __VERIFIER_nondet_int();
  int r = n;
  for (int i = 0; i < n; i++) {
    if (r == n && a[i] == e) r = i;
  }
  for (int j = 0; j < r; j++) __VERIFIER_assert(a[j] != e);
  return 0;
}
