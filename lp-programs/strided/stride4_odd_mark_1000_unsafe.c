// expect: unsafe
// why: the check reads b[i] == 21, never written
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[1000], b[1000];
  int i;
  for (i = 1; i < 1000; i = i + 4) {
    a[i] = __VERIFIER_nondet_int();
    if (a[i] == 10)
      b[i] = 20;
  }
  for (i = 1; i < 1000; i = i + 4) {
    if (a[i] == 10)
      __VERIFIER_assert(b[i] == 21);
  }
  return 0;
}
