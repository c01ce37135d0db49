// expect: safe
// why: both loops visit the even cells only: b[k] = 20 wherever a[k] = 10 at an even k, which a ghost over every index cannot say (the odd cells are never written)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[10], b[10];
  int i;
  for (i = 0; i < 10; i = i + 2) {
    a[i] = __VERIFIER_nondet_int();
    if (a[i] == 10)
      b[i] = 20;
  }
  for (i = 0; i < 10; i = i + 2) {
    if (a[i] == 10)
      __VERIFIER_assert(b[i] == 20);
  }
  return 0;
}
