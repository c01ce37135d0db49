// expect: safe
// why: both loops visit the cells 1, 5, 9, ...: the ghost ranges over k = 1 (mod 4)
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
      __VERIFIER_assert(b[i] == 20);
  }
  return 0;
}
