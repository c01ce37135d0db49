// expect: unsafe
// why: the first loop leaves cell n-1 unset (it stops at n-1), so the check of every cell
// fails there for any n, e.g. n = 1 and an arbitrary a[0] != 42
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000)
    return 0;
  int a[n];
  for (int i = 0; i < n - 1; i++)
    a[i] = 42;
  for (int j = 0; j < n; j++)
    __VERIFIER_assert(a[j] == 42);
  return 0;
}
