// expect: unsafe
// why: the fill of the global array skips cell 77777 (which keeps its initial 0), so the
// check of j == 77777 fails
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main(void) {
  for (int i = 0; i < 100000; i++) {
    if (i != 77777) a[i] = 42;
  }
  int j = __VERIFIER_nondet_int();
  if (!(0 <= j && j < 100000)) return 0;
  if (a[j] != 42) reach_error();
  return 0;
}
