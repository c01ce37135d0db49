// expect: safe
// why: b[k] = 1 exactly where a[k] >= 0, so the check loop never clears the flag f: the flag stays 1 only if every cell agrees, which the facts at the ghost say for each k
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[1000], b[1000];
  int i;
  for (i = 0; i < 1000; i++)
    a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < 1000; i++) {
    if (a[i] >= 0)
      b[i] = 1;
    else
      b[i] = 0;
  }
  int f = 1;
  for (i = 0; i < 1000; i++) {
    if (a[i] >= 0 && !b[i])
      f = 0;
    if (a[i] < 0 && b[i])
      f = 0;
  }
  __VERIFIER_assert(f);
  return 0;
}
