// expect: safe
// open: the proof needs the sentinel: A[k] == 0 for the ghost k == 512 bounds the search
// why: cell 512 is zero, so the search stops at 512 at the latest
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int A[1024];
  int i;
  for (i = 0; i < 1024; i++) A[i] = __VERIFIER_nondet_int();
  A[512] = 0;
  for (i = 0; i < 1024 && A[i] != 0; i++) {
  }
  if (i > 512) reach_error();
  return 0;
}
