// expect: safe
// why: A[999] = 0 stops the search by the last cell: reading A[i] needs i < 1000, so the search ends with i <= 999
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
  __VERIFIER_assert(i <= 999);
  return 0;
}
