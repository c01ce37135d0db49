// expect: unsafe
// why: when A[0..n-2] are all nonzero (n = 1 among them) the search stops at the sentinel, i = n - 1
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
  __VERIFIER_assert(i < n - 1);
  return 0;
}
