// expect: unsafe
// why: b[999] is never copied, so it may differ from a[999] and clear the flag
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[1000], b[1000];
  for (int i = 0; i < 1000; i++)
    a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 999; i++)
    b[i] = a[i];
  int same = 1;
  for (int i = 0; i < 1000; i++) {
    if (a[i] != b[i])
      same = 0;
  }
  __VERIFIER_assert(same);
  return 0;
}
