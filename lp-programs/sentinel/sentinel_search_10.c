// expect: safe
// why: A[9] = 0 stops the search by the last cell: reading A[i] needs i < 10 (C leaves a read past the end undefined), so the search ends with i <= 9
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
  __VERIFIER_assert(i <= 9);
  return 0;
}
