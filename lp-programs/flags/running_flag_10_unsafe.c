// expect: unsafe
// why: b[i] = 1 only where a[i] > 0: a cell equal to 0 clears the flag
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[10], b[10];
  int i;
  for (i = 0; i < 10; i++)
    a[i] = __VERIFIER_nondet_int();
  for (i = 0; i < 10; i++) {
    if (a[i] > 0)
      b[i] = 1;
    else
      b[i] = 0;
  }
  int f = 1;
  for (i = 0; i < 10; i++) {
    if (a[i] >= 0 && !b[i])
      f = 0;
    if (a[i] < 0 && b[i])
      f = 0;
  }
  __VERIFIER_assert(f);
  return 0;
}
