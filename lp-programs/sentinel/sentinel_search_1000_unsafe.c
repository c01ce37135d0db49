// expect: unsafe
// why: when A[0..998] are all nonzero the search stops at the sentinel, i = 999
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int A[1000];
  int i;
  for (i = 0; i < 999; i++)
    A[i] = __VERIFIER_nondet_int();
  A[999] = 0;
  for (i = 0; A[i] != 0; i++) {
  }
  __VERIFIER_assert(i < 999);
  return 0;
}
