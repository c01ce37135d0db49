// expect: unsafe
// why: the zeroing loop stops at k < 3, so the local a[3] keeps an arbitrary value: i = 0 and a[3] = 5 give the sum 6
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int a[4];
  int k;
  for (k = 0; k < 3; k++)
    a[k] = 0;
  int i = __VERIFIER_nondet_int();
  a[i] = 1;
  __VERIFIER_assert(a[0] + a[1] + a[2] + a[3] == 1);
  return 0;
}
