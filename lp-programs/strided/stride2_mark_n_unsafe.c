// expect: unsafe
// why: the check reads b[i] == 21, never written
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int a[n], b[n];
  int i;
  for (i = 0; i < n; i = i + 2) {
    a[i] = __VERIFIER_nondet_int();
    if (a[i] == 10)
      b[i] = 20;
  }
  for (i = 0; i < n; i = i + 2) {
    if (a[i] == 10)
      __VERIFIER_assert(b[i] == 21);
  }
  return 0;
}
