// expect: unsafe
// why: the search for a zero cell passes cell 512 when the first 513 cells are non-zero
// (almost every array of distinct wide values; rarely one drawn from small values)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int A[1024];
  int i;
  for (i = 0; i < 1024; i++) A[i] = __VERIFIER_nondet_int();
  for (i = 0; i < 1024 && A[i] != 0; i++) {
  }
  if (i > 512) reach_error();
  return 0;
}
