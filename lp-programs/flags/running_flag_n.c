// expect: safe
// why: b[k] = 1 exactly where a[k] >= 0, so the check loop never clears the flag f: the flag stays 1 only if every cell agrees, which the facts at the ghost say for each k (arrays of a symbolic size)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int a[n], b[n];
  int i;
  for (i = 0; i < n; i++)
    a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < n; i++) {
    if (a[i] >= 0)
      b[i] = 1;
    else
      b[i] = 0;
  }
  int f = 1;
  for (i = 0; i < n; i++) {
    if (a[i] >= 0 && !b[i])
      f = 0;
    if (a[i] < 0 && b[i])
      f = 0;
  }
  __VERIFIER_assert(f);
  return 0;
}
