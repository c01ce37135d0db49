// expect: unsafe
// why: when A[0..8] are all nonzero the search stops at the sentinel, i = 9
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int A[10];
  int i;
  for (i = 0; i < 9; i++)
    A[i] = __VERIFIER_nondet_int();
  A[9] = 0;
  for (i = 0; A[i] != 0; i++) {
  }
  __VERIFIER_assert(i < 9);
  return 0;
}
