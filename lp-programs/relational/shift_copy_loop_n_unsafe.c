// expect: unsafe
// why: the copy stops one cell early (i < n - 2), so the check of a[n-2] compares an
// uninitialised cell with b[n-1]
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 1 || n > 100000)
    return 0;
  int a[n], b[n];
  for (int i = 0; i < n - 2; i++)
    a[i] = b[i + 1];
  for (int j = 0; j < n - 1; j++)
    __VERIFIER_assert(a[j] == b[j + 1]);
  return 0;
}
