// expect: unsafe
// why: the check loop starts at r, the cell the search found holding e
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[100000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int e = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  int r = n;
  int i = 0;
  while (i < n && r == n) {
    if (a[i] == e) r = i;
    i++;
  }
  for (int j = (r < n ? r : n - 1); j >= 0; j--) __VERIFIER_assert(a[j] != e);
  return 0;
}
