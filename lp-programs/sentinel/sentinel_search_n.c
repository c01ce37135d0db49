// expect: safe
// why: A[n-1] = 0 stops the search by the last cell of an array of a symbolic size: reading A[i] needs i < n
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int A[n];
  int i;
  for (i = 0; i < n - 1; i++)
    A[i] = __VERIFIER_nondet_int();
  A[n - 1] = 0;
  for (i = 0; A[i] != 0; i++) {
  }
  __VERIFIER_assert(i < n);
  return 0;
}
